#include "rtlgen/loop_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>

#include "ir/dependence.h"
#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

using ir::OpKind;

void LoopPlan::dropCounters() {
  carriedTo = lastUse;
  for (std::vector<uint32_t>& c : counters)
    c.clear();
}

bool LoopPlan::phiCounted(ir::ValueId v) const {
  return v < counters.size() && !counters[v].empty() && counters[v].front() == compPos[v];
}

bool LoopPlan::carriedAcross(const ir::Loop& loop, ir::ValueId v, uint32_t cut) const {
  const ir::Op& op = loop.ops[v];
  if (op.kind == OpKind::Const || op.kind == OpKind::LiveIn || op.kind == OpKind::Undef || op.width() == 0 ||
      rematerialized[v])
    return false;
  return compPos[v] < cut && carriedTo[v] >= int(cut);
}

LoopPlan::ValueBits LoopPlan::valueBits(const ir::Loop& loop) const {
  ValueBits b;
  for (ir::ValueId v = 0; v < loop.ops.size(); ++v) {
    const ir::Op& op = loop.ops[v];
    const OpKind k = op.kind;
    if (k == OpKind::Const || k == OpKind::LiveIn || k == OpKind::Undef || rematerialized[v]) continue;
    b.counters += op.width() * counters[v].size();
    for (int pos = int(compPos[v]) + 1; pos <= carriedTo[v]; ++pos)
      if (staged(uint32_t(pos))) b.registers += op.width();
    for (size_t j = 1; j < cuts.size() && stallFree(); ++j)
      if (carriedAcross(loop, v, cuts[j])) b.exitFifos += op.width() * exitFifoDepth[j - 1];
  }
  return b;
}

uint32_t LoopPlan::clusterOf(uint32_t pos) const {
  auto it = std::upper_bound(cuts.begin(), cuts.end(), pos);
  return uint32_t(it - cuts.begin()) - 1;
}

uint64_t LoopPlan::inFlightBound() const {
  uint64_t n = (F - cuts.back() + ii - 1) / ii + cuts.size(); // one more per cluster: a token at its entry
  for (uint64_t d : exitFifoDepth)
    n += d;
  return n;
}

bool LoopPlan::isCut(uint32_t pos) const {
  return std::binary_search(cuts.begin(), cuts.end(), pos);
}

// Does `v` depend (transitively, within the iteration) on a Load?
static bool dependsOnLoad(const ir::Loop& loop, ir::ValueId v, std::vector<int8_t>& memo) {
  if (v == ir::kNone) return false;
  if (memo[v] >= 0) return memo[v];
  const ir::Op& op = loop.ops[v];
  bool r = op.kind == OpKind::Load || op.kind == OpKind::LoopOut; // an inner loop's result: from memory too
  for (ir::ValueId o : op.operands)
    if (!r && dependsOnLoad(loop, o, memo)) r = true;
  memo[v] = r;
  return r;
}

// Does the recurrence of LoopPhi op `phi` (phi -> ... -> next) pass through a Load? Only then is the
// carried value produced in a later cluster than it is read. Ops are in topological order.
static bool recurrenceThroughLoad(const ir::Loop& loop, ir::ValueId phi) {
  const size_t n = loop.ops.size();
  std::vector<bool> fromPhi(n, false), viaLoad(n, false);
  for (ir::ValueId v = 0; v < n; ++v) {
    const ir::Op& op = loop.ops[v];
    fromPhi[v] = v == phi;
    for (ir::ValueId o : op.operands)
      if (o != ir::kNone && o < v) {
        fromPhi[v] = fromPhi[v] || fromPhi[o];
        viaLoad[v] = viaLoad[v] || viaLoad[o];
      }
    viaLoad[v] = fromPhi[v] && (viaLoad[v] || op.kind == OpKind::Load || op.kind == OpKind::LoopOut);
  }
  ir::ValueId next = loop.phis[loop.ops[phi].index].next;
  return next != ir::kNone && viaLoad[next];
}

