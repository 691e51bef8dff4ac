// The generated pipelined floating-point multiply unit (rtlgen/units/fp_mul.h): lint and synthesis
// front-end checks, and a Verilator simulation against the host's arithmetic (x86-64 SSE: what the
// golden interpreter computes) with the enable toggled at random. The harness generates the operands
// and the expected results itself, so that millions of operand pairs per format stay fast: every
// pair of a list of special values, and random pairs of which half are biased to the hard cases
// (results near the underflow and overflow thresholds, subnormal operands, halfway cases).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "fp_unit_harness.h"
#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_mul.h"

using namespace spvhls;
using namespace spvhls::fptest;
using rtl::FpFormat;

namespace {

struct UnitUnderTest {
  FpFormat format;
  uint32_t stages;
  std::string module() const { return fmt::format("spvhls_fmul_{}_s{}", rtl::fpName(format), stages); }
};

// The harness's own part, around the generated unit table (kCfg) and the shared main
// (fptest::kQueuedMain): the host's products as expected values, the result classes counted, and the
// operand source, whose probes are (1 + k ulp) * 1.
const char* kHarnessHead = R"(struct UnitCfg {
  int exp, mant, latency;
  uint64_t seed;
};
)";

const char* kHarnessBody = R"(
// The host's product with x86's operand order pinned (a is the first source): the compiler may swap
// the operands of a commutative x * y, which decides which payload wins when both are NaN. f16 is
// the golden interpreter's: in double, rounded once to half.
uint64_t reference(const Fmt& f, uint64_t a, uint64_t b) {
  if (f.W == 32) {
    float x = fromBits<float>(uint32_t(a)), y = fromBits<float>(uint32_t(b));
    asm("mulss %1, %0" : "+x"(x) : "x"(y));
    return toBits<uint32_t>(x);
  }
  double x, y;
  if (f.W == 64) {
    x = fromBits<double>(a), y = fromBits<double>(b);
  } else {
    x = double(fromBits<half>(uint16_t(a))), y = double(fromBits<half>(uint16_t(b)));
  }
  asm("mulsd %1, %0" : "+x"(x) : "x"(y));
  return f.W == 64 ? toBits<uint64_t>(x) : toBits<uint16_t>(half(x));
}

// Result classes counted, to show what the operands covered; "tiny": a subnormal or zero result.
enum { kNan, kInf, kZero, kSub, kNormal, kTie, kTinyTie, kTinyInexact, kClasses };
const char* kClassNames[] = {"nan", "inf", "zero", "subnormal", "normal", "ties", "tiny_ties", "tiny_inexact"};
void classify(const Fmt& f, uint64_t a, uint64_t b, uint64_t r, uint64_t* counts) {
  const uint64_t e = f.expOf(r), m = r & f.mmask;
  if (e == f.expOnes) {
    ++counts[m ? kNan : kInf];
    return;
  }
  ++counts[e == 0 ? (m ? kSub : kZero) : kNormal];
  // The exact product (quad holds 2 * 53 bits and every exponent) against r and its neighbour
  // towards it: halfway exactly is a tie.
  const __float128 q = quad(f, a) * quad(f, b), rq = quad(f, r);
  if (q == rq) return;
  if (e == 0) ++counts[kTinyInexact];
  const uint64_t mag = r & mask(f.W - 1);
  const bool away = (q < 0 ? -q : q) > (rq < 0 ? -rq : rq);
  if (!away && mag == 0) return;
  const __float128 nq = quad(f, (r & ~mask(f.W - 1)) | (away ? mag + 1 : mag - 1));
  if (q * 2 == rq + nq) ++counts[e == 0 ? kTinyTie : kTie];
}

