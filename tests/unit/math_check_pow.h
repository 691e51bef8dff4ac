// The error checker of the f32 pow expansion (ir/lower_math.cpp, buildPowF32), shared by its unit test
// (tests/unit/test_math_pow.cpp) and the benchmark (tests/bench/bench_math.cpp `pow`). As for the
// one-operand functions (math_check.h): special operands must give glibc's powf bits exactly (called as
// the interpreter calls it), every other result must lie within the bound of the correctly rounded
// value (glibc's double pow rounded to float away from f32 rounding boundaries, libquadmath's powq
// near them).
#pragma once

#include <utility>

#include "tests/unit/math_check.h"

namespace spvhls::mathcheck {

inline Program powProgram() {
  return Program([](ir::lower::Builder& b,
                    const std::vector<ValueId>& a) { return ir::lower::buildPowF32(b, a[0], a[1]); },
                 {32, 32});
}

// glibc's powf on operands handed over as doubles (sim/interp_float.cpp), which quiets a signalling NaN
// (explicitly here: g++ drops a float -> double -> float round trip, and powf(sNaN, 0) is a NaN).
inline uint32_t glibcPowF32(uint32_t x, uint32_t y) {
  static float (*volatile const powPtr)(float, float) = ::powf;
  auto quiet = [](uint32_t b) { return isNan(b) ? b | 0x00400000u : b; };
  return asBits(powPtr(asFloat(quiet(x)), asFloat(quiet(y))));
}

// 0: not an integer, 1: odd, 2: even (finite y).
inline int integerClass(float y) {
  if (std::trunc(y) != y) return 0;
  return std::fabs(y) < 0x1p24f && std::fmod(y, 2.0f) != 0 ? 1 : 2;
}

// pow(x, y) is decided by a special rule (NaN, infinity or zero operand, x = 1, a negative x with a y
// that is no integer) rather than computed.
inline bool powSpecial(uint32_t x, uint32_t y) {
  const uint32_t xm = x & 0x7fffffff, ym = y & 0x7fffffff;
  if (xm == 0 || xm >= 0x7f800000 || ym == 0 || ym >= 0x7f800000 || x == 0x3f800000) return true;
  return (x >> 31) && integerClass(asFloat(y)) == 0;
}

// The correctly rounded f32 pow for operands that are not special.
inline uint32_t correctlyRoundedPow(uint32_t x, uint32_t y, double& exact) {
  const double v = std::pow(double(asFloat(x)), double(asFloat(y)));
  exact = v;
  const float lo = static_cast<float>(v * (1 - 0x1p-40)), hi = static_cast<float>(v * (1 + 0x1p-40));
  if (lo == hi) return asBits(lo);
  return asBits(static_cast<float>(powq(__float128(asFloat(x)), __float128(asFloat(y)))));
}

inline void checkPow(Program& p, uint32_t x, uint32_t y, uint32_t bound, Stats& s) {
  ++s.inputs;
  const uint32_t got = uint32_t(p.runArgs({x, y})), lib = glibcPowF32(x, y);
  auto problem = [&](const std::string& what) {
    if (s.problems.size() < 10)
      s.problems.push_back(fmt::format("pow(0x{:08x} = {:a}, 0x{:08x} = {:a}) = 0x{:08x}: {}", x, asFloat(x),
                                       y, asFloat(y), got, what));
  };
  if (got != lib) {
    ++s.differFromGlibc;
    const uint64_t d = ulpDistance(got, lib);
    if (d > s.maxUlpsVsGlibc) s.maxUlpsVsGlibc = d, s.worstVsGlibc = x;
  }
  if (powSpecial(x, y)) {
    if (got != lib) ++s.specialMismatches, problem(fmt::format("glibc gives 0x{:08x}", lib));
    return;
  }
  double exact = 0;
  const uint32_t cr = correctlyRoundedPow(x, y, exact);
  const uint64_t d = ulpDistance(got, cr);
  if (d != 0) ++s.notCorrectlyRounded;
  if (const uint64_t g = ulpDistance(lib, cr); g != 0) {
    ++s.glibcNotCorrectlyRounded;
    if (g > s.glibcMaxUlps) s.glibcMaxUlps = g, s.glibcWorst = x;
  }
  if (d > s.maxUlps) s.maxUlps = d, s.worst = x;
  if (d > bound) problem(fmt::format("{} ulp from the correctly rounded 0x{:08x}", d, cr));
  if (std::isfinite(asFloat(got)) && std::isfinite(exact) && exact != 0)
    s.maxError = std::max(s.maxError, std::fabs(double(asFloat(got)) - exact) / ulpOf(exact));
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

} // namespace spvhls::mathcheck
