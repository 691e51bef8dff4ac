// Datapath optimisations before scheduling: an operation with a constant operand becomes cheaper
// logic (docs/scheduling.md "Datapath optimisations"). A shift by a constant is wires; a
// multiplication by a constant with at most three non-zero signed digits is shifts and adds; a
// division or remainder by a power of two is wires and an adder; by another constant (values up to
// 32 bits) a multiplication by its reciprocal (Granlund and Montgomery, "Division by invariant
// integers using multiplication", PLDI 1994) built as a tree of shifted adds. Every rewrite is exact
// for every operand value.
#include <algorithm>
#include <bit>
#include <optional>
#include <unordered_map>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

// Digits of `c` modulo 2^w in non-adjacent form (each -1, 0 or 1, no two adjacent non-zero): the
// fewest additions and subtractions of shifted copies that multiply by `c`.
std::vector<std::pair<uint32_t, int>> signedDigits(uint64_t c, uint32_t w) {
  std::vector<std::pair<uint32_t, int>> digits;
  unsigned __int128 v = c & widthMask(w);
  for (uint32_t bit = 0; v != 0 && bit < w; ++bit, v >>= 1) {
    if (!(v & 1)) continue;
    const int d = (v & 3) == 1 ? 1 : -1; // ...01 -> +1, ...11 -> -1 (and carry into the next bit)
    digits.emplace_back(bit, d);
    v = d == 1 ? v - 1 : v + 1;
  }
  return digits;
}

uint32_t log2Ceil(uint64_t d) {
  return d <= 1 ? 0 : static_cast<uint32_t>(std::bit_width(d - 1));
}

class Reducer {
public:
  explicit Reducer(Builder& b) : b_(b) {}

  // x << s, x >> s (logical, arithmetic) for a constant s: wires.
  ValueId shl(ValueId x, uint32_t s) {
    const uint32_t w = b_.width(x);
    s %= w;
    if (s == 0) return x;
    return b_.concat({b_.constant(s, 0), lowBits(x, w - s)});
  }
  // Bits [0, n) of x. An extension of a value of at most n bits is that value extended to n bits:
  // then what the result needs is the narrow value alone (fewer bits to carry down a pipeline).
  ValueId lowBits(ValueId x, uint32_t n) {
    const OpKind kind = b_.op(x).kind;
    if (kind == OpKind::SExt || kind == OpKind::ZExt) {
      const ValueId narrow = b_.op(x).operands[0];
      if (b_.width(narrow) <= n) return b_.resize(narrow, n, kind == OpKind::SExt);
    }
    return b_.extract(x, 0, n);
  }
  ValueId shr(ValueId x, uint32_t s, bool arithmetic) {
    const uint32_t w = b_.width(x);
    s %= w;
    if (s == 0) return x;
    return b_.resize(b_.extract(x, s, w - s), w, arithmetic);
  }
  // The low `bits` bits of x, zero-extended: x & (2^bits - 1).
  ValueId low(ValueId x, uint32_t bits) {
    const uint32_t w = b_.width(x);
    if (bits == 0) return b_.constant(w, 0);
    return b_.resize(b_.extract(x, 0, bits), w, false);
  }

