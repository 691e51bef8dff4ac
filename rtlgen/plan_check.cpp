// checkPlan: an independent verifier of the microarchitecture plan, in the spirit of sched::verify().
// It re-derives each rule from the IR, the schedule and the operator library rather than reusing
// the planner's code, so a planner bug shows as a violation here.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "rtlgen/plan.h"

namespace spvhls::rtl {
namespace {

using ir::OpKind;

class LoopChecker {
public:
  LoopChecker(const std::vector<ir::Memory>& memories, const std::vector<ir::Loop>& loops, uint32_t l,
              const sched::LoopSchedule& ls, const sched::OperatorLibrary& lib, const LoopPlan& p)
      : memories_(memories), loops_(loops), loop_(loops[l]), ls_(ls), lib_(lib), p_(p) {}

  void run() {
    shapes();
    timing();
    carried();
    binding();
    clusters();
    fifos();
    gates();
    bursts();
    forwarding();
    ports();
  }

private:
  const std::vector<ir::Memory>& memories_; // the kernel's: their ports
  const std::vector<ir::Loop>& loops_;      // the kernel's: inner loops' memories
  const ir::Loop& loop_;
  const sched::LoopSchedule& ls_;
  const sched::OperatorLibrary& lib_;
  const LoopPlan& p_;

  [[noreturn]] void fail(const std::string& what) const {
    throw InternalError(loop_.loc, "loop " + loop_.name, "plan check: " + what);
  }
  std::string label(uint32_t v) const { return sched::opLabel(loop_.ops[v], v); }

  void shapes() const {
    const size_t n = loop_.ops.size();
    if (p_.start.size() != n || p_.compPos.size() != n || p_.readyPos.size() != n || p_.lastUse.size() != n ||
        p_.respFifoDepth.size() != n || p_.forwardPos.size() != n || p_.unitModule.size() != n ||
        p_.sideFifoDepth.size() != n || p_.rematerialized.size() != n || p_.carriedTo.size() != n ||
        p_.counters.size() != n)
      fail(fmt::format("per-operation vectors do not have the loop's {} entries", n));
    if (p_.carryWhereFormed.size() != loop_.phis.size())
      fail(fmt::format("carryWhereFormed does not have the loop's {} phis", loop_.phis.size()));
    if (ls_.schedule.start.size() != n) fail("the schedule does not cover every operation");
    if (p_.ii != ls_.schedule.ii)
      fail(fmt::format("II {} differs from the schedule's {}", p_.ii, ls_.schedule.ii));
    if (p_.memLatency != lib_.target().memLatency)
      fail(fmt::format("memory latency {} differs from the target's {}", p_.memLatency,
                       lib_.target().memLatency));
    if (p_.maxConcurrency != ls_.maxConcurrency) fail("max concurrency differs from the schedule's");
    if (p_.cuts.empty() || p_.cuts.front() != 0) fail("the first cluster does not start at position 0");
    if (!std::is_sorted(p_.cuts.begin(), p_.cuts.end()) ||
        std::adjacent_find(p_.cuts.begin(), p_.cuts.end()) != p_.cuts.end() || p_.cuts.back() >= p_.F)
      fail("cluster cuts are not strictly increasing positions below F");
  }

