// a * b + c for half operands read as double, to the double that rounds to the correct half: the
// product of two halves is exact in double, a TwoSum gives p + c as a double plus its exact error,
// from which the round-to-odd double follows, so that rounding it to half is the only rounding.
// Operands are never NaN (callers pick the NaN first). Shared by the interpreter (sim, fmaHalf)
// and constant folding (ir, FFma), which both link spvhls_frontend; the fma unit's test keeps its
// own copy (tests/unit/test_fp_fma.cpp) as an independent reproduction.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace spvhls::fp {

inline double fmaHalfToOdd(double a, double b, double c) {
  double p = a * b, s = p + c;
  double bb = s - p, e = (p - (s - bb)) + (c - bb);
  if (e != 0 && std::isfinite(s)) {
    if (std::signbit(e) != std::signbit(s)) s = std::nextafter(s, 0.0); // truncate toward zero
    uint64_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    bits |= 1;
    std::memcpy(&s, &bits, sizeof bits);
  }
  return s;
}

} // namespace spvhls::fp
