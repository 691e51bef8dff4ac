// Known bits (docs/scheduling.md "Datapath optimisations"): which bits of each value are known to be
// 0 or 1 whatever the inputs, and the bitwise operations that need no logic once those are known.
//
// Byte packing at -O0 is `(uint)b0 << 24 | (uint)b1 << 16 | ...` and `(x >> 8) & 0xff`: ORs of values
// whose set bits never meet and ANDs that keep bits already known to be the value's own. Every such
// operation costs a LUT level, and without a clock period a cycle, though each bit of its result is a
// bit of one operand or a constant: wires. An AND, OR, XOR or carry-free ADD whose every result bit is
// that becomes a concatenation of bit ranges of its operands and constants; one where only some bits
// need the gate keeps it on those bits alone. An ADD or multiplication whose result fits fewer bits,
// unsigned (known-zero high bits) or signed (sign bits), is built that wide and extended. Every
// rewrite is exact for every operand value.
#include <algorithm>
#include <bit>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

struct Known {
  uint64_t zero = 0, one = 0; // bits known to be 0, known to be 1
};

uint32_t leadingZeros(const Known& k, uint32_t w) {
  const uint64_t unknownOrOne = ~k.zero & widthMask(w);
  return unknownOrOne ? w - static_cast<uint32_t>(std::bit_width(unknownOrOne)) : w;
}
uint32_t trailingZeros(const Known& k, uint32_t w) {
  return std::min<uint32_t>(w, static_cast<uint32_t>(std::countr_one(k.zero)));
}

} // namespace

// Known bits of the values of one op list (a loop body, or the kernel's CFG), computed on demand. Phis
// and everything the analysis does not model (loads, live-ins, arithmetic other than below) are
// unknown; values wider than 64 bits or not plain bits are never known.
class KnownBits {
public:
  explicit KnownBits(const std::vector<Op>& ops) : ops_(ops) {}

  Known of(ValueId v) {
    if (v >= state_.size()) state_.resize(ops_.size(), 0), memo_.resize(ops_.size());
    if (state_[v] == 2) return memo_[v];
    if (state_[v] == 1) return {}; // a cycle (only through phis, which are unknown anyway)
    state_[v] = 1;
    const Known k = compute(ops_[v]);
    state_[v] = 2;
    return memo_[v] = k;
  }
  static bool modelled(const Op& op) { return op.type.isBits() && op.width() <= 64; }

  // How many of v's top bits are copies of its sign bit (at least 1): a sign extension's, a small
  // constant's, a sum's or product of such values.
  uint32_t signBits(ValueId v) {
    if (v >= signState_.size()) signState_.resize(ops_.size(), 0), signMemo_.resize(ops_.size(), 1);
    if (signState_[v] == 2) return signMemo_[v];
    if (signState_[v] == 1) return 1;
    signState_[v] = 1;
    const uint32_t n = computeSignBits(v);
    signState_[v] = 2;
    return signMemo_[v] = n;
  }

private:
  uint32_t computeSignBits(ValueId v) {
    const Op& op = ops_[v];
    if (!modelled(op)) return 1;
    const uint32_t w = op.width();
    for (ValueId o : op.operands)
      if (o == kNone || !modelled(ops_[o])) return 1;
    // Known leading zeros or ones are sign bits too (leading ones: the leading zeros of the inverse).
    const Known k = of(v);
    uint32_t n = std::max({1u, leadingZeros(k, w), leadingZeros(Known{k.one, k.zero}, w)});
    auto in = [&](size_t i) { return signBits(op.operands[i]); };
    auto inWidth = [&](size_t i) { return ops_[op.operands[i]].width(); };
    switch (op.kind) {
    case OpKind::SExt:
      n = std::max(n, in(0) + (w - inWidth(0)));
      break;
    case OpKind::Trunc:
      if (in(0) > inWidth(0) - w) n = std::max(n, in(0) - (inWidth(0) - w));
      break;
    case OpKind::Extract:
      if (op.imm == 0 && in(0) > inWidth(0) - w) n = std::max(n, in(0) - (inWidth(0) - w));
      break;
    case OpKind::And:
    case OpKind::Or:
    case OpKind::Xor:
      n = std::max(n, std::min(in(0), in(1)));
      break;
    case OpKind::Not:
      n = std::max(n, in(0));
      break;
    case OpKind::Select:
      n = std::max(n, std::min(in(1), in(2)));
      break;
    case OpKind::Add:
    case OpKind::Sub:
      n = std::max(n, std::min(in(0), in(1)) - 1);
      break;
    case OpKind::Mul: {
      // Signed values of a and b significant bits: the product has at most a + b.
      const uint32_t bits = (w - in(0) + 1) + (w - in(1) + 1);
      if (bits < w) n = std::max(n, w - bits + 1);
      break;
    }
    default:
      break;
    }
    return std::min(n, w);
  }

