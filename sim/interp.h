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
  // Final contents of the module-scope variables all work-items share (global, constant and local
  // address spaces; a local variable as the last work-group left it), in module order. `defined`:
  // per byte, whether it was ever initialised or written (empty: all are).
  struct Global {
    uint32_t var = 0; // SPIR-V id
    std::string name;
    bool constant = false; // constant address space: never written
    std::vector<uint8_t> bytes, defined;
  };
  std::vector<Global> globals;
};

// The final contents of the written (non-constant) module-scope variables, in hex bytes, "??" for a
// byte never defined; at most `maxBytes` per variable. Empty when there are none.
std::string formatGlobals(const InterpResult& r, size_t maxBytes = 64);

// Final contents of module-scope variables from a simulation (`got`: one per `vars` entry, given by
// SPIR-V id and name; id 0: not compared) against the interpreter's; bytes the interpreter never
// defined are not compared. "" when equal, else the first differences.
std::string compareGlobals(const InterpResult& golden, const std::vector<std::pair<uint32_t, std::string>>& vars,
                           const BufferSet& got, size_t maxReported = 8);

// Runs spec.kernel with spec.args over the run spec's ND-range (global, local and subgroup size).
// Throws DiagnosticError for undefined behaviour (out-of-bounds buffer access, division by zero,
// reading uninitialised memory, out-of-range float-to-integer conversions and subgroup shuffles,
// barriers or subgroup instructions not reached by the whole work-group / subgroup), unsupported
// instructions (named), or exceeding maxInstructions, each naming the instruction and its location.
InterpResult interpret(const spirv::ModuleView& mv, const RunSpec& spec, const InterpOptions& opts = {});

} // namespace spvhls::sim