ClusterMode chooseClusterKind(const ir::Loop& loop, ClusterMode requested, std::string& reason,
                              std::string_view requestedBy, const std::vector<ir::Loop>* allLoops) {
  std::vector<int8_t> memo(loop.ops.size(), -1);
  if (dependsOnLoad(loop, loop.continueCond, memo)) {
    reason = "the exit condition depends on a load, so iterations are launched before it is known "
             "whether they exist; that needs one stall-enable cluster";
    if (requested == ClusterMode::StallFree) reason = "stall-free requested but not possible: " + reason;
    return ClusterMode::StallEnable;
  }
  if (requested != ClusterMode::Auto) {
    reason = fmt::format("{} requested ({})", clusterModeName(requested), requestedBy);
    return requested;
  }
  // A store and another access to the same memory make a memory recurrence (unless the loop controls
  // rule it out); a carried value computed from a load makes a recurrence through memory latency.
  // An inner loop (sub-pipeline) accesses its loop's memories: one access of each, a store of those
  // it writes.
  std::vector<int> stores(64, 0), accesses(64, 0), innerAccesses(64, 0);
  auto count = [&](uint32_t m, bool store) {
    if (m >= stores.size()) stores.resize(m + 1), accesses.resize(m + 1), innerAccesses.resize(m + 1);
    accesses[m]++;
    if (store) stores[m]++;
  };
  for (const ir::Op& op : loop.ops) {
    if (op.kind == OpKind::Load || op.kind == OpKind::Store) count(op.memory, op.kind == OpKind::Store);
    if (op.kind != OpKind::LoopCall) continue;
    if (!allLoops) {
      reason = "auto: it runs inner loops whose memories are not known here; stall-enable";
      return ClusterMode::StallEnable;
    }
    const ir::MemoryUse use = ir::loopMemoryUse(*allLoops, op.index);
    for (uint32_t m : use.reads)
      if (!std::binary_search(use.writes.begin(), use.writes.end(), m)) count(m, false), innerAccesses[m]++;
    for (uint32_t m : use.writes)
      count(m, true), innerAccesses[m]++;
  }
  // Loads and stores whose addresses never meet within the iterations a pipeline holds make no
  // recurrence (ir/dependence.h).
  const ir::DependenceAnalysis deps(loop);
  uint32_t shownIndependent = 0;
  std::vector<bool> carried(stores.size(), false);   // per memory: an order between iterations is left
  std::vector<uint32_t> separated(stores.size(), 0); // per memory: pairs the analysis separated
  for (const auto& [x, y] : ir::orderedAccessPairs(loop)) {
    const ir::MemoryOrder o = ir::memoryOrder(deps, loop, x, y);
    const bool pair =
        (o.firstToSecond && *o.firstToSecond >= 1 && *o.firstToSecond < ir::kMaxDependenceDistance) ||
        (o.secondToFirst && *o.secondToFirst < ir::kMaxDependenceDistance);
    carried[loop.ops[x].memory] = carried[loop.ops[x].memory] || pair;
    separated[loop.ops[x].memory] += !pair && o.relaxed;
  }
  for (size_t m = 0; m < stores.size(); ++m) {
    if (stores[m] == 0 || accesses[m] < 2) continue;
    bool independent = false;
    for (auto [mem, dist] : loop.controls.memoryDependenceDistance)
      if (mem == m && dist == 0) independent = true;
    if (loop.controls.dependencyLengthAll && *loop.controls.dependencyLengthAll == 0) independent = true;
    if (!independent && innerAccesses[m] == 0 && !carried[m])
      independent = true, shownIndependent += separated[m];
    if (!independent) {
      reason = "auto: memory recurrence (load and store on one memory) spans clusters; stall-enable";
      return ClusterMode::StallEnable;
    }
  }
  for (ir::ValueId v = 0; v < loop.ops.size(); ++v)
    if (loop.ops[v].kind == OpKind::LoopPhi && recurrenceThroughLoad(loop, v)) {
      reason = fmt::format("auto: the recurrence of {} runs through a load; stall-enable",
                           loop.phis[loop.ops[v].index].name);
      return ClusterMode::StallEnable;
    }
  reason =
      shownIndependent
          ? fmt::format("auto: feed-forward loop, no recurrence through memory ({} pair(s) of accesses "
                        "to one memory shown by their addresses never to meet across iterations); stall-free",
                        shownIndependent)
          : "auto: feed-forward loop, no recurrence through memory; stall-free";
  return ClusterMode::StallFree;
}

static uint64_t ceilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

