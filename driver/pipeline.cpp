#include "driver/pipeline.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "ir/lower.h"
#include "rtlgen/loop_plan.h"

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

Compiled compile(const LoadedModule& m, const std::string& inputPath, const CompileOptions& o) {
  Compiled c;
  c.inputPath = inputPath;
  c.target = o.target;
  std::string name = pickKernel(*m.view, o.kernel, inputPath);
  c.kernel = ir::lowerKernel(*m.view, name);
  ir::verifyKernel(c.kernel);
  for (const Diagnostic& d : c.kernel.diagnostics) c.warnings.push_back(d.str());

  // The cluster kind decides how the exit condition constrains memory operations, so it is chosen
  // before scheduling.
  // The command line overrides a cluster kind the kernel's source asks for.
  rtl::ClusterMode requested = o.cluster;
  std::string requestedBy = "--cluster";
  if (requested == rtl::ClusterMode::Auto && !c.kernel.clusterAttribute.empty()) {
    requested = c.kernel.clusterAttribute == "StallFreeINTEL" ? rtl::ClusterMode::StallFree : rtl::ClusterMode::StallEnable;
    requestedBy = c.kernel.clusterAttribute + " on the kernel";
  }
  rtl::RtlOptions ro;
  ro.clusterMode = requested;
  ro.target = o.target;
  sched::ScheduleOptions so;
  so.target = o.target;
  for (const ir::Loop& loop : c.kernel.loops) {
    std::string reason;
    rtl::ClusterMode kind = rtl::chooseClusterKind(loop, requested, reason, requestedBy);
    if (requested == rtl::ClusterMode::StallFree && kind != rtl::ClusterMode::StallFree)
      c.warnings.push_back(fmt::format("{}: warning: loop {}: {}", loop.loc.str(), loop.name, reason));
    ro.loopKinds.push_back(kind);
    ro.loopKindReasons.push_back(reason);
    so.exitBeforeMemory.push_back(kind == rtl::ClusterMode::StallFree);
  }
  c.schedule = sched::scheduleKernel(c.kernel, so);
  // Auto: a stall-free schedule whose recurrences cross a cluster boundary needs counter gates that
  // serialise iterations behind the memory latency; one stall-enable cluster is faster there.
  if (requested == rtl::ClusterMode::Auto) {
    bool changed = false;
    sched::OperatorLibrary lib(o.target);
    for (size_t l = 0; l < c.kernel.loops.size(); ++l) {
      if (ro.loopKinds[l] != rtl::ClusterMode::StallFree) continue;
      rtl::LoopPlan plan = rtl::planLoop(c.kernel.loops[l], c.schedule.loops[l], lib, ro.loopKinds[l], "");
      if (plan.gates.empty()) continue;
      ro.loopKinds[l] = rtl::ClusterMode::StallEnable;
      ro.loopKindReasons[l] = fmt::format("auto: in stall-free clusters {} recurrence(s) would cross a cluster "
                                          "boundary and wait for memory; stall-enable",
                                          plan.gates.size());
      so.exitBeforeMemory[l] = false;
      changed = true;
    }
    if (changed) c.schedule = sched::scheduleKernel(c.kernel, so);
  }
  c.rtl = rtl::generateVerilog(c.kernel, c.schedule, ro);
  return c;
}

std::vector<std::string> writeVerilog(const Compiled& c, const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> paths;
  for (const auto& [file, text] : c.rtl.files) {
    std::string p = (std::filesystem::path(dir) / file).string();
    std::ofstream(p) << text;
    paths.push_back(p);
  }
  return paths;
}

} // namespace spvhls::driver
