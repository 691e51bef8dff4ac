// Lowering: one SPIR-V entry point (frontend ModuleView) -> ir::Kernel.
//
// Steps (each in its own ir/lower_*.cpp): decode the reachable SPIR-V into a mutable working copy,
// inlining every call except those of shared functions (lower_decode.cpp), promote Function-storage variables
// to SSA values (lower_mem2reg.cpp), translate to the HLS IR CFG resolving every pointer to (memory, byte
// offset) (lower_translate.cpp, lower_values.cpp), find loops and attach their controls (lower_loops.cpp),
// if-convert and cut innermost loops out of the CFG (lower_extract.cpp), and finally remove dead code
// and renumber (lower_compact.cpp). The result always passes verifyKernel().
#pragma once

#include <string>
#include <vector>

#include "frontend/module.h"
#include "ir/hls_ir.h"

namespace spvhls::ir {

// Which called functions become shared units (ir::Function) instead of being inlined at every call.
// Always: none. Never: every function that can be one (scalar parameters and result). Auto: those that
// can, are called from several places, would add at least `autoShareInstructions` SPIR-V instructions
// if inlined everywhere, and have no call inside an innermost loop (which inlining keeps pipelinable).
enum class InlinePolicy { Auto, Always, Never };
const char* inlinePolicyName(InlinePolicy p);
constexpr uint64_t kAutoShareInstructions = 1000;

struct LowerOptions {
  // Bytes of on-chip RAM for private arrays and program-scope variables; those that do not fit
  // become external memories (Memory::Kind::External), the largest first.
  uint64_t onChipBudget = kDefaultOnChipBudget;
  InlinePolicy inlinePolicy = InlinePolicy::Auto;
  // Adjacent loops with the same trip count are fused (NoFusionINTEL keeps a loop apart).
  bool fuseLoops = true;
  // Every outer loop whose inner loops are pipelined is pipelined too, its inner loops sub-pipelines
  // (--outer-loops pipelined); otherwise only outer loops whose controls ask for it
  // (InitiationIntervalINTEL, MaxConcurrencyINTEL > 1, PipelineEnableINTEL 1).
  bool pipelineOuterLoops = false;
  // The kernel runs as an ND-range even if it reads no work-item built-in (--ndrange): its body is
  // run once per work-item (a kernel that reads one always is).
  bool ndRange = false;
  // Lanes of a subgroup in hardware when the kernel uses subgroups and has no SubgroupSize execution
  // mode (--subgroup-size; the interpreter's default is 8). A power of two from 1 to 64.
  uint32_t subgroupSize = 8;
  // The largest work-group a kernel with barriers runs when its source says nothing
  // (reqd_work_group_size, max_work_group_size): its buffers hold a value per work-item
  // (--max-work-group-size; Intel's FPGA flow assumes 256 too).
  uint64_t maxWorkGroupSize = 256;
  // Datapath optimisations before scheduling (--datapath-opt): operations with a constant operand
  // become cheaper logic (shifts as wires, multiplications and divisions by constants as shifts and
  // adds or a multiplication by the reciprocal).
  bool optimizeDatapath = true;
  // Ports of an on-chip RAM that a kernel reads and writes (--ram-ports): 2, a read port and a write
  // port (the simple dual-port block RAM every FPGA has), so a loop may load and store it in one
  // cycle; 1, one port for both.
  uint32_t ramPorts = 2;
  // The most read ports of an on-chip RAM (--ram-read-ports): a RAM that a loop loads n times per
  // iteration, where the loop's busiest port that cannot be copied is used b times, gets
  // min(ceil(n / b), ramReadPorts), each a copy of its contents (the write port writes them all), while
  // the copies fit the on-chip budget. 1: no copies.
  uint32_t ramReadPorts = 4;
};

// Lowers the kernel entry point `entryName`. Throws DiagnosticError for anything the source asks that
// the compiler does not support (named, with its location) and for an unknown entry point.
Kernel lowerKernel(const spirv::ModuleView& mv, const std::string& entryName,
                   const LowerOptions& options = {});

// Names of the Kernel-model entry points, in module order.
std::vector<std::string> kernelNames(const spirv::ModuleView& mv);

} // namespace spvhls::ir
