// The generated pipelined floating-point add/sub unit (rtlgen/units/fp_add.h): lint and synthesis
// front-end checks, then every format, operation and stage count verilated together and compared bit
// for bit with the host's SSE arithmetic (the golden interpreter's: f16 in double, rounded once) over
// every pair of special values and a million random operand pairs each, with the enable toggled at
// random. Operands and expected values are made inside the verilated harness, so that the run stays
// fast; it reports per unit the operations checked, mismatches and which latencies fit.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "fp_unit_harness.h"
#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_add.h"

using namespace spvhls;
using namespace spvhls::fptest;
using rtl::FpFormat;
namespace nl = rtl::nl;

namespace {

struct UnitUnderTest {
  FpFormat f;
  bool subtract;
  uint32_t stages;
  std::string module() const {
    return fmt::format("fp_{}_{}_s{}", subtract ? "sub" : "add", rtl::fpName(f), stages);
  }
  int formatIndex() const { return f == rtl::kF16 ? 0 : f == rtl::kF32 ? 1 : 2; }
};

std::vector<UnitUnderTest> units(std::initializer_list<uint32_t> stageCounts) {
  std::vector<UnitUnderTest> out;
  for (FpFormat f : {rtl::kF16, rtl::kF32, rtl::kF64})
    for (bool sub : {false, true})
      for (uint32_t s : stageCounts)
        out.push_back({f, sub, s});
  return out;
}

// The harness's own part: kHarnessIncludes, fptest::kRingCommon (Rng, ones, mantissa), kHarness (the
// reference, the operands and the hooks of fptest::kRingMain), kRingMain. Operands: first every pair
// of the special values, then random ones (half uniform bit patterns, half biased to cancellation,
// subnormals, large exponent differences, overflow and rounding ties). The expected value is the
// host's: SSE through inline assembly, so that the compiler cannot commute the operands (which
// decides the NaN returned when both are NaN); f16 is computed in double and rounded once.
const char* kHarnessIncludes = R"(
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
)";

const char* kHarness = R"(
struct Format {
  int e, m;
  int w() const { return 1 + e + m; }
  uint64_t bias() const { return ones(e - 1); }
  uint64_t pack(uint64_t s, uint64_t ex, uint64_t man) const {
    return (s << (e + m)) | ((ex & ones(e)) << m) | (man & ones(m));
  }
};
const Format kFormats[3] = {{5, 10}, {8, 23}, {11, 52}};

uint64_t reference(int fmt, bool sub, uint64_t a, uint64_t b) {
  if (fmt == 0) {
    _Float16 ha, hb;
    std::memcpy(&ha, &a, 2);
    std::memcpy(&hb, &b, 2);
    double x = double(ha), y = double(hb);
    if (sub) asm("subsd %1, %0" : "+x"(x) : "x"(y));
    else asm("addsd %1, %0" : "+x"(x) : "x"(y));
    _Float16 r = _Float16(x);
    uint16_t v;
    std::memcpy(&v, &r, 2);
    return v;
  }
  if (fmt == 1) {
    float x, y;
    uint32_t a32 = uint32_t(a), b32 = uint32_t(b), v;
    std::memcpy(&x, &a32, 4);
    std::memcpy(&y, &b32, 4);
    if (sub) asm("subss %1, %0" : "+x"(x) : "x"(y));
    else asm("addss %1, %0" : "+x"(x) : "x"(y));
    std::memcpy(&v, &x, 4);
    return v;
  }
  double x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  if (sub) asm("subsd %1, %0" : "+x"(x) : "x"(y));
  else asm("addsd %1, %0" : "+x"(x) : "x"(y));
  uint64_t v;
  std::memcpy(&v, &x, 8);
  return v;
}

// Both signs of: zero, subnormals (min, max, small ones), min normal and neighbours, max normal and
// its neighbour, 1 and its neighbours, 1.5, 2, 3, the half-ulps of 1 (1 + it is a tie) and of the
// largest normal (a tie with infinity), infinity, quiet and signalling NaNs with payloads.
std::vector<uint64_t> specials(const Format& f) {
  const int m = f.m;
  const uint64_t emax = ones(f.e) - 1, bias = f.bias(), mo = ones(m), q = 1ull << (m - 1);
  const uint64_t mags[] = {
      0, 1, 2, 3, mo, mo - 1, f.pack(0, 1, 0), f.pack(0, 1, 1), f.pack(0, 2, 0),
      f.pack(0, emax - 1, mo), f.pack(0, emax - 1, mo - 1), f.pack(0, emax - 1, 0),
      f.pack(0, bias, 0), f.pack(0, bias, 1), f.pack(0, bias - 1, mo), f.pack(0, bias, mo),
      f.pack(0, bias, q), f.pack(0, bias + 1, 0), f.pack(0, bias + 1, q),
      f.pack(0, bias - m - 1, 0), f.pack(0, bias - m - 1, q), f.pack(0, bias - m - 2, 0),
      f.pack(0, bias - m - 1, 1), f.pack(0, emax - 1 - m - 1, 0), f.pack(0, emax - 1 - m - 1, q),
      f.pack(0, emax, 0), f.pack(0, emax, q), f.pack(0, emax, q | 5), f.pack(0, emax, 1),
      f.pack(0, emax, (q >> 1) | 3), f.pack(0, emax, mo), f.pack(0, emax, q - 1)};
  std::vector<uint64_t> out;
  for (uint64_t v : mags) {
    out.push_back(v);
    out.push_back(v | (1ull << (f.w() - 1)));
  }
  return out;
}

