// `spvhls sim`: the kernel compiled, run by the interpreter and simulated in Verilator under random
// stalls and latencies, the results compared bit for bit (docs/cli.md).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "driver/cli.h"
#include "driver/pipeline.h"
#include "sim/testbench.h"

namespace spvhls::driver {

// The generated module's interface as the simulation benches see it. `hostImages`: the run spec's
// writes to program-scope globals, loaded into the RAMs and external memories they land in.
sim::SimInterface simInterface(const Compiled& c, const std::map<uint32_t, std::vector<uint8_t>>& hostImages);

// Returns the exit code: 0 when every run matched.
int simCommand(const Args& a);

} // namespace spvhls::driver
