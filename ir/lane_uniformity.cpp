// Which values of a loop body a subgroup's lanes share (ir/lane_uniformity.h).
#include "ir/lane_uniformity.h"

#include <algorithm>
#include <map>

namespace spvhls::ir::lower {

namespace {
Uniformity ofCallee(const Kernel& k, const Op& call, const Uniformity& caller,
                    const std::vector<uint64_t>& slice);
} // namespace

bool isLaneOp(OpKind k) {
  return k == OpKind::Lane || k == OpKind::SgShuffle || k == OpKind::SgShuffleDown ||
         k == OpKind::SgShuffleUp || k == OpKind::SgShuffleXor || k == OpKind::SgScan;
}

bool ownAccess(const Op& op, const std::vector<uint64_t>& slice) {
  return (op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory < slice.size() &&
         slice[op.memory] > 0;
}

Uniformity uniformity(const Kernel& k, const Loop& lp, const std::vector<uint8_t>& liveIn, bool predUniform,
                      const std::vector<uint64_t>& slice) {
  Uniformity u;
  for (const LoopPhi& phi : lp.phis)
    u.phi.push_back(liveIn.at(phi.initLiveIn));
  u.masked = !predUniform;
  // From "the same in every lane" down: a carried value is shared only when its next value is, and the
  // lanes' results of a masked inner loop are their own.
  for (bool changed = true; changed;) {
    u.value.assign(lp.ops.size(), 0);
    std::map<ValueId, Uniformity> callees;
    for (ValueId v = 0; v < lp.ops.size(); ++v) {
      const Op& op = lp.ops[v];
      uint8_t same = 0;
      if (op.kind == OpKind::LiveIn)
        same = liveIn.at(op.index);
      else if (op.kind == OpKind::LoopPhi)
        same = u.phi.at(op.index);
      else if (op.kind == OpKind::LoopCall)
        callees.emplace(v, ofCallee(k, op, u, slice));
      else if (op.kind == OpKind::LoopOut) {
        const Uniformity& inner = callees.at(op.operands[0]);
        const Loop& callee = k.loops[lp.ops[op.operands[0]].index];
        same = !inner.masked && inner.value[callee.liveOuts.at(op.index)];
      } else if ((op.kind == OpKind::Store || !hasSideEffect(op.kind)) && !isLaneOp(op.kind) &&
                 !ownAccess(op, slice))
        same = std::all_of(op.operands.begin(), op.operands.end(),
                           [&](ValueId o) { return o == kNone || u.value[o]; });
      u.value[v] = same;
    }
    changed = false;
    for (size_t p = 0; p < lp.phis.size(); ++p)
      if (u.phi[p] && lp.phis[p].next != kNone && !u.value[lp.phis[p].next]) u.phi[p] = 0, changed = true;
    const bool masked = !predUniform || (lp.continueCond != kNone && !u.value[lp.continueCond]);
    changed = changed || masked != u.masked;
    u.masked = masked;
  }
  return u;
}

namespace {
// The uniformity of the loop a LoopCall of a body runs, `caller` being the body's.
Uniformity ofCallee(const Kernel& k, const Op& call, const Uniformity& caller,
                    const std::vector<uint64_t>& slice) {
  std::vector<uint8_t> in;
  for (size_t i = 0; i + 1 < call.operands.size(); ++i)
    in.push_back(caller.value[call.operands[i]]);
  const ValueId pred = call.operands.back();
  return uniformity(k, k.loops[call.index], in, !caller.masked && (pred == kNone || caller.value[pred]),
                    slice);
}
} // namespace

} // namespace spvhls::ir::lower