  // Values not carried to their last reader: counted (induction variables) or formed again
  // (extensions and concatenations of values carried as far).
  void carried() const {
    for (uint32_t v = 0; v < loop_.ops.size(); ++v) {
      // Counted past where it is carried: an induction variable, outside a reinvocable loop, every
      // read past carriedTo from a counter, none before.
      if (!p_.counters[v].empty() && (!inductionStep(loop_, v) || p_.reinvocable))
        fail(fmt::format("{} is read from counters, but it is not an induction variable of a loop that "
                         "restarts its tokens at start",
                         label(v)));
      // Counted where it is formed: a phi read there by nothing else of its own.
      std::vector<uint32_t> later = p_.counters[v];
      if (p_.phiCounted(v)) {
        const uint32_t phi = loop_.ops[v].index;
        if (std::count_if(loop_.ops.begin(), loop_.ops.end(), [&](const ir::Op& op) {
              return op.kind == OpKind::LoopPhi && op.index == phi;
            }) != 1)
          fail(fmt::format("{} is counted where it is formed, but its phi has other readers", label(v)));
        later.erase(later.begin());
      }
      // The read positions past carriedTo are counted; a counted phi's next value is not read back.
      const int read = lastRead(v);
      if (p_.carriedTo[v] > p_.lastUse[v] || p_.carriedTo[v] < std::min(read, int(p_.compPos[v])) ||
          (!later.empty() && (int(later.front()) <= p_.carriedTo[v] || int(later.back()) != read)) ||
          (later.empty() && p_.carriedTo[v] < read))
        fail(fmt::format("{} is carried to {} and read up to {}, but counted at no later position", label(v),
                         p_.carriedTo[v], read));
      // A value formed again where it is read: bits of its operands only, formed where it starts, and
      // its operands live as long as it is read.
      if (p_.rematerialized[v]) {
        const OpKind k = loop_.ops[v].kind;
        if ((k != OpKind::ZExt && k != OpKind::SExt && k != OpKind::Concat) || !p_.unitModule[v].empty() ||
            int64_t(p_.compPos[v]) != ls_.schedule.start[v])
          fail(fmt::format("{} is formed again where it is read, but it is not an extension or concatenation "
                           "formed where it starts",
                           label(v)));
        for (ir::ValueId o : loop_.ops[v].operands)
          if (p_.lastUse[o] < p_.lastUse[v] && loop_.ops[o].kind != OpKind::Const)
            fail(fmt::format("{} is formed again at {}, but its operand {} lives only to {}", label(v),
                             p_.lastUse[v], label(o), p_.lastUse[o]));
      }
    }
  }

  // The last position v is read at (its operand reads, a load's predicate and a call's at their
  // capture, the exit condition, a live-out at the last position), the back edges of phis not counted
  // where they are read included, or as far as a value formed again from it is read.
  int lastRead(ir::ValueId v) const {
    int last = -1;
    for (uint32_t i = 0; i < loop_.ops.size(); ++i) {
      const ir::Op& op = loop_.ops[i];
      const bool reads = std::find(op.operands.begin(), op.operands.end(), v) != op.operands.end();
      const bool formedAgain = p_.rematerialized[i] && loop_.ops[v].kind != OpKind::Const;
      if (reads) last = std::max(last, formedAgain ? p_.lastUse[i] : int(p_.start[i]));
      const bool predicate = (op.kind == OpKind::Load && op.operands.size() > 1 && op.operands[1] == v) ||
                             (op.kind == OpKind::LoopCall && op.operands.back() == v);
      if (predicate) last = std::max(last, int(p_.compPos[i]));
      // A carry register takes the next value where it is ready, or as it is formed: at compPos, or
      // from a unit's output (not from the pipeline).
      if (op.kind == OpKind::LoopPhi && loop_.phis[op.index].next == v && !p_.phiCounted(i) &&
          !(p_.carryWhereFormed[op.index] && p_.unitSpan(v)))
        last = std::max(last, int(p_.carryWhereFormed[op.index] ? p_.compPos[v] : p_.readyPos[v]));
    }
    if (loop_.continueCond == v) last = std::max(last, int(p_.exitPos));
    if (std::find(loop_.liveOuts.begin(), loop_.liveOuts.end(), v) != loop_.liveOuts.end())
      last = int(p_.F) - 1;
    return last;
  }

