// Verilog generation: every operation kind at several widths, in both cluster kinds, must produce
// Verilog that `verilator --lint-only -Wall` accepts without a single warning and that yosys reads.
// The functional checks (RTL vs interpreter) are the end-to-end tests; these pin the generator's
// structure on hand-built IR.
#include <bit>
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "rtlgen/loop_plan.h"
#include "rtlgen/plan.h"
#include "rtlgen/rtlgen.h"
#include "rtlgen/verilog_printer.h"
#include "rtlgen/verilog_util.h"
#include "scheduler/kernel_schedule.h"

using namespace spvhls;
using ir::OpKind;
namespace fs = std::filesystem;

namespace {

struct LoopBuilder {
  ir::Loop loop;
  ir::ValueId add(OpKind k, uint8_t width, std::vector<ir::ValueId> operands, uint64_t imm = 0) {
    ir::Op op;
    op.kind = k;
    op.type = ir::Type::bits(width);
    op.operands = std::move(operands);
    op.imm = imm;
    op.name = fmt::format("v{}", loop.ops.size());
    loop.ops.push_back(op);
    return ir::ValueId(loop.ops.size() - 1);
  }
  ir::ValueId mem(OpKind k, uint32_t memory, uint8_t size, std::vector<ir::ValueId> operands) {
    ir::ValueId v = add(k, k == OpKind::Load ? uint8_t(8 * size) : 0, std::move(operands));
    loop.ops[v].memory = memory;
    loop.ops[v].size = size;
    return v;
  }
};

// for (i = 0; i < n; ++i) { x = a[i]; y = f(x, i) using every operation; c[i] = y; }
ir::Kernel everyOpKernel() {
  ir::Kernel k;
  k.name = "everyop";
  k.args = {{"a", true, ir::Type::none(), 0}, {"c", true, ir::Type::none(), 1}, {"n", false, ir::Type::bits(32), 0}};
  k.memories = {{ir::Memory::Kind::Argument, "a", 0}, {ir::Memory::Kind::Argument, "c", 1}};
  // CFG: entry (n, i0) -> loop block -> exit.
  auto kop = [&](OpKind kind, uint8_t w, uint32_t block, std::vector<ir::ValueId> ops, uint64_t imm = 0) {
    ir::Op op;
    op.kind = kind;
    op.type = ir::Type::bits(w);
    op.block = block;
    op.operands = std::move(ops);
    op.imm = imm;
    k.ops.push_back(op);
    return ir::ValueId(k.ops.size() - 1);
  };
  ir::ValueId n = kop(OpKind::Arg, 32, 0, {});
  k.ops[n].index = 2;
  ir::ValueId zero = kop(OpKind::Const, 32, 0, {}, 0);
  ir::ValueId call = kop(OpKind::LoopCall, 0, 1, {n, zero});
  ir::ValueId out = kop(OpKind::LoopOut, 32, 1, {call});
  k.ops[out].index = 0;
  ir::ValueId outStore = kop(OpKind::Store, 0, 2, {zero, out});
  k.ops[outStore].memory = 1;
  k.ops[outStore].size = 4;
  k.ops[outStore].operands = {kop(OpKind::Const, 64, 2, {}, 0), out, ir::kNone};
  k.blocks.resize(3);
  k.blocks[0].name = "entry";
  k.blocks[0].ops = {n, zero};
  k.blocks[0].term.kind = ir::Terminator::Kind::Branch;
  k.blocks[0].term.targets = {1};
  k.blocks[1].name = "loop";
  k.blocks[1].ops = {call, out};
  k.blocks[1].loopCall = 0;
  k.blocks[1].term.kind = ir::Terminator::Kind::Branch;
  k.blocks[1].term.targets = {2};
  k.blocks[2].name = "exit";
  k.blocks[2].ops = {k.ops[outStore].operands[0], outStore};
  k.blocks[2].term.kind = ir::Terminator::Kind::Return;

  LoopBuilder b;
  ir::ValueId nIn = b.add(OpKind::LiveIn, 32, {});
  b.loop.ops[nIn].index = 0;
  ir::ValueId i = b.add(OpKind::LoopPhi, 32, {});
  b.loop.ops[i].index = 0;
  ir::ValueId acc = b.add(OpKind::LoopPhi, 32, {});
  b.loop.ops[acc].index = 1;
  ir::ValueId cont = b.add(OpKind::SLt, 1, {i, nIn});
  ir::ValueId i64 = b.add(OpKind::SExt, 64, {i});
  ir::ValueId two = b.add(OpKind::Const, 64, {}, 2);
  ir::ValueId off = b.add(OpKind::Shl, 64, {i64, two});
  ir::ValueId x = b.mem(OpKind::Load, 0, 4, {off, cont});
  ir::ValueId y = x;
  std::vector<OpKind> binops = {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::UDiv, OpKind::SDiv, OpKind::URem,
                                OpKind::SRem, OpKind::SMod, OpKind::And, OpKind::Or, OpKind::Xor, OpKind::Shl,
                                OpKind::LShr, OpKind::AShr};
  for (OpKind op : binops) y = b.add(op, 32, {y, i});
  y = b.add(OpKind::Not, 32, {y});
  y = b.add(OpKind::Neg, 32, {y});
  std::vector<OpKind> cmps = {OpKind::Eq, OpKind::Ne, OpKind::ULt, OpKind::ULe, OpKind::UGt,
                              OpKind::UGe, OpKind::SLt, OpKind::SLe, OpKind::SGt, OpKind::SGe};
  for (OpKind op : cmps) {
    ir::ValueId c = b.add(op, 1, {y, i});
    y = b.add(OpKind::Select, 32, {c, y, i});
  }
  ir::ValueId narrow = b.add(OpKind::Trunc, 8, {y});
  ir::ValueId wide = b.add(OpKind::ZExt, 64, {narrow});
  ir::ValueId back = b.add(OpKind::Trunc, 32, {wide});
  ir::ValueId sx = b.add(OpKind::SExt, 32, {narrow});
  y = b.add(OpKind::Add, 32, {back, sx});
  b.mem(OpKind::Store, 1, 4, {off, y, cont});
  ir::ValueId one = b.add(OpKind::Const, 32, {}, 1);
  ir::ValueId inext = b.add(OpKind::Add, 32, {i, one});
  ir::ValueId accNext = b.add(OpKind::Select, 32, {cont, b.add(OpKind::Add, 32, {acc, y}), acc});
  b.loop.phis = {{"i", 1, inext, ir::Type::bits(32)}, {"acc", 1, accNext, ir::Type::bits(32)}};
  b.loop.liveIns = {n, zero};
  b.loop.continueCond = cont;
  b.loop.liveOuts = {acc};
  b.loop.name = "loop";
  k.loops.push_back(b.loop);
  return k;
}

std::string tempDir(const std::string& name) {
  fs::path d = fs::path(SPVHLS_BINARY_DIR) / "test_rtlgen" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

// Runs a command, returns its exit code; output into `log`.
int runCommand(const std::string& cmd, const std::string& log) {
  return std::system((cmd + " > " + log + " 2>&1").c_str());
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

// Every generated file is free of what Verilator rejects or what the generator must never write:
// overlong lines and part-selects of literals.
void checkText(const rtl::RtlResult& r) {
  for (auto& [name, text] : r.files) {
    CAPTURE(name);
    std::vector<std::string> problems = rtl::verilogTextProblems(text);
    INFO((problems.empty() ? "" : problems[0]));
    CHECK(problems.empty());
  }
}

// Schedules `k` with every loop in `mode`, generates Verilog, checks its text and lints it.
rtl::RtlResult generateAndLint(const ir::Kernel& k, rtl::ClusterMode mode, const std::string& dirName) {
  rtl::ClusterChoice choice = rtl::chooseClusterKinds(k, mode, "--cluster");
  sched::ScheduleOptions so;
  so.exitBeforeMemory = rtl::exitBeforeMemory(choice.loops);
  sched::KernelSchedule s = sched::scheduleKernel(k, so);
  rtl::RtlResult r = rtl::generateVerilog(k, s, rtl::planKernel(k, s, sched::OperatorLibrary(so.target), choice.loops));
  checkText(r);
  std::string dir = tempDir(dirName);
  std::string files;
  for (auto& [name, text] : r.files) {
    std::ofstream(dir + "/" + name) << text;
    files += " " + dir + "/" + name;
  }
  std::string log = dir + "/lint.log";
  int rc = runCommand("verilator --lint-only -Wall --top-module " + r.moduleName + files, log);
  INFO(slurp(log));
  CHECK(rc == 0);
  CHECK(slurp(log).empty());
  return r;
}

size_t longestLine(const rtl::RtlResult& r) {
  size_t n = 0;
  for (auto& [name, text] : r.files) {
    size_t b = 0;
    for (size_t e; (e = text.find('\n', b)) != std::string::npos; b = e + 1) n = std::max(n, e - b);
  }
  return n;
}

// everyOpKernel's loop with `n` more loads of a and stores to c: hundreds of stall sources, request
// valids and mux arms per port.
ir::Kernel manyMemoryOpsKernel(unsigned n) {
  ir::Kernel k = everyOpKernel();
  LoopBuilder b;
  b.loop = k.loops[0];
  ir::ValueId off = ir::kNone, i = ir::kNone, cont = b.loop.continueCond;
  for (ir::ValueId v = 0; v < b.loop.ops.size(); ++v) {
    if (b.loop.ops[v].kind == OpKind::Shl && b.loop.ops[v].width() == 64) off = v;
    if (b.loop.ops[v].kind == OpKind::LoopPhi && b.loop.ops[v].index == 0) i = v;
  }
  for (unsigned j = 1; j <= n; ++j) {
    ir::ValueId addr = b.add(OpKind::Add, 64, {off, b.add(OpKind::Const, 64, {}, 4 * j)});
    ir::ValueId x = b.mem(OpKind::Load, 0, 4, {addr, cont});
    b.mem(OpKind::Store, 1, 4, {addr, b.add(OpKind::Add, 32, {x, i}), cont});
  }
  k.loops[0] = b.loop;
  return k;
}

} // namespace

TEST_CASE("verilogTextProblems finds overlong lines and part-selects of literals") {
  CHECK(rtl::verilogTextProblems("  assign c = x[15:0];\n  assign d = 16'h32d4;\n").empty());
  CHECK(rtl::verilogTextProblems("  assign c28 = 32'h32d4[15:0];\n").size() == 1);
  CHECK(rtl::verilogTextProblems("  assign c = 8'd12 [3];\n  assign d = 4'b1010[0];\n").size() == 2);
  CHECK(rtl::verilogTextProblems("  assign c = " + std::string(rtl::kMaxLineChars, 'x') + ";\n").size() == 1);
}

namespace {
// An IR operation over netlist operands, printed: "W'hX" for literals "W'hX", names otherwise.
std::string opText(OpKind k, uint32_t width, const std::vector<std::pair<std::string, unsigned>>& operands) {
  ir::Op o;
  o.kind = k;
  o.type = ir::Type::bits(width);
  std::vector<rtl::nl::ExprP> a;
  for (const auto& [text, w] : operands) {
    size_t q = text.find("'h");
    a.push_back(q == std::string::npos ? rtl::nl::ref(text, w) : rtl::nl::lit(std::stoull(text.substr(q + 2), nullptr, 16), w));
  }
  return rtl::printExpression(rtl::nl::Module{}, rtl::opExpr(o, a));
}
} // namespace

TEST_CASE("operations over literals are printed as literals of the result width") {
  // The reproducer of issue 9: a truncation of a constant was a part-select of a literal.
  CHECK(opText(OpKind::Trunc, 16, {{"32'h32d4", 32}}) == "16'h32d4");
  CHECK(opText(OpKind::Trunc, 8, {{"32'h1234", 32}}) == "8'h34");
  CHECK(opText(OpKind::SExt, 32, {{"8'h80", 8}}) == "32'hffffff80");
  CHECK(opText(OpKind::ZExt, 32, {{"8'h80", 8}}) == "32'h80");
  CHECK(opText(OpKind::Add, 8, {{"8'hff", 8}, {"8'h2", 8}}) == "8'h1");
  CHECK(opText(OpKind::SLt, 1, {{"8'hff", 8}, {"8'h0", 8}}) == "1'h1");
  CHECK(opText(OpKind::AShr, 8, {{"8'h80", 8}, {"8'h9", 8}}) == "8'hc0"); // amount modulo the width
  // Where the IR leaves the result undefined, the literal is what the hardware expression gives.
  CHECK(opText(OpKind::UDiv, 32, {{"32'h7", 32}, {"32'h0", 32}}) == "32'h0");
  CHECK(opText(OpKind::SDiv, 32, {{"32'h80000000", 32}, {"32'hffffffff", 32}}) == "32'h80000000");
  CHECK(opText(OpKind::SRem, 32, {{"32'h80000000", 32}, {"32'hffffffff", 32}}) == "32'h0");
  // A literal condition selects; a literal shift amount is reduced, never part-selected.
  CHECK(opText(OpKind::Select, 32, {{"1'h1", 1}, {"c3", 32}, {"c4", 32}}) == "c3");
  CHECK(opText(OpKind::Select, 32, {{"1'h0", 1}, {"c3", 32}, {"c4", 32}}) == "c4");
  CHECK(opText(OpKind::Shl, 32, {{"c3", 32}, {"64'h21", 64}}) == "c3 << 5'h1");
  CHECK(opText(OpKind::Shl, 32, {{"c3", 32}, {"c4", 64}}) == "c3 << c4[4:0]");
  CHECK(opText(OpKind::Trunc, 16, {{"c3", 32}}) == "c3[15:0]");
  CHECK(opText(OpKind::SExt, 32, {{"c3", 8}}) == "{{24{c3[7]}}, c3}");
  CHECK(opText(OpKind::SLt, 1, {{"c3", 8}, {"c4", 8}}) == "$signed(c3) < $signed(c4)");
  CHECK(rtl::printExpression({}, rtl::nl::resize(rtl::nl::lit(0x12345, 32), 16)) == "16'h2345");
  CHECK(rtl::printExpression({}, rtl::nl::resize(rtl::nl::lit(0x12345, 32), 64)) == "64'h12345");
  CHECK(rtl::printExpression({}, rtl::nl::resize(rtl::nl::ref("x", 8), 12)) == "{4'h0, x}");
  // A part-select of an expression needs a name first: the printer makes one, and tells lint that
  // only some of its bits are read.
  std::string sel = rtl::printExpression({}, rtl::nl::slice(rtl::nl::add(rtl::nl::ref("a", 8), rtl::nl::ref("b", 8)), 3, 0));
  CHECK(sel == "  /* verilator lint_off UNUSEDSIGNAL */\n  wire [7:0] red_0 = a + b;\n  /* verilator lint_on "
               "UNUSEDSIGNAL */\nred_0[3:0]");
}

TEST_CASE("unsigned comparisons fixed by the operand range are literals (Verilator CMPCONST/UNSIGNED)") {
  CHECK(opText(OpKind::ULt, 1, {{"c3", 32}, {"32'h0", 32}}) == "1'h0");
  CHECK(opText(OpKind::UGe, 1, {{"c3", 32}, {"32'h0", 32}}) == "1'h1");
  CHECK(opText(OpKind::ULt, 1, {{"32'hffffffff", 32}, {"c3", 32}}) == "1'h0");
  CHECK(opText(OpKind::ULe, 1, {{"c3", 32}, {"32'hffffffff", 32}}) == "1'h1");
  CHECK(opText(OpKind::UGt, 1, {{"8'h0", 8}, {"c3", 8}}) == "1'h0");
  CHECK(opText(OpKind::ULt, 1, {{"c3", 32}, {"32'h1", 32}}) == "c3 < 32'h1"); // not at a bound
}

TEST_CASE("a loop truncating and extending constants lints clean") {
  ir::Kernel k = everyOpKernel();
  LoopBuilder b;
  b.loop = k.loops[0];
  ir::ValueId off = ir::kNone;
  for (ir::ValueId v = 0; v < b.loop.ops.size(); ++v)
    if (b.loop.ops[v].kind == OpKind::Shl && b.loop.ops[v].width() == 64) off = v;
  ir::ValueId t = b.add(OpKind::Trunc, 16, {b.add(OpKind::Const, 32, {}, 0x32d4)});
  ir::ValueId x = b.add(OpKind::SExt, 32, {t});
  ir::ValueId sel = b.add(OpKind::Select, 32, {b.add(OpKind::Const, 1, {}, 1), x, x});
  b.mem(OpKind::Store, 1, 4, {off, sel, b.loop.continueCond});
  k.loops[0] = b.loop;
  ir::buildStructure(k);
  ir::verifyKernel(k);
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallEnable, rtl::ClusterMode::StallFree}) {
    CAPTURE(rtl::clusterModeName(mode));
    rtl::RtlResult r = generateAndLint(k, mode, fmt::format("consts_{}", rtl::clusterModeName(mode)));
    CHECK(r.files[1].second.find(fmt::format("assign c{} = 16'h32d4;", t)) != std::string::npos);
  }
}