// The memory ports the loop's operations use (only loads: `loadsOnly`), ascending; those of the inner
// loops it runs included when the kernel's loops are given. The ports' keys come from the kernel's
// memories (ir::portKey); without them, a port per memory.
static std::vector<uint32_t> accessedPorts(const ir::Loop& loop, bool loadsOnly,
                                           const std::vector<ir::Loop>* allLoops,
                                           const std::vector<ir::Memory>* memories) {
  std::set<uint32_t> m;
  for (const ir::Op& op : loop.ops) {
    if (op.kind == ir::OpKind::Load || (!loadsOnly && op.kind == ir::OpKind::Store))
      m.insert(memories ? ir::portKey(*memories, op) : op.memory);
    if (op.kind == ir::OpKind::LoopCall && allLoops) {
      if (memories) {
        const ir::PortUse use = ir::loopPortUse(*memories, *allLoops, op.index);
        const std::vector<uint32_t>& keys = loadsOnly ? use.loads : use.all;
        m.insert(keys.begin(), keys.end());
        continue;
      }
      const ir::MemoryUse use = ir::loopMemoryUse(*allLoops, op.index);
      m.insert(use.reads.begin(), use.reads.end());
      if (!loadsOnly) m.insert(use.writes.begin(), use.writes.end());
    }
  }
  return {m.begin(), m.end()};
}

namespace {

// Values that are their one operand's bits widened (an extension, or a concatenation with constants,
// as a shift by a constant becomes) are formed again wherever they are read instead of being carried
// down the pipeline: the operand is carried in their place, where that costs no more register bits.
// vadd's 64-bit address {sext(i), 2'b00} carries the 32-bit i, which the loop holds anyway.
void rematerialize(const ir::Loop& loop, LoopPlan& p, std::vector<std::set<uint32_t>>& reads) {
  const size_t n = loop.ops.size();
  p.rematerialized.assign(n, false);
  auto source = [&](ir::ValueId v) -> ir::ValueId { // the one operand that is not a constant
    const ir::Op& op = loop.ops[v];
    if (op.kind != OpKind::ZExt && op.kind != OpKind::SExt && op.kind != OpKind::Concat) return ir::kNone;
    ir::ValueId u = ir::kNone;
    for (ir::ValueId o : op.operands) {
      if (loop.ops[o].kind == OpKind::Const) continue;
      if (u != ir::kNone) return ir::kNone;
      u = o;
    }
    return u;
  };
  // A rematerialized value's reads are its source's (and, rematerialized too, its source's).
  std::function<void(ir::ValueId, const std::set<uint32_t>&)> extend = [&](ir::ValueId u,
                                                                           const std::set<uint32_t>& at) {
    p.lastUse[u] = std::max(p.lastUse[u], int(*at.rbegin()));
    reads[u].insert(at.begin(), at.end());
    if (p.rematerialized[u]) extend(source(u), at);
  };
  for (size_t i = n; i-- > 0;) {
    const ir::ValueId u = source(ir::ValueId(i));
    if (u == ir::kNone || p.compPos[i] != p.start[i] || p.lastUse[i] <= int(p.compPos[i])) continue;
    const uint64_t saved = uint64_t(loop.ops[i].width()) * uint64_t(p.lastUse[i] - int(p.compPos[i]));
    const uint64_t added = uint64_t(loop.ops[u].width()) * uint64_t(std::max(0, p.lastUse[i] - p.lastUse[u]));
    if (loop.ops[u].width() > loop.ops[i].width() || added > saved) continue;
    p.rematerialized[i] = true;
    extend(u, reads[i]);
  }
}

} // namespace

std::optional<uint64_t> inductionStep(const ir::Loop& loop, ir::ValueId v) {
  const ir::Op& phi = loop.ops[v];
  if (phi.kind != OpKind::LoopPhi || phi.width() > 64) return std::nullopt;
  const ir::ValueId next = loop.phis[phi.index].next;
  const ir::Op& op = loop.ops[next];
  if ((op.kind != OpKind::Add && op.kind != OpKind::Sub) || op.operands.size() != 2) return std::nullopt;
  const ir::ValueId a = op.operands[0], b = op.operands[1];
  if (a == v && loop.ops[b].kind == OpKind::Const)
    return op.kind == OpKind::Add ? loop.ops[b].imm : 0 - loop.ops[b].imm;
  if (op.kind == OpKind::Add && b == v && loop.ops[a].kind == OpKind::Const) return loop.ops[a].imm;
  return std::nullopt;
}

