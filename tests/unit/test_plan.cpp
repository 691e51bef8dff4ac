// The microarchitecture plan stage: planKernel on the examples in every cluster kind, the auto
// re-decision, what each loop carries and from where, modulo binding of unit instances, reinvocation
// delays and RAM read ports; the plans pass checkPlan(), and where a rule matters a corruption of the
// plan is shown rejected. checkPlan() catching each kind of corruption: test_plan_check.cpp.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "plan_test_util.h"
#include "rtlgen/ram_gen.h"
#include "rtlgen/reinvocation.h"
#include "rtlgen/rtlgen.h"
#include "rtlgen/verilog_printer.h"

using namespace spvhls;
using namespace plan_test;
using ir::OpKind;

namespace {

// Instances per module of loop 0.
std::map<std::string, size_t> instanceCounts(const rtl::LoopPlan& lp) {
  std::map<std::string, size_t> n;
  for (const auto& i : lp.instances)
    n[i.module]++;
  return n;
}

} // namespace

TEST_CASE("every example plans and passes checkPlan in every cluster kind") {
  for (const char* example : {"vadd", "fir", "histogram", "lut", "dot"})
    for (rtl::ClusterMode mode :
         {rtl::ClusterMode::Auto, rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
      CAPTURE(example);
      CAPTURE(rtl::clusterModeName(mode));
      auto p = plan(example, mode);
      REQUIRE(p->plan.loops.size() == p->kernel.loops.size());
      CHECK_NOTHROW(rtl::checkPlan(p->kernel, p->schedule, p->lib, p->plan));
      // The generator renders exactly the plan's timing.
      rtl::RtlResult r = rtl::generateVerilog(p->kernel, p->schedule, p->plan);
      CHECK(r.blockCycles == p->plan.fsm.blockCycles);
      for (size_t l = 0; l < r.loops.size(); ++l) {
        CHECK(r.loops[l].kind == p->plan.loops[l].kind);
        CHECK(r.loops[l].clusters.size() == p->plan.loops[l].cuts.size());
      }
    }
}

TEST_CASE("an outer pipeline runs its inner loop as a sub-pipeline, planned like a load in both kinds") {
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
    CAPTURE(rtl::clusterModeName(mode));
    auto p = plan("loops/reinvoke_loose", mode, true, true);
    REQUIRE(p->kernel.loops.size() == 2);
    REQUIRE(ir::loopCallers(p->kernel.loops) == std::vector<int>{1, -1});
    const ir::Loop& outer = p->kernel.loops[1];
    const rtl::LoopPlan& op = p->plan.loops[1];
    const rtl::LoopPlan& ip = p->plan.loops[0];
    const uint32_t call = firstOp(outer, OpKind::LoopCall);
    CHECK(op.kind == mode);
    CHECK(op.compPos[call] - op.start[call] == ir::kSubPipelineLatency);
    CHECK(op.respFifoDepth[call] >= ir::kSubPipelineLatency / op.ii + 2);
    // The inner loop's memories are ports of the outer module (it has no access of its own).
    CHECK(op.memories == ip.memories);
    CHECK(op.loadMemories == ip.loadMemories);
    if (mode == rtl::ClusterMode::StallFree) {
      CHECK(op.isCut(op.start[call]));
      CHECK(op.isCut(op.compPos[call]));
    }
    CHECK_FALSE(op.predictable);
    CHECK(op.subPipelines);
    CHECK_NOTHROW(rtl::checkPlan(p->kernel, p->schedule, p->lib, p->plan));
    expectRejected(
        *p, "call FIFO too shallow", [&](rtl::KernelPlan& b) { b.loops[1].respFifoDepth[call] = 1; },
        "response FIFO of depth 1");
    expectRejected(
        *p, "an inner loop's memory without a port", [&](rtl::KernelPlan& b) { b.loops[1].memories.clear(); },
        "memory");
    rtl::RtlResult r = rtl::generateVerilog(p->kernel, p->schedule, p->plan);
    REQUIRE(r.files.size() >= 3);
    const auto outerFile = std::find_if(r.files.begin(), r.files.end(), [](const auto& f) {
      return f.first.find("_loop1.v") != std::string::npos;
    });
    REQUIRE(outerFile != r.files.end());
    CHECK(outerFile->second.find(fmt::format("_loop0 u_sub{} (", call)) != std::string::npos);
    CHECK(r.loops[1].unpredictedWhy.find("sub-pipelines") != std::string::npos);
  }
}