  // Every position follows the schedule and the library's units; every value lives from where it
  // is formed to its last reader, and the pipeline is long enough for all of it.
  void timing() const {
    for (uint32_t v = 0; v < loop_.ops.size(); ++v) {
      const sched::Unit u = lib_.unit(loop_.ops[v]);
      const int64_t s = ls_.schedule.start[v];
      if (int64_t(p_.start[v]) != s)
        fail(fmt::format("{} starts at {}, scheduled at {}", label(v), p_.start[v], s));
      // Every operation the library builds as an instance runs on its unit (a span across clusters
      // has a side FIFO, fifos()), and forms its result where the unit says.
      const bool instanced = !p_.unitModule[v].empty();
      if (instanced && (u.build != sched::UnitBuild::Instance || p_.unitModule[v] != u.module))
        fail(fmt::format("{} runs on unit {}, but its unit is {} ({})", label(v), p_.unitModule[v],
                         sched::unitBuildName(u.build), u.module));
      if (!instanced && u.build == sched::UnitBuild::Instance)
        fail(fmt::format("{} is built inline, but its unit is an instance of {}", label(v), u.module));
      // Ready where the schedule has it: the unit's latency, or 0 for a chained single-cycle unit.
      // A queued response is taken where it is readable, or as it arrives and registered (planLoop).
      int64_t form = s + u.formOffset(false);
      if (u.queued && p_.compPos[v] == s + u.resultOffset) form = p_.compPos[v];
      const uint32_t lat = ls_.problem.ops[v].latency;
      if (lat != u.latency && !(lat == 0 && u.chainable))
        fail(fmt::format("{} has latency {} in its schedule, but its unit ({}) has {}", label(v), lat,
                         sched::unitBuildName(u.build), u.latency));
      if (p_.readyPos[v] != s + lat || p_.compPos[v] != form)
        fail(fmt::format("{}: formed at {} and ready at {}, but its unit ({}, latency {}) gives {} and {}",
                         label(v), p_.compPos[v], p_.readyPos[v], sched::unitBuildName(u.build), lat, form,
                         s + lat));
      if (p_.compPos[v] >= p_.F)
        fail(fmt::format("{} is formed at {}, past the last position {}", label(v), p_.compPos[v], p_.F - 1));
      if (p_.lastUse[v] >= int(p_.F))
        fail(fmt::format("{} is read at {}, past the last position", label(v), p_.lastUse[v]));
      for (ir::ValueId o : loop_.ops[v].operands) {
        if (o == ir::kNone) continue;
        if (p_.compPos[o] > p_.start[v] || p_.lastUse[o] < int(p_.start[v]))
          fail(fmt::format("{} reads {} at {}, which lives from {} to {}", label(v), label(o), p_.start[v],
                           p_.compPos[o], p_.lastUse[o]));
      }
    }
    if (p_.exitPos != p_.readyPos[loop_.continueCond] || p_.exitPos >= p_.F)
      fail(fmt::format("the exit is read at {}, but the condition is ready at {} (F {})", p_.exitPos,
                       p_.readyPos[loop_.continueCond], p_.F));
  }

  // Modulo binding: every unit operation runs on exactly one instance of its own module, and no two
  // operations of one instance can hold tokens at their start positions in the same cycle (the
  // instance takes the operands of the one valid start). Stall-enable tokens sit on positions equal
  // modulo II; a stall-free cluster's tokens are at least II positions apart but otherwise free, and
  // clusters drift apart.
  void binding() const {
    const size_t n = loop_.ops.size();
    if (p_.instanceOf.size() != n) fail(fmt::format("instanceOf does not have the loop's {} entries", n));
    std::vector<int> seen(n, -1);
    for (size_t k = 0; k < p_.instances.size(); ++k) {
      const UnitInstance& inst = p_.instances[k];
      if (inst.ops.empty()) fail(fmt::format("unit instance {} ({}) runs no operation", k, inst.module));
      for (uint32_t v : inst.ops) {
        if (v >= n || seen[v] >= 0 || p_.instanceOf[v] != int(k) || p_.unitModule[v] != inst.module)
          fail(fmt::format("unit instance {} ({}) lists operation {}, which is not bound to it alone", k,
                           inst.module, v));
        seen[v] = int(k);
      }
      for (size_t a = 0; a < inst.ops.size(); ++a)
        for (size_t b = a + 1; b < inst.ops.size(); ++b) {
          const uint32_t x = inst.ops[a], y = inst.ops[b], sx = p_.start[x], sy = p_.start[y];
          const uint32_t gap = sx > sy ? sx - sy : sy - sx;
          const bool meet = p_.stallFree() ? p_.clusterOf(sx) != p_.clusterOf(sy) || gap == 0 || gap >= p_.ii
                                           : gap % p_.ii == 0;
          if (meet)
            fail(fmt::format(
                "{} (start {}) and {} (start {}) share unit instance {} ({}) but can be issued to it "
                "in the same cycle (II {}, {})",
                label(x), sx, label(y), sy, k, inst.module, p_.ii, clusterModeName(p_.kind)));
        }
    }
    for (uint32_t v = 0; v < n; ++v)
      if (seen[v] != p_.instanceOf[v] || (seen[v] < 0) != p_.unitModule[v].empty())
        fail(fmt::format("{} runs on {}, but its unit instance is {}", label(v),
                         p_.unitModule[v].empty() ? "no unit" : p_.unitModule[v], p_.instanceOf[v]));
  }