namespace {

// The last position x is read at other than by the phis counted at their own position, which take
// no next value (LoopPlan::phiCounted). A value some rematerialized one is formed again from keeps
// its reads (lastUse).
int readBesidesCountedPhis(const ir::Loop& loop, const LoopPlan& p, ir::ValueId x) {
  int last = int(p.compPos[x]);
  for (size_t i = 0; i < loop.ops.size(); ++i) {
    const ir::Op& op = loop.ops[i];
    for (ir::ValueId o : op.operands)
      if (o == x) last = std::max(last, int(p.rematerialized[i] ? p.lastUse[x] : p.start[i]));
    if (op.kind == OpKind::Load && op.operands.size() > 1 && op.operands[1] == x)
      last = std::max(last, int(p.compPos[i]));
    if (op.kind == OpKind::LoopCall && !op.operands.empty() && op.operands.back() == x)
      last = std::max(last, int(p.compPos[i]));
    if (op.kind == OpKind::LoopPhi && loop.phis[op.index].next == x && !p.phiCounted(ir::ValueId(i)))
      last = std::max(last, int(p.readyPos[x]));
  }
  if (loop.continueCond == x) last = std::max(last, int(p.exitPos));
  if (std::find(loop.liveOuts.begin(), loop.liveOuts.end(), x) != loop.liveOuts.end()) last = int(p.F) - 1;
  return std::min(last, p.lastUse[x]);
}

// Is phi v's value where it is formed read: carried on from there, read there by anything but its
// next value, or that next value read by anything but v's phi?
bool readWhereFormed(const ir::Loop& loop, const LoopPlan& p, ir::ValueId v) {
  const uint32_t at = p.compPos[v];
  const ir::ValueId next = loop.phis[loop.ops[v].index].next;
  if (p.carriedTo[v] > int(at)) return true;
  if ((loop.continueCond == v && p.exitPos == at) || (loop.continueCond == next)) return true;
  for (ir::ValueId o : loop.liveOuts)
    if ((o == v && p.F - 1 == at) || o == next) return true;
  for (size_t i = 0; i < loop.ops.size(); ++i) {
    const ir::Op& op = loop.ops[i];
    const bool readsV = std::find(op.operands.begin(), op.operands.end(), v) != op.operands.end();
    if (i != next && readsV && (p.start[i] == at || p.compPos[i] == at)) return true;
    if (std::find(op.operands.begin(), op.operands.end(), next) != op.operands.end()) return true;
    if (op.kind == OpKind::LoopPhi && i != v && loop.phis[op.index].next == next) return true;
  }
  return false;
}

// An induction variable read far down the pipeline is counted there (LoopPlan::counters) instead of
// being carried: from the last read it is carried to, every later read takes a counter of its own,
// where that costs fewer bits (a counter: its register and its adder, twice the width; carrying: a
// register per position and the exit FIFOs' entries on the way). Where it is formed (a LoopPhi the
// only one of its phi) it is counted too: the counter replaces the carry register, and its next
// value is no longer carried back to it (nor gated across clusters).
void placeCounters(const ir::Loop& loop, LoopPlan& p, const std::vector<std::set<uint32_t>>& reads) {
  const size_t n = loop.ops.size();
  p.carriedTo = p.lastUse;
  p.counters.assign(n, {});
  std::vector<uint32_t> readersOfPhi(loop.phis.size(), 0);
  for (const ir::Op& op : loop.ops)
    if (op.kind == OpKind::LoopPhi) ++readersOfPhi.at(op.index);
  for (size_t v = 0; v < n; ++v) {
    const auto step = inductionStep(loop, ir::ValueId(v));
    if (!step) continue;
    if (readersOfPhi[loop.ops[v].index] == 1) p.counters[v].push_back(p.compPos[v]);
    if (p.lastUse[v] <= int(p.compPos[v])) continue;
    const uint64_t w = loop.ops[v].width();
    std::vector<uint32_t> later; // reads past where the value is formed
    for (uint32_t r : reads[v])
      if (r > p.compPos[v]) later.push_back(r);
    // Carried to position t: a register per position, an exit FIFO's entries per cut on the way.
    auto carry = [&](uint32_t t) {
      uint64_t bits = w * (t - p.compPos[v]);
      for (uint32_t j = 1; j < p.cuts.size(); ++j)
        if (p.cuts[j] > p.compPos[v] && p.cuts[j] <= t) bits += w * p.exitFifoDepth[j - 1];
      return bits;
    };
    uint64_t best = 2 * w * later.size();
    size_t carried = 0; // reads carried to: later[0 .. carried)
    for (size_t k = 0; k < later.size(); ++k)
      if (const uint64_t cost = carry(later[k]) + 2 * w * (later.size() - k - 1); cost < best)
        best = cost, carried = k + 1;
    if (carried == later.size()) continue;
    p.carriedTo[v] = carried ? int(later[carried - 1]) : int(p.compPos[v]);
    p.counters[v].insert(p.counters[v].end(), later.begin() + long(carried), later.end());
  }
  // A phi whose value where it is formed feeds only its own next value, read by nothing else (every
  // later read counted, or none), keeps no counter there: both stay as they were, unused.
  for (size_t v = 0; v < n; ++v)
    if (p.phiCounted(ir::ValueId(v)) && !readWhereFormed(loop, p, ir::ValueId(v)))
      p.counters[v].erase(p.counters[v].begin());
  for (size_t v = 0; v < n; ++v)
    if (p.phiCounted(ir::ValueId(v))) {
      const ir::ValueId next = loop.phis[loop.ops[v].index].next;
      p.carriedTo[next] = std::min(p.carriedTo[next], readBesidesCountedPhis(loop, p, next));
    }
}

// The gate a stall-free loop needs for dependence d, if any (CarryGate). Sets the phi's forwardPos
// when the gate lets it read the value in the cycle it is produced.
std::optional<CarryGate> planGate(const ir::Loop& loop, LoopPlan& p, const sched::Dependence& d) {
  using Kind = sched::Dependence::Kind;
  if (d.distance == 0 || (d.kind != Kind::LoopCarried && d.kind != Kind::Memory)) return std::nullopt;
  // A phi counted where it is read takes nothing from the iteration ahead.
  if (d.kind == Kind::LoopCarried && p.phiCounted(d.to)) return std::nullopt;
  // A memory order is kept once the request is issued (the port answers in order); an inner loop's
  // accesses are done when its results are captured; a carried value once its carry register is
  // written (where it is ready, or formed: carryWhereFormed).
  const bool carried = d.kind == Kind::LoopCarried;
  const bool formed = carried && p.carryWhereFormed[loop.ops[d.to].index];
  const uint32_t fromPos = carried ? (formed ? p.compPos[d.from] : p.readyPos[d.from])
                           : loop.ops[d.from].kind == OpKind::LoopCall ? p.compPos[d.from]
                                                                       : p.start[d.from];
  const uint32_t toPos = p.start[d.to];
  // A unit's result written as it comes out: in the cluster the unit starts in, where the phi is read.
  if (formed && p.unitSpan(d.from)) return std::nullopt;
  if (p.clusterOf(fromPos) <= p.clusterOf(toPos) || d.distance > p.inFlightBound()) return std::nullopt;
  CarryGate g{d.from, d.to, fromPos, p.clusterOf(toPos), d.distance};
  // The consumer reads `slack` cycles after its admission; the iteration it depends on must be at
  // fromPos before that cycle (or in it, forwarded): its admission may follow that iteration's
  // passing position lag at the earliest, counted in a register at lag - 1 or, when that lies before
  // the producer's cluster, as it is admitted into it.
  const uint32_t fromCut = p.cuts[p.clusterOf(fromPos)], entry = p.cuts[g.toCluster], slack = toPos - entry;
  bool forward = false;
  if (carried && !formed && fromPos + 1 > fromCut + slack) {
    forward = true; // reading the value as it is produced saves a cycle
    p.forwardPos[d.to] = int(fromPos);
  }
  const int64_t lag = int64_t(fromPos) + (forward ? 0 : 1) - int64_t(slack);
  if (lag - 1 >= int64_t(fromCut)) {
    g.countPos = uint32_t(lag - 1); // registered
  } else {
    g.countPos = fromCut; // as it is admitted there
    g.countAsAdmitted = true;
  }
  g.waits = g.lag() > uint64_t(d.distance) * p.ii + entry;
  return g;
}

// planLoop, with a queued load's response taken where it is readable (readQueueHead) or a cycle
// earlier and registered.
LoopPlan planLoopWith(const ir::Loop& loop, const sched::LoopSchedule& ls, const sched::OperatorLibrary& lib,
                      ClusterMode kind, std::string kindReason, bool shareUnits,
                      const std::vector<ir::Loop>* allLoops, const std::vector<ir::Memory>* memories,
                      bool readQueueHead) {
  LoopPlan p;
  p.kind = kind;
  p.kindReason = std::move(kindReason);
  p.ii = ls.schedule.ii;
  p.memLatency = lib.target().memLatency;
  p.maxConcurrency = ls.maxConcurrency;
  const size_t n = loop.ops.size();
  p.start.resize(n);
  p.compPos.resize(n);
  p.readyPos.resize(n);
  p.lastUse.assign(n, -1);
  p.respFifoDepth.assign(n, 0);
  std::vector<sched::Unit> units; // asked once per operation: positions here, instances below
  units.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    int s = ls.schedule.start[i];
    if (s < 0) throw InternalError(loop.loc, "loop " + loop.name, "planLoop: negative start");
    p.start[i] = uint32_t(s);
    const sched::Unit& u = units.emplace_back(lib.unit(loop.ops[i]));
    p.readyPos[i] = p.start[i] + ls.problem.ops[i].latency; // 0 when chained
    p.compPos[i] = p.start[i] + (u.queued && !readQueueHead ? u.resultOffset : u.formOffset(false));
  }
  p.exitPos = p.readyPos[loop.continueCond];
  // Clusters: stall-enable is one cluster; stall-free cuts at every memory request and response.
  p.cuts = {0};
  if (kind == ClusterMode::StallFree) {
    for (size_t i = 0; i < n; ++i) {
      const ir::Op& op = loop.ops[i];
      // An inner loop's call is a request and its results a response, as a load's.
      if (op.kind != OpKind::Load && op.kind != OpKind::Store && op.kind != OpKind::LoopCall) continue;
      if (p.start[i] <= p.exitPos && !loop.endless())
        throw InternalError(op.loc, "loop " + loop.name,
                            fmt::format("planLoop: memory op at {} before the exit is known at {} in a "
                                        "stall-free loop (scheduler constraint missing)",
                                        p.start[i], p.exitPos));
      p.cuts.push_back(p.start[i]);
      if (op.kind != OpKind::Store) p.cuts.push_back(p.compPos[i]);
    }
    std::sort(p.cuts.begin(), p.cuts.end());
    p.cuts.erase(std::unique(p.cuts.begin(), p.cuts.end()), p.cuts.end());
  }
  p.unitModule.assign(n, "");
  for (size_t i = 0; i < n; ++i)
    if (units[i].build == sched::UnitBuild::Instance) p.unitModule[i] = units[i].module;
  // A phi whose next value is formed at a cluster's end, or by a unit running across cuts, has its
  // carry written as it is formed (carryWhereFormed): the value need not travel on to where it is
  // ready, and no gate waits for it there. Counted phis drop it below (no carry register).
  p.carryWhereFormed.assign(loop.phis.size(), false);
  if (kind == ClusterMode::StallFree) {
    // Each phi's reads: the last position, and whether all lie in one cluster (which).
    std::vector<uint32_t> lastRead(loop.phis.size(), 0);
    std::vector<int> readCluster(loop.phis.size(), -1);
    for (size_t v = 0; v < n; ++v) {
      if (loop.ops[v].kind != OpKind::LoopPhi) continue;
      const uint32_t k = loop.ops[v].index, c = p.clusterOf(p.start[v]);
      lastRead[k] = std::max(lastRead[k], p.start[v]);
      readCluster[k] = readCluster[k] == -1 || readCluster[k] == int(c) ? int(c) : -2;
    }
    for (size_t k = 0; k < loop.phis.size(); ++k) {
      // (A phi's own reader, or another phi, is formed where it is ready.)
      const ir::ValueId next = loop.phis[k].next;
      if (p.compPos[next] + 1 != p.readyPos[next]) continue;
      // Formed at the end of a cluster: every read must come before it (a read at readyPos, allowed
      // too, would take its own iteration's).
      const bool atEnd = p.isCut(p.readyPos[next]) && lastRead[k] <= p.compPos[next];
      // A unit's result comes out a fixed time after the token entered it, however long the token
      // waits at the cuts it crosses (its first cluster runs the unit): read in that cluster, it is
      // there in time by the schedule, and after the reader's own iteration read it.
      const bool unitSpan = p.unitSpan(next) && readCluster[k] == int(p.clusterOf(p.start[next]));
      // (A unit's result read in an earlier cluster than the unit's is carried where it is ready, and
      // gated there: the carry a unit writes as its result comes out is in the unit's cluster.)
      p.carryWhereFormed[k] = (atEnd && !p.unitSpan(next)) || unitSpan;
    }
  }
  std::vector<std::set<uint32_t>> reads(n); // per op: the positions it is read at
  auto use = [&](ir::ValueId v, uint32_t pos) {
    if (v == ir::kNone) return;
    p.lastUse[v] = std::max(p.lastUse[v], int(pos));
    reads[v].insert(pos);
  };
  for (size_t i = 0; i < n; ++i) {
    const ir::Op& op = loop.ops[i];
    for (ir::ValueId o : op.operands)
      use(o, p.start[i]);
    if (op.kind == OpKind::Load && op.operands.size() > 1) use(op.operands[1], p.compPos[i]);
    if (op.kind == OpKind::LoopCall) use(op.operands.back(), p.compPos[i]); // its predicate, at the capture
  }
  // Where the carry register takes the next value: where it is ready, or formed (carryWhereFormed:
  // at compPos, or from a unit's output, not from the pipeline at all).
  for (size_t k = 0; k < loop.phis.size(); ++k) {
    const ir::ValueId next = loop.phis[k].next;
    if (!p.carryWhereFormed[k])
      use(next, p.readyPos[next]);
    else if (!p.unitSpan(next))
      use(next, p.compPos[next]);
  }
  use(loop.continueCond, p.exitPos);