  // x * c as shifted copies added and subtracted when that takes at most kMaxAdders adders, else kNone
  // (the multiplier stays).
  ValueId mul(ValueId x, uint64_t c) {
    const uint32_t w = b_.width(x);
    const auto digits = signedDigits(c, w);
    size_t positive = 0;
    for (const auto& [bit, d] : digits)
      positive += d > 0;
    const size_t adders = positive > 0 ? digits.size() - 1 : digits.size(); // all negative: a negation
    return adders > kMaxAdders ? kNone : sumOfShifts(x, c);
  }
  // x * c as shifted copies of x added and subtracted, in a balanced tree (depth log2 of the
  // digits): the reciprocals of divisions, where a multiplier unit would be a generic one, which
  // synthesis specialises for the constant only across module boundaries (flattened).
  ValueId sumOfShifts(ValueId x, uint64_t c) {
    const uint32_t w = b_.width(x);
    std::vector<ValueId> pos, neg;
    for (const auto& [bit, d] : signedDigits(c, w))
      (d > 0 ? pos : neg).push_back(shl(x, bit));
    auto tree = [&](std::vector<ValueId> terms) {
      while (terms.size() > 1) {
        std::vector<ValueId> next;
        for (size_t i = 0; i + 1 < terms.size(); i += 2)
          next.push_back(b_.binary(OpKind::Add, terms[i], terms[i + 1]));
        if (terms.size() % 2) next.push_back(terms.back());
        terms = std::move(next);
      }
      return terms.empty() ? kNone : terms[0];
    };
    const ValueId p = tree(pos), n = tree(neg);
    if (p == kNone) return n == kNone ? b_.constant(w, 0) : b_.unary(OpKind::Neg, n);
    return n == kNone ? p : b_.binary(OpKind::Sub, p, n);
  }

  // floor(x / d) for unsigned x of w <= 32 bits, d >= 2 not a power of two.
  ValueId udivMagic(ValueId x, uint64_t d) {
    const uint32_t w = b_.width(x), l = log2Ceil(d);
    const ValueId wide = b_.resize(x, 2 * w, false);
    // One multiplication when a w-bit multiplier m = ceil(2^(w+s) / d) is exact: m·d - 2^(w+s) <= 2^s
    // makes floor(x·m / 2^(w+s)) = floor(x / d) for every x < 2^w.
    for (uint32_t s = 0; s <= l; ++s) {
      const unsigned __int128 p = static_cast<unsigned __int128>(1) << (w + s);
      const unsigned __int128 m = (p + d - 1) / d;
      if (m >> w) continue;
      if (m * d - p > (static_cast<unsigned __int128>(1) << s)) continue;
      const ValueId prod = sumOfShifts(wide, static_cast<uint64_t>(m));
      return b_.resize(b_.extract(prod, w + s, w - s), w, false);
    }
    // Otherwise m' = floor(2^w (2^l - d) / d) + 1, t = high half of m'·x, q = (t + (x - t) / 2) >> (l - 1).
    const unsigned __int128 mp =
        ((static_cast<unsigned __int128>(1) << w) * ((static_cast<unsigned __int128>(1) << l) - d)) / d + 1;
    const ValueId t = b_.extract(sumOfShifts(wide, static_cast<uint64_t>(mp)), w, w);
    const ValueId half = shr(b_.binary(OpKind::Sub, x, t), 1, false);
    return shr(b_.binary(OpKind::Add, t, half), l - 1, false);
  }

  // x / d rounded toward zero for signed x of w <= 32 bits, d >= 3 not a power of two.
  ValueId sdivMagic(ValueId x, uint64_t d) {
    const uint32_t w = b_.width(x), l = std::max(log2Ceil(d), 1u);
    // m = 2^(w+l-1) / d + 1 - 2^w as a signed w-bit value; q0 = x + high half of m·x (signed);
    // q = (q0 >> (l - 1)) + (x < 0), arithmetic shift.
    const unsigned __int128 m = (static_cast<unsigned __int128>(1) << (w + l - 1)) / d + 1;
    const uint64_t mw = static_cast<uint64_t>(m) & widthMask(w); // m - 2^w, modulo 2^w
    const ValueId wide = b_.resize(x, 2 * w, true);
    const ValueId hi = b_.extract(sumOfShifts(wide, static_cast<uint64_t>(signExtend(mw, w))), w, w);
    const ValueId q0 = shr(b_.binary(OpKind::Add, x, hi), l - 1, true);
    return b_.binary(OpKind::Add, q0, b_.resize(b_.extract(x, w - 1, 1), w, false));
  }