  // The module's memory ports: one per port of a memory an operation uses (ir::portKey), with a
  // response where one loads, and no others.
  void ports() const {
    for (const auto* list : {&p_.memories, &p_.loadMemories})
      if (std::adjacent_find(list->begin(), list->end(), std::greater_equal<>()) != list->end())
        fail("memory port lists are not strictly ascending");
    auto listed = [](const std::vector<uint32_t>& l, uint32_t m) {
      return std::binary_search(l.begin(), l.end(), m);
    };
    std::set<uint32_t> accessed, loaded;
    for (uint32_t v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (op.kind == ir::OpKind::LoopCall) { // an inner loop's accesses go through this module's ports
        const ir::PortUse use = ir::loopPortUse(memories_, loops_, op.index);
        accessed.insert(use.all.begin(), use.all.end());
        loaded.insert(use.loads.begin(), use.loads.end());
        for (uint32_t m : use.loads)
          if (!listed(p_.loadMemories, m))
            fail(fmt::format("{} loads through port {} without a response", label(v), m));
        continue;
      }
      if (op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store) continue;
      const uint32_t key = ir::portKey(memories_, op);
      accessed.insert(key);
      if (op.kind == ir::OpKind::Load) loaded.insert(key);
      if (!listed(p_.memories, key))
        fail(fmt::format("{} accesses memory {} through port {}, which the module lacks", label(v), op.memory,
                         key));
      if (op.kind == ir::OpKind::Load && !listed(p_.loadMemories, key))
        fail(fmt::format("{} loads from memory {} through port {}, which has no response", label(v),
                         op.memory, key));
    }
    if (p_.memories.size() != accessed.size() || p_.loadMemories.size() != loaded.size())
      fail("a memory port no operation uses");
  }

  // Stall-free: a cut at every memory request and every load response, all after the exit is known;
  // stall-enable: one cluster.
  void clusters() const {
    if (!p_.stallFree()) {
      if (p_.cuts.size() != 1 || !p_.exitFifoDepth.empty() || !p_.gates.empty())
        fail("a stall-enable loop has more than one cluster, exit FIFOs or gates");
      return;
    }
    std::set<uint32_t> needed{0};
    for (uint32_t v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (op.kind != OpKind::Load && op.kind != OpKind::Store && op.kind != OpKind::LoopCall) continue;
      if (p_.start[v] <= p_.exitPos && !loop_.endless())
        fail(fmt::format("{} requests memory at {}, before the exit is known at {}", label(v), p_.start[v],
                         p_.exitPos));
      needed.insert(p_.start[v]);
      if (op.kind != OpKind::Store)
        needed.insert(p_.compPos[v]); // a load's response, an inner loop's results
    }
    if (std::set<uint32_t>(p_.cuts.begin(), p_.cuts.end()) != needed)
      fail(fmt::format("cuts [{}] are not exactly position 0 and the memory requests and responses [{}]",
                       fmt::join(p_.cuts, ", "), fmt::join(needed, ", ")));
  }

  void fifos() const {
    if (p_.stallFree() && p_.exitFifoDepth.size() + 1 != p_.cuts.size())
      fail("not one exit FIFO per cluster boundary");
    for (size_t j = 0; j < p_.exitFifoDepth.size(); ++j) {
      // A credit returns len + 1 cycles after it was taken; a token enters every II cycles.
      const uint64_t len = p_.cuts[j + 1] - p_.cuts[j], roundTrip = (len + 1 + p_.ii - 1) / p_.ii;
      if (p_.exitFifoDepth[j] <= roundTrip)
        fail(fmt::format("exit FIFO {} has depth {}, needs more than the credit round trip {}", j,
                         p_.exitFifoDepth[j], roundTrip));
    }
    for (uint32_t v = 0; v < loop_.ops.size(); ++v) {
      const uint64_t d = p_.respFifoDepth[v];
      if (loop_.ops[v].kind != OpKind::Load && loop_.ops[v].kind != OpKind::LoopCall) {
        if (d != 0) fail(fmt::format("{} is not a load but has a response FIFO", label(v)));
        continue;
      }
      // Outstanding reads (or inner-loop calls): stall-free, every token between request and capture
      // cluster (their credits); stall-enable, one per II over the latency plus the one being
      // captured and a spare.
      const uint64_t latency = p_.compPos[v] - p_.start[v];
      uint64_t outstanding = latency / p_.ii + 2;
      if (p_.stallFree()) {
        outstanding = 0;
        for (size_t j = 0; j < p_.exitFifoDepth.size(); ++j)
          if (p_.cuts[j + 1] > p_.start[v] && p_.cuts[j + 1] <= p_.compPos[v])
            outstanding += p_.exitFifoDepth[j];
      }
      if (d < std::max<uint64_t>(outstanding, 2))
        fail(fmt::format("{} has a response FIFO of depth {}, needs at least {} outstanding reads (and 2)",
                         label(v), d, outstanding));
    }
    sideFifos();
  }