TEST_CASE("auto: a stall-free plan with recurrence gates is re-decided as stall-enable") {
  // histogram's bins[x]++ is a recurrence through memory: forced stall-free it needs gates.
  auto forced = plan("histogram", rtl::ClusterMode::StallFree);
  REQUIRE(forced->plan.loops.size() >= 1);
  bool anyGates = false;
  for (const rtl::LoopPlan& lp : forced->plan.loops)
    anyGates = anyGates || !lp.gates.empty();
  REQUIRE(anyGates);
  std::vector<rtl::LoopKind> kinds = forced->kinds;
  CHECK(rtl::avoidGates(forced->plan, kinds));
  for (size_t l = 0; l < kinds.size(); ++l)
    if (!forced->plan.loops[l].gates.empty()) {
      CHECK(kinds[l].kind == rtl::ClusterMode::StallEnable);
      CHECK(kinds[l].reason.find("recurrence") != std::string::npos);
    }
  // A plan without gates is left alone.
  auto vadd = plan("vadd", rtl::ClusterMode::StallFree);
  std::vector<rtl::LoopKind> vkinds = vadd->kinds;
  CHECK_FALSE(rtl::avoidGates(vadd->plan, vkinds));
  CHECK(vkinds[0].kind == rtl::ClusterMode::StallFree);
}

TEST_CASE("at 10 ns a load's response is read from its FIFO where readable, unless that costs a gate") {
  // vadd: no register between the response FIFO and the add, in both kinds; registered without a
  // clock period.
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
    auto registered = plan("vadd", mode);
    for (ir::ValueId v = 0; v < registered->kernel.loops[0].ops.size(); ++v)
      if (registered->kernel.loops[0].ops[v].kind == OpKind::Load)
        CHECK(registered->plan.loops[0].compPos[v] + 1 == registered->plan.loops[0].readyPos[v]);
    auto p = plan("vadd", mode, true, false, 10);
    const ir::Loop& loop = p->kernel.loops[0];
    const rtl::LoopPlan& lp = p->plan.loops[0];
    uint32_t loads = 0;
    for (ir::ValueId v = 0; v < loop.ops.size(); ++v)
      if (loop.ops[v].kind == OpKind::Load) {
        ++loads;
        CHECK(lp.compPos[v] == lp.readyPos[v]);
        CHECK(lp.compPos[v] == lp.start[v] + p->lib.target().memLatency + 1);
      }
    CHECK(loads == 2);
  }
  // float_arith's second loop, stall-free: read there, the first response's cut would fall between
  // the float recurrences' phis and their producers; taken as they arrive, no gate is needed.
  auto fa = plan("regress/float_arith", rtl::ClusterMode::StallFree, true, false, 10);
  REQUIRE(fa->plan.loops.size() == 2);
  const ir::Loop& loop = fa->kernel.loops[1];
  const rtl::LoopPlan& lp = fa->plan.loops[1];
  CHECK(lp.kind == rtl::ClusterMode::StallFree);
  CHECK(lp.gates.empty());
  CHECK(lp.predictable);
  uint32_t early = 0;
  for (ir::ValueId v = 0; v < loop.ops.size(); ++v)
    if (loop.ops[v].kind == OpKind::Load) {
      CHECK(lp.compPos[v] == lp.start[v] + fa->lib.target().memLatency);
      early += lp.compPos[v] + 1 == lp.readyPos[v];
    }
  CHECK(early >= 2);
}

