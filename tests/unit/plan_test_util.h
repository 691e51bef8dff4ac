// Helpers of the plan stage's tests (test_plan.cpp, test_plan_check.cpp): an example kernel lowered,
// scheduled and planned as the driver's stages do, and checkPlan() expected to reject a corrupted copy
// of its plan.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/module.h"
#include "ir/lower.h"
#include "rtlgen/plan.h"
#include "rtlgen/rtlgen.h"
#include "scheduler/kernel_schedule.h"

namespace plan_test {

using namespace spvhls;
using ir::OpKind;

// One example kernel lowered, with its kinds, schedule and plan (built as the driver's stages do).
struct Planned {
  std::unique_ptr<spirv::Module> module;
  std::unique_ptr<spirv::ModuleView> view;
  ir::Kernel kernel;
  std::vector<rtl::LoopKind> kinds;
  sched::KernelSchedule schedule;
  sched::OperatorLibrary lib;
  rtl::KernelPlan plan;
};

inline std::unique_ptr<Planned> plan(const std::string& example, rtl::ClusterMode mode,
                                     bool shareUnits = true, bool outerLoops = false,
                                     double clockPeriodNs = 0, uint32_t ramPorts = 2) {
  auto p = std::make_unique<Planned>();
  // `example`: examples/<name>, a path under the build directory, or an absolute one; .spv unless it
  // says .spvasm.
  p->module = std::make_unique<spirv::Module>(spirv::readModuleFile(
      (example.starts_with("/")
           ? ""
           : std::string(SPVHLS_BINARY_DIR) + (example.find('/') == std::string::npos ? "/examples/" : "/")) +
      example + (example.ends_with(".spvasm") ? "" : ".spv")));
  p->view = std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*p->module));
  std::vector<std::string> names = ir::kernelNames(*p->view);
  REQUIRE(names.size() == 1);
  ir::LowerOptions lo;
  lo.pipelineOuterLoops = outerLoops;
  lo.ramPorts = ramPorts;
  p->kernel = ir::lowerKernel(*p->view, names[0], lo);
  p->kinds = rtl::chooseClusterKinds(p->kernel, mode, "test").loops;
  sched::ScheduleOptions so;
  so.target.clockPeriodNs = clockPeriodNs;
  p->lib = sched::OperatorLibrary(so.target);
  so.exitBeforeMemory = rtl::exitBeforeMemory(p->kinds);
  so.minII.exact.timeLimitSeconds = sched::ExactOptions::kAutoTimeLimitSeconds; // the driver's default
  p->schedule = sched::scheduleKernel(p->kernel, so);
  p->plan = rtl::planKernel(p->kernel, p->schedule, p->lib, p->kinds, shareUnits);
  return p;
}

// Applies `corrupt` to a copy of the plan; checkPlan must reject it with `expected` in the message.
inline void expectRejected(const Planned& p, const std::string& what,
                           const std::function<void(rtl::KernelPlan&)>& corrupt,
                           const std::string& expected) {
  CAPTURE(what);
  rtl::KernelPlan bad = p.plan;
  corrupt(bad);
  std::string message;
  try {
    rtl::checkPlan(p.kernel, p.schedule, p.lib, bad);
  } catch (const InternalError& e) {
    message = e.what();
  }
  INFO(message);
  CHECK(message.find("plan check: ") != std::string::npos);
  CHECK(message.find(expected) != std::string::npos);
}

// The first op of the first loop of kind `k`.
inline uint32_t firstOp(const ir::Loop& loop, OpKind k) {
  for (uint32_t v = 0; v < loop.ops.size(); ++v)
    if (loop.ops[v].kind == k) return v;
  FAIL("no such op");
  return 0;
}

} // namespace plan_test
