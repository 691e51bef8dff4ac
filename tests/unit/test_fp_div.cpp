// The generated pipelined floating-point divide and square root units (rtlgen/units/fp_div.h): lint
// and synthesis front-end checks, and one Verilator simulation of all six units (both operations,
// f16/f32/f64) against the host's arithmetic (x86-64 SSE: what the golden interpreter computes)
// with each unit's enable toggled at random. The harness generates the operands and the expected
// results itself, so that millions of operations stay fast: every pair of a list of special values,
// and random operands of which half are biased to the hard cases (results near the underflow and
// overflow thresholds, subnormals, exact results, exact and nearly exact rounding ties).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "fp_unit_harness.h"
#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_div.h"

using namespace spvhls;
using namespace spvhls::fptest;
using rtl::FpFormat;

namespace {

struct UnitUnderTest {
  FpFormat format;
  bool sqrt;
  std::string module() const {
    return fmt::format("spvhls_f{}_{}", sqrt ? "sqrt" : "div", rtl::fpName(format));
  }
  uint32_t latency() const { return sqrt ? rtl::fpSqrtLatency(format) : rtl::fpDivLatency(format); }
  std::string generate() const {
    return sqrt ? rtl::generateFpSqrtUnit(module(), format) : rtl::generateFpDivUnit(module(), format);
  }
};

const std::vector<UnitUnderTest> kUnits = {{rtl::kF16, false}, {rtl::kF32, false}, {rtl::kF64, false},
                                           {rtl::kF16, true},  {rtl::kF32, true},  {rtl::kF64, true}};

// The harness's own part, around the generated unit table (kCfg) and the shared main
// (fptest::kQueuedMain): the host's results as expected values, the result classes counted, and the
// operand source, whose first probe's result (1 / 1, sqrt(1)) differs from the others'.
const char* kHarnessHead = R"(struct UnitCfg {
  int exp, mant, latency;
  bool sqrt;
  uint64_t seed;
};
)";

const char* kHarnessBody = R"(
// The host's result with x86's operand order pinned (a is the dividend: the first source decides the
// NaN returned when both are NaN). f16 is the golden interpreter's: in double, rounded once to half.
uint64_t reference(const Fmt& f, bool sq, uint64_t a, uint64_t b) {
  if (f.W == 32) {
    float x = fromBits<float>(uint32_t(a)), y = fromBits<float>(uint32_t(b)), r;
    if (sq)
      asm("sqrtss %1, %0" : "=x"(r) : "x"(x));
    else
      asm("divss %2, %0" : "=x"(r) : "0"(x), "x"(y));
    return toBits<uint32_t>(r);
  }
  double x, y, r;
  if (f.W == 64) {
    x = fromBits<double>(a), y = fromBits<double>(b);
  } else {
    x = double(fromBits<half>(uint16_t(a))), y = double(fromBits<half>(uint16_t(b)));
  }
  if (sq)
    asm("sqrtsd %1, %0" : "=x"(r) : "x"(x));
  else
    asm("divsd %2, %0" : "=x"(r) : "0"(x), "x"(y));
  return f.W == 64 ? toBits<uint64_t>(r) : toBits<uint16_t>(half(r));
}
__float128 qabs(__float128 v) { return v < 0 ? -v : v; }

// Result classes counted, to show what the operands covered. "tiny": a subnormal or zero result;
// "exact": a finite nonzero result equal to the exact one; "near_ties": the exact result within
// 2^-(P-3) ulp of halfway between r and its neighbour; "subnormal_in": a subnormal operand.
enum { kNan, kInf, kZero, kSub, kNormal, kExact, kTie, kNearTie, kTinyTie, kTinyInexact, kSubIn, kClasses };
const char* kClassNames[] = {"nan",  "inf",       "zero",      "subnormal",    "normal",      "exact",
                             "ties", "near_ties", "tiny_ties", "tiny_inexact", "subnormal_in"};
