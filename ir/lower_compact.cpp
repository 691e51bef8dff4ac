// Final clean-up of a lowered kernel: constant branches, unreachable blocks, dead values, unused loop
// parts and local memories; then renumbering so that blocks are in reverse post-order, values follow
// their blocks, and every block has its own copies of the constants it uses (a constant is a wire in
// hardware; a value crossing blocks would need a register).
#include <algorithm>
#include <functional>
#include <map>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {
// Removes the phi entries of block `to` that come from block `from` (the edge was removed).
void dropPhiEntries(Kernel& k, uint32_t to, uint32_t from) {
  for (ValueId v : k.blocks[to].ops) {
    Op& phi = k.ops[v];
    if (phi.kind != OpKind::Phi) continue;
    for (size_t i = phi.phiBlocks.size(); i-- > 0;)
      if (phi.phiBlocks[i] == from) {
        phi.phiBlocks.erase(phi.phiBlocks.begin() + static_cast<std::ptrdiff_t>(i));
        phi.operands.erase(phi.operands.begin() + static_cast<std::ptrdiff_t>(i));
      }
  }
}

void renamePhiEntries(Kernel& k, uint32_t block, uint32_t from, uint32_t to) {
  for (ValueId v : k.blocks[block].ops)
    if (k.ops[v].kind == OpKind::Phi)
      for (uint32_t& pb : k.ops[v].phiBlocks)
        if (pb == from) pb = to;
}

// CondBranch/Switch on a constant -> Branch.
uint32_t branchTarget(const Terminator& t, uint64_t cond) {
  if (t.kind == Terminator::Kind::CondBranch) return cond & 1 ? t.targets[0] : t.targets[1];
  for (size_t i = 0; i < t.caseValues.size(); ++i)
    if (t.caseValues[i] == cond) return t.targets[i + 1];
  return t.targets[0];
}

bool foldConstantBranches(Kernel& k) {
  bool folded = false;
  for (auto& b : k.blocks) {
    Terminator& t = b.term;
    if ((t.kind != Terminator::Kind::CondBranch && t.kind != Terminator::Kind::Switch) || t.cond == kNone)
      continue;
    const Op& c = k.ops[t.cond];
    if (c.kind != OpKind::Const) continue;
    const uint32_t target = branchTarget(t, c.imm);
    // The edges to the other targets are gone: so are the phi entries they fed. Left in place, a
    // later merge of `b` into its predecessor would turn them into a second, wrong entry.
    const uint32_t self = static_cast<uint32_t>(&b - k.blocks.data());
    for (uint32_t other : t.targets)
      if (other != target) dropPhiEntries(k, other, self);
    t.kind = Terminator::Kind::Branch;
    folded = true;
    t.cond = kNone;
    t.targets = {target};
    t.caseValues.clear();
  }
  return folded;
}

namespace {

// The block ends in a shared function's Call: the FSM leaves it for the function, and comes back to
// its successor.
bool endsInCall(const Kernel& k, const BasicBlock& b) {
  return !b.ops.empty() && k.ops[b.ops.back()].kind == OpKind::Call;
}

// A block whose only predecessor branches to it unconditionally joins that predecessor: every block
// costs the FSM at least a cycle. Blocks running a loop stay on their own.
void mergeStraightLines(Kernel& k) {
  const Succs succ = kernelSuccessors(k);
  std::vector<uint32_t> predCount(k.blocks.size(), 0);
  for (const auto& s : succ)
    for (uint32_t t : s) ++predCount[t];
  const std::vector<uint32_t> roots = cfgRoots(k);
  for (uint32_t a : reversePostOrder(succ, roots)) {
    BasicBlock& A = k.blocks[a];
    if (A.loopCall) continue;
    while (A.term.kind == Terminator::Kind::Branch && !endsInCall(k, A)) {
      const uint32_t b = A.term.targets[0];
      BasicBlock& B = k.blocks[b];
      if (std::count(roots.begin(), roots.end(), b) || b == a || predCount[b] != 1 || B.loopCall ||
          B.loopControls || !B.notPipelinedReason.empty())
        break;
      if (std::any_of(B.ops.begin(), B.ops.end(), [&](ValueId v) { return k.ops[v].kind == OpKind::Phi; }))
        break;
      for (ValueId v : B.ops) {
        k.ops[v].block = a;
        A.ops.push_back(v);
      }
      B.ops.clear();
      A.term = B.term;
      B.term = Terminator{}; // B is now unreachable (Return, no targets)
      for (uint32_t t : A.term.targets)
        renamePhiEntries(k, t, b, a);
      predCount[b] = 0;
    }
  }
}

} // namespace