  // The cheaper form of `op` (its operands are values of `b_`'s list), or kNone to keep it.
  ValueId reduce(const Op& op) {
    if (op.operands.size() != 2) return kNone;
    const ValueId a = op.operands[0], c = op.operands[1];
    const auto ca = b_.constValue(a), cc = b_.constValue(c);
    if (ca && cc) return kNone; // both constant: folding, not this pass
    const uint32_t w = op.width();
    switch (op.kind) {
    case OpKind::Shl:
      return cc ? shl(a, static_cast<uint32_t>(*cc % w)) : kNone;
    case OpKind::LShr:
    case OpKind::AShr:
      return cc ? shr(a, static_cast<uint32_t>(*cc % w), op.kind == OpKind::AShr) : kNone;
    case OpKind::Mul:
      if (cc) return mul(a, *cc);
      if (ca) return mul(c, *ca);
      return kNone;
    default:
      break;
    }
    if (!cc || *cc == 0) return kNone; // division by zero: the divider's result
    const uint64_t d = *cc;
    const bool pow2 = std::has_single_bit(d);
    const uint32_t k = static_cast<uint32_t>(std::countr_zero(d));
    switch (op.kind) {
    case OpKind::UDiv:
      if (pow2) return shr(a, k, false);
      return w <= kMaxMagicBits ? udivMagic(a, d) : kNone;
    case OpKind::URem:
      if (pow2) return low(a, k);
      return w <= kMaxMagicBits ? b_.binary(OpKind::Sub, a, sumOfShifts(udivMagic(a, d), d)) : kNone;
    default:
      break;
    }
    // Signed: only positive divisors below 2^(w-1) (a negative one keeps the divider).
    if (w < 2 || (d >> (w - 1)) != 0) return kNone;
    if (d == 1) return op.kind == OpKind::SDiv ? a : b_.constant(w, 0);
    if (op.kind == OpKind::SMod && pow2) return low(a, k); // the result takes the divisor's sign
    ValueId q = kNone, rounded = kNone;
    if (pow2) {
      // Negative x: add d - 1 first, so that the arithmetic shift rounds toward zero.
      const ValueId bias = b_.resize(b_.resize(b_.extract(a, w - 1, 1), k, true), w, false);
      const ValueId sum = b_.binary(OpKind::Add, a, bias);
      q = shr(sum, k, true);
      rounded = shl(shr(sum, k, false), k); // q·d
    } else {
      if (w > kMaxMagicBits) return kNone;
      q = sdivMagic(a, d);
      rounded = sumOfShifts(q, d);
    }
    if (op.kind == OpKind::SDiv) return q;
    const ValueId rem = b_.binary(OpKind::Sub, a, rounded);
    if (op.kind == OpKind::SRem) return rem;
    // SMod by d > 0: a negative remainder plus d.
    return b_.select(b_.extract(rem, w - 1, 1), b_.binary(OpKind::Add, rem, b_.constant(w, d)), rem);
  }

private:
  static constexpr size_t kMaxAdders = 2;
  // Widest dividend divided by a constant through a multiplication: its product (twice as wide)
  // must fit the 64-bit datapath.
  static constexpr uint32_t kMaxMagicBits = 32;
  Builder& b_;
};

// The operations with a constant operand this pass rewrites: shifts, multiplications, divisions.
bool reducible(OpKind k) {
  const OpClass c = opInfo(k).opClass;
  return c == OpClass::Shift || c == OpClass::Multiply || c == OpClass::Divide;
}

// The replacement gets the original's name and source, for reports.
void inherit(std::vector<Op>& ops, ValueId made, ValueId firstNew, const Op& from) {
  if (made < firstNew) return; // an existing value
  ops[made].name = from.name;
  ops[made].spirvId = from.spirvId;
}

// Counts a rewrite of `k` in the report's tally.
void count(Kernel::DatapathRewrites& n, OpKind k) {
  const OpClass c = opInfo(k).opClass;
  ++(c == OpClass::Shift ? n.shifts : c == OpClass::Multiply ? n.multiplications : n.divisions);
}