void classify(const Fmt& f, bool sq, uint64_t a, uint64_t b, uint64_t r, uint64_t* counts) {
  const uint64_t e = f.expOf(r), m = r & f.mmask;
  if ((f.expOf(a) == 0 && (a & f.mmask)) || (!sq && f.expOf(b) == 0 && (b & f.mmask))) ++counts[kSubIn];
  if (e == f.expOnes) {
    ++counts[m ? kNan : kInf];
    return;
  }
  ++counts[e == 0 ? (m ? kSub : kZero) : kNormal];
  if (!f.finiteNonzero(a) || (!sq && !f.finiteNonzero(b))) return;
  // Compare a with r * b (r * r): quad holds every product of two of these values exactly, and
  // of r's midpoint with its neighbour (one bit more) with b or itself.
  const __float128 qa = qabs(quad(f, a)), qb = sq ? 0 : qabs(quad(f, b)), rq = qabs(quad(f, r));
  const __float128 prod = sq ? rq * rq : rq * qb;
  if (prod == qa) {
    if (r & mask(f.W - 1)) ++counts[kExact];
    return;
  }
  if (e == 0) ++counts[kTinyInexact];
  const uint64_t mag = r & mask(f.W - 1);
  const bool away = qa > prod; // the exact result is above |r|
  if (!away && mag == 0) return;
  const __float128 nq = qabs(quad(f, away ? mag + 1 : mag - 1));
  const __float128 mid = (rq + nq) / 2, midProd = sq ? mid * mid : mid * qb;
  if (midProd == qa) {
    ++counts[e == 0 ? kTinyTie : kTie];
    return;
  }
  // |exact - mid| ~ |a - midProd| / (b or 2 mid), against an ulp |nq - rq|.
  const __float128 dist = qabs(qa - midProd), scale = sq ? 2 * mid : qb;
  __float128 k = 1;
  for (int i = 0; i < f.P - 3; ++i)
    k *= 2;
  if (dist * k < scale * qabs(nq - rq)) ++counts[kNearTie];
}