void randomOperands(Rng& r, const Format& f, const std::vector<uint64_t>& sp, uint64_t& a, uint64_t& b) {
  const int64_t emax = int64_t(ones(f.e)) - 1, m = f.m;
  auto clampE = [&](int64_t e) { return uint64_t(e < 0 ? 0 : e > emax ? emax : e); };
  if (r.next() & 1) {
    a = r.next() & ones(f.w());
    b = r.next() & ones(f.w());
    return;
  }
  int64_t ea = int64_t(r.below(uint64_t(emax) + 1)), eb = ea;
  const uint64_t sa = r.next() & 1, sb = r.next() & 1;
  uint64_t ma = mantissa(r, f.m), mb = mantissa(r, f.m);
  switch (r.below(8)) {
  case 0: eb = ea + int64_t(r.below(5)) - 2; break; // near exponents: cancellation
  case 1: { // b = -a give or take a few ulps
    a = f.pack(sa, uint64_t(ea), ma);
    const uint64_t mag = (a & ones(f.w() - 1)) + r.below(9) - 4;
    b = (mag & ones(f.w() - 1)) | ((sa ^ (r.below(4) != 0)) << (f.w() - 1));
    if (((b >> m) & ones(f.e)) == ones(f.e)) b = a ^ (1ull << (f.w() - 1));
    if (r.next() & 1) std::swap(a, b);
    return;
  }
  case 2: ea = int64_t(r.below(3)); eb = int64_t(r.below(3)); break; // subnormals
  case 3: eb = ea - int64_t(r.below(uint64_t(m + 8))); break; // shifts around the sticky limit
  case 4: eb = int64_t(r.below(uint64_t(emax) + 1)); break; // anything: mostly huge differences
  case 5: ea = emax - int64_t(r.below(3)); eb = emax - int64_t(r.below(uint64_t(m + 4))); break; // overflow
  case 6: // ties: b a power of two (or nearly) at or below a's half-ulp
    eb = ea - m - 1 - int64_t(r.below(3));
    mb = r.below(4) ? 0 : r.below(4);
    break;
  default: // a special value against anything
    a = sp[r.below(sp.size())];
    b = r.next() & 1 ? r.next() & ones(f.w()) : f.pack(sb, clampE(eb), mb);
    if (r.next() & 1) std::swap(a, b);
    return;
  }
  a = f.pack(sa, clampE(ea), ma);
  b = f.pack(sb, clampE(eb), mb);
  if (r.next() & 1) std::swap(a, b);
}

struct Entry {
  uint64_t a, b, y;
  bool check = true;
};

struct State {
  Rng rng;
  std::vector<uint64_t> sp;
  uint64_t issued = 0, edges = 0, checks = 0, mismatches = 0, verified = 0;
  uint32_t misfit = 0; // bit L: latency L disagreed with y at least once
  Entry ring[16];
};

constexpr uint64_t kSeed = 0x5eed0000ull, kEnableSeed = 20260117;

void start(State& s, const UnitDesc& u) { s.sp = specials(kFormats[u.fmt]); }

void issue(State& s, const UnitDesc& u, bool en, uint64_t& a, uint64_t& b) {
  const Format& f = kFormats[u.fmt];
  const uint64_t pairs = s.sp.size() * s.sp.size();
  if (!en) {
    a = s.rng.next() & ones(f.w());
    b = s.rng.next() & ones(f.w());
  } else if (s.issued < pairs) {
    a = s.sp[s.issued / s.sp.size()];
    b = s.sp[s.issued % s.sp.size()];
  } else {
    randomOperands(s.rng, f, s.sp, a, b);
  }
  if (en) s.ring[s.issued++ % 16] = {a, b, reference(u.fmt, u.sub, a, b)};
}

bool check(State& s, const UnitDesc& u, uint64_t y, int64_t j, uint64_t randomOps, FILE* report) {
  if (j >= 0) {
    const Entry& e = s.ring[j % 16];
    ++s.checks;
    s.verified = uint64_t(j) + 1;
    if (e.y != y && ++s.mismatches <= 10)
      std::fprintf(report, "mismatch %s: a %llx b %llx: y %llx, expected %llx\n", u.name, (unsigned long long)e.a,
                   (unsigned long long)e.b, (unsigned long long)y, (unsigned long long)e.y);
  }
  return s.verified >= s.sp.size() * s.sp.size() + randomOps;
}

