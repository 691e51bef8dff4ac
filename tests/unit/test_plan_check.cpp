// checkPlan() catching each kind of corruption of a valid plan: stall-free, stall-enable and FSM plans,
// recurrence gates, live-ins read unlatched, next values cut short, requests on a port another loop
// drives, and unit bindings where two operations can meet. The generator trusts the plan it is given,
// so every rule checkPlan() enforces is shown to fire.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "plan_test_util.h"
#include "rtlgen/rtlgen.h"

using namespace spvhls;
using namespace plan_test;
using ir::OpKind;

TEST_CASE("checkPlan rejects a live-in read unlatched that its driver need not hold") {
  // outer_plain's inner loop, in an outer pipeline, takes live-ins the pipeline moves on from.
  auto nest = plan("loops/outer_plain", rtl::ClusterMode::StallEnable, true, /*outerLoops=*/true);
  const std::vector<int> callers = ir::loopCallers(nest->kernel.loops);
  size_t inner = callers.size();
  for (size_t l = 0; l < callers.size(); ++l)
    if (callers[l] >= 0 && !nest->kernel.loops[l].liveIns.empty()) inner = l;
  REQUIRE(inner < callers.size());
  CHECK(std::none_of(nest->plan.loops[inner].liveInHeld.begin(), nest->plan.loops[inner].liveInHeld.end(),
                     [](bool h) { return h; }));
  expectRejected(
      *nest, "an outer pipeline's live-in unlatched",
      [&](rtl::KernelPlan& b) { b.loops[inner].liveInHeld[0] = true; }, "unlatched");
  // The FSM's loops: a live-in computed by the kernel (not an argument or a constant) is latched.
  int computed = 0;
  for (const char* name : {"dot", "fir", "histogram", "lut"}) {
    auto p = plan(name, rtl::ClusterMode::Auto);
    for (size_t l = 0; l < p->kernel.loops.size(); ++l)
      for (size_t i = 0; i < p->kernel.loops[l].liveIns.size(); ++i) {
        const OpKind k = p->kernel.ops[p->kernel.loops[l].liveIns[i]].kind;
        const bool argOrConst = k == OpKind::Arg || k == OpKind::Const || k == OpKind::Undef;
        CHECK(p->plan.loops[l].liveInHeld[i] == argOrConst);
        if (argOrConst) continue;
        ++computed;
        expectRejected(
            *p, "a computed live-in unlatched", [&](rtl::KernelPlan& b) { b.loops[l].liveInHeld[i] = true; },
            "unlatched");
      }
  }
  CHECK(computed > 0);
}

TEST_CASE("checkPlan rejects a next value cut short without its phi counted") {
  auto p = plan("vadd", rtl::ClusterMode::StallEnable);
  const ir::Loop& loop = p->kernel.loops[0];
  const uint32_t i = firstOp(loop, OpKind::LoopPhi);
  REQUIRE(p->plan.loops[0].phiCounted(i));
  expectRejected(
      *p, "i read from its carry while i + 1 is not carried back",
      [&](rtl::KernelPlan& b) {
        auto& c = b.loops[0].counters[i];
        c.erase(c.begin());
      },
      "counted at no later position");
}

TEST_CASE("checkPlan rejects ungated requests on a port another loop drives too") {
  // lut: a fill loop stores the on-chip table, a lookup loop loads it. With a read port and a write
  // port each loop drives its own alone.
  auto two = plan("lut", rtl::ClusterMode::Auto);
  REQUIRE(two->plan.loops.size() == 2);
  const auto table = std::find_if(two->kernel.memories.begin(), two->kernel.memories.end(),
                                  [](const ir::Memory& m) { return m.name == "t"; });
  REQUIRE(table != two->kernel.memories.end());
  REQUIRE(table->ports.size() == 2);
  CHECK(two->plan.loops[0].memories == std::vector<uint32_t>{table->ports[1].key});
  CHECK(two->plan.loops[0].soleDriverOf == std::vector<uint32_t>{table->ports[1].key});
  const auto& lookupSole = two->plan.loops[1].soleDriverOf;
  CHECK(std::count(lookupSole.begin(), lookupSole.end(), table->ports[0].key) == 1);
  // With one port (--ram-ports 1) the loops share it.
  auto p = plan("lut", rtl::ClusterMode::Auto, true, false, 0, 1);
  REQUIRE(p->plan.loops.size() == 2);
  const rtl::LoopPlan& fill = p->plan.loops[0];
  std::vector<uint32_t> shared;
  for (uint32_t m : fill.memories)
    if (std::binary_search(p->plan.loops[1].memories.begin(), p->plan.loops[1].memories.end(), m))
      shared.push_back(m);
  REQUIRE(shared.size() == 1);
  CHECK_FALSE(std::binary_search(fill.soleDriverOf.begin(), fill.soleDriverOf.end(), shared[0]));
  expectRejected(
      *p, "the shared table's port ungated",
      [&](rtl::KernelPlan& b) {
        auto& sole = b.loops[0].soleDriverOf;
        sole.insert(std::upper_bound(sole.begin(), sole.end(), shared[0]), shared[0]);
      },
      "not their only driver");
}

