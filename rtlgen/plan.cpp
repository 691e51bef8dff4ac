// planKernel and the stage helpers around it (cluster kinds before scheduling, auto's second look).
#include "rtlgen/plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/dependence.h"

namespace spvhls::rtl {

namespace {

// Does the address analysis relax an order between two of the loop's accesses to one memory?
bool relaxesMemoryOrder(const ir::Loop& loop) {
  const ir::DependenceAnalysis deps(loop);
  for (const auto& [x, y] : ir::orderedAccessPairs(loop))
    if (ir::memoryOrder(deps, loop, x, y).relaxed) return true;
  return false;
}

// Whether a stall-enable plan of a loop another loop runs may take its next invocation while the last
// one drains (LoopPlan::reinvocable), as far as the loop itself decides: MaxConcurrencyINTEL counts
// launches until the loop restarts (squashed ones too), and a memory order that the loop controls or
// the address analysis relaxed holds within one invocation only.
bool reinvocableLoop(const ir::Loop& loop) {
  const ir::LoopControls& c = loop.controls;
  return !(c.maxConcurrency && *c.maxConcurrency > 0) && c.memoryDependenceDistance.empty() &&
         !c.dependencyLengthAll && !relaxesMemoryOrder(loop) && !ir::runsLoops(loop);
}

} // namespace

ClusterChoice chooseClusterKinds(const ir::Kernel& k, ClusterMode requested, std::string_view requestedBy) {
  ClusterChoice c;
  const std::vector<int> callers = ir::loopCallers(k.loops);
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const ir::Loop& loop = k.loops[l];
    LoopKind lk;
    lk.kind = chooseClusterKind(loop, requested, lk.reason, requestedBy, &k.loops);
    // An outer pipeline's inner loop: stall-enable, it takes its next call while the last one drains
    // (2 cycles after its last launch, docs/loop-controls.md); stall-free, each call waits for the last
    // one to be done.
    if (requested == ClusterMode::Auto && lk.kind == ClusterMode::StallFree && callers[l] >= 0 &&
        reinvocableLoop(loop)) {
      lk.kind = ClusterMode::StallEnable;
      lk.reason = "auto: an inner loop of an outer pipeline; stall-enable, so that it takes the next call "
                  "while the last one drains (stall-free, each call would wait for the drain)";
    }
    if (requested == ClusterMode::StallFree && lk.kind != ClusterMode::StallFree)
      c.warnings.push_back(
          Diagnostic{Diagnostic::Severity::Warning, loop.loc, "loop " + loop.name, lk.reason});
    c.loops.push_back(std::move(lk));
  }
  return c;
}

std::vector<bool> exitBeforeMemory(const std::vector<LoopKind>& kinds) {
  std::vector<bool> r;
  for (const LoopKind& lk : kinds)
    r.push_back(lk.kind == ClusterMode::StallFree);
  return r;
}

namespace {

// Form cycles from the block schedules and the units; a block lasts until its terminator and every
// result it forms (a result formed in the last cycle is registered at its end).
FsmPlan planFsm(const ir::Kernel& k, const sched::KernelSchedule& s, const sched::OperatorLibrary& lib) {
  FsmPlan f;
  f.formCycle.assign(k.ops.size(), 0);
  f.unitModule.assign(k.ops.size(), "");
  f.blockCycles.resize(k.blocks.size());
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    const ir::BasicBlock& bb = k.blocks[b];
    const sched::Schedule& bs = s.blocks[b].schedule;
    if (bs.start.size() < bb.ops.size())
      throw InternalError(bb.term.loc, "block " + bb.name,
                          "planKernel: the block schedule misses operations");
    int len = (bs.start.size() > bb.ops.size() ? bs.start[bb.ops.size()] : 0) + 1;
    for (size_t i = 0; i < bb.ops.size(); ++i) {
      ir::ValueId v = bb.ops[i];
      const sched::Unit u = lib.unit(k.ops[v]);
      f.formCycle[v] = bs.start[i] + int(u.formOffset(true));
      if (u.build == sched::UnitBuild::Instance) f.unitModule[v] = u.module;
      len = std::max(len, f.formCycle[v] + 1);
    }
    f.blockCycles[b] = uint32_t(len);
  }
  return f;
}

