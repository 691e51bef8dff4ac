// The f32 exp, exp2, exp10, log, log2, log10, sin, cos, tan, atan, asin and acos expansions
// (ir/lower_math.cpp): their error against the correctly rounded result over about a million inputs per
// function (specials, neighbourhoods of the overflow, underflow and 1, every binade, uniform bit patterns),
// their special values against glibc bit for bit, their unit counts as documented, and lowering: a kernel
// calling them evaluates as the op lists do, records its approximations, and half or double operands are
// rejected. The sweep over the whole f32 range is tests/bench/bench_math.cpp (docs/floating-point.md).
#include <doctest/doctest.h>

#include <cstring>

#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "sim/runspec.h"
#include "tests/unit/interp_test_util.h"
#include "tests/unit/math_check.h"
#include "tests/unit/math_latency.h"

using namespace spvhls;
using namespace spvhls::mathcheck;

namespace {

constexpr uint32_t kDocumentedUlps = 1;
constexpr int kFns = 12; // kAllFns, in OpenCL.std's names:
const char* const kNames[kFns] = {"exp", "exp2", "exp10", "log",  "log2", "log10",
                                  "sin", "cos",  "tan",   "atan", "asin", "acos"};

// A kernel k(T x, __global T* out) storing f(x) for the ten functions in out[0..9].
std::string kernelText(uint32_t bytes) {
  std::string body;
  for (int i = 0; i < kFns; ++i) {
    body +=
        fmt::format("%r{0} = OpExtInst %T %ocl {1} %x\n%p{0} = OpInBoundsPtrAccessChain %pT %out %ulong_{0}\n"
                    "OpStore %p{0} %r{0} Aligned {2}\n",
                    i, kNames[i], bytes);
  }
  return mathKernelText(8 * bytes, false, kFns, body);
}

} // namespace

