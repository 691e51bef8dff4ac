#include "driver/pipeline.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "ir/lower.h"
#include "ir/reassociate.h"
#include "rtlgen/plan.h"

namespace spvhls::driver {

LoadedModule loadModule(const std::string& path) {
  LoadedModule m;
  m.module = std::make_unique<spirv::Module>(spirv::readModuleFile(path));
  m.view = std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*m.module));
  return m;
}

std::string pickKernel(const spirv::ModuleView& mv, const std::string& requested, const std::string& path) {
  std::vector<std::string> names = ir::kernelNames(mv);
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  if (!requested.empty()) {
    for (const auto& n : names)
      if (n == requested) return n;
    throw DiagnosticError(SourceLoc{path}, "OpEntryPoint",
                          fmt::format("no kernel named '{}'; the module has: {}", requested, list.empty() ? "none" : list));
  }
  if (names.size() == 1) return names[0];
  if (names.empty()) throw DiagnosticError(SourceLoc{path}, "OpEntryPoint", "the module has no Kernel entry point");
  throw DiagnosticError(SourceLoc{path}, "OpEntryPoint",
                        fmt::format("the module has several kernels ({}); choose one with --kernel", list));
}

namespace {

// Runs one stage; a standard-library exception escaping it (std::out_of_range from .at(), a
// std::logic_error) is a compiler bug, reported as an InternalError at the input with the stage.
template <class F>
auto stage(const std::string& inputPath, const char* name, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const DiagnosticError&) {
    throw;
  } catch (const std::exception& e) {
    throw InternalError(SourceLoc{inputPath}, name, fmt::format("unexpected exception: {}", e.what()));
  }
}

// MaxReinvocationDelayINTEL N is met when every way back to the loop takes at most N cycles from the
// last launch; a request that cannot be met is a warning that says why and what would help.
void settleReinvocation(Compiled& c) {
  using S = ir::LoopControlRequest::Status;
  for (uint32_t l = 0; l < c.kernel.loops.size(); ++l) {
    ir::Loop& loop = c.kernel.loops[l];
    const rtl::ReinvocationDelay d = rtl::reinvocationDelay(c.kernel, c.rtl, l);
    c.reinvocation.push_back(d);
    for (ir::LoopControlRequest& r : loop.controls.requests) {
      if (r.name != "MaxReinvocationDelayINTEL") continue;
      const int64_t n = std::stoll(r.value);
      const std::string how =
          fmt::format("the pipeline drains {} cycles after its last launch, then the FSM runs {}", d.drain, d.path);
      if (!d.caller.empty() && d.kind == rtl::ReinvocationDelay::Kind::Known) {
        // A sub-pipeline: what the loop's hardware decides is the delay when the next call waits.
        const bool met = d.min <= n;
        r.status = met ? S::Honoured : S::Ignored;
        r.note =
            fmt::format("{}reinvocation delay {} cycles when the next call waits: {}; a later call starts "
                        "when loop {} makes it",
                        met ? "" : "cannot be met: ", d.min, d.path, d.caller);
        if (!met) {
          r.note += c.rtl.loops[l].model && c.rtl.loops[l].model->reinvocable
                        ? "; an exit condition known earlier in the iteration shortens it"
                        : "; a stall-enable inner loop takes its next call while it drains (--cluster "
                          "stall-enable, or auto)";
          c.warnings.push_back(Diagnostic{Diagnostic::Severity::Warning, loop.loc, "loop " + loop.name,
                                          "MaxReinvocationDelayINTEL " + r.value + " not met: " + r.note});
        }
      } else if (d.kind == rtl::ReinvocationDelay::Kind::Once) {
        r.status = S::Honoured;
        r.note = "the loop runs at most once per kernel run: there is no reinvocation";
      } else if (d.kind == rtl::ReinvocationDelay::Kind::Unknown) {
        r.status = S::Ignored;
        r.note = "the reinvocation delay is not predicted: " + d.why;
      } else if (d.max && *d.max <= n) {
        r.status = S::Honoured;
        r.note = d.min == *d.max ? fmt::format("reinvocation delay {} cycles: {}", d.min, how)
                                 : fmt::format("reinvocation delay {}..{} cycles: {}", d.min, *d.max, how);
      } else {
        r.status = S::Ignored;
        r.note = d.min > n ? fmt::format("cannot be met: the next invocation starts {} cycles after the last "
                                         "launch ({}); LoopCoalesceINTEL on the enclosing loop makes the nest "
                                         "one pipeline without reinvocations",
                                         d.min, how)
                           : fmt::format("met only on the shortest way back ({} cycles); the longest takes {}",
                                         d.min, d.max ? fmt::format("{} cycles", *d.max) : d.why);
        c.warnings.push_back(Diagnostic{Diagnostic::Severity::Warning, loop.loc, "loop " + loop.name,
                                        "MaxReinvocationDelayINTEL " + r.value + " not met: " + r.note});
      }
    }
  }
  for (ir::BasicBlock& b : c.kernel.blocks)
    if (b.loopControls)
      for (ir::LoopControlRequest& r : b.loopControls->requests)
        if (r.name == "MaxReinvocationDelayINTEL" && r.status == S::NotHonouredYet) {
          r.status = S::Ignored;
          r.note = "the loop is not pipelined (it runs in the FSM): only a pipelined loop's reinvocation "
                   "delay is built and checked";
        }
}

} // namespace

