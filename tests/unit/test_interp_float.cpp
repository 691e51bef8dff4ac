// Golden interpreter, floating point: differential tests. The test cases are written once
// (data/interp/fp_body.h, fp_common.h) and compiled both to SPIR-V (fp.cl, see build.sh) and natively
// here; every result must match the host bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

namespace fpnative {

// OpenCL C names for the shared code.
using namespace std;
typedef unsigned int uint;
typedef unsigned char uchar;
template <typename T>
T mad(T a, T b, T c) { return std::fma(a, b, c); } // the interpreter computes mad as fma (docs/interpreter.md)

// A reference half type, independent of the interpreter's implementation: every operation is
// computed exactly (or, for / and sqrt, with enough extra precision) in __float128 / double and
// rounded once to half.
struct Half {
  _Float16 v = 0;
  Half() = default;
  Half(double d) : v(static_cast<_Float16>(d)) {}
  Half(float f) : v(static_cast<_Float16>(f)) {}
  Half(int i) : v(static_cast<_Float16>(static_cast<double>(i))) {}
  static Half of(__float128 q) { Half h; h.v = static_cast<_Float16>(q); return h; }
  explicit operator double() const { return static_cast<double>(v); }
  explicit operator float() const { return static_cast<float>(v); }
  explicit operator int() const { return static_cast<int>(static_cast<double>(v)); }
  __float128 q() const { return static_cast<__float128>(static_cast<double>(v)); }
};
inline Half operator+(Half a, Half b) { return Half::of(a.q() + b.q()); }
inline Half operator-(Half a, Half b) { return Half::of(a.q() - b.q()); }
inline Half operator*(Half a, Half b) { return Half::of(a.q() * b.q()); }
inline Half operator/(Half a, Half b) { return Half::of(a.q() / b.q()); }
inline Half operator-(Half a) { return Half::of(-a.q()); }
inline bool operator<(Half a, Half b) { return a.v < b.v; }
inline bool operator>(Half a, Half b) { return a.v > b.v; }
inline bool operator>=(Half a, Half b) { return a.v >= b.v; }
inline bool operator==(Half a, Half b) { return a.v == b.v; }
inline Half fma(Half a, Half b, Half c) { return Half::of(a.q() * b.q() + c.q()); } // exact in 113 bits
inline Half sqrt(Half a) { return Half(std::sqrt(static_cast<double>(a))); }
inline bool isnan(Half a) { return std::isnan(static_cast<double>(a)); }
inline bool isinf(Half a) { return std::isinf(static_cast<double>(a)); }
typedef Half half;
// The Half overloads above would hide std's for float and double.
using std::fma;
using std::isinf;
using std::isnan;
using std::sqrt;

#include "data/interp/fp_common.h"

} // namespace fpnative

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

// Special values (signed zeros, subnormals, infinities, NaN, rounding ties, conversion limits) and
// random ones of every magnitude.
template <typename T>
std::vector<T> sampleValues(unsigned seed, size_t randomCount) {
  const T inf = std::numeric_limits<T>::infinity();
  std::vector<T> v = {T(0), -T(0), T(1), T(-1), T(0.5), T(-0.5), T(1.5), T(2.5), T(-2.5), T(3),
                      std::numeric_limits<T>::denorm_min(), -std::numeric_limits<T>::denorm_min() * T(3),
                      inf, -inf, std::numeric_limits<T>::quiet_NaN(), T(1e30), T(-1e30), std::numeric_limits<T>::max(),
                      T(123.456), T(0.1), T(1e-7), T(7), T(-7), T(2147483520.0), T(-2147483648.0), T(4e9), T(65504),
                      T(1e10), T(255.9), T(-32768.5), T(9.2e18), T(-0.75), T(1e-300 * 1e-8)};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> mant(-2.0, 2.0);
  std::uniform_int_distribution<int> ex(-40, 40);
  for (size_t i = 0; i < randomCount; ++i) v.push_back(static_cast<T>(std::ldexp(mant(rng), ex(rng))));
  return v;
}