  // A unit instance whose span crosses a cluster boundary runs free in its first cluster and hands
  // each token's result to the cluster of its result position through a side FIFO. It holds the
  // tokens that have left the first cluster and not reached the result position: at most the credits
  // of every cluster from the first to the one before the result's (each bounds its tokens and its
  // exit FIFO's), plus one per position after the result cluster's entry up to the result position.
  void sideFifos() const {
    auto cluster = [&](uint32_t pos) {
      return uint32_t(std::upper_bound(p_.cuts.begin(), p_.cuts.end(), pos) - p_.cuts.begin()) - 1;
    };
    for (uint32_t v = 0; v < loop_.ops.size(); ++v) {
      const uint64_t d = p_.sideFifoDepth[v];
      const uint32_t from = cluster(p_.start[v]), to = cluster(p_.compPos[v]);
      const bool needed = p_.stallFree() && !p_.unitModule[v].empty() && from != to;
      if (!needed) {
        if (d != 0)
          fail(fmt::format("{} has a side FIFO, but no unit span of it crosses a cluster", label(v)));
        continue;
      }
      // Nothing in the pipeline reads it: the unit's output only writes a carry (carryWhereFormed).
      if (lastRead(v) < int(p_.compPos[v])) {
        if (d != 0) fail(fmt::format("{} has a side FIFO, but nothing reads its result there", label(v)));
        continue;
      }
      uint64_t inFlight = p_.compPos[v] - p_.cuts[to];
      for (uint32_t j = from; j < to; ++j)
        inFlight += p_.exitFifoDepth[j];
      if (d < std::max<uint64_t>(inFlight, 2))
        fail(fmt::format("{} runs on a unit from cluster {} to {}: its side FIFO has depth {}, needs at "
                         "least {} results in flight (and 2)",
                         label(v), from, to, d, inFlight));
    }
  }

