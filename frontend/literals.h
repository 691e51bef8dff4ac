// Text forms of numeric literals, shared by the text reader and writer: integers (decimal, 0x hex,
// negative) and IEEE floats of 16, 32 and 64 bits (decimal, C hex floats, and the spirv-dis hex form
// for infinities and NaNs, e.g. 0x1p+128 and -0x1.8p+128 for 32-bit floats).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spvhls::spirv::detail {

struct ParsedInt {
  bool negative = false;
  uint64_t magnitude = 0;
};

// Decimal or 0x-hex with an optional sign; nullopt if the text is not such a number or overflows.
std::optional<ParsedInt> parseInteger(std::string_view text);

// Fits `v` into `width` bits (1..64). Negative values are accepted down to -2^(width-1) and stored in
// two's complement; non-negative values up to 2^width - 1. nullopt if out of range.
std::optional<uint64_t> fitInteger(const ParsedInt& v, uint32_t width);

// Parses a float literal for a float type of `width` bits (16, 32, 64) into its bit pattern.
std::optional<uint64_t> parseFloat(std::string_view text, uint32_t width);

// Prints a float bit pattern as spirv-dis does; parseFloat gives back the same bits.
std::string formatFloat(uint64_t bits, uint32_t width);

// Half-precision conversions (round to nearest even).
uint16_t floatToHalf(float f);
uint16_t doubleToHalf(double d);
float halfToFloat(uint16_t h);

} // namespace spvhls::spirv::detail
