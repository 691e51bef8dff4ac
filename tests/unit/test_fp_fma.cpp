// The generated pipelined floating-point fused multiply-add unit (rtlgen/units/fp_fma.h): lint and
// synthesis front-end checks, and a Verilator simulation against the golden interpreter's
// arithmetic (its NaN rule, then glibc's fma and fmaf for f32 and f64, fmaHalf for f16) with the
// enable toggled at random. The harness generates the operands and the expected results itself, so
// that millions of operand triples per format stay fast: every triple of a list of special values,
// and random triples of which half are biased to the hard cases (cancellation, halfway cases,
// subnormal results, overflow, c or a * b dominating the other).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "fp_unit_harness.h"
#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_fma.h"

using namespace spvhls;
using namespace spvhls::fptest;
using rtl::FpFormat;
namespace nl = rtl::nl;

namespace {

struct UnitUnderTest {
  FpFormat format;
  uint32_t stages;
  std::string module() const { return fmt::format("spvhls_ffma_{}_s{}", rtl::fpName(format), stages); }
};

// The harness's own part, around the generated unit table (kCfg) and the shared main
// (fptest::kQueuedMain, with three operands): the interpreter's fma as expected values, the result
// classes counted, and the operand source, whose probes are (1 + k ulp) * 1 + 0.
const char* kHarnessHead = R"(#include <cmath>
#include <tuple>
#define FPTEST_TERNARY
struct UnitCfg {
  int exp, mant, latency;
  uint64_t seed;
};
)";

const char* kHarnessBody = R"(
// The interpreter's arith for Fma (sim/interp_float.cpp): a NaN operand comes back quieted, the
// first of a, b, c; otherwise glibc's fmaf and fma (called through pointers the compiler cannot see
// through, so that they are glibc's) or, for f16, fmaHalf on the operands read as double.
float (*volatile gFmaf)(float, float, float) = ::fmaf;
double (*volatile gFma)(double, double, double) = ::fma;

// The interpreter's fmaHalf (frontend/fp_round_odd.h), reproduced here on purpose as an independent
// reference: the exact product, TwoSum, the round-to-odd double, one rounding to half. Its operands are never NaN, so the order of the commutative * and + does not matter.
uint64_t fmaHalf(double a, double b, double c) {
  double p = a * b, s = p + c;
  double bb = s - p, e = (p - (s - bb)) + (c - bb);
  if (e != 0 && std::isfinite(s)) {
    if (std::signbit(e) != std::signbit(s)) s = std::nextafter(s, 0.0); // truncate toward zero
    s = fromBits<double>(toBits<uint64_t>(s) | 1);
  }
  return toBits<uint16_t>(half(s));
}

bool isNan(const Fmt& f, uint64_t v) { return f.expOf(v) == f.expOnes && (v & f.mmask) != 0; }

uint64_t reference(const Fmt& f, uint64_t a, uint64_t b, uint64_t c) {
  for (uint64_t v : {a, b, c})
    if (isNan(f, v)) return v | (1ull << (f.M - 1));
  if (f.W == 32)
    return toBits<uint32_t>(gFmaf(fromBits<float>(uint32_t(a)), fromBits<float>(uint32_t(b)),
                                  fromBits<float>(uint32_t(c))));
  if (f.W == 64) return toBits<uint64_t>(gFma(fromBits<double>(a), fromBits<double>(b), fromBits<double>(c)));
  return fmaHalf(double(fromBits<half>(uint16_t(a))), double(fromBits<half>(uint16_t(b))),
                 double(fromBits<half>(uint16_t(c))));
}

__float128 qabs(__float128 x) { return x < 0 ? -x : x; }

// Result classes counted, to show what the operands covered. "tiny": a subnormal or zero result;
// "cancel": a * b and c of opposite signs whose sum is over 2^P times smaller than the larger;
// "exact_zero": a nonzero a * b and c that cancel exactly; "c_dominates" / "p_dominates": c is over
// 2^(P+2) times larger than a * b or the other way round (the smaller one is only a sticky bit);
// "overflow": finite operands, infinite result.
enum { kNan, kInf, kZero, kSub, kNormal, kTie, kTinyTie, kTinyInexact, kCancel, kExactZero, kCDom, kPDom,
       kOverflow, kClasses };
const char* kClassNames[] = {"nan", "inf", "zero", "subnormal", "normal", "ties", "tiny_ties", "tiny_inexact",
                             "cancel", "exact_zero", "c_dominates", "p_dominates", "overflow"};
