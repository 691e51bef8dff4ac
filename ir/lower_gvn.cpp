// Equal values in a loop body merged (value numbering with optimistic carried values). Loop fusion
// leaves one induction variable per fused body, `i` and `i'`, both from 0 and both stepped by 1: the
// addresses `b[i]` and `b[i']` are then two values, and a load of `b[i']` cannot reuse the value the
// store to `b[i]` wrote (ir/lower_loads.cpp compares offset values). Loads reused make more values
// equal: `t[x[i]]` read twice has two equal addresses once the second `x[i]` is the first.
//
// Two carried values are equal when their initial values are the same value of the caller (or equal
// constants) and their next values are equal, assuming they are: start with every pair whose initial
// values agree in one class, number the body's values under that assumption, split the classes whose
// next values got different numbers, and repeat until nothing splits. What is left holds by induction
// over the iterations. Only pure operations are numbered by their operands; loads, stores, loop calls
// and loop outputs are each their own number (ir/lower_loads.cpp reuses loads).
#include <algorithm>
#include <map>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

struct Key {
  OpKind kind;
  Type type;
  uint64_t imm;
  std::vector<uint64_t> immHigh;
  uint32_t index; // LiveIn: the caller's class of the value; LoopPhi: the carried value's class
  uint8_t rounding;
  std::vector<uint32_t> operands;
  auto operator<=>(const Key&) const = default;
};

bool commutative(OpKind k) {
  switch (k) {
  case OpKind::Add:
  case OpKind::Mul:
  case OpKind::And:
  case OpKind::Or:
  case OpKind::Xor:
  case OpKind::Eq:
  case OpKind::Ne:
    return true;
  default:
    return false;
  }
}

bool numberedByOperands(OpKind k) {
  if (hasSideEffect(k) || isLoweringOnly(k)) return false;
  switch (k) {
  case OpKind::Load: // ir/lower_loads.cpp decides, knowing the stores between
  case OpKind::LoopOut:
  case OpKind::Undef: // each may be read as anything
  case OpKind::Param:
  case OpKind::Arg:
  case OpKind::Phi:
    return false;
  default:
    return true;
  }
}

class Numbering {
public:
  // `inClass`: per live-in, a class shared by the live-ins that are equal in the caller.
  Numbering(const Loop& loop, std::vector<uint32_t> inClass) : loop_(loop), inClass_(std::move(inClass)) {}

  // Numbers every body value, the carried values by `phiClass`.
  std::vector<uint32_t> run(const std::vector<uint32_t>& phiClass) {
    std::map<Key, uint32_t> seen;
    std::vector<uint32_t> num(loop_.ops.size());
    uint32_t fresh = 0;
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const Op& op = loop_.ops[v];
      if (!numberedByOperands(op.kind)) {
        num[v] = fresh++ | kUnique;
        continue;
      }
      Key key{op.kind, op.type, op.imm, op.immHigh, 0, op.rounding, {}};
      if (op.kind == OpKind::LiveIn) key.index = inClass_[op.index];
      if (op.kind == OpKind::LoopPhi) key.index = phiClass[op.index];
      for (ValueId o : op.operands)
        key.operands.push_back(o == kNone ? kNone : num[o]);
      if (commutative(op.kind)) std::sort(key.operands.begin(), key.operands.end());
      auto [it, added] = seen.try_emplace(std::move(key), static_cast<uint32_t>(seen.size()));
      num[v] = it->second;
    }
    return num;
  }

  static constexpr uint32_t kUnique = 1u << 31;

private:
  const Loop& loop_;
  std::vector<uint32_t> inClass_; // per live-in: its caller value's class
};

// The ops of the caller of loop `index` (Kernel::ops, or the body of the loop whose LoopCall runs it).
const std::vector<Op>* callerOps(const Kernel& k, uint32_t index) {
  for (const Op& op : k.ops)
    if (op.kind == OpKind::LoopCall && op.index == index) return &k.ops;
  for (const Loop& lp : k.loops)
    for (const Op& op : lp.ops)
      if (op.kind == OpKind::LoopCall && op.index == index) return &lp.ops;
  return nullptr;
}

uint32_t mergeInLoop(const Kernel& k, uint32_t index, Loop& loop) {
  const std::vector<Op>* caller = callerOps(k, index);
  if (caller == nullptr) return 0;
  // Live-ins: equal when they are the same caller value or equal constants.
  std::map<std::pair<Type, uint64_t>, uint32_t> constClass;
  std::map<ValueId, uint32_t> valueClass;
  std::vector<uint32_t> inClass(loop.liveIns.size());
  for (size_t i = 0; i < loop.liveIns.size(); ++i) {
    const ValueId v = loop.liveIns[i];
    const Op& op = (*caller)[v];
    const bool plainConst = op.kind == OpKind::Const && op.immHigh.empty();
    inClass[i] = plainConst
                     ? constClass.try_emplace({op.type, op.imm}, static_cast<uint32_t>(i)).first->second
                     : valueClass.try_emplace(v, static_cast<uint32_t>(i)).first->second;
  }
  Numbering numbering(loop, inClass);
  // Optimistic start: carried values of one type with equal initial values are one class.
  std::vector<uint32_t> phiClass(loop.phis.size());
  {
    std::map<std::pair<Type, uint32_t>, uint32_t> start;
    for (size_t p = 0; p < loop.phis.size(); ++p)
      phiClass[p] = start.try_emplace({loop.phis[p].type, inClass[loop.phis[p].initLiveIn]}, p).first->second;
  }
  std::vector<uint32_t> num;
  for (;;) {
    num = numbering.run(phiClass);
    // Split: a class's members stay together while their next values have equal numbers.
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> split;
    std::vector<uint32_t> refined(loop.phis.size());
    for (size_t p = 0; p < loop.phis.size(); ++p)
      refined[p] = split.try_emplace({phiClass[p], num[loop.phis[p].next]}, p).first->second;
    if (refined == phiClass) break;
    phiClass = std::move(refined);
  }
  // Every value takes the first value of its number (the first in the body's topological order, so
  // each use stays after its definition).
  std::map<uint32_t, ValueId> first;
  std::vector<ValueId> repl(loop.ops.size(), kNone);
  uint32_t merged = 0;
  for (ValueId v = 0; v < loop.ops.size(); ++v) {
    if (num[v] & Numbering::kUnique) continue;
    auto [it, added] = first.try_emplace(num[v], v);
    if (added) continue;
    repl[v] = it->second;
    if (loop.ops[v].kind != OpKind::Const && loop.ops[v].kind != OpKind::LiveIn) ++merged;
  }
  if (merged == 0) return 0; // equal constants or live-ins alone cost nothing
  redirectUses(loop, repl);
  return merged;
}

} // namespace

bool mergeEqualValues(Kernel& k) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < k.loops.size(); ++i)
    if (const uint32_t merged = mergeInLoop(k, i, k.loops[i])) { // non-zero exactly when it changed the loop
      n += merged;
      takeLiveInsFromCalls(k, k.loops[i]); // an outer pipeline's inner loops: from its redirected calls
    }
  k.datapath.mergedValues += n;
  return n > 0;
}

} // namespace spvhls::ir::lower