struct Source {
  Fmt f;
  bool sq;
  std::mt19937_64 rng;
  std::vector<uint64_t> specials;
  uint64_t probes, pairs, total, issued = 0;
  Source(const Fmt& fmt, bool sqrt, uint64_t seed, uint64_t probeCount, uint64_t randomCount)
      : f(fmt), sq(sqrt), rng(seed) {
    const uint64_t one = f.bias << f.M, two = (f.bias + 1) << f.M, inf = f.expOnes << f.M;
    const uint64_t quiet = 1ull << (f.M - 1), payload = 0x5a5a5a5a5a5a5a5aull & mask(f.M - 2);
    const uint64_t vals[] = {0, 1, 3, f.mmask, f.mmask + 1, inf - 1, one, two, inf, inf | quiet,
                             inf | quiet | payload, inf | 1, inf | payload | 2, one + 1, two - 1,
                             (f.bias - 1) << f.M, one | quiet, two | quiet, ((f.bias + 3) << f.M) | (quiet >> 2)};
    for (uint64_t v : vals)
      for (uint64_t s : {0, 1})
        specials.push_back(v | (s << (f.W - 1)));
    probes = probeCount;
    pairs = sq ? specials.size() : specials.size() * specials.size();
    total = probes + pairs + randomCount;
  }
  uint64_t below(uint64_t n) { return rng() % n; }
  uint64_t sign() { return rng() & 1; }
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(below(uint64_t(hi - lo + 1))); }
  // An odd integer of exactly k bits.
  uint64_t oddBits(int k) { return k <= 1 ? 1 : (rng() & mask(k)) | (1ull << (k - 1)) | 1; }
  // A mantissa: any, nearly all ones, or nearly zero.
  uint64_t mant() {
    switch (below(3)) {
    case 0: return rng() & f.mmask;
    case 1: return f.mmask - below(8);
    default: return below(8);
    }
  }
  int64_t minExp() const { return 1 - int64_t(f.bias); } // unbiased, of the smallest normal
  int64_t maxExp() const { return int64_t(f.bias); }
  // A result exponent (unbiased, of the leading bit): anywhere, or near the underflow or overflow
  // threshold.
  int64_t resultExp() {
    switch (below(3)) {
    case 0: return range(minExp() - f.P - 1, minExp() + 1);
    case 1: return range(maxExp() - 1, maxExp() + 1);
    default: return range(minExp() - f.P, maxExp());
    }
  }

  std::pair<uint64_t, uint64_t> biasedDiv() {
    const int P = f.P;
    uint64_t a, b;
    switch (below(7)) {
    case 0: { // q = n * 2^x exactly, ties below the normal range: b's significand B short
      const int kb = int(range(1, P - 1)), kn = int(range(1, P - kb));
      const uint64_t B = oddBits(kb), n = oddBits(kn);
      const int64_t qe = below(2) ? minExp() - f.M - 1 + range(0, 1) : resultExp() - (kn - 1);
      const int64_t eb = range(minExp() - f.M, maxExp()) - (kb - 1);
      if (f.encode(sign(), n * B, qe + eb, a) && f.encode(sign(), B, eb, b)) return {a, b};
      break;
    }
    case 1: { // a / b = n - t / B (t small, odd): n * B = A * 2^s + t with n odd, of kn bits
      // (P + 1 bits: nearly halfway between two normals; fewer: nearly exact, or nearly halfway at
      // the subnormal precision). B: odd, P bits, so that A fits P bits with s = kn.
      const int kn = int(range(1, P + 1)), s = kn;
      const int64_t t = (int64_t(below(4)) * 2 + 1) * (below(2) ? 1 : -1);
      auto inverse = [](uint64_t v) { // modulo 2^64, v odd
        uint64_t inv = v;
        for (int i = 0; i < 6; ++i)
          inv *= 2 - v * inv;
        return inv;
      };
      uint64_t n, B;
      if (kn >= P) {
        B = oddBits(P);
        n = (uint64_t(t) * inverse(B)) & mask(s);
      } else {
        n = oddBits(kn);
        B = ((uint64_t(t) * inverse(n)) & mask(s)) | (rng() & mask(P - 1) & ~mask(s)) | (1ull << (P - 1));
      }
      const uint64_t A = uint64_t((u128(n) * B - u128(__int128(t))) >> s);
      const int64_t eb = range(minExp(), maxExp()) - (P - 1);
      // q's leading exponent: random, or n * 2^x at the subnormal grid's halfway points
      const int64_t qx = below(2) ? minExp() - f.M - 1 : resultExp() - (bitLength(n) - 1);
      if (f.encode(sign(), A, qx + eb + s, a) && f.encode(sign(), B, eb, b)) return {a, b};
      break;
    }
    case 2: { // random significands, the quotient's exponent near a threshold
      const int64_t qe = resultExp(), eb = range(minExp(), maxExp());
      if (f.encode(sign(), (1ull << f.M) | mant(), qe + eb - f.M, a) &&
          f.encode(sign(), (1ull << f.M) | mant(), eb - f.M, b))
        return {a, b};
      break;
    }
    case 3: { // nearly equal significands (quotients near 1, the normalization boundary)
      a = rng() & mask(f.W);
      const uint64_t delta = below(9);
      b = f.pack(sign(), below(2) ? f.expOf(a) : 1 + below(f.expOnes - 1), (a & f.mmask) + delta - 4);
      if (below(2)) std::swap(a, b);
      return {a, b};
    }
    case 4: // a subnormal operand
      a = f.pack(sign(), 0, (rng() & f.mmask) >> below(f.M));
      b = f.pack(sign(), below(4) ? 1 + below(f.expOnes - 1) : 0, rng() & f.mmask);
      if (below(2)) std::swap(a, b);
      return {a, b};
    case 5: { // a special value and anything
      a = specials[below(specials.size())], b = rng() & mask(f.W);
      if (below(2)) std::swap(a, b);
      return {a, b};
    }
    default: break;
    }
    return {f.pack(sign(), 1 + below(f.expOnes - 1), mant()), f.pack(sign(), 1 + below(f.expOnes - 1), mant())};
  }

  uint64_t biasedSqrt() {
    const int P = f.P;
    uint64_t a;
    switch (below(6)) {
    case 0: { // an exact square, or a neighbour of one
      const int k = int(range(1, (P + 1) / 2));
      const uint64_t R = oddBits(k);
      if (f.encode(0, R * R, 2 * range(minExp() - f.M, maxExp() / 2), a)) {
        const uint64_t d = below(3) ? 0 : below(7) - 3;
        return a + d;
      }
      break;
    }
    case 1: { // sqrt(a) = mid * sqrt(1 - t / mid^2), mid a (P + 1)-bit odd integer: mid^2 = A * 2^(P+2) + t
      const int k = P + 2;
      const int64_t t = 1 + 8 * int64_t(below(4)) * (below(2) ? 1 : -1);
      uint64_t x = 1; // x^2 = t modulo 2^i, lifted one bit at a time
      for (int i = 3; i < k; ++i)
        if (uint64_t((__int128(u128(x) * x) - t) >> i) & 1) x += 1ull << (i - 1);
      const uint64_t mid = x >= (1ull << P) ? x : (1ull << (P + 1)) - x;
      const uint64_t A = uint64_t((u128(mid) * mid - u128(__int128(t))) >> k);
      if (f.encode(0, A, k + 2 * range((minExp() - f.M - k) / 2, (maxExp() - k) / 2), a)) return a;
      break;
    }
    case 2: return f.pack(0, 0, (rng() & f.mmask) >> below(f.M)); // subnormal
    case 3: return below(2) ? specials[below(specials.size())] : rng() & mask(f.W);
    default: break;
    }
    return f.pack(0, below(f.expOnes), mant());
  }

  std::pair<uint64_t, uint64_t> next() {
    const uint64_t k = issued++, one = f.bias << f.M;
    if (k < probes) return {k == 0 || !sq ? one + k : one + (k << (f.M - 2)), one};
    if (k < probes + pairs) {
      const uint64_t i = k - probes;
      if (sq) return {specials[i], 0};
      return {specials[i / specials.size()], specials[i % specials.size()]};
    }
    if (rng() & 1) return {rng() & mask(f.W), sq ? 0 : rng() & mask(f.W)};
    if (sq) return {biasedSqrt(), 0};
    return biasedDiv();
  }
};

