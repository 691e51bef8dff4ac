// OpenCL.std rsqrt and fmod in hardware, built from existing operations.
//
// rsqrt(x) = 1 / sqrt(x) on the sqrt and divide units of a wider format, rounded once to x's format:
// for half and float that is the correctly rounded result and the interpreter's bit for bit (it
// computes the same quotient in double, sim/interp_float.cpp); for double, two roundings (sqrt, then
// the quotient), an approximation within 1 ulp (docs/floating-point.md).
//
// fmod(x, y) is exact: with |x| = mx * 2^ex and |y| = my * 2^ey (integer significands, ex >= ey), the
// remainder is (mx * 2^(ex - ey)) mod my, times 2^ey. It is built as an unrolled long division on
// narrow integers: mx mod my bit by bit (one conditional subtraction per significand bit), then one
// doubling step (r = 2r mod my) per unit of the exponent difference, grouped by the difference's bits
// (group k: 2^k steps, kept when bit k of ex - ey is set). f32: 24 + 255 steps; f16: 11 + 31. Each
// step is a chain of pipeline cycles (no chaining of operations within a cycle), so the f32 remainder
// is long and wide in a pipeline (docs/floating-point.md has its cost). Double (53 + 2047 steps) is
// rejected by name.
#include <fmt/format.h>

#include "ir/lower_math.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace ocl = spirv::spv::OpenCLStd;

ValueId emitFolded(Builder& b, OpKind kind, uint32_t width, const std::vector<ValueId>& operands,
                   uint64_t imm) {
  std::vector<uint64_t> cs;
  for (ValueId o : operands)
    if (auto c = b.constValue(o)) cs.push_back(*c);
  if (cs.size() == operands.size())
    if (auto r = foldConstant(kind, width, cs, imm ? uint32_t(imm) : b.width(operands[0])))
      return b.constant(width, *r);
  Op o;
  o.kind = kind;
  o.type = Type::bits(width);
  o.imm = imm;
  o.operands = operands;
  return b.emit(std::move(o));
}

uint32_t rsqrtWideWidth(uint32_t w) {
  return w == 64 ? 64 : w == 32 ? 64 : 32;
}

ValueId buildRsqrt(Builder& b, ValueId x) {
  const uint32_t w = b.width(x), wide = rsqrtWideWidth(w);
  const ValueId xw = wide == w ? x : emitFolded(b, OpKind::FPToFP, wide, {x}, w);
  const uint64_t one = wide == 64 ? 0x3ff0000000000000 : 0x3f800000;
  const ValueId q = emitFolded(b, OpKind::FDiv, wide,
                               {b.constant(wide, one), emitFolded(b, OpKind::FSqrt, wide, {xw}, 0)}, 0);
  return wide == w ? q : emitFolded(b, OpKind::FPToFP, w, {q}, wide);
}