bool summary(const State& s, const UnitDesc& u, FILE* report) {
  std::fprintf(report, "unit %s ops %llu pairs %llu checks %llu mismatches %llu latencies", u.name,
               (unsigned long long)s.verified, (unsigned long long)(s.sp.size() * s.sp.size()),
               (unsigned long long)s.checks, (unsigned long long)s.mismatches);
  return s.mismatches != 0;
}

} // namespace
)";

} // namespace

TEST_CASE("fp add unit: module text, latency and register ranks") {
  for (const UnitUnderTest& u : units({1, 2, 3, 4, 5})) {
    CAPTURE(u.module());
    CHECK(rtl::fpAddLatency(u.f, u.stages) == u.stages + 1);
    const std::string text = rtl::generateFpAddUnit(u.module(), u.f, u.subtract, u.stages);
    CHECK(text.find("module " + u.module() + " (") != std::string::npos);
    CHECK(text.find(fmt::format("latency {}", u.stages + 1)) != std::string::npos);
    // Real pipelining: registers s1_* .. s<stages>_*, each rank advancing with en.
    const nl::Module m = rtl::buildFpAddUnit(u.module(), u.f, u.subtract, u.stages);
    std::map<uint32_t, size_t> ranks;
    for (const nl::Register& r : m.registers) {
      ++ranks[uint32_t(std::stoul(r.name.substr(1, r.name.find('_') - 1)))];
      REQUIRE(r.updates.size() == 1);
      CHECK(r.updates[0].enable->name() == "en");
    }
    CHECK(ranks.size() == u.stages);
    CHECK(ranks.begin()->first == 1);
    CHECK(ranks.rbegin()->first == u.stages);
  }
  CHECK_THROWS_AS(rtl::generateFpAddUnit("x", rtl::kF32, false, 0), InternalError);
  CHECK_THROWS_AS(rtl::generateFpAddUnit("x", rtl::kF32, false, rtl::fpAddMaxStages() + 1), InternalError);
  CHECK_THROWS_AS(rtl::generateFpAddUnit("x", FpFormat{11, 53}, false, 1), InternalError);
  CHECK_THROWS_AS(rtl::generateFpAddUnit("x", FpFormat{1, 10}, false, 1), InternalError);
}

TEST_CASE("fp add units are lint-clean and synthesizable on their own") {
  const std::string dir = tempDir("test_fp_add", "lint");
  for (const UnitUnderTest& u : units({1, 2, rtl::fpAddMaxStages()})) {
    CAPTURE(u.module());
    lintUnit(dir, u.module(), rtl::generateFpAddUnit(u.module(), u.f, u.subtract, u.stages));
  }
}

// All units in one verilated wrapper, each with its own enable and operand stream.
TEST_CASE("pipelined fp add/sub units match the host's arithmetic bit for bit with a random enable") {
  const std::vector<UnitUnderTest> all = units({1, 2, 3, 4, 5});
  const std::string dir = tempDir("test_fp_add", "sim");
  std::vector<WrappedUnit> wrapped;
  std::string table;
  for (const UnitUnderTest& u : all) {
    wrapped.push_back({u.module(), rtl::generateFpAddUnit(u.module(), u.f, u.subtract, u.stages), u.f.width(),
                       u.f.width(), true});
    table += fmt::format("  {{{}, {}, {}, \"{}\"}},\n", u.formatIndex(), u.subtract,
                         rtl::fpAddLatency(u.f, u.stages), u.module());
  }
  const std::string files = writeWrapper(wrapped, dir, "fpadd_tb");
  std::ofstream(dir + "/harness.cpp")
      << "#include \"Vfpadd_tb.h\"\n#include <cstdint>\nnamespace {\n"
      << "struct UnitDesc { int fmt; bool sub; int latency; const char* name; };\n"
      << "const UnitDesc kUnits[] = {\n"
      << table << "};\nconstexpr int kNumUnits = " << all.size() << ";\n"
      << accessors(wrapped, "fpadd_tb") << "} // namespace\n"
      << kHarnessIncludes << kRingCommon << kHarness << kRingMain;
  const uint64_t randomOps = 1000000;
  const std::string text = runRingHarness(dir, "fpadd_tb", files, "vfpadd", randomOps);
  using Values = std::map<std::string, uint64_t>;
  const size_t seen = forEachRingUnitLine<UnitUnderTest>(
      text, all, [&](const UnitUnderTest& u, Values& v, const std::vector<uint32_t>& fits) {
        MESSAGE(fmt::format("{}: {} operations checked ({} special pairs), {} cycle checks, {} mismatches",
                            u.module(), v["ops"], v["pairs"], v["checks"], v["mismatches"]));
        CHECK(v["mismatches"] == 0);
        CHECK(v["ops"] >= v["pairs"] + randomOps);
        // The latency the unit shows is the one fpAddLatency states, and no other fits.
        CHECK(fits == std::vector<uint32_t>{rtl::fpAddLatency(u.f, u.stages)});
      });
  CHECK(seen == all.size());
}
