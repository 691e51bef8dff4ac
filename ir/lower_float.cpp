// Floating-point comparisons and classifications, and the OpenCL.std built-ins that are integer
// logic on the IEEE bits: fmin, fmax, fdim and
// the roundings to an integral value (floor, ceil, trunc, round, rint). Each gives what the golden
// interpreter gives (the host's libm: glibc on x86-64), signed zeros and NaN payloads included.
#include <fmt/format.h>

#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace ocl = spirv::spv::OpenCLStd;

namespace {

// Bit-level helpers on one IEEE format, emitting IR ops.
struct FloatBits {
  Builder& b;
  uint32_t w, mant;
  uint64_t sign, magMask;

  FloatBits(Builder& builder, uint32_t width)
      : b(builder), w(width), mant(width == 16   ? 10
                                   : width == 32 ? 23
                                                 : 52),
        sign(uint64_t(1) << (width - 1)), magMask(sign - 1) {}
  ValueId k(uint64_t v) { return b.constant(w, v); }
  // Logic on 1-bit values (not the predicate helpers, whose kNone means "always").
  ValueId both(ValueId x, ValueId y) { return b.binary(OpKind::And, x, y); }
  ValueId either(ValueId x, ValueId y) { return b.binary(OpKind::Or, x, y); }
  ValueId no(ValueId x) { return b.unary(OpKind::Not, x); }
  ValueId op(OpKind kind, ValueId x, ValueId y) { return b.binary(kind, x, y); }
  ValueId magnitude(ValueId x) { return op(OpKind::And, x, k(magMask)); }
  uint64_t expOnes() const { return magMask & ~((uint64_t(1) << mant) - 1); }
  uint64_t quietBit() const { return uint64_t(1) << (mant - 1); }
  ValueId isNan(ValueId x) { return op(OpKind::UGt, magnitude(x), k(expOnes())); }
  ValueId isSignaling(ValueId x) {
    return both(isNan(x), op(OpKind::Eq, op(OpKind::And, x, k(quietBit())), k(0)));
  }
  ValueId quiet(ValueId x) { return op(OpKind::Or, x, k(quietBit())); }
  ValueId quietNan(ValueId x) { return b.select(isNan(x), quiet(x), x); }
  // The operand as glibc gets it from the interpreter: f32 and f16 widened to double, which quiets a
  // signalling NaN (sign and payload kept); f64 as it is.
  ValueId asGlibcSees(ValueId x) { return w == 64 ? x : quietNan(x); }
  ValueId negative(ValueId x) { return op(OpKind::UGt, x, k(magMask)); }
  // The bits mapped onto a line where the unsigned order is the float order (negative: every bit
  // flipped; positive: the sign bit set); +0 and -0 are neighbours there, not equal.
  ValueId key(ValueId v) {
    return b.select(negative(v), b.unary(OpKind::Not, v), op(OpKind::Or, v, k(sign)));
  }
  ValueId bothZero(ValueId x, ValueId y) {
    return op(OpKind::Eq, op(OpKind::Or, magnitude(std::min(x, y)), magnitude(std::max(x, y))), k(0));
  }
  // x < y for ordered x and y (false for equal zeros).
  ValueId less(ValueId x, ValueId y) { return both(no(bothZero(x, y)), op(OpKind::ULt, key(x), key(y))); }
};

} // namespace

ValueId floatMinMax(Builder& b, bool isMax, ValueId x, ValueId y) {
  FloatBits f(b, b.width(x));
  const ValueId xs = f.asGlibcSees(x), ys = f.asGlibcSees(y);
  const ValueId unordered = f.either(f.isNan(xs), f.isNan(ys));
  // glibc's generic fmin / fmax: x when it is strictly better, else y for ordered operands (equal
  // zeros of either sign too); with a signalling NaN x + y (the first NaN quieted, as x86 adds);
  // otherwise the operand that is not a NaN (x when both are).
  const ValueId better = isMax ? f.less(ys, xs) : f.less(xs, ys);
  const ValueId ordered = b.select(better, xs, ys);
  const ValueId sum = b.select(f.isNan(xs), f.quiet(xs), f.quiet(ys));
  const ValueId quietPick = b.select(f.isNan(ys), xs, ys);
  const ValueId nan = b.select(f.either(f.isSignaling(xs), f.isSignaling(ys)), sum, quietPick);
  return b.select(unordered, nan, ordered);
}

