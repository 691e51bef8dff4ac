// Private to the golden interpreter: OpenCL.std integer built-ins on w-bit values held in uint64
// (zero-extended). Signed variants read their operands sign-extended from w bits; results are masked
// back to w bits. 128-bit intermediates keep saturating and *_hi results exact for 64-bit types.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/interp_program.h"

namespace spvhls::sim::interp::intmath {

using i128 = __int128;
using u128 = unsigned __int128;

inline int64_t smin(unsigned w) { return w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1)); }
inline int64_t smax(unsigned w) { return w == 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1; }
inline uint64_t ssat(i128 v, unsigned w) {
  return static_cast<uint64_t>(static_cast<int64_t>(std::clamp<i128>(v, smin(w), smax(w)))) & widthMask(w);
}
inline uint64_t usat(u128 v, unsigned w) { return static_cast<uint64_t>(std::min<u128>(v, widthMask(w))); }

inline uint64_t sAbs(uint64_t a, unsigned w) {
  int64_t s = sext(a, w);
  return (s < 0 ? uint64_t(0) - static_cast<uint64_t>(s) : static_cast<uint64_t>(s)) & widthMask(w);
}
inline uint64_t sAbsDiff(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = sext(a, w), y = sext(b, w);
  uint64_t d = x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y) : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
  return d & widthMask(w);
}
inline uint64_t uAbsDiff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }
inline uint64_t sAddSat(uint64_t a, uint64_t b, unsigned w) { return ssat(i128(sext(a, w)) + sext(b, w), w); }
inline uint64_t uAddSat(uint64_t a, uint64_t b, unsigned w) { return usat(u128(a) + b, w); }
inline uint64_t sSubSat(uint64_t a, uint64_t b, unsigned w) { return ssat(i128(sext(a, w)) - sext(b, w), w); }
inline uint64_t uSubSat(uint64_t a, uint64_t b) { return a < b ? 0 : a - b; }
// hadd/rhadd: (x + y) >> 1 and (x + y + 1) >> 1 without overflow (arithmetic shift for signed).
inline uint64_t sHadd(uint64_t a, uint64_t b, unsigned w, int round) {
  return static_cast<uint64_t>(static_cast<int64_t>((i128(sext(a, w)) + sext(b, w) + round) >> 1)) & widthMask(w);
}
inline uint64_t uHadd(uint64_t a, uint64_t b, int round) { return static_cast<uint64_t>((u128(a) + b + round) >> 1); }
inline uint64_t sMinV(uint64_t a, uint64_t b, unsigned w) { return sext(a, w) <= sext(b, w) ? a : b; }
inline uint64_t sMaxV(uint64_t a, uint64_t b, unsigned w) { return sext(a, w) >= sext(b, w) ? a : b; }
inline uint64_t clz(uint64_t a, unsigned w) { return a == 0 ? w : static_cast<uint64_t>(__builtin_clzll(a) - (64 - w)); }
inline uint64_t ctz(uint64_t a, unsigned w) { return a == 0 ? w : static_cast<uint64_t>(__builtin_ctzll(a)); }
// rotate(v, i): left by i modulo the width (OpenCL's usual shift-count rule).
inline uint64_t rotate(uint64_t v, uint64_t i, unsigned w) {
  unsigned s = static_cast<unsigned>(i % w);
  return s == 0 ? v : ((v << s) | (v >> (w - s))) & widthMask(w);
}
inline uint64_t sMulHi(uint64_t a, uint64_t b, unsigned w) {
  return static_cast<uint64_t>(static_cast<int64_t>((i128(sext(a, w)) * sext(b, w)) >> w)) & widthMask(w);
}
inline uint64_t uMulHi(uint64_t a, uint64_t b, unsigned w) { return static_cast<uint64_t>((u128(a) * b) >> w) & widthMask(w); }
inline uint64_t sMadSat(uint64_t a, uint64_t b, uint64_t c, unsigned w) {
  return ssat(i128(sext(a, w)) * sext(b, w) + sext(c, w), w);
}
inline uint64_t uMadSat(uint64_t a, uint64_t b, uint64_t c, unsigned w) { return usat(u128(a) * b + c, w); }
inline uint64_t bitReverse(uint64_t v, unsigned w) {
  uint64_t r = 0;
  for (unsigned i = 0; i < w; ++i) r |= ((v >> i) & 1) << (w - 1 - i);
  return r;
}

} // namespace spvhls::sim::interp::intmath