  Known compute(const Op& op) {
    if (!modelled(op)) return {};
    const uint32_t w = op.width();
    const uint64_t mask = widthMask(w);
    auto in = [&](size_t i) { return of(op.operands[i]); };
    auto inWidth = [&](size_t i) { return ops_[op.operands[i]].width(); };
    auto operandsModelled = [&] {
      return std::all_of(op.operands.begin(), op.operands.end(),
                         [&](ValueId o) { return o != kNone && modelled(ops_[o]); });
    };
    if (op.kind != OpKind::Const && !operandsModelled()) return {};
    switch (op.kind) {
    case OpKind::Const:
      if (!op.immHigh.empty()) return {};
      return {~op.imm & mask, op.imm & mask};
    case OpKind::ZExt: {
      const Known x = in(0);
      return {x.zero | (mask & ~widthMask(inWidth(0))), x.one};
    }
    case OpKind::SExt: {
      const Known x = in(0);
      const uint64_t sign = uint64_t(1) << (inWidth(0) - 1), high = mask & ~widthMask(inWidth(0));
      return {x.zero | (x.zero & sign ? high : 0), x.one | (x.one & sign ? high : 0)};
    }
    case OpKind::Trunc: {
      const Known x = in(0);
      return {x.zero & mask, x.one & mask};
    }
    case OpKind::Extract: {
      const Known x = in(0);
      return {(x.zero >> op.imm) & mask, (x.one >> op.imm) & mask};
    }
    case OpKind::Concat: {
      Known r;
      uint32_t at = 0;
      for (size_t i = 0; i < op.operands.size(); ++i) {
        const Known x = in(i);
        r.zero |= x.zero << at, r.one |= x.one << at;
        at += inWidth(i);
      }
      return r;
    }
    case OpKind::And: {
      const Known x = in(0), y = in(1);
      return {x.zero | y.zero, x.one & y.one};
    }
    case OpKind::Or: {
      const Known x = in(0), y = in(1);
      return {x.zero & y.zero, x.one | y.one};
    }
    case OpKind::Xor: {
      const Known x = in(0), y = in(1);
      return {(x.zero & y.zero) | (x.one & y.one), (x.zero & y.one) | (x.one & y.zero)};
    }
    case OpKind::Not: {
      const Known x = in(0);
      return {x.one, x.zero};
    }
    case OpKind::Select: {
      const Known a = in(1), b = in(2);
      return {a.zero & b.zero, a.one & b.one};
    }
    case OpKind::Add: {
      // A carry out of the highest bit either operand may set reaches one bit higher at most; below
      // the lowest such bit nothing is set.
      const Known x = in(0), y = in(1);
      const uint32_t lz = std::min(leadingZeros(x, w), leadingZeros(y, w));
      const uint32_t tz = std::min(trailingZeros(x, w), trailingZeros(y, w));
      const uint64_t high = lz > 0 ? mask & ~widthMask(w - lz + 1) : 0;
      return {high | widthMask(tz), 0};
    }
    case OpKind::Mul: {
      const Known x = in(0), y = in(1);
      const uint32_t used = (w - leadingZeros(x, w)) + (w - leadingZeros(y, w));
      const uint32_t tz = std::min(w, trailingZeros(x, w) + trailingZeros(y, w));
      return {(used < w ? mask & ~widthMask(used) : 0) | widthMask(tz), 0};
    }
    default:
      return {};
    }
  }

  const std::vector<Op>& ops_;
  std::vector<uint8_t> state_, signState_; // 0 not computed, 1 in progress, 2 done
  std::vector<Known> memo_;
  std::vector<uint32_t> signMemo_;
};