  // Every loop-carried value or memory order whose producer completes in a later cluster than its
  // consumer is read needs a gate, and every gate stands for such a dependence.
  void gates() const {
    auto cluster = [&](uint32_t pos) {
      return uint32_t(
          std::count_if(p_.cuts.begin() + 1, p_.cuts.end(), [&](uint32_t c) { return c <= pos; }));
    };
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t>> needed, have;
    if (p_.stallFree())
      for (const sched::Dependence& d : ls_.problem.deps) {
        if (d.distance == 0) continue;
        uint32_t done;
        if (d.kind == sched::Dependence::Kind::LoopCarried)
          // Written where it is ready, or as it is formed: at compPos, or as a unit running across cuts
          // puts it out, in the timeline of the cluster the unit starts in.
          done = !p_.carryWhereFormed[loop_.ops[d.to].index]
                     ? p_.start[d.from] + ls_.problem.ops[d.from].latency
                 : p_.unitSpan(d.from) ? p_.start[d.from]
                                       : p_.compPos[d.from];
        else if (d.kind == sched::Dependence::Kind::Memory)
          done = p_.start[d.from] +
                 (loop_.ops[d.from].kind == OpKind::LoopCall ? lib_.unit(loop_.ops[d.from]).resultOffset : 0);
        else
          continue;
        // A phi counted where it is read takes nothing from the iteration ahead.
        if (d.kind == sched::Dependence::Kind::LoopCarried && p_.phiCounted(d.to)) continue;
        if (cluster(done) > cluster(p_.start[d.to]) && d.distance <= p_.inFlightBound())
          needed.insert({d.from, d.to, done, cluster(p_.start[d.to]), d.distance});
      }
    for (const CarryGate& g : p_.gates)
      have.insert({g.from, g.to, g.fromPos, g.toCluster, g.distance});
    if (needed != have) {
      // For compiler developers: the dependences on one side only (from, to, producer position,
      // consumer cluster, distance).
      std::string only;
      for (const auto& [set, other, side] :
           {std::tuple{&needed, &have, "needed"}, {&have, &needed, "planned"}})
        for (const auto& t : *set)
          if (!other->count(t))
            only +=
                fmt::format("; {} only: %{} -> %{} done at {}, read in cluster {}, distance {}", side,
                            std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t), std::get<4>(t));
      fail(fmt::format("{} recurrence(s) cross a cluster boundary, {} gate(s) planned, and they differ{}",
                       needed.size(), have.size(), only));
    }
    for (const CarryGate& g : p_.gates) {
      // Tokens never wait inside a cluster: one counted at countPos, in the producer's cluster, is at
      // fromPos (fromPos - countPos) cycles later. The consumer is admitted a cycle after the count at
      // the earliest (in the same one when counted as it is admitted) and reads (start - entry) cycles
      // after that: strictly after the producer's cycle at fromPos, or in it when forwarded.
      const uint32_t fromCut = p_.cuts[cluster(g.fromPos)], entry = p_.cuts.at(g.toCluster);
      const bool forwarded = p_.forwardPos[g.to] == int(g.fromPos);
      if (g.countPos < fromCut || g.countPos > g.fromPos || (g.countAsAdmitted && g.countPos != fromCut))
        fail(fmt::format("the gate of {} counts at {}{}, outside its producer's cluster ({}..{})",
                         label(g.to), g.countPos, g.countAsAdmitted ? " as admitted" : "", fromCut,
                         g.fromPos));
      if (g.lag() + (p_.start[g.to] - entry) < g.fromPos + (forwarded ? 0 : 1))
        fail(fmt::format("the gate of {} counts at {}: its read at {} may come before {} is complete at {}",
                         label(g.to), g.countPos, p_.start[g.to], label(g.from), g.fromPos));
      // At the assumed latency iteration k passes countPos at k * II + countPos, and the consumer's
      // cluster admits iteration k + distance at (k + distance) * II + entry.
      if (g.waits != (g.lag() > uint64_t(g.distance) * p_.ii + entry))
        fail(fmt::format("the gate of {} is said to {}wait at the assumed latency", label(g.to),
                         g.waits ? "" : "not "));
      if (g.waits && p_.predictable)
        fail("a loop whose gate waits at the assumed latency is marked predictable");
    }
    // A carry register written as its value is formed is written after the iteration's own reads,
    // and (the schedule's recurrence: ready at most II after the read) before the next iteration's:
    // formed at compPos, read no later; or formed by a unit running across cuts (its result comes
    // out a fixed time after its token entered it), read only in the cluster the unit starts in,
    // where tokens keep at least II apart.
    for (uint32_t k = 0; k < loop_.phis.size(); ++k) {
      if (!p_.carryWhereFormed[k]) continue;
      const std::string& phi = loop_.phis[k].name;
      const ir::ValueId next = loop_.phis[k].next;
      if (!p_.stallFree() || p_.compPos[next] + 1 != p_.start[next] + ls_.problem.ops[next].latency)
        fail(fmt::format("phi {}'s carry register is written where {} is formed, which is not a cycle before "
                         "it is ready",
                         phi, label(next)));
      const bool unitSpan = p_.unitSpan(next);
      for (uint32_t u = 0; u < loop_.ops.size(); ++u) {
        if (loop_.ops[u].kind != OpKind::LoopPhi || loop_.ops[u].index != k) continue;
        if (p_.phiCounted(u))
          fail(fmt::format("phi {} is counted at {}, but has a carry register", phi, label(u)));
        if (unitSpan ? cluster(p_.start[u]) != cluster(p_.start[next]) : p_.start[u] > p_.compPos[next])
          fail(fmt::format(
              "phi {}'s carry register is written as {} is formed, at {}{}, but {} reads it at {}", phi,
              label(next), p_.compPos[next], unitSpan ? " by a unit started in another cluster" : "",
              label(u), p_.start[u]));
      }
    }
    if (p_.reinvocable && (p_.stallFree() || !p_.gates.empty() || p_.subPipelines))
      fail("a reinvocable loop is stall-free, has gates or runs inner loops");
  }

