// The golden interpreter: executes the SPIR-V module itself (not the compiler's IR), so that it stays
// an independent reference for the generated hardware.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "frontend/module.h"
#include "sim/runspec.h"

namespace spvhls::sim {

struct InterpOptions {
  uint64_t maxInstructions = 2'000'000'000; // guard against non-terminating kernels
  uint64_t maxMemoryBytes = uint64_t(1) << 30; // live Function variables per invocation (runaway recursion)
};

struct InterpResult {
  BufferSet buffers;             // final buffer contents, argument order
  uint64_t instructions = 0;     // SPIR-V instructions executed
  // Profile of the control flow, for cycle predictions: executions of each block (by label id) and
  // traversals of each CFG edge (key: from label << 32 | to label), summed over all work-items. Calls
  // count the callee's blocks too.
  std::unordered_map<uint32_t, uint64_t> blockCounts;
  std::unordered_map<uint64_t, uint64_t> edgeCounts;
};

// Runs spec.kernel with spec.args over the run spec's ND-range (global, local and subgroup size).
// Throws DiagnosticError for undefined behaviour (out-of-bounds buffer access, division by zero,
// reading uninitialised memory, out-of-range float-to-integer conversions and subgroup shuffles,
// barriers or subgroup instructions not reached by the whole work-group / subgroup), unsupported
// instructions (named), or exceeding maxInstructions, each naming the instruction and its location.
InterpResult interpret(const spirv::ModuleView& mv, const RunSpec& spec, const InterpOptions& opts = {});

} // namespace spvhls::sim
