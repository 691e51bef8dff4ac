// Verilog generation: every operation kind at several widths, in both cluster kinds, must produce
// Verilog that `verilator --lint-only -Wall` accepts without a single warning and that yosys reads.
// The functional checks (RTL vs interpreter) are the end-to-end tests; these pin the generator's
// structure on hand-built IR.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "rtlgen/loop_plan.h"
#include "rtlgen/rtlgen.h"
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
    op.width = width;
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
  k.args = {{"a", true, 0, 0}, {"c", true, 0, 1}, {"n", false, 32, 0}};
  k.memories = {{ir::Memory::Kind::Global, "a", 0}, {ir::Memory::Kind::Global, "c", 1}};
  // CFG: entry (n, i0) -> loop block -> exit.
  auto kop = [&](OpKind kind, uint8_t w, uint32_t block, std::vector<ir::ValueId> ops, uint64_t imm = 0) {
    ir::Op op;
    op.kind = kind;
    op.width = w;
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
  b.loop.phis = {{"i", 1, inext, 32}, {"acc", 1, accNext, 32}};
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

} // namespace

TEST_CASE("every operation kind lints clean in both cluster kinds") {
  ir::Kernel k = everyOpKernel();
  ir::verifyKernel(k);
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallEnable, rtl::ClusterMode::StallFree}) {
    CAPTURE(rtl::clusterModeName(mode));
    std::string reason;
    rtl::ClusterMode kind = rtl::chooseClusterKind(k.loops[0], mode, reason);
    CHECK(kind == mode);
    sched::ScheduleOptions so;
    so.exitBeforeMemory = {kind == rtl::ClusterMode::StallFree};
    sched::KernelSchedule s = sched::scheduleKernel(k, so);
    rtl::RtlOptions ro;
    ro.loopKinds = {kind};
    ro.loopKindReasons = {reason};
    rtl::RtlResult r = rtl::generateVerilog(k, s, ro);
    REQUIRE(r.files.size() == 2);
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
    // A steady stream needs ceil((len + 1) / II) credits; the depth is a power of two above that.
    CHECK(p.exitFifoDepth[j] >= (len + 1 + p.ii - 1) / p.ii + 1);
    CHECK((p.exitFifoDepth[j] & (p.exitFifoDepth[j] - 1)) == 0);
  }
  // Every load is captured memLatency after its request, at a cut.
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
  // Make the store go to memory a: a load/store recurrence -> stall-enable.
  for (auto& op : k.loops[0].ops)
    if (op.kind == OpKind::Store) op.memory = 0;
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
  ne.width = 1;
  ne.operands = {load, load};
  l.ops.push_back(ne);
  l.continueCond = ir::ValueId(l.ops.size() - 1);
  CHECK(rtl::chooseClusterKind(l, rtl::ClusterMode::StallFree, why) == rtl::ClusterMode::StallEnable);
  CHECK(why.find("not possible") != std::string::npos);
}
