// Golden interpreter: saturating integer conversions and conversions with explicit rounding modes
// (data/interp/convert.cl). The expected values come from the host by other means than the
// interpreter's: float/double results from the host's own conversions under fesetround() (this file
// is compiled with -frounding-math), half results from a search over all 65536 half values, and
// saturation from plain clamps.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

enum Mode { RTE, RTZ, RTP, RTN };

// The host's conversion of x to T in rounding mode m.
template <typename T, typename S>
T hostConvert(S x, Mode m) {
  static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  std::fesetround(modes[m]);
  volatile S vx = x;
  volatile T r = static_cast<T>(vx);
  std::fesetround(FE_TONEAREST);
  return r;
}

// Rounds x (exact in long double) to half bits in mode m by search: the neighbouring half values
// below and above x, from a sorted table of every finite half.
uint16_t halfOf(long double x, Mode m) {
  static const std::vector<std::pair<double, uint16_t>> table = [] {
    std::vector<std::pair<double, uint16_t>> t;
    for (uint32_t b = 0; b < 0x10000; ++b) {
      if ((b & 0x7c00) == 0x7c00 || b == 0x8000) continue; // inf/NaN, and -0 (kept as +0)
      _Float16 h;
      uint16_t bits = static_cast<uint16_t>(b);
      std::memcpy(&h, &bits, 2);
      t.emplace_back(static_cast<double>(h), bits);
    }
    std::sort(t.begin(), t.end());
    return t;
  }();
  const uint16_t posInf = 0x7c00, negInf = 0xfc00;
  if (std::isinf(x)) return x > 0 ? posInf : negInf; // exact in every mode
  auto above = std::lower_bound(table.begin(), table.end(), std::pair<double, uint16_t>(static_cast<double>(x), 0));
  if (above != table.end() && above->first == x) return x == 0 && std::signbit(x) ? 0x8000 : above->second;
  // below < x < above; either may be missing (overflow)
  bool hasAbove = above != table.end(), hasBelow = above != table.begin();
  uint16_t up = hasAbove ? above->second : posInf, down = hasBelow ? std::prev(above)->second : negInf;
  double upV = hasAbove ? above->first : INFINITY, downV = hasBelow ? std::prev(above)->first : -INFINITY;
  auto signedZero = [&](uint16_t b, double v) { return v == 0 && x < 0 ? uint16_t(0x8000) : b; };
  switch (m) {
  case RTZ: return x > 0 ? signedZero(down, downV) : signedZero(up, upV);
  case RTP: return signedZero(up, upV);
  case RTN: return signedZero(down, downV);
  case RTE: break;
  }
  FAIL("round to nearest is not needed by this test");
  return 0;
}

template <typename T>
T sat(long double v) {
  if (std::isnan(v)) return 0;
  return static_cast<T>(std::clamp<long double>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}
// Float to integer in mode m, saturating (OpenCL convert_<int>_sat_<mode>).
template <typename T>
T satRound(double v, Mode m) {
  double r = m == RTE ? std::nearbyint(v) : m == RTZ ? std::trunc(v) : m == RTP ? std::ceil(v) : std::floor(v);
  return sat<T>(r);
}

ArgSpec buffer(const char* name, const char* type, uint32_t bytes, bool isFloat, bool isSigned, std::vector<uint8_t> init,
               size_t length) {
  ArgSpec a;
  a.name = name;
  a.isBuffer = true;
  a.elem = ElemType{type, bytes, isFloat, isSigned};
  a.length = length;
  init.resize(length * bytes, 0);
  a.init = std::move(init);
  return a;
}

RunSpec convertSpec(const std::vector<int64_t>& l, const std::vector<uint64_t>& ul, const std::vector<double>& d,
                    const std::vector<float>& f, const std::vector<int32_t>& i, const std::vector<uint32_t>& u) {
  const size_t n = l.size();
  RunSpec s;
  s.path = (kInterpData / "convert.json").string();
  s.kernel = "convert";
  s.args = {buffer("l", "i64", 8, false, true, bytesOf(l), n),   buffer("ul", "u64", 8, false, false, bytesOf(ul), n),
            buffer("d", "f64", 8, true, true, bytesOf(d), n),    buffer("f", "f32", 4, true, true, bytesOf(f), n),
            buffer("i", "i32", 4, false, true, bytesOf(i), n),   buffer("u", "u32", 4, false, false, bytesOf(u), n)};
  ArgSpec count;
  count.name = "n";
  count.scalar = n;
  s.args.push_back(count);
  s.args.push_back(buffer("of", "f32", 4, true, true, {}, n * 16));
  s.args.push_back(buffer("od", "f64", 8, true, true, {}, n * 4));
  s.args.push_back(buffer("oi", "i32", 4, false, true, {}, n * 8));
  s.args.push_back(buffer("ou", "u32", 4, false, false, {}, n * 4));
  s.args.push_back(buffer("ouc", "u8", 1, false, false, {}, n * 4));
  s.args.push_back(buffer("os", "i16", 2, false, true, {}, n * 2));
  s.args.push_back(buffer("oc", "i8", 1, false, true, {120}, 1 + n * 2));
  s.args.push_back(buffer("oh", "u16", 2, false, false, {}, n * 4));

  return s;
}

} // namespace

