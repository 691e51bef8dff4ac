// CFG surgery on the HLS IR for the loop transformations (lower_loop_transform.cpp): copying a set of
// blocks, restoring SSA form after a value got several definitions, and folding what became constant.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

std::vector<std::vector<uint32_t>> kernelPredecessors(const Kernel& k) {
  const Succs succ = kernelSuccessors(k);
  std::vector<std::vector<uint32_t>> preds(k.blocks.size());
  for (uint32_t a = 0; a < succ.size(); ++a)
    for (uint32_t b : succ[a])
      preds[b].push_back(a);
  return preds;
}

BlockCopy cloneBlocks(Kernel& k, const std::vector<uint32_t>& blocks, const std::string& suffix) {
  BlockCopy c;
  const uint32_t firstCopy = static_cast<uint32_t>(k.blocks.size());
  for (uint32_t b : blocks) {
    const uint32_t nb = static_cast<uint32_t>(k.blocks.size());
    c.block[b] = nb;
    BasicBlock copy;
    copy.name = k.blocks[b].name + suffix;
    copy.term = k.blocks[b].term;
    copy.loopControls = k.blocks[b].loopControls;
    k.blocks.push_back(std::move(copy));
  }
  // New ids first: a phi may use a value defined later in the set (around a back edge).
  for (uint32_t b : blocks)
    for (ValueId v : k.blocks[b].ops)
      c.value[v] = static_cast<ValueId>(k.ops.size() + c.value.size());
  auto mapV = [&](ValueId v) {
    auto it = c.value.find(v);
    return it == c.value.end() ? v : it->second;
  };
  auto mapB = [&](uint32_t b) {
    auto it = c.block.find(b);
    return it == c.block.end() ? b : it->second;
  };
  std::vector<Op> fresh(c.value.size());
  for (uint32_t b : blocks)
    for (ValueId v : k.blocks[b].ops) {
      Op op = k.ops[v];
      for (ValueId& o : op.operands)
        o = mapV(o);
      for (uint32_t& pb : op.phiBlocks)
        pb = mapB(pb);
      op.block = c.block[b];
      const ValueId nv = c.value[v];
      k.blocks[op.block].ops.push_back(nv);
      fresh[nv - k.ops.size()] = std::move(op);
    }
  for (Op& op : fresh)
    k.ops.push_back(std::move(op));
  for (uint32_t b : blocks) {
    Terminator& t = k.blocks[c.block[b]].term;
    if (t.cond != kNone) t.cond = mapV(t.cond);
    for (uint32_t& target : t.targets)
      target = mapB(target);
  }
  // Edges from a copy to a block outside the set: that block's phis take from the copy what they take
  // from the original.
  const Succs succ = kernelSuccessors(k);
  for (uint32_t b : blocks)
    for (uint32_t s : succ[c.block[b]]) {
      if (s >= firstCopy) continue; // inside the copy
      for (ValueId pv : k.blocks[s].ops) {
        Op& phi = k.ops[pv];
        if (phi.kind != OpKind::Phi) continue;
        for (size_t i = 0, n = phi.phiBlocks.size(); i < n; ++i)
          if (phi.phiBlocks[i] == b) {
            phi.operands.push_back(mapV(phi.operands[i]));
            phi.phiBlocks.push_back(c.block[b]);
          }
      }
    }
  return c;
}

void keepPhiEntriesFrom(Kernel& k, uint32_t block, const std::vector<uint32_t>& preds) {
  for (ValueId v : k.blocks[block].ops) {
    Op& phi = k.ops[v];
    if (phi.kind != OpKind::Phi) continue;
    for (size_t i = phi.phiBlocks.size(); i-- > 0;)
      if (std::find(preds.begin(), preds.end(), phi.phiBlocks[i]) == preds.end()) {
        phi.phiBlocks.erase(phi.phiBlocks.begin() + static_cast<std::ptrdiff_t>(i));
        phi.operands.erase(phi.operands.begin() + static_cast<std::ptrdiff_t>(i));
      }
  }
}

// An op nobody uses any more becomes a dead Undef at the end of its block (every op stays in a block;
// compaction removes it).
namespace {
ValueId replacementOf(const std::vector<ValueId>& repl, ValueId v) {
  while (v != kNone && v < repl.size() && repl[v] != kNone)
    v = repl[v];
  return v;
}
} // namespace