namespace {

// Reassociation, cluster kinds, schedule, plan and Verilog of c.kernel (a kernel, or a task process's
// body) with the cluster kind `requested` by `requestedBy`.
void build(Compiled& c, const std::string& inputPath, const CompileOptions& o, rtl::ClusterMode requested,
           const std::string& requestedBy, const std::vector<rtl::TaskInstance>& tasks, const std::string& moduleName) {
  const sched::OperatorLibrary lib(o.target);
  stage(inputPath, "reassociation", [&] {
    ir::findFpReductions(c.kernel, o.fpReassociate, [&](const ir::Op& op) { return lib.latency(op); });
    ir::verifyKernel(c.kernel);
  });
  for (const ir::Loop& loop : c.kernel.loops)
    for (const ir::FpReduction& r : loop.fpReductions)
      c.reassociated = c.reassociated || r.partials > 0;

  rtl::ClusterChoice choice = stage(inputPath, "cluster kinds",
                                    [&] { return rtl::chooseClusterKinds(c.kernel, requested, requestedBy); });
  for (Diagnostic& d : choice.warnings) c.warnings.push_back(std::move(d));

  sched::ScheduleOptions so;
  so.target = o.target;
  so.minII = o.minII;
  auto scheduleAndPlan = [&] {
    so.exitBeforeMemory = rtl::exitBeforeMemory(choice.loops);
    c.schedule = stage(inputPath, "scheduling", [&] { return sched::scheduleKernel(c.kernel, so); });
    c.plan = stage(inputPath, "planning",
                   [&] { return rtl::planKernel(c.kernel, c.schedule, lib, choice.loops, o.shareUnits); });
  };
  scheduleAndPlan();
  // Auto: a stall-free schedule whose recurrences cross a cluster boundary needs counter gates that
  // serialise iterations behind the memory latency; one stall-enable cluster is faster there.
  if (requested == rtl::ClusterMode::Auto && rtl::avoidGates(c.plan, choice.loops)) scheduleAndPlan();
  for (const sched::LoopSchedule& ls : c.schedule.loops)
    if (!ls.registerBudgetMet) {
      const ir::Loop& loop = c.kernel.loops[ls.loop];
      c.warnings.push_back(
          Diagnostic{Diagnostic::Severity::Warning, loop.loc, "loop " + loop.name,
                     fmt::format("{} not met: {}", c.kernel.registerLimit, ls.registerBudgetNote)});
    }
  c.rtl = stage(inputPath, "generation", [&] {
    return rtl::generateVerilog(c.kernel, c.schedule, c.plan, /*keepNetlists=*/false, tasks, moduleName);
  });
  stage(inputPath, "reinvocation delays", [&] { settleReinvocation(c); });
}

} // namespace

namespace {
// A served body's loop pops its next invocation in the first position of every iteration: an
// iteration is admitted only when an invocation is queued. A pop further on would stall (or hold a
// cluster) with older invocations behind it, whose results the kernel may be waiting for.
void checkServingLoop(const Compiled& t, const ir::Process& pr) {
  const ir::Loop& loop = t.kernel.loops.at(0);
  for (ir::ValueId v = 0; v < loop.ops.size(); ++v) {
    const ir::Op& op = loop.ops[v];
    if (op.kind == ir::OpKind::Load && t.kernel.memories[op.memory].ownQueue() &&
        t.schedule.loops.at(0).schedule.start.at(v) != 0)
      throw InternalError(pr.loc, "task " + pr.name,
                          fmt::format("the loop serving its invocations pops them in cycle {}, not 0",
                                      t.schedule.loops[0].schedule.start[v]));
  }
}
} // namespace

