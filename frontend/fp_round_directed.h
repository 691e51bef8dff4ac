// Directed rounding (SPIR-V FPRoundingMode RTZ, RTP, RTN) of an exact value to a w-bit float, from
// its round-to-nearest result: that result is off by at most one ulp, in the direction the mode
// forbids or not at all, so one step of the bits fixes it. Shared by the interpreter (sim,
// conversions with a rounding mode) and constant folding (ir, conversions with FPRoundingMode);
// tests/unit/test_fp_convert.cpp keeps its own copy as the hardware units' independent reference.
#pragma once

#include <cmath>
#include <cstdint>

namespace spvhls::fp {

// SPIR-V's FPRoundingMode numbering.
enum class Rounding : uint8_t { RTE = 0, RTZ = 1, RTP = 2, RTN = 3 };

// The next w-bit float after `bits` toward +infinity (up) or -infinity.
inline uint64_t stepBits(uint64_t bits, unsigned w, bool up) {
  const uint64_t sign = uint64_t(1) << (w - 1);
  if ((bits & ~sign) == 0) return up ? 1 : sign | 1;         // from either zero to the smallest subnormal
  return (((bits & sign) == 0) == up) ? bits + 1 : bits - 1; // magnitude grows or shrinks by one ulp
}

// `nearest` is x rounded to nearest even as a w-bit float and r its value (long double holds every
// int64 and double exactly, so the comparisons are exact). Returns x rounded in `mode`.
inline uint64_t roundDirected(uint64_t nearest, long double r, long double x, unsigned w, Rounding mode) {
  if (std::isnan(r) || r == x || mode == Rounding::RTE) return nearest;
  const bool tooFar = mode == Rounding::RTZ   ? std::fabs(r) > std::fabs(x)
                      : mode == Rounding::RTP ? r < x
                                              : r > x;
  if (!tooFar) return nearest;
  return stepBits(nearest, w, mode == Rounding::RTZ ? r < 0 : mode == Rounding::RTP);
}

} // namespace spvhls::fp