// An empty block that only branches on (clang's `if.then: br for.end` for a `break`) is bypassed:
// its predecessors branch to its target directly, whose phis take the value once per predecessor.
// Skipped when a predecessor already branches to the target (its phi entry would be ambiguous).
void threadForwardingBlocks(Kernel& k, const std::vector<uint8_t>& keep) {
  std::vector<uint8_t> reach(k.blocks.size(), 0);
  const std::vector<uint32_t> roots = cfgRoots(k);
  for (uint32_t v : reversePostOrder(kernelSuccessors(k), roots))
    reach[v] = 1;
  for (uint32_t b = 1; b < k.blocks.size(); ++b) {
    BasicBlock& B = k.blocks[b];
    if (!reach[b] || (b < keep.size() && keep[b]) || std::count(roots.begin(), roots.end(), b) ||
        !B.ops.empty() || B.term.kind != Terminator::Kind::Branch || B.loopCall || B.loopControls ||
        !B.notPipelinedReason.empty())
      continue;
    const uint32_t t = B.term.targets[0];
    if (t == b) continue;
    const Succs succ = kernelSuccessors(k);
    std::vector<uint32_t> preds;
    for (uint32_t p = 0; p < succ.size(); ++p)
      if (reach[p] && std::find(succ[p].begin(), succ[p].end(), b) != succ[p].end()) preds.push_back(p);
    if (preds.empty()) continue; // unreachable already
    bool ambiguous = false;
    for (uint32_t p : preds)
      if (p == b || std::find(succ[p].begin(), succ[p].end(), t) != succ[p].end()) ambiguous = true;
    if (ambiguous) continue;
    for (ValueId v : k.blocks[t].ops) {
      Op& phi = k.ops[v];
      if (phi.kind != OpKind::Phi) break;
      for (size_t i = 0; i < phi.phiBlocks.size(); ++i)
        if (phi.phiBlocks[i] == b) {
          const ValueId value = phi.operands[i];
          phi.phiBlocks[i] = preds[0];
          for (size_t j = 1; j < preds.size(); ++j) {
            phi.operands.push_back(value);
            phi.phiBlocks.push_back(preds[j]);
          }
          break;
        }
    }
    // The target continues the bypassed block when nothing else led to it: it takes over the name.
    bool onlyPred = true;
    for (uint32_t p = 0; p < succ.size(); ++p)
      if (p != b && reach[p] && std::find(succ[p].begin(), succ[p].end(), t) != succ[p].end()) onlyPred = false;
    if (onlyPred) k.blocks[t].name = B.name;
    reach[b] = 0;
    for (uint32_t p : preds) {
      Terminator& pt = k.blocks[p].term;
      for (uint32_t& x : pt.targets)
        if (x == b) x = t;
      if (pt.kind == Terminator::Kind::CondBranch && pt.targets[0] == pt.targets[1]) {
        pt.kind = Terminator::Kind::Branch;
        pt.cond = kNone;
        pt.targets.pop_back();
      }
    }
  }
}