TEST_CASE("lines stay bounded with hundreds of stall sources and requests") {
  // The FSM: one block of 400 stores; its stall OR, request valid OR and address/data muxes.
  ir::Kernel k;
  k.name = "stores";
  k.args = {{"r", true, ir::Type::none(), 0}};
  k.memories.resize(1);
  k.memories[0].name = "r";
  k.blocks.resize(1);
  k.blocks[0].name = "entry";
  k.blocks[0].term.kind = ir::Terminator::Kind::Return;
  auto kop = [&](OpKind kind, uint8_t w, std::vector<ir::ValueId> ops, uint64_t imm = 0) {
    ir::Op op;
    op.kind = kind;
    op.type = ir::Type::bits(w);
    op.operands = std::move(ops);
    op.imm = imm;
    k.ops.push_back(op);
    k.blocks[0].ops.push_back(ir::ValueId(k.ops.size() - 1));
    return ir::ValueId(k.ops.size() - 1);
  };
  for (unsigned j = 0; j < 400; ++j) {
    ir::ValueId addr = kop(OpKind::Const, 64, {}, 4 * (j % 64));
    ir::ValueId st = kop(OpKind::Store, 0, {addr, kop(OpKind::Const, 32, {}, j), ir::kNone});
    k.ops[st].size = 4;
  }
  ir::buildStructure(k);
  ir::verifyKernel(k);
  rtl::RtlResult fsm = generateAndLint(k, rtl::ClusterMode::Auto, "many_stores");
  CHECK(longestLine(fsm) <= rtl::kMaxLineChars);
  CHECK(fsm.files[0].second.find("wire red_") != std::string::npos); // the reductions became trees

  // A pipelined loop with 60 loads and 60 stores more: its enable, admissions, FIFO inputs and muxes.
  ir::Kernel lk = manyMemoryOpsKernel(60);
  ir::buildStructure(lk);
  ir::verifyKernel(lk);
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallEnable, rtl::ClusterMode::StallFree}) {
    CAPTURE(rtl::clusterModeName(mode));
    rtl::RtlResult r = generateAndLint(lk, mode, fmt::format("many_mem_{}", rtl::clusterModeName(mode)));
    CHECK(r.loops[0].kind == mode);
    CHECK(longestLine(r) <= rtl::kMaxLineChars);
    CHECK(r.files[1].second.find("wire red_") != std::string::npos);
  }
}