Source makeSource(const UnitCfg& c, const Fmt& f, uint64_t probes, uint64_t randomCount) {
  return Source(f, c.sqrt, c.seed, probes, randomCount);
}
uint64_t expected(const Source& s, uint64_t a, uint64_t b) { return reference(s.f, s.sq, a, b); }
void count(const Source& s, uint64_t a, uint64_t b, uint64_t r, uint64_t* counts) {
  classify(s.f, s.sq, a, b, r, counts);
}
)";

} // namespace

TEST_CASE("fp divide and square root unit latency, format limits and module text") {
  CHECK(rtl::fpDivLatency(rtl::kF16) == 16);
  CHECK(rtl::fpDivLatency(rtl::kF32) == 29);
  CHECK(rtl::fpDivLatency(rtl::kF64) == 58);
  CHECK(rtl::fpSqrtLatency(rtl::kF16) == 13);
  CHECK(rtl::fpSqrtLatency(rtl::kF32) == 26);
  CHECK(rtl::fpSqrtLatency(rtl::kF64) == 55);
  for (const UnitUnderTest& u : kUnits) {
    CAPTURE(u.module());
    const std::string text = u.generate();
    CHECK(text.find("module " + u.module() + " (") != std::string::npos);
    CHECK(text.find(fmt::format("latency {}", u.latency())) != std::string::npos);
    CHECK((text.find("input wire [") != std::string::npos));
  }
  CHECK_THROWS_AS(rtl::generateFpDivUnit("fdiv_x", FpFormat{16, 50}), InternalError);
  CHECK_THROWS_AS(rtl::fpDivLatency(FpFormat{8, 1}), InternalError);
  // exp 3 (bias 3) cannot hold the root of a subnormal with a 10-bit mantissa as a normal number.
  CHECK_THROWS_AS(rtl::generateFpSqrtUnit("fsqrt_x", FpFormat{3, 10}), InternalError);
  CHECK_NOTHROW(rtl::generateFpDivUnit("fdiv_x", FpFormat{3, 10}));
}

