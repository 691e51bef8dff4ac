// The compile pipeline shared by the CLI subcommands: read -> validate -> lower -> cluster kinds ->
// schedule (verified) -> plan (checked) -> Verilog. Each stage consumes earlier stages' results only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/module.h"
#include "ir/hls_ir.h"
#include "ir/lower.h"
#include "rtlgen/plan.h"
#include "rtlgen/reinvocation.h"
#include "rtlgen/rtlgen.h"
#include "scheduler/kernel_schedule.h"

namespace spvhls::driver {

struct CompileOptions {
  std::string kernel;                 // empty: the only kernel, or the run spec's
  rtl::ClusterMode cluster = rtl::ClusterMode::Auto;
  sched::Target target;
  uint64_t onChipBudget = ir::kDefaultOnChipBudget; // bytes of on-chip RAM (ir::LowerOptions)
  ir::InlinePolicy inlinePolicy = ir::InlinePolicy::Auto; // which functions become shared units
  bool fpReassociate = false; // split float sums carried by loops into partial sums (ir/reassociate.h)
  bool shareUnits = true;     // loop operations share unit instances where the II leaves room (--share-units)
  bool fuseLoops = true;      // adjacent loops with the same trip count are fused (--fusion)
  bool pipelineOuterLoops = false; // every outer loop pipelined around its inner loops (--outer-loops)
  bool ndRange = false;            // the body runs once per work-item even without built-ins (--ndrange)
  uint32_t subgroupSize = 8;       // lanes of a subgroup without a SubgroupSize mode (--subgroup-size)
  uint64_t maxWorkGroupSize = 256; // barrier buffers' work-items without a size in the source
  bool optimizeDatapath = true; // constant multiplies, divides and shifts as cheaper logic (--datapath-opt)
  uint32_t ramPorts = 2; // an on-chip RAM read and written: a read and a write port, or one (--ram-ports)
  uint32_t ramReadPorts = 4;       // the most read ports (copies) of an on-chip RAM (--ram-read-ports)
  sched::MinIIOptions minII;       // how each loop's II is found (--scheduler, --time-limit)
};

struct LoadedModule {
  std::unique_ptr<spirv::Module> module;
  std::unique_ptr<spirv::ModuleView> view;
};

struct Compiled {
  std::string inputPath;
  ir::Kernel kernel;
  sched::KernelSchedule schedule;
  rtl::KernelPlan plan;
  rtl::RtlResult rtl;
  sched::Target target;
  std::vector<Diagnostic> warnings; // lowering's and the cluster choice's, printed by the driver
  // Some float sum was split into partial sums (--fp-reassociate): the kernel rounds differently from
  // the source, so simulation compares the RTL with the IR evaluator and the IR with the interpreter in ulps.
  bool reassociated = false;
  // Per pipelined loop: its reinvocation delay in the generated hardware, which settles
  // MaxReinvocationDelayINTEL (its request's status and note in `kernel`).
  std::vector<rtl::ReinvocationDelay> reinvocation;
  // Per Task process (processes[1..]): its body built as a module of its own (its kernel is the body,
  // its rtl the body's modules, also listed in this kernel's rtl.files).
  std::vector<Compiled> tasks;
};

LoadedModule loadModule(const std::string& path);
// Picks the kernel: `requested` if given, else the module's only kernel; otherwise an error that
// lists the kernels.
std::string pickKernel(const spirv::ModuleView& mv, const std::string& requested, const std::string& path);
Compiled compile(const LoadedModule& m, const std::string& inputPath, const CompileOptions& o);
// Writes the Verilog files into dir (created) and returns their paths (top module first); also the
// initial image of each external memory (externalImageFile).
std::vector<std::string> writeVerilog(const Compiled& c, const std::string& dir);
// The file holding an external memory's initial image: mem_<port name>.bin, raw bytes.
std::string externalImageFile(const Compiled& c, uint32_t memory);

} // namespace spvhls::driver