TEST_CASE("printer: short lists inline, long ones as trees of bounded wires") {
  namespace nl = rtl::nl;
  CHECK(rtl::printExpression({}, nl::ref("a", 1) | nl::ref("b", 1)) == "a | b");
  CHECK(rtl::printExpression({}, nl::all({}, 4)) == "4'hf");
  CHECK(rtl::printExpression({}, nl::priorityMux({{nl::ref("c0", 1), nl::ref("x", 8)}, {nl::ref("c1", 1), nl::ref("y", 8)}},
                                                 nl::lit(0, 8))) == "c0 ? x : c1 ? y : 8'h0");
  CHECK(rtl::printExpression({}, nl::concat({nl::ref("a", 1), nl::ref("b", 3)})) == "{a, b}");
  std::vector<nl::ExprP> terms, parts;
  std::vector<std::pair<nl::ExprP, nl::ExprP>> arms;
  for (int i = 0; i < 1000; ++i) {
    terms.push_back(nl::eq(nl::ref("blk", 10), nl::lit(uint64_t(i), 10)) & nl::eq(nl::ref("cyc", 4), nl::lit(1, 4)));
    arms.emplace_back(nl::ref(fmt::format("fire{}", i), 1), nl::lit(uint64_t(i), 64));
    parts.push_back(nl::ref(fmt::format("v{}_p3", i), 8));
  }
  for (const nl::ExprP& e : {nl::any(terms), nl::priorityMux(arms, nl::lit(0, 64)), nl::concat(parts)}) {
    std::string text = rtl::printExpression({}, e);
    CHECK(rtl::verilogTextProblems(text).empty());
    std::string last = text.substr(text.rfind('\n') + 1);
    CHECK(last.size() <= rtl::kMaxExprChars + 100);
    CHECK(text.find(" red_0 = ") != std::string::npos);
    if (e->op == nl::Op::Concat) {
      // At most 16 parts of 8 bits per wire; the top level is the result itself, not a wire.
      CHECK(text.find("wire [7999:0]") == std::string::npos);
      CHECK(text.find("wire [127:0] red_") != std::string::npos);
    }
  }
}

