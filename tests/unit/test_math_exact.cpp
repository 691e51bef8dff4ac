// OpenCL.std rsqrt and fmod in hardware (ir/lower_math_exact.cpp) and in the interpreter
// (sim/interp_float.cpp):
//  - rsqrt: the op list for half (every operand) and float (specials and a million operands) equals
//    the correctly rounded value, decided exactly (the midpoints' squares times x against 1 in quad
//    precision); for double, within 1 ulp of it (the documented bound); the interpreter gives the
//    correctly rounded value for all three widths;
//  - fmod: the op list equals glibc's fmodf (the interpreter's reference) bit for bit on every pair of
//    special values and 900,000 pairs of random magnitudes, for float and half;
//  - lowering: a kernel calling them evaluates (IR evaluator) as the interpreter runs it, bit for bit
//    except double rsqrt (within its bound, recorded as an approximation); double fmod is rejected.
// The exhaustive float rsqrt check is tests/bench/bench_math.cpp (docs/floating-point.md).
#include <doctest/doctest.h>

#include <cstring>

#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "sim/interp.h"
#include "sim/runspec.h"
#include "tests/unit/interp_test_util.h"
#include "tests/unit/math_check.h"

using namespace spvhls;
using namespace spvhls::mathcheck;

namespace {

// The bits of w-bit operands of every class: zeros, subnormals, normals, infinities, NaNs.
std::vector<uint64_t> specials(uint32_t w) {
  const uint32_t mant = w == 16 ? 10 : w == 32 ? 23 : 52;
  const uint64_t sign = uint64_t(1) << (w - 1), inf = magMask(w) & ~((uint64_t(1) << mant) - 1);
  const uint64_t one = (magMask(w) >> 1) & inf;
  std::vector<uint64_t> v;
  for (uint64_t m : {uint64_t(0), uint64_t(1), uint64_t(3), (uint64_t(1) << mant) - 1, uint64_t(1) << mant,
                     one, one + 1, one - 1, one + (uint64_t(1) << mant), inf - 1, inf, inf + 1,
                     inf | (uint64_t(1) << (mant - 1)), inf | 0x15})
    for (uint64_t s : {uint64_t(0), sign})
      v.push_back(m | s);
  return v;
}
// Random bits of every binade: a uniform exponent field and mantissa, either sign.
uint64_t randomBits(std::mt19937_64& rng, uint32_t w) {
  return rng() & (magMask(w) | (uint64_t(1) << (w - 1)));
}

Program fmodProgram(uint32_t w) {
  return Program([](ir::lower::Builder& b,
                    const std::vector<ValueId>& x) { return ir::lower::buildFmod(b, x[0], x[1]); },
                 {w, w});
}

// glibc's fmodf as the interpreter calls it: the operands widened to double (a signalling NaN quieted)
// and narrowed to float; a half result rounded from it (exact: the remainder is a half).
uint64_t glibcFmod(uint64_t x, uint64_t y, uint32_t w) {
  const double a = double(toQuad(x, w)), b = double(toQuad(y, w));
  const float r = ::fmodf(float(a), float(b));
  return w == 32 ? toBits<uint32_t>(r) : toBits<uint16_t>(_Float16(double(r)));
}

// A kernel k(T x, T y, __global T* out): out[0] = rsqrt(x), out[1] = fmod(x, y) (without fmod for
// double, which is rejected: `withFmod`).
std::string kernelText(uint32_t w, bool withFmod) {
  return mathKernelText(w, true, 2,
                        "%r = OpExtInst %T %ocl rsqrt %x\n%p0 = OpInBoundsPtrAccessChain %pT %out %ulong_0\n"
                        "OpStore %p0 %r\n" +
                            std::string(withFmod
                                            ? "%f = OpExtInst %T %ocl fmod %x %y\n%p1 = "
                                              "OpInBoundsPtrAccessChain %pT %out %ulong_1\nOpStore %p1 %f\n"
                                            : ""));
}

uint64_t element(const std::vector<uint8_t>& buf, size_t i, uint32_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, buf.data() + i * bytes, bytes);
  return v;
}

} // namespace

