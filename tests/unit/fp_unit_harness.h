// Scaffolding shared by the floating-point unit tests (test_fp_*.cpp): scratch directories, running
// tools, per-unit lint and synthesis checks, a wrapper module instantiating every unit under test
// with its own enable, the verilated harness build, and pieces of harness source text (the harness
// is C++ compiled by Verilator, so these are strings spliced into harness.cpp).
#pragma once

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace spvhls::fptest {

// A fresh <build>/<test>/<name>.
inline std::string tempDir(const std::string& test, const std::string& name) {
  const std::filesystem::path d = std::filesystem::path(SPVHLS_BINARY_DIR) / test / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

inline int run(const std::string& cmd, const std::string& log) {
  return std::system((cmd + " > " + log + " 2>&1").c_str());
}

// ---- harness source text ----------------------------------------------------------------------

// The ring-buffer harnesses' (add, convert) generator, bit masks and mantissas biased to the hard
// cases.
inline const char* kRingCommon = R"(
uint64_t ones(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return next() % n; }
};

uint64_t mantissa(Rng& r, int m) {
  switch (r.below(6)) {
  case 0: return r.next() & r.next() & r.next() & ones(m); // sparse
  case 1: return (r.next() | r.next() | r.next()) & ones(m); // dense
  case 2: return r.next() & ones(int(r.below(m + 1))); // low bits only
  case 3: return ones(m) ^ (r.next() & ones(int(r.below(m + 1)))); // high bits set
  default: return r.next() & ones(m);
  }
}
)";

// The ring harnesses' main (add, convert). Per cycle every unit gets its own enable (70% on) and
// operands; y is compared, every cycle, with the expected value of the operation issued latency - 1
// enabled edges earlier (a ring of the last 16); other candidate latencies are tracked too, to report
// which fit. The harness defines UnitDesc (latency), Entry (y; check: false where y is not to be
// compared), State (rng, sp, edges, misfit, ring), the seeds kSeed and kEnableSeed, and the hooks
// start(state, unit) (the special values), issue(state, unit, en, a, b) (the operands, recorded
// when en), check(state, unit, y, j, randomOps, report) (with j the issue index due: whether the
// unit is done) and summary(state, unit, report) (the report line up to its latencies: whether it
// failed).
inline const char* kRingMain = R"(
int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const uint64_t randomOps = std::strtoull(argv[1], nullptr, 10);
  FILE* report = std::fopen(argv[2], "w");
  if (!report) return 2;
  Wrapper* t = new Wrapper;
  std::vector<State> st(kNumUnits);
  for (int i = 0; i < kNumUnits; ++i) {
    st[i].rng.s = kSeed + uint64_t(i) * 7919;
    start(st[i], kUnits[i]);
  }
  Rng enRng{kEnableSeed};
  bool done = false;
  uint64_t cycles = 0;
  while (!done) {
    ++cycles;
    bool en[kNumUnits];
    for (int i = 0; i < kNumUnits; ++i) {
      en[i] = enRng.below(10) < 7;
      uint64_t a, b = 0;
      issue(st[i], kUnits[i], en[i], a, b);
      drive(t, i, en[i], a, b);
    }
    t->clk = 0;
    t->eval();
    done = true;
    for (int i = 0; i < kNumUnits; ++i) {
      State& s = st[i];
      const uint64_t y = sample(t, i);
      for (int l = 2; l < 10; ++l) {
        const int64_t j = int64_t(s.edges) - (l - 1);
        if (j >= 0 && s.ring[j % 16].check && s.ring[j % 16].y != y) s.misfit |= 1u << l;
      }
      const int64_t j = int64_t(s.edges) - (kUnits[i].latency - 1);
      if (!check(s, kUnits[i], y, j, randomOps, report)) done = false;
    }
    t->clk = 1;
    t->eval();
    for (int i = 0; i < kNumUnits; ++i)
      st[i].edges += en[i];
  }
  int rc = 0;
  for (int i = 0; i < kNumUnits; ++i) {
    const State& s = st[i];
    const bool failed = summary(s, kUnits[i], report);
    for (int l = 2; l < 10; ++l)
      if (!(s.misfit >> l & 1)) std::fprintf(report, " %d", l);
    std::fprintf(report, "\n");
    if (failed) rc = 1;
  }
  std::fprintf(report, "cycles %llu\n", (unsigned long long)cycles);
  std::fclose(report);
  t->final();
  delete t;
  return rc;
}
)";

// The queued harnesses' (mul, div) includes, bit casts, format and exact (quad) values; UnitCfg and
// the wrapper's header follow.
inline const char* kQueuedHead = R"(#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <vector>
)";