TEST_CASE("checkPlan rejects corrupted stall-free loop plans") {
  auto p = plan("vadd", rtl::ClusterMode::StallFree);
  REQUIRE(p->plan.loops.size() == 1);
  const ir::Loop& loop = p->kernel.loops[0];
  const uint32_t load = firstOp(loop, OpKind::Load);
  REQUIRE(p->plan.loops[0].stallFree());
  REQUIRE(p->plan.loops[0].cuts.size() >= 3);

  expectRejected(
      *p, "no cut at a load response",
      [&](rtl::KernelPlan& b) {
        auto& c = b.loops[0].cuts;
        c.erase(std::find(c.begin(), c.end(), b.loops[0].compPos[load]));
        b.loops[0].exitFifoDepth.pop_back();
      },
      "cuts");
  expectRejected(
      *p, "an extra cut",
      [&](rtl::KernelPlan& b) {
        auto& lp = b.loops[0];
        uint32_t extra = 1;
        while (extra < lp.F && lp.isCut(extra))
          ++extra;
        REQUIRE(extra < lp.F);
        lp.cuts.insert(std::upper_bound(lp.cuts.begin(), lp.cuts.end(), extra), extra);
        lp.exitFifoDepth.push_back(4);
      },
      "cuts");
  expectRejected(
      *p, "exit FIFO below the credit round trip",
      [&](rtl::KernelPlan& b) { b.loops[0].exitFifoDepth[0] = 1; }, "exit FIFO 0");
  expectRejected(
      *p, "exit FIFO at the credit round trip, without its spare entry",
      [&](rtl::KernelPlan& b) {
        const rtl::LoopPlan& lp = b.loops[0];
        b.loops[0].exitFifoDepth[0] = (lp.cuts[1] - lp.cuts[0] + 1 + lp.ii - 1) / lp.ii;
      },
      "exit FIFO 0");
  expectRejected(
      *p, "response FIFO below the outstanding reads",
      [&](rtl::KernelPlan& b) { b.loops[0].respFifoDepth[load] = 1; }, "response FIFO");
  expectRejected(
      *p, "a response FIFO on a non-load",
      [&](rtl::KernelPlan& b) { b.loops[0].respFifoDepth[loop.continueCond] = 4; }, "not a load");
  expectRejected(
      *p, "a load formed before its response", [&](rtl::KernelPlan& b) { b.loops[0].compPos[load] -= 2; },
      "its unit");
  expectRejected(
      *p, "ready position off the library's latency",
      [&](rtl::KernelPlan& b) { b.loops[0].readyPos[load] += 1; }, "its unit");
  expectRejected(
      *p, "a value dropped before its last reader",
      [&](rtl::KernelPlan& b) { b.loops[0].lastUse[loop.continueCond] = -1; }, "reads");
  expectRejected(
      *p, "a wrong II", [&](rtl::KernelPlan& b) { b.loops[0].ii += 1; }, "II");
  const uint32_t phi = firstOp(loop, OpKind::LoopPhi);
  expectRejected(
      *p, "a value read past where it is carried, without a counter",
      [&](rtl::KernelPlan& b) {
        b.loops[0].carriedTo[load] = int(b.loops[0].compPos[load]);
        b.loops[0].counters[phi].clear();
        b.loops[0].carriedTo[phi] = b.loops[0].lastUse[phi];
      },
      "counted at no later position");
  expectRejected(
      *p, "a counter of a value that is no induction variable",
      [&](rtl::KernelPlan& b) { b.loops[0].counters[load] = {b.loops[0].F - 1}; },
      "not an induction variable");
  expectRejected(
      *p, "a load formed again where it is read",
      [&](rtl::KernelPlan& b) { b.loops[0].rematerialized[load] = true; }, "not an extension");
  expectRejected(
      *p, "an exit read before the condition is ready", [&](rtl::KernelPlan& b) { b.loops[0].exitPos -= 1; },
      "exit");
  expectRejected(
      *p, "a gate no recurrence needs",
      [&](rtl::KernelPlan& b) {
        b.loops[0].gates.push_back(rtl::CarryGate{load, load, b.loops[0].F - 1, 0, 1});
        b.loops[0].predictable = false;
      },
      "gate");
  expectRejected(
      *p, "a forwarded non-phi", [&](rtl::KernelPlan& b) { b.loops[0].forwardPos[load] = 3; }, "forwarded");
  {
    // vadd's counter phi reads the value the iteration ahead produces in the same cycle.
    const rtl::LoopPlan& lp = p->plan.loops[0];
    uint32_t phi = firstOp(loop, OpKind::LoopPhi);
    REQUIRE(lp.forwardPos[phi] >= 0);
    expectRejected(
        *p, "a forwarding dropped", [&](rtl::KernelPlan& b) { b.loops[0].forwardPos[phi] = -1; },
        "forwarding");
    expectRejected(
        *p, "forwarding from the wrong position",
        [&](rtl::KernelPlan& b) { b.loops[0].forwardPos[phi] += 1; }, "forwarding");
  }
  expectRejected(
      *p, "planned for another target", [&](rtl::KernelPlan& b) { b.target.memLatency += 1; }, "target");
}