// A floating-point comparison, classification (OpIsNan, OpIsInf) or OpOrdered / OpUnordered as
// integer logic on the IEEE bits: a NaN has an all-ones exponent and a non-zero mantissa; +0 and -0
// are equal; otherwise the order of two floats is the unsigned order of their sign-magnitude bits
// mapped to a total order (negative: every bit flipped; positive: the sign bit set).
ValueId Translator::floatCompare(const LInst& in) {
  const ValueId a = valueOf(in.ids[0], in);
  const uint32_t w = b_.width(a);
  if (w != 16 && w != 32 && w != 64)
    c_.failAt(in, fmt::format("a {}-bit floating-point operand; expected half, float or double", w));
  if (widthOf(in.type, in) != 1) c_.failAt(in, "expected a bool result type");
  FloatBits f(b_, w);
  if (in.op == SpvOp::OpIsNan) return f.isNan(a);
  if (in.op == SpvOp::OpIsInf) return f.op(OpKind::Eq, f.magnitude(a), f.k(f.expOnes()));
  const ValueId b = operandOf(in.ids[1], w, in);
  const ValueId ordered = f.both(f.no(f.isNan(a)), f.no(f.isNan(b)));
  if (in.op == SpvOp::OpOrdered) return ordered;
  if (in.op == SpvOp::OpUnordered) return f.no(ordered);
  const ValueId equal = f.either(f.op(OpKind::Eq, a, b), f.bothZero(a, b));
  const ValueId less = f.less(a, b), greater = f.less(b, a);
  ValueId raw = kNone;
  bool unordered = false;
  switch (in.op) {
  case SpvOp::OpFUnordEqual:
    unordered = true;
    [[fallthrough]];
  case SpvOp::OpFOrdEqual:
    raw = equal;
    break;
  case SpvOp::OpFUnordNotEqual:
    unordered = true;
    [[fallthrough]];
  case SpvOp::OpFOrdNotEqual:
    raw = f.no(equal);
    break;
  case SpvOp::OpFUnordLessThan:
    unordered = true;
    [[fallthrough]];
  case SpvOp::OpFOrdLessThan:
    raw = less;
    break;
  case SpvOp::OpFUnordGreaterThan:
    unordered = true;
    [[fallthrough]];
  case SpvOp::OpFOrdGreaterThan:
    raw = greater;
    break;
  case SpvOp::OpFUnordLessThanEqual:
    unordered = true;
    [[fallthrough]];
  case SpvOp::OpFOrdLessThanEqual:
    raw = f.either(less, equal);
    break;
  case SpvOp::OpFUnordGreaterThanEqual:
    unordered = true;
    [[fallthrough]];
  default:
    raw = f.either(greater, equal);
    break; // OpFOrdGreaterThanEqual
  }
  return unordered ? f.either(f.no(ordered), raw) : f.both(ordered, raw);
}

