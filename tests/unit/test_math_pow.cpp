// OpenCL.std pow and atan2 of float and half (ir/lower_math.cpp, buildMath2F32): their error against the
// correctly rounded result over about a million operand pairs each (tests/unit/math_check_pow.h), their
// special cases against glibc's powf / atan2f bit for bit, exact integer powers, constant folding, the
// half versions against the interpreter's (the float function rounded to half), and lowering: the
// kernel's calls become the expansions and are recorded as approximations.
#include <doctest/doctest.h>

#include <cstring>

#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "sim/runspec.h"
#include "tests/unit/interp_test_util.h"
#include "tests/unit/math_check_pow.h"
#include "tests/unit/math_latency.h"

using namespace spvhls;
using namespace spvhls::mathcheck;

TEST_CASE("f32 pow: within 1 ulp of the correctly rounded result, glibc's special values") {
  Program p = powProgram();
  Stats s;
  for (const auto& [x, y] : powInputs(1'000'000, 2024))
    checkPow(p, x, y, 1, s);
  MESSAGE(
      fmt::format("pow: {} pairs, max {} ulp from correctly rounded (x 0x{:08x}), {} not correctly rounded, "
                  "max error {:.4f} ulp; vs glibc: {} differ, max {} ulp; glibc itself: {} not correctly "
                  "rounded, max {} ulp",
                  s.inputs, s.maxUlps, s.worst, s.notCorrectlyRounded, s.maxError, s.differFromGlibc,
                  s.maxUlpsVsGlibc, s.glibcNotCorrectlyRounded, s.glibcMaxUlps));
  for (const std::string& problem : s.problems)
    MESSAGE(problem);
  CHECK(s.inputs >= 1'000'000);
  CHECK(s.specialMismatches == 0);
  CHECK(s.maxUlps <= ir::lower::mathMaxUlps(ir::lower::MathFn::Pow));
  CHECK(s.maxError < 1.0);
  // 2^-41 of relative error leaves a rounding undecided about once in 2^17 results.
  CHECK(s.notCorrectlyRounded <= 40);
}

TEST_CASE("f32 pow: exact where the result is representable") {
  Program p = powProgram();
  for (int k = -149; k <= 127; ++k)
    CHECK(p.runArgs({0x40000000, asBits(float(k))}) == asBits(std::ldexp(1.0f, k))); // 2^k
  for (int a = 1; a <= 4096; ++a) {
    CHECK(p.runArgs({asBits(float(a)), 0x40000000}) == asBits(float(a) * float(a))); // a^2, exact
    if (a <= 256)
      CHECK(p.runArgs({asBits(float(-a)), 0x40400000}) == asBits(-float(a) * float(a) * float(a)));
    CHECK(p.runArgs({asBits(float(a * a)), 0x3f000000}) == asBits(float(a))); // sqrt
  }
  CHECK(p.runArgs({0xc0000000, 0xc2fe0000}) == 0x80400000); // (-2)^-127: odd, a negative subnormal
  CHECK(p.runArgs({0xc0000000, 0xc2fc0000}) == 0x00800000); // (-2)^-126: even
  CHECK(p.runArgs({0x40000000, 0xc3160000}) == 0);          // 2^-150: the tie goes to the even zero
  CHECK(p.runArgs({0x40000000, 0x43000000}) == 0x7f800000); // 2^128 overflows
  CHECK(p.runArgs({0x7f7fffff, 0x3f800000}) == 0x7f7fffff); // x^1
}

namespace {
// Constant operand pairs fold (while lowering) to what the op list computes.
void checkFolds(MathFn fn, const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  Program p = math2Program(fn);
  for (const auto& [x, y] : pairs) {
    std::vector<ir::Op> ops;
    ir::lower::Builder b(ops, nullptr);
    const ir::ValueId v = ir::lower::buildMath2F32(b, fn, b.constant(32, x), b.constant(32, y));
    REQUIRE(b.constValue(v).has_value());
    CHECK_MESSAGE(*b.constValue(v) == p.runArgs({x, y}), x << " " << y);
  }
}
} // namespace

TEST_CASE("f32 pow: a constant operand pair folds to what the op list computes") {
  checkFolds(MathFn::Pow, powInputs(4000, 7));
}