void redirectUses(Kernel& k, const std::vector<ValueId>& repl) {
  for (Op& op : k.ops)
    for (ValueId& o : op.operands)
      o = replacementOf(repl, o);
  for (BasicBlock& b : k.blocks)
    b.term.cond = replacementOf(repl, b.term.cond);
  // The live-ins of loops the CFG calls (an outer pipeline's inner loop takes values of its body).
  const std::vector<int> callers = loopCallers(k.loops);
  for (size_t l = 0; l < k.loops.size(); ++l)
    if (callers[l] < 0)
      for (ValueId& in : k.loops[l].liveIns)
        in = replacementOf(repl, in);
}

void redirectUses(Loop& loop, const std::vector<ValueId>& repl) {
  for (Op& op : loop.ops)
    for (ValueId& o : op.operands)
      o = replacementOf(repl, o);
  for (LoopPhi& p : loop.phis)
    p.next = replacementOf(repl, p.next);
  loop.continueCond = replacementOf(repl, loop.continueCond);
  for (ValueId& o : loop.liveOuts)
    o = replacementOf(repl, o);
}

void neutralize(Kernel& k, ValueId v) {
  Op& op = k.ops[v];
  auto& ops = k.blocks[op.block].ops;
  ops.erase(std::find(ops.begin(), ops.end(), v));
  ops.push_back(v);
  op.kind = OpKind::Undef;
  op.operands.clear();
  op.phiBlocks.clear();
}

namespace {

void makeConst(Op& op, uint64_t imm) {
  op.kind = OpKind::Const;
  op.operands.clear();
  op.phiBlocks.clear();
  op.imm = imm & widthMask(op.width());
  op.memory = op.index = 0;
  op.size = op.rounding = 0;
  op.immHigh.clear();
}

// Reaching definitions of one variable with several definitions (Braun et al., "Simple and
// efficient construction of static single assignment form"): a block's value at entry is its single
// predecessor's at the end, or a phi over its predecessors', removed again when trivial.
class SsaRewriter {
public:
  SsaRewriter(Kernel& k, const std::vector<std::vector<uint32_t>>& preds, const Op& var,
              const std::unordered_map<uint32_t, ValueId>& defs)
      : k_(k), preds_(preds), var_(var), defs_(defs) {}

  ValueId atEnd(uint32_t b) {
    auto it = defs_.find(b);
    return it != defs_.end() ? it->second : atEntry(b);
  }

  ValueId atEntry(uint32_t b) {
    // Single-predecessor blocks up to one that defines the value, has its entry value already, or
    // has several predecessors (or none) all see the same value at entry.
    std::vector<uint32_t> chain;
    std::unordered_set<uint32_t> seen;
    ValueId r = kNone;
    for (uint32_t cur = b;;) {
      if (auto it = entry_.find(cur); it != entry_.end()) {
        r = it->second;
        break;
      }
      if (preds_[cur].size() != 1) {
        r = merged(cur);
        break;
      }
      chain.push_back(cur);
      seen.insert(cur);
      const uint32_t p = preds_[cur][0];
      if (auto d = defs_.find(p); d != defs_.end()) {
        r = d->second;
        break;
      }
      if (seen.count(p)) { // a cycle nothing enters: never runs
        r = undef(b);
        break;
      }
      cur = p;
    }
    for (uint32_t c : chain)
      entry_[c] = r;
    return r;
  }

  // The value at entry of a block with several predecessors (a phi over theirs) or none.
  ValueId merged(uint32_t b) {
    if (preds_[b].empty()) return entry_[b] = undef(b);
    Op phi;
    phi.kind = OpKind::Phi;
    phi.type = var_.type;
    phi.name = var_.name;
    phi.loc = var_.loc;
    phi.block = b;
    const ValueId v = static_cast<ValueId>(k_.ops.size());
    k_.ops.push_back(std::move(phi));
    auto& ops = k_.blocks[b].ops;
    ops.insert(ops.begin(), v);
    entry_[b] = v; // before the operands: a cycle back to b reads this phi
    phis_.push_back(v);
    std::vector<ValueId> vals;
    for (uint32_t p : preds_[b])
      vals.push_back(atEnd(p));
    k_.ops[v].operands = std::move(vals);
    k_.ops[v].phiBlocks = preds_[b];
    return v;
  }

  // What a value became once trivial phis were removed (the caller applies it to the uses it rewrote).
  ValueId resolve(ValueId v) const {
    while (true) {
      auto it = replaced_.find(v);
      if (it == replaced_.end()) return v;
      v = it->second;
    }
  }

