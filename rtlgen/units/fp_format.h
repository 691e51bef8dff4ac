// IEEE-754 binary interchange formats of the floating-point operator units (rtlgen/units/fp_*.h):
// exponent and stored-mantissa widths; the sign bit is the top bit of the 1 + exp + mant bits.
#pragma once

#include <cstdint>

namespace spvhls::rtl {

struct FpFormat {
  uint32_t exp, mant;
  constexpr uint32_t width() const { return 1 + exp + mant; }
  friend constexpr bool operator==(const FpFormat&, const FpFormat&) = default;
};

inline constexpr FpFormat kF16{5, 10}, kF32{8, 23}, kF64{11, 52};

// "f16", "f32", "f64" (module names, messages); "fp" for any other format.
inline const char* fpName(FpFormat f) {
  return f == kF16 ? "f16" : f == kF32 ? "f32" : f == kF64 ? "f64" : "fp";
}

} // namespace spvhls::rtl