struct Cases {
  std::vector<int> iv;
  std::vector<uint32_t> uv;
  std::vector<int64_t> lv;
};
Cases intInputs(size_t n) {
  const int64_t pool[] = {0, 1, -1, INT_MAX, INT_MIN, 16777217, -16777219, 123456789, 65519, 65520, -70000, 3};
  Cases c;
  for (size_t i = 0; i < n; ++i) {
    int64_t p = pool[i % std::size(pool)];
    c.iv.push_back(static_cast<int>(p));
    c.uv.push_back(static_cast<uint32_t>(p) * 2654435761u);
    c.lv.push_back(p * (int64_t(1) << (i % 40)) + static_cast<int64_t>(i));
  }
  return c;
}

RunSpec fpSpec(const std::string& kernel, const char* ft, size_t n, size_t nf, size_t ni, bool withUL) {
  std::string json = fmt::format(R"({{"kernel": "{0}", "args": [
      {{"name": "a", "buffer": {{"type": "{1}", "length": {2}}}}},
      {{"name": "b", "buffer": {{"type": "{1}", "length": {2}}}}},
      {{"name": "c", "buffer": {{"type": "{1}", "length": {2}}}}},
      {{"name": "iv", "buffer": {{"type": "i32", "length": {2}}}}},
      {5}
      {{"name": "o", "buffer": {{"type": "{1}", "length": {3}}}}},
      {{"name": "io", "buffer": {{"type": "i64", "length": {4}}}}},
      {{"name": "n", "value": {2}}}]}})",
                                 kernel, ft, n, n * nf, n * ni,
                                 withUL ? fmt::format(R"({{"name": "uv", "buffer": {{"type": "u32", "length": {0}}}}},
                                                         {{"name": "lv", "buffer": {{"type": "i64", "length": {0}}}}},)", n)
                                        : "");
  return parseRunSpec(json, (kInterpData / "fp.json").string());
}

// Runs `kernel` on all (a, b, c) triples built from `vals` and compares every output with `native`.
template <typename T, typename Native>
void differential(const std::string& kernel, const char* ft, const std::vector<T>& vals, Native native) {
  std::vector<T> a, b, c;
  const size_t m = vals.size();
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < m; j += (i < 34 ? 1 : 5)) { // every pair of specials, a sample of the rest
      a.push_back(vals[i]);
      b.push_back(vals[j]);
      c.push_back(vals[(i * 7 + j * 3) % m]);
    }
  const size_t n = a.size();
  Cases ints = intInputs(n);
  RunSpec s = fpSpec(kernel, ft, n, FP_NF, FP_NI, true);
  s.args[0].init = bytesOf(a);
  s.args[1].init = bytesOf(b);
  s.args[2].init = bytesOf(c);
  s.args[3].init = bytesOf(ints.iv);
  s.args[4].init = bytesOf(ints.uv);
  s.args[5].init = bytesOf(ints.lv);
  Kernel k("fp.spv");
  InterpResult r = k.run(s);
  auto o = elems<T>(r.buffers[6]);
  auto io = elems<int64_t>(r.buffers[7]);
  std::vector<T> eo(FP_NF);
  std::vector<long> eio(FP_NI);
  size_t mismatches = 0;
  for (size_t i = 0; i < n && mismatches < 10; ++i) {
    native(a[i], b[i], c[i], ints.iv[i], ints.uv[i], static_cast<long>(ints.lv[i]), eo.data(), eio.data());
    for (size_t k2 = 0; k2 < FP_NF; ++k2)
      if (bitsOf(eo[k2]) != bitsOf(o[i * FP_NF + k2])) {
        ++mismatches;
        FAIL_CHECK(fmt::format("{} case {} (a={}, b={}, c={}): float output {}: expected {} ({:#x}), interpreter {} ({:#x})", kernel, i,
                               a[i], b[i], c[i], k2, eo[k2], bitsOf(eo[k2]), o[i * FP_NF + k2], bitsOf(o[i * FP_NF + k2])));
      }
    for (size_t k2 = 0; k2 < FP_NI; ++k2)
      if (eio[k2] != io[i * FP_NI + k2]) {
        ++mismatches;
        FAIL_CHECK(fmt::format("{} case {} (a={}, b={}): integer output {}: expected {}, interpreter {}", kernel, i, a[i], b[i], k2,
                               eio[k2], io[i * FP_NI + k2]));
      }
  }
  CHECK(n > 1000);
}

} // namespace

