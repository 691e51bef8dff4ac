// The generated pipelined floating-point multiply unit (rtlgen/units/fp_mul.h): lint and synthesis
// front-end checks, and a Verilator simulation against the host's arithmetic (x86-64 SSE: what the
// golden interpreter computes) with the enable toggled at random. The harness generates the operands
// and the expected results itself, so that millions of operand pairs per format stay fast: every
// pair of a list of special values, and random pairs of which half are biased to the hard cases
// (results near the underflow and overflow thresholds, subnormal operands, halfway cases).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_mul.h"

using namespace spvhls;
using rtl::FpFormat;
namespace fs = std::filesystem;

namespace {

struct UnitUnderTest {
  FpFormat format;
  uint32_t stages;
  std::string module() const { return fmt::format("spvhls_fmul_{}_s{}", rtl::fpName(format), stages); }
};

std::string tempDir(const std::string& name) {
  fs::path d = fs::path(SPVHLS_BINARY_DIR) / "test_fp_mul" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

int run(const std::string& cmd, const std::string& log) {
  return std::system((cmd + " > " + log + " 2>&1").c_str());
}

// The harness around the generated unit table (kUnits, kCfg, drive(), sample()): per cycle it
// drives every unit (its own random enable, 70% on; operands only matter when enabled), evaluates,
// compares every y with the expected result of the operation that has passed latency - 1 enabled
// edges, then clocks. The first latency + 3 cycles of each unit hold en and issue probe products
// (1 + k ulp) * 1, from which the latency is observed independently of the one assumed.
const char* kHarnessHead = R"(#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <vector>
#include "Vfpmul_tb.h"
struct UnitCfg {
  int exp, mant, latency;
  uint64_t seed;
};
)";

const char* kHarnessBody = R"(
using half = _Float16;
template <class T, class B> T fromBits(B v) { T x; std::memcpy(&x, &v, sizeof x); return x; }
template <class B, class T> B toBits(T x) { B v; std::memcpy(&v, &x, sizeof x); return v; }
uint64_t mask(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

struct Fmt {
  int E, M, W;
  uint64_t mmask, expOnes, bias;
  Fmt(int e, int m) : E(e), M(m), W(1 + e + m), mmask(mask(m)), expOnes(mask(e)), bias(mask(e) >> 1) {}
  uint64_t pack(uint64_t s, uint64_t e, uint64_t m) const { return (s << (W - 1)) | (e << M) | (m & mmask); }
  uint64_t expOf(uint64_t v) const { return (v >> M) & expOnes; }
};

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
__float128 quad(const Fmt& f, uint64_t v) {
  if (f.W == 16) return double(fromBits<half>(uint16_t(v)));
  if (f.W == 32) return fromBits<float>(uint32_t(v));
  return fromBits<double>(v);
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

struct Op {
  uint64_t a, b, want;
};

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const uint64_t randomCount = std::strtoull(argv[1], nullptr, 10);
  FILE* out = std::fopen(argv[2], "w");
  Vfpmul_tb* t = new Vfpmul_tb;
  struct State {
    Fmt f;
    Source src;
    std::mt19937_64 enRng;
    std::deque<Op> q;
    uint64_t base = 0, edges = 0, checked = 0, mismatches = 0, counts[kClasses] = {};
    int64_t lastJ = -1, observed = -1;
    uint64_t probeWant = 0; // the first probe's result: 1 * 1
  };
  std::vector<State> units;
  for (const UnitCfg& c : kCfg) {
    Fmt f(c.exp, c.mant);
    units.push_back({f, Source(f, c.seed, uint64_t(c.latency) + 3, randomCount), std::mt19937_64(~c.seed)});
    units.back().probeWant = reference(f, f.bias << f.M, f.bias << f.M);
  }
  uint64_t cycle = 0;
  for (bool busy = true; busy; ++cycle) {
    std::vector<Op> issue(units.size());
    std::vector<bool> en(units.size());
    for (size_t i = 0; i < units.size(); ++i) {
      State& u = units[i];
      const bool done = u.checked >= u.src.total;
      en[i] = !done && (cycle < u.src.probes || u.enRng() % 10 < 7);
      if (en[i]) {
        auto [a, b] = u.src.next();
        issue[i] = {a, b, reference(u.f, a, b)};
        if (u.src.issued <= u.src.total) classify(u.f, a, b, issue[i].want, u.counts);
      } else {
        issue[i] = {u.enRng() & mask(u.f.W), u.enRng() & mask(u.f.W), 0}; // ignored
      }
      drive(t, int(i), en[i], issue[i].a, issue[i].b);
    }
    t->clk = 0;
    t->eval();
    busy = false;
    for (size_t i = 0; i < units.size(); ++i) {
      State& u = units[i];
      const int lat = kCfg[i].latency;
      const uint64_t y = sample(t, int(i));
      if (u.observed < 0 && y == u.probeWant) u.observed = int64_t(cycle) + 1;
      const int64_t j = int64_t(u.edges) - (lat - 1);
      if (j >= 0 && u.checked < u.src.total) {
        while (u.base < uint64_t(j)) {
          u.q.pop_front();
          ++u.base;
        }
        const Op& op = u.q.front();
        if (j != u.lastJ) {
          ++u.checked;
          u.lastJ = j;
        }
        if (y != op.want && ++u.mismatches <= 10)
          std::fprintf(out, "MISMATCH %zu cycle %llu op %lld a %llx b %llx y %llx want %llx\n", i,
                       (unsigned long long)cycle, (long long)j, (unsigned long long)op.a,
                       (unsigned long long)op.b, (unsigned long long)y, (unsigned long long)op.want);
      }
      if (en[i]) {
        u.q.push_back(issue[i]);
        ++u.edges;
      }
      busy |= u.checked < u.src.total;
    }
    t->clk = 1;
    t->eval();
  }
  for (size_t i = 0; i < units.size(); ++i) {
    const State& u = units[i];
    std::fprintf(out, "UNIT %zu checked %llu total %llu pairs %llu mismatches %llu latency %lld", i,
                 (unsigned long long)u.checked, (unsigned long long)u.src.total,
                 (unsigned long long)u.src.pairs, (unsigned long long)u.mismatches, (long long)u.observed);
    for (int c = 0; c < kClasses; ++c)
      std::fprintf(out, " %s %llu", kClassNames[c], (unsigned long long)u.counts[c]);
    std::fprintf(out, "\n");
  }
  std::fprintf(out, "CYCLES %llu\n", (unsigned long long)cycle);
  std::fclose(out);
  t->final();
  delete t;
  return 0;
}
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
  std::string dir = tempDir("lint");
  for (FpFormat f : {rtl::kF16, rtl::kF32, rtl::kF64})
    for (uint32_t s = 1; s <= rtl::fpMulMaxStages(f); ++s) {
      const UnitUnderTest u{f, s};
      CAPTURE(u.module());
      std::string file = dir + "/" + u.module() + ".v";
      std::ofstream(file) << rtl::generateFpMulUnit(u.module(), f, s);
      std::string log = dir + "/" + u.module() + ".lint";
      int rc = run("verilator --lint-only -Wall --top-module " + u.module() + " " + file, log);
      INFO(slurp(log));
      CHECK(rc == 0);
      CHECK(slurp(log).empty());
      // The front end only (no synthesis): the f64 multipliers would take long to map.
      rc = run("yosys -q -p 'read_verilog " + file + "; hierarchy -top " + u.module() +
                   "; proc; check -assert'",
               dir + "/" + u.module() + ".yosys");
      INFO(slurp(dir + "/" + u.module() + ".yosys"));
      CHECK(rc == 0);
    }
}

// All units in one verilated wrapper, each with its own enable and operand stream.
TEST_CASE("pipelined fp multipliers match the host bit for bit with a random enable") {
  const std::vector<UnitUnderTest> units = {{rtl::kF16, 1}, {rtl::kF16, 2}, {rtl::kF16, 4},
                                            {rtl::kF32, 1}, {rtl::kF32, 3}, {rtl::kF32, 4},
                                            {rtl::kF64, 1}, {rtl::kF64, 3}, {rtl::kF64, 5}};
  const uint64_t randomPerUnit = 1000000;
  const std::string dir = tempDir("sim");
  std::string wrapper = "module fpmul_tb (\n  input wire clk";
  std::string body, cfg, drive, sample;
  for (size_t i = 0; i < units.size(); ++i) {
    const FpFormat f = units[i].format;
    wrapper +=
        fmt::format(",\n  input wire en_{0},\n  input wire [{1}:0] a_{0},\n  input wire [{1}:0] b_{0},\n"
                    "  output wire [{1}:0] y_{0}",
                    i, f.width() - 1);
    body += fmt::format("  {0} u{1} (.clk(clk), .en(en_{1}), .a(a_{1}), .b(b_{1}), .y(y_{1}));\n",
                        units[i].module(), i);
    cfg += fmt::format("  {{{}, {}, {}, {}ull}},\n", f.exp, f.mant, rtl::fpMulLatency(f, units[i].stages),
                       20261124 + 7919 * i);
    drive += fmt::format("  case {0}: t->en_{0} = en; t->a_{0} = a; t->b_{0} = b; break;\n", i);
    sample += fmt::format("  case {0}: return t->y_{0};\n", i);
  }
  std::ofstream(dir + "/fpmul_tb.v") << wrapper << "\n);\n" << body << "endmodule\n";
  std::string files = dir + "/fpmul_tb.v";
  for (const UnitUnderTest& u : units) {
    std::ofstream(dir + "/" + u.module() + ".v") << rtl::generateFpMulUnit(u.module(), u.format, u.stages);
    files += " " + dir + "/" + u.module() + ".v";
  }
  std::ofstream(dir + "/harness.cpp")
      << kHarnessHead << "const UnitCfg kCfg[] = {\n"
      << cfg << "};\nvoid drive(Vfpmul_tb* t, int i, bool en, uint64_t a, uint64_t b) {\n  switch (i) {\n"
      << drive << "  }\n}\nuint64_t sample(Vfpmul_tb* t, int i) {\n  switch (i) {\n"
      << sample << "  }\n  return 0;\n}\n"
      << kHarnessBody;
  std::string log = dir + "/build.log";
  int rc = run(fmt::format("verilator --cc --exe --build -j 2 -O3 -Wall -CFLAGS -O2 --top-module fpmul_tb "
                           "--Mdir {0}/obj -o vfpmul {1} {0}/harness.cpp",
                           dir, files),
               log);
  INFO(slurp(log));
  REQUIRE(rc == 0);

  rc = run(fmt::format("{0}/obj/vfpmul {1} {0}/out.txt", dir, randomPerUnit), dir + "/run.log");
  INFO(slurp(dir + "/run.log"));
  REQUIRE(rc == 0);
  const std::string result = slurp(dir + "/out.txt");
  INFO(result);
  std::istringstream in(result);
  std::string line;
  size_t seen = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag == "MISMATCH") FAIL_CHECK(line);
    if (tag != "UNIT") continue;
    size_t i = 0;
    ls >> i;
    REQUIRE(i < units.size());
    std::map<std::string, uint64_t> v;
    for (std::string key; ls >> key;)
      ls >> v[key];
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
    ++seen;
  }
  CHECK(seen == units.size());
}