void classify(const Fmt& f, uint64_t a, uint64_t b, uint64_t c, uint64_t r, uint64_t* counts) {
  const uint64_t e = f.expOf(r), m = r & f.mmask;
  if (e == f.expOnes) ++counts[m ? kNan : kInf];
  else ++counts[e == 0 ? (m ? kSub : kZero) : kNormal];
  if (f.expOf(a) == f.expOnes || f.expOf(b) == f.expOnes || f.expOf(c) == f.expOnes) return;
  if (e == f.expOnes) {
    ++counts[kOverflow];
    return;
  }
  // a * b is exact in quad (2 * 53 bits, every exponent); TwoSum gives the exact sum as s + err.
  const __float128 q = quad(f, a) * quad(f, b), qc = quad(f, c);
  const __float128 s = q + qc, bb = s - q, err = (q - (s - bb)) + (qc - bb);
  const __float128 big = __float128(1ull << (f.P + 2)), prec = __float128(1ull << f.P);
  if (q != 0 && qc != 0) {
    if (qabs(qc) > qabs(q) * big) ++counts[kCDom];
    if (qabs(q) > qabs(qc) * big) ++counts[kPDom];
    if ((q < 0) != (qc < 0)) {
      if (s == 0 && err == 0) ++counts[kExactZero];
      else if (qabs(s) * prec < std::max(qabs(q), qabs(qc))) ++counts[kCancel];
    }
  }
  // Against r and its neighbour towards the exact sum: halfway exactly is a tie (a midpoint is a
  // quad, so that a tie has err 0).
  const __float128 rq = quad(f, r);
  if (err == 0 && s == rq) return;
  if (e == 0) ++counts[kTinyInexact];
  if (err != 0) return;
  const uint64_t mag = r & mask(f.W - 1);
  const bool away = qabs(s) > qabs(rq);
  if (!away && mag == 0) return;
  const __float128 nq = quad(f, (r & ~mask(f.W - 1)) | (away ? mag + 1 : mag - 1));
  if (s * 2 == rq + nq) ++counts[e == 0 ? kTinyTie : kTie];
}

using Triple = std::tuple<uint64_t, uint64_t, uint64_t>;