Compiled compile(const LoadedModule& m, const std::string& inputPath, const CompileOptions& o) {
  Compiled c;
  c.inputPath = inputPath;
  c.target = o.target;
  std::string name = pickKernel(*m.view, o.kernel, inputPath);
  stage(inputPath, "lowering", [&] {
    c.kernel = ir::lowerKernel(
        *m.view, name,
        ir::LowerOptions{o.onChipBudget, o.inlinePolicy, o.fuseLoops, o.pipelineOuterLoops, o.ndRange,
                         o.subgroupSize, o.maxWorkGroupSize, o.optimizeDatapath, o.ramPorts, o.ramReadPorts});
    ir::verifyKernel(c.kernel);
  });
  c.warnings = c.kernel.diagnostics;

  // The cluster kind decides how the exit condition constrains memory operations, so it is chosen
  // before scheduling. The command line overrides a cluster kind the kernel's source asks for.
  rtl::ClusterMode requested = o.cluster;
  std::string requestedBy = "--cluster";
  if (requested == rtl::ClusterMode::Auto && !c.kernel.clusterAttribute.empty()) {
    requested = c.kernel.clusterAttribute == "StallFreeINTEL" ? rtl::ClusterMode::StallFree : rtl::ClusterMode::StallEnable;
    requestedBy = c.kernel.clusterAttribute + " on the kernel";
  }

  // Task processes first: the kernel's top module instances their bodies. A create's ClusterMode
  // sets the cluster kind inside its task, unless the command line says otherwise.
  std::vector<rtl::TaskInstance> instances;
  if (!c.kernel.tasks.empty()) instances.resize(c.kernel.processes.size());
  const std::string top = rtl::sanitize(c.kernel.name);
  for (uint32_t p = 1; p < c.kernel.processes.size(); ++p) {
    const ir::Process& pr = c.kernel.processes[p];
    Compiled t;
    t.inputPath = inputPath;
    t.target = o.target;
    t.kernel = c.kernel.tasks.at(pr.body);
    t.warnings = t.kernel.diagnostics;
    rtl::ClusterMode mode = requested;
    std::string by = requestedBy;
    if (o.cluster == rtl::ClusterMode::Auto && pr.clusterMode >= 0) {
      mode = pr.clusterMode == 0 ? rtl::ClusterMode::StallFree : rtl::ClusterMode::StallEnable;
      by = fmt::format("ClusterMode {} of the task sequence ({})", pr.clusterMode, pr.loc.str());
    }
    build(t, inputPath, o, mode, by, {}, rtl::sanitize(top + "_" + pr.name));
    if (pr.served) checkServingLoop(t, pr);
    instances[p] = rtl::taskInstance(t.kernel, t.rtl);
    c.kernel.tasks[pr.body] = t.kernel; // with what building it found (reductions, controls' status)
    for (const Diagnostic& d : t.warnings) c.warnings.push_back(d);
    c.reassociated = c.reassociated || t.reassociated;
    c.tasks.push_back(std::move(t));
  }
  build(c, inputPath, o, requested, requestedBy, instances, "");
  // The task bodies' modules go with the kernel's (operator units shared by name only once).
  std::set<std::string> files;
  for (const auto& f : c.rtl.files) files.insert(f.first);
  for (const Compiled& t : c.tasks)
    for (const auto& f : t.rtl.files)
      if (files.insert(f.first).second) c.rtl.files.push_back(f);
  return c;
}

std::string externalImageFile(const Compiled& c, uint32_t memory) {
  return fmt::format("mem_{}.bin", c.rtl.externalNames.at(memory));
}

std::vector<std::string> writeVerilog(const Compiled& c, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> paths;
  for (const auto& [file, text] : c.rtl.files) {
    std::string p = (std::filesystem::path(dir) / file).string();
    std::ofstream(p) << text;
    paths.push_back(p);
  }
  // The initial image of each external memory, raw bytes: the host loads it into the memory behind
  // port mem_<name> before the first run (docs/hardware-interface.md).
  for (size_t m = 0; m < c.kernel.memories.size(); ++m) {
    const ir::Memory& mem = c.kernel.memories[m];
    if (mem.kind != ir::Memory::Kind::External) continue;
    std::ofstream f(std::filesystem::path(dir) / externalImageFile(c, uint32_t(m)), std::ios::binary);
    const std::vector<uint8_t> bytes = mem.initialContents();
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  return paths;
}

} // namespace spvhls::driver
