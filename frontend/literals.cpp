#include "frontend/literals.h"

#include <fmt/format.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace spvhls::spirv::detail {

namespace {

struct FloatFormat {
  uint32_t mantissaBits, exponentBits;
  int bias() const { return (1 << (exponentBits - 1)) - 1; }
};

std::optional<FloatFormat> formatOf(uint32_t width) {
  switch (width) {
  case 16: return FloatFormat{10, 5};
  case 32: return FloatFormat{23, 8};
  case 64: return FloatFormat{52, 11};
  default: return std::nullopt;
  }
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// spirv-dis writes infinities and NaNs as hex floats with the exponent one above the largest finite
// one (0x1p+128, 0x1.8p+128 for 32 bits); C's strtod would turn the NaN forms into infinity.
std::optional<uint64_t> parseSpecialHex(std::string_view t, const FloatFormat& f) {
  bool neg = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.size() < 4 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X') || t[2] != '1') return std::nullopt;
  size_t p = t.find_first_of("pP");
  if (p == std::string_view::npos) return std::nullopt;
  std::string_view exp = t.substr(p + 1);
  if (!exp.empty() && exp[0] == '+') exp.remove_prefix(1);
  if (exp != std::to_string(f.bias() + 1)) return std::nullopt;
  std::string_view frac = t.substr(3, p - 3);
  uint64_t bits = 0;
  uint32_t nbits = 0;
  if (!frac.empty()) {
    if (frac[0] != '.') return std::nullopt;
    frac.remove_prefix(1);
    for (char c : frac) {
      int d = hexDigit(c);
      if (d < 0 || nbits >= 60) return std::nullopt;
      bits = bits << 4 | uint64_t(d);
      nbits += 4;
    }
  }
  uint64_t mant = nbits > f.mantissaBits ? bits >> (nbits - f.mantissaBits) : bits << (f.mantissaBits - nbits);
  uint64_t expAll = (uint64_t(1) << f.exponentBits) - 1;
  uint64_t width = 1 + f.exponentBits + f.mantissaBits;
  return (uint64_t(neg) << (width - 1)) | (expAll << f.mantissaBits) | mant;
}

} // namespace

std::optional<ParsedInt> parseInteger(std::string_view t) {
  ParsedInt r;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    r.negative = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty()) return std::nullopt;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  } else if (t.size() > 1 && t[0] == '0') {
    base = 8; // C syntax, as spirv-as reads it: 010 is 8 and 08 is not a number
    t.remove_prefix(1);
  }
  uint64_t v = 0;
  for (char c : t) {
    int d = hexDigit(c);
    if (d < 0 || d >= base) return std::nullopt;
    if (v > (UINT64_MAX - uint64_t(d)) / uint64_t(base)) return std::nullopt;
    v = v * uint64_t(base) + uint64_t(d);
  }
  r.magnitude = v;
  if (r.magnitude == 0) r.negative = false;
  return r;
}

std::optional<uint64_t> fitInteger(const ParsedInt& v, uint32_t width) {
  uint64_t mask = width >= 64 ? UINT64_MAX : (uint64_t(1) << width) - 1;
  if (!v.negative) {
    if (v.magnitude > mask) return std::nullopt;
    return v.magnitude;
  }
  uint64_t minMag = uint64_t(1) << (width - 1); // |-2^(width-1)|
  if (v.magnitude > minMag) return std::nullopt;
  return (~v.magnitude + 1) & mask;
}

std::optional<uint64_t> parseFloat(std::string_view text, uint32_t width) {
  auto f = formatOf(width);
  if (!f || text.empty()) return std::nullopt;
  if (auto special = parseSpecialHex(text, *f)) return special;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  if (width == 32) {
    float v = std::strtof(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
    return std::bit_cast<uint32_t>(v);
  }
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  if (width == 64) return std::bit_cast<uint64_t>(v);
  // Half: decimal text is rounded to double first (a second rounding, harmless in practice); hex
  // floats with at most 53 significant bits are exact.
  return doubleToHalf(v);
}

std::string formatFloat(uint64_t bits, uint32_t width) {
  auto f = formatOf(width);
  if (!f) return fmt::format("{:#x}", bits);
  uint64_t expAll = (uint64_t(1) << f->exponentBits) - 1;
  uint64_t exp = (bits >> f->mantissaBits) & expAll;
  uint64_t mant = bits & ((uint64_t(1) << f->mantissaBits) - 1);
  bool neg = (bits >> (width - 1)) & 1;
  if (exp == expAll) {
    // Infinity or NaN in spirv-dis' hex form: fraction digits left-aligned, trailing zeros dropped.
    std::string out = neg ? "-0x1" : "0x1";
    if (mant) {
      uint32_t digits = (f->mantissaBits + 3) / 4;
      uint64_t aligned = mant << (digits * 4 - f->mantissaBits);
      std::string frac = fmt::format("{:0{}x}", aligned, digits);
      while (!frac.empty() && frac.back() == '0') frac.pop_back();
      out += "." + frac;
    }
    return out + fmt::format("p+{}", f->bias() + 1);
  }
  // As spirv-dis prints them: max_digits10 significant digits for 32/64 bits, hex floats for 16 bits.
  if (width == 64) return fmt::format("{:.17g}", std::bit_cast<double>(bits));
  if (width == 32) return fmt::format("{:.9g}", std::bit_cast<float>(static_cast<uint32_t>(bits)));
  std::string sign = neg ? "-" : "";
  if (exp == 0 && mant == 0) return sign + "0x0p+0";
  int e = int(exp) - f->bias();
  if (exp == 0) { // subnormal: normalise
    e = 1 - f->bias();
    while (!(mant & (uint64_t(1) << f->mantissaBits))) {
      mant <<= 1;
      --e;
    }
    mant &= (uint64_t(1) << f->mantissaBits) - 1;
  }
  uint32_t digits = (f->mantissaBits + 3) / 4;
  std::string frac = fmt::format("{:0{}x}", mant << (digits * 4 - f->mantissaBits), digits);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return fmt::format("{}0x1{}{}p{}{}", sign, frac.empty() ? "" : ".", frac, e < 0 ? "-" : "+", std::abs(e));
}

uint16_t doubleToHalf(double value) {
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7e00;
  double a = std::fabs(value);
  if (std::isinf(a)) return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14)) {
    // Subnormal: units of 2^-24, rounded to nearest even (may round up to the smallest normal).
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  }
  int exp = 0;
  double m = std::frexp(a, &exp); // a = m * 2^exp, m in [0.5, 1)
  int e = exp - 1;
  double q = std::nearbyint((2 * m - 1) * 1024); // exact operands: one rounding only
  if (q == 1024) {
    q = 0;
    ++e;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | static_cast<uint16_t>((e + 15) << 10 | static_cast<int>(q));
}

uint16_t floatToHalf(float value) { return doubleToHalf(value); }

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return std::bit_cast<float>(sign);
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

} // namespace spvhls::spirv::detail
