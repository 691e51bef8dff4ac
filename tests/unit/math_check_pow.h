// The error checker of the two-operand f32 expansions, pow and atan2 (ir/lower_math.cpp, buildMath2F32),
// shared by their unit test (tests/unit/test_math_pow.cpp) and the benchmark (tests/bench/bench_math.cpp
// `pow`, `atan2`). As for the one-operand functions (math_check.h): special operands must give glibc's
// bits exactly (called as the interpreter calls it), every other result must lie within the bound of
// the correctly rounded value (glibc's double function rounded to float away from f32 rounding
// boundaries, libquadmath's near them). Operands are in OpenCL.std's order: pow(x, y), atan2(y, x).
#pragma once

#include <utility>

#include "tests/unit/math_check.h"

namespace spvhls::mathcheck {

// The expansion of fn on two `width`-bit operands (32: buildMath2F32, 16: buildMath2F16).
inline Program math2Program(MathFn fn, uint32_t width = 32) {
  return Program(
      [fn, width](ir::lower::Builder& b, const std::vector<ValueId>& a) {
        return width == 16 ? ir::lower::buildMath2F16(b, fn, a[0], a[1])
                           : ir::lower::buildMath2F32(b, fn, a[0], a[1]);
      },
      {width, width});
}
inline Program powProgram() {
  return math2Program(MathFn::Pow);
}

// glibc's powf or atan2f on operands handed over as doubles (sim/interp_float.cpp), which quiets a
// signalling NaN (explicitly here: g++ drops a float -> double -> float round trip, and powf(sNaN, 0)
// is a NaN).
inline uint32_t glibcMath2F32(MathFn fn, uint32_t a, uint32_t b) {
  static float (*volatile const powPtr)(float, float) = ::powf;
  static float (*volatile const atan2Ptr)(float, float) = ::atan2f;
  auto quiet = [](uint32_t v) { return isNan(v) ? v | 0x00400000u : v; };
  return asBits((fn == MathFn::Pow ? powPtr : atan2Ptr)(asFloat(quiet(a)), asFloat(quiet(b))));
}
inline uint32_t glibcPowF32(uint32_t x, uint32_t y) {
  return glibcMath2F32(MathFn::Pow, x, y);
}

// 0: not an integer, 1: odd, 2: even (finite y).
inline int integerClass(float y) {
  if (std::trunc(y) != y) return 0;
  return std::fabs(y) < 0x1p24f && std::fmod(y, 2.0f) != 0 ? 1 : 2;
}

// pow(x, y) is decided by a special rule (NaN, infinity or zero operand, x = 1, a negative x with a y
// that is no integer) rather than computed; so is atan2 of a NaN, an infinity or a zero.
inline bool math2Special(MathFn fn, uint32_t a, uint32_t b) {
  const uint32_t am = a & 0x7fffffff, bm = b & 0x7fffffff;
  if (am == 0 || am >= 0x7f800000 || bm == 0 || bm >= 0x7f800000) return true;
  if (fn == MathFn::Atan2) return false;
  return a == 0x3f800000 || ((a >> 31) && integerClass(asFloat(b)) == 0);
}
inline bool powSpecial(uint32_t x, uint32_t y) {
  return math2Special(MathFn::Pow, x, y);
}

// fn in quad precision (libquadmath).
inline __float128 quad2(MathFn fn, __float128 a, __float128 b) {
  return fn == MathFn::Pow ? powq(a, b) : atan2q(a, b);
}

// The correctly rounded f32 result for operands that are not special.
inline uint32_t correctlyRounded2(MathFn fn, uint32_t a, uint32_t b, double& exact) {
  const double da = asFloat(a), db = asFloat(b);
  const double v = fn == MathFn::Pow ? std::pow(da, db) : std::atan2(da, db);
  exact = v;
  const float lo = static_cast<float>(v * (1 - 0x1p-40)), hi = static_cast<float>(v * (1 + 0x1p-40));
  if (lo == hi) return asBits(lo);
  return asBits(static_cast<float>(quad2(fn, asFloat(a), asFloat(b))));
}

inline void checkMath2(Program& p, MathFn fn, uint32_t a, uint32_t b, uint32_t bound, Stats& s) {
  ++s.inputs;
  const uint32_t got = uint32_t(p.runArgs({a, b})), lib = glibcMath2F32(fn, a, b);
  auto problem = [&](const std::string& what) {
    if (s.problems.size() < 10)
      s.problems.push_back(fmt::format("{}(0x{:08x} = {:a}, 0x{:08x} = {:a}) = 0x{:08x}: {}",
                                       ir::lower::mathFnName(fn), a, asFloat(a), b, asFloat(b), got, what));
  };
  score(
      s, a, got, lib, math2Special(fn, a, b),
      [&](double& exact) { return correctlyRounded2(fn, a, b, exact); }, bound, problem);
}
inline void checkPow(Program& p, uint32_t x, uint32_t y, uint32_t bound, Stats& s) {
  checkMath2(p, MathFn::Pow, x, y, bound, s);
}

// Operand pairs: every pair of special and boundary values, then (about `randomCount` each) pairs whose
// result lands anywhere in the f32 range (y chosen from t = y * log2|x|), integer powers of negative x,
// x next to 1 with large y, results next to the overflow, subnormal and underflow thresholds, exact
// integer powers, |y| < 1, and uniform bit patterns.
inline std::vector<std::pair<uint32_t, uint32_t>> powInputs(size_t randomCount, uint32_t seed) {
  std::vector<std::pair<uint32_t, uint32_t>> in;
  const std::vector<uint32_t> specials = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fc12345, 0xff812345,
      0x7f800001, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x40000000, 0xc0000000, 0x40400000,
      0xc0400000, 0x3e800000, 0x4b800000, 0xcb800000, 0x4b000001, 0xcb000001, 0x4b000000, 0x3fc00000,
      0xbfc00000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800001,
      0x3f7fffff, 0xbf800001, 0xbf7fffff, 0x43000000, 0xc3000000, 0x43160000, 0xc3160000, 0x4effffff};
  for (uint32_t x : specials)
    for (uint32_t y : specials)
      in.emplace_back(x, y);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  auto anyX = [&](bool bothSigns) { // log-uniform over every binade, subnormals included
    const int e = int(rng() % 277) - 149;
    const uint32_t m = rng() & 0x7fffff;
    const uint32_t b = e < -126 ? (m >> std::min(23, -126 - e)) | 1 : uint32_t(e + 127) << 23 | m;
    return b | (bothSigns && (rng() & 1) ? 0x80000000u : 0u);
  };
  auto yFor = [&](uint32_t x, double t) { // y with y * log2|x| near t (x != 1)
    const double l = std::log2(std::fabs(double(asFloat(x))));
    return asBits(static_cast<float>(t / l));
  };
  const size_t n = randomCount / 8;
  for (size_t k = 0; k < 2 * n; ++k) { // results anywhere, both signs of x where y is an integer
    const uint32_t x = anyX(false);
    if (x == 0x3f800000) continue;
    in.emplace_back(x, yFor(x, -155 + 287 * unit(rng)));
  }
  for (size_t k = 0; k < n; ++k) { // integer y, negative x
    const uint32_t x = anyX(false) | 0x80000000;
    if (x == 0xbf800000) continue;
    const float y = std::round(asFloat(yFor(x, -155 + 287 * unit(rng))));
    in.emplace_back(x, asBits(y));
  }
  for (size_t k = 0; k < n; ++k) { // x within 2^16 ulps of 1, y large
    const uint32_t x = 0x3f800000 + (rng() % 0x20001) - 0x10000;
    if (x == 0x3f800000) continue;
    in.emplace_back(x | (rng() & 1 ? 0x80000000u : 0u), yFor(x, -155 + 287 * unit(rng)));
  }
  for (size_t k = 0; k < n; ++k) { // next to the overflow, subnormal and underflow thresholds
    const uint32_t x = anyX(false);
    if (x == 0x3f800000) continue;
    const double edges[] = {128, -126, -149, -150, -149.5};
    in.emplace_back(x, yFor(x, edges[rng() % 5] + (unit(rng) - 0.5) * 1e-6));
  }
  for (int a = -40; a <= 40; ++a) // exact integer powers
    for (int e = -30; e <= 30; ++e)
      in.emplace_back(asBits(float(a)), asBits(float(e)));
  for (size_t k = 0; k < n; ++k) { // |y| < 1
    const uint32_t y = asBits(static_cast<float>(2 * unit(rng) - 1));
    in.emplace_back(anyX(true), y);
  }
  for (size_t k = 0; k < 2 * n; ++k)
    in.emplace_back(uint32_t(rng()), uint32_t(rng()));
  return in;
}