TEST_CASE("interp: saturating integer conversions and explicit rounding modes match the host") {
  // Edge values first (ties, values just off a representable float, overflow, NaN, infinities), then
  // random ones.
  std::vector<int64_t> l = {0, 1, -1, (1 << 24) + 1, -((1 << 24) + 1), (int64_t(1) << 53) + 1, INT64_MAX, INT64_MIN,
                            (int64_t(1) << 31), -(int64_t(1) << 31) - 1, 300, -300, 65536 + 15, 0x7fffffbf, -0x7fffffc1};
  std::vector<uint64_t> ul = {0, 1, UINT64_MAX, (uint64_t(1) << 63) + 1, (1u << 24) + 3, 0xffffffffull, 256, 255, 128, 127,
                              (uint64_t(1) << 53) + 3, 0x8000000000000400ull, 70000, 65520, 40000};
  std::vector<double> d = {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, NAN, INFINITY, -INFINITY, 1.0000001, 0x1.000001p0, 3e9,
                           -3e9, 65519.9, 65520.0};
  std::vector<float> f = {0.0f, -0.0f, 0.5f, 1.5f, -1.5f, 2.5f, NAN, INFINITY, -INFINITY, 65504.0f, 65505.0f, 65520.0f,
                          1e-8f, -1e-8f, 2147483520.0f};
  std::vector<int32_t> i = {0, 1, -1, 255, 256, -129, 128, INT32_MAX, INT32_MIN, 16777217, 2049, -2049, 65519, 65520, -70000};
  std::vector<uint32_t> u = {0, 1, 127, 128, 255, 256, 32767, 32768, UINT32_MAX, 16777217, 0x80000000u, 2049, 100, 4097, 65535};
  std::mt19937_64 rng(7);
  for (int k = 0; k < 49; ++k) {
    int shift = static_cast<int>(rng() % 64);
    l.push_back(static_cast<int64_t>(rng()) >> shift);
    ul.push_back(rng() >> (rng() % 64));
    d.push_back(std::ldexp(static_cast<double>(static_cast<int64_t>(rng())) / 0x1p63, static_cast<int>(rng() % 80) - 20));
    f.push_back(static_cast<float>(std::ldexp(static_cast<double>(static_cast<int64_t>(rng())) / 0x1p63, static_cast<int>(rng() % 40) - 8)));
    i.push_back(static_cast<int32_t>(rng()) >> (rng() % 32));
    u.push_back(static_cast<uint32_t>(rng()) >> (rng() % 32));
  }
  const size_t n = l.size();
  REQUIRE((ul.size() == n && d.size() == n && f.size() == n && i.size() == n && u.size() == n));

  RunSpec s = convertSpec(l, ul, d, f, i, u);
  InterpResult r = Kernel("convert.spv").run(s);
  auto of = elems<float>(r.buffers[7]);
  auto od = elems<double>(r.buffers[8]);
  auto oi = elems<int32_t>(r.buffers[9]);
  auto ou = elems<uint32_t>(r.buffers[10]);
  auto ouc = elems<uint8_t>(r.buffers[11]);
  auto os = elems<int16_t>(r.buffers[12]);
  auto oc = elems<int8_t>(r.buffers[13]);
  auto oh = elems<uint16_t>(r.buffers[14]);

  size_t checked = 0;
  auto same = [&](auto got, auto want, const char* what, size_t k) {
    ++checked;
    CHECK_MESSAGE(bitsOf(got) == bitsOf(want), std::string(what) << " at element " << k << ": got " << got << ", expected " << want);
  };
  for (size_t k = 0; k < n; ++k) {
    const float* F = &of[k * 16];
    same(F[0], hostConvert<float>(l[k], RTE), "long -> float rte", k);
    same(F[1], hostConvert<float>(l[k], RTZ), "long -> float rtz", k);
    same(F[2], hostConvert<float>(l[k], RTP), "long -> float rtp", k);
    same(F[3], hostConvert<float>(l[k], RTN), "long -> float rtn", k);
    same(F[4], hostConvert<float>(ul[k], RTZ), "ulong -> float rtz", k);
    same(F[5], hostConvert<float>(ul[k], RTP), "ulong -> float rtp", k);
    same(F[6], hostConvert<float>(ul[k], RTN), "ulong -> float rtn", k);
    same(F[7], hostConvert<float>(d[k], RTE), "double -> float rte", k);
    same(F[8], hostConvert<float>(d[k], RTZ), "double -> float rtz", k);
    same(F[9], hostConvert<float>(d[k], RTP), "double -> float rtp", k);
    same(F[10], hostConvert<float>(d[k], RTN), "double -> float rtn", k);
    same(F[11], hostConvert<float>(i[k], RTZ), "int -> float rtz", k);
    same(F[12], hostConvert<float>(u[k], RTP), "uint -> float rtp", k);
    same(F[13], hostConvert<float>(i[k], RTN), "int -> float rtn", k);
    const double* D = &od[k * 4];
    same(D[0], hostConvert<double>(l[k], RTZ), "long -> double rtz", k);
    same(D[1], hostConvert<double>(l[k], RTP), "long -> double rtp", k);
    same(D[2], hostConvert<double>(ul[k], RTN), "ulong -> double rtn", k);
    same(D[3], hostConvert<double>(ul[k], RTZ), "ulong -> double rtz", k);
    const int32_t* I = &oi[k * 8];
    same(I[0], satRound<int32_t>(f[k], RTE), "float -> int sat rte", k);
    same(I[1], satRound<int32_t>(f[k], RTZ), "float -> int sat", k);
    same(I[2], satRound<int32_t>(f[k], RTP), "float -> int sat rtp", k);
    same(I[3], satRound<int32_t>(f[k], RTN), "float -> int sat rtn", k);
    same(I[4], satRound<int32_t>(d[k], RTE), "double -> int sat rte", k);
    same(I[5], satRound<int32_t>(d[k], RTP), "double -> int sat rtp", k);
    same(I[6], satRound<int32_t>(d[k], RTN), "double -> int sat rtn", k);
    same(I[7], static_cast<int32_t>(satRound<int64_t>(d[k], RTP)), "double -> long sat rtp", k);
    const uint32_t* U = &ou[k * 4];
    same(U[0], sat<uint32_t>(l[k]), "long -> uint sat", k);
    same(U[1], sat<uint32_t>(i[k]), "int -> uint sat", k);
    same(U[2], satRound<uint32_t>(f[k], RTN), "float -> uint sat rtn", k);
    same(U[3], sat<uint32_t>(ul[k]), "ulong -> uint sat", k);
    const uint8_t* UC = &ouc[k * 4];
    same(UC[0], sat<uint8_t>(i[k]), "int -> uchar sat", k);
    same(UC[1], sat<uint8_t>(u[k]), "uint -> uchar sat", k);
    same(UC[2], sat<uint8_t>(l[k]), "long -> uchar sat", k);
    same(UC[3], uint8_t{20}, "char promoted -> uchar sat", k);
    same(os[k * 2], sat<int16_t>(l[k]), "long -> short sat", k);
    same(os[k * 2 + 1], sat<int16_t>(u[k]), "uint -> short sat", k);
    same(oc[1 + k * 2], sat<int8_t>(u[k]), "uint -> char sat", k);
    same(oc[2 + k * 2], sat<int8_t>(ul[k]), "ulong -> char sat", k);
    const uint16_t* H = &oh[k * 4];
    if (!std::isnan(f[k])) {
      same(H[0], halfOf(f[k], RTZ), "float -> half rtz", k);
      same(H[1], halfOf(f[k], RTP), "float -> half rtp", k);
    }
    if (!std::isnan(d[k])) same(H[2], halfOf(d[k], RTN), "double -> half rtn", k);
    same(H[3], halfOf(i[k], RTZ), "int -> half rtz", k);
  }
  CHECK(checked > 40 * n);
}