namespace {
// The half expansion of fn on half operand pairs against the correctly rounded half and against the
// interpreter's result (glibc's float function on the widened operands, rounded to half).
struct HalfResult {
  uint64_t maxOurs = 0, oursNotCr = 0, apart = 0, maxApart = 0, specialMismatches = 0;
};
HalfResult checkHalf(MathFn fn, const std::vector<std::pair<uint16_t, uint16_t>>& pairs) {
  Program p = math2Program(fn, 16);
  HalfResult h;
  for (const auto& [ha, hb] : pairs) {
    const float af = float(fromBits<_Float16>(ha)), bf = float(fromBits<_Float16>(hb));
    const uint64_t got = p.runArgs({ha, hb});
    const uint64_t interp = toBits<uint16_t>(_Float16(asFloat(glibcMath2F32(fn, asBits(af), asBits(bf)))));
    if (math2Special(fn, asBits(af), asBits(bf))) {
      h.specialMismatches += got != interp;
      continue;
    }
    const uint64_t cr = toBits<uint16_t>(_Float16(double(quad2(fn, __float128(af), __float128(bf)))));
    const uint64_t ours = sim::ulpDistance(got, cr, 2);
    h.maxOurs = std::max(h.maxOurs, ours), h.oursNotCr += ours != 0;
    const uint64_t d = sim::ulpDistance(got, interp, 2);
    h.maxApart = std::max(h.maxApart, d), h.apart += d != 0;
  }
  MESSAGE(fmt::format("half {}: {} pairs, ours max {} ulp from correctly rounded ({} not), apart from the "
                      "interpreter on {} (max {} ulp), special mismatches {}",
                      ir::lower::mathFnName(fn), pairs.size(), h.maxOurs, h.oursNotCr, h.apart, h.maxApart,
                      h.specialMismatches));
  return h;
}
} // namespace

TEST_CASE("half pow: the float expansion rounded to half, against the interpreter's") {
  std::mt19937 rng(77);
  std::vector<uint16_t> specials = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7d23, 0x3c00, 0xbc00,
                                    0x3800, 0xb800, 0x4000, 0xc000, 0x4200, 0xc200, 0x0001, 0x03ff, 0x0400,
                                    0x7bff, 0xfbff, 0x3c01, 0x3bff, 0x6800, 0xe801, 0x4c00, 0xcc00};
  std::vector<std::pair<uint16_t, uint16_t>> pairs;
  for (uint16_t x : specials)
    for (uint16_t y : specials)
      pairs.emplace_back(x, y);
  for (int k = 0; k < 1'000'000; ++k)
    pairs.emplace_back(uint16_t(rng()), uint16_t(rng()));
  const HalfResult h = checkHalf(MathFn::Pow, pairs);
  CHECK(h.specialMismatches == 0);
  CHECK(h.maxOurs <= ir::lower::kMathF16MaxUlps);
  CHECK(h.maxApart <= 1);
}

TEST_CASE("lowering: OpenCL.std pow becomes the expansion, recorded as an approximation") {
  const std::string body = "%r = OpExtInst %T %ocl pow %x %y\nOpStore %out %r Aligned {}\n";
  for (uint32_t bytes : {2u, 4u}) {
    LoadedModule l(mathKernelText(8 * bytes, true, 1, fmt::format(fmt::runtime(body), bytes)));
    ir::Kernel k = ir::lowerKernel(*l.view, "k");
    ir::verifyKernel(k);
    REQUIRE(k.approximations.size() == 1);
    CHECK(k.approximations[0].function == "pow");
    CHECK(k.approximations[0].width == 8 * bytes);
    CHECK(k.approximations[0].maxUlps == 1);
    CHECK(k.approximations[0].referenceUlps == 1);
    Program p = math2Program(MathFn::Pow, 8 * bytes);
    std::mt19937 rng(5);
    for (int i = 0; i < 300; ++i) {
      const uint64_t mask = bytes == 4 ? 0xffffffff : 0xffff;
      const uint64_t x = rng() & mask, y = i % 3 ? (rng() & mask) : (bytes == 4 ? 0x40400000 : 0x4200);
      const ir::EvalResult r = ir::evaluateKernel(k, {x, y, 0}, {{}, {}, std::vector<uint8_t>(bytes, 0)});
      uint64_t got = 0;
      std::memcpy(&got, r.buffers[2].data(), bytes);
      CHECK(got == p.runArgs({x, y}));
    }
  }
  LoadedModule bad(
      mathKernelText(64, true, 1, "%r = OpExtInst %T %ocl pow %x %y\nOpStore %out %r Aligned 8\n"));
  testutil::checkContains(testutil::errorOf([&] { ir::lowerKernel(*bad.view, "k"); }),
                          "OpenCL.std pow on double (64-bit) operands is not supported in hardware yet");
}