TEST_CASE("interp float: f32 operations match the host bit for bit") {
  differential<float>("fp32", "f32", sampleValues<float>(1, 30), fpnative::fp32_case);
}

TEST_CASE("interp float: f64 operations match the host bit for bit") {
  differential<double>("fp64", "f64", sampleValues<double>(2, 30), fpnative::fp64_case);
}

TEST_CASE("interp float: f16 operations are correctly rounded") {
  std::vector<double> src = {0, -0.0, 1, -1, 0.5, 1.5, 2.5, -2.5, 3, 5.96e-8, -1.2e-7, 6.1e-5, 65504, -65504, 1000.5, 2049,
                             0.1, 0.3333, 7, -7, 999, 1e-3};
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-300, 300);
  for (int i = 0; i < 40; ++i) src.push_back(u(rng));
  std::vector<_Float16> vals;
  for (double d : src) vals.push_back(static_cast<_Float16>(d));
  vals.push_back(std::numeric_limits<_Float16>::infinity());
  vals.push_back(-std::numeric_limits<_Float16>::infinity());
  vals.push_back(std::numeric_limits<_Float16>::quiet_NaN());
  std::vector<_Float16> a, b, c;
  for (size_t i = 0; i < vals.size(); ++i)
    for (size_t j = 0; j < vals.size(); ++j) {
      a.push_back(vals[i]);
      b.push_back(vals[j]);
      c.push_back(vals[(i * 5 + j * 11) % vals.size()]);
    }
  const size_t n = a.size();
  Cases ints = intInputs(n);
  std::string json = fmt::format(R"({{"kernel": "fp16", "args": [
      {{"name": "a", "buffer": {{"type": "f16", "length": {0}}}}}, {{"name": "b", "buffer": {{"type": "f16", "length": {0}}}}},
      {{"name": "c", "buffer": {{"type": "f16", "length": {0}}}}}, {{"name": "iv", "buffer": {{"type": "i32", "length": {0}}}}},
      {{"name": "o", "buffer": {{"type": "f16", "length": {1}}}}}, {{"name": "io", "buffer": {{"type": "i64", "length": {2}}}}},
      {{"name": "n", "value": {0}}}]}})", n, n * 11, n * 6);
  RunSpec s = parseRunSpec(json, "fp16.json");
  s.args[0].init = bytesOf(a);
  s.args[1].init = bytesOf(b);
  s.args[2].init = bytesOf(c);
  s.args[3].init = bytesOf(ints.iv);
  Kernel k("fp.spv");
  InterpResult r = k.run(s);
  auto o = elems<uint16_t>(r.buffers[4]);
  auto io = elems<int64_t>(r.buffers[5]);
  size_t mismatches = 0;
  for (size_t i = 0; i < n && mismatches < 10; ++i) {
    fpnative::Half eo[11];
    long eio[6];
    fpnative::Half ha, hb, hc;
    ha.v = a[i];
    hb.v = b[i];
    hc.v = c[i];
    fpnative::fp16_case(ha, hb, hc, ints.iv[i], eo, eio);
    for (int k2 = 0; k2 < 11; ++k2)
      if (bitsOf(eo[k2].v) != o[i * 11 + k2]) {
        ++mismatches;
        FAIL_CHECK(fmt::format("fp16 case {} (a={}, b={}, c={}): output {}: expected {:#x}, interpreter {:#x}", i, double(a[i]),
                               double(b[i]), double(c[i]), k2, bitsOf(eo[k2].v), o[i * 11 + k2]));
      }
    for (int k2 = 0; k2 < 6; ++k2)
      if (eio[k2] != io[i * 6 + k2]) {
        ++mismatches;
        FAIL_CHECK(fmt::format("fp16 case {}: integer output {}: expected {}, interpreter {}", i, k2, eio[k2], io[i * 6 + k2]));
      }
  }
}