TEST_CASE("every operation kind lints clean in both cluster kinds") {
  ir::Kernel k = everyOpKernel();
  ir::buildStructure(k);
  ir::verifyKernel(k);
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallEnable, rtl::ClusterMode::StallFree}) {
    CAPTURE(rtl::clusterModeName(mode));
    std::string reason;
    rtl::ClusterMode kind = rtl::chooseClusterKind(k.loops[0], mode, reason);
    CHECK(kind == mode);
    sched::ScheduleOptions so;
    so.exitBeforeMemory = {kind == rtl::ClusterMode::StallFree};
    sched::KernelSchedule s = sched::scheduleKernel(k, so);
    rtl::KernelPlan plan = rtl::planKernel(k, s, sched::OperatorLibrary(so.target), {{kind, reason}});
    rtl::RtlResult r = rtl::generateVerilog(k, s, plan);
    // The top, the loop, and one module per operator unit the plan instances.
    std::set<std::string> units;
    for (const std::string& u : plan.loops[0].unitModule)
      if (!u.empty()) units.insert(u);
    for (const std::string& u : plan.fsm.unitModule)
      if (!u.empty()) units.insert(u);
    if (kind == rtl::ClusterMode::StallEnable) CHECK(units.size() == 6); // every divider kind, the multiplier
    REQUIRE(r.files.size() == 2 + units.size());
    checkText(r);
    CHECK(r.loops[0].kind == kind);
    if (kind == rtl::ClusterMode::StallFree) CHECK(r.loops[0].clusters.size() >= 3); // load req, load resp, store
    else CHECK(r.loops[0].clusters.size() == 1);
    std::string dir = tempDir(rtl::clusterModeName(mode));
    std::string files;
    for (auto& [name, text] : r.files) {
      std::ofstream(dir + "/" + name) << text;
      files += " " + dir + "/" + name;
    }
    std::string log = dir + "/lint.log";
    int rc = runCommand("verilator --lint-only -Wall --top-module everyop" + files, log);
    INFO(slurp(log));
    CHECK(rc == 0);
    CHECK(slurp(log).empty());
    rc = runCommand("yosys -q -p 'read_verilog" + files + "; hierarchy -top everyop; proc'", dir + "/yosys.log");
    INFO(slurp(dir + "/yosys.log"));
    CHECK(rc == 0);
  }
}