struct Source {
  Fmt f;
  std::mt19937_64 rng;
  std::vector<uint64_t> specials;
  uint64_t probes, pairs, total, issued = 0; // pairs: the special triples
  Source(const Fmt& fmt, uint64_t seed, uint64_t probeCount, uint64_t randomCount) : f(fmt), rng(seed) {
    const uint64_t one = f.bias << f.M, two = (f.bias + 1) << f.M, inf = f.expOnes << f.M;
    const uint64_t quiet = 1ull << (f.M - 1), payload = 0x5a5a5a5a5a5a5a5aull & mask(f.M - 2);
    // Zero, subnormals, the smallest normal, the largest finite, 1 and neighbours, 1.5, 0.5, the
    // half-ulp of 1, a large power of two, infinity, quiet and signalling NaNs with payloads.
    const uint64_t vals[] = {0, 1, f.mmask, f.mmask + 1, inf - 1, one, one + 1, two - 1, one | quiet,
                             (f.bias - 1) << f.M, (f.bias - f.M - 1) << f.M, (f.bias + f.M + 2) << f.M, inf,
                             inf | quiet, inf | quiet | payload, inf | 1, inf | payload | 2};
    for (uint64_t v : vals)
      for (uint64_t s : {0, 1})
        specials.push_back(v | (s << (f.W - 1)));
    probes = probeCount;
    pairs = specials.size() * specials.size() * specials.size();
    total = probes + pairs + randomCount;
  }
  uint64_t below(uint64_t n) { return rng() % n; }
  uint64_t sign() { return rng() & 1; }
  // A mantissa: any, short (k significant bits ending in a one: exact and halfway results are
  // common), nearly all ones, or nearly zero.
  uint64_t mant(int style, int k) {
    switch (style) {
    case 0: return rng() & f.mmask;
    case 1: return k <= 0 ? 0 : ((rng() & mask(k)) | 1) << (f.M - std::min(k, f.M));
    case 2: return f.mmask - below(8);
    default: return below(8);
    }
  }
  // A finite value of biased exponent e (clamped to the finite range; 0: subnormal) and sign s.
  uint64_t value(uint64_t s, int64_t e, uint64_t m) {
    e = std::clamp<int64_t>(e, 0, int64_t(f.expOnes) - 1);
    return f.pack(s, uint64_t(e), m);
  }
  // Normal a and b whose product has biased exponent about t.
  std::pair<uint64_t, uint64_t> product(int64_t t, int ka, int kb) {
    const int64_t hi = int64_t(f.expOnes) - 1, sum = t + int64_t(f.bias);
    const int64_t lo = std::max<int64_t>(1, sum - hi), up = std::min<int64_t>(hi, sum - 1);
    uint64_t ea, eb;
    if (lo > up) {
      ea = eb = t < 0 ? 1 : uint64_t(hi);
    } else {
      ea = uint64_t(lo + int64_t(below(uint64_t(up - lo + 1))));
      eb = uint64_t(sum - int64_t(ea));
    }
    return {f.pack(sign(), ea, mant(int(below(4)), ka)), f.pack(sign(), eb, mant(int(below(4)), kb))};
  }
  // The format's value nearest q (f16 through double: an operand, not an expected value).
  uint64_t nearest(__float128 q) {
    if (f.W == 64) return toBits<uint64_t>(double(q));
    if (f.W == 32) return toBits<uint32_t>(float(q));
    return toBits<uint16_t>(half(double(q)));
  }
  // The biased exponent of v's ulp (a subnormal's: that of the smallest normal's).
  int64_t ulpExp(uint64_t v) { return std::max<int64_t>(1, int64_t(f.expOf(v))) - f.M; }
  Triple shuffled(uint64_t a, uint64_t b, uint64_t c) { return below(2) ? Triple{a, b, c} : Triple{b, a, c}; }
  Triple biased() {
    const int P = f.M + 1;
    const int64_t emax = int64_t(f.expOnes) - 1;
    const int ka = int(below(f.M + 1)), kb = int(below(f.M + 1));
    const int64_t t = 1 + int64_t(below(uint64_t(emax))); // a product exponent in the normal range
    switch (below(10)) {
    case 0: { // c near -a * b: massive cancellation, exact zeros (short mantissas: exact products)
      const int64_t tt = below(4) == 0 ? int64_t(below(P + 4)) - 2 : t;
      auto [a, b] = product(tt, ka, below(2) ? P - ka : kb);
      const uint64_t p = nearest(quad(f, a) * quad(f, b)), mag = p & mask(f.W - 1);
      if (f.expOf(p) == f.expOnes) return shuffled(a, b, p ^ (1ull << (f.W - 1)));
      const uint64_t k = below(3) == 0 ? 4 : below(9);
      uint64_t cm = mag + k >= 4 ? mag + k - 4 : 0;
      if (f.expOf(cm) == f.expOnes) cm = mag;
      return shuffled(a, b, cm | ((p >> (f.W - 1) ^ (below(8) != 0)) << (f.W - 1)));
    }
    case 1: { // ties: an exact short product and c an odd multiple of its half-ulp, or the reverse
      const int64_t tt = below(4) == 0 ? int64_t(below(P + 4)) - int64_t(P) + 2 : t;
      const int kk = int(below(P / 2 + 1));
      auto [a, b] = product(tt, kk, int(below(uint64_t(P - kk))));
      const uint64_t p = nearest(quad(f, a) * quad(f, b));
      const uint64_t odd = 2 * below(4) + 1;
      uint64_t c = 0;
      if (below(2) && f.expOf(p) != f.expOnes) { // c at a * b's half-ulp (or near it)
        const int64_t e = ulpExp(p) - int64_t(f.bias) - 1 + int64_t(below(3)) - 1;
        if (!f.encode(sign(), odd, e, c)) c = 0;
      } else { // a * b at c's half-ulp: c chosen above it
        const int64_t ec = int64_t(f.expOf(p)) + P + int64_t(below(3)) - 1;
        c = value(sign(), ec, mant(int(below(4)), int(below(f.M + 1))));
      }
      return shuffled(a, b, c);
    }
    case 2: { // subnormal and tiny results: a tiny product and a tiny c
      auto [a, b] = product(int64_t(below(P + 6)) - int64_t(P) + 1, ka, kb);
      const uint64_t cm = below(2) ? rng() & f.mmask >> below(f.M) : mant(int(below(4)), kb);
      return shuffled(a, b, value(sign(), int64_t(below(3)), cm));
    }
    case 3: { // overflow: a * b and c near the largest finite value
      auto [a, b] = product(emax - 2 + int64_t(below(5)), ka, kb);
      return shuffled(a, b, value(sign(), emax - int64_t(below(P + 2)), mant(int(below(4)), kb)));
    }
    case 4: { // c dominates: shifts around the point where a * b only makes a sticky bit
      auto [a, b] = product(t, ka, kb);
      const int64_t d = below(3) ? int64_t(below(8)) + 1 : int64_t(below(3 * P + 8));
      return shuffled(a, b, value(sign(), t + P + d - 2, below(2) ? 0 : mant(int(below(4)), ka)));
    }
    case 5: { // a * b dominates: c shifted to the sticky bits and beyond
      auto [a, b] = product(t, ka, kb);
      const int64_t d = int64_t(below(3 * P + 10));
      return shuffled(a, b, value(sign(), t - d, mant(int(below(4)), kb)));
    }
    case 6: { // overlapping: c within a few exponents of a * b
      auto [a, b] = product(t, ka, kb);
      return shuffled(a, b, value(sign(), t + int64_t(below(7)) - 3, mant(int(below(4)), ka)));
    }
    case 7: { // subnormal operands
      uint64_t v[3] = {rng() & mask(f.W), rng() & mask(f.W), rng() & mask(f.W)};
      v[below(3)] = f.pack(sign(), 0, (rng() & f.mmask) >> below(f.M));
      if (below(2)) v[below(3)] = f.pack(sign(), 0, (rng() & f.mmask) >> below(f.M));
      return {v[0], v[1], v[2]};
    }
    default: { // special values against anything
      uint64_t v[3] = {rng() & mask(f.W), rng() & mask(f.W), rng() & mask(f.W)};
      v[below(3)] = specials[below(specials.size())];
      if (below(2)) v[below(3)] = specials[below(specials.size())];
      return {v[0], v[1], v[2]};
    }
    }
  }
  Triple next() {
    const uint64_t k = issued++, one = f.bias << f.M, n = specials.size();
    if (k < probes) return {one + k, one, 0};
    if (k < probes + pairs) {
      const uint64_t i = k - probes;
      return {specials[i / (n * n)], specials[i / n % n], specials[i % n]};
    }
    if (rng() & 1) return {rng() & mask(f.W), rng() & mask(f.W), rng() & mask(f.W)};
    return biased();
  }
};