  // A concurrency limit below the iterations a pipeline holds makes it issue in bursts of that many,
  // one burst per ceil(F / II) * II cycles stall-enable (issues keep their II slots), per F cycles
  // stall-free (admission waits II cycles since the last one, whenever that was).
  void bursts() const {
    const uint64_t perLatency = (uint64_t(p_.F) + p_.ii - 1) / p_.ii;
    const bool limited = p_.maxConcurrency > 1 && perLatency > p_.maxConcurrency;
    const uint32_t burst = limited ? p_.maxConcurrency : 0;
    const int64_t period = !burst ? 0 : p_.stallFree() ? int64_t(p_.F) : int64_t(perLatency * p_.ii);
    if (p_.predictBurst != burst || p_.predictBurstPeriod != period)
      fail(fmt::format("bursts of {} every {} cycles predicted, expected {} every {}", p_.predictBurst,
                       p_.predictBurstPeriod, burst, period));
  }

  // A phi that reads while the iteration ahead is still producing its next value (in the same
  // cluster) must take it forwarded from exactly where it is produced; every other phi reads its
  // carry register, which is current then (or, across clusters, made current by a gate).
  void forwarding() const {
    for (uint32_t v = 0; v < loop_.ops.size(); ++v) {
      const int fwd = p_.forwardPos[v];
      if (loop_.ops[v].kind != OpKind::LoopPhi) {
        if (fwd >= 0) fail(fmt::format("{} is not a phi but is forwarded", label(v)));
        continue;
      }
      const ir::ValueId next = loop_.phis[loop_.ops[v].index].next;
      const uint32_t produced = p_.start[next] + ls_.problem.ops[next].latency, read = p_.start[v];
      const bool sameCluster = std::upper_bound(p_.cuts.begin(), p_.cuts.end(), produced) ==
                               std::upper_bound(p_.cuts.begin(), p_.cuts.end(), read);
      // The iteration ahead, II positions on, must have produced it by the time this one reads it
      // (forwarded in that very cycle at the latest): later, the read would take a stale value.
      if (next != v && produced > read + p_.ii)
        fail(fmt::format("{} is read at {} but its next value {} is produced at {}, more than II = {} later",
                         label(v), read, label(next), produced, p_.ii));
      // Tokens in one cluster are at least II positions apart: only then is the one ahead there.
      // Across clusters, the phi's gate may admit it early enough to read the value as it is produced.
      bool acrossNeeded = false;
      for (const CarryGate& g : p_.gates)
        if (g.to == v && !sameCluster && !p_.carryWhereFormed[loop_.ops[v].index] &&
            g.lag() + (read - p_.cuts.at(g.toCluster)) == produced)
          acrossNeeded = true;
      const bool needed = (next != v && produced >= read + p_.ii && sameCluster) || acrossNeeded;
      if (needed != (fwd >= 0) || (needed && uint32_t(fwd) != produced))
        fail(fmt::format("{} is read at {} and its next value {} is produced at {}: forwarding from {}",
                         label(v), read, label(next), produced, fwd));
    }
  }
};

void checkFsm(const ir::Kernel& k, const sched::KernelSchedule& s, const sched::OperatorLibrary& lib,
              const FsmPlan& f) {
  if (f.formCycle.size() != k.ops.size() || f.unitModule.size() != k.ops.size() ||
      f.blockCycles.size() != k.blocks.size())
    throw InternalError(k.loc, "kernel " + k.name,
                        "plan check: the FSM plan does not cover every op and block");
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    const ir::BasicBlock& bb = k.blocks[b];
    const sched::BlockSchedule& bs = s.blocks[b];
    auto fail = [&](const std::string& what) {
      throw InternalError(bb.term.loc, "block " + bb.name, "plan check: " + what);
    };
    if (bs.schedule.start.size() < bb.ops.size()) fail("the block schedule misses operations");
    // The FSM holds every value in a register, so a result may be formed in its unit's last cycle.
    int last = bs.schedule.start.size() > bb.ops.size() ? bs.schedule.start[bb.ops.size()] : 0;
    for (size_t i = 0; i < bb.ops.size(); ++i) {
      const ir::ValueId v = bb.ops[i];
      const sched::Unit u = lib.unit(k.ops[v]);
      const int expect = bs.schedule.start[i] + int(u.formOffset(true));
      if (f.unitModule[v] != (u.build == sched::UnitBuild::Instance ? u.module : ""))
        fail(fmt::format("{} runs on unit '{}', but its unit is {} ('{}')",
                         sched::opLabel(k.ops[v], uint32_t(v)), f.unitModule[v],
                         sched::unitBuildName(u.build), u.module));
      if (f.formCycle[v] != expect)
        fail(fmt::format("{} is formed in cycle {}, but its unit ({}, latency {}) forms it in {}",
                         sched::opLabel(k.ops[v], uint32_t(v)), f.formCycle[v], sched::unitBuildName(u.build),
                         u.latency, expect));
      last = std::max(last, expect);
    }
    if (f.blockCycles[b] != uint32_t(last + 1))
      fail(fmt::format("lasts {} cycles, but its last result or terminator is in cycle {}", f.blockCycles[b],
                       last));
  }
}

} // namespace