TEST_CASE("stall-free plan: cuts at memory positions, exit known before the first cut, FIFOs sized for II") {
  ir::Kernel k = everyOpKernel();
  sched::ScheduleOptions so;
  so.exitBeforeMemory = {true};
  sched::KernelSchedule s = sched::scheduleKernel(k, so);
  sched::OperatorLibrary lib(so.target);
  rtl::LoopPlan p = rtl::planLoop(k.loops[0], s.loops[0], lib, rtl::ClusterMode::StallFree, "test");
  REQUIRE(p.cuts.size() >= 2);
  CHECK(p.cuts[0] == 0);
  CHECK(p.cuts[1] > p.exitPos);
  for (size_t j = 0; j + 1 < p.cuts.size(); ++j) {
    uint64_t len = p.cuts[j + 1] - p.cuts[j];
    // A steady stream needs ceil((len + 1) / II) credits; the depth is one above that, or, where a
    // load's response ends the cluster, the memory latency more rounded up to a power of two.
    CHECK(p.exitFifoDepth[j] >= (len + 1 + p.ii - 1) / p.ii + 1);
    CHECK(p.exitFifoDepth[j] <= std::bit_ceil((len + 1 + so.target.memLatency + p.ii - 1) / p.ii + 1));
  }
  // Every load is captured memLatency after its request (without a clock period), at a cut.
  for (size_t i = 0; i < k.loops[0].ops.size(); ++i)
    if (k.loops[0].ops[i].kind == OpKind::Load) {
      CHECK(p.compPos[i] == p.start[i] + so.target.memLatency);
      CHECK(p.isCut(p.compPos[i]));
      CHECK(p.respFifoDepth[i] >= 2);
    }
}