std::optional<ValueId> Translator::floatBuiltin(uint32_t n, const std::function<ValueId(size_t)>& arg,
                                                const LInst& in) {
  switch (n) {
  case ocl::Fmin:
  case ocl::Fmax:
  case ocl::Fdim:
  case ocl::Floor:
  case ocl::Ceil:
  case ocl::Trunc:
  case ocl::Round:
  case ocl::Rint:
    break;
  default:
    return mathBuiltin(n, arg, in);
  }
  const ValueId x = arg(0);
  const uint32_t w = b_.width(x);
  if (w != 16 && w != 32 && w != 64)
    c_.failAt(in, fmt::format("a {}-bit floating-point operand; expected half, float or double", w));
  FloatBits f(b_, w);
  if (n == ocl::Fmin || n == ocl::Fmax || n == ocl::Fdim) {
    const ValueId y = arg(1);
    if (b_.width(y) != w) c_.failAt(in, "operands of different widths");
    if (n != ocl::Fdim) return floatMinMax(b_, n == ocl::Fmax, x, y);
    // glibc: x <= y gives +0; otherwise, NaNs too, x - y.
    const ValueId xs = f.asGlibcSees(x), ys = f.asGlibcSees(y);
    const ValueId unordered = f.either(f.isNan(xs), f.isNan(ys));
    return b_.select(f.both(f.no(unordered), f.no(f.less(ys, xs))), f.k(0), f.op(OpKind::FSub, xs, ys));
  }
  // Roundings to an integral value, on the magnitude: an exponent of mant or more is integral already
  // (or infinite, or a NaN: quieted); below 1 the result is 0 or 1 with x's sign; otherwise the
  // fraction's bits are cleared and one unit of the integer part is added where the mode rounds away
  // from zero (a carry into the exponent is the right result).
  const uint64_t bias = (uint64_t(1) << (w - f.mant - 2)) - 1, one = bias << f.mant;
  const ValueId signBit = f.op(OpKind::And, x, f.k(f.sign)), mag = f.magnitude(x);
  const ValueId e = f.op(OpKind::LShr, mag, f.k(f.mant));
  const ValueId integral = f.op(OpKind::UGe, e, f.k(bias + f.mant));
  const ValueId belowOne = f.op(OpKind::ULt, e, f.k(bias));
  const ValueId nonzero = f.op(OpKind::Ne, mag, f.k(0));
  const ValueId neg = f.negative(x);
  // |x| < 1: away from zero (to 1) or toward it (to 0).
  ValueId smallAway;
  switch (n) {
  case ocl::Floor:
    smallAway = f.both(neg, nonzero);
    break;
  case ocl::Ceil:
    smallAway = f.both(f.no(neg), nonzero);
    break;
  case ocl::Trunc:
    smallAway = b_.constant(1, 0);
    break;
  case ocl::Round:
    smallAway = f.op(OpKind::Eq, e, f.k(bias - 1));
    break; // 0.5 <= |x| < 1
  default: // Rint: above one half (one half itself goes to the even 0)
    smallAway = f.op(OpKind::UGt, mag, f.k((bias - 1) << f.mant));
    break;
  }
  const ValueId small = f.op(OpKind::Or, signBit, b_.select(smallAway, f.k(one), f.k(0)));
  // 1 <= |x| < 2^mant: `frac` fraction bits below bit fb.
  const ValueId fb = f.op(OpKind::Sub, f.k(bias + f.mant), e);
  const ValueId unit = f.op(OpKind::Shl, f.k(1), fb);
  const ValueId fracMask = f.op(OpKind::Sub, unit, f.k(1));
  const ValueId frac = f.op(OpKind::And, mag, fracMask);
  const ValueId truncated = f.op(OpKind::And, mag, b_.unary(OpKind::Not, fracMask));
  const ValueId half = f.op(OpKind::LShr, unit, f.k(1));
  const ValueId inexact = f.op(OpKind::Ne, frac, f.k(0));
  ValueId away;
  switch (n) {
  case ocl::Floor:
    away = f.both(neg, inexact);
    break;
  case ocl::Ceil:
    away = f.both(f.no(neg), inexact);
    break;
  case ocl::Trunc:
    away = b_.constant(1, 0);
    break;
  case ocl::Round:
    away = f.op(OpKind::UGe, frac, half);
    break;
  default: { // Rint: above half, or exactly half with an odd integer part
    const ValueId odd = f.op(OpKind::Ne, f.op(OpKind::And, mag, unit), f.k(0));
    away = f.either(f.op(OpKind::UGt, frac, half), f.both(f.op(OpKind::Eq, frac, half), odd));
    break;
  }
  }
  const ValueId rounded =
      f.op(OpKind::Or, signBit, b_.select(away, f.op(OpKind::Add, truncated, unit), truncated));
  // A NaN: quieted, except that glibc's double floor, ceil, trunc and rint return a signalling one as
  // it is (f32 and f16 operands reach glibc widened to double, which quiets them).
  const bool keepsSignaling = w == 64 && n != ocl::Round;
  const ValueId big = keepsSignaling ? x : f.quietNan(x);
  return b_.select(integral, big, b_.select(belowOne, small, rounded));
}

} // namespace spvhls::ir::lower