void checkPlan(const ir::Kernel& k, const sched::KernelSchedule& s, const sched::OperatorLibrary& lib,
               const KernelPlan& plan) {
  if (plan.loops.size() != k.loops.size() || s.loops.size() != k.loops.size() ||
      s.blocks.size() != k.blocks.size())
    throw InternalError(k.loc, "kernel " + k.name,
                        "plan check: loop or block count differs from the kernel's");
  if (plan.target.memLatency != lib.target().memLatency)
    throw InternalError(k.loc, "kernel " + k.name, "plan check: planned for a different target");
  for (size_t l = 0; l < k.loops.size(); ++l)
    LoopChecker(k.memories, k.loops, uint32_t(l), s.loops[l], lib, plan.loops[l]).run();
  // A port whose requests go ungated while idle has no other driver to be merged with: no FSM access,
  // no other loop, no task queue, and the FSM runs the loop (an inner loop's port is merged into
  // its caller's).
  const std::vector<int> callers = ir::loopCallers(k.loops);
  for (size_t l = 0; l < k.loops.size(); ++l)
    for (uint32_t m : plan.loops[l].soleDriverOf) {
      const uint32_t mem = ir::portMemory(k.memories, m);
      bool alone = callers[l] < 0 && mem < k.memories.size() &&
                   k.memories[mem].kind != ir::Memory::Kind::Queue &&
                   std::binary_search(plan.loops[l].memories.begin(), plan.loops[l].memories.end(), m);
      for (const ir::Op& op : k.ops)
        alone = alone &&
                !((op.kind == OpKind::Load || op.kind == OpKind::Store) && ir::portKey(k.memories, op) == m);
      for (size_t o = 0; o < k.loops.size(); ++o)
        alone = alone && (o == l || !std::binary_search(plan.loops[o].memories.begin(),
                                                        plan.loops[o].memories.end(), m));
      if (!alone)
        throw InternalError(k.loc, "kernel " + k.name,
                            fmt::format("plan check: loop {} drives memory {}'s requests ungated, but it is "
                                        "not their only driver",
                                        k.loops[l].name, m));
    }
  // A live-in read where it comes in is held by its driver from start until done: the loop is the
  // FSM's, and the kernel latches its arguments when it starts (constants never change).
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const std::vector<ir::ValueId>& in = k.loops[l].liveIns;
    if (plan.loops[l].liveInHeld.size() != in.size())
      throw InternalError(k.loc, "kernel " + k.name,
                          fmt::format("plan check: loop {} has {} live-ins, {} held flags", k.loops[l].name,
                                      in.size(), plan.loops[l].liveInHeld.size()));
    for (size_t i = 0; i < in.size(); ++i) {
      if (!plan.loops[l].liveInHeld[i]) continue;
      // An inner loop's live-ins are its caller's values (an outer pipeline's, moving on).
      std::string driver = "an outer pipeline";
      bool kept = false;
      if (callers[l] < 0) {
        const OpKind kind = k.ops.at(in[i]).kind;
        kept = kind == OpKind::Arg || kind == OpKind::Const || kind == OpKind::Undef;
        driver = ir::opKindName(kind);
      }
      if (!kept)
        throw InternalError(k.loc, "kernel " + k.name,
                            fmt::format("plan check: loop {} reads live-in {} unlatched, but its driver ({}) "
                                        "need not hold it while the loop runs",
                                        k.loops[l].name, i, driver));
    }
  }
  checkFsm(k, s, lib, plan.fsm);
}

} // namespace spvhls::rtl
