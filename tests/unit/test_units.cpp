// Operator units: the generated pipelined dividers and multipliers, verilated and compared with the IR
// evaluator
// (ir/ir_eval.cpp, the reference semantics) over random and edge-case operands with the enable
// toggled at random, plus lint and synthesis front-end checks of every generated module.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "ir/ir_eval.h"
#include "rtlgen/units/divider.h"
#include "rtlgen/units/multiplier.h"
#include "rtlgen/verilog_printer.h"
#include "scheduler/schedule.h"

using namespace spvhls;
using ir::OpKind;
namespace fs = std::filesystem;

namespace {

struct UnitUnderTest {
  OpKind kind;
  uint32_t width;
  std::string module() const { return sched::unitModuleName(kind, width); }
  // The operator library's latency, which the generated unit must have.
  uint32_t latency() const {
    ir::Op op;
    op.kind = kind;
    op.type = ir::Type::bits(width);
    return sched::OperatorLibrary().latency(op);
  }
  std::string verilog() const {
    return kind == OpKind::Mul ? rtl::printVerilog(rtl::buildMultiplierUnit(width, latency() - 1))
                               : rtl::generateDividerUnit(kind, width);
  }
};

uint64_t mask(uint32_t w) {
  return w >= 64 ? ~0ull : (1ull << w) - 1;
}

// A kernel `out[0] = a <kind> b` whose result ir::evaluateKernel computes.
ir::Kernel oneOpKernel(OpKind kind, uint32_t width) {
  ir::Kernel k;
  k.name = "oneop";
  k.args = {{"a", false, ir::Type::bits(width), 0},
            {"b", false, ir::Type::bits(width), 0},
            {"out", true, ir::Type::none(), 0}};
  k.memories.resize(1);
  k.memories[0].name = "out";
  k.memories[0].argIndex = 2;
  auto add = [&](OpKind kk, uint32_t w, std::vector<ir::ValueId> operands, uint32_t index = 0) {
    ir::Op op;
    op.kind = kk;
    op.type = ir::Type::bits(w);
    op.operands = std::move(operands);
    op.index = index;
    k.ops.push_back(op);
    return ir::ValueId(k.ops.size() - 1);
  };
  ir::ValueId a = add(OpKind::Arg, width, {}, 0), b = add(OpKind::Arg, width, {}, 1);
  ir::ValueId r = add(kind, width, {a, b});
  ir::ValueId off = add(OpKind::Const, 64, {});
  ir::ValueId st = add(OpKind::Store, 0, {off, r, ir::kNone});
  k.ops[st].memory = 0;
  k.ops[st].size = 8;
  k.blocks.resize(1);
  k.blocks[0].name = "entry";
  k.blocks[0].ops = {a, b, r, off, st};
  k.blocks[0].term.kind = ir::Terminator::Kind::Return;
  return k;
}

uint64_t reference(const ir::Kernel& k, uint64_t a, uint64_t b) {
  ir::EvalResult r = ir::evaluateKernel(k, {a, b, 0}, {{}, {}, std::vector<uint8_t>(8, 0)});
  uint64_t y = 0;
  for (int i = 0; i < 8; ++i)
    y |= uint64_t(r.buffers[2][i]) << (8 * i);
  return y;
}

// Operands: the edge cases (0, 1, -1, INT_MIN, INT_MAX and neighbours) half of the time, else
// random values of random bit length so that small quotients and remainders occur too.
uint64_t operand(std::mt19937_64& rng, uint32_t w) {
  const uint64_t m = mask(w), intMin = 1ull << (w - 1);
  const uint64_t edges[] = {0, 1, m, intMin, intMin - 1, intMin + 1, 2, m - 1, 3};
  if (rng() % 2) return edges[rng() % std::size(edges)] & m;
  uint32_t bits = 1 + uint32_t(rng() % w);
  return rng() & mask(bits);
}

std::string tempDir(const std::string& name) {
  fs::path d = fs::path(SPVHLS_BINARY_DIR) / "test_units" / name;
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

std::vector<UnitUnderTest> allUnits() {
  std::vector<UnitUnderTest> units;
  for (uint32_t w : {1u, 8u, 32u, 64u})
    for (OpKind k : {OpKind::UDiv, OpKind::SDiv, OpKind::URem, OpKind::SRem, OpKind::SMod, OpKind::Mul})
      units.push_back({k, w});
  for (uint32_t w : {3u, 16u, 33u, 48u})
    units.push_back({OpKind::Mul, w});
  return units;
}

} // namespace

TEST_CASE("divider and multiplier unit names and latency agree with the operator library") {
  sched::OperatorLibrary lib;
  for (const UnitUnderTest& u : allUnits()) {
    ir::Op op;
    op.kind = u.kind;
    op.type = ir::Type::bits(u.width);
    sched::Unit unit = lib.unit(op);
    CHECK(unit.module == u.module());
    CHECK(unit.build == sched::UnitBuild::Instance);
    CHECK(unit.latency == (u.kind == OpKind::Mul ? (u.width > 32 ? 5u : 3u) : u.width + 2));
    std::string text = u.verilog();
    CHECK(text.find("module " + u.module() + " (") != std::string::npos);
    CHECK(text.find(fmt::format("latency {}", unit.latency)) != std::string::npos);
  }
  CHECK(lib.unit([] {
             ir::Op op;
             op.kind = OpKind::Add;
             op.type = ir::Type::bits(32);
             return op;
           }())
            .module.empty());
  CHECK_THROWS_AS(rtl::generateDividerUnit(OpKind::Add, 32), InternalError);
  CHECK_THROWS_AS(rtl::generateDividerUnit(OpKind::UDiv, 65), InternalError);
  CHECK_THROWS_AS(rtl::buildMultiplierUnit(65, 2), InternalError);
  CHECK_THROWS_AS(rtl::buildMultiplierUnit(32, 0), InternalError);
}

TEST_CASE("every divider and multiplier unit is lint-clean and synthesizable on its own") {
  std::string dir = tempDir("lint");
  for (const UnitUnderTest& u : allUnits()) {
    CAPTURE(u.module());
    std::string file = dir + "/" + u.module() + ".v";
    std::ofstream(file) << u.verilog();
    std::string log = dir + "/" + u.module() + ".lint";
    int rc = run("verilator --lint-only -Wall --top-module " + u.module() + " " + file, log);
    INFO(slurp(log));
    CHECK(rc == 0);
    CHECK(slurp(log).empty());
    rc =
        run("yosys -q -p 'read_verilog " + file + "; hierarchy -top " + u.module() + "; proc; check -assert'",
            dir + "/" + u.module() + ".yosys");
    INFO(slurp(dir + "/" + u.module() + ".yosys"));
    CHECK(rc == 0);
  }
}

// All units in one verilated wrapper, each with its own enable. Per cycle the harness reads every
// unit's (en, a, b), prints every y (combinational out of the last stage), then clocks.
TEST_CASE("pipelined dividers and multipliers compute ir_eval's results at the library's latency with a "
          "random enable") {
  const std::vector<UnitUnderTest> units = allUnits();
  const std::string dir = tempDir("sim");
  std::string wrapper = "module units_tb (\n  input wire clk";
  std::string body;
  for (size_t i = 0; i < units.size(); ++i) {
    const uint32_t w = units[i].width;
    wrapper +=
        fmt::format(",\n  input wire en_{0},\n  input wire [{1}:0] a_{0},\n  input wire [{1}:0] b_{0},\n"
                    "  output wire [{1}:0] y_{0}",
                    i, w - 1);
    body += fmt::format("  {0} u{1} (.clk(clk), .en(en_{1}), .a(a_{1}), .b(b_{1}), .y(y_{1}));\n",
                        units[i].module(), i);
  }
  std::ofstream(dir + "/units_tb.v") << wrapper << "\n);\n" << body << "endmodule\n";
  std::string files = dir + "/units_tb.v";
  for (const UnitUnderTest& u : units) {
    std::ofstream(dir + "/" + u.module() + ".v") << u.verilog();
    files += " " + dir + "/" + u.module() + ".v";
  }
  std::string drive, sample;
  for (size_t i = 0; i < units.size(); ++i) {
    drive +=
        fmt::format("    in >> std::hex >> en >> a >> b; t->en_{0} = en; t->a_{0} = a; t->b_{0} = b;\n", i);
    sample += fmt::format("    out << std::hex << uint64_t(t->y_{}) << ' ';\n", i);
  }
  std::ofstream(dir + "/harness.cpp")
      << "#include <cstdint>\n#include <fstream>\n#include \"Vunits_tb.h\"\n"
         "int main(int, char** argv) {\n  std::ifstream in(argv[1]);\n  std::ofstream out(argv[2]);\n"
         "  Vunits_tb* t = new Vunits_tb;\n  uint64_t cycles = 0, en = 0, a = 0, b = 0;\n  in >> std::hex >> "
         "cycles;\n"
         "  for (uint64_t c = 0; c < cycles; ++c) {\n    t->clk = 0;\n"
      << drive << "    t->eval();\n"
      << sample
      << "    out << '\\n';\n    t->clk = 1;\n    t->eval();\n  }\n  t->final();\n  delete t;\n  return "
         "0;\n}\n";
  std::string log = dir + "/build.log";
  int rc = run(
      fmt::format("verilator --cc --exe --build -j 2 -Wall --top-module units_tb --Mdir {0}/obj -o vunits "
                  "{1} {0}/harness.cpp",
                  dir, files),
      log);
  INFO(slurp(log));
  REQUIRE(rc == 0);

  // Stimulus and the expected value of every unit in every cycle: op j (the j-th enabled cycle's
  // operands) is in the last stage once j + latency - 1 enabled edges have passed.
  const uint64_t cycles = 400;
  std::mt19937_64 rng(20261123);
  struct Track {
    ir::Kernel kernel;
    std::vector<uint64_t> results; // of the operations issued so far, in order
    uint64_t edges = 0;            // enabled clock edges so far
  };
  std::vector<Track> tracks;
  for (const UnitUnderTest& u : units)
    tracks.push_back({oneOpKernel(u.kind, u.width), {}, 0});
  std::ostringstream stim;
  stim << std::hex << cycles << "\n";
  std::vector<std::vector<int64_t>> expect(cycles,
                                           std::vector<int64_t>(units.size(), -1)); // index of op or -1
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> operands(units.size());
  for (uint64_t c = 0; c < cycles; ++c) {
    for (size_t i = 0; i < units.size(); ++i) {
      Track& tr = tracks[i];
      const uint32_t w = units[i].width;
      int64_t j = int64_t(tr.edges) - int64_t(units[i].latency() - 1);
      expect[c][i] = j;
      const bool en = rng() % 10 < 7;
      const uint64_t a = operand(rng, w), b = operand(rng, w);
      stim << en << " " << a << " " << b << " ";
      if (en) {
        tr.results.push_back(reference(tr.kernel, a, b));
        operands[i].push_back({a, b});
        ++tr.edges;
      }
    }
    stim << "\n";
  }
  std::ofstream(dir + "/stim.txt") << stim.str();
  rc = run(fmt::format("{0}/obj/vunits {0}/stim.txt {0}/out.txt", dir), dir + "/run.log");
  INFO(slurp(dir + "/run.log"));
  REQUIRE(rc == 0);

  std::istringstream out(slurp(dir + "/out.txt"));
  std::vector<size_t> checked(units.size(), 0);
  size_t mismatches = 0;
  for (uint64_t c = 0; c < cycles; ++c)
    for (size_t i = 0; i < units.size(); ++i) {
      uint64_t y = 0;
      REQUIRE(static_cast<bool>(out >> std::hex >> y));
      const int64_t j = expect[c][i];
      if (j < 0) continue; // the pipeline has not been filled yet
      ++checked[i];
      const uint64_t want = tracks[i].results[size_t(j)];
      if (y != want && ++mismatches <= 10)
        FAIL_CHECK(fmt::format("{} cycle {}: a {:#x}, b {:#x}: y {:#x}, expected {:#x}", units[i].module(), c,
                               operands[i][size_t(j)].first, operands[i][size_t(j)].second, y, want));
    }
  CHECK(mismatches == 0);
  // Every unit produced results through a toggling enable (about 0.7 * cycles - latency of them).
  for (size_t i = 0; i < units.size(); ++i) {
    CAPTURE(units[i].module());
    CHECK(checked[i] > 100);
  }
}