TEST_CASE("rsqrt: half and float correctly rounded on the op list, double within 1 ulp") {
  // half: every operand.
  Program h = rsqrtProgram(16);
  size_t halfChecked = 0;
  for (uint64_t x = 0; x < 0x10000; ++x) {
    const uint64_t got = h.runArgs({x});
    const uint64_t mag = x & 0x7fff;
    if (mag > 0x7c00)
      CHECK_MESSAGE((got & 0x7fff) > 0x7c00, x); // NaN stays NaN
    else if (mag == 0)
      CHECK(got == ((x & 0x8000) | 0x7c00)); // +-0: +-inf
    else if (x & 0x8000)
      CHECK_MESSAGE((got & 0x7fff) > 0x7c00, x);
    else if (mag == 0x7c00)
      CHECK(got == 0);
    else {
      CHECK_MESSAGE(got == rsqrtCorrect(x, 16), x);
      ++halfChecked;
    }
  }
  CHECK(halfChecked == 0x7bff);
  // float: specials and a million operands of every binade.
  Program f = rsqrtProgram(32);
  std::mt19937_64 rng(5);
  size_t floatChecked = 0;
  std::vector<uint64_t> xs = specials(32);
  for (int i = 0; i < 1'000'000; ++i)
    xs.push_back(randomBits(rng, 32) & 0x7fffffff);
  for (uint64_t x : xs) {
    const uint64_t got = f.runArgs({x});
    if ((x & 0x7fffffff) == 0)
      CHECK(got == ((x & 0x80000000) | 0x7f800000));
    else if (x == 0x7f800000)
      CHECK(got == 0);
    else if (x >= 0x7f800000)
      CHECK(isNan(uint32_t(got)));
    else {
      CHECK_MESSAGE(got == rsqrtCorrect(x, 32), x);
      ++floatChecked;
    }
  }
  CHECK(floatChecked > 990'000);
  // double: two roundings, within the documented bound; how often it is not correctly rounded.
  Program d = rsqrtProgram(64);
  uint64_t maxUlps = 0, notCorrect = 0, checked = 0;
  for (int i = 0; i < 300'000; ++i) {
    const uint64_t x = randomBits(rng, 64) & 0x7fffffffffffffff;
    if (x == 0 || x >= 0x7ff0000000000000) continue;
    const uint64_t got = d.runArgs({x}), want = rsqrtCorrect(x, 64);
    const uint64_t ulps = sim::ulpDistance(got, want, 8);
    maxUlps = std::max(maxUlps, ulps);
    notCorrect += ulps != 0;
    ++checked;
  }
  MESSAGE(fmt::format("double rsqrt: {} operands, {} not correctly rounded, max {} ulp", checked, notCorrect,
                      maxUlps));
  CHECK(checked > 290'000);
  CHECK(maxUlps <= ir::lower::kRsqrtF64MaxUlps);
  CHECK(notCorrect > 0); // the bound is not vacuous: double really rounds twice
}

TEST_CASE("fmod: float and half bit-exact with glibc's fmodf") {
  for (uint32_t w : {32u, 16u}) {
    CAPTURE(w);
    Program p = fmodProgram(w);
    const std::vector<uint64_t> sp = specials(w);
    size_t mismatches = 0, checked = 0;
    auto check = [&](uint64_t x, uint64_t y) {
      const uint64_t got = p.runArgs({x, y}), want = glibcFmod(x, y, w);
      ++checked;
      if (got != want && ++mismatches <= 10)
        MESSAGE(fmt::format("fmod(0x{:x}, 0x{:x}): 0x{:x}, glibc 0x{:x}", x, y, got, want));
    };
    for (uint64_t x : sp)
      for (uint64_t y : sp)
        check(x, y);
    std::mt19937_64 rng(w);
    for (int i = 0; i < 300'000; ++i) {
      const uint64_t x = randomBits(rng, w), y = randomBits(rng, w);
      check(x, y);
      // Operands of near exponents (the remainder's bits matter most there), and y a subnormal.
      check(x, (x ^ (rng() & ((uint64_t(1) << (w == 32 ? 26 : 12)) - 1))) & magMask(w));
      check(x, rng() & (w == 32 ? 0x7fffff : 0x3ff));
    }
    CHECK(checked > 900'000u);
    CHECK(mismatches == 0);
  }
  // The remainder is exact where the quotient is huge: fmod(FLT_MAX, min subnormal) = 0,
  // fmod(2^127, 3 * 2^-149), fmod(1, 0.1f).
  Program f = fmodProgram(32);
  CHECK(f.runArgs({0x7f7fffff, 1}) == 0);
  CHECK(f.runArgs({0xff7fffff, 1}) == 0x80000000);
  CHECK(f.runArgs({0x7f000000, 3}) == toBits<uint32_t>(std::fmod(0x1p127f, 3 * 0x1p-149f)));
  CHECK(f.runArgs({0x3f800000, toBits<uint32_t>(0.1f)}) == toBits<uint32_t>(std::fmod(1.0f, 0.1f)));
  MESSAGE(fmt::format("fmod op list: f32 {} ops, f16 {} ops", f.ops.size(), fmodProgram(16).ops.size()));
}

TEST_CASE("lowering: rsqrt and fmod evaluate as the interpreter runs them; double fmod is rejected") {
  for (uint32_t w : {16u, 32u, 64u}) {
    CAPTURE(w);
    LoadedModule l(kernelText(w, w != 64));
    ir::Kernel k = ir::lowerKernel(*l.view, "k");
    ir::verifyKernel(k);
    // Only double rsqrt is an approximation (compared in ulps by `spvhls sim`).
    REQUIRE(k.approximations.size() == (w == 64 ? 1u : 0u));
    if (w == 64) {
      CHECK(k.approximations[0].function == "rsqrt");
      CHECK(k.approximations[0].maxUlps == ir::lower::kRsqrtF64MaxUlps);
    }
    const uint32_t bytes = w / 8;
    sim::RunSpec spec = sim::parseRunSpec(
        fmt::format(R"({{"kernel": "k", "args": [{{"name": "x", "type": "f{0}", "value": 0}},
                    {{"name": "y", "type": "f{0}", "value": 0}},
                    {{"name": "out", "buffer": {{"type": "f{0}", "length": 2}}}}]}})",
                    w),
        "exact.json");
    std::mt19937_64 rng(w + 1);
    std::vector<uint64_t> xs = specials(w);
    for (int i = 0; i < 200; ++i)
      xs.push_back(randomBits(rng, w));
    for (size_t i = 0; i < xs.size(); ++i) {
      const uint64_t x = xs[i], y = i < specials(w).size() ? xs[(i * 7) % xs.size()] : randomBits(rng, w);
      spec.args[0].scalar = x;
      spec.args[1].scalar = y;
      const sim::InterpResult golden = sim::interpret(*l.view, spec);
      const ir::EvalResult hw = ir::evaluateKernel(k, {x, y, 0}, sim::initialBuffers(spec));
      const uint64_t want = element(golden.buffers[2], 0, bytes), got = element(hw.buffers[2], 0, bytes);
      const bool positive = (x & (uint64_t(1) << (w - 1))) == 0 && (x & magMask(w)) != 0 &&
                            (x & magMask(w)) < (magMask(w) & ~((uint64_t(1) << (w == 16   ? 10
                                                                                : w == 32 ? 23
                                                                                          : 52)) -
                                                               1));
      if (positive) CHECK_MESSAGE(want == rsqrtCorrect(x, w), x); // the interpreter: correctly rounded
      if (w == 64)
        CHECK(sim::ulpDistance(got, want, 8) <= ir::lower::kRsqrtF64MaxUlps);
      else
        CHECK_MESSAGE(got == want, "rsqrt " << x);
      if (w != 64)
        CHECK_MESSAGE(element(hw.buffers[2], 1, bytes) == element(golden.buffers[2], 1, bytes),
                      "fmod " << x << " " << y);
    }
  }
  LoadedModule bad(kernelText(64, true));
  testutil::checkContains(testutil::errorOf([&] { ir::lowerKernel(*bad.view, "k"); }),
                          "OpenCL.std fmod on double (64-bit) operands is not supported in hardware yet");
}