TEST_CASE("checkPlan rejects a missing recurrence gate and one misplaced or misreported") {
  auto p = plan("histogram", rtl::ClusterMode::StallFree);
  size_t l = 0;
  while (l < p->plan.loops.size() && p->plan.loops[l].gates.empty())
    ++l;
  REQUIRE(l < p->plan.loops.size());
  expectRejected(
      *p, "a missing gate", [&](rtl::KernelPlan& b) { b.loops[l].gates.pop_back(); }, "gate");
  expectRejected(
      *p, "a gate to the wrong cluster", [&](rtl::KernelPlan& b) { b.loops[l].gates[0].toCluster += 1; },
      "gate");
  // bins[x]++: the store is issued before the next iteration's load at the assumed latency, so the
  // gate never holds an admission back then and the cycles are predicted.
  const rtl::CarryGate& g = p->plan.loops[l].gates[0];
  CHECK_FALSE(g.waits);
  CHECK(g.countPos == g.fromPos);
  CHECK(p->plan.loops[l].predictable);
  expectRejected(
      *p, "a gate counted past its producer", [&](rtl::KernelPlan& b) { b.loops[l].gates[0].countPos += 1; },
      "outside its producer's cluster");
  expectRejected(
      *p, "a gate said to wait", [&](rtl::KernelPlan& b) { b.loops[l].gates[0].waits = true; }, "wait");
  // fir's shift register, forced stall-free: a phi read in cluster 0 takes another phi read at the
  // entry of cluster 1, one cycle later than the next iteration enters cluster 0 at II 1.
  auto fir = plan("fir", rtl::ClusterMode::StallFree);
  bool waiting = false;
  for (size_t f = 0; f < fir->plan.loops.size(); ++f)
    for (const rtl::CarryGate& fg : fir->plan.loops[f].gates)
      if (fg.waits) {
        waiting = true;
        CHECK(fg.countAsAdmitted);
        CHECK_FALSE(fir->plan.loops[f].predictable);
        expectRejected(
            *fir, "predictable with a gate that waits",
            [&](rtl::KernelPlan& b) { b.loops[f].predictable = true; }, "predictable");
      }
  CHECK(waiting);
}