TEST_CASE("interp float: saturating conversions and out-of-range conversions") {
  Kernel k("fp.spv");
  std::vector<float> a = {0.f, -0.f, 1.9f, -1.9f, 3e9f, -3e9f, 5e9f, std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(), 2147483520.f,
                          4294967040.f};
  RunSpec s = parseRunSpec(fmt::format(R"({{"kernel": "sat", "args": [{{"name": "a", "buffer": {{"type": "f32", "length": {0}}}}},
      {{"name": "s", "buffer": {{"type": "i32", "length": {0}}}}}, {{"name": "u", "buffer": {{"type": "u32", "length": {0}}}}},
      {{"name": "n", "value": {0}}}]}})", a.size()), "sat.json");
  s.args[0].init = bytesOf(a);
  InterpResult r = k.run(s);
  auto si = elems<int32_t>(r.buffers[1]);
  auto ui = elems<uint32_t>(r.buffers[2]);
  for (size_t i = 0; i < a.size(); ++i) {
    CAPTURE(a[i]);
    double t = std::isnan(a[i]) ? 0 : std::trunc(static_cast<double>(a[i]));
    CHECK(si[i] == static_cast<int32_t>(std::clamp(t, double(INT_MIN), double(INT_MAX))));
    CHECK(ui[i] == static_cast<uint32_t>(std::clamp(t, 0.0, double(UINT_MAX))));
  }

  RunSpec bad = parseRunSpec(R"({"kernel": "badconv", "args": [{"name": "a", "buffer": {"type": "f32", "length": 1, "init": [3e9]}},
      {"name": "s", "buffer": {"type": "i32", "length": 1}}]})", "bad.json");
  std::string e = k.error(bad);
  CHECK_MESSAGE(e.find("OpConvertFToS") != std::string::npos, e);
  CHECK_MESSAGE(e.find("out of range") != std::string::npos, e);
  bad.args[0].init = bytesOf(std::vector<float>{std::numeric_limits<float>::quiet_NaN()});
  e = k.error(bad);
  CHECK_MESSAGE(e.find("nan to a 32-bit signed integer is out of range") != std::string::npos, e);
}

TEST_CASE("interp float: unordered comparisons, OpFRem and OpFMod (hand-written SPIR-V)") {
  Kernel k("sgspec.spvasm");
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> a = {1, 2, nan, 1, nan, -0.f, 5.5f, -5.5f, 5.5f, -5.5f, 7, inf};
  std::vector<float> b = {2, 1, 1, nan, nan, 0.f, 2, 2, -2, -2, 7, 3};
  const size_t n = a.size();
  RunSpec s = parseRunSpec(fmt::format(R"({{"kernel": "funord", "args": [{{"name": "a", "buffer": {{"type": "f32", "length": {0}}}}},
      {{"name": "b", "buffer": {{"type": "f32", "length": {0}}}}}, {{"name": "flags", "buffer": {{"type": "i32", "length": {0}}}}},
      {{"name": "rem", "buffer": {{"type": "f32", "length": {1}}}}}], "global_size": [{0}]}})", n, 2 * n), "funord.json");
  s.args[0].init = bytesOf(a);
  s.args[1].init = bytesOf(b);
  InterpResult r = k.run(s);
  auto flags = elems<int32_t>(r.buffers[2]);
  auto rem = elems<float>(r.buffers[3]);
  for (size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    float x = a[i], y = b[i];
    bool un = std::isnan(x) || std::isnan(y);
    int expect = (un || x == y) * 1 | (un || x != y) * 2 | (un || x < y) * 4 | (un || x > y) * 8 | (un || x <= y) * 16 |
                 (un || x >= y) * 32 | (!un && x != y) * 64 | (!un) * 128;
    CHECK(flags[i] == expect);
    float fr = std::fmod(x, y); // OpFRem: sign of the dividend
    CHECK(bitsOf(rem[2 * i]) == bitsOf(fr));
    float fm = fr; // OpFMod: sign of the divisor
    if (fm == 0) fm = std::copysign(0.f, y);
    else if (std::signbit(fm) != std::signbit(y)) fm += y;
    if (!std::isnan(fm)) CHECK(bitsOf(rem[2 * i + 1]) == bitsOf(fm));
    else CHECK(std::isnan(rem[2 * i + 1]));
  }
  CHECK(rem[2 * 7 + 1] == 0.5f); // -5.5 mod 2 = 0.5
  CHECK(rem[2 * 8 + 1] == -0.5f); // 5.5 mod -2 = -0.5
}