TEST_CASE("fp divide and square root units are lint-clean and synthesizable on their own") {
  const std::string dir = tempDir("test_fp_div", "lint");
  for (const UnitUnderTest& u : kUnits) {
    CAPTURE(u.module());
    lintUnit(dir, u.module(), u.generate());
  }
}

// All units in one verilated wrapper, each with its own enable and operand stream.
TEST_CASE("pipelined fp dividers and square roots match the host bit for bit with a random enable") {
  const uint64_t randomPerUnit = 1000000;
  const std::string dir = tempDir("test_fp_div", "sim");
  std::vector<WrappedUnit> wrapped;
  std::string cfg;
  for (size_t i = 0; i < kUnits.size(); ++i) {
    const UnitUnderTest& u = kUnits[i];
    const FpFormat f = u.format;
    wrapped.push_back({u.module(), u.generate(), f.width(), f.width(), !u.sqrt});
    cfg += fmt::format("  {{{}, {}, {}, {}, {}ull}},\n", f.exp, f.mant, u.latency(),
                       u.sqrt ? "true" : "false", 20261124 + 7919 * i);
  }
  const std::string result =
      runQueuedHarness(dir, "fpdiv_tb", wrapped, kHarnessHead, cfg, kHarnessBody, "vfpdiv", randomPerUnit);
  INFO(result);
  const size_t seen =
      forEachUnitLine(result, kUnits.size(), [&](size_t i, std::map<std::string, uint64_t>& v) {
        const UnitUnderTest& u = kUnits[i];
        CAPTURE(u.module());
        MESSAGE(
            fmt::format("{}: {} operations checked ({} special), {} mismatches; results: {} normal, {} "
                        "subnormal, {} zero, {} inf, {} NaN; {} exact, {} ties, {} near ties, {} tiny ties, "
                        "{} tiny inexact; {} with subnormal operands",
                        u.module(), v["checked"], v["pairs"], v["mismatches"], v["normal"], v["subnormal"],
                        v["zero"], v["inf"], v["nan"], v["exact"], v["ties"], v["near_ties"], v["tiny_ties"],
                        v["tiny_inexact"], v["subnormal_in"]));
        CHECK(v["mismatches"] == 0);
        CHECK(v["checked"] == v["total"]);
        CHECK(v["checked"] >= randomPerUnit);
        CHECK(v["latency"] == u.latency());
        // The biased operands reached the hard cases.
        CHECK(v["exact"] >= 10000);
        CHECK(v["near_ties"] >= 10000);
        CHECK(v["subnormal_in"] >= 10000);
        CHECK(v["nan"] >= 10000);
        if (u.sqrt) {
          CHECK(v["ties"] + v["tiny_ties"] == 0); // impossible for a root: the classification is sound
        } else {
          CHECK(v["tiny_ties"] >= 1000);
          CHECK(v["tiny_inexact"] >= 10000);
          CHECK(v["subnormal"] >= 10000);
          CHECK(v["zero"] >= 10000);
          CHECK(v["inf"] >= 10000);
        }
      });
  CHECK(seen == kUnits.size());
}