TEST_CASE("checkPlan rejects corrupted stall-enable loop plans") {
  auto p = plan("histogram", rtl::ClusterMode::StallEnable);
  REQUIRE(!p->plan.loops.empty());
  const ir::Loop& loop = p->kernel.loops[0];
  const uint32_t load = firstOp(loop, OpKind::Load);
  expectRejected(
      *p, "a cut in a stall-enable loop",
      [&](rtl::KernelPlan& b) {
        b.loops[0].cuts.push_back(b.loops[0].compPos[load]);
        b.loops[0].exitFifoDepth.push_back(8);
      },
      "stall-enable");
  expectRejected(
      *p, "response FIFO below L / II + 2", [&](rtl::KernelPlan& b) { b.loops[0].respFifoDepth[load] = 1; },
      "response FIFO");
  // The module's memory ports: the top connects what the plan lists, so a missing or extra one is wrong.
  REQUIRE(!p->plan.loops[0].loadMemories.empty());
  expectRejected(
      *p, "a loaded memory without a response port",
      [&](rtl::KernelPlan& b) { b.loops[0].loadMemories.clear(); }, "which has no response");
  expectRejected(
      *p, "an accessed memory without a port",
      [&](rtl::KernelPlan& b) { b.loops[0].memories.erase(b.loops[0].memories.begin()); },
      "which the module lacks");
  expectRejected(
      *p, "a port no operation uses", [&](rtl::KernelPlan& b) { b.loops[0].memories.push_back(99); },
      "no operation uses");
  expectRejected(
      *p, "ports out of order",
      [&](rtl::KernelPlan& b) { b.loops[0].memories.push_back(b.loops[0].memories[0]); },
      "strictly ascending");
}

TEST_CASE("checkPlan rejects corrupted FSM plans") {
  auto p = plan("fir", rtl::ClusterMode::Auto);
  // An operation with a result in a block.
  ir::ValueId v = ir::kNone;
  for (ir::ValueId u = 0; u < p->kernel.ops.size() && v == ir::kNone; ++u)
    if (p->lib.latency(p->kernel.ops[u]) > 0) v = u;
  REQUIRE(v != ir::kNone);
  expectRejected(
      *p, "a form cycle off the unit's", [&](rtl::KernelPlan& b) { b.fsm.formCycle[v] += 1; },
      "formed in cycle");
  expectRejected(
      *p, "a block longer than its schedule", [&](rtl::KernelPlan& b) { b.fsm.blockCycles[0] += 1; },
      "lasts");
  expectRejected(
      *p, "a block shorter than its results",
      [&](rtl::KernelPlan& b) { b.fsm.blockCycles[p->kernel.ops[v].block] -= 1; }, "lasts");
  expectRejected(
      *p, "a missing block", [&](rtl::KernelPlan& b) { b.fsm.blockCycles.pop_back(); }, "FSM plan");
}

TEST_CASE("checkPlan rejects bindings where two operations can meet on one instance") {
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallEnable, rtl::ClusterMode::StallFree}) {
    CAPTURE(rtl::clusterModeName(mode));
    auto p = plan("regress/fshare", mode, false);
    const rtl::LoopPlan& lp = p->plan.loops[0];
    // Two instances of one module whose operations can hold tokens at their starts in one cycle
    // (stall-enable: the same II slot; stall-free: II or more apart): merged, checkPlan refuses them.
    int x = -1, y = -1;
    for (size_t i = 0; i < lp.instances.size() && x < 0; ++i)
      for (size_t j = i + 1; j < lp.instances.size() && x < 0; ++j) {
        const uint32_t u = lp.instances[i].ops[0], v = lp.instances[j].ops[0];
        const uint32_t gap =
            lp.start[u] > lp.start[v] ? lp.start[u] - lp.start[v] : lp.start[v] - lp.start[u];
        const bool meet = mode == rtl::ClusterMode::StallFree ? gap >= lp.ii : gap % lp.ii == 0;
        if (lp.unitModule[u] == lp.unitModule[v] && meet) x = int(i), y = int(j);
      }
    REQUIRE(x >= 0);
    expectRejected(
        *p, "two operations that meet on one instance",
        [&](rtl::KernelPlan& bad) {
          rtl::LoopPlan& b = bad.loops[0];
          b.instances[size_t(x)].ops.push_back(b.instances[size_t(y)].ops[0]);
          std::sort(b.instances[size_t(x)].ops.begin(), b.instances[size_t(x)].ops.end());
          b.instances.erase(b.instances.begin() + y);
          for (size_t k = 0; k < b.instances.size(); ++k)
            for (uint32_t v : b.instances[k].ops)
              b.instanceOf[v] = int(k);
        },
        "but can be issued to it in the same cycle");
    // An operation listed on an instance it is not bound to, and one bound to an instance that is gone.
    expectRejected(
        *p, "a stray binding",
        [](rtl::KernelPlan& b) { b.loops[0].instanceOf[b.loops[0].instances[0].ops[0]] = 1; },
        "not bound to it alone");
    expectRejected(
        *p, "a lost instance", [](rtl::KernelPlan& b) { b.loops[0].instances.pop_back(); },
        "but its unit instance is");
  }
}