TEST_CASE("interp float: unsupported built-ins are named") {
  Kernel k("fp.spv");
  RunSpec s = parseRunSpec(R"({"kernel": "unsupported", "args": [{"name": "a", "buffer": {"type": "f32", "length": 1}}]})", "u.json");
  std::string e = k.error(s);
  CHECK_MESSAGE(e.find("unsupported instruction OpExtInst OpenCL.std lgamma") != std::string::npos, e);
}

TEST_CASE("interp float: vector operations are component-wise") {
  Kernel k("fp.spv");
  std::vector<float> a = {1.25f, -3.7f, -0.f, 1e-3f}, b = {0.3f, 2.0f, 1.0f, -7.5f}; // no NaN: convert_int4 (test below)
  RunSpec s = parseRunSpec(R"({"kernel": "vec4", "args": [{"name": "a", "buffer": {"type": "f32", "length": 4}},
      {"name": "b", "buffer": {"type": "f32", "length": 4}}, {"name": "o", "buffer": {"type": "f32", "length": 16}},
      {"name": "io", "buffer": {"type": "i32", "length": 4}}]})", "vec4.json");
  s.args[0].init = bytesOf(a);
  s.args[1].init = bytesOf(b);
  InterpResult r = k.run(s);
  auto o = elems<float>(r.buffers[2]);
  auto io = elems<int32_t>(r.buffers[3]);
  const float c[4] = {0.5f, -0.5f, 1e-8f, 3.0f};
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    float x = a[i], y = b[i];
    float p = x * y; // separate statements: no contraction on the host either
    float e0 = p + std::sqrt(std::fabs(x));
    float e2 = std::isnan(x) ? 0.f : static_cast<float>(static_cast<int>(x * 100.0f)) / y;
    float f = std::fmin(x, y);
    float e3 = f - std::floor(y);
    CHECK(bitsOf(o[i]) == bitsOf(e0));
    CHECK(bitsOf(o[4 + i]) == bitsOf(std::fma(x, y, c[i])));
    if (!std::isnan(x)) CHECK(bitsOf(o[8 + i]) == bitsOf(e2));
    CHECK(bitsOf(o[12 + i]) == bitsOf(e3));
    // OpenCL vector relational results are -1 (all bits) for true.
    CHECK(io[i] == (x < y ? -1 : 0) + (std::isnan(x) ? -2 : 0));
  }
}

TEST_CASE("interp float: NaN in a vector conversion is an error") {
  Kernel k("fp.spv");
  RunSpec s = parseRunSpec(R"({"kernel": "vec4", "args": [{"name": "a", "buffer": {"type": "f32", "length": 4, "init": [1, "nan", 2, 3]}},
      {"name": "b", "buffer": {"type": "f32", "length": 4, "init": [1, 1, 1, 1]}}, {"name": "o", "buffer": {"type": "f32", "length": 16}},
      {"name": "io", "buffer": {"type": "i32", "length": 4}}]})", "vec4.json");
  std::string e = k.error(s);
  CHECK_MESSAGE(e.find("conversion of nan to a 32-bit signed integer is out of range") != std::string::npos, e);
}

TEST_CASE("interp: convert_char_sat (OpSConvert + SaturatedConversion) clamps; more in test_interp_convert.cpp") {
  Kernel k("fp.spv");
  for (auto [in, out] : {std::pair{1000, 127}, {-1000, -128}, {-5, -5}}) {
    RunSpec is = parseRunSpec(fmt::format(R"({{"kernel": "isat", "args": [{{"name": "a", "buffer": {{"type": "i32", "length": 1, "init": [{}]}}}},
        {{"name": "c", "buffer": {{"type": "i8", "length": 1}}}}]}})", in), "isat.json");
    CHECK(static_cast<int8_t>(k.run(is).buffers[1].at(0)) == out);
  }
}
