// Golden interpreter: floating-point instructions and OpenCL.std floating-point built-ins.
//
// Values are kept as IEEE bits in the 64-bit slots. f32 and f64 operations are the host's (x86-64
// SSE: IEEE round-to-nearest-even, denormals honoured), so the basic operations (+ - * / sqrt fma and
// conversions) are correctly rounded and match the host C library bit for bit. f16 is computed in
// double and rounded once to half: exact for + - * / sqrt and conversions, because double carries more
// than 2 * 11 + 2 significand bits; fma/mad use round-to-odd in double so that the final rounding to
// half is still the only one. Transcendental functions use the host libm (float versions for f32,
// float versions rounded to half for f16). NaN payloads and signs are whatever the host produces,
// except which NaN operand + - * / fma mad return (arith picks it).
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <quadmath.h>

#include "frontend/fp_round_directed.h"
#include "frontend/fp_round_odd.h"
#include "sim/interp_exec.h"
#include "sim/interp_intmath.h"

namespace spvhls::sim::interp {

namespace {

using half = _Float16;

template <typename T>
T fromBits(uint64_t v) {
  T x;
  std::memcpy(&x, &v, sizeof(T)); // little-endian: the low bytes of the slot
  return x;
}
template <typename T>
uint64_t toBits(T x) {
  uint64_t v = 0;
  std::memcpy(&v, &x, sizeof(T));
  return v;
}

// Reads a w-bit float as double (exact for all three widths).
double readF(uint64_t v, unsigned w) {
  switch (w) {
  case 16: return static_cast<double>(fromBits<half>(v));
  case 32: return static_cast<double>(fromBits<float>(v));
  default: return fromBits<double>(v);
  }
}
// Rounds a double to a w-bit float (one correct rounding, host rounding mode) and returns its bits.
uint64_t writeF(double d, unsigned w) {
  switch (w) {
  case 16: return toBits(static_cast<half>(d));
  case 32: return toBits(static_cast<float>(d));
  default: return toBits(d);
  }
}

// fma for half: one rounding to half of the round-to-odd double (frontend/fp_round_odd.h, which
// constant folding in ir/lower_builder.cpp shares). NaN operands never get here (arith picks the
// first one). The fma unit's test reproduces it (tests/unit/test_fp_fma.cpp).
uint64_t fmaHalf(double a, double b, double c) {
  return writeF(fp::fmaHalfToOdd(a, b, c), 16);
}

// OpenCL.std rsqrt, 1/sqrt(a), correctly rounded. Half and float: the double sqrt and quotient
// (relative error below 2^-52) rounded once to the format, which is the correctly rounded result for
// every half and float (tests/unit/test_math_rsqrt.cpp checks all of them exactly: the exact value never
// lies that close to a rounding boundary). Double: the quotient in quad precision rounded to double,
// corrected by an exact test of the two neighbouring midpoints m (the sign of m^2 * a - 1 from one
// fmaq: m^2 is exact in 113 bits). Special values: rsqrt(+-0) = +-inf, rsqrt(+inf) = +0, a negative
// operand or a NaN gives sqrt's NaN (what the hardware's sqrt and divide units give,
// ir/lower_math_exact.cpp).
uint64_t rsqrtBits(double a, unsigned w) {
  if (w != 64) return writeF(1.0 / std::sqrt(a), w);
  const double y = static_cast<double>(1 / sqrtq(a));
  if (!(a > 0) || std::isinf(a)) return toBits(y);
  // m between y and its neighbour n: 1/sqrt(a) lies beyond m exactly when m^2 * a - 1 has that sign.
  auto beyond = [&](double n) {
    const __float128 m = (__float128(y) + n) / 2;
    return fmaq(m * m, a, -1);
  };
  const double up = std::nextafter(y, HUGE_VAL), down = std::nextafter(y, 0.0);
  if (beyond(up) < 0) return toBits(up);
  if (beyond(down) > 0) return toBits(down);
  return toBits(y);
}

// One-argument libm functions with float and double versions.
struct Unary {
  float (*f)(float);
  double (*d)(double);
};
template <typename T>
T exp10T(T x) { return std::pow(T(10), x); }

bool unaryOf(X op, Unary& u) {
  switch (op) {
  case X::Exp: u = {::expf, ::exp}; return true;
  case X::Exp2: u = {::exp2f, ::exp2}; return true;
  case X::Exp10: u = {exp10T<float>, exp10T<double>}; return true;
  case X::Log: u = {::logf, ::log}; return true;
  case X::Log2: u = {::log2f, ::log2}; return true;
  case X::Log10: u = {::log10f, ::log10}; return true;
  case X::Sin: u = {::sinf, ::sin}; return true;
  case X::Cos: u = {::cosf, ::cos}; return true;
  case X::Tan: u = {::tanf, ::tan}; return true;
  case X::Asin: u = {::asinf, ::asin}; return true;
  case X::Acos: u = {::acosf, ::acos}; return true;
  case X::Atan: u = {::atanf, ::atan}; return true;
  case X::Sinh: u = {::sinhf, ::sinh}; return true;
  case X::Cosh: u = {::coshf, ::cosh}; return true;
  case X::Tanh: u = {::tanhf, ::tanh}; return true;
  case X::Cbrt: u = {::cbrtf, ::cbrt}; return true;
  default: return false;
  }
}

struct Binary {
  float (*f)(float, float);
  double (*d)(double, double);
};
bool binaryOf(X op, Binary& u) {
  switch (op) {
  case X::Pow: u = {::powf, ::pow}; return true;
  case X::Atan2: u = {::atan2f, ::atan2}; return true;
  case X::Hypot: u = {::hypotf, ::hypot}; return true;
  case X::Fmin: u = {::fminf, ::fmin}; return true;
  case X::Fmax: u = {::fmaxf, ::fmax}; return true;
  case X::Fdim: u = {::fdimf, ::fdim}; return true;
  case X::FmodStd:
  case X::FRem: u = {::fmodf, ::fmod}; return true;
  default: return false;
  }
}

// Arithmetic in the operand type T (float or double), or in double for half (see the file comment).
template <typename T>
std::optional<uint64_t> arith(X op, double a, double b, double c, unsigned w) {
  T x = static_cast<T>(a), y = static_cast<T>(b), z = static_cast<T>(c);
  auto out = [&](T v) { return writeF(static_cast<double>(v), w); };
  // A NaN operand comes back quieted, the first one if both are (x86 SSE's rule, which the generated
  // units follow): explicit, because the compiler may swap the operands of a commutative operation.
  // fma and mad likewise take the first NaN of a, b, c (otherwise which one came back depended on how
  // g++ ordered std::fma's or fmaHalf's operands); c is only read for them (a binary op's c is junk).
  const bool basic = op == X::FAdd || op == X::FSub || op == X::FMul || op == X::FDiv;
  const bool fused = op == X::Fma || op == X::Mad;
  if ((basic || fused) && (std::isnan(x) || std::isnan(y) || (fused && std::isnan(z)))) {
    const T first = std::isnan(x) ? x : std::isnan(y) ? y : z;
    const unsigned quietBit = w == 16 ? 9 : w == 32 ? 22 : 51;
    return out(first) | (uint64_t(1) << quietBit);
  }
  switch (op) {
  case X::FAdd: return out(x + y);
  case X::FSub: return out(x - y);
  case X::FMul: return out(x * y);
  case X::FDiv: return out(x / y);
  case X::FNegate: return out(-x);
  case X::Fabs: return out(std::fabs(x));
  case X::Sqrt: return out(std::sqrt(x));
  case X::Rsqrt:
    return rsqrtBits(a, w);
  case X::Floor: return out(std::floor(x));
  case X::Ceil: return out(std::ceil(x));
  case X::Trunc: return out(std::trunc(x));
  case X::Round: return out(std::round(x));
  case X::Rint: return out(std::rint(x));
  case X::Copysign: return out(std::copysign(x, y));
  case X::FMod: { // remainder with the sign of the divisor (SPIR-V OpFMod), one extra rounding when fixed up
    T r = std::fmod(x, y);
    if (r == 0) return out(std::copysign(T(0), y));
    if (std::signbit(r) != std::signbit(y)) r += y;
    return out(r);
  }
  case X::Fma:
  case X::Mad: // OpenCL allows mad to round once or twice; the interpreter always rounds once (as fma)
    if (w == 16) return fmaHalf(a, b, c);
    return out(std::fma(x, y, z));
  default: break;
  }
  Binary bf;
  if (binaryOf(op, bf)) {
    if constexpr (std::is_same_v<T, double>) {
      if (w == 64) return out(bf.d(x, y));
    }
    return writeF(static_cast<double>(bf.f(static_cast<float>(a), static_cast<float>(b))), w);
  }
  Unary uf;
  if (unaryOf(op, uf)) {
    if (w == 64) return out(static_cast<T>(uf.d(a)));
    return writeF(static_cast<double>(uf.f(static_cast<float>(a))), w);
  }
  return std::nullopt;
}

bool compare(X op, double a, double b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (op) {
  case X::FOrdEq: return !un && a == b;
  case X::FOrdNe: return !un && a != b;
  case X::FOrdLt: return !un && a < b;
  case X::FOrdGt: return !un && a > b;
  case X::FOrdLe: return !un && a <= b;
  case X::FOrdGe: return !un && a >= b;
  case X::FUnordEq: return un || a == b;
  case X::FUnordNe: return un || a != b;
  case X::FUnordLt: return un || a < b;
  case X::FUnordGt: return un || a > b;
  case X::FUnordLe: return un || a <= b;
  case X::FUnordGe: return un || a >= b;
  case X::Ordered: return !un;
  case X::Unordered: return un;
  default: return false;
  }
}

// The conversions below (roundDirected and the Convert cases of floatInst) are reproduced
// in tests/unit/test_fp_convert.cpp as the reference of the hardware conversion units: change both.
//
// FPRoundingMode + 1 as decoded (0: the instruction's default).
enum Rounding : uint32_t { kDefault = 0, kRTE = 1, kRTZ = 2, kRTP = 3, kRTN = 4 };

// Rounds the exact value x to a w-bit float in a directed mode (frontend/fp_round_directed.h).
uint64_t roundDirected(long double x, unsigned w, uint32_t mode) {
  // Via double: exact except for integers beyond 2^53, which round to infinity in half anyway and are
  // rounded once more correctly below for float/double (r is compared with x itself).
  uint64_t bits = w == 64 ? toBits(static_cast<double>(x)) : w == 32 ? toBits(static_cast<float>(x)) : writeF(static_cast<double>(x), 16);
  if (mode == kDefault) return bits;
  return fp::roundDirected(bits, readF(bits, w), x, w, static_cast<fp::Rounding>(mode - 1));
}

bool isNormal(double v, unsigned w) {
  if (!std::isfinite(v) || v == 0) return false;
  double minNormal = w == 16 ? 0x1p-14 : w == 32 ? static_cast<double>(std::numeric_limits<float>::min())
                                                 : std::numeric_limits<double>::min();
  return std::fabs(v) >= minNormal;
}

} // namespace

bool Executor::floatInst(const DInst& in, uint64_t* r) const {
  const unsigned w = in.w;
  if (in.op == X::Dot) {
    // The lane products added in lane order, every operation rounded (what the hardware builds).
    auto op = [&](X o, uint64_t a, uint64_t b) {
      return *(w == 32 ? arith<float>(o, readF(a, w), readF(b, w), 0, w)
                       : arith<double>(o, readF(a, w), readF(b, w), 0, w));
    };
    uint64_t acc = op(X::FMul, r[in.a], r[in.b]);
    for (uint32_t i = 1; i < in.n; ++i)
      acc = op(X::FAdd, acc, op(X::FMul, r[in.a + i], r[in.b + i]));
    r[in.dst] = acc;
    return true;
  }
  for (uint32_t i = 0; i < in.n; ++i) {
    uint64_t& d = r[in.dst + i];
    switch (in.op) {
    case X::FOrdEq: case X::FOrdNe: case X::FOrdLt: case X::FOrdGt: case X::FOrdLe: case X::FOrdGe:
    case X::FUnordEq: case X::FUnordNe: case X::FUnordLt: case X::FUnordGt: case X::FUnordLe: case X::FUnordGe:
    case X::Ordered: case X::Unordered:
      d = compare(in.op, readF(r[in.a + i], w), readF(r[in.b + i], w));
      continue;
    case X::IsNan: d = std::isnan(readF(r[in.a + i], w)); continue;
    case X::IsInf: d = std::isinf(readF(r[in.a + i], w)); continue;
    case X::IsFinite: d = std::isfinite(readF(r[in.a + i], w)); continue;
    case X::IsNormal: d = isNormal(readF(r[in.a + i], w), w); continue;
    case X::SignBitSet: d = std::signbit(readF(r[in.a + i], w)); continue;
    case X::ConvertFToS:
    case X::ConvertFToU: {
      // OpenCL: rounds toward zero unless a rounding mode is given; out of range (and NaN) is
      // undefined unless saturating.
      double v = readF(r[in.a + i], in.w2);
      double t = in.c == kRTE ? std::nearbyint(v) : in.c == kRTP ? std::ceil(v) : in.c == kRTN ? std::floor(v) : std::trunc(v);
      bool sgn = in.op == X::ConvertFToS;
      double lo = sgn ? -std::ldexp(1.0, w - 1) : 0.0, hi = std::ldexp(1.0, sgn ? w - 1 : w); // [lo, hi)
      uint64_t bits;
      if (std::isnan(v) || t < lo || t >= hi) {
        if (!in.b)
          fail(in, fmt::format("conversion of {} to a {}-bit {} integer is out of range (undefined; use a _sat conversion)",
                               v, w, sgn ? "signed" : "unsigned"));
        if (std::isnan(v)) bits = 0; // OpenCL: NaN saturates to 0
        else if (sgn) bits = static_cast<uint64_t>(t < lo ? intmath::smin(w) : intmath::smax(w));
        else bits = t < lo ? 0 : widthMask(w);
      } else if (sgn) {
        bits = static_cast<uint64_t>(static_cast<int64_t>(t));
      } else {
        bits = t >= 0x1p63 ? static_cast<uint64_t>(t - 0x1p63) | (uint64_t(1) << 63) : static_cast<uint64_t>(t);
      }
      d = bits & widthMask(w);
      continue;
    }
    case X::ConvertSToF:
    case X::ConvertUToF: {
      uint64_t v = r[in.a + i];
      if (in.c > kRTE) {
        long double x = in.op == X::ConvertSToF ? static_cast<long double>(sext(v, in.w2)) : static_cast<long double>(v);
        d = roundDirected(x, w, in.c);
      } else if (in.op == X::ConvertSToF) {
        int64_t s = sext(v, in.w2);
        d = w == 32 ? toBits(static_cast<float>(s)) : w == 64 ? toBits(static_cast<double>(s)) : writeF(static_cast<double>(s), 16);
      } else { // |v| >= 2^53 rounds twice for half only, where it is infinity anyway
        d = w == 32 ? toBits(static_cast<float>(v)) : w == 64 ? toBits(static_cast<double>(v)) : writeF(static_cast<double>(v), 16);
      }
      continue;
    }
    case X::FConvert: d = roundDirected(readF(r[in.a + i], in.w2), w, in.c); continue;
    default: break;
    }
    if (in.op < X::FAdd || in.op > X::Hypot) return false;
    double a = readF(r[in.a + i], w), b = readF(r[in.b + i], w), c = readF(r[in.c + i], w);
    std::optional<uint64_t> v = w == 32 ? arith<float>(in.op, a, b, c, w) : arith<double>(in.op, a, b, c, w);
    if (!v) return false;
    d = *v;
  }
  return true;
}

} // namespace spvhls::sim::interp