// `op` with a constant operand as cheaper logic, or else as wires or narrower by its operands' known
// bits (counted in `n`); kNone if neither applies.
// x + c1 + c2 as x + (c1 + c2) (subtractions of constants alike): an unrolled body's copies then add
// their constant to the induction variable itself instead of to the copy before, and the carried value
// steps in one addition (a one-cycle recurrence, not one cycle per copy). kNone when not that.
ValueId foldConstantAdds(Builder& b, const Op& op) {
  const uint32_t w = op.width();
  if (!op.type.isBits() || w == 0 || w > 64) return kNone;
  auto split = [&](const Op& a, ValueId& x, uint64_t& c) { // a = x + c in w bits
    return a.width() == w && splitConstantAdd(b.ops(), a, x, c);
  };
  ValueId x = kNone, y = kNone;
  uint64_t c = 0, d = 0;
  if (!split(op, x, c) || !split(b.op(x), y, d)) return kNone;
  const uint64_t sum = (c + d) & widthMask(w);
  return sum == 0 ? y : b.binary(OpKind::Add, y, b.constant(w, sum));
}

ValueId reduceOrNarrow(Builder& b, BitRewriter& bits, ValueId v, const Op& op, Kernel::DatapathRewrites& n) {
  if (ValueId r = foldConstantAdds(b, op); r != kNone) {
    ++n.foldedAdds;
    return r;
  }
  if (ValueId r = reducible(op.kind) ? Reducer(b).reduce(op) : kNone; r != kNone) {
    count(n, op.kind);
    return r;
  }
  const ValueId r = bits.rewrite(b, v, op);
  if (r != kNone) ++n.knownBits;
  return r;
}

bool reduceLoop(Loop& loop, Kernel::DatapathRewrites& n) {
  std::vector<Op> out;
  out.reserve(loop.ops.size());
  Builder b(out, nullptr);
  BitRewriter bits(out, loop.ops);
  std::vector<ValueId> map(loop.ops.size(), kNone);
  auto known = [&](ValueId o) -> std::optional<uint64_t> { // a constant of the rewritten list
    const Op& x = out[o];
    if (x.kind != OpKind::Const || !x.immHigh.empty() || x.width() > 64) return std::nullopt;
    return x.imm & widthMask(x.width());
  };
  bool changed = false;
  for (ValueId v = 0; v < loop.ops.size(); ++v) {
    Op op = loop.ops[v];
    for (ValueId& o : op.operands)
      if (o != kNone) o = map[o];
    b.loc = op.loc;
    // An operation of constants (a lane's copy of lane-index arithmetic) is a constant, before the
    // known bits make it a concatenation that address analysis no longer reads as one.
    if (const auto c = foldPure(out, op, known)) {
      map[v] = b.constant(op.width(), *c);
      changed = true;
      continue;
    }
    if (op.kind == OpKind::Select)
      if (const auto c = known(op.operands[0])) { // a lane's copy of `lane == 5 ? x : y`
        map[v] = op.operands[*c & 1 ? 1 : 2];
        changed = true;
        continue;
      }
    const auto firstNew = static_cast<ValueId>(out.size());
    if (ValueId r = reduceOrNarrow(b, bits, v, op, n); r != kNone) {
      inherit(out, r, firstNew, op);
      map[v] = r;
      changed = true;
      continue;
    }
    map[v] = static_cast<ValueId>(out.size());
    out.push_back(std::move(op));
  }
  if (!changed) return false;
  for (LoopPhi& p : loop.phis)
    p.next = map[p.next];
  loop.continueCond = map[loop.continueCond];
  for (ValueId& o : loop.liveOuts)
    o = map[o];
  loop.ops = std::move(out);
  return true;
}