TEST_CASE("f32 pow: units as documented") {
  // docs/floating-point.md: log2Core and exp2Core in series, one f64 multiply between them.
  Program p = powProgram();
  CHECK(p.count({OpKind::FAdd, OpKind::FSub}) == 14);
  CHECK(p.count({OpKind::FMul}) == 12);
  CHECK(p.count({OpKind::SIToFP, OpKind::UIToFP, OpKind::FPToFP}) == 4);
  CHECK(p.count({OpKind::FDiv, OpKind::FSqrt, OpKind::Mul, OpKind::UDiv, OpKind::SDiv}) == 0);
  const uint32_t latency = latencyOf(p);
  MESSAGE(fmt::format("pow: {} ops ({} selects), latency {} cycles", p.ops.size(), p.count({OpKind::Select}),
                      latency));
  CHECK(latency < 200);
}

TEST_CASE("f32 atan2: within 1 ulp of the correctly rounded result, glibc's special values") {
  Program p = math2Program(MathFn::Atan2);
  Stats s;
  for (const auto& [y, x] : atan2Inputs(1'000'000, 99))
    checkMath2(p, MathFn::Atan2, y, x, 1, s);
  MESSAGE(fmt::format("atan2: {} pairs, max {} ulp from correctly rounded (y 0x{:08x}), {} not correctly "
                      "rounded, max error {:.4f} ulp; vs glibc: {} differ, max {} ulp; glibc itself: {} not "
                      "correctly rounded, max {} ulp (y 0x{:08x})",
                      s.inputs, s.maxUlps, s.worst, s.notCorrectlyRounded, s.maxError, s.differFromGlibc,
                      s.maxUlpsVsGlibc, s.glibcNotCorrectlyRounded, s.glibcMaxUlps, s.glibcWorst));
  for (const std::string& problem : s.problems)
    MESSAGE(problem);
  CHECK(s.inputs >= 1'000'000);
  CHECK(s.specialMismatches == 0);
  CHECK(s.maxUlps <= ir::lower::mathMaxUlps(MathFn::Atan2));
  CHECK(s.maxError < 1.0);
  CHECK(s.notCorrectlyRounded <= 10);
  CHECK(s.glibcMaxUlps <= ir::lower::glibcMaxUlps(MathFn::Atan2)); // what `spvhls sim` allows for
  checkFolds(MathFn::Atan2, atan2Inputs(3000, 3));
}

TEST_CASE("half atan2: the float expansion rounded to half, against the interpreter's") {
  std::mt19937 rng(78);
  std::vector<std::pair<uint16_t, uint16_t>> pairs;
  for (int k = 0; k < 1'000'000; ++k) {
    const uint16_t hy = uint16_t(rng());
    pairs.emplace_back(hy, uint16_t(rng()));
  }
  const HalfResult h = checkHalf(MathFn::Atan2, pairs);
  CHECK(h.specialMismatches == 0);
  CHECK(h.maxOurs <= ir::lower::kMathF16MaxUlps);
  CHECK(h.maxApart <= 1);
}

TEST_CASE("f32 atan2: units, and lowering records it as an approximation") {
  Program p = math2Program(MathFn::Atan2);
  CHECK(p.count({OpKind::FAdd, OpKind::FSub}) == 10);
  CHECK(p.count({OpKind::FMul}) == 6);
  CHECK(p.count({OpKind::FDiv}) == 2);
  CHECK(p.count({OpKind::FSqrt, OpKind::Mul}) == 0);
  const uint32_t latency = latencyOf(p);
  MESSAGE(fmt::format("atan2: {} ops ({} selects), latency {} cycles", p.ops.size(),
                      p.count({OpKind::Select}), latency));
  CHECK(latency < 250);
  LoadedModule l(
      mathKernelText(32, true, 1, "%r = OpExtInst %T %ocl atan2 %x %y\nOpStore %out %r Aligned 4\n"));
  ir::Kernel k = ir::lowerKernel(*l.view, "k");
  ir::verifyKernel(k);
  REQUIRE(k.approximations.size() == 1);
  CHECK(k.approximations[0].function == "atan2");
  CHECK(k.approximations[0].referenceUlps == ir::lower::glibcMaxUlps(MathFn::Atan2));
  for (const auto& [y, x] : atan2Inputs(600, 11)) {
    const ir::EvalResult r = ir::evaluateKernel(k, {y, x, 0}, {{}, {}, std::vector<uint8_t>(4, 0)});
    uint32_t got = 0;
    std::memcpy(&got, r.buffers[2].data(), 4);
    CHECK(got == p.runArgs({y, x}));
  }
}