TEST_CASE("auto cluster choice") {
  ir::Kernel k = everyOpKernel();
  std::string why;
  // Load of a, store of c: no recurrence through memory -> stall-free.
  CHECK(rtl::chooseClusterKind(k.loops[0], rtl::ClusterMode::Auto, why) == rtl::ClusterMode::StallFree);
  // Make the store go to memory a, at the load's address a[i]: no iteration meets another's -> stall-free.
  ir::ValueId store = 0;
  for (ir::ValueId v = 0; v < k.loops[0].ops.size(); ++v)
    if (k.loops[0].ops[v].kind == OpKind::Store) k.loops[0].ops[v].memory = 0, store = v;
  CHECK(rtl::chooseClusterKind(k.loops[0], rtl::ClusterMode::Auto, why) == rtl::ClusterMode::StallFree);
  CHECK(why.find("shown by their addresses never to meet across iterations") != std::string::npos);
  // At an address computed from the loaded data (any iteration may meet): a recurrence -> stall-enable.
  for (ir::ValueId v = 0; v < store; ++v)
    if (k.loops[0].ops[v].kind == OpKind::ZExt && k.loops[0].ops[v].width() == 64)
      k.loops[0].ops[store].operands[0] = v;
  CHECK(rtl::chooseClusterKind(k.loops[0], rtl::ClusterMode::Auto, why) == rtl::ClusterMode::StallEnable);
  CHECK(why.find("memory recurrence") != std::string::npos);
  // ...unless DependencyArray says there is none.
  k.loops[0].controls.memoryDependenceDistance = {{0, 0}};
  CHECK(rtl::chooseClusterKind(k.loops[0], rtl::ClusterMode::Auto, why) == rtl::ClusterMode::StallFree);
  // An exit condition that depends on a load forces stall-enable even when stall-free is requested.
  ir::Loop& l = k.loops[0];
  ir::ValueId load = 0;
  for (ir::ValueId v = 0; v < l.ops.size(); ++v)
    if (l.ops[v].kind == OpKind::Load) load = v;
  ir::Op ne;
  ne.kind = OpKind::Ne;
  ne.type = ir::Type::bits(1);
  ne.operands = {load, load};
  l.ops.push_back(ne);
  l.continueCond = ir::ValueId(l.ops.size() - 1);
  CHECK(rtl::chooseClusterKind(l, rtl::ClusterMode::StallFree, why) == rtl::ClusterMode::StallEnable);
  CHECK(why.find("not possible") != std::string::npos);
}