namespace {

// Where each bit of a rewritten result comes from.
enum class Source : uint8_t { Zero, One, X, Y, Gate };

// `op` (its operands already in `b`'s list) as wires, or with its logic on fewer bits; kNone when the
// known bits change nothing.
ValueId simplify(Builder& b, KnownBits& known, const Op& op) {
  if (!BitRewriter::rewritable(op.kind) || !KnownBits::modelled(op) || op.operands.size() != 2) return kNone;
  const ValueId x = op.operands[0], y = op.operands[1];
  if (x == kNone || y == kNone || !KnownBits::modelled(b.op(x)) || !KnownBits::modelled(b.op(y)))
    return kNone;
  const uint32_t w = op.width();
  const Known kx = known.of(x), ky = known.of(y);

  // An ADD with carries or a multiplication: the same operation on the low n bits, extended, where
  // the result fits n bits as an unsigned value (from the operands' known-zero high bits) or as a
  // signed one (from their sign bits). The operands' low n bits are then the operands themselves.
  if (op.kind == OpKind::Mul ||
      (op.kind == OpKind::Add && ((kx.zero | ky.zero) & widthMask(w)) != widthMask(w))) {
    const uint32_t ux = w - leadingZeros(kx, w), uy = w - leadingZeros(ky, w);
    const uint32_t sx = w - known.signBits(x) + 1, sy = w - known.signBits(y) + 1;
    const bool mul = op.kind == OpKind::Mul;
    const uint32_t unsignedBits = mul ? ux + uy : std::max(ux, uy) + 1;
    const uint32_t signedBits = mul ? sx + sy : std::max(sx, sy) + 1;
    const bool sign = signedBits < unsignedBits;
    const uint32_t n = std::max(1u, std::min(unsignedBits, signedBits));
    if (n >= w) return kNone;
    return b.resize(b.binary(op.kind, b.extract(x, 0, n), b.extract(y, 0, n)), w, sign);
  }
  std::vector<Source> src(w);
  bool anyWire = false;
  for (uint32_t i = 0; i < w; ++i) {
    const uint64_t bit = uint64_t(1) << i;
    const bool zx = kx.zero & bit, zy = ky.zero & bit, ox = kx.one & bit, oy = ky.one & bit;
    Source s = Source::Gate;
    switch (op.kind) {
    case OpKind::And:
      s = zx || zy ? Source::Zero : ox && oy ? Source::One : oy ? Source::X : ox ? Source::Y : Source::Gate;
      break;
    case OpKind::Or:
      s = ox || oy ? Source::One : zx && zy ? Source::Zero : zy ? Source::X : zx ? Source::Y : Source::Gate;
      break;
    default: // Xor, and an Add without carries (at every bit one operand is 0)
      s = (zx && zy) || (ox && oy)   ? Source::Zero
          : (zx && oy) || (ox && zy) ? Source::One
          : zy                       ? Source::X
          : zx                       ? Source::Y
                                     : Source::Gate;
      break;
    }
    src[i] = s;
    anyWire = anyWire || s != Source::Gate;
  }
  if (!anyWire) return kNone;
  // Runs of bits of one source, lowest first.
  std::vector<ValueId> parts;
  for (uint32_t lo = 0; lo < w;) {
    uint32_t hi = lo + 1;
    while (hi < w && src[hi] == src[lo])
      ++hi;
    const uint32_t n = hi - lo;
    switch (src[lo]) {
    case Source::Zero:
      parts.push_back(b.constant(n, 0));
      break;
    case Source::One:
      parts.push_back(b.constant(n, widthMask(n)));
      break;
    case Source::X:
      parts.push_back(b.extract(x, lo, n));
      break;
    case Source::Y:
      parts.push_back(b.extract(y, lo, n));
      break;
    case Source::Gate:
      // An Add gets here only without carries, where Xor is the same function.
      parts.push_back(
          b.binary(op.kind == OpKind::Add ? OpKind::Xor : op.kind, b.extract(x, lo, n), b.extract(y, lo, n)));
      break;
    }
    lo = hi;
  }
  return b.concat(parts);
}

} // namespace

BitRewriter::BitRewriter(const std::vector<Op>& ops, const std::vector<Op>& original)
    : known_(std::make_unique<KnownBits>(ops)) {
  // Addresses into a memory the list stores to stay as they are: the memory dependence analysis
  // (ir/dependence.h) reads their adds and disjoint ORs as sums, which bit ranges of a value would
  // hide. (A memory only read has no dependences to find.)
  std::vector<uint8_t> stored;
  for (const Op& op : original)
    if (op.kind == OpKind::Store) {
      if (op.memory >= stored.size()) stored.resize(op.memory + 1, 0);
      stored[op.memory] = 1;
    }
  address_.assign(original.size(), 0);
  std::vector<ValueId> work;
  for (const Op& op : original)
    if ((op.kind == OpKind::Load || op.kind == OpKind::Store) && !op.operands.empty() &&
        op.memory < stored.size() && stored[op.memory])
      work.push_back(op.operands[0]);
  while (!work.empty()) {
    const ValueId v = work.back();
    work.pop_back();
    if (v == kNone || address_[v]) continue;
    address_[v] = 1;
    for (ValueId o : original[v].operands)
      work.push_back(o);
  }
}

BitRewriter::~BitRewriter() = default;

bool BitRewriter::rewritable(OpKind k) {
  return k == OpKind::And || k == OpKind::Or || k == OpKind::Xor || k == OpKind::Add || k == OpKind::Mul;
}

ValueId BitRewriter::rewrite(Builder& b, ValueId original, const Op& op) {
  if (original < address_.size() && address_[original]) return kNone;
  return simplify(b, *known_, op);
}

} // namespace spvhls::ir::lower