TEST_CASE("vadd carries i, counts it where it is read late and forms its address again") {
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
    auto p = plan("vadd", mode);
    const ir::Loop& loop = p->kernel.loops[0];
    const rtl::LoopPlan& lp = p->plan.loops[0];
    const uint32_t i = firstOp(loop, OpKind::LoopPhi), store = firstOp(loop, OpKind::Store);
    REQUIRE(rtl::inductionStep(loop, i) == uint64_t(1));
    // The store reads its address, an extension of i, at its start: counted there, not carried.
    CHECK(lp.lastUse[i] == int(lp.start[store]));
    REQUIRE_FALSE(lp.counters[i].empty());
    CHECK(lp.counters[i].back() == lp.start[store]);
    REQUIRE(lp.counters[i].size() >= 2); // where i is formed, then where it is read late
    CHECK(lp.carriedTo[i] < int(lp.counters[i][1]));
    const ir::ValueId addr = loop.ops[store].operands[0];
    CHECK(lp.rematerialized[addr]);
    CHECK(lp.carriedTo[addr] == lp.lastUse[addr]);
    // Nothing else drives a, b and c: their requests go ungated.
    CHECK(lp.soleDriverOf == lp.memories);
    // i itself is a counter: no carry register, and i + 1 is not carried back to it.
    CHECK(lp.phiCounted(i));
    CHECK(lp.counters[i].front() == lp.compPos[i]);
    const ir::ValueId next = loop.phis[loop.ops[i].index].next;
    CHECK(lp.carriedTo[next] == int(lp.compPos[next]));
    CHECK(lp.lastUse[next] > lp.carriedTo[next]); // the back edge, which the counter replaces
    // n (an argument) and i's start (a constant) are held by the kernel: not latched.
    CHECK(lp.liveInHeld == std::vector<bool>(loop.liveIns.size(), true));
  }
  // A reinvocable loop's tokens follow the last invocation's: no counters there.
  // (outer_plain's inner loop reads its induction variable at its store, several positions on.)
  auto nest = plan("loops/outer_plain", rtl::ClusterMode::StallEnable, true, /*outerLoops=*/true);
  int reinvocable = 0;
  for (const rtl::LoopPlan& lp : nest->plan.loops) {
    if (!lp.reinvocable) continue;
    ++reinvocable;
    CHECK(lp.carriedTo == lp.lastUse);
    for (const auto& c : lp.counters)
      CHECK(c.empty());
  }
  CHECK(reinvocable > 0);
}

TEST_CASE("a float sum on a unit running across cuts is carried from the unit's output") {
  // fvec's acc += a * b (f64 FAdd units, 6 cycles) start in the cluster where the phis are read and
  // deliver after a load's response cut: the carry registers are written as the sums come out of the
  // units, so no gate waits for the later cluster and the cycles are predicted.
  auto p = plan("regress/fvec", rtl::ClusterMode::StallFree);
  size_t found = 0;
  for (size_t l = 0; l < p->plan.loops.size(); ++l) {
    const rtl::LoopPlan& lp = p->plan.loops[l];
    const ir::Loop& loop = p->kernel.loops[l];
    for (uint32_t v = 0; v < loop.ops.size(); ++v) {
      if (loop.ops[v].kind != OpKind::LoopPhi || !lp.carryWhereFormed[loop.ops[v].index]) continue;
      const ir::ValueId next = loop.phis[loop.ops[v].index].next;
      if (!lp.unitSpan(next)) continue;
      ++found;
      CHECK(lp.clusterOf(lp.start[v]) == lp.clusterOf(lp.start[next]));
      for (const rtl::CarryGate& g : lp.gates)
        CHECK(g.to != v);
      CHECK(lp.predictable);
      if (lp.lastUse[next] < int(lp.compPos[next])) {
        // A sum read by nothing else in the pipeline needs no side FIFO.
        CHECK(lp.sideFifoDepth[next] == 0);
        expectRejected(
            *p, "a side FIFO nothing reads", [&](rtl::KernelPlan& b) { b.loops[l].sideFifoDepth[next] = 8; },
            "nothing reads");
      } else {
        // Written where ready instead, the sum would come from a later cluster: a gate is missing.
        expectRejected(
            *p, "a unit's carry written where ready, without a gate",
            [&](rtl::KernelPlan& b) { b.loops[l].carryWhereFormed[loop.ops[v].index] = false; }, "gate");
      }
    }
  }
  CHECK(found >= 2);
}

TEST_CASE("a running sum formed at a cluster's end is carried from there: no recurrence gate") {
  // freduce's run += x[i]: the FAdd's result is ready at the next cluster's entry, where it would wait
  // in the exit FIFO; its carry register is written as it leaves the cluster it is formed in, so the
  // phi, read in that cluster, needs no gate and the cycles are predicted.
  auto p = plan("regress/freduce", rtl::ClusterMode::StallFree);
  bool found = false;
  for (size_t l = 0; l < p->plan.loops.size(); ++l) {
    const rtl::LoopPlan& lp = p->plan.loops[l];
    const ir::Loop& loop = p->kernel.loops[l];
    for (uint32_t v = 0; v < loop.ops.size(); ++v) {
      if (loop.ops[v].kind != OpKind::LoopPhi || !lp.carryWhereFormed[loop.ops[v].index]) continue;
      found = true;
      const ir::ValueId next = loop.phis[loop.ops[v].index].next;
      CHECK(lp.isCut(lp.readyPos[next]));
      CHECK(lp.clusterOf(lp.compPos[next]) == lp.clusterOf(lp.start[v]));
      CHECK(lp.gates.empty());
      CHECK(lp.predictable);
      // Written where it is ready instead, the value would come from a later cluster: a gate is missing.
      expectRejected(
          *p, "a carry written where ready, without a gate",
          [&](rtl::KernelPlan& b) { b.loops[l].carryWhereFormed[loop.ops[v].index] = false; }, "gate");
    }
  }
  CHECK(found);
}