// A kernel value its FSM holds from before any loop starts until the kernel is done: an argument
// (latched at the kernel's start) or a constant (LoopPlan::liveInHeld).
bool heldByKernel(ir::OpKind k) {
  return k == ir::OpKind::Arg || k == ir::OpKind::Const || k == ir::OpKind::Undef;
}

} // namespace

KernelPlan planKernel(const ir::Kernel& k, const sched::KernelSchedule& s, const sched::OperatorLibrary& lib,
                      const std::vector<LoopKind>& kinds, bool shareUnits) {
  if (kinds.size() != k.loops.size() || s.loops.size() != k.loops.size() ||
      s.blocks.size() != k.blocks.size())
    throw InternalError(
        k.loc, "kernel " + k.name,
        fmt::format("planKernel: {} loops, {} loop kinds, {} loop schedules; {} blocks, {} block "
                    "schedules",
                    k.loops.size(), kinds.size(), s.loops.size(), k.blocks.size(), s.blocks.size()));
  KernelPlan p;
  p.target = lib.target();
  for (size_t l = 0; l < k.loops.size(); ++l)
    p.loops.push_back(planLoop(k.loops[l], s.loops[l], lib, kinds[l].kind, kinds[l].reason, shareUnits,
                               &k.loops, &k.memories));
  const std::vector<int> callers = ir::loopCallers(k.loops);
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const LoopPlan& lp = p.loops[l];
    p.loops[l].reinvocable = callers[l] >= 0 && !lp.stallFree() && lp.gates.empty() && !lp.subPipelines &&
                             lp.maxConcurrency == 0 && reinvocableLoop(k.loops[l]);
    if (p.loops[l].reinvocable) p.loops[l].dropCounters();
  }
  // Ports a loop of the FSM's drives alone (an FSM access counts twice: never alone then).
  std::vector<uint32_t> drivers(ir::portCount(k.memories), 0);
  for (const ir::Op& op : k.ops)
    if ((op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store) && op.memory < k.memories.size())
      drivers[ir::portKey(k.memories, op)] += 2;
  for (const LoopPlan& lp : p.loops)
    for (uint32_t m : lp.memories)
      ++drivers[m];
  for (size_t l = 0; l < k.loops.size(); ++l)
    for (uint32_t m : p.loops[l].memories)
      if (callers[l] < 0 && drivers[m] == 1 &&
          k.memories[ir::portMemory(k.memories, m)].kind != ir::Memory::Kind::Queue)
        p.loops[l].soleDriverOf.push_back(m);
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const std::vector<ir::ValueId>& in = k.loops[l].liveIns;
    p.loops[l].liveInHeld.assign(in.size(), false);
    for (size_t i = 0; i < in.size() && callers[l] < 0; ++i)
      p.loops[l].liveInHeld[i] = heldByKernel(k.ops.at(in[i]).kind);
  }
  p.fsm = planFsm(k, s, lib);
  checkPlan(k, s, lib, p);
  return p;
}

bool avoidGates(const KernelPlan& plan, std::vector<LoopKind>& kinds) {
  bool changed = false;
  for (size_t l = 0; l < plan.loops.size() && l < kinds.size(); ++l) {
    const LoopPlan& lp = plan.loops[l];
    if (!lp.stallFree() || lp.gates.empty()) continue;
    kinds[l].kind = ClusterMode::StallEnable;
    const bool waits =
        std::any_of(lp.gates.begin(), lp.gates.end(), [](const CarryGate& g) { return g.waits; });
    kinds[l].reason =
        waits
            ? fmt::format("auto: in stall-free clusters {} recurrence(s) would cross a cluster boundary, "
                          "gated, and hold iterations back even at the assumed memory latency; stall-enable",
                          lp.gates.size())
            : fmt::format("auto: in stall-free clusters {} recurrence(s) would cross a cluster boundary, "
                          "gated (counters, exit FIFOs) for no fewer cycles at the assumed memory latency; "
                          "stall-enable",
                          lp.gates.size());
    changed = true;
  }
  return changed;
}

} // namespace spvhls::rtl
