// The RTL netlist and its printer: the builder's checks, the structure the generators build (FIFOs
// with the plan's depths, registers, instances, RAMs), and golden Verilog for two small kernels so
// that any unintended change of the generated hardware shows.
//
// Golden files: tests/unit/data/golden/<case>/<module>.v, compiled from the .spv fixtures next to
// them (clang-15 output of examples/vadd.cl and examples/lut.cl). After an intended change of the
// generated Verilog, regenerate them with
//   SPVHLS_UPDATE_GOLDEN=1 ./build/tests/test_netlist
// and review the diff like any other change.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include "frontend/module.h"
#include "ir/lower.h"
#include "rtlgen/loop_plan.h"
#include "rtlgen/netlist.h"
#include "rtlgen/plan.h"
#include "rtlgen/rtlgen.h"
#include "rtlgen/verilog_printer.h"
#include "rtlgen/verilog_util.h"
#include "scheduler/kernel_schedule.h"

using namespace spvhls;
namespace nl = rtl::nl;
namespace fs = std::filesystem;

namespace {

fs::path goldenDir() {
  return fs::path(SPVHLS_SOURCE_DIR) / "tests/unit/data/golden";
}

// Lowers kernel `name` of a fixture and generates its hardware the way the driver does: the cluster
// kind of every loop chosen before scheduling (forced to `mode` unless Auto).
rtl::RtlResult compileFixture(const std::string& file, const std::string& name, rtl::ClusterMode mode) {
  spirv::Module m = spirv::readModuleFile((goldenDir() / file).string());
  spirv::ModuleView view = spirv::buildModuleView(m);
  ir::Kernel k = ir::lowerKernel(view, name);
  ir::verifyKernel(k);
  rtl::ClusterChoice choice = rtl::chooseClusterKinds(k, mode, "--cluster");
  sched::ScheduleOptions so;
  so.exitBeforeMemory = rtl::exitBeforeMemory(choice.loops);
  sched::KernelSchedule s = sched::scheduleKernel(k, so);
  return rtl::generateVerilog(k, s, rtl::planKernel(k, s, sched::OperatorLibrary(so.target), choice.loops));
}

const nl::Module& moduleNamed(const rtl::RtlResult& r, const std::string& name) {
  for (const nl::Module& m : r.modules)
    if (m.name == name) return m;
  FAIL("no module " << name);
  throw std::runtime_error("unreachable");
}

size_t countRegs(const nl::Module& m, const std::string& prefix) {
  size_t n = 0;
  for (const nl::Signal& s : m.signals)
    if (s.storage == nl::Storage::Reg && s.name.rfind(prefix, 0) == 0) ++n;
  return n;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Compares every generated file with its golden copy (or rewrites them in update mode).
void checkGolden(const rtl::RtlResult& r, const std::string& caseName) {
  fs::path dir = goldenDir() / caseName;
  const char* update = std::getenv("SPVHLS_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& [file, text] : r.files)
      std::ofstream(dir / file) << text;
    MESSAGE("updated golden files in " << dir.string());
    return;
  }
  size_t goldenFiles = 0;
  for (const auto& e : fs::directory_iterator(dir))
    goldenFiles += e.path().extension() == ".v";
  CHECK(goldenFiles == r.files.size()); // no module appeared or vanished
  for (const auto& [file, text] : r.files) {
    CAPTURE(file);
    CHECK(rtl::verilogTextProblems(text).empty());
    REQUIRE_MESSAGE(fs::exists(dir / file), "missing golden file; see the top of test_netlist.cpp");
    std::string golden = slurp(dir / file);
    if (golden == text) continue;
    // Show the first differing line.
    std::istringstream a(golden), b(text);
    std::string la, lb;
    size_t line = 1;
    while (std::getline(a, la) && std::getline(b, lb) && la == lb)
      ++line;
    FAIL_CHECK("differs from golden at line " << line << ":\n  golden:    " << la << "\n  generated: " << lb);
  }
}

} // namespace

TEST_CASE("netlist builder: widths are checked, names are unique") {
  nl::ModuleBuilder b("m", "");
  nl::ExprP a = b.input("a", 8), x = b.wire("x", 8), y = b.reg("y", 4);
  CHECK_THROWS_AS(b.assign(x, nl::ref("a", 4)), InternalError); // 4 bits into 8
  CHECK_THROWS_AS(b.assign(y, nl::lit(0, 4)), InternalError);   // a register is not assigned
  CHECK_THROWS_AS(b.assign(nl::ref("z", 8), a), InternalError); // unknown signal
  CHECK_THROWS_AS(nl::add(a, nl::lit(1, 9)), InternalError);    // operands of different widths
  CHECK_THROWS_AS(nl::slice(a, 8, 0), InternalError);           // beyond the signal
  CHECK_THROWS_AS(nl::mux(a, a, a), InternalError);             // an 8-bit condition
  CHECK_NOTHROW(b.assign(x, nl::add(a, nl::lit(1, 8))));
  // Widths are known on every node.
  CHECK(nl::concat({a, nl::slice(a, 3, 0), nl::one()})->width == 13);
  CHECK(nl::eq(a, a)->width == 1);
  CHECK(nl::replicate(nl::slice(a, 7, 7), 24)->width == 24);
  // Every register has exactly one driver.
  CHECK_THROWS_AS(b.take(), InternalError); // y is never written
  nl::ModuleBuilder twice("m2", "");
  nl::ExprP r = twice.reg("r", 1);
  twice.drive(r).updates = {{nl::one(), nl::zero()}};
  twice.process({nl::assignStmt("r", nl::one())});
  CHECK_THROWS_AS(twice.take(), InternalError);
  // Names are unique (checked when the module is taken).
  nl::ModuleBuilder dup("m3", "");
  dup.wire("x", 8);
  dup.wire("x", 3);
  CHECK_THROWS_WITH_AS(
      dup.take(),
      "error: netlist: internal compiler error (please report): module m3: signal x declared twice",
      InternalError);
  nl::ModuleBuilder fifoName("m4", "");
  fifoName.wire("q_count", 3);
  fifoName.fifo({"q", 1, 2, false, nl::one(), nl::one(), nl::one(), nl::zero()});
  CHECK_THROWS_AS(fifoName.take(), InternalError); // q_count is the FIFO's state
}

TEST_CASE("netlist expressions fold literals on the tree") {
  nl::ExprP a = nl::ref("a", 1), w = nl::ref("w", 16);
  CHECK(nl::any({a, nl::zero()}) == a);
  CHECK(nl::any({a, nl::one()})->isConst(1));
  CHECK(nl::all({a, nl::one()}) == a);
  CHECK(nl::all({a, nl::zero()})->isConst(0));
  CHECK((~nl::lit(5, 4))->isConst(10));
  CHECK((~~a) == a);
  CHECK(nl::mux(nl::one(), w, nl::lit(0, 16)) == w);
  CHECK(nl::slice(nl::lit(0xabcd, 16), 11, 4)->isConst(0xbc));
  CHECK(nl::resize(w, 16) == w);
  CHECK(nl::priorityMux({{nl::zero(), w}}, nl::lit(3, 16))->isConst(3));
  // A literal shift amount is reduced modulo the width on the tree, not parsed back out of text.
  ir::Op shl;
  shl.kind = ir::OpKind::Shl;
  shl.type = ir::Type::bits(16);
  nl::ExprP e = rtl::opExpr(shl, {w, nl::lit(35, 8)});
  REQUIRE(e->op == nl::Op::Shl);
  CHECK(e->args()[1]->isConst(3));
  CHECK(e->args()[1]->width == 4);
}

TEST_CASE("printer: registers, processes, FIFOs and instances as lint-clean Verilog") {
  nl::ModuleBuilder b("unit", "a hand-built module");
  b.input("clk", 1);
  nl::ExprP rst = b.input("rst", 1), go = b.input("go", 1), d = b.input("d", 8);
  nl::ExprP q = b.output("q", 8, nl::Storage::Reg), cnt = b.reg("cnt", 3), st = b.reg("st", 1);
  nl::ExprP y = b.output("y", 8);
  nl::Register& r = b.drive(cnt);
  r.reset = rst;
  r.resetValue = nl::lit(0, 3);
  r.updates = {{go, nl::add(cnt, nl::lit(1, 3))}};
  auto f = b.fifo({"ff", 8, 4, false, go, d, st, nl::zero()});
  b.drive(q).updates = {{f.nonempty, f.dout}};
  b.process({nl::ifStmt(rst, {nl::assignStmt("st", nl::zero())},
                        {nl::assignStmt("st", nl::eq(cnt, nl::lit(7, 3)))})});
  b.instance({"sub", "u_sub", {{"i", q}, {"o", y}}});
  nl::Module m = b.take();
  CHECK(m.registers.size() == 2);
  REQUIRE(m.findFifo("ff"));
  CHECK(m.findFifo("ff")->depth == 4);
  REQUIRE(m.findInstance("u_sub"));
  CHECK(m.findInstance("u_sub")->module == "sub");
  std::string v = rtl::printVerilog(m);
  CHECK(v.find("// a hand-built module\nmodule unit (") == 0);
  CHECK(v.find("  always @(posedge clk)\n    if (rst) cnt <= 3'h0;\n    else if (go) cnt <= cnt + 3'h1;\n") !=
        std::string::npos);
  CHECK(v.find("reg [7:0] ff_mem [0:3];") != std::string::npos);
  CHECK(v.find("$error(\"FIFO ff overflow\")") != std::string::npos);
  CHECK(v.find("  sub u_sub (\n    .i(q),\n    .o(y)\n  );\n") != std::string::npos);
  CHECK(rtl::verilogTextProblems(v).empty());
}

TEST_CASE("stall-free vadd: one exit FIFO per cluster boundary with the plan's depth") {
  rtl::RtlResult r = compileFixture("vadd.spv", "vadd", rtl::ClusterMode::StallFree);
  REQUIRE(r.loops.size() == 1);
  const rtl::LoopHardware& hw = r.loops[0];
  REQUIRE(hw.kind == rtl::ClusterMode::StallFree);
  REQUIRE(hw.clusters.size() >= 2);
  const nl::Module& loop = moduleNamed(r, "vadd_loop0");
  size_t exitFifos = 0, respFifos = 0;
  for (const nl::Fifo& f : loop.fifos) {
    exitFifos += f.prefix[0] == 'f';
    respFifos += f.prefix.rfind("rf", 0) == 0;
  }
  CHECK(exitFifos == hw.clusters.size() - 1);
  for (size_t j = 0; j + 1 < hw.clusters.size(); ++j) {
    const nl::Fifo* f = loop.findFifo(fmt::format("f{}", j));
    REQUIRE(f);
    CHECK(f->depth == hw.clusters[j].exitFifoDepth);
    CHECK(!f->bypass);
  }
  // Two loads (a[i], b[i]): a bypass response FIFO each, with the plan's depth.
  CHECK(respFifos == 2);
  CHECK(hw.responseFifos.size() == 2);
  for (const nl::Fifo& f : loop.fifos)
    if (f.prefix.rfind("rf", 0) == 0) {
      CHECK(f.bypass);
      CHECK(f.depth == hw.responseFifos[0].second);
    }
  // A position has its own valid register unless it begins a cluster (its admission is its valid).
  uint32_t positions = hw.clusters.back().lastStage + 1;
  CHECK(countRegs(loop, "vld_p") == positions - hw.clusters.size());
  CHECK(loop.find("en") == nullptr); // stall-free clusters have no global enable
  // The top module starts the loop as an instance and owns the three kernel-argument memory ports.
  const nl::Module& top = r.modules[0];
  REQUIRE(top.findInstance("u_loop0"));
  CHECK(top.findInstance("u_loop0")->module == "vadd_loop0");
  CHECK(top.instances.size() == 1);
  for (const char* p : {"mem_a_req_addr", "mem_b_req_addr", "mem_c_req_wdata", "mem_c_resp_data"}) {
    CAPTURE(p);
    REQUIRE(top.find(p));
    CHECK(top.find(p)->width == nl::kPortDataWidth);
  }
}

TEST_CASE("stall-enable vadd: one enable, no exit FIFOs") {
  rtl::RtlResult r = compileFixture("vadd.spv", "vadd", rtl::ClusterMode::StallEnable);
  REQUIRE(r.loops[0].kind == rtl::ClusterMode::StallEnable);
  const nl::Module& loop = moduleNamed(r, "vadd_loop0");
  REQUIRE(loop.find("en"));
  CHECK(loop.find("en")->storage == nl::Storage::Wire);
  for (const nl::Fifo& f : loop.fifos)
    CHECK(f.prefix.rfind("rf", 0) == 0);
  CHECK(r.loops[0].clusters.size() == 1);
  uint32_t positions = r.loops[0].clusters.back().lastStage + 1;
  CHECK(countRegs(loop, "vld_p") == positions - 1); // every position but the issue slot
}

TEST_CASE("lut: a private array becomes a RAM instance of its own module") {
  rtl::RtlResult r = compileFixture("lut.spv", "lut", rtl::ClusterMode::Auto);
  const nl::Module& top = r.modules[0];
  CHECK(r.loops.size() == 2);
  size_t rams = 0, loops = 0;
  for (const nl::Instance& i : top.instances) {
    rams += i.name.rfind("u_lmem", 0) == 0;
    loops += i.name.rfind("u_loop", 0) == 0;
  }
  CHECK(rams == 1);
  CHECK(loops == 2);
  const nl::Module* ram = nullptr;
  for (const nl::Module& m : r.modules)
    if (!m.rams.empty()) ram = &m;
  REQUIRE(ram);
  REQUIRE(ram->rams.size() == 1);
  CHECK(ram->rams[0].sizeBytes == 64); // int t[16]
  CHECK(ram->rams[0].wordBytes == 4);  // int accesses: 32-bit words
  CHECK(ram->rams[0].depth() == 16);   // words
  CHECK(ram->find("resp_data")->width == nl::kPortDataWidth);
  // The RAM has a read port and a write port: the fill loop drives the write port (lmem<m>w_*), the
  // lookup loop the read port, each merged with the FSM's requests on it.
  CHECK(ram->rams[0].wValid != nullptr);
  std::string top_v = r.files[0].second;
  CHECK(std::regex_search(top_v, std::regex(R"(assign lmem\d+w_req_valid = [^;]*lp0_m\d+_req_valid)")));
  CHECK(std::regex_search(top_v, std::regex(R"(assign lmem\d+_req_valid = [^;]*lp1_m\d+_req_valid)")));
  CHECK_FALSE(std::regex_search(top_v, std::regex(R"(assign lmem\d+_req_valid = [^;]*lp0_m\d+_req_valid)")));
}

TEST_CASE("wide ports: float4 accessed whole, ports and RAM words of 128 bits, req_size of 5 bits") {
  CHECK(nl::portSizeWidth(64) == 4);
  CHECK(nl::portSizeWidth(128) == 5);
  CHECK(nl::portSizeWidth(1024) == 8);
  const nl::ExprP wide = nl::lit(5, 100); // above a literal node: the value zero-extended
  CHECK(wide->width == 100);
  CHECK(wide->op == nl::Op::Concat);
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
    CAPTURE(std::string(rtl::clusterModeName(mode)));
    rtl::RtlResult r = compileFixture("vquad.spv", "vquad", mode); // tests/unit/data/golden/vquad.cl
    const nl::Module& top = r.modules[0];
    for (std::string p : {"mem_a_resp_data", "mem_out_req_wdata", "lmem2_resp_data"}) { // t: memory 2
      CAPTURE(p);
      REQUIRE(top.find(p));
      CHECK(top.find(p)->width == 128);
    }
    CHECK(top.find("mem_out_req_size")->width == 5);
    const nl::Module* ram = nullptr;
    for (const nl::Module& m : r.modules)
      if (!m.rams.empty()) ram = &m;
    REQUIRE(ram);
    CHECK(ram->rams[0].wordBytes == 16);
    CHECK(ram->rams[0].depth() == 4);
    CHECK(ram->find("req_size")->width == 5);
    const nl::Module& loop = moduleNamed(r, "vquad_loop1");
    CHECK(loop.find("m1_req_wdata")->width == 128);
    // One 16-byte request per access: the size literal, and the whole word in the RAM's contents.
    bool sized = false, word = false;
    for (const auto& [file, text] : r.files) {
      sized = sized || text.find("5'h10") != std::string::npos;
      word = word || text.find("128'h00000000000000000000000000000000") != std::string::npos;
    }
    CHECK(sized);
    CHECK(word);
    for (const auto& [file, text] : r.files) {
      CAPTURE(file);
      CHECK(rtl::verilogTextProblems(text).empty());
    }
  }
}

