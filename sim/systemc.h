// SystemC co-simulation of a generated kernel (docs/systemc.md): the SystemC wrapper a platform
// instantiates (the Verilated model with a TLM-2.0 initiator socket per memory port,
// sim/spvhls_tlm.h), an example platform, and the test bench of `spvhls sim --systemc`, which runs
// the same protocol and files as the C++ bench (sim/testbench.h), so runSimulator runs either.
#pragma once

#include <string>

#include "sim/testbench.h"

namespace spvhls::sim {

// <module>_sc.h: class <module>_sc, the model V<module> (verilator --sc) with its scalar arguments,
// start, done and busy as ports and each memory port as spvhls::MemoryPortToTlm (its `socket`).
std::string generateScWrapper(const SimInterface& iface);
// <module>_sc_main.cpp: a platform to start from (a clock, the wrapper, a 64 KiB spvhls::Memory per
// memory port, every scalar argument 0, run to done).
std::string generateScExample(const SimInterface& iface);
// The bench's sc_main (sim/sc_template.cpp.in filled in for `iface`).
std::string generateScBench(const SimInterface& iface);
// sim/spvhls_tlm.h, which the wrapper includes.
std::string tlmHeader();

} // namespace spvhls::sim