TEST_CASE("f32 math expansions: within 1 ulp of the correctly rounded result, glibc's special values") {
  for (MathFn fn : kAllFns) {
    Program p(fn);
    Stats s;
    for (uint32_t x : inputsFor(fn, 400'000, 12345 + int(fn)))
      checkOne(p, fn, x, kDocumentedUlps, s);
    MESSAGE(fmt::format(
        "{}: {} inputs, max {} ulp from correctly rounded (at 0x{:08x}), {} not correctly rounded, "
        "max error {:.4f} ulp; vs glibc: {} differ, max {} ulp (at 0x{:08x}); glibc itself: {} not "
        "correctly rounded, max {} ulp (at 0x{:08x})",
        ir::lower::mathFnName(fn), s.inputs, s.maxUlps, s.worst, s.notCorrectlyRounded, s.maxError,
        s.differFromGlibc, s.maxUlpsVsGlibc, s.worstVsGlibc, s.glibcNotCorrectlyRounded, s.glibcMaxUlps,
        s.glibcWorst));
    for (const std::string& problem : s.problems)
      MESSAGE(problem);
    CHECK(s.inputs >= 900'000);
    CHECK(s.specialMismatches == 0);
    CHECK(s.maxUlps <= kDocumentedUlps);
    CHECK(s.maxError < 1.0); // faithful: never a whole ulp from the exact value
    // Correctly rounded but for the rare exact values that close to a rounding boundary: a less
    // precise polynomial or table would still stay within 1 ulp, but not this.
    CHECK(s.notCorrectlyRounded <= 10);
    CHECK(ir::lower::mathMaxUlps(fn) == kDocumentedUlps);
  }
}

TEST_CASE("f32 math expansions: exact where the result is representable") {
  Program exp2(MathFn::Exp2), log2(MathFn::Log2), log10(MathFn::Log10), exp(MathFn::Exp), log(MathFn::Log);
  for (int k = -149; k <= 127; ++k) {
    CHECK(exp2.run(asBits(float(k))) == asBits(std::ldexp(1.0f, k)));
    CHECK(log2.run(asBits(std::ldexp(1.0f, k))) == asBits(float(k)));
  }
  CHECK(exp2.run(asBits(-150.0f)) == 0); // 2^-150: the tie goes to the even zero
  for (int k = 0; k <= 10; ++k)
    CHECK(log10.run(asBits(std::pow(10.0f, float(k)))) == asBits(float(k)));
  CHECK(exp.run(0) == 0x3f800000);
  CHECK(exp.run(0x80000000) == 0x3f800000);
  CHECK(log.run(0x3f800000) == 0); // +0
  Program sin(MathFn::Sin), cos(MathFn::Cos), tan(MathFn::Tan), atan(MathFn::Atan);
  for (uint32_t x : {0x00000000u, 0x80000000u, 0x00000001u, 0x80800000u, 0x397fffffu, 0xb97fffffu}) {
    CHECK(sin.run(x) == x); // below 2^-12, sin(x) and tan(x) round to x (and keep the sign of zero)
    CHECK(tan.run(x) == x);
    CHECK(atan.run(x) == x);
    CHECK(cos.run(x) == 0x3f800000);
  }
}

TEST_CASE("f32 math expansions: a constant operand folds to what the op list computes") {
  for (MathFn fn : kAllFns) {
    Program p(fn);
    for (uint32_t x : inputsFor(fn, 200, 7)) {
      std::vector<ir::Op> ops;
      ir::lower::Builder b(ops, nullptr);
      const ir::ValueId v = ir::lower::buildMathF32(b, fn, b.constant(32, x));
      REQUIRE_MESSAGE(b.constValue(v).has_value(), ir::lower::mathFnName(fn)
                                                       << " " << x << " " << ops.size());
      CHECK_MESSAGE(*b.constValue(v) == p.run(x), ir::lower::mathFnName(fn) << " " << x);
    }
  }
}

TEST_CASE("f32 math expansions: units as documented") {
  // docs/floating-point.md: f64 adders (FAdd + FSub), multipliers and conversion units per call.
  struct Expect {
    MathFn fn;
    size_t adds, muls, converts, intMuls, divs = 0, sqrts = 0;
  };
  for (const Expect& e :
       {Expect{MathFn::Exp2, 7, 5, 2, 0}, Expect{MathFn::Exp, 7, 6, 2, 0}, Expect{MathFn::Exp10, 7, 6, 2, 0},
        Expect{MathFn::Log2, 7, 6, 3, 0}, Expect{MathFn::Log, 7, 7, 3, 0}, Expect{MathFn::Log10, 7, 7, 3, 0},
        Expect{MathFn::Sin, 6, 8, 3, 3}, Expect{MathFn::Cos, 6, 8, 3, 3}, Expect{MathFn::Tan, 8, 10, 3, 3, 1},
        Expect{MathFn::Atan, 9, 6, 2, 0, 2}, Expect{MathFn::Asin, 11, 7, 2, 0, 2, 1},
        Expect{MathFn::Acos, 12, 7, 2, 0, 2, 1}}) {
    Program p(e.fn);
    CAPTURE(std::string(ir::lower::mathFnName(e.fn)));
    CHECK(p.count({OpKind::FAdd, OpKind::FSub}) == e.adds);
    CHECK(p.count({OpKind::FMul}) == e.muls);
    CHECK(p.count({OpKind::SIToFP, OpKind::UIToFP, OpKind::FPToFP}) == e.converts);
    CHECK(p.count({OpKind::Mul}) == e.intMuls);
    CHECK(p.count({OpKind::FDiv}) == e.divs);
    CHECK(p.count({OpKind::FSqrt}) == e.sqrts);
    CHECK(p.count({OpKind::UDiv, OpKind::SDiv}) == 0);
    // Latency from operand to result: the longest path through the operator library's units.
    const uint32_t latency = latencyOf(p);
    MESSAGE(fmt::format("{}: {} ops ({} selects), latency {} cycles", ir::lower::mathFnName(e.fn),
                        p.ops.size(), p.count({OpKind::Select}), latency));
    CHECK(latency < 120 + 60 * (e.divs + e.sqrts)); // an f64 divide: 58 cycles, a square root 55
  }
}

TEST_CASE("half math: the float expansion rounded to half, every half operand") {
  for (MathFn fn : kAllFns) {
    Program p(
        [fn](ir::lower::Builder& b, const std::vector<ValueId>& x) { return buildMathF16(b, fn, x[0]); },
        {16});
    uint64_t maxOurs = 0, maxGlibc = 0, maxApart = 0, oursNotCr = 0, glibcNotCr = 0, specialMismatches = 0;
    for (uint64_t h = 0; h < 0x10000; ++h) {
      const float xf = float(fromBits<_Float16>(uint16_t(h)));
      const uint64_t got = p.runArgs({h});
      // The interpreter: glibc's float function, rounded to half.
      const uint64_t interp = toBits<uint16_t>(_Float16(asFloat(glibcF32(fn, asBits(xf)))));
      const bool nanResult = (interp & 0x7fff) > 0x7c00 || (got & 0x7fff) > 0x7c00;
      if (nanResult || !std::isfinite(xf) || xf == 0) { // special values: glibc's bits
        specialMismatches += got != interp;
        continue;
      }
      const uint64_t cr = toBits<uint16_t>(_Float16(double(refQuad(fn, __float128(xf)))));
      const uint64_t ours = sim::ulpDistance(got, cr, 2), theirs = sim::ulpDistance(interp, cr, 2);
      maxOurs = std::max(maxOurs, ours), maxGlibc = std::max(maxGlibc, theirs);
      maxApart = std::max(maxApart, sim::ulpDistance(got, interp, 2));
      oursNotCr += ours != 0, glibcNotCr += theirs != 0;
    }
    MESSAGE(fmt::format("{} half: ours max {} ulp from correctly rounded ({} not), glibc's float rounded to "
                        "half max {} ({} not), apart max {}, special mismatches {}",
                        ir::lower::mathFnName(fn), maxOurs, oursNotCr, maxGlibc, glibcNotCr, maxApart,
                        specialMismatches));
    CHECK(specialMismatches == 0);
    CHECK(maxOurs <= ir::lower::kMathF16MaxUlps);
    CHECK(maxGlibc <= 1); // the interpreter's own error the driver allows for (referenceUlps)
    CHECK(oursNotCr <= 10);
    CHECK(maxApart == 0); // bit-exact with the interpreter: the lowering records no approximation
  }
}

TEST_CASE("lowering: the OpenCL.std calls become the expansions; half too; double is rejected") {
  LoadedModule l(kernelText(4));
  ir::Kernel k = ir::lowerKernel(*l.view, "k");
  ir::verifyKernel(k);
  REQUIRE(k.approximations.size() == kFns);
  for (int i = 0; i < kFns; ++i) {
    CHECK(k.approximations[i].function == kNames[i]);
    CHECK(k.approximations[i].width == 32);
    CHECK(k.approximations[i].maxUlps == kDocumentedUlps);
  }
  std::vector<Program> programs;
  for (MathFn fn : kAllFns)
    programs.emplace_back(fn);
  std::mt19937 rng(99);
  std::vector<uint32_t> xs = {0,          0x80000000, 0x7f800000, 0xff800000,
                              0x7f812345, 0x3f800000, 0x00000001, 0x42b17218};
  for (int i = 0; i < 300; ++i)
    xs.push_back(uint32_t(rng()));
  for (int i = 0; i < 300; ++i)
    xs.push_back(asBits(std::uniform_real_distribution<float>(-20, 20)(rng)));
  for (uint32_t x : xs) {
    const ir::EvalResult r = ir::evaluateKernel(k, {x, 0}, {{}, std::vector<uint8_t>(4 * kFns, 0)});
    for (int i = 0; i < kFns; ++i) {
      uint32_t got;
      std::memcpy(&got, r.buffers[1].data() + 4 * i, 4);
      CHECK_MESSAGE(got == programs[i].run(x), kNames[i] << " " << x);
      // The interpreter's glibc result, within the bound (the driver's check in `spvhls sim`).
      CHECK(ulpDistance(got, glibcF32(kAllFns[i], x)) <= kDocumentedUlps);
    }
  }
  LoadedModule bad(kernelText(8));
  testutil::checkContains(testutil::errorOf([&] { ir::lowerKernel(*bad.view, "k"); }),
                          "OpenCL.std exp on double (64-bit) operands is not supported in hardware yet");
  // Half: the expansions on the widened operand, the interpreter's results for every operand (the test
  // above), so not recorded as approximations: `spvhls sim` compares them bit for bit.
  LoadedModule h(kernelText(2));
  ir::Kernel hk = ir::lowerKernel(*h.view, "k");
  ir::verifyKernel(hk);
  CHECK(hk.approximations.empty());
  for (uint64_t x : {0x0000u, 0x3c00u, 0xbc00u, 0x7c00u, 0xfc00u, 0x7e01u, 0x0001u, 0x4900u, 0x5bffu}) {
    const ir::EvalResult r = ir::evaluateKernel(hk, {x, 0}, {{}, std::vector<uint8_t>(2 * kFns, 0)});
    for (int i = 0; i < kFns; ++i) {
      uint16_t got;
      std::memcpy(&got, r.buffers[1].data() + 2 * i, 2);
      const float xf = float(fromBits<_Float16>(uint16_t(x)));
      CHECK_MESSAGE(got == toBits<uint16_t>(_Float16(asFloat(glibcF32(kAllFns[i], asBits(xf))))),
                    kNames[i] << " " << x);
    }
  }
}