// The divide regression kernel (tests/e2e/regress/divide.cl): SDiv and URem in a loop, SRem in the FSM.
TEST_CASE("dividers run on unit instances wherever one enable drives their whole span") {
  for (rtl::ClusterMode mode :
       {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable, rtl::ClusterMode::Auto}) {
    CAPTURE(rtl::clusterModeName(mode));
    auto p = plan("regress/divide", mode);
    REQUIRE(p->kernel.loops.size() == 1);
    const ir::Loop& loop = p->kernel.loops[0];
    const rtl::LoopPlan& lp = p->plan.loops[0];
    size_t dividers = 0, instanced = 0;
    for (uint32_t v = 0; v < loop.ops.size(); ++v) {
      const sched::Unit u = p->lib.unit(loop.ops[v]);
      if (u.build != sched::UnitBuild::Instance) {
        CHECK(lp.unitModule[v].empty());
        continue;
      }
      ++dividers;
      const uint32_t end = lp.start[v] + u.latency - 1;
      const bool oneCluster = lp.clusterOf(lp.start[v]) == lp.clusterOf(end);
      CHECK(lp.unitModule[v] == (oneCluster ? u.module : ""));
      CHECK(lp.compPos[v] == (oneCluster ? end : lp.start[v]));
      instanced += oneCluster;
    }
    CHECK(dividers == 2);
    if (!lp.stallFree()) CHECK(instanced == dividers);
    size_t fsmUnits = 0;
    for (uint32_t v = 0; v < p->kernel.ops.size(); ++v)
      if (!p->plan.fsm.unitModule[v].empty()) {
        ++fsmUnits;
        CHECK(p->plan.fsm.unitModule[v] == p->lib.unit(p->kernel.ops[v]).module);
      }
    CHECK(fsmUnits == 1);
    // The report's view: every divider with the unit it runs on, or none where it is built inline.
    rtl::RtlResult r = rtl::generateVerilog(p->kernel, p->schedule, p->plan, false);
    REQUIRE(r.loops[0].units.size() == dividers);
    size_t reportedInstances = 0;
    for (const rtl::LoopHardware::UnitUse& u : r.loops[0].units) {
      CHECK(u.latency == 34);
      reportedInstances += !u.module.empty();
    }
    CHECK(reportedInstances == instanced);
  }
  auto p = plan("regress/divide", rtl::ClusterMode::StallEnable);
  const ir::Loop& loop = p->kernel.loops[0];
  const uint32_t div = firstOp(loop, OpKind::SDiv), add = firstOp(loop, OpKind::Add);
  expectRejected(
      *p, "an inline operation on a unit",
      [&](rtl::KernelPlan& b) { b.loops[0].unitModule[add] = "spvhls_sdiv_32"; }, "runs on unit");
  expectRejected(
      *p, "a divider built inline but formed where its unit would form it",
      [&](rtl::KernelPlan& b) { b.loops[0].unitModule[div].clear(); }, "built inline");
  uint32_t fsmDiv = 0;
  for (uint32_t v = 0; v < p->kernel.ops.size(); ++v)
    if (!p->plan.fsm.unitModule[v].empty()) fsmDiv = v;
  expectRejected(
      *p, "an FSM divider without its unit", [&](rtl::KernelPlan& b) { b.fsm.unitModule[fsmDiv].clear(); },
      "runs on unit");
}

TEST_CASE("generateVerilog refuses a plan of another kernel") {
  auto p = plan("vadd", rtl::ClusterMode::Auto);
  rtl::KernelPlan other = p->plan;
  other.loops.clear();
  CHECK_THROWS_AS(rtl::generateVerilog(p->kernel, p->schedule, other), InternalError);
}