  uint32_t F = std::max<uint32_t>(uint32_t(std::max(ls.schedule.length, 1)), p.exitPos + 1);
  for (size_t i = 0; i < n; ++i) {
    F = std::max(F, p.compPos[i] + 1);
    if (p.lastUse[i] >= 0) F = std::max(F, uint32_t(p.lastUse[i]) + 1);
  }
  p.F = F;
  for (ir::ValueId v : loop.liveOuts)
    use(v, F - 1);
  rematerialize(loop, p, reads);

  if (kind == ClusterMode::StallFree) {
    for (size_t j = 0; j + 1 < p.cuts.size(); ++j) {
      uint64_t len = p.cuts[j + 1] - p.cuts[j];
      // A cluster whose exit waits for an external load's response takes credits for twice the
      // assumed latency: the memory may answer later than the schedule assumes (a slower memory, a
      // busy interconnect) without costing throughput. Its tokens carry little (counters and
      // rematerialized values stay out of its exit FIFO), and the response FIFO follows its credits.
      uint64_t slack = 0;
      for (size_t i = 0; i < n; ++i)
        if (loop.ops[i].kind == OpKind::Load && !loop.ops[i].readLatency && p.compPos[i] == p.cuts[j + 1])
          slack = p.memLatency;
      // Credit round trip is len + 1 cycles; one spare entry absorbs a late pop. Where a response
      // ends the cluster the credits are the response FIFO's depth too, whose storage (block or LUT
      // RAM) comes in powers of two: rounded up, the extra entries tolerate a slower memory for free.
      const uint64_t depth = ceilDiv(len + 1 + slack, p.ii) + 1;
      p.exitFifoDepth.push_back(slack ? roundUpPow2(depth) : depth);
    }
  }
  std::vector<uint32_t> startCluster(n);
  for (size_t i = 0; i < n; ++i)
    startCluster[i] = p.clusterOf(p.start[i]);
  p.instances = bindUnits(p.unitModule, p.start, startCluster, kind, p.ii, shareUnits);
  p.instanceOf.assign(n, -1);
  for (size_t k = 0; k < p.instances.size(); ++k)
    for (uint32_t v : p.instances[k].ops)
      p.instanceOf[v] = int(k);
  // Side FIFOs of units whose span crosses a cluster boundary (the bound: loop_plan.h).
  p.sideFifoDepth.assign(n, 0);
  for (size_t i = 0; i < n && kind == ClusterMode::StallFree; ++i) {
    const uint32_t a = p.clusterOf(p.start[i]), b = p.clusterOf(p.compPos[i]);
    if (p.unitModule[i].empty() || a == b || p.lastUse[i] < int(p.compPos[i])) continue;
    uint64_t depth = p.compPos[i] - p.cuts[b];
    for (uint32_t j = a; j < b; ++j)
      depth += p.exitFifoDepth[j];
    p.sideFifoDepth[i] = std::max<uint64_t>(depth, 2);
  }
  for (size_t i = 0; i < n; ++i) {
    // An inner loop's results wait in a response FIFO as a load's response, sized the same way.
    if (loop.ops[i].kind != OpKind::Load && loop.ops[i].kind != OpKind::LoopCall) continue;
    uint64_t depth;
    if (kind == ClusterMode::StallFree) {
      // Outstanding reads are bounded by the tokens in the clusters between request and capture:
      // their credits. (A read is issued as its token is admitted; its response is popped as the
      // token is admitted at the capture, which returns the credit.)
      depth = 0;
      for (uint32_t j = p.clusterOf(p.start[i]); j < p.clusterOf(p.compPos[i]); ++j)
        depth += p.exitFifoDepth[j];
    } else {
      // Iterations are at least II apart: at most (capture - start)/II + 1 have issued and not captured.
      depth = (p.compPos[i] - p.start[i]) / p.ii + 2;
    }
    p.respFifoDepth[i] = roundUpPow2(depth); // RAM storage, as above
  }
  // Forwarding: a phi read after its next value is ready in the iteration ahead, in one cluster,
  // takes that value directly; in another cluster a gate holds the read back until the value is there
  // (in the producer's register at the earliest, also forwarded: below).
  // Tokens in one cluster are at least II positions apart, so the iteration ahead can only be at the
  // producing position when it is II or more past the read (no multiplexer where it cannot).
  placeCounters(loop, p, reads);
  for (size_t v = 0; v < n; ++v)
    if (p.phiCounted(ir::ValueId(v))) p.carryWhereFormed[loop.ops[v].index] = false;
  p.forwardPos.assign(n, -1);
  for (size_t v = 0; v < n; ++v) {
    if (loop.ops[v].kind != OpKind::LoopPhi) continue;
    ir::ValueId next = loop.phis[loop.ops[v].index].next;
    uint32_t rn = p.readyPos[next];
    if (next != v && rn >= p.start[v] + p.ii && p.clusterOf(rn) == p.clusterOf(p.start[v]))
      p.forwardPos[v] = int(rn);
  }
  if (kind == ClusterMode::StallFree) {
    for (const sched::Dependence& d : ls.problem.deps)
      if (std::optional<CarryGate> g = planGate(loop, p, d)) p.gates.push_back(*g);
  }