// atan2's operand pairs (y, x): every pair of special values, then y and x of any binades and signs,
// y within 2^8 of x (results away from 0 and pi/2), |y| next to |x| (t near 1: results near +-pi/4
// and +-3pi/4), ratios that underflow, and uniform bit patterns.
inline std::vector<std::pair<uint32_t, uint32_t>> atan2Inputs(size_t randomCount, uint32_t seed) {
  std::vector<std::pair<uint32_t, uint32_t>> in;
  const std::vector<uint32_t> specials = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fc12345, 0xff812345,
      0x3f800000, 0xbf800000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
      0x3f800001, 0xbf7fffff, 0x40490fdb, 0x39800000, 0x4b800000, 0xcb800000};
  for (uint32_t a : specials)
    for (uint32_t b : specials)
      in.emplace_back(a, b);
  std::mt19937 rng(seed);
  auto sign = [&] { return rng() & 1 ? 0x80000000u : 0u; };
  auto anyBinade = [&](int e0, int e1) {
    const int e = e0 + int(rng() % uint32_t(e1 - e0 + 1));
    const uint32_t m = rng() & 0x7fffff;
    return (e < -126 ? (m >> std::min(23, -126 - e)) | 1 : uint32_t(e + 127) << 23 | m) | sign();
  };
  const size_t n = randomCount / 6;
  for (size_t k = 0; k < 2 * n; ++k)
    in.emplace_back(anyBinade(-149, 127), anyBinade(-149, 127));
  for (size_t k = 0; k < 2 * n; ++k) { // |y| / |x| within about 2^+-8
    const uint32_t x = anyBinade(-110, 110);
    const int32_t shift = int32_t(rng() % 17) - 8;
    const uint32_t ym =
        uint32_t(int32_t(x & 0x7fffffff) + shift * (1 << 23) + int32_t(rng() & 0x7fffff) - 0x400000);
    in.emplace_back(ym | sign(), x);
  }
  for (size_t k = 0; k < n; ++k) { // |y| within 2^12 ulps of |x|
    const uint32_t x = anyBinade(-120, 120);
    in.emplace_back(((x & 0x7fffffff) + (rng() % 8193) - 4096) | sign(), x);
  }
  for (size_t k = 0; k < n / 2; ++k) // tiny over huge: subnormal and zero results
    in.emplace_back(anyBinade(-149, -100), anyBinade(20, 127));
  for (size_t k = 0; k < n / 2; ++k)
    in.emplace_back(uint32_t(rng()), uint32_t(rng()));
  return in;
}

} // namespace spvhls::mathcheck