TEST_CASE("fshare: the float operations share units, the schedule and timing are unchanged") {
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallEnable, rtl::ClusterMode::StallFree}) {
    CAPTURE(rtl::clusterModeName(mode));
    auto on = plan("regress/fshare", mode, true), off = plan("regress/fshare", mode, false);
    const rtl::LoopPlan &a = on->plan.loops.at(0), &b = off->plan.loops.at(0);
    REQUIRE(a.kind == mode);
    CHECK(a.ii == 9);
    // Binding changes nothing but the instances.
    CHECK(a.start == b.start);
    CHECK(a.compPos == b.compPos);
    CHECK(a.F == b.F);
    CHECK(a.predictPeriod == b.predictPeriod);
    CHECK(instanceCounts(b) == std::map<std::string, size_t>{{"spvhls_fadd_32", 3}, {"spvhls_fmul_32", 6}});
    // Stall-enable: as many instances as the fullest II slot (x * y and y * 3.0f start together, so do
    // g + x and the recurrence's add). Stall-free: the multiplies of the chain less than II apart.
    const size_t muls = mode == rtl::ClusterMode::StallEnable ? 2 : 4;
    CHECK(instanceCounts(a) ==
          std::map<std::string, size_t>{{"spvhls_fadd_32", 2}, {"spvhls_fmul_32", muls}});
    // The report lists the instances and every unit operation's instance.
    rtl::RtlResult r = rtl::generateVerilog(on->kernel, on->schedule, on->plan, false);
    REQUIRE(r.loops[0].instances.size() == a.instances.size());
    for (const auto& u : r.loops[0].units)
      CHECK(std::count(r.loops[0].instances[u.instance].ops.begin(),
                       r.loops[0].instances[u.instance].ops.end(), u.op) == 1);
    // The loop module instances each unit once.
    size_t instancesInRtl = 0;
    for (const auto& [name, t] : r.files)
      if (name.find("_loop0.v") != std::string::npos)
        for (size_t pos = 0; (pos = t.find(" u_unit", pos)) != std::string::npos; ++pos)
          ++instancesInRtl;
    CHECK(instancesInRtl == a.instances.size());
  }
}

TEST_CASE("MaxConcurrencyINTEL below the iterations in flight: stall-enable bursts predicted and checked") {
  auto p = plan("vadd", rtl::ClusterMode::StallEnable);
  REQUIRE(!p->kernel.loops.empty());
  const uint32_t F = p->plan.loops[0].F, ii = p->plan.loops[0].ii;
  REQUIRE((F + ii - 1) / ii > 2);
  // The same kernel with MaxConcurrencyINTEL 2 on its loop, scheduled and planned again.
  p->kernel.loops[0].controls.maxConcurrency = 2;
  sched::ScheduleOptions so;
  so.exitBeforeMemory = rtl::exitBeforeMemory(p->kinds);
  p->schedule = sched::scheduleKernel(p->kernel, so);
  p->plan = rtl::planKernel(p->kernel, p->schedule, p->lib, p->kinds, true);
  const rtl::LoopPlan& lp = p->plan.loops[0];
  CHECK(lp.predictable);
  CHECK(lp.predictBurst == 2);
  CHECK(lp.predictBurstPeriod == int64_t((lp.F + lp.ii - 1) / lp.ii * lp.ii));
  expectRejected(
      *p, "bursts of the wrong size", [&](rtl::KernelPlan& b) { b.loops[0].predictBurst = 3; }, "bursts");
  expectRejected(
      *p, "no bursts", [&](rtl::KernelPlan& b) { b.loops[0].predictBurst = 0; }, "bursts");
}