  // Prediction: the loop is started in FSM cycle x; iteration k is issued at x + 1 + k * period; the
  // last leaves position F-1 at x + (iterations-1) * period + F and done is seen one cycle later.
  uint64_t period = p.ii;
  if (p.maxConcurrency == 1) {
    period = kind == ClusterMode::StallFree ? std::max<uint64_t>(F, p.ii) : ceilDiv(F, p.ii) * p.ii;
  } else if (p.maxConcurrency > 1 && ceilDiv(F, p.ii) > p.maxConcurrency) {
    // The in-flight count drops when a token leaves position F-1, so the (k+M)-th issue waits for the
    // k-th token's F cycles: stall-enable rounded up to its II slot; stall-free exactly (admission
    // waits for II cycles since the last one, not for a slot, and its tokens never wait, with at most
    // M of them in flight its credits never run out).
    p.predictBurst = p.maxConcurrency;
    p.predictBurstPeriod = int64_t(kind == ClusterMode::StallFree ? F : ceilDiv(F, p.ii) * p.ii);
  }
  p.predictPeriod = int64_t(period);
  // No closed form (the cycle model steps these, rtlgen/pipeline_timing.h): a recurrence gate that waits
  // at the assumed latency makes the admissions depend on the later clusters' timing, and inner loops
  // make each call's cycles depend on its trip count and on the calls before it.
  if (std::any_of(p.gates.begin(), p.gates.end(), [](const CarryGate& g) { return g.waits; }))
    p.predictable = false;
  if (ir::runsLoops(loop)) p.predictable = false, p.subPipelines = true;
  p.predictBase = int64_t(F) + 1 - int64_t(period);
  // The last iteration is launched F cycles before done is seen, and the FSM's next block starts the
  // cycle after; launches go on every period until its exit is known at position q (one in that very
  // cycle too: its token is killed at once), so the last launch is floor(q / period) periods later.
  if (p.predictable && !p.predictBurst)
    p.predictDrain = int64_t(F) + 1 - int64_t(p.exitPos / period * period);
  p.memories = accessedPorts(loop, false, allLoops, memories);
  p.loadMemories = accessedPorts(loop, true, allLoops, memories);
  return p;
}

} // namespace

LoopPlan planLoop(const ir::Loop& loop, const sched::LoopSchedule& ls, const sched::OperatorLibrary& lib,
                  ClusterMode kind, std::string kindReason, bool shareUnits,
                  const std::vector<ir::Loop>* allLoops, const std::vector<ir::Memory>* memories) {
  LoopPlan p = planLoopWith(loop, ls, lib, kind, kindReason, shareUnits, allLoops, memories, true);
  // A stall-free loop is cut where responses are taken: taking one a cycle later may put a cut
  // between a recurrence's producer and its reader, and a recurrence gate costs throughput (and the
  // cycle prediction). Then the responses are taken as they arrive and registered, as the FSM does.
  if (p.gates.empty()) return p;
  LoopPlan early =
      planLoopWith(loop, ls, lib, kind, std::move(kindReason), shareUnits, allLoops, memories, false);
  return early.gates.size() < p.gates.size() ? early : p;
}

} // namespace spvhls::rtl