ValueId buildFmod(Builder& b, ValueId x, ValueId y) {
  const uint32_t w = b.width(x);
  const uint32_t mant = w == 16 ? 10 : 23, bias = w == 16 ? 15 : 127, expBits = w - 1 - mant;
  // The long division runs on iw-bit integers (2r < 2^(mant + 2)) and the exponent difference's
  // `groups` bits: what a pipeline carries through its many stages is kept narrow.
  const uint32_t iw = mant + 3, groups = w == 16 ? 5 : 8;
  auto k = [&](uint64_t v) { return b.constant(w, v); };
  auto ki = [&](uint64_t v) { return b.constant(iw, v); };
  auto op = [&](OpKind kind, ValueId l, ValueId r) { return b.binary(kind, l, r); };
  const uint64_t sign = uint64_t(1) << (w - 1), inf = (sign - 1) & ~((uint64_t(1) << mant) - 1);
  const uint64_t hidden = uint64_t(1) << mant, quiet = hidden >> 1;
  const ValueId ax = op(OpKind::And, x, k(sign - 1)), ay = op(OpKind::And, y, k(sign - 1));
  // The results that need no division, decided first: glibc's fmodf gives (x * y) / (x * y) when y is
  // 0 or NaN or x is not finite (a NaN operand quieted, x's first, else the default NaN), and x itself
  // when |x| < |y|.
  const ValueId nanX = op(OpKind::UGt, ax, k(inf)), nanY = op(OpKind::UGt, ay, k(inf));
  const ValueId invalid = op(OpKind::Or, op(OpKind::Eq, ay, k(0)), op(OpKind::Eq, ax, k(inf)));
  const ValueId nan = b.select(nanX, op(OpKind::Or, x, k(quiet)),
                               b.select(nanY, op(OpKind::Or, y, k(quiet)), k(sign | inf | quiet)));
  const ValueId special = op(OpKind::Or, op(OpKind::Or, nanX, nanY), invalid);
  const ValueId early = b.select(special, nan, x);
  const ValueId useEarly = op(OpKind::Or, special, op(OpKind::ULt, ax, ay));
  // Integer significand and exponent field (a subnormal's taken as 1).
  auto split = [&](ValueId a, ValueId& m, ValueId& e) {
    const ValueId field = b.resize(op(OpKind::LShr, a, k(mant)), expBits, false);
    const ValueId normal = op(OpKind::Ne, field, b.constant(expBits, 0));
    m = b.resize(op(OpKind::Or, op(OpKind::And, a, k(hidden - 1)), b.select(normal, k(hidden), k(0))), iw,
                 false);
    e = b.select(normal, field, b.constant(expBits, 1));
  };
  ValueId mx, ex, my, ey;
  split(ax, mx, ex);
  split(ay, my, ey);
  // One step: r = s mod my for s = 2r (+ a bit) < 2 my; the subtraction and the comparison side by
  // side (each op is a pipeline cycle: 3 per step, 4 with a bit shifted in).
  auto step = [&](ValueId s) { return b.select(op(OpKind::UGe, s, my), op(OpKind::Sub, s, my), s); };
  // mx mod my: mx's bits shifted in from the top.
  ValueId r = ki(0);
  for (uint32_t bit = mant + 1; bit-- > 0;)
    r = step(op(OpKind::Or, op(OpKind::Shl, r, ki(1)),
                b.resize(b.resize(op(OpKind::LShr, mx, ki(bit)), 1, false), iw, false)));
  // * 2^(ex - ey) mod my, ex - ey < 2^groups: group g is 2^g doubling steps, kept when bit g is set.
  const ValueId d = b.resize(op(OpKind::Sub, ex, ey), groups, false);
  for (uint32_t g = 0; g < groups; ++g) {
    ValueId t = r;
    for (uint32_t s = 0; s < (1u << g); ++s)
      t = step(op(OpKind::Shl, t, ki(1)));
    r = b.select(b.resize(op(OpKind::LShr, d, b.constant(groups, g)), 1, false), t, r);
  }
  // r * 2^(ey - bias - mant), representable (it is below |y|): a normal number is r's exact
  // conversion with the exponent field raised by ey - bias - mant; a subnormal is r << (ey - 1). Every
  // op here depends on r, so that a pipeline carries only ey, x's sign and the early result so far.
  const uint32_t fw = expBits + 2; // r's exponent field plus ey
  const ValueId rw = b.resize(r, w, false);
  const ValueId conv = emitFolded(b, OpKind::UIToFP, w, {rw}, w);
  const ValueId field =
      op(OpKind::Add, b.resize(op(OpKind::LShr, conv, k(mant)), fw, false), b.resize(ey, fw, false));
  const ValueId isNormal = op(OpKind::UGt, field, b.constant(fw, bias + mant));
  const ValueId normalBits =
      op(OpKind::Or, op(OpKind::And, conv, k(hidden - 1)),
         op(OpKind::Shl, b.resize(op(OpKind::Sub, field, b.constant(fw, bias + mant)), w, false), k(mant)));
  // Subnormal: ey <= mant, so r << ey by its low bits, then >> 1.
  ValueId shifted = rw;
  for (uint32_t bit = 0; (1u << bit) <= mant; ++bit)
    shifted = b.select(b.resize(op(OpKind::LShr, ey, b.constant(expBits, bit)), 1, false),
                       op(OpKind::Shl, shifted, k(uint64_t(1) << bit)), shifted);
  const ValueId mag = b.select(isNormal, normalBits, op(OpKind::LShr, shifted, k(1)));
  const ValueId signX = b.resize(op(OpKind::LShr, x, k(w - 1)), 1, false);
  const ValueId unsignedRem = b.select(op(OpKind::Eq, r, ki(0)), k(0), mag);
  const ValueId rem = b.select(signX, op(OpKind::Or, unsignedRem, k(sign)), unsignedRem);
  return b.select(useEarly, early, rem);
}

std::optional<ValueId> Translator::exactMathBuiltin(uint32_t n, const std::function<ValueId(size_t)>& arg,
                                                    const LInst& in) {
  if (n != ocl::Rsqrt && n != ocl::Fmod) return std::nullopt;
  const char* name = n == ocl::Rsqrt ? "rsqrt" : "fmod";
  const ValueId x = arg(0);
  const uint32_t w = b_.width(x);
  if (w != 16 && w != 32 && w != 64)
    c_.failAt(in, fmt::format("OpenCL.std {}: a {}-bit operand; expected half, float or double", name, w));
  if (n == ocl::Rsqrt) {
    // Double rounds twice (sqrt, quotient): an approximation, compared in ulps by `spvhls sim`.
    // The interpreter's double rsqrt is correctly rounded (referenceUlps 0).
    if (w == 64) k_.approximations.push_back({name, 64, kRsqrtF64MaxUlps, 0, c_.locOf(in.src)});
    return buildRsqrt(b_, x);
  }
  const ValueId y = arg(1);
  if (b_.width(y) != w) c_.failAt(in, "OpenCL.std fmod: operands of different widths");
  if (w == 64)
    c_.failAt(in, "OpenCL.std fmod on double (64-bit) operands is not supported in hardware yet (half and "
                  "float only: the exact remainder needs 2100 long-division steps for double)");
  return buildFmod(b_, x, y);
}

} // namespace spvhls::ir::lower
