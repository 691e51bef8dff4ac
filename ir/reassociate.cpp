#include "ir/reassociate.h"

#include <fmt/format.h>

#include <algorithm>

namespace spvhls::ir {

namespace {

// One carried float sum: phi -> add (-> sel) -> next, where next is sel when there is one.
struct Chain {
  ValueId phiOp = kNone, add = kNone, sel = kNone;
  uint32_t phi = 0, latency = 0;
  ValueId next() const { return sel != kNone ? sel : add; }
};

bool isFloatWidth(uint32_t w) {
  return w == 16 || w == 32 || w == 64;
}

// Per body value: whether it depends on the phi op `phiOp` (ops are in topological order).
std::vector<bool> dependents(const Loop& loop, ValueId phiOp) {
  std::vector<bool> dep(loop.ops.size(), false);
  for (ValueId v = 0; v < loop.ops.size(); ++v) {
    dep[v] = v == phiOp;
    for (ValueId o : loop.ops[v].operands)
      if (o != kNone && dep[o]) dep[v] = true;
  }
  return dep;
}

std::optional<Chain> matchChain(const Loop& loop, uint32_t phi, ValueId phiOp,
                                const std::function<uint32_t(const Op&)>& latency) {
  Chain c;
  c.phi = phi, c.phiOp = phiOp;
  const std::vector<Op>& ops = loop.ops;
  if (!isFloatWidth(ops[phiOp].width())) return std::nullopt;
  const std::vector<bool> dep = dependents(loop, phiOp);
  ValueId next = loop.phis[phi].next;
  if (next == kNone || next == phiOp) return std::nullopt;
  c.add = next;
  if (ops[next].kind == OpKind::Select) {
    const auto& o = ops[next].operands;
    if (dep[o[0]]) return std::nullopt;
    if (o[2] == phiOp)
      c.add = o[1];
    else if (o[1] == phiOp)
      c.add = o[2];
    else
      return std::nullopt;
    c.sel = next;
  }
  const Op& add = ops[c.add];
  if (add.kind == OpKind::FAdd) {
    const ValueId x = add.operands[0] == phiOp ? add.operands[1] : add.operands[0];
    if ((add.operands[0] != phiOp && add.operands[1] != phiOp) || dep[x]) return std::nullopt;
  } else if (add.kind == OpKind::FSub) {
    if (add.operands[0] != phiOp || dep[add.operands[1]]) return std::nullopt;
  } else {
    return std::nullopt;
  }
  // Nothing else reads the chain: the phi feeds only the adder (and the select), the adder only the
  // select; the exit condition, other phis and live-outs of the adder under a select would see one
  // partial sum instead of the whole.
  for (ValueId v = 0; v < ops.size(); ++v)
    for (ValueId o : ops[v].operands) {
      const bool chainUser = (v == c.add && o == phiOp) || (v == c.sel && (o == phiOp || o == c.add));
      if ((o == phiOp || o == c.add || o == c.sel) && o != kNone && !chainUser) return std::nullopt;
    }
  if (loop.continueCond == phiOp || loop.continueCond == c.add || loop.continueCond == c.sel)
    return std::nullopt;
  for (size_t p = 0; p < loop.phis.size(); ++p)
    if (p != phi && (loop.phis[p].next == phiOp || loop.phis[p].next == c.add || loop.phis[p].next == c.sel))
      return std::nullopt;
  if (c.sel != kNone && std::find(loop.liveOuts.begin(), loop.liveOuts.end(), c.add) != loop.liveOuts.end())
    return std::nullopt;
  c.latency = latency(add) + (c.sel != kNone ? latency(ops[c.sel]) : 0);
  return c;
}

ValueId findLoopCall(const Kernel& k, uint32_t l) {
  for (ValueId v = 0; v < k.ops.size(); ++v)
    if (k.ops[v].kind == OpKind::LoopCall && k.ops[v].index == l) return v;
  return kNone;
}

// Kernel value `from` replaced by `to` wherever it is read: operands (except those of `skip` ops and
// onwards: the reduction itself), terminators and loops' live-ins.
void replaceUses(Kernel& k, ValueId from, ValueId to, ValueId firstNew) {
  for (ValueId v = 0; v < firstNew; ++v)
    for (ValueId& o : k.ops[v].operands)
      if (o == from) o = to;
  for (BasicBlock& b : k.blocks)
    if (b.term.cond == from) b.term.cond = to;
  for (Loop& lp : k.loops)
    for (ValueId& in : lp.liveIns)
      if (in == from) in = to;
}

class Rewriter {
public:
  Rewriter(Kernel& k, uint32_t l) : k_(k), l_(l), call_(findLoopCall(k, l)) {}

  bool callable() const { return call_ != kNone && k_.ops[call_].kind == OpKind::LoopCall; }