  // Replaces the phis that turned out trivial (one value besides themselves) by that value.
  void removeTrivialPhis() {
    for (bool changed = true; changed;) {
      changed = false;
      for (ValueId p : phis_) {
        if (replaced_.count(p)) continue;
        ValueId same = kNone;
        bool trivial = true;
        for (ValueId o : k_.ops[p].operands) {
          o = resolve(o);
          if (o == p || o == same) continue;
          if (same != kNone) trivial = false;
          same = o;
        }
        if (!trivial || same == kNone) continue;
        replaced_[p] = same;
        changed = true;
      }
    }
    for (ValueId p : phis_) {
      if (replaced_.count(p)) {
        neutralize(k_, p);
        continue;
      }
      for (ValueId& o : k_.ops[p].operands)
        o = resolve(o);
    }
  }

private:
  Kernel& k_;
  const std::vector<std::vector<uint32_t>>& preds_;
  const Op& var_;
  const std::unordered_map<uint32_t, ValueId>& defs_;
  std::unordered_map<uint32_t, ValueId> entry_;
  std::vector<ValueId> phis_;
  std::unordered_map<ValueId, ValueId> replaced_;

  ValueId undef(uint32_t b) {
    Op u;
    u.kind = OpKind::Undef;
    u.type = var_.type;
    u.block = b;
    const ValueId v = static_cast<ValueId>(k_.ops.size());
    k_.ops.push_back(std::move(u));
    auto& ops = k_.blocks[b].ops;
    auto at = std::find_if(ops.begin(), ops.end(), [&](ValueId x) { return k_.ops[x].kind != OpKind::Phi; });
    ops.insert(at, v);
    return v;
  }
};

} // namespace

void repairSsa(Kernel& k, const std::vector<BlockCopy>& copies) {
  if (copies.empty()) return;
  const auto preds = kernelPredecessors(k);
  // Every copy is of the same blocks: their values are the originals; the region is those blocks and
  // all the copies.
  std::vector<uint32_t> blocks;
  for (const auto& [b, _] : copies.front().block)
    blocks.push_back(b);
  std::sort(blocks.begin(), blocks.end()); // a fixed order: the new phis' numbering follows it
  std::vector<ValueId> originals;
  std::vector<uint8_t> region(k.blocks.size(), 0);
  for (uint32_t b : blocks) {
    region[b] = 1;
    for (ValueId v : k.blocks[b].ops)
      if (copies.front().value.count(v)) originals.push_back(v);
  }
  for (const BlockCopy& c : copies)
    for (const auto& [_, nb] : c.block)
      region[nb] = 1;
  // Uses of each original outside the region: operands of ops there, phi entries from blocks there,
  // branch conditions there.
  std::unordered_set<ValueId> wanted(originals.begin(), originals.end());
  struct Use {
    ValueId op;
    size_t index;
    uint32_t block; // where the value must be available: the op's block, a phi entry's predecessor
    bool atEnd;     // at the end of `block` (phi entries, terminators) or at its entry
  };
  std::unordered_map<ValueId, std::vector<Use>> uses;
  auto inRegion = [&](uint32_t b) { return b < region.size() && region[b]; };
  for (ValueId v = 0; v < k.ops.size(); ++v) {
    const Op& op = k.ops[v];
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (!wanted.count(op.operands[i])) continue;
      if (op.kind == OpKind::Phi) {
        if (!inRegion(op.phiBlocks[i])) uses[op.operands[i]].push_back({v, i, op.phiBlocks[i], true});
      } else if (!inRegion(op.block)) {
        uses[op.operands[i]].push_back({v, i, op.block, false});
      }
    }
  }
  for (uint32_t b = 0; b < k.blocks.size(); ++b)
    if (!inRegion(b) && wanted.count(k.blocks[b].term.cond))
      uses[k.blocks[b].term.cond].push_back({kNone, 0, b, true});

  for (ValueId orig : originals) {
    auto it = uses.find(orig);
    if (it == uses.end()) continue;
    std::unordered_map<uint32_t, ValueId> defs{{k.ops[orig].block, orig}};
    for (const BlockCopy& c : copies)
      defs[k.ops[c.value.at(orig)].block] = c.value.at(orig);
    const Op var = k.ops[orig];
    SsaRewriter w(k, preds, var, defs);
    std::vector<ValueId> got;
    for (const Use& u : it->second)
      got.push_back(u.atEnd ? w.atEnd(u.block) : w.atEntry(u.block));
    w.removeTrivialPhis();
    for (size_t i = 0; i < it->second.size(); ++i) {
      const Use& u = it->second[i];
      if (u.op == kNone)
        k.blocks[u.block].term.cond = w.resolve(got[i]);
      else
        k.ops[u.op].operands[u.index] = w.resolve(got[i]);
    }
  }
}