inline const char* kQueuedCommon = R"(
using half = _Float16;
using u128 = unsigned __int128;
template <class T, class B> T fromBits(B v) { T x; std::memcpy(&x, &v, sizeof x); return x; }
template <class B, class T> B toBits(T x) { B v; std::memcpy(&v, &x, sizeof x); return v; }
uint64_t mask(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
int bitLength(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

struct Fmt {
  int E, M, W, P;
  uint64_t mmask, expOnes, bias;
  Fmt(int e, int m) : E(e), M(m), W(1 + e + m), P(m + 1), mmask(mask(m)), expOnes(mask(e)), bias(mask(e) >> 1) {}
  uint64_t pack(uint64_t s, uint64_t e, uint64_t m) const { return (s << (W - 1)) | (e << M) | (m & mmask); }
  uint64_t expOf(uint64_t v) const { return (v >> M) & expOnes; }
  bool finiteNonzero(uint64_t v) const { return expOf(v) != expOnes && (v & mask(W - 1)) != 0; }
  // The bits of +-A * 2^e when exactly representable (normal or subnormal).
  bool encode(uint64_t s, uint64_t A, int64_t e, uint64_t& out) const {
    if (A == 0) return false;
    const int sh = bitLength(A) - P;
    if (sh > 0) {
      if (A & mask(sh)) return false;
      A >>= sh;
    } else {
      A <<= -sh;
    }
    e += sh;
    const int64_t biased = e + P - 1 + int64_t(bias);
    if (biased >= int64_t(expOnes)) return false;
    if (biased >= 1) {
      out = pack(s, uint64_t(biased), A);
      return true;
    }
    const int64_t r = 1 - biased;
    if (r >= P || (A & mask(int(r)))) return false;
    out = pack(s, 0, A >> r);
    return true;
  }
};

__float128 quad(const Fmt& f, uint64_t v) {
  if (f.W == 16) return double(fromBits<half>(uint16_t(v)));
  if (f.W == 32) return fromBits<float>(uint32_t(v));
  return fromBits<double>(v);
}
)";

// The queued harnesses' main. Per cycle it drives every unit (its own random enable, 70% on; operands
// only matter when enabled), evaluates, compares every y with the expected result of the operation
// that has passed latency - 1 enabled edges, then clocks. The first latency + 3 cycles of each unit
// hold en and issue probes whose first result differs from the others', from which the latency is
// observed independently of the one assumed. The harness defines Source (probes, pairs, total,
// issued, next()), kClasses, kClassNames and makeSource(cfg, fmt, probes, randomCount),
// expected(source, a, b) and count(source, a, b, result, counts). A harness that defines
// FPTEST_TERNARY before it has three operands (units with a port c, fma): next() gives a, b, c,
// and expected() and count() take c after b; the probes' first result is expected(source, 1, 1, 0).
inline const char* kQueuedMain = R"(
#ifdef FPTEST_TERNARY
#define FPTEST_C(x) , x
#else
#define FPTEST_C(x)
#endif
struct Op {
  uint64_t a, b, c, want;
};

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const uint64_t randomCount = std::strtoull(argv[1], nullptr, 10);
  FILE* out = std::fopen(argv[2], "w");
  Wrapper* t = new Wrapper;
  struct State {
    Fmt f;
    Source src;
    std::mt19937_64 enRng;
    std::deque<Op> q;
    uint64_t base = 0, edges = 0, checked = 0, mismatches = 0, counts[kClasses] = {};
    int64_t lastJ = -1, observed = -1;
    uint64_t probeWant = 0; // the first probe's result
  };
  std::vector<State> units;
  for (const UnitCfg& c : kCfg) {
    Fmt f(c.exp, c.mant);
    units.push_back({f, makeSource(c, f, uint64_t(c.latency) + 3, randomCount), std::mt19937_64(~c.seed)});
    units.back().probeWant = expected(units.back().src, f.bias << f.M, f.bias << f.M FPTEST_C(0));
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
#ifdef FPTEST_TERNARY
        auto [a, b, c] = u.src.next();
#else
        auto [a, b] = u.src.next();
        const uint64_t c = 0;
#endif
        issue[i] = {a, b, c, expected(u.src, a, b FPTEST_C(c))};
        if (u.src.issued <= u.src.total) count(u.src, a, b FPTEST_C(c), issue[i].want, u.counts);
      } else {
        issue[i] = {u.enRng() & mask(u.f.W), u.enRng() & mask(u.f.W), u.enRng() & mask(u.f.W), 0}; // ignored
      }
      drive(t, int(i), en[i], issue[i].a, issue[i].b);
#ifdef FPTEST_TERNARY
      driveC(t, int(i), issue[i].c);
#endif
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
          std::fprintf(out, "MISMATCH %zu cycle %llu op %lld a %llx b %llx c %llx y %llx want %llx\n", i,
                       (unsigned long long)cycle, (long long)j, (unsigned long long)op.a,
                       (unsigned long long)op.b, (unsigned long long)op.c, (unsigned long long)y,
                       (unsigned long long)op.want);
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

// One module on its own: -Wall lint without a word, and the synthesis front end (no mapping: the
// f64 multipliers would take long).
inline void lintUnit(const std::string& dir, const std::string& module, const std::string& text) {
  const std::string file = dir + "/" + module + ".v", log = dir + "/" + module + ".lint";
  std::ofstream(file) << text;
  int rc = run("verilator --lint-only -Wall --top-module " + module + " " + file, log);
  INFO(slurp(log));
  CHECK(rc == 0);
  CHECK(slurp(log).empty());
  const std::string ylog = dir + "/" + module + ".yosys";
  rc = run("yosys -q -p 'read_verilog " + file + "; hierarchy -top " + module + "; proc; check -assert'",
           ylog);
  INFO(slurp(ylog));
  CHECK(rc == 0);
}

// A unit as the wrapper sees it: ports clk, en, a, b (unless unary), c (when ternary), y.
struct WrappedUnit {
  std::string module, text;
  uint32_t inWidth, outWidth;
  bool binary;
  bool ternary = false; // a third operand c (binary too)
};

// Every unit's Verilog in `dir`, and a wrapper module `top` instantiating unit i with ports en_<i>,
// a_<i>, b_<i>, c_<i> (ternary units), y_<i>. Returns the file list, the wrapper first.
inline std::string writeWrapper(const std::vector<WrappedUnit>& units, const std::string& dir,
                                const std::string& top) {
  std::string wrapper = "module " + top + " (\n  input wire clk", body, files = dir + "/" + top + ".v";
  for (size_t i = 0; i < units.size(); ++i) {
    const WrappedUnit& u = units[i];
    wrapper += fmt::format(",\n  input wire en_{0},\n  input wire [{1}:0] a_{0},", i, u.inWidth - 1);
    if (u.binary) wrapper += fmt::format("\n  input wire [{1}:0] b_{0},", i, u.inWidth - 1);
    if (u.ternary) wrapper += fmt::format("\n  input wire [{1}:0] c_{0},", i, u.inWidth - 1);
    wrapper += fmt::format("\n  output wire [{1}:0] y_{0}", i, u.outWidth - 1);
    body += fmt::format("  {0} u{1} (.clk(clk), .en(en_{1}), .a(a_{1}), {2}{3}.y(y_{1}));\n", u.module, i,
                        u.binary ? fmt::format(".b(b_{}), ", i) : "",
                        u.ternary ? fmt::format(".c(c_{}), ", i) : "");
    std::ofstream(dir + "/" + u.module + ".v") << u.text;
    files += " " + dir + "/" + u.module + ".v";
  }
  std::ofstream(dir + "/" + top + ".v") << wrapper << "\n);\n" << body << "endmodule\n";
  return files;
}

// The harness's access to the verilated wrapper V<top> (alias Wrapper): drive(t, i, en, a, b) sets
// unit i's inputs (b ignored by a unary unit), sample(t, i) reads its y; when some unit is ternary,
// driveC(t, i, c) sets its c (ignored by the others).
inline std::string accessors(const std::vector<WrappedUnit>& units, const std::string& top) {
  std::string drive, sample, driveC;
  bool ternary = false;
  for (size_t i = 0; i < units.size(); ++i) {
    drive += fmt::format("  case {0}: t->en_{0} = en; t->a_{0} = a; {1}break;\n", i,
                         units[i].binary ? fmt::format("t->b_{} = b; ", i) : "(void)b; ");
    sample += fmt::format("  case {0}: return t->y_{0};\n", i);
    if (units[i].ternary) driveC += fmt::format("  case {0}: t->c_{0} = c; break;\n", i);
    ternary |= units[i].ternary;
  }
  std::string text =
      fmt::format("using Wrapper = V{0};\nvoid drive(V{0}* t, int i, bool en, uint64_t a, uint64_t b) {{\n"
                  "  switch (i) {{\n{1}"
                  "  }}\n}}\nuint64_t sample(V{0}* t, int i) {{\n  switch (i) {{\n{2}  }}\n  return 0;\n}}\n",
                  top, drive, sample);
  if (ternary)
    text += fmt::format("void driveC(V{0}* t, int i, uint64_t c) {{\n  switch (i) {{\n{1}  default: break;\n"
                        "  }}\n}}\n",
                        top, driveC);
  return text;
}

// Verilates the wrapper with dir/harness.cpp into dir/obj/<exe>, then runs it for `randomOps` random
// operations per unit, its report in dir/<report>. Returns the run's exit code.
inline int buildAndRun(const std::string& dir, const std::string& top, const std::string& files,
                       const std::string& flags, const std::string& exe, uint64_t randomOps,
                       const std::string& report) {
  const std::string buildLog = dir + "/build.log";
  const int rc =
      run(fmt::format("verilator --cc --exe --build -j 2 {2} --top-module {3} --Mdir {0}/obj -o {4} "
                      "{1} {0}/harness.cpp",
                      dir, files, flags, top, exe),
          buildLog);
  REQUIRE_MESSAGE(rc == 0, slurp(buildLog));
  return run(fmt::format("{0}/obj/{1} {2} {0}/{3}", dir, exe, randomOps, report), dir + "/run.log");
}

// Builds and runs a ring harness (kRingMain, dir/harness.cpp written by the caller). Returns the report;
// the run's exit code says whether a unit failed.
inline std::string runRingHarness(const std::string& dir, const std::string& top, const std::string& files,
                                  const std::string& exe, uint64_t randomOps) {
  const int rc = buildAndRun(dir, top, files, "-Wall -O3 --x-assign fast --x-initial fast -CFLAGS -O1", exe,
                             randomOps, "report.txt");
  const std::string text = slurp(dir + "/report.txt");
  CHECK_MESSAGE(rc == 0, (text + slurp(dir + "/run.log")));
  return text;
}

// Writes, builds and runs a queued harness (kQueuedMain) over `units`: cfgDecl declares UnitCfg,
// rows are its table kCfg, body is the harness's own part (see kQueuedMain). Returns the report.
inline std::string runQueuedHarness(const std::string& dir, const std::string& top,
                                    const std::vector<WrappedUnit>& units, const std::string& cfgDecl,
                                    const std::string& rows, const std::string& body, const std::string& exe,
                                    uint64_t randomPerUnit) {
  const std::string files = writeWrapper(units, dir, top);
  std::ofstream(dir + "/harness.cpp") << kQueuedHead << "#include \"V" << top << ".h\"\n"
                                      << cfgDecl << "const UnitCfg kCfg[] = {\n"
                                      << rows << "};\n"
                                      << accessors(units, top) << kQueuedCommon << body << kQueuedMain;
  const int rc = buildAndRun(dir, top, files, "-O3 -Wall -CFLAGS -O2", exe, randomPerUnit, "out.txt");
  INFO(slurp(dir + "/run.log"));
  REQUIRE(rc == 0);
  return slurp(dir + "/out.txt");
}

// The report of a queued harness (kQueuedMain): "MISMATCH ..." lines fail, and each "UNIT <i> key
// value ..." line goes to `unit` (i < count). Returns the number of unit lines.
inline size_t forEachUnitLine(const std::string& report, size_t count,
                              const std::function<void(size_t, std::map<std::string, uint64_t>&)>& unit) {
  std::istringstream in(report);
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
    REQUIRE(i < count);
    std::map<std::string, uint64_t> v;
    for (std::string key; ls >> key;)
      ls >> v[key];
    unit(i, v);
    ++seen;
  }
  return seen;
}