TEST_CASE("golden Verilog: vadd in both cluster kinds and lut") {
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
    std::string kind = rtl::clusterModeName(mode);
    CAPTURE(kind);
    checkGolden(compileFixture("vadd.spv", "vadd", mode), fmt::format("vadd.{}", rtl::clusterModeName(mode)));
  }
  checkGolden(compileFixture("lut.spv", "lut", rtl::ClusterMode::Auto), "lut.auto");
}

TEST_CASE("sanitize: every name becomes a legal Verilog identifier without '__', keywords avoided") {
  // Keywords of Verilog and SystemVerilog, the module's own port names, and awkward identifiers.
  const std::vector<std::string> names = {
      "module", "input", "output", "reg", "wire", "logic", "always", "begin", "end", "final", "int", "bit",
      "string", "type", "global", "local", "start", "clk", "rst", "done", "busy", "", "_", "__", "___x___",
      "a__b", "_x", "x_", "9lives", "a.b", "k.tmp", "with space", "\xc3\xbc", "wire__", "arg_", "mem__start"};
  static const std::set<std::string> keywords = {"module", "input", "output", "reg", "wire", "logic", "always",
                                                 "begin", "end", "final", "int", "bit", "string", "type",
                                                 "global", "local", "start", "clk", "rst", "done", "busy"};
  for (const std::string& n : names) {
    const std::string s = rtl::sanitize(n);
    INFO("name '" << n << "' -> '" << s << "'");
    REQUIRE(!s.empty());
    CHECK((std::isalpha(static_cast<unsigned char>(s[0])) != 0));
    for (char c : s) CHECK((std::isalnum(static_cast<unsigned char>(c)) || c == '_'));
    CHECK(s.find("__") == std::string::npos);
    CHECK(s.back() != '_');
    CHECK(keywords.count(s) == 0);
    // As it appears in ports: arg_<name>, mem_<name>_req_valid.
    CHECK(("mem_" + s + "_req_valid").find("__") == std::string::npos);
  }
  CHECK(rtl::sanitize("start") == "start_k");
  CHECK(rtl::sanitize("a__b") == "a_b");
  CHECK(rtl::sanitize("9lives") == "k_9lives");
}