struct Source {
  Fmt f;
  std::mt19937_64 rng;
  std::vector<uint64_t> specials;
  uint64_t probes, pairs, total, issued = 0;
  Source(const Fmt& fmt, uint64_t seed, uint64_t probeCount, uint64_t randomCount) : f(fmt), rng(seed) {
    const uint64_t one = f.bias << f.M, two = (f.bias + 1) << f.M, inf = f.expOnes << f.M;
    const uint64_t quiet = 1ull << (f.M - 1), payload = 0x5a5a5a5a5a5a5a5aull & mask(f.M - 2);
    const uint64_t vals[] = {0, 1, f.mmask, f.mmask + 1, inf - 1, one, two, inf, inf | quiet,
                             inf | quiet | payload, inf | 1, inf | payload | 2, one + 1, two - 1, (f.bias - 1) << f.M,
                             one | quiet};
    for (uint64_t v : vals)
      for (uint64_t s : {0, 1})
        specials.push_back(v | (s << (f.W - 1)));
    probes = probeCount;
    pairs = specials.size() * specials.size();
    total = probes + pairs + randomCount;
  }
  uint64_t below(uint64_t n) { return rng() % n; }
  uint64_t sign() { return rng() & 1; }
  // A mantissa: any, short (k significant bits ending in a one: exact and halfway products of two
  // of them are common), nearly all ones, or nearly zero.
  uint64_t mant(int style, int k) {
    switch (style) {
    case 0: return rng() & f.mmask;
    case 1: return k <= 0 ? 0 : ((rng() & mask(k)) | 1) << (f.M - std::min(k, f.M));
    case 2: return f.mmask - below(8);
    default: return below(8);
    }
  }
  // Biased exponents ea, eb of normals whose product has biased exponent about t.
  void target(int64_t t, uint64_t& ea, uint64_t& eb) {
    const int64_t hi = int64_t(f.expOnes) - 1, sum = t + int64_t(f.bias);
    const int64_t lo = std::max<int64_t>(1, sum - hi), up = std::min<int64_t>(hi, sum - 1);
    if (lo > up) {
      ea = eb = t < 0 ? 1 : hi;
      return;
    }
    ea = uint64_t(lo + int64_t(below(uint64_t(up - lo + 1))));
    eb = uint64_t(sum - int64_t(ea));
  }
  std::pair<uint64_t, uint64_t> biased() {
    const int P = f.M + 1;
    int sa = int(below(4)), sb = int(below(4));
    int ka = int(below(f.M + 1)), kb = int(f.M + 2 - ka) - int(below(4));
    if (below(4) == 0) kb = int(below(f.M + 1)); // halfway cases below the normal range
    uint64_t ea = 0, eb = 0, ma = mant(sa, ka), mb = mant(sb, kb);
    switch (below(5)) {
    case 0: target(-int64_t(below(P + 4)) + 2, ea, eb); break;      // underflow
    case 1: target(int64_t(f.expOnes) - 3 + int64_t(below(5)), ea, eb); break; // overflow
    case 2: // a subnormal times anything, mostly large normals
      ea = 0;
      ma = sa == 1 ? ma >> below(f.M) : (rng() & f.mmask) >> below(f.M);
      eb = below(4) == 0 ? below(f.expOnes) : f.bias + below(f.expOnes - f.bias);
      break;
    case 3: ea = 1 + below(f.expOnes - 1), eb = 1 + below(f.expOnes - 1); break;
    default: { // a special value times anything
      uint64_t a = specials[below(specials.size())], b = rng() & mask(f.W);
      return below(2) ? std::make_pair(a, b) : std::make_pair(b, a);
    }
    }
    uint64_t a = f.pack(sign(), ea, ma), b = f.pack(sign(), eb, mb);
    return below(2) ? std::make_pair(a, b) : std::make_pair(b, a);
  }
  std::pair<uint64_t, uint64_t> next() {
    const uint64_t k = issued++, one = f.bias << f.M;
    if (k < probes) return {one + k, one};
    if (k < probes + pairs) {
      const uint64_t i = k - probes;
      return {specials[i / specials.size()], specials[i % specials.size()]};
    }
    if (rng() & 1) return {rng() & mask(f.W), rng() & mask(f.W)};
    return biased();
  }
};

Source makeSource(const UnitCfg& c, const Fmt& f, uint64_t probes, uint64_t randomCount) {
  return Source(f, c.seed, probes, randomCount);
}
uint64_t expected(const Source& s, uint64_t a, uint64_t b) { return reference(s.f, a, b); }
void count(const Source& s, uint64_t a, uint64_t b, uint64_t r, uint64_t* counts) { classify(s.f, a, b, r, counts); }
)";

} // namespace