void detachUnreachable(Kernel& k) {
  const Succs succ = kernelSuccessors(k);
  std::vector<uint8_t> reach(k.blocks.size(), 0);
  std::vector<uint32_t> work = cfgRoots(k);
  for (uint32_t r : work)
    reach[r] = 1;
  while (!work.empty()) {
    uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : succ[b])
      if (!reach[s]) reach[s] = 1, work.push_back(s);
  }
  for (uint32_t b = 0; b < k.blocks.size(); ++b) {
    if (reach[b]) continue;
    for (uint32_t s : succ[b])
      dropPhiEntries(k, s, b);
    Terminator& t = k.blocks[b].term;
    t.kind = Terminator::Kind::Unreachable;
    t.cond = kNone;
    t.targets.clear();
    t.caseValues.clear();
  }
}

std::optional<uint64_t> foldPure(const std::vector<Op>& ops, const Op& op,
                                 const std::function<std::optional<uint64_t>(ValueId)>& valueOf) {
  const OpClass cls = opInfo(op.kind).opClass;
  if (op.width() > 64 || op.operands.empty() ||
      (cls != OpClass::Logic && cls != OpClass::Arith && cls != OpClass::Shift && cls != OpClass::Compare &&
       op.kind != OpKind::ZExt && op.kind != OpKind::SExt && op.kind != OpKind::Trunc))
    return std::nullopt;
  std::vector<uint64_t> vals;
  for (ValueId o : op.operands) {
    const std::optional<uint64_t> x = valueOf(o);
    if (!x) return std::nullopt;
    vals.push_back(*x);
  }
  const auto r = foldConstant(op.kind, op.width(), vals, ops[op.operands[0]].width(), op.rounding);
  return r ? std::optional<uint64_t>(*r & widthMask(op.width())) : std::nullopt;
}

void propagateConstants(Kernel& k) {
  auto isConst = [&](ValueId v) { return k.ops[v].kind == OpKind::Const && k.ops[v].width() <= 64; };
  for (bool changed = true; changed;) {
    changed = false;
    detachUnreachable(k);
    std::unordered_map<ValueId, ValueId> replace;
    for (BasicBlock& b : k.blocks)
      for (ValueId v : b.ops) {
        Op& op = k.ops[v];
        if (op.width() == 0 || op.width() > 64 || hasSideEffect(op.kind)) continue;
        if (op.kind == OpKind::Phi) {
          if (op.operands.empty()) continue;
          ValueId same = op.operands[0];
          bool one =
              std::all_of(op.operands.begin(), op.operands.end(), [&](ValueId o) { return o == same; });
          // Equal constants in different blocks are one value too.
          bool constant = std::all_of(op.operands.begin(), op.operands.end(), [&](ValueId o) {
            return isConst(o) && k.ops[o].imm == k.ops[same].imm;
          });
          if (one && same != v)
            replace[v] = same;
          else if (constant) {
            makeConst(op, k.ops[same].imm);
            changed = true;
          }
          continue;
        }
        if (op.kind == OpKind::Select && isConst(op.operands[0])) {
          replace[v] = op.operands[k.ops[op.operands[0]].imm & 1 ? 1 : 2];
          continue;
        }
        const auto r = foldPure(k.ops, op, [&](ValueId o) {
          return isConst(o) ? std::optional<uint64_t>(k.ops[o].imm) : std::nullopt;
        });
        if (!r) continue;
        makeConst(op, *r);
        changed = true;
      }
    if (!replace.empty()) {
      changed = true;
      auto resolve = [&](ValueId v) {
        for (auto it = replace.find(v); it != replace.end(); it = replace.find(v))
          v = it->second;
        return v;
      };
      for (Op& op : k.ops)
        for (ValueId& o : op.operands)
          o = resolve(o);
      for (BasicBlock& b : k.blocks)
        if (b.term.cond != kNone) b.term.cond = resolve(b.term.cond);
      for (auto& [v, _] : replace)
        neutralize(k, v);
    }
    if (foldConstantBranches(k)) changed = true;
  }
  detachUnreachable(k);
  // Phis that became constants stay where they were: put the phis first again.
  for (BasicBlock& b : k.blocks)
    std::stable_partition(b.ops.begin(), b.ops.end(),
                          [&](ValueId v) { return k.ops[v].kind == OpKind::Phi; });
}

} // namespace spvhls::ir::lower