namespace {

// Live values of the CFG. A shared function's parameter is live when its function reads it, and only
// then are the calls' arguments for it; its Return values are live when some live value reads a call
// of it. So a function's unused parameters and unused result keep nothing alive.
struct Liveness {
  std::vector<uint8_t> live;                  // per op
  std::vector<std::vector<uint8_t>> params;   // per function, per parameter: read
  std::vector<uint8_t> result;                // per function: some call's result read
  std::vector<std::vector<uint32_t>> returns; // per function: its blocks ending in a Return
};

Liveness kernelLiveness(const Kernel& k, const std::vector<uint8_t>& reach) {
  Liveness L;
  L.live.assign(k.ops.size(), 0);
  L.result.assign(k.functions.size(), 0);
  for (const Function& f : k.functions)
    L.params.push_back(std::vector<uint8_t>(f.params.size(), 0));
  std::vector<std::vector<ValueId>> calls(k.functions.size()); // live calls, per function
  std::vector<std::vector<uint32_t>>& returns = L.returns;
  returns.assign(k.functions.size(), {});
  std::vector<ValueId> work;
  auto mark = [&](ValueId v) {
    if (v != kNone && !L.live[v]) {
      L.live[v] = 1;
      work.push_back(v);
    }
  };
  std::function<void(ValueId)> readResult = [&](ValueId v) { // v is read: a call's result is then live
    if (v == kNone || k.ops[v].kind != OpKind::Call || L.result[k.ops[v].index]) return;
    L.result[k.ops[v].index] = 1;
    for (uint32_t b : returns[k.ops[v].index]) {
      mark(k.blocks[b].term.cond);
      readResult(k.blocks[b].term.cond); // `return g(x);`
    }
  };
  const std::vector<int> functionOf = functionOfBlocks(k);
  for (uint32_t b = 0; b < k.blocks.size(); ++b)
    if (functionOf[b] >= 0 && k.blocks[b].term.kind == Terminator::Kind::Return)
      returns[functionOf[b]].push_back(b);
  for (uint32_t b = 0; b < k.blocks.size(); ++b) {
    if (!reach[b]) continue;
    for (ValueId v : k.blocks[b].ops)
      if (hasSideEffect(k.ops[v].kind)) mark(v);
    // A branch's condition is live; a Return's value is when it is a task body's result.
    if (k.blocks[b].term.kind != Terminator::Kind::Return || functionOf[b] < 0) {
      mark(k.blocks[b].term.cond);
      readResult(k.blocks[b].term.cond);
    }
  }
  while (!work.empty()) {
    const ValueId v = work.back();
    work.pop_back();
    const Op& op = k.ops[v];
    if (op.kind == OpKind::Call) {
      calls[op.index].push_back(v);
      for (size_t i = 0; i < op.operands.size(); ++i)
        if (L.params[op.index][i]) {
          mark(op.operands[i]);
          readResult(op.operands[i]);
        }
      continue;
    }
    if (op.kind == OpKind::Param) {
      const auto f = static_cast<size_t>(functionOf[op.block]);
      L.params[f][op.index] = 1;
      for (ValueId c : calls[f]) {
        mark(k.ops[c].operands[op.index]);
        readResult(k.ops[c].operands[op.index]);
      }
      continue;
    }
    for (ValueId o : op.operands) {
      mark(o);
      readResult(o);
    }
  }
  return L;
}

// Applies what liveness found about shared functions: a result nobody reads is not returned, an
// argument for a parameter nobody reads is an undefined value (live, so the call stays well formed).
void trimSharedInterfaces(Kernel& k, Liveness& L) {
  for (size_t f = 0; f < k.functions.size(); ++f)
    if (!L.result[f]) k.functions[f].result = Type::none();
  const size_t n = k.ops.size();
  for (ValueId v = 0; v < n; ++v) {
    if (k.ops[v].kind != OpKind::Call || !L.live[v]) continue;
    k.ops[v].type = k.functions[k.ops[v].index].result;
    for (size_t i = 0; i < k.ops[v].operands.size(); ++i) {
      const ValueId o = k.ops[v].operands[i];
      if (L.params[k.ops[v].index][i] || k.ops[o].kind == OpKind::Undef) continue;
      Op u;
      u.kind = OpKind::Undef;
      u.type = k.functions[k.ops[v].index].params[i];
      u.block = k.ops[v].block;
      const auto uv = static_cast<ValueId>(k.ops.size());
      k.ops.push_back(u);
      L.live.push_back(1);
      auto& ops = k.blocks[u.block].ops;
      ops.insert(std::find(ops.begin(), ops.end(), v), uv);
      k.ops[v].operands[i] = uv;
    }
  }
  for (size_t f = 0; f < k.functions.size(); ++f)
    if (!L.result[f])
      for (uint32_t b : L.returns[f])
        k.blocks[b].term.cond = kNone;
}

// Drops unused live-outs, dead ops, dead LoopPhis and unused live-ins of one loop; updates the
// kernel's LoopOut indices and LoopCall operands. Returns whether anything was removed.
// `caller`: the ops holding `call` and the LoopOuts (the kernel's, or an outer pipeline's body, whose
// LoopCall has the call's predicate after the live-ins).
bool shrinkLoop(Kernel& k, Loop& lp, std::vector<Op>& caller, ValueId call,
                const std::vector<ValueId>& liveLoopOuts) {
  bool changed = false;
  // Live-outs still read after the loop.
  std::map<uint32_t, uint32_t> outMap;
  for (ValueId o : liveLoopOuts)
    outMap[caller[o].index] = 0;
  if (outMap.size() != lp.liveOuts.size()) changed = true;
  std::vector<ValueId> outs;
  for (auto& [old, nu] : outMap) {
    nu = static_cast<uint32_t>(outs.size());
    outs.push_back(lp.liveOuts[old]);
  }
  for (ValueId o : liveLoopOuts)
    caller[o].index = outMap[caller[o].index];
  lp.liveOuts = std::move(outs);

  // Live body ops: side effects, the continue condition, live-outs, and the next values of live phis.
  std::vector<uint8_t> live(lp.ops.size(), 0);
  std::vector<ValueId> work;
  auto mark = [&](ValueId v) {
    if (v != kNone && !live[v]) {
      live[v] = 1;
      work.push_back(v);
    }
  };
  // A store or load whose predicate is the constant false never happens (e.g. the latch of a loop
  // whose condition is constant): dropping the store, and making the load's value undefined (it is
  // never used where it matters), keeps its memory port off the loop module.
  auto neverRuns = [&](const Op& op) {
    const size_t at = op.kind == OpKind::Store ? 2 : op.kind == OpKind::Load ? 1 : 0;
    const ValueId pred = at && op.operands.size() > at ? op.operands[at] : kNone;
    return pred != kNone && lp.ops[pred].kind == OpKind::Const && lp.ops[pred].imm == 0;
  };
  for (Op& op : lp.ops)
    if (op.kind == OpKind::Load && neverRuns(op)) {
      op.kind = OpKind::Undef;
      op.operands.clear();
      op.memory = 0;
      op.size = 0;
      changed = true;
    }
  // A load from a task's result queue pops it: a side effect, kept even when its value is unused.
  auto pops = [&](const Op& op) {
    return op.kind == OpKind::Load && op.memory < k.memories.size() && k.memories[op.memory].kind == Memory::Kind::Queue;
  };
  for (ValueId v = 0; v < lp.ops.size(); ++v)
    if ((hasSideEffect(lp.ops[v].kind) || pops(lp.ops[v])) && !neverRuns(lp.ops[v])) mark(v);
  mark(lp.continueCond);
  for (ValueId v : lp.liveOuts) mark(v);
  while (!work.empty()) {
    ValueId v = work.back();
    work.pop_back();
    for (ValueId o : lp.ops[v].operands) mark(o);
    if (lp.ops[v].kind == OpKind::LoopPhi) mark(lp.phis[lp.ops[v].index].next);
  }
  std::vector<uint8_t> phiLive(lp.phis.size(), 0), inLive(lp.liveIns.size(), 0);
  for (ValueId v = 0; v < lp.ops.size(); ++v) {
    if (!live[v]) continue;
    if (lp.ops[v].kind == OpKind::LoopPhi) phiLive[lp.ops[v].index] = 1;
    if (lp.ops[v].kind == OpKind::LiveIn) inLive[lp.ops[v].index] = 1;
  }
  for (size_t i = 0; i < lp.phis.size(); ++i)
    if (phiLive[i]) inLive[lp.phis[i].initLiveIn] = 1;

  std::vector<uint32_t> phiMap(lp.phis.size(), 0), inMap(lp.liveIns.size(), 0);
  std::vector<LoopPhi> phis;
  std::vector<ValueId> ins;
  for (size_t i = 0; i < lp.liveIns.size(); ++i)
    if (inLive[i]) {
      inMap[i] = static_cast<uint32_t>(ins.size());
      ins.push_back(lp.liveIns[i]);
    }
  for (size_t i = 0; i < lp.phis.size(); ++i)
    if (phiLive[i]) {
      phiMap[i] = static_cast<uint32_t>(phis.size());
      phis.push_back(lp.phis[i]);
      phis.back().initLiveIn = inMap[lp.phis[i].initLiveIn];
    }
  std::vector<ValueId> vmap(lp.ops.size(), kNone);
  std::vector<Op> ops;
  for (ValueId v = 0; v < lp.ops.size(); ++v) {
    if (!live[v]) continue;
    vmap[v] = static_cast<ValueId>(ops.size());
    ops.push_back(std::move(lp.ops[v]));
  }
  for (Op& op : ops) {
    for (ValueId& o : op.operands)
      if (o != kNone) o = vmap[o];
    if (op.kind == OpKind::LoopPhi) op.index = phiMap[op.index];
    if (op.kind == OpKind::LiveIn) op.index = inMap[op.index];
  }
  for (LoopPhi& p : phis) p.next = vmap[p.next];
  for (ValueId& o : lp.liveOuts) o = vmap[o];
  lp.continueCond = vmap[lp.continueCond];
  if (ops.size() != lp.ops.size() || ins.size() != lp.liveIns.size() || phis.size() != lp.phis.size())
    changed = true;
  lp.ops = std::move(ops);
  lp.phis = std::move(phis);
  lp.liveIns = std::move(ins);
  std::vector<ValueId> operands = lp.liveIns;
  if (&caller != &k.ops) operands.push_back(caller[call].operands.back());
  caller[call].operands = std::move(operands);
  takeLiveInsFromCalls(k, lp); // inner loops (sub-pipelines): from the renumbered body
  return changed;
}

} // namespace