// The kernel's CFG: a replacement's new ops go just before the op they replace; every use is then
// redirected, and compaction drops the replaced op.
bool reduceCfg(Kernel& k, Kernel::DatapathRewrites& n) {
  Builder b(k.ops, nullptr);
  BitRewriter bits(k.ops, k.ops); // its address cone is read now, before the builder appends
  std::vector<ValueId> repl(k.ops.size(), kNone);
  bool changed = false;
  for (uint32_t bi = 0; bi < k.blocks.size(); ++bi) {
    std::vector<ValueId> list;
    for (ValueId v : k.blocks[bi].ops) {
      if (reducible(k.ops[v].kind) || BitRewriter::rewritable(k.ops[v].kind)) {
        const Op op = k.ops[v];
        b.block = bi;
        b.loc = op.loc;
        const auto firstNew = static_cast<ValueId>(k.ops.size());
        if (ValueId r = reduceOrNarrow(b, bits, v, op, n); r != kNone) {
          for (auto made = firstNew; made < k.ops.size(); ++made)
            if (k.ops[made].kind != OpKind::Const) list.push_back(made); // constants live in block 0
          inherit(k.ops, r, firstNew, op);
          repl[v] = r;
          changed = true;
        }
      }
      list.push_back(v);
    }
    k.blocks[bi].ops = std::move(list);
  }
  if (!changed) return false;
  // Constants the builder made belong to the entry block, after its phis.
  for (auto made = static_cast<ValueId>(repl.size()); made < k.ops.size(); ++made)
    if (k.ops[made].kind == OpKind::Const) {
      auto& entry = k.blocks[0].ops;
      auto at =
          std::find_if(entry.begin(), entry.end(), [&](ValueId e) { return k.ops[e].kind != OpKind::Phi; });
      k.ops[made].block = 0;
      entry.insert(at, made);
    }
  redirectUses(k, repl);
  return true;
}

// Loop-invariant code motion and strength reduction of induction-variable multiplications, for a loop
// the CFG calls: what the body computes from live-ins and constants alone (with some logic in it) is
// computed once per invocation, before the call, and passed in as a live-in, so it costs no pipeline
// registers; p * n for an induction variable p (p' = p ± s, s invariant) and an invariant n becomes
// a carried q (q' = q ± s·n, from init(p)·n): an adder instead of a multiplier.
class LoopHoister {
public:
  LoopHoister(Kernel& k, uint32_t l, ValueId call)
      : k_(k), loop_(k.loops[l]), site_(k, l, call), kb_(site_.b) {}

  bool run() {
    classify();
    std::vector<Op> ops = std::move(loop_.ops);
    const size_t oldPhis = loop_.phis.size();
    std::vector<Op> out;
    out.reserve(ops.size());
    Builder b(out, nullptr);
    std::vector<ValueId> map(ops.size(), kNone);
    std::vector<std::pair<uint32_t, ValueId>> steps; // new phi, its step (a kernel value)
    bool changed = false;
    for (ValueId v = 0; v < ops.size(); ++v) {
      Op op = ops[v];
      b.loc = op.loc;
      // (Not the exit condition: the loop's control reads it where the body forms it.)
      if (invariant_[v] && logic_[v] && variantUse_[v] && v != loop_.continueCond) {
        map[v] = leaf(b, OpKind::LiveIn, addLiveIn(kernelValue(ops, v)), op);
        ++k_.datapath.hoisted;
        changed = true;
        continue;
      }
      if (auto iv = induction(ops, v)) {
        const ValueId nk = kernelValue(ops, iv->n), sk = kernelValue(ops, iv->s);
        const ValueId init = kb_.binary(OpKind::Mul, loop_.liveIns[loop_.phis[iv->phi].initLiveIn], nk);
        ValueId step = kb_.binary(OpKind::Mul, sk, nk);
        if (iv->negate) step = kb_.unary(OpKind::Neg, step);
        const auto index = static_cast<uint32_t>(loop_.phis.size());
        loop_.phis.push_back(LoopPhi{op.name.empty() ? "iv" : op.name, addLiveIn(init), kNone, op.type});
        map[v] = leaf(b, OpKind::LoopPhi, index, op);
        steps.emplace_back(index, step);
        ++k_.datapath.inductions;
        changed = true;
        continue;
      }
      for (ValueId& o : op.operands)
        if (o != kNone) o = map[o];
      map[v] = static_cast<ValueId>(out.size());
      out.push_back(std::move(op));
    }
    if (!changed) {
      loop_.ops = std::move(ops);
      return false;
    }
    for (size_t p = 0; p < oldPhis; ++p)
      loop_.phis[p].next = map[loop_.phis[p].next];
    for (const auto& [index, stepKernel] : steps) {
      const LoopPhi& phi = loop_.phis[index];
      ValueId phiOp = kNone;
      for (ValueId v = 0; v < out.size(); ++v)
        if (out[v].kind == OpKind::LoopPhi && out[v].index == index) phiOp = v;
      const auto konst = kb_.constValue(stepKernel);
      const ValueId step = konst ? b.constant(phi.width(), *konst)
                                 : leaf(b, OpKind::LiveIn, addLiveIn(stepKernel), k_.ops[stepKernel]);
      loop_.phis[index].next = b.binary(OpKind::Add, phiOp, step);
    }
    if (loop_.continueCond != kNone) loop_.continueCond = map[loop_.continueCond];
    for (ValueId& o : loop_.liveOuts)
      o = map[o];
    loop_.ops = std::move(out);
    site_.finish();
    return true;
  }

private:
  struct Induction {
    uint32_t phi;
    ValueId n, s; // body values: the invariant factor and the step
    bool negate;  // p' = p - s
  };