Source makeSource(const UnitCfg& c, const Fmt& f, uint64_t probes, uint64_t randomCount) {
  return Source(f, c.seed, probes, randomCount);
}
uint64_t expected(const Source& s, uint64_t a, uint64_t b, uint64_t c) { return reference(s.f, a, b, c); }
void count(const Source& s, uint64_t a, uint64_t b, uint64_t c, uint64_t r, uint64_t* counts) {
  classify(s.f, a, b, c, r, counts);
}
)";

} // namespace

TEST_CASE("fp fma unit latency, stage limits, register ranks and module text") {
  for (FpFormat f : {rtl::kF16, rtl::kF32, rtl::kF64}) {
    CAPTURE(rtl::fpName(f));
    const uint32_t maxStages = rtl::fpFmaMaxStages(f);
    CHECK(maxStages == (f == rtl::kF64 ? 7u : 6u));
    for (uint32_t s = 1; s <= maxStages; ++s) {
      CHECK(rtl::fpFmaLatency(f, s) == s + 1);
      const std::string text = rtl::generateFpFmaUnit("ffma_x", f, s);
      CHECK(text.find("module ffma_x (") != std::string::npos);
      CHECK(text.find(fmt::format("latency {}", s + 1)) != std::string::npos);
      CHECK(text.find("input wire [" + std::to_string(f.width() - 1) + ":0] c") != std::string::npos);
      // Real pipelining: registers s1_* .. s<stages>_*, each rank advancing with en.
      const nl::Module m = rtl::buildFpFmaUnit("ffma_x", f, s);
      std::map<uint32_t, size_t> ranks;
      for (const nl::Register& r : m.registers) {
        ++ranks[uint32_t(std::stoul(r.name.substr(1, r.name.find('_') - 1)))];
        REQUIRE(r.updates.size() == 1);
        CHECK(r.updates[0].enable->name() == "en");
      }
      CHECK(ranks.size() == s);
      CHECK(ranks.begin()->first == 1);
      CHECK(ranks.rbegin()->first == s);
    }
    CHECK_THROWS_AS(rtl::fpFmaLatency(f, 0), InternalError);
    CHECK_THROWS_AS(rtl::generateFpFmaUnit("ffma_x", f, maxStages + 1), InternalError);
  }
  CHECK_THROWS_AS(rtl::generateFpFmaUnit("ffma_x", FpFormat{16, 50}, 1), InternalError);
  CHECK_THROWS_AS(rtl::generateFpFmaUnit("ffma_x", FpFormat{11, 53}, 1), InternalError);
  CHECK_THROWS_AS(rtl::generateFpFmaUnit("ffma_x", FpFormat{5, 1}, 1), InternalError);
}

