// Builder: appends IR ops with constant folding and a few algebraic simplifications.
#include <bit>
#include <cmath>
#include <cstring>

#include "frontend/fp_round_directed.h"
#include "frontend/fp_round_odd.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

uint64_t widthMask(uint32_t width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

int64_t signExtend(uint64_t v, uint32_t width) {
  if (width == 0 || width >= 64) return static_cast<int64_t>(v);
  uint64_t m = 1ull << (width - 1);
  v &= widthMask(width);
  return static_cast<int64_t>((v ^ m) - m);
}

bool isCompare(OpKind k) { return opInfo(k).opClass == OpClass::Compare; }

namespace {

template <typename T> T fromBits(uint64_t v) {
  T x;
  std::memcpy(&x, &v, sizeof(T));
  return x;
}
template <typename T> uint64_t toBits(T x) {
  uint64_t v = 0;
  std::memcpy(&v, &x, sizeof(T));
  return v;
}

// IEEE arithmetic on the host, as the golden interpreter does it (sim/interp_float.cpp): f32 and f64
// natively (x86-64 SSE), f16 in double rounded once to half, which is exact for + - * / and sqrt.
template <typename T> T floatOp(OpKind k, T a, T b) {
  switch (k) {
  case OpKind::FAdd:
    return a + b;
  case OpKind::FSub:
    return a - b;
  case OpKind::FDiv:
    return a / b;
  case OpKind::FSqrt:
    return std::sqrt(a);
  default:
    return a * b;
  }
}

uint32_t mantBits(uint32_t w) {
  return w == 16 ? 10 : w == 32 ? 23 : 52;
}
bool isNanBits(uint64_t x, uint32_t w) {
  const uint64_t mag = widthMask(w) >> 1;
  return (x & mag) > (mag & ~widthMask(mantBits(w)));
}
// A w-bit float as a double (exact for all three widths).
double toDouble(uint64_t x, uint32_t w) {
  return w == 16   ? static_cast<double>(fromBits<_Float16>(x))
         : w == 32 ? static_cast<double>(fromBits<float>(x))
                   : fromBits<double>(x);
}
// A double rounded once (to nearest even) to a w-bit float.
uint64_t fromDouble(double d, uint32_t w) {
  return w == 16 ? toBits(static_cast<_Float16>(d)) : w == 32 ? toBits(static_cast<float>(d)) : toBits(d);
}

uint64_t floatArith(OpKind k, uint32_t w, uint64_t a, uint64_t b) {
  // A NaN operand comes back quieted, the first one if both are (x86 SSE; the interpreter pins the
  // same order, which a compiler could otherwise swap for a commutative operation).
  for (uint64_t x : {a, b}) {
    if (isNanBits(x, w)) return x | (1ull << (mantBits(w) - 1));
    if (k == OpKind::FSqrt) break; // one operand
  }
  switch (w) {
  case 16:
    return fromDouble(floatOp(k, toDouble(a, 16), toDouble(b, 16)), 16);
  case 32:
    return toBits(floatOp(k, fromBits<float>(a), fromBits<float>(b)));
  default:
    return toBits(floatOp(k, fromBits<double>(a), fromBits<double>(b)));
  }
}

// The interpreter's fmaHalf (sim/interp_float.cpp): one rounding to half of the round-to-odd double.
uint64_t fmaHalf(double a, double b, double c) {
  return fromDouble(fp::fmaHalfToOdd(a, b, c), 16);
}

// a * b + c rounded once, as the interpreter's arith computes fma: the first NaN of a, b, c quieted,
// else the host's fmaf / fma, or fmaHalf.
uint64_t floatFma(uint32_t w, uint64_t a, uint64_t b, uint64_t c) {
  for (uint64_t x : {a, b, c})
    if (isNanBits(x, w)) return x | (1ull << (mantBits(w) - 1));
  switch (w) {
  case 16:
    return fmaHalf(toDouble(a, 16), toDouble(b, 16), toDouble(c, 16));
  case 32:
    return toBits(std::fma(fromBits<float>(a), fromBits<float>(b), fromBits<float>(c)));
  default:
    return toBits(std::fma(fromBits<double>(a), fromBits<double>(b), fromBits<double>(c)));
  }
}

// x rounded to nearest (`nearest`, a `to`-bit float) rounded in `rounding` instead.
uint64_t redirect(uint64_t nearest, long double x, uint32_t to, uint8_t rounding) {
  return fp::roundDirected(nearest, toDouble(nearest, to), x, to, static_cast<fp::Rounding>(rounding));
}

// Conversions, as the interpreter makes them (sim/interp_float.cpp); to float in `rounding` (SPIR-V
// FPRoundingMode), to integer toward zero.
std::optional<uint64_t> convert(OpKind k, uint32_t to, uint32_t from, uint64_t a, uint8_t rounding) {
  switch (k) {
  case OpKind::SIToFP: {
    const int64_t s = signExtend(a, from);
    return redirect(to == 32   ? toBits(static_cast<float>(s))
                    : to == 64 ? toBits(static_cast<double>(s))
                               : fromDouble(static_cast<double>(s), 16),
                    static_cast<long double>(s), to, rounding);
  }
  case OpKind::UIToFP:
    return redirect(to == 32   ? toBits(static_cast<float>(a))
                    : to == 64 ? toBits(static_cast<double>(a))
                               : fromDouble(static_cast<double>(a), 16),
                    static_cast<long double>(a), to, rounding);
  case OpKind::FPToSI:
  case OpKind::FPToUI: {
    // Toward zero; out of range saturates and NaN gives 0 (OpenCL's _sat; undefined otherwise).
    const double v = toDouble(a, from), t = std::trunc(v);
    const bool sgn = k == OpKind::FPToSI;
    const double lo = sgn ? -std::ldexp(1.0, int(to) - 1) : 0.0,
                 hi = std::ldexp(1.0, sgn ? int(to) - 1 : int(to));
    if (std::isnan(v)) return 0;
    if (t < lo) return sgn ? (uint64_t(1) << (to - 1)) : 0;
    if (t >= hi) return sgn ? widthMask(to) >> 1 : widthMask(to);
    if (sgn) return static_cast<uint64_t>(static_cast<int64_t>(t)) & widthMask(to);
    return t >= 0x1p63 ? static_cast<uint64_t>(t - 0x1p63) | (uint64_t(1) << 63) : static_cast<uint64_t>(t);
  }
  case OpKind::FPToFP:
    if (isNanBits(a, from)) { // quieted, its sign and the top of its payload kept
      const uint64_t sign = (a >> (from - 1)) & 1, payload = a & widthMask(mantBits(from));
      const uint64_t moved = mantBits(to) >= mantBits(from) ? payload << (mantBits(to) - mantBits(from))
                                                            : payload >> (mantBits(from) - mantBits(to));
      return sign << (to - 1) | ((widthMask(to) >> 1) & ~widthMask(mantBits(to))) | moved |
             uint64_t(1) << (mantBits(to) - 1);
    }
    return redirect(fromDouble(toDouble(a, from), to), toDouble(a, from), to, rounding);
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<uint64_t> foldConstant(OpKind k, uint32_t width, const std::vector<uint64_t>& vals, uint32_t w,
                                     uint8_t rounding) {
  const uint64_t m = widthMask(w);
  uint64_t a = vals.size() > 0 ? vals[0] & m : 0, b = vals.size() > 1 ? vals[1] & m : 0;
  int64_t sa = signExtend(a, w), sb = signExtend(b, w);
  uint64_t r = 0;
  switch (k) {
  case OpKind::Add: r = a + b; break;
  case OpKind::Sub: r = a - b; break;
  case OpKind::Mul: r = a * b; break;
  case OpKind::UDiv: if (b == 0) return std::nullopt; r = a / b; break;
  case OpKind::URem: if (b == 0) return std::nullopt; r = a % b; break;
  case OpKind::SDiv:
  case OpKind::SRem:
  case OpKind::SMod: {
    if (b == 0) return std::nullopt;
    // INT_MIN / -1 overflows in C++; SPIR-V leaves it undefined, so do not fold it.
    if (sb == -1 && sa == signExtend(1ull << (w - 1), w)) return std::nullopt;
    if (k == OpKind::SDiv) r = static_cast<uint64_t>(sa / sb);
    else if (k == OpKind::SRem) r = static_cast<uint64_t>(sa % sb);
    else {
      int64_t rem = sa % sb;
      if (rem != 0 && ((rem < 0) != (sb < 0))) rem += sb; // sign of the divisor
      r = static_cast<uint64_t>(rem);
    }
    break;
  }
  case OpKind::Neg: r = 0 - a; break;
  case OpKind::Not: r = ~a; break;
  case OpKind::And: r = a & b; break;
  case OpKind::Or: r = a | b; break;
  case OpKind::Xor: r = a ^ b; break;
  case OpKind::Shl: r = a << (b % w); break;
  case OpKind::LShr: r = a >> (b % w); break;
  case OpKind::AShr: r = static_cast<uint64_t>(sa >> (b % w)); break;
  case OpKind::Eq: return a == b;
  case OpKind::Ne: return a != b;
  case OpKind::ULt: return a < b;
  case OpKind::ULe: return a <= b;
  case OpKind::UGt: return a > b;
  case OpKind::UGe: return a >= b;
  case OpKind::SLt: return sa < sb;
  case OpKind::SLe: return sa <= sb;
  case OpKind::SGt: return sa > sb;
  case OpKind::SGe: return sa >= sb;
  case OpKind::ZExt: r = a; break;
  case OpKind::SExt: r = static_cast<uint64_t>(sa); break;
  case OpKind::Trunc: r = a; break;
  case OpKind::FAdd:
  case OpKind::FSub:
  case OpKind::FMul:
  case OpKind::FDiv:
  case OpKind::FSqrt:
    if (w != 16 && w != 32 && w != 64) return std::nullopt;
    r = floatArith(k, w, a, b);
    break;
  case OpKind::FFma:
    if ((w != 16 && w != 32 && w != 64) || vals.size() != 3) return std::nullopt;
    r = floatFma(w, a, b, vals[2] & m);
    break;
  case OpKind::SIToFP:
  case OpKind::UIToFP:
  case OpKind::FPToSI:
  case OpKind::FPToUI:
  case OpKind::FPToFP:
    return convert(k, width, w, a, rounding);
  default: return std::nullopt;
  }
  return r & widthMask(width);
}

namespace {
bool isPure(OpKind k) {
  if (hasSideEffect(k)) return false; // never merged (task operations, calls, stores)
  switch (k) {
  case OpKind::Load: case OpKind::Store: case OpKind::Phi: case OpKind::LoopCall: case OpKind::LoopOut:
  case OpKind::LoopPhi:
  case OpKind::LiveIn:
  case OpKind::Arg:
  case OpKind::WorkItem: // index (the built-in) is not part of the key
  case OpKind::SgScan:   // nor the combiner
  case OpKind::Undef:
  case OpKind::Call:
  case OpKind::Param:
    return false;
  default:
    return true;
  }
}
} // namespace

ValueId Builder::emit(Op op) {
  op.block = block;
  if (!op.loc.known && op.loc.line == 0) op.loc = loc;
  std::vector<uint64_t> key;
  if (isPure(op.kind) && op.kind != OpKind::Const) {
    key = {block, static_cast<uint64_t>(op.kind), op.width(), op.imm, op.rounding};
    key.insert(key.end(), op.operands.begin(), op.operands.end());
    if (auto it = pure_.find(key); it != pure_.end()) return it->second;
  }
  ValueId v = static_cast<ValueId>(ops_.size());
  if (!key.empty()) pure_[key] = v;
  ops_.push_back(std::move(op));
  if (blocks_) (*blocks_)[block].ops.push_back(v);
  return v;
}

std::optional<uint64_t> Builder::constValue(ValueId v) const {
  if (v == kNone || ops_[v].kind != OpKind::Const) return std::nullopt;
  return ops_[v].imm;
}

ValueId Builder::constant(uint32_t width, uint64_t value) {
  value &= widthMask(width);
  uint64_t key = (static_cast<uint64_t>(width) << 56) ^ value;
  auto it = consts_.find(key);
  if (it != consts_.end() && ops_[it->second].imm == value && ops_[it->second].width() == width)
    return it->second;
  Op op;
  op.kind = OpKind::Const;
  op.type = Type::bits(width);
  op.imm = value;
  // Kernel constants start in the entry block; compaction gives each using block its own copy.
  uint32_t saved = block;
  if (blocks_) block = 0;
  ValueId v = emit(std::move(op));
  block = saved;
  ops_[v].loc = {};
  consts_[key] = v;
  return v;
}

ValueId Builder::undef(uint32_t width) {
  Op op;
  op.kind = OpKind::Undef;
  op.type = Type::bits(width);
  uint32_t saved = block;
  if (blocks_) block = 0;
  ValueId v = emit(std::move(op));
  block = saved;
  return v;
}

std::optional<bool> foldUnsignedBound(OpKind k, uint32_t width, std::optional<uint64_t> ca,
                                      std::optional<uint64_t> cb) {
  const uint64_t max = widthMask(width);
  auto is = [](std::optional<uint64_t> c, uint64_t v) { return c && *c == v; };
  switch (k) {
  case OpKind::ULt: if (is(cb, 0) || is(ca, max)) return false; break;
  case OpKind::UGt: if (is(ca, 0) || is(cb, max)) return false; break;
  case OpKind::ULe: if (is(ca, 0) || is(cb, max)) return true; break;
  case OpKind::UGe: if (is(cb, 0) || is(ca, max)) return true; break;
  default: break;
  }
  return std::nullopt;
}

bool splitConstantAdd(const std::vector<Op>& ops, const Op& a, ValueId& x, uint64_t& c) {
  if ((a.kind != OpKind::Add && a.kind != OpKind::Sub) || a.operands.size() != 2) return false;
  auto constant = [&](ValueId v) -> std::optional<uint64_t> {
    const Op& k = ops[v];
    return k.kind == OpKind::Const && k.immHigh.empty() ? std::optional(k.imm) : std::nullopt;
  };
  if (const auto k = constant(a.operands[1])) {
    x = a.operands[0], c = a.kind == OpKind::Add ? *k : 0 - *k;
    return !constant(x);
  }
  if (const auto k = constant(a.operands[0]); k && a.kind == OpKind::Add) {
    x = a.operands[1], c = *k;
    return !constant(x);
  }
  return false;
}

ValueId Builder::phi(Type type, std::string name) {
  Op op;
  op.kind = OpKind::Phi;
  op.type = type;
  op.name = std::move(name);
  return emit(std::move(op));
}

ValueId Builder::extract(ValueId a, uint32_t lo, uint32_t w) {
  if (lo == 0 && w == width(a)) return a;
  // Bits of a part: that part's (so that x + 4, made {x[63:5], 0b00100} by the known bits, has the
  // same x[63:5] as x made {x[63:5], 0} does, and address analysis sees one base).
  const Op& from = ops_[a];
  if (from.kind == OpKind::Extract) return extract(from.operands[0], lo + static_cast<uint32_t>(from.imm), w);
  if (from.kind == OpKind::Concat) {
    uint32_t at = 0;
    for (ValueId part : from.operands) {
      const uint32_t pw = width(part);
      if (lo >= at && lo + w <= at + pw) return extract(part, lo - at, w);
      at += pw;
    }
  }
  Op op;
  op.kind = OpKind::Extract;
  op.type = Type::bits(w);
  op.imm = lo;
  op.operands = {a};
  return emit(std::move(op));
}

ValueId Builder::concat(const std::vector<ValueId>& parts) {
  if (parts.size() == 1) return parts[0];
  uint32_t w = 0;
  for (ValueId p : parts)
    w += width(p);
  Op op;
  op.kind = OpKind::Concat;
  op.type = Type::bits(w);
  op.operands = parts;
  return emit(std::move(op));
}

ValueId Builder::binary(OpKind k, ValueId a, ValueId b) {
  const uint32_t w = width(a);
  const uint32_t rw = isCompare(k) ? 1 : w;
  auto ca = constValue(a), cb = constValue(b);
  if (ca && cb)
    if (auto r = foldConstant(k, rw, {*ca, *cb}, w)) return constant(rw, *r);
  if (auto r = foldUnsignedBound(k, w, ca, cb)) return constant(1, *r);
  // Identities that -O0 code and address arithmetic produce all the time.
  switch (k) {
  case OpKind::Add:
    if (cb && *cb == 0) return a;
    if (ca && *ca == 0) return b;
    break;
  case OpKind::Sub:
  case OpKind::Shl:
  case OpKind::LShr:
  case OpKind::AShr:
    if (cb && *cb == 0) return a;
    break;
  case OpKind::Mul:
    if (cb && *cb == 1) return a;
    if (ca && *ca == 1) return b;
    if ((cb && *cb == 0) || (ca && *ca == 0)) return constant(w, 0);
    break;
  case OpKind::And:
    if (a == b) return a;
    if (cb && *cb == widthMask(w)) return a;
    if (ca && *ca == widthMask(w)) return b;
    if ((cb && *cb == 0) || (ca && *ca == 0)) return constant(w, 0);
    break;
  case OpKind::Or:
    if (a == b) return a;
    if (cb && *cb == 0) return a;
    if (ca && *ca == 0) return b;
    if ((cb && *cb == widthMask(w)) || (ca && *ca == widthMask(w))) return constant(w, widthMask(w));
    break;
  case OpKind::Xor:
    if (cb && *cb == 0) return a;
    if (ca && *ca == 0) return b;
    break;
  default:
    break;
  }
  Op op;
  op.kind = k;
  op.type = Type::bits(rw);
  op.operands = {a, b};
  return emit(std::move(op));
}

ValueId Builder::unary(OpKind k, ValueId a) {
  const uint32_t w = width(a);
  if (auto ca = constValue(a))
    if (auto r = foldConstant(k, w, {*ca}, w)) return constant(w, *r);
  if (ops_[a].kind == k) return ops_[a].operands[0]; // Not(Not x), Neg(Neg x)
  Op op;
  op.kind = k;
  op.type = Type::bits(w);
  op.operands = {a};
  return emit(std::move(op));
}

ValueId Builder::select(ValueId c, ValueId a, ValueId b) {
  if (a == b) return a;
  if (auto cc = constValue(c)) return *cc ? a : b;
  Op op;
  op.kind = OpKind::Select;
  op.type = Type::bits(width(a));
  op.operands = {c, a, b};
  return emit(std::move(op));
}

ValueId Builder::resize(ValueId a, uint32_t w, bool isSigned) {
  const uint32_t from = width(a);
  if (from == w) return a;
  OpKind k = w < from ? OpKind::Trunc : isSigned ? OpKind::SExt : OpKind::ZExt;
  if (auto ca = constValue(a)) return constant(w, *foldConstant(k, w, {*ca}, from));
  Op op;
  op.kind = k;
  op.type = Type::bits(w);
  op.operands = {a};
  return emit(std::move(op));
}

ValueId Builder::mulConst(ValueId a, uint64_t c) {
  const uint32_t w = width(a);
  if (c != 0 && std::has_single_bit(c))
    return binary(OpKind::Shl, a, constant(w, static_cast<uint64_t>(std::countr_zero(c))));
  return binary(OpKind::Mul, a, constant(w, c));
}

ValueId Builder::predAnd(ValueId a, ValueId b) {
  if (a == kNone) return b;
  if (b == kNone) return a;
  if (auto ca = constValue(a)) return *ca ? b : a;
  if (auto cb = constValue(b)) return *cb ? a : b;
  return binary(OpKind::And, a, b);
}

ValueId Builder::predOr(ValueId a, ValueId b) {
  if (a == kNone || b == kNone) return kNone;
  if (auto ca = constValue(a)) return *ca ? kNone : b;
  if (auto cb = constValue(b)) return *cb ? kNone : a;
  // p&c | p&!c = p: the two arms of a branch joining again.
  const Op& oa = ops_[a];
  const Op& ob = ops_[b];
  if (oa.kind == OpKind::And && ob.kind == OpKind::And && oa.operands[0] == ob.operands[0]) {
    ValueId x = oa.operands[1], y = ob.operands[1];
    if ((ops_[x].kind == OpKind::Not && ops_[x].operands[0] == y) ||
        (ops_[y].kind == OpKind::Not && ops_[y].operands[0] == x))
      return oa.operands[0];
  }
  if ((oa.kind == OpKind::Not && oa.operands[0] == b) || (ob.kind == OpKind::Not && ob.operands[0] == a))
    return kNone;
  return binary(OpKind::Or, a, b);
}

ValueId Builder::predNot(ValueId a) {
  if (a == kNone) return constant(1, 0);
  return unary(OpKind::Not, a);
}

} // namespace spvhls::ir::lower