TEST_CASE("reinvocation delay: the pipeline's drain and the FSM's blocks back to the loop") {
  auto delayOf = [](const std::string& example, const std::string& loop) {
    auto p = plan(example, rtl::ClusterMode::StallEnable);
    const rtl::RtlResult r = rtl::generateVerilog(p->kernel, p->schedule, p->plan, false);
    for (uint32_t l = 0; l < p->kernel.loops.size(); ++l)
      if (p->kernel.loops[l].name == loop) return rtl::reinvocationDelay(p->kernel, r, l);
    FAIL("no loop " << loop);
    return rtl::ReinvocationDelay{};
  };
  // A loop run once per kernel run.
  CHECK(delayOf("vadd", "for.cond").kind == rtl::ReinvocationDelay::Kind::Once);
  // An inner loop started once per row by the FSM: 18 cycles, as simulated (e2e.loops.reinvoke_*
  // measure the same for a loop with a slow exit test); 20 before the datapath optimisations hoisted
  // the row's invariant address arithmetic out of the loop (its drain 12 then).
  const rtl::ReinvocationDelay row = delayOf("loops/coalesce_off", "for.cond1");
  REQUIRE(row.kind == rtl::ReinvocationDelay::Kind::Known);
  CHECK(row.min == 18);
  REQUIRE(row.max);
  CHECK(*row.max == 18);
  CHECK(row.drain == 8);
  CHECK(row.path == "for.end, for.cond, for.body, for.cond1.loop");
  // Inside loops of the FSM that can go round without it, and behind other loops: the shortest way
  // only (decoder measured 23..233 cycles here; the simple paths alone once claimed at most 23).
  const rtl::ReinvocationDelay dec = delayOf("programs/decoder.O0", "for.cond.10");
  REQUIRE(dec.kind == rtl::ReinvocationDelay::Kind::Known);
  CHECK_FALSE(dec.max);
  CHECK(dec.min == 14); // 15 before known bits made its byte selections wires (II 4 to 3)
  CHECK(dec.why.find("a way back") != std::string::npos);
}

TEST_CASE("reinvocation delay of an outer pipeline's inner loop: when its next call waits") {
  auto delayOf = [](rtl::ClusterMode mode) {
    auto p = plan("loops/reinvoke_outer", mode, true, /*outerLoops=*/true);
    const rtl::RtlResult r = rtl::generateVerilog(p->kernel, p->schedule, p->plan, false);
    for (uint32_t l = 0; l < p->kernel.loops.size(); ++l)
      if (p->kernel.loops[l].name == "for.cond1") return rtl::reinvocationDelay(p->kernel, r, l);
    FAIL("no inner loop");
    return rtl::ReinvocationDelay{};
  };
  // Stall-enable: it takes the call while it drains, 2 cycles after its last launch (exit known at
  // position 5 of 12 at II 1); e2e.loops.reinvoke_outer measures 2 on every reinvocation.
  const rtl::ReinvocationDelay se = delayOf(rtl::ClusterMode::StallEnable);
  REQUIRE(se.kind == rtl::ReinvocationDelay::Kind::Known);
  CHECK(se.min == 2);
  CHECK_FALSE(se.max);
  CHECK(se.caller == "for.cond");
  CHECK(se.path.find("while it drains") != std::string::npos);
  // Stall-free: when it is done, its drain (measured 9).
  const rtl::ReinvocationDelay sf = delayOf(rtl::ClusterMode::StallFree);
  REQUIRE(sf.kind == rtl::ReinvocationDelay::Kind::Known);
  CHECK(sf.min == 9);
  CHECK(sf.min == sf.drain);
  CHECK(sf.path == "it takes the next call when it is done");
}