TEST_CASE("fp multiply unit latency, stage limits and module text") {
  for (FpFormat f : {rtl::kF16, rtl::kF32, rtl::kF64}) {
    CAPTURE(rtl::fpName(f));
    const uint32_t maxStages = rtl::fpMulMaxStages(f);
    CHECK(maxStages == (f == rtl::kF64 ? 5u : 4u));
    for (uint32_t s = 1; s <= maxStages; ++s) {
      CHECK(rtl::fpMulLatency(f, s) == s + 1);
      std::string text = rtl::generateFpMulUnit("fmul_x", f, s);
      CHECK(text.find("module fmul_x (") != std::string::npos);
      CHECK(text.find(fmt::format("latency {}", s + 1)) != std::string::npos);
    }
    CHECK_THROWS_AS(rtl::fpMulLatency(f, 0), InternalError);
    CHECK_THROWS_AS(rtl::generateFpMulUnit("fmul_x", f, maxStages + 1), InternalError);
  }
  CHECK_THROWS_AS(rtl::generateFpMulUnit("fmul_x", FpFormat{16, 50}, 1), InternalError);
}

TEST_CASE("fp multiply units are lint-clean and synthesizable on their own") {
  const std::string dir = tempDir("test_fp_mul", "lint");
  for (FpFormat f : {rtl::kF16, rtl::kF32, rtl::kF64})
    for (uint32_t s = 1; s <= rtl::fpMulMaxStages(f); ++s) {
      const UnitUnderTest u{f, s};
      CAPTURE(u.module());
      lintUnit(dir, u.module(), rtl::generateFpMulUnit(u.module(), f, s));
    }
}

// All units in one verilated wrapper, each with its own enable and operand stream.
TEST_CASE("pipelined fp multipliers match the host bit for bit with a random enable") {
  const std::vector<UnitUnderTest> units = {{rtl::kF16, 1}, {rtl::kF16, 2}, {rtl::kF16, 4},
                                            {rtl::kF32, 1}, {rtl::kF32, 3}, {rtl::kF32, 4},
                                            {rtl::kF64, 1}, {rtl::kF64, 3}, {rtl::kF64, 5}};
  const uint64_t randomPerUnit = 1000000;
  const std::string dir = tempDir("test_fp_mul", "sim");
  std::vector<WrappedUnit> wrapped;
  std::string cfg;
  for (size_t i = 0; i < units.size(); ++i) {
    const FpFormat f = units[i].format;
    wrapped.push_back({units[i].module(), rtl::generateFpMulUnit(units[i].module(), f, units[i].stages),
                       f.width(), f.width(), true});
    cfg += fmt::format("  {{{}, {}, {}, {}ull}},\n", f.exp, f.mant, rtl::fpMulLatency(f, units[i].stages),
                       20261124 + 7919 * i);
  }
  const std::string result =
      runQueuedHarness(dir, "fpmul_tb", wrapped, kHarnessHead, cfg, kHarnessBody, "vfpmul", randomPerUnit);
  INFO(result);
  const size_t seen =
      forEachUnitLine(result, units.size(), [&](size_t i, std::map<std::string, uint64_t>& v) {
        const UnitUnderTest& u = units[i];
        CAPTURE(u.module());
        MESSAGE(fmt::format(
            "{}: {} operations checked ({} special pairs), {} mismatches; results: {} normal ({} ties), "
            "{} subnormal, {} zero ({} inexact and {} ties of these two), {} inf, {} NaN",
            u.module(), v["checked"], v["pairs"], v["mismatches"], v["normal"], v["ties"], v["subnormal"],
            v["zero"], v["tiny_inexact"], v["tiny_ties"], v["inf"], v["nan"]));
        CHECK(v["mismatches"] == 0);
        CHECK(v["checked"] == v["total"]);
        CHECK(v["checked"] >= randomPerUnit);
        CHECK(v["latency"] == rtl::fpMulLatency(u.format, u.stages));
        // The biased operands reached the hard cases.
        CHECK(v["ties"] >= 1000);
        CHECK(v["tiny_ties"] >= 100);
        CHECK(v["tiny_inexact"] >= 10000);
        CHECK(v["inf"] >= 10000);
        CHECK(v["nan"] >= 10000);
      });
  CHECK(seen == units.size());
}