void compactKernel(Kernel& k) {
  foldConstantBranches(k);
  checkAfter(k, "constant-branch folding");
  mergeStraightLines(k);
  checkAfter(k, "straight-line merging");
  std::vector<uint8_t> keep(k.blocks.size(), 0); // blocks entering loops (see mergeStraightLines)
  for (uint32_t b = 0; b < k.blocks.size(); ++b)
    for (uint32_t t : k.blocks[b].term.targets)
      if (k.blocks[t].loopCall) keep[b] = 1;
  threadForwardingBlocks(k, keep);
  checkAfter(k, "forwarding-block threading");
  const Succs succ = kernelSuccessors(k);
  // Shared functions no reachable block calls any more are dropped with their blocks.
  std::vector<uint32_t> order;
  std::vector<uint8_t> reach(k.blocks.size(), 0);
  std::vector<uint32_t> fnMap(k.functions.size(), UINT32_MAX);
  std::vector<uint32_t> fnOrder; // old indices of the functions kept
  for (std::vector<uint32_t> roots{0}; !roots.empty();) {
    std::vector<uint32_t> more;
    for (uint32_t b : reversePostOrder(succ, roots)) {
      if (reach[b]) continue;
      reach[b] = 1;
      order.push_back(b);
      for (ValueId v : k.blocks[b].ops)
        if (const Op& op = k.ops[v]; op.kind == OpKind::Call && fnMap[op.index] == UINT32_MAX) {
          fnMap[op.index] = static_cast<uint32_t>(fnOrder.size());
          fnOrder.push_back(op.index);
          more.push_back(k.functions[op.index].entry);
        }
    }
    roots = std::move(more);
  }

  // Phi entries must match the remaining predecessors.
  for (uint32_t b : order)
    for (ValueId v : k.blocks[b].ops) {
      Op& op = k.ops[v];
      if (op.kind != OpKind::Phi) continue;
      std::vector<ValueId> ops;
      std::vector<uint32_t> blocks;
      for (size_t i = 0; i < op.operands.size(); ++i) {
        uint32_t p = op.phiBlocks[i];
        if (reach[p] && std::find(succ[p].begin(), succ[p].end(), b) != succ[p].end() &&
            std::find(blocks.begin(), blocks.end(), p) == blocks.end()) {
          ops.push_back(op.operands[i]);
          blocks.push_back(p);
        }
      }
      op.operands = std::move(ops);
      op.phiBlocks = std::move(blocks);
    }

  // Dead values, iterated with the loops' live-outs and live-ins.
  std::vector<uint8_t> live;
  Liveness liveness;
  std::vector<ValueId> callOf(k.loops.size(), kNone);
  for (bool changed = true; changed;) {
    changed = false;
    liveness = kernelLiveness(k, reach);
    live = liveness.live;
    std::vector<std::vector<ValueId>> outs(k.loops.size());
    for (ValueId v = 0; v < k.ops.size(); ++v) {
      if (!live[v]) continue;
      if (k.ops[v].kind == OpKind::LoopCall) callOf[k.ops[v].index] = v;
      if (k.ops[v].kind == OpKind::LoopOut) outs[k.ops[k.ops[v].operands[0]].index].push_back(v);
    }
    for (size_t i = 0; i < k.loops.size(); ++i)
      if (callOf[i] != kNone && shrinkLoop(k, k.loops[i], k.ops, callOf[i], outs[i])) changed = true;
    // An outer pipeline's inner loops, from what its (shrunk) body still calls and reads.
    for (Loop& body : k.loops)
      for (ValueId c = 0; c < body.ops.size(); ++c) {
        if (body.ops[c].kind != OpKind::LoopCall) continue;
        std::vector<ValueId> reads;
        for (ValueId o = 0; o < body.ops.size(); ++o)
          if (body.ops[o].kind == OpKind::LoopOut && body.ops[o].operands[0] == c) reads.push_back(o);
        if (shrinkLoop(k, k.loops[body.ops[c].index], body.ops, c, reads)) changed = true;
      }
  }

  trimSharedInterfaces(k, liveness);
  live = liveness.live;

  // Loops still called (by the CFG, or by the body of a loop still called), and memories still
  // accessed.
  std::vector<uint8_t> called(k.loops.size(), 0), fromCfg(k.loops.size(), 0);
  std::vector<uint32_t> work;
  for (uint32_t i = 0; i < k.loops.size(); ++i)
    if (callOf[i] != kNone) called[i] = fromCfg[i] = 1, work.push_back(i);
  while (!work.empty()) {
    const uint32_t l = work.back();
    work.pop_back();
    for (const Op& op : k.loops[l].ops)
      if (op.kind == OpKind::LoopCall && !called[op.index]) called[op.index] = 1, work.push_back(op.index);
  }
  std::vector<uint32_t> loopMap(k.loops.size(), UINT32_MAX);
  std::vector<Loop> loops;
  std::vector<uint8_t> loopFromCfg;
  for (size_t i = 0; i < k.loops.size(); ++i)
    if (called[i]) {
      loopMap[i] = static_cast<uint32_t>(loops.size());
      loops.push_back(std::move(k.loops[i]));
      loopFromCfg.push_back(fromCfg[i]);
    }
  for (Loop& lp : loops)
    for (Op& op : lp.ops)
      if (op.kind == OpKind::LoopCall) op.index = loopMap[op.index];
  std::vector<uint8_t> memUsed(k.memories.size(), 0);
  for (ValueId v = 0; v < k.ops.size(); ++v)
    if (live[v] && (k.ops[v].kind == OpKind::Load || k.ops[v].kind == OpKind::Store)) memUsed[k.ops[v].memory] = 1;
  for (const Loop& lp : loops)
    for (const Op& op : lp.ops)
      if (op.kind == OpKind::Load || op.kind == OpKind::Store) memUsed[op.memory] = 1;
  for (const Process& p : k.processes) // a pointer passed to a task: its memory is the task's port
    for (uint32_t m : p.argMemory)
      if (m != kNoMemory) memUsed[m] = 1;
  std::vector<uint32_t> memMap(k.memories.size(), UINT32_MAX);
  std::vector<Memory> memories;
  for (size_t m = 0; m < k.memories.size(); ++m)
    if (memUsed[m] || k.memories[m].kind == Memory::Kind::Argument) {
      memMap[m] = static_cast<uint32_t>(memories.size());
      memories.push_back(std::move(k.memories[m]));
    }
  auto remapControls = [&](LoopControls& lc) {
    std::vector<std::pair<uint32_t, uint32_t>> kept;
    for (auto [m, d] : lc.memoryDependenceDistance)
      if (memMap[m] != UINT32_MAX) kept.push_back({memMap[m], d});
    lc.memoryDependenceDistance = std::move(kept);
  };
  // Every access is renumbered, in the CFG as in loop bodies: a stale index names another memory.
  auto remapAccesses = [&](std::vector<Op>& list) {
    for (Op& op : list)
      if (op.kind == OpKind::Load || op.kind == OpKind::Store) op.memory = memMap[op.memory];
  };
  remapAccesses(k.ops);
  for (Loop& lp : loops) {
    remapAccesses(lp.ops);
    remapControls(lp.controls);
  }
  for (KernelArg& a : k.args)
    if (a.isPointer) a.memory = memMap[a.memory];
  for (Process& p : k.processes)
    for (uint32_t& m : p.argMemory)
      if (m != kNoMemory) m = memMap[m];

  // Renumber blocks (reverse post-order) and values (block by block: phis, leaves, the rest), giving
  // each block its own constants.
  std::vector<uint32_t> blockMap(k.blocks.size(), UINT32_MAX);
  for (uint32_t i = 0; i < order.size(); ++i) blockMap[order[i]] = i;
  std::vector<Op> ops;
  std::vector<BasicBlock> blocks(order.size());
  std::vector<ValueId> vmap(k.ops.size(), kNone);
  std::map<std::tuple<uint32_t, OpKind, Type, uint64_t, std::vector<uint64_t>>, ValueId> localLeaf;
  std::vector<std::vector<ValueId>> leaves(order.size()), phis(order.size()), rest(order.size());
  auto add = [&](Op op, uint32_t nb, std::vector<std::vector<ValueId>>& list) {
    op.block = nb;
    ValueId v = static_cast<ValueId>(ops.size());
    ops.push_back(std::move(op));
    list[nb].push_back(v);
    return v;
  };
  // A constant or undef used in block nb: that block's own copy.
  auto leafIn = [&](ValueId old, uint32_t nb) {
    const Op& o = k.ops[old];
    auto key = std::make_tuple(nb, o.kind, o.type, o.imm, o.immHigh);
    if (auto it = localLeaf.find(key); it != localLeaf.end()) return it->second;
    Op c = o;
    c.name.clear();
    return localLeaf[key] = add(std::move(c), nb, leaves);
  };
  auto isLocalLeaf = [&](ValueId v) { return k.ops[v].kind == OpKind::Const || k.ops[v].kind == OpKind::Undef; };
  for (uint32_t ob : order) {
    const uint32_t nb = blockMap[ob];
    for (ValueId v : k.blocks[ob].ops) {
      if (!live[v] || isLocalLeaf(v)) continue; // constants are copied into the blocks using them
      Op op = k.ops[v];
      auto& list = op.kind == OpKind::Phi                               ? phis
                   : op.kind == OpKind::Arg || op.kind == OpKind::Param ? leaves
                                                                        : rest;
      vmap[v] = add(std::move(op), nb, list);
    }
  }
  const size_t copied = ops.size();
  for (ValueId nv = 0; nv < copied; ++nv) {
    const uint32_t nb = ops[nv].block;
    const bool isPhi = ops[nv].kind == OpKind::Phi;
    for (size_t i = 0; i < ops[nv].operands.size(); ++i) {
      ValueId o = ops[nv].operands[i];
      if (o == kNone) continue;
      // A phi reads its operand at the end of the predecessor: the constant goes there.
      ValueId r = isLocalLeaf(o) ? leafIn(o, isPhi ? blockMap[ops[nv].phiBlocks[i]] : nb) : vmap[o];
      ops[nv].operands[i] = r;
    }
    for (uint32_t& pb : ops[nv].phiBlocks) pb = blockMap[pb];
    if (ops[nv].kind == OpKind::LoopCall) {
      ops[nv].index = loopMap[ops[nv].index];
      loops[ops[nv].index].liveIns = ops[nv].operands;
    }
    if (ops[nv].kind == OpKind::Call) ops[nv].index = fnMap[ops[nv].index];
  }
  std::vector<Function> functions; // taken now: trimSharedInterfaces may have changed them
  for (uint32_t f : fnOrder) {
    functions.push_back(std::move(k.functions[f]));
    functions.back().entry = blockMap[functions.back().entry];
  }
  for (uint32_t ob : order) {
    const uint32_t nb = blockMap[ob];
    BasicBlock& b = blocks[nb];
    BasicBlock& old = k.blocks[ob];
    b.name = std::move(old.name);
    if (old.loopCall) b.loopCall = loopMap[*old.loopCall];
    b.term = std::move(old.term);
    if (b.term.cond != kNone) b.term.cond = isLocalLeaf(b.term.cond) ? leafIn(b.term.cond, nb) : vmap[b.term.cond];
    for (uint32_t& t : b.term.targets) t = blockMap[t];
    b.loopControls = std::move(old.loopControls);
    if (b.loopControls) remapControls(*b.loopControls);
    b.notPipelinedReason = std::move(old.notPipelinedReason);
  }

  // Final numbering: values in block order (phis, leaves, the rest), so that ids read top to bottom.
  std::vector<ValueId> perm(ops.size(), kNone);
  std::vector<Op> sorted;
  sorted.reserve(ops.size());
  for (uint32_t nb = 0; nb < blocks.size(); ++nb) {
    for (auto* list : {&phis[nb], &leaves[nb], &rest[nb]})
      for (ValueId v : *list) {
        perm[v] = static_cast<ValueId>(sorted.size());
        blocks[nb].ops.push_back(perm[v]);
        sorted.push_back(std::move(ops[v]));
      }
  }
  for (Op& op : sorted)
    for (ValueId& o : op.operands)
      if (o != kNone) o = perm[o];
  for (BasicBlock& b : blocks)
    if (b.term.cond != kNone) b.term.cond = perm[b.term.cond];
  for (size_t l = 0; l < loops.size(); ++l)
    if (loopFromCfg[l]) // an inner loop's live-ins are values of its caller's body
      for (ValueId& v : loops[l].liveIns)
        v = perm[v];

  k.ops = std::move(sorted);
  k.blocks = std::move(blocks);
  k.loops = std::move(loops);
  k.memories = std::move(memories);
  k.functions = std::move(functions);
}

} // namespace spvhls::ir::lower