  // Splits chain c into K = c.latency partial sums.
  void split(const Chain& c) {
    Loop& loop = k_.loops[l_];
    const uint32_t K = c.latency;
    const Op phiOp = loop.ops[c.phiOp];
    const uint32_t w = phiOp.width();
    // The identity -0.0 (x + -0 = x for every x, signed zeros included) enters as a live-in.
    const ValueId negZero =
        kernelOp(OpKind::Const, Type::bits(w), {}, "neg_zero", k_.ops[call_].loc, positionOf(call_));
    k_.ops[negZero].imm = uint64_t(1) << (w - 1);
    const uint32_t identityIn = uint32_t(loop.liveIns.size());
    loop.liveIns.push_back(negZero);
    k_.ops[call_].operands.push_back(negZero);
    // The ring: phi <- r1 <- r2 ... <- r(K-1) <- next. The adder reads phi, which holds the sum of
    // every K-th iteration.
    std::vector<ValueId> ring = {c.phiOp};
    const ValueId next = c.next();
    for (uint32_t j = 1; j < K; ++j) {
      const uint32_t idx = uint32_t(loop.phis.size());
      loop.phis.push_back(
          {fmt::format("{}.part{}", loop.phis[c.phi].name, j), identityIn, kNone, phiOp.type});
      Op op = phiOp;
      op.index = idx;
      op.name = loop.phis.back().name;
      op.spirvId = 0;
      ring.push_back(ValueId(loop.ops.size()));
      loop.ops.push_back(std::move(op));
    }
    for (uint32_t j = 0; j + 1 < K; ++j)
      loop.phis[loop.ops[ring[j]].index].next = ring[j + 1];
    loop.phis[loop.ops[ring[K - 1]].index].next = next;
    // Live-outs of the phi: the ring at the last iteration; of next: the ring after it.
    const size_t outs = loop.liveOuts.size();
    for (uint32_t o = 0; o < outs; ++o) {
      std::vector<ValueId> members;
      if (loop.liveOuts[o] == c.phiOp)
        members = ring;
      else if (loop.liveOuts[o] == next)
        members.assign(ring.begin() + 1, ring.end()), members.push_back(next);
      else
        continue;
      std::vector<uint32_t> indices = {o};
      for (size_t j = 1; j < members.size(); ++j) {
        indices.push_back(uint32_t(loop.liveOuts.size()));
        loop.liveOuts.push_back(members[j]);
      }
      loop.liveOuts[o] = members[0];
      reduceAfter(o, indices, loop.ops[c.add]);
    }
  }

private:
  Kernel& k_;
  uint32_t l_;
  ValueId call_;

  std::pair<uint32_t, size_t> positionOf(ValueId v) const {
    const BasicBlock& b = k_.blocks[k_.ops[v].block];
    return {k_.ops[v].block, size_t(std::find(b.ops.begin(), b.ops.end(), v) - b.ops.begin())};
  }

  ValueId kernelOp(OpKind kind, Type type, std::vector<ValueId> operands, std::string name, SourceLoc loc,
                   std::pair<uint32_t, size_t> at) {
    Op op;
    op.kind = kind, op.type = type, op.operands = std::move(operands), op.name = std::move(name);
    op.block = at.first, op.loc = std::move(loc);
    const ValueId v = ValueId(k_.ops.size());
    k_.ops.push_back(std::move(op));
    auto& list = k_.blocks[at.first].ops;
    list.insert(list.begin() + long(at.second), v);
    return v;
  }

  // Every kernel LoopOut of live-out `indices[0]` becomes the sum of the LoopOuts of `indices`, a
  // balanced tree of FAdds right after the block's LoopOuts.
  void reduceAfter(uint32_t out, const std::vector<uint32_t>& indices, const Op& adder) {
    const ValueId firstNew = ValueId(k_.ops.size());
    std::vector<ValueId> loopOuts;
    for (ValueId v = 0; v < firstNew; ++v)
      if (k_.ops[v].kind == OpKind::LoopOut && k_.ops[v].operands[0] == call_ && k_.ops[v].index == out)
        loopOuts.push_back(v);
    for (ValueId lo : loopOuts) {
      const ValueId before = ValueId(k_.ops.size());
      const uint32_t b = k_.ops[lo].block;
      // After the last LoopOut of the block.
      size_t pos = 0;
      for (size_t i = 0; i < k_.blocks[b].ops.size(); ++i)
        if (k_.ops[k_.blocks[b].ops[i]].kind == OpKind::LoopOut) pos = i + 1;
      std::vector<ValueId> level = {lo};
      for (size_t j = 1; j < indices.size(); ++j) {
        const ValueId v = kernelOp(OpKind::LoopOut, k_.ops[lo].type, {call_},
                                   fmt::format("{}.part{}", k_.ops[lo].name, j), k_.ops[lo].loc, {b, pos++});
        k_.ops[v].index = indices[j];
        level.push_back(v);
      }
      while (level.size() > 1) {
        std::vector<ValueId> up;
        for (size_t i = 0; i + 1 < level.size(); i += 2)
          up.push_back(kernelOp(OpKind::FAdd, k_.ops[lo].type, {level[i], level[i + 1]},
                                fmt::format("{}.sum", k_.ops[lo].name), adder.loc, {b, pos++}));
        if (level.size() % 2) up.push_back(level.back());
        level = std::move(up);
      }
      replaceUses(k_, lo, level[0], before);
    }
  }
};

} // namespace

void findFpReductions(Kernel& k, bool apply, const std::function<uint32_t(const Op&)>& latency) {
  for (uint32_t l = 0; l < k.loops.size(); ++l) {
    Loop& loop = k.loops[l];
    loop.fpReductions.clear();
    std::vector<Chain> chains;
    for (ValueId v = 0; v < loop.ops.size(); ++v)
      if (loop.ops[v].kind == OpKind::LoopPhi)
        if (auto c = matchChain(loop, loop.ops[v].index, v, latency)) chains.push_back(*c);
    Rewriter rw(k, l);
    for (const Chain& c : chains) {
      const bool split = apply && c.latency > 1 && rw.callable();
      const Op& add = loop.ops[c.add];
      loop.fpReductions.push_back(
          {loop.phis[c.phi].name,
           fmt::format("{} %{}", opKindName(add.kind), add.name.empty() ? std::to_string(c.add) : add.name),
           c.latency, split ? c.latency : 0});
      if (split) rw.split(c);
    }
  }
}

} // namespace spvhls::ir