  static bool computes(OpKind k) {
    return !hasSideEffect(k) && k != OpKind::Load && k != OpKind::LoopPhi && k != OpKind::LoopOut &&
           k != OpKind::Phi && !isLoweringOnly(k);
  }

  // Which body values are invariant, which of those have logic behind them, and which are read by
  // something that varies (or leaves the body: a carried value, a live-out, the exit condition).
  void classify() {
    const std::vector<Op>& ops = loop_.ops;
    invariant_.assign(ops.size(), 0);
    logic_.assign(ops.size(), 0);
    variantUse_.assign(ops.size(), 0);
    for (ValueId v = 0; v < ops.size(); ++v) {
      const Op& op = ops[v];
      const bool leafOp = op.kind == OpKind::Const || op.kind == OpKind::LiveIn || op.kind == OpKind::Undef;
      bool inv = leafOp || (computes(op.kind) && !op.operands.empty());
      bool logic = !leafOp && opInfo(op.kind).opClass != OpClass::Wire;
      for (ValueId o : op.operands) {
        inv = inv && o != kNone && invariant_[o];
        logic = logic || (o != kNone && logic_[o]);
      }
      invariant_[v] = inv;
      logic_[v] = inv && logic;
      if (!inv)
        for (ValueId o : op.operands)
          if (o != kNone) variantUse_[o] = 1;
    }
    for (const LoopPhi& p : loop_.phis)
      variantUse_[p.next] = 1;
    for (ValueId o : loop_.liveOuts)
      variantUse_[o] = 1;
    if (loop_.continueCond != kNone) variantUse_[loop_.continueCond] = 1;
  }

  // v = p * n with p an induction variable and n invariant.
  std::optional<Induction> induction(const std::vector<Op>& ops, ValueId v) const {
    const Op& op = ops[v];
    if (op.kind != OpKind::Mul) return std::nullopt;
    for (int side = 0; side < 2; ++side) {
      const ValueId p = op.operands[side], n = op.operands[1 - side];
      if (ops[p].kind != OpKind::LoopPhi || !invariant_[n]) continue;
      const Op& next = ops[loop_.phis[ops[p].index].next];
      if (next.kind != OpKind::Add && next.kind != OpKind::Sub) continue;
      for (int at = 0; at < 2; ++at) {
        if (next.operands[at] != p || !invariant_[next.operands[1 - at]]) continue;
        if (next.kind == OpKind::Sub && at != 0) continue; // s - p is not a step
        return Induction{ops[p].index, n, next.operands[1 - at], next.kind == OpKind::Sub};
      }
    }
    return std::nullopt;
  }