TEST_CASE("fp fma units are lint-clean and synthesizable on their own") {
  const std::string dir = tempDir("test_fp_fma", "lint");
  for (FpFormat f : {rtl::kF16, rtl::kF32, rtl::kF64})
    for (uint32_t s = 1; s <= rtl::fpFmaMaxStages(f); ++s) {
      const UnitUnderTest u{f, s};
      CAPTURE(u.module());
      lintUnit(dir, u.module(), rtl::generateFpFmaUnit(u.module(), f, s));
    }
}

// All units in one verilated wrapper, each with its own enable and operand stream.
TEST_CASE("pipelined fp fma units match the interpreter bit for bit with a random enable") {
  const std::vector<UnitUnderTest> units = {{rtl::kF16, 1}, {rtl::kF16, 3}, {rtl::kF16, 6},
                                            {rtl::kF32, 1}, {rtl::kF32, 3}, {rtl::kF32, 6},
                                            {rtl::kF64, 1}, {rtl::kF64, 4}, {rtl::kF64, 7}};
  const uint64_t randomPerUnit = 1000000;
  const std::string dir = tempDir("test_fp_fma", "sim");
  std::vector<WrappedUnit> wrapped;
  std::string cfg;
  for (size_t i = 0; i < units.size(); ++i) {
    const FpFormat f = units[i].format;
    wrapped.push_back({units[i].module(), rtl::generateFpFmaUnit(units[i].module(), f, units[i].stages),
                       f.width(), f.width(), true, true});
    cfg += fmt::format("  {{{}, {}, {}, {}ull}},\n", f.exp, f.mant, rtl::fpFmaLatency(f, units[i].stages),
                       20261207 + 7919 * i);
  }
  const std::string result =
      runQueuedHarness(dir, "fpfma_tb", wrapped, kHarnessHead, cfg, kHarnessBody, "vfpfma", randomPerUnit);
  INFO(result);
  const size_t seen =
      forEachUnitLine(result, units.size(), [&](size_t i, std::map<std::string, uint64_t>& v) {
        const UnitUnderTest& u = units[i];
        CAPTURE(u.module());
        MESSAGE(fmt::format(
            "{}: {} operations checked ({} special triples), {} mismatches; results: {} normal ({} ties), "
            "{} subnormal, {} zero ({} inexact and {} ties of these two), {} inf ({} overflows), {} NaN; "
            "{} massive cancellations, {} exact cancellations, c dominating {}, a * b dominating {}",
            u.module(), v["checked"], v["pairs"], v["mismatches"], v["normal"], v["ties"], v["subnormal"],
            v["zero"], v["tiny_inexact"], v["tiny_ties"], v["inf"], v["overflow"], v["nan"], v["cancel"],
            v["exact_zero"], v["c_dominates"], v["p_dominates"]));
        CHECK(v["mismatches"] == 0);
        CHECK(v["checked"] == v["total"]);
        CHECK(v["checked"] >= randomPerUnit);
        CHECK(v["latency"] == rtl::fpFmaLatency(u.format, u.stages));
        // The biased operands reached the hard cases.
        CHECK(v["ties"] >= 2500);
        CHECK(v["tiny_ties"] >= 200);
        CHECK(v["tiny_inexact"] >= 15000);
        CHECK(v["subnormal"] >= 20000);
        CHECK(v["zero"] >= 1500);
        CHECK(v["overflow"] >= 40000);
        CHECK(v["nan"] >= 25000);
        CHECK(v["cancel"] >= 8000);
        CHECK(v["exact_zero"] >= 800);
        CHECK(v["c_dominates"] >= 50000);
        CHECK(v["p_dominates"] >= 40000);
      });
  CHECK(seen == units.size());
}
