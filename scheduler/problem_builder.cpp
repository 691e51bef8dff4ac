// Scheduling problems from the HLS IR: one per pipelined loop body, one per CFG block. The dependences
// are exactly those documented in kernel_schedule.h.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "ir/dependence.h"
#include "scheduler/kernel_schedule.h"

namespace spvhls::sched {
namespace {

using ir::OpKind;

bool isMemoryAccess(const ir::Op& op) { return op.kind == OpKind::Load || op.kind == OpKind::Store; }

// "%add = Add" for values, "Store #7" for operations without a result.
std::string operationName(const ir::Op& op, uint32_t index) {
  if (op.width() == 0) return opLabel(op, index);
  return fmt::format("{} = {}", valueName(op, index), ir::opKindName(op.kind));
}

// The scheduling view of an operation: its unit's latency and resource class, and the bits a
// pipeline register of its value costs. Constants and loop invariants (arguments, live-ins) are held
// once, not per pipeline stage, so their lifetimes cost no pipeline registers.
// With a clock period (budget > 0), a chainable unit whose delay fits the cycle gets latency 0: its
// result is read on a wire in the cycle it is formed (and registered only for later readers), unless
// `registered` (the loop's continue condition: the loop's control logic reads it from a register).
// `all`: the ops the operands index, for a comparison's operand width.
Operation operationOf(const ir::Op& op, uint32_t index, const OperatorLibrary& lib,
                      const std::vector<ir::Op>& all, double budget, bool registered = false) {
  const uint32_t operandWidth =
      !op.operands.empty() && op.operands[0] < all.size() ? all[op.operands[0]].width() : 0;
  const Unit u = lib.unit(op, operandWidth);
  using K = ir::OpKind;
  const bool invariant = op.kind == K::Const || op.kind == K::Arg || op.kind == K::LiveIn ||
                         op.kind == K::Undef || op.kind == K::Param;
  const bool chained = budget > 0 && u.chainable && u.delayNs <= budget && !registered;
  return Operation{operationName(op, index),
                   chained ? 0 : u.latency,
                   u.resource,
                   1,
                   invariant ? 0 : op.width(),
                   u.delayNs};
}

// The combinational delay a cycle allows on the target (0: no clock period, no chaining).
double cycleBudget(const OperatorLibrary& lib, const SourceLoc& loc, const std::string& construct) {
  const Target& t = lib.target();
  if (t.clockPeriodNs <= 0) return 0;
  const double budget = t.clockPeriodNs - t.delays.registerOverheadNs;
  if (budget <= 0)
    throw DiagnosticError(
        loc, construct,
        fmt::format("the clock period {} ns is not above target {}'s register overhead of {} "
                    "ns (clock-to-out and setup): no logic fits a cycle; use a longer period",
                    t.clockPeriodNs, t.name, t.delays.registerOverheadNs));
  return budget;
}

InternalError internalIrError(const SourceLoc& loc, const std::string& construct, const std::string& what) {
  return InternalError(loc, construct, "malformed HLS IR: " + what);
}

void addDep(Problem& p, uint32_t from, uint32_t to, int latency, uint32_t distance, Dependence::Kind kind) {
  p.deps.push_back(Dependence{from, to, latency, distance, kind});
}

// The first memory access `v` depends on through data operands, or kNone.
ir::ValueId memoryAccessBehind(const ir::Loop& loop, ir::ValueId v) {
  std::vector<bool> seen(loop.ops.size(), false);
  std::vector<ir::ValueId> work{v};
  while (!work.empty()) {
    ir::ValueId u = work.back();
    work.pop_back();
    if (u >= loop.ops.size() || seen[u]) continue;
    seen[u] = true;
    if (isMemoryAccess(loop.ops[u])) return u;
    for (ir::ValueId o : loop.ops[u].operands) work.push_back(o);
  }
  return ir::kNone;
}

// Per LoopPhi op: does its recurrence stay clear of memory? Its next value depends, within the
// iteration, on no memory access, inner loop or inner loop's result, nor on a carried value whose
// recurrence does not stay clear.
std::vector<bool> memoryFreeRecurrences(const ir::Loop& loop) {
  const size_t n = loop.ops.size();
  std::vector<bool> touches(n, false), phiTouches(n, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (ir::ValueId v = 0; v < n; ++v) {
      const ir::Op& op = loop.ops[v];
      bool t = isMemoryAccess(op) || op.kind == OpKind::LoopCall || op.kind == OpKind::LoopOut ||
               (op.kind == OpKind::LoopPhi && phiTouches[v]);
      for (ir::ValueId o : op.operands)
        t = t || (o < v && touches[o]);
      touches[v] = t;
    }
    for (ir::ValueId v = 0; v < n; ++v) {
      if (loop.ops[v].kind != OpKind::LoopPhi || phiTouches[v] || loop.ops[v].index >= loop.phis.size())
        continue;
      const ir::ValueId next = loop.phis[loop.ops[v].index].next;
      if (next < n && touches[next]) phiTouches[v] = true, changed = true;
    }
  }
  std::vector<bool> clear(n, false);
  for (ir::ValueId v = 0; v < n; ++v)
    clear[v] = loop.ops[v].kind == OpKind::LoopPhi && !phiTouches[v];
  return clear;
}

// What one operation of the body touches: a load or store its memory, a LoopCall its inner loop's.
struct Footprint {
  std::vector<uint32_t> reads, writes;
  bool conflicts(const Footprint& o, std::vector<uint32_t>& shared) const {
    auto add = [&](const std::vector<uint32_t>& w, const std::vector<uint32_t>& any) {
      for (uint32_t m : w)
        if (std::find(any.begin(), any.end(), m) != any.end() &&
            std::find(shared.begin(), shared.end(), m) == shared.end())
          shared.push_back(m);
    };
    add(writes, o.reads), add(writes, o.writes), add(o.writes, reads);
    return !shared.empty();
  }
};

// memories: the kernel's, whose hardware ports are the resources (ir::portKey); null: one resource
// per memory, named "mem<i>", up to the highest index used.
// queueOwner: per memory (empty: none is a queue), whose task queue it is (Memory::Kind::Queue): the
// Task process, or -2 / -3 for a pipelined task's own result / invocation queue; -1: not a queue.
// allLoops: the kernel's loops, for the memories of inner loops the body calls (null: none may be).
// called: another loop runs this one (it may be built reinvocable: its phis then choose an invocation's
// initial value).
Problem buildLoop(const ir::Loop& loop, const OperatorLibrary& lib, const std::vector<ir::Memory>* memories,
                  bool exitBeforeMemory, const std::vector<int>& queueOwner = {},
                  const std::vector<ir::Loop>* allLoops = nullptr, bool called = false) {
  const std::string construct = "loop " + loop.name;
  const auto& ops = loop.ops;
  const uint32_t n = uint32_t(ops.size());
  Problem p;

  if (memories) {
    for (uint32_t key = 0; key < ir::portCount(*memories); ++key)
      p.resources.push_back(Resource{ir::portName(*memories, key), lib.memoryPortLimit()});
  } else {
    uint32_t count = 0;
    for (const ir::Op& op : ops)
      if (isMemoryAccess(op)) count = std::max(count, op.memory + 1);
    for (uint32_t m = 0; m < count; ++m)
      p.resources.push_back(Resource{fmt::format("mem{}", m), lib.memoryPortLimit()});
  }
  p.clockPeriodNs = cycleBudget(lib, loop.loc, construct);
  for (uint32_t i = 0; i < n; ++i) {
    const ir::Op& op = ops[i];
    if (isMemoryAccess(op) && op.memory >= p.resources.size())
      throw internalIrError(op.loc, construct, fmt::format("{} uses memory {}, but there are {} memories",
                                                           opLabel(op, i), op.memory, p.resources.size()));
    p.ops.push_back(operationOf(op, i, lib, ops, p.clockPeriodNs, i == loop.continueCond));
    if (memories && p.ops.back().resource >= 0) p.ops.back().resource = int(ir::portKey(*memories, op));
    // A pipeline reads a queued result (a load's response) from its queue's head; the FSM registers it.
    p.ops.back().resultDelayNs = lib.unit(op).resultDelayNs;
  }
  auto lat = [&](uint32_t v) { return int(p.ops[v].latency); };

  // Data: operand -> user (each operand once, even if used twice).
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<ir::ValueId> seen;
    for (ir::ValueId v : ops[i].operands) {
      if (v == ir::kNone || std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
      if (v >= n)
        throw internalIrError(ops[i].loc, construct,
                              fmt::format("{} has operand {}, but the body has {} operations", opLabel(ops[i], i), v, n));
      seen.push_back(v);
      // Stall-free, an inner loop's result is read where it is taken, from its FIFO's head: from there
      // it travels with its iteration like any value (stage registers, exit FIFOs). Read later, it
      // would come from registers that move on every cycle while the iteration may wait in an exit
      // FIFO (stall-enable, those stop with the pipeline).
      const bool taken = exitBeforeMemory && ops[i].kind == OpKind::LoopOut;
      const int latency = taken ? int(lib.unit(ops[v]).resultOffset) : lat(v);
      addDep(p, v, i, latency, 0, Dependence::Kind::Data);
      if (taken) addDep(p, i, v, -latency, 0, Dependence::Kind::Timing);
    }
  }

  // chainEnd[v]: v's value may be the end of a chain of logic in its cycle: v of latency 0 (its value
  // on a wire) with a delay, or reading such a value. A phi's value comes from its carry register, and
  // a value of latency > 0 from a register (a load whose address is chained logic is no chain end:
  // its response comes latency cycles later).
  std::vector<int> chainEnd(n, -1);
  auto isChainEnd = [&](auto&& self, uint32_t v) -> bool {
    if (chainEnd[v] < 0) {
      chainEnd[v] = 0; // operands come first in a body; this only guards a malformed cycle
      bool end = p.ops[v].delayNs > 0 && ops[v].kind != OpKind::LoopPhi;
      for (ir::ValueId o : ops[v].operands)
        end = end || (o < n && p.ops[o].latency == 0 && self(self, o));
      chainEnd[v] = p.ops[v].latency == 0 && end;
    }
    return chainEnd[v] == 1;
  };
  for (uint32_t v = 0; v < n; ++v)
    isChainEnd(isChainEnd, v);

  // LoopCarried and PhiOrder, for every LoopPhi operation reading a phi.
  for (uint32_t i = 0; i < n; ++i) {
    if (ops[i].kind != OpKind::LoopPhi) continue;
    if (ops[i].index >= loop.phis.size())
      throw internalIrError(ops[i].loc, construct, fmt::format("{} reads phi {}, but the loop has {} phis",
                                                               opLabel(ops[i], i), ops[i].index, loop.phis.size()));
    ir::ValueId next = loop.phis[ops[i].index].next;
    if (next >= n)
      throw internalIrError(loop.loc, construct, fmt::format("phi {} has next value {}, expected an operation "
                                                             "below {}", loop.phis[ops[i].index].name, next, n));
    // With chaining, a value formed by chained logic reaches the next iteration through its carry
    // register, not on a wire (which would chain this iteration's logic behind the previous one's).
    const bool onWire = p.clockPeriodNs > 0 && chainEnd[next];
    addDep(p, next, i, onWire ? 1 : lat(next), 1, Dependence::Kind::LoopCarried);
    // A phi reads its carry register; a multiplexer (the library's delay) only where the value ahead
    // may be forwarded (a registered next value, read as it is produced) or an initial value chosen.
    if (!called && onWire) p.ops[i].delayNs = 0;
    if (next != i) addDep(p, i, next, -lat(next), 0, Dependence::Kind::PhiOrder);
  }

  // Memory: program order within an iteration, and the reverse order across iterations. An inner
  // loop (LoopCall) accesses its loop's memories between its start and its results: what follows it
  // waits for the results (latency = its result offset), what precedes it is issued before it starts.
  std::vector<uint32_t> accesses;
  std::vector<Footprint> footprint(n);
  for (uint32_t i = 0; i < n; ++i) {
    const ir::Op& op = ops[i];
    if (isMemoryAccess(op)) {
      accesses.push_back(i);
      (op.kind == OpKind::Load ? footprint[i].reads : footprint[i].writes).push_back(op.memory);
    } else if (op.kind == OpKind::LoopCall) {
      if (!allLoops)
        throw internalIrError(op.loc, construct,
                              fmt::format("{} without the kernel's loops", opLabel(op, i)));
      accesses.push_back(i);
      const ir::MemoryUse use = ir::loopMemoryUse(*allLoops, op.index);
      footprint[i].reads = use.reads, footprint[i].writes = use.writes;
    }
  }
  const ir::DependenceAnalysis dependences(loop);
  // Whether inner loops x and y request a port (a memory, without `memories`) in common.
  auto innerPortsMeet = [&](uint32_t x, uint32_t y) {
    auto ports = [&](uint32_t l) {
      if (memories) return ir::loopPortUse(*memories, *allLoops, l).all;
      const ir::MemoryUse use = ir::loopMemoryUse(*allLoops, l);
      std::vector<uint32_t> all = use.reads;
      all.insert(all.end(), use.writes.begin(), use.writes.end());
      return all;
    };
    const std::vector<uint32_t> px = ports(x), py = ports(y);
    return std::any_of(px.begin(), px.end(),
                       [&](uint32_t m) { return std::find(py.begin(), py.end(), m) != py.end(); });
  };
  // Cycles from an access's start until what follows it may be issued.
  auto after = [&](uint32_t i) {
    return ops[i].kind == OpKind::LoopCall ? int(lib.unit(ops[i]).resultOffset) : 1;
  };
  for (size_t a = 0; a < accesses.size(); ++a) {
    for (size_t b = a + 1; b < accesses.size(); ++b) {
      const ir::Op &first = ops[accesses[a]], &second = ops[accesses[b]];
      if (first.kind == OpKind::LoopCall || second.kind == OpKind::LoopCall) {
        std::vector<uint32_t> shared;
        // A task's queue orders with every access (a push releases, a pop acquires): with an inner
        // loop, both ways, as two accesses of one memory.
        const bool queue = (first.kind != OpKind::LoopCall && first.memory < queueOwner.size() &&
                            queueOwner[first.memory] != -1) ||
                           (second.kind != OpKind::LoopCall && second.memory < queueOwner.size() &&
                            queueOwner[second.memory] != -1);
        if (queue) {
          addDep(p, accesses[a], accesses[b], after(accesses[a]), 0, Dependence::Kind::Memory);
          addDep(p, accesses[b], accesses[a], after(accesses[b]), 1, Dependence::Kind::Memory);
          continue;
        }
        // Two inner loops on one port never run at once, whatever they access: nothing arbitrates
        // between their requests (an outer body's own go first). One call's results come before the
        // other's start, in the iteration and across iterations.
        if (first.kind == OpKind::LoopCall && second.kind == OpKind::LoopCall &&
            innerPortsMeet(first.index, second.index)) {
          addDep(p, accesses[a], accesses[b], after(accesses[a]), 0, Dependence::Kind::Memory);
          addDep(p, accesses[b], accesses[a], after(accesses[b]), 1, Dependence::Kind::Memory);
          continue;
        }
        if (!footprint[accesses[a]].conflicts(footprint[accesses[b]], shared)) continue;
        addDep(p, accesses[a], accesses[b], after(accesses[a]), 0, Dependence::Kind::Memory);
        uint32_t d = 0; // the shortest carried distance over the memories both touch (0: none)
        for (uint32_t m : shared)
          if (uint32_t dm = ir::controlDistance(loop.controls, m); dm > 0) d = d == 0 ? dm : std::min(d, dm);
        if (d > 0) addDep(p, accesses[b], accesses[a], after(accesses[b]), d, Dependence::Kind::Memory);
        continue;
      }
      // Task queues: a push (an async: a store to the invocation queue; a served task body's result:
      // a store to its own result queue) is a release, a pop (a get: a load from the result queue; a
      // served body's invocation: a load from its own invocation queue) an acquire. The accesses of
      // one task keep their order in the iteration and across iterations (a get waiting for its task
      // must never hold back, in a stalled pipeline, the async that would make room for it). A push
      // follows every access before it in program order, this iteration's and the previous
      // iterations'; a pop precedes every access after it; two pushes, or two pops, of different
      // queue owners are independent (a served body's pop and push too: its invocations overlap).
      const int q1 = first.memory < queueOwner.size() ? queueOwner[first.memory] : -1,
                q2 = second.memory < queueOwner.size() ? queueOwner[second.memory] : -1;
      if (q1 != -1 || q2 != -1) {
        const bool sameTask = q1 == q2;
        const bool async1 = q1 != -1 && first.kind == OpKind::Store,
                   async2 = q2 != -1 && second.kind == OpKind::Store;
        const bool get1 = q1 != -1 && first.kind == OpKind::Load,
                   get2 = q2 != -1 && second.kind == OpKind::Load;
        // Two asyncs, or two gets, of different tasks need no order.
        if (sameTask || (async2 && !async1) || (get1 && !get2))
          addDep(p, accesses[a], accesses[b], 1, 0, Dependence::Kind::Memory);
        // Iteration i's second access comes before iteration i + 1's first.
        if (sameTask || (async1 && !async2) || (get2 && !get1))
          addDep(p, accesses[b], accesses[a], 1, 1, Dependence::Kind::Memory);
        continue;
      }
      if (first.memory != second.memory) continue;
      if (first.kind != OpKind::Store && second.kind != OpKind::Store) continue;
      // Each order at the shortest distance the offsets may meet at (ir/dependence.h).
      const ir::MemoryOrder order = ir::memoryOrder(dependences, loop, accesses[a], accesses[b]);
      if (order.firstToSecond)
        addDep(p, accesses[a], accesses[b], 1, *order.firstToSecond, Dependence::Kind::Memory);
      if (order.secondToFirst)
        addDep(p, accesses[b], accesses[a], 1, *order.secondToFirst, Dependence::Kind::Memory);
    }
  }

  // Control: the next iteration's memory requests wait for this iteration's continue condition, or
  // with exitBeforeMemory the iteration's own requests wait until the cycle after it is known.
  const ir::ValueId cond = loop.continueCond;
  if (cond != ir::kNone && !loop.endless()) {
    if (cond >= n)
      throw internalIrError(loop.loc, construct,
                            fmt::format("continue condition {} is not one of the {} operations", cond, n));
    if (exitBeforeMemory && !accesses.empty()) {
      if (ir::ValueId m = memoryAccessBehind(loop, cond); m != ir::kNone)
        throw DiagnosticError(loop.loc, construct,
                              fmt::format("the exit condition {} depends on {}, so it cannot be known before the "
                                          "iteration's memory requests; a stall-free loop needs that, use "
                                          "stall-enable",
                                          opLabel(ops[cond], cond), opLabel(ops[m], m)));
    }
    for (uint32_t m : accesses) {
      if (exitBeforeMemory) addDep(p, cond, m, lat(cond) + 1, 0, Dependence::Kind::Control);
      else addDep(p, cond, m, lat(cond), 1, Dependence::Kind::Control);
    }
    // SpeculatedIterationsINTEL N: iteration i + N + 1 starts no earlier than iteration i's exit
    // condition is known, so at most N iterations run before it is (0: none, II >= its latency).
    if (loop.controls.speculatedIterations)
      for (uint32_t i = 0; i < n; ++i)
        addDep(p, cond, i, lat(cond), *loop.controls.speculatedIterations + 1, Dependence::Kind::Control);
  }
  // Stall-free clusters: the next value of a carried value whose recurrence stays clear of memory is
  // ready before the iteration's first memory request, in the first cluster, so no recurrence gate
  // waits for a later cluster (rtl::LoopPlan::gates). These orders close no cycle: nothing such a
  // recurrence reads follows an access.
  if (exitBeforeMemory && !accesses.empty()) {
    const std::vector<bool> clear = memoryFreeRecurrences(loop);
    for (uint32_t i = 0; i < n; ++i) {
      if (!clear[i]) continue;
      const ir::ValueId next = loop.phis[ops[i].index].next;
      if (next == i || next >= n) continue;
      for (uint32_t m : accesses)
        addDep(p, next, m, lat(next) + 1, 0, Dependence::Kind::Control);
    }
  }
  addChainBreaks(p);
  return p;
}

} // namespace

Problem buildLoopProblem(const ir::Loop& loop, const OperatorLibrary& lib, bool exitBeforeMemory) {
  return buildLoop(loop, lib, nullptr, exitBeforeMemory);
}

Problem buildLoopProblem(const ir::Kernel& k, uint32_t loop, const OperatorLibrary& lib, bool exitBeforeMemory) {
  if (loop >= k.loops.size())
    throw internalIrError(k.loc, "kernel " + k.name, fmt::format("loop {} of {}", loop, k.loops.size()));
  std::vector<int> queueOwner;
  for (const ir::Memory& m : k.memories) {
    queueOwner.push_back(m.kind != ir::Memory::Kind::Queue ? -1
                         : m.queueOwn                      ? (m.queueResults ? -2 : -3)
                                                           : int(m.queueProcess));
  }
  return buildLoop(k.loops[loop], lib, &k.memories, exitBeforeMemory, queueOwner, &k.loops,
                   ir::loopCallers(k.loops)[loop] >= 0);
}

Problem buildBlockProblem(const ir::Kernel& k, uint32_t block, const OperatorLibrary& lib) {
  if (block >= k.blocks.size())
    throw internalIrError(k.loc, "kernel " + k.name, fmt::format("block {} of {}", block, k.blocks.size()));
  const ir::BasicBlock& bb = k.blocks[block];
  const std::string construct = "block " + bb.name;
  Problem p;
  for (uint32_t key = 0; key < ir::portCount(k.memories); ++key)
    p.resources.push_back(Resource{ir::portName(k.memories, key), lib.memoryPortLimit()});
  p.clockPeriodNs = cycleBudget(lib, bb.term.loc, construct);

  std::unordered_map<ir::ValueId, uint32_t> local; // Kernel value -> operation index in this block
  for (ir::ValueId v : bb.ops) {
    if (v >= k.ops.size())
      throw internalIrError(bb.term.loc, construct, fmt::format("block lists value {}, but the kernel has {} "
                                                                "operations", v, k.ops.size()));
    const ir::Op& op = k.ops[v];
    if (isMemoryAccess(op) && op.memory >= k.memories.size())
      throw internalIrError(op.loc, construct, fmt::format("{} uses memory {}, but there are {} memories",
                                                           opLabel(op, v), op.memory, k.memories.size()));
    local[v] = uint32_t(p.ops.size());
    p.ops.push_back(operationOf(op, v, lib, k.ops, p.clockPeriodNs));
    if (p.ops.back().resource >= 0) p.ops.back().resource = int(ir::portKey(k.memories, op));
  }
  auto lat = [&](uint32_t i) { return int(p.ops[i].latency); };

  // Data: operands defined in this block. Phis read values at block entry (from the predecessor's
  // execution, possibly an earlier execution of this very block), so they have no incoming edges.
  for (uint32_t i = 0; i < bb.ops.size(); ++i) {
    const ir::Op& op = k.ops[bb.ops[i]];
    if (op.kind == OpKind::Phi) continue;
    std::vector<uint32_t> seen;
    for (ir::ValueId v : op.operands) {
      auto it = local.find(v);
      if (it == local.end() || std::find(seen.begin(), seen.end(), it->second) != seen.end()) continue;
      seen.push_back(it->second);
      addDep(p, it->second, i, lat(it->second), 0, Dependence::Kind::Data);
    }
  }

  // Memory order: accesses to one memory (at least one a store) and calls (loops, shared functions: they
  // access any memory) keep program order.
  // Task operations order with every access too: an async releases, a get acquires (the task's
  // memory operations happen between them), a release waits for the task.
  auto isCall = [](const ir::Op& op) {
    return op.kind == OpKind::LoopCall || op.kind == OpKind::Call || op.kind == OpKind::TaskAsync ||
           op.kind == OpKind::TaskGet || op.kind == OpKind::TaskRelease;
  };
  std::vector<uint32_t> ordered;
  for (uint32_t i = 0; i < bb.ops.size(); ++i) {
    const ir::Op& op = k.ops[bb.ops[i]];
    if (isMemoryAccess(op) || isCall(op)) ordered.push_back(i);
  }
  for (size_t a = 0; a < ordered.size(); ++a) {
    for (size_t b = a + 1; b < ordered.size(); ++b) {
      const ir::Op &first = k.ops[bb.ops[ordered[a]]], &second = k.ops[bb.ops[ordered[b]]];
      bool call = isCall(first) || isCall(second);
      bool conflict = first.memory == second.memory && (first.kind == OpKind::Store || second.kind == OpKind::Store);
      if (call || conflict) addDep(p, ordered[a], ordered[b], 1, 0, Dependence::Kind::Memory);
    }
  }

  // The terminator: after its condition, the values successors' phis take from here, and side effects.
  const uint32_t term = uint32_t(p.ops.size());
  static const char* const kTermNames[] = {"Branch", "CondBranch", "Switch", "Return", "Unreachable"};
  // Its delay: the FSM's next-state multiplexer, which a chained branch condition feeds.
  p.ops.push_back(Operation{fmt::format("terminator {}", kTermNames[int(bb.term.kind)]), 1, -1, 1, 0,
                            lib.target().delays.delay("select", 8).value_or(0.3)});
  std::vector<uint32_t> termPreds;
  auto dependOn = [&](ir::ValueId v, Dependence::Kind kind) {
    auto it = local.find(v);
    if (it == local.end() || std::find(termPreds.begin(), termPreds.end(), it->second) != termPreds.end()) return;
    termPreds.push_back(it->second);
    addDep(p, it->second, term, kind == Dependence::Kind::Control ? 1 : lat(it->second), 0, kind);
  };
  if (bb.term.cond != ir::kNone) dependOn(bb.term.cond, Dependence::Kind::Data);
  for (uint32_t succ : bb.term.targets) {
    if (succ >= k.blocks.size())
      throw internalIrError(bb.term.loc, construct, fmt::format("branch to block {} of {}", succ, k.blocks.size()));
    for (ir::ValueId v : k.blocks[succ].ops) {
      if (v >= k.ops.size() || k.ops[v].kind != OpKind::Phi) continue;
      const ir::Op& phi = k.ops[v];
      for (size_t e = 0; e < phi.operands.size() && e < phi.phiBlocks.size(); ++e)
        if (phi.phiBlocks[e] == block) dependOn(phi.operands[e], Dependence::Kind::Data);
    }
  }
  for (uint32_t i = 0; i < bb.ops.size(); ++i) {
    OpKind kind = k.ops[bb.ops[i]].kind;
    if (kind == OpKind::Store || kind == OpKind::LoopCall || kind == OpKind::TaskAsync || kind == OpKind::TaskGet ||
        kind == OpKind::TaskRelease)
      dependOn(bb.ops[i], Dependence::Kind::Control);
    // A shared function's call: the FSM jumps in the terminator's cycle, reading the arguments then.
    if (kind == OpKind::Call) dependOn(bb.ops[i], Dependence::Kind::Data);
  }
  addChainBreaks(p);
  return p;
}

} // namespace spvhls::sched