  // The kernel value an invariant body value stands for, built before the call.
  ValueId kernelValue(const std::vector<Op>& ops, ValueId v) {
    if (auto it = kernelOf_.find(v); it != kernelOf_.end()) return it->second;
    const Op& op = ops[v];
    ValueId kv = kNone;
    if (op.kind == OpKind::LiveIn)
      kv = loop_.liveIns[op.index];
    else if (op.kind == OpKind::Const && op.immHigh.empty())
      kv = kb_.constant(op.width(), op.imm);
    else if (op.kind == OpKind::Undef)
      kv = kb_.undef(op.width());
    else {
      Op copy = op;
      for (ValueId& o : copy.operands)
        o = kernelValue(ops, o);
      copy.loc = op.loc;
      kv = kb_.emit(std::move(copy));
    }
    kernelOf_[v] = kv;
    return kv;
  }

  uint32_t addLiveIn(ValueId kv) { return site_.addLiveIn(kv); }

  static ValueId leaf(Builder& b, OpKind kind, uint32_t index, const Op& like) {
    return b.emit(standIn(like, kind, index));
  }

  Kernel& k_;
  Loop& loop_;
  CallSite site_;
  Builder& kb_;
  std::vector<uint8_t> invariant_, logic_, variantUse_;
  std::unordered_map<ValueId, ValueId> kernelOf_;
};

} // namespace

ValueId cfgCallOf(const Kernel& k, uint32_t l) {
  ValueId call = kNone;
  for (const BasicBlock& b : k.blocks)
    if (b.loopCall == l)
      for (ValueId v : b.ops)
        if (k.ops[v].kind == OpKind::LoopCall && k.ops[v].index == l) {
          if (call != kNone) return kNone;
          call = v;
        }
  return call;
}

CallSite::CallSite(Kernel& kernel, uint32_t l, ValueId c)
    : k(kernel), loop(kernel.loops[l]), call(c), b(kernel.ops, nullptr),
      firstNew_(static_cast<ValueId>(kernel.ops.size())) {
  b.block = kernel.ops[c].block;
  b.loc = kernel.ops[c].loc;
}

uint32_t CallSite::addLiveIn(ValueId kv) {
  for (uint32_t i = 0; i < loop.liveIns.size(); ++i)
    if (loop.liveIns[i] == kv) return i;
  loop.liveIns.push_back(kv);
  return static_cast<uint32_t>(loop.liveIns.size() - 1);
}

void CallSite::finish() {
  k.ops[call].operands = loop.liveIns;
  std::vector<ValueId>& list = k.blocks[b.block].ops;
  std::vector<ValueId> made;
  for (auto n = firstNew_; n < k.ops.size(); ++n)
    made.push_back(n);
  list.insert(std::find(list.begin(), list.end(), call), made.begin(), made.end());
  firstNew_ = static_cast<ValueId>(k.ops.size());
}

ValueId reduceOperation(Builder& b, const Op& op) {
  return reducible(op.kind) ? Reducer(b).reduce(op) : kNone;
}

bool optimizeDatapath(Kernel& k) {
  bool changed = false;
  // An outer pipeline's inner loops take their live-ins from its renumbered body.
  for (Loop& loop : k.loops)
    if (reduceLoop(loop, k.datapath)) {
      changed = true;
      takeLiveInsFromCalls(k, loop);
    }
  // After the loops' own rewrites: a multiplication by a constant that became shifts and adds is no
  // induction variable's to take.
  for (uint32_t l = 0; l < k.loops.size(); ++l)
    if (const ValueId call = cfgCallOf(k, l); call != kNone && LoopHoister(k, l, call).run()) {
      changed = true;
      takeLiveInsFromCalls(k, k.loops[l]);
    }
  changed |= reduceCfg(k, k.datapath); // what was hoisted included
  return changed;
}

} // namespace spvhls::ir::lower