TEST_CASE("a RAM a loop loads twice per iteration gets a read port per load, copies within the budget") {
  // regress/ram_ports: loop 2 loads t[i + 1] and t[i] and stores t[i].
  auto p = plan("regress/ram_ports", rtl::ClusterMode::StallEnable);
  const auto t = std::find_if(p->kernel.memories.begin(), p->kernel.memories.end(),
                              [](const ir::Memory& m) { return m.name == "t"; });
  REQUIRE(t != p->kernel.memories.end());
  const uint32_t m = uint32_t(t - p->kernel.memories.begin());
  REQUIRE(t->ports.size() == 3);
  CHECK(t->ports[0].access == ir::PortAccess::Read);
  CHECK(t->ports[1].access == ir::PortAccess::Write);
  CHECK(t->ports[2].access == ir::PortAccess::Read);
  CHECK(ir::portName(p->kernel.memories, t->ports[0].key) == "t (read)");
  CHECK(ir::portName(p->kernel.memories, t->ports[2].key) == "t (read 2)");
  // The two loads take a read port each: II 1 (with one read port, 2).
  const ir::Loop& loop = p->kernel.loops.at(2);
  std::set<uint32_t> keys;
  for (const ir::Op& op : loop.ops)
    if (op.kind == OpKind::Load && op.memory == m) keys.insert(ir::portKey(p->kernel.memories, op));
  CHECK(keys == std::set<uint32_t>{m, t->ports[2].key});
  CHECK(p->schedule.loops.at(2).schedule.ii == 1);
  CHECK(p->plan.loops.at(2).loadMemories.size() == 2);
  CHECK_NOTHROW(rtl::checkPlan(p->kernel, p->schedule, p->lib, p->plan));
  // The RAM module reads through both (r2_*): two registered reads of one array.
  const rtl::nl::Module ram = rtl::buildRamModule(*t, rtl::ramWordBytes(p->kernel)[m], "k_t");
  REQUIRE(ram.rams.size() == 1);
  CHECK(ram.rams[0].moreReads.size() == 1);
  CHECK(ram.rams[0].wValid != nullptr);
  const std::string v = rtl::printVerilog(ram);
  CHECK(v.find("input wire r2_req_valid") != std::string::npos);
  CHECK(v.find("output reg r2_resp_valid") != std::string::npos);
  CHECK(v.find("RAM t: a write on a read port") != std::string::npos);

  // u is loaded twice per iteration too, but three loads of `in` set that loop's II to 3: no copy.
  const auto u = std::find_if(p->kernel.memories.begin(), p->kernel.memories.end(),
                              [](const ir::Memory& mem) { return mem.name == "u"; });
  REQUIRE(u != p->kernel.memories.end());
  CHECK(u->ports.size() == 2);
  CHECK(p->schedule.loops.back().schedule.ii == 3);
  // No copies with --ram-read-ports 1, nor where a copy would pass the on-chip budget.
  ir::LowerOptions one;
  one.ramReadPorts = 1;
  CHECK(ir::lowerKernel(*p->view, "ram_ports", one).memories.at(m).ports.size() == 2);
  ir::LowerOptions tight;
  tight.onChipBudget = t->sizeBytes + u->sizeBytes + t->sizeBytes / 2;
  CHECK(ir::lowerKernel(*p->view, "ram_ports", tight).memories.at(m).ports.size() == 2);
  tight.onChipBudget = 2 * t->sizeBytes + u->sizeBytes;
  CHECK(ir::lowerKernel(*p->view, "ram_ports", tight).memories.at(m).ports.size() == 3);
}

TEST_CASE("auto: an outer pipeline's inner loops are stall-enable, to take the next call while draining") {
  auto p = plan("regress/nest_shared_read", rtl::ClusterMode::Auto, true, /*outerLoops=*/true);
  const std::vector<int> callers = ir::loopCallers(p->kernel.loops);
  uint32_t inner = 0;
  for (size_t l = 0; l < p->kernel.loops.size(); ++l) {
    CAPTURE(p->kernel.loops[l].name);
    if (callers[l] >= 0) {
      ++inner;
      CHECK(p->kinds[l].kind == rtl::ClusterMode::StallEnable);
      CHECK(p->kinds[l].reason.find("inner loop of an outer pipeline") != std::string::npos);
      CHECK(p->plan.loops[l].reinvocable);
    } else {
      CHECK(p->kinds[l].kind == rtl::ClusterMode::StallFree); // feed-forward: auto's usual choice
    }
  }
  CHECK(inner == 2);
  // Asked for, stall-free stays.
  auto forced = plan("regress/nest_shared_read", rtl::ClusterMode::StallFree, true, true);
  for (const rtl::LoopKind& k : forced->kinds)
    CHECK(k.kind == rtl::ClusterMode::StallFree);
}

TEST_CASE("a unit's result carried to a read in an earlier cluster is gated where it is ready") {
  // fuzz_forward.py seed 301 at -O2: the carried value's next is a multiplier's result (a unit running
  // across cuts) formed at a cluster's end, read in an earlier cluster than the unit starts in. Its
  // carry is written where the result is ready, behind a gate (planKernel runs checkPlan, which found
  // the gate missing before).
  std::unique_ptr<Planned> p;
  REQUIRE_NOTHROW(p = plan(std::string(SPVHLS_SOURCE_DIR) + "/tests/unit/data/lower/unit_carry_gate.spvasm",
                           rtl::ClusterMode::StallFree));
  bool gatedMul = false;
  for (size_t l = 0; l < p->plan.loops.size(); ++l)
    for (const rtl::CarryGate& g : p->plan.loops[l].gates)
      gatedMul = gatedMul || p->kernel.loops[l].ops[g.from].kind == OpKind::Mul;
  CHECK(gatedMul);
}