// The report of a ring harness (kRingMain): lines naming a mismatch fail, and each "unit <module> key
// value ... latencies <l>..." line goes to `unit` with the unit of that module, the values and the
// latencies that fit. Returns the number of unit lines.
template <class Unit>
size_t forEachRingUnitLine(const std::string& report, const std::vector<Unit>& units,
                           const std::function<void(const Unit&, std::map<std::string, uint64_t>&,
                                                    const std::vector<uint32_t>&)>& unit) {
  std::istringstream in(report);
  std::string line;
  size_t seen = 0;
  while (std::getline(in, line)) {
    if (line.find("mismatch ") != std::string::npos && line.rfind("unit ", 0) != 0) FAIL_CHECK(line);
    if (line.rfind("unit ", 0) != 0) continue;
    std::istringstream ls(line);
    std::string word, name;
    ls >> word >> name;
    std::map<std::string, uint64_t> v;
    for (std::string key; ls >> key && key != "latencies";)
      ls >> v[key];
    std::vector<uint32_t> fits;
    for (uint32_t l; ls >> l;)
      fits.push_back(l);
    const auto it =
        std::find_if(units.begin(), units.end(), [&](const Unit& u) { return u.module() == name; });
    REQUIRE(it != units.end());
    CAPTURE(name);
    unit(*it, v, fits);
    ++seen;
  }
  return seen;
}

} // namespace spvhls::fptest
