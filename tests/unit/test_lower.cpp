// Lowering (SPIR-V -> HLS IR): the structure of the IR for real clang-15 -O0 output and for
// hand-written loop controls, its meaning (the IR evaluator against the golden SPIR-V interpreter and
// against plain C++ on the same inputs), and the errors users can cause. Fixtures and the .cl sources
// they come from are in tests/unit/data/lower/ (regen.sh rebuilds the .spv files).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>

#include "frontend/module.h"
#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "lower_test_util.h"
#include "sim/interp.h"

using namespace spvhls;
using ir::kNone;
using ir::OpKind;

using namespace lower_test;

namespace {} // namespace

TEST_CASE("kernelNames lists the Kernel entry points in module order") {
  Loaded l = loadFile("misc.spv");
  CHECK(ir::kernelNames(*l.view) == std::vector<std::string>{"localarr", "structs", "builtins"});
}

TEST_CASE("vadd: one pipelined loop with a LoopPhi, predicated accesses and a continue condition") {
  Loaded l = loadFile("vadd.spv");
  ir::Kernel k = lower(l, "vadd");
  CHECK(k.name == "vadd");
  REQUIRE(k.args.size() == 4);
  for (uint32_t i = 0; i < 3; ++i) {
    CHECK(k.args[i].isPointer);
    const ir::Memory& m = k.memories.at(k.args[i].memory);
    CHECK(m.kind == ir::Memory::Kind::Argument);
    CHECK(m.argIndex == i);
    CHECK(m.name == k.args[i].name);
  }
  CHECK(k.args[0].name == "a");
  CHECK(k.args[2].name == "c");
  CHECK_FALSE(k.args[3].isPointer);
  CHECK(k.args[3].width() == 32);
  CHECK(k.memories.size() == 3);

  // The kernel CFG only calls the loop: no memory access is left outside it.
  CHECK(countKind(k.ops, OpKind::Load) == 0);
  CHECK(countKind(k.ops, OpKind::Store) == 0);
  REQUIRE(countKind(k.ops, OpKind::LoopCall) == 1);
  const ir::Op& call = k.ops[opsOf(k.ops, OpKind::LoopCall)[0]];
  CHECK(k.blocks[call.block].loopCall == 0u);

  REQUIRE(k.loops.size() == 1);
  const ir::Loop& lp = k.loops[0];
  CHECK(lp.name == "for.cond");
  CHECK(lp.depth == 1);
  CHECK(lp.liveOuts.empty());
  REQUIRE(lp.phis.size() == 1);
  CHECK(lp.phis[0].name == "i");
  CHECK(lp.phis[0].width() == 32);
  CHECK(isConst(k.ops, lp.liveIns.at(lp.phis[0].initLiveIn), 0)); // i = 0
  const ir::Op& next = lp.ops.at(lp.phis[0].next);                // i + 1
  CHECK(next.kind == OpKind::Add);
  CHECK(lp.ops[next.operands[0]].kind == OpKind::LoopPhi);
  CHECK(isConst(lp.ops, next.operands[1], 1));

  // continueCond is i < n; every access is guarded by it (the last iteration only tests it).
  const ir::Op& cont = lp.ops.at(lp.continueCond);
  CHECK(cont.kind == OpKind::SLt);
  CHECK(lp.ops[cont.operands[0]].kind == OpKind::LoopPhi);
  CHECK(lp.ops[cont.operands[1]].kind == OpKind::LiveIn);
  CHECK(k.ops[lp.liveIns[lp.ops[cont.operands[1]].index]].kind == OpKind::Arg);
  auto loads = opsOf(lp.ops, OpKind::Load);
  auto stores = opsOf(lp.ops, OpKind::Store);
  REQUIRE(loads.size() == 2);
  REQUIRE(stores.size() == 1);
  CHECK(lp.ops[loads[0]].memory == k.args[0].memory);
  CHECK(lp.ops[loads[1]].memory == k.args[1].memory);
  CHECK(lp.ops[stores[0]].memory == k.args[2].memory);
  for (ir::ValueId v : loads) {
    CHECK(lp.ops[v].operands[1] == lp.continueCond);
    CHECK(lp.ops[v].size == 4);
  }
  CHECK(lp.ops[stores[0]].operands[2] == lp.continueCond);
  // Byte offset: sext(i) << 2, shared by the three accesses, as wires (the datapath optimisations):
  // two zero bits below i sign-extended to 62 bits.
  const ir::Op& off = lp.ops[lp.ops[stores[0]].operands[0]];
  REQUIRE(off.kind == OpKind::Concat);
  CHECK(isConst(lp.ops, off.operands[0], 0));
  CHECK(lp.ops[off.operands[0]].width() == 2);
  const ir::Op& low = lp.ops[off.operands[1]];
  CHECK(low.kind == OpKind::SExt);
  CHECK(low.width() == 62);
  CHECK(lp.ops[low.operands[0]].kind == OpKind::LoopPhi);
  CHECK(lp.ops[loads[0]].operands[0] == lp.ops[stores[0]].operands[0]);
}

TEST_CASE("vadd: the IR computes what the SPIR-V computes") {
  Loaded l = loadFile("vadd.spv");
  ir::Kernel k = lower(l, "vadd");
  const int n = 37;
  auto a = pseudoRandom(n, 1, -1000, 1000), b = pseudoRandom(n, 2, -1000, 1000);
  ir::EvalResult r = runBoth(l, k, {ints("a", a), ints("b", b), ints("c", std::vector<int32_t>(n + 3, 7)), scalar("n", n)});
  auto c = intsOf(r.buffers[2]);
  for (int i = 0; i < n; ++i) CHECK(c[i] == a[i] + b[i]);
  CHECK(c[n] == 7); // untouched past n
  CHECK(r.loopIterations[0] == n + 1); // trip count + the final test
  // n = 0: the loop runs its single test iteration and stores nothing.
  runBoth(l, k, {ints("a", {}), ints("b", {}), ints("c", {5}), scalar("n", 0)});
}

TEST_CASE("dot: the sum leaves the loop as a live-out") {
  Loaded l = loadFile("dot.spv");
  ir::Kernel k = lower(l, "dot");
  REQUIRE(k.loops.size() == 1);
  const ir::Loop& lp = k.loops[0];
  REQUIRE(lp.phis.size() == 2);
  REQUIRE(lp.liveOuts.size() == 1);
  const ir::Op& out = lp.ops[lp.liveOuts[0]];
  CHECK(out.kind == OpKind::LoopPhi); // the sum as of the last (exiting) iteration
  CHECK(lp.phis[out.index].name == "sum");
  const ir::Op& next = lp.ops[lp.phis[out.index].next];
  CHECK(next.kind == OpKind::Add);
  CHECK(lp.ops[next.operands[1]].kind == OpKind::Mul);

  // In the CFG, the LoopOut feeds the store after the loop.
  auto outs = opsOf(k.ops, OpKind::LoopOut);
  REQUIRE(outs.size() == 1);
  auto stores = opsOf(k.ops, OpKind::Store);
  REQUIRE(stores.size() == 1);
  CHECK(k.ops[stores[0]].operands[1] == outs[0]);
  CHECK(k.ops[stores[0]].operands[2] == kNone); // the block always executes
  CHECK(k.ops[stores[0]].block != k.ops[outs[0]].block);

  auto a = pseudoRandom(20, 3, -50, 50), b = pseudoRandom(20, 4, -50, 50);
  ir::EvalResult r = runBoth(l, k, {ints("a", a), ints("b", b), ints("out", {0}), scalar("n", 20)});
  int32_t expect = 0;
  for (int i = 0; i < 20; ++i) expect += a[i] * b[i];
  CHECK(intsOf(r.buffers[2])[0] == expect);
}

TEST_CASE("if/else in a loop: stores under complementary predicates and a select") {
  Loaded l = loadFile("ifelse.spv");
  ir::Kernel k = lower(l, "ifelse");
  REQUIRE(k.loops.size() == 1);
  const ir::Loop& lp = k.loops[0];
  auto stores = opsOf(lp.ops, OpKind::Store);
  REQUIRE(stores.size() == 2);
  const ir::Op* pos = nullptr;
  const ir::Op* neg = nullptr;
  for (ir::ValueId s : stores) (k.memories[lp.ops[s].memory].name == "pos" ? pos : neg) = &lp.ops[s];
  REQUIRE(pos);
  REQUIRE(neg);
  // pos: i < n && v > 0; neg: i < n && !(v > 0).
  const ir::Op& pp = lp.ops.at(pos->operands[2]);
  const ir::Op& np = lp.ops.at(neg->operands[2]);
  REQUIRE(pp.kind == OpKind::And);
  REQUIRE(np.kind == OpKind::And);
  CHECK(pp.operands[0] == lp.continueCond);
  CHECK(np.operands[0] == lp.continueCond);
  CHECK(lp.ops[pp.operands[1]].kind == OpKind::SGt);
  CHECK(lp.ops[np.operands[1]].kind == OpKind::Not);
  CHECK(lp.ops[np.operands[1]].operands[0] == pp.operands[1]);
  // w = phi(v + 1, v * 2) became a select on one arm's predicate.
  auto selects = opsOf(lp.ops, OpKind::Select);
  REQUIRE(selects.size() == 1);
  const ir::ValueId sc = lp.ops[selects[0]].operands[0];
  CHECK((sc == pos->operands[2] || sc == neg->operands[2]));

  auto a = pseudoRandom(16, 5, -9, 9);
  ir::EvalResult r = runBoth(l, k, {ints("a", a), ints("pos", std::vector<int32_t>(17, 0)),
                                    ints("neg", std::vector<int32_t>(16, 0)), scalar("n", 16)});
  auto p = intsOf(r.buffers[1]), ng = intsOf(r.buffers[2]);
  int32_t count = 0;
  for (int i = 0; i < 16; ++i) {
    if (a[i] > 0) CHECK(p[i] == a[i]);
    else CHECK(ng[i] == -a[i]);
    count += a[i] > 0 ? a[i] + 1 : a[i] * 2;
  }
  CHECK(p[16] == count);
}

TEST_CASE("calls are inlined and variables reached through pointers are promoted") {
  Loaded l = loadFile("calls.spv");
  ir::Kernel k = lower(l, "calls");
  // `count`, updated through a generic pointer in bump(), became a loop phi: no local memory.
  CHECK(k.memories.size() == 2);
  REQUIRE(k.loops.size() == 1);
  const ir::Loop& lp = k.loops[0];
  CHECK(countKind(lp.ops, OpKind::Load) == 1);
  CHECK(countKind(lp.ops, OpKind::Store) == 1);
  // count and i both start at 0 and step by 1: one carried value (ir/lower_gvn.cpp).
  CHECK(lp.phis.size() == 1);
  CHECK(k.datapath.mergedValues >= 2);
  CHECK(lp.liveOuts.size() == 1);
  // scale(): x * 3 + 1, the product (x << 2) - x (the datapath optimisations): no multiplier.
  const ir::Op& stored = lp.ops[lp.ops[opsOf(lp.ops, OpKind::Store)[0]].operands[1]];
  CHECK(stored.kind == OpKind::Add);
  CHECK(lp.ops[stored.operands[0]].kind == OpKind::Sub);
  CHECK(countKind(lp.ops, OpKind::Mul) == 0);

  auto a = pseudoRandom(9, 6, -100, 100);
  ir::EvalResult r = runBoth(l, k, {ints("a", a), ints("c", std::vector<int32_t>(10, 0)), scalar("n", 9)});
  auto c = intsOf(r.buffers[1]);
  for (int i = 0; i < 9; ++i) CHECK(c[i] == a[i] * 3 + 1);
  CHECK(c[9] == 9);
}

TEST_CASE("switch: one predicated store per case target") {
  Loaded l = loadFile("switch.spv");
  ir::Kernel k = lower(l, "sw");
  REQUIRE(k.loops.size() == 1);
  const ir::Loop& lp = k.loops[0];
  auto stores = opsOf(lp.ops, OpKind::Store);
  REQUIRE(stores.size() == 3);
  std::vector<ir::ValueId> preds;
  for (ir::ValueId s : stores) {
    CHECK(lp.ops[s].operands[2] != kNone);
    preds.push_back(lp.ops[s].operands[2]);
  }
  std::sort(preds.begin(), preds.end());
  CHECK(std::unique(preds.begin(), preds.end()) == preds.end());
  CHECK(countKind(lp.ops, OpKind::Eq) == 3); // one per case value

  std::vector<int32_t> a{0, 3, 4, 9, -1, 0, 4, 2};
  ir::EvalResult r = runBoth(l, k, {ints("a", a), scalar("n", 8)});
  CHECK(intsOf(r.buffers[0]) == std::vector<int32_t>{5, 7, 7, 1, 1, 5, 7, 1});
}

TEST_CASE("loop nest: the inner loop is pipelined, the outer one stays in the CFG") {
  Loaded l = loadFile("nest.spv");
  ir::Kernel k = lower(l, "matvec");
  REQUIRE(k.loops.size() == 1);
  const ir::Loop& inner = k.loops[0];
  CHECK(inner.depth == 2);
  CHECK(inner.name == "for.cond1");
  CHECK(inner.liveOuts.size() == 1);
  // The outer header keeps its phi for r and says why it is not pipelined.
  const ir::BasicBlock* outer = nullptr;
  for (const auto& b : k.blocks)
    if (!b.notPipelinedReason.empty()) outer = &b;
  REQUIRE(outer);
  CHECK(outer->name == "for.cond");
  CHECK(outer->notPipelinedReason.find("innermost") != std::string::npos);
  CHECK(countKind(k.ops, OpKind::Phi) == 1);
  CHECK(countKind(k.ops, OpKind::Store) == 1); // y[r] = acc, in the outer loop

  const int rows = 5, cols = 7;
  auto m = pseudoRandom(rows * cols, 7, -20, 20), x = pseudoRandom(cols, 8, -20, 20);
  ir::EvalResult r = runBoth(l, k, {ints("m", m), ints("x", x), ints("y", std::vector<int32_t>(rows, 0)),
                                    scalar("rows", rows), scalar("cols", cols)});
  auto y = intsOf(r.buffers[2]);
  for (int i = 0; i < rows; ++i) {
    int32_t acc = 0;
    for (int j = 0; j < cols; ++j) acc += m[i * cols + j] * x[j];
    CHECK(y[i] == acc);
  }
  CHECK(r.loopIterations[0] == rows * (cols + 1));
}

TEST_CASE("loops with several exit edges") {
  Loaded l = loadFile("exits.spv");
  SUBCASE("break: one exit target, live-outs selected by the exit taken") {
    ir::Kernel k = lower(l, "brk");
    REQUIRE(k.loops.size() == 1);
    CHECK(k.loops[0].liveOuts.size() == 2);
    for (int stop : {3, -1}) {
      std::vector<int32_t> a{4, 5, 6, 7, 8, 9};
      if (stop >= 0) a[stop] = -2;
      ir::EvalResult r = runBoth(l, k, {ints("a", a), ints("out", {0, 0}), scalar("n", 6)});
      auto out = intsOf(r.buffers[1]);
      CHECK(out[1] == (stop >= 0 ? stop : 6));
    }
  }
  SUBCASE("do-while: the header is the whole body, and its accesses always execute") {
    ir::Kernel k = lower(l, "dowhile");
    REQUIRE(k.loops.size() == 1);
    for (ir::ValueId s : opsOf(k.loops[0].ops, OpKind::Store)) CHECK(k.loops[0].ops[s].operands[2] == kNone);
    runBoth(l, k, {ints("a", {1, 2, 3, 4}), scalar("n", 3)});
  }
  SUBCASE("early return: two exit targets, pipelined; the call block switches on the exit taken") {
    ir::Kernel k = lower(l, "early");
    REQUIRE(k.loops.size() == 1);
    bool switched = false;
    for (const auto& b : k.blocks)
      switched = switched ||
                 (b.loopCall && b.term.kind == ir::Terminator::Kind::Switch && b.term.targets.size() == 2);
    CHECK(switched);
    runBoth(l, k, {ints("a", {5, 10, 0, 20}), scalar("n", 4)});
    runBoth(l, k, {ints("a", {5, 10, 3, 20}), scalar("n", 4)});
    runBoth(l, k, {ints("a", {0, 10, 3, 20}), scalar("n", 4)});
    runBoth(l, k, {ints("a", {5, 10, 3, 20}), scalar("n", 0)});
  }
}

TEST_CASE("irreducible control flow stays in the CFG with a note") {
  Loaded l = loadFile("irreducible.spvasm");
  ir::Kernel k = lower(l, "irr");
  CHECK(k.loops.empty());
  REQUIRE(k.diagnostics.size() == 1);
  CHECK(k.diagnostics[0].severity == Diagnostic::Severity::Note);
  CHECK(k.diagnostics[0].message.find("irreducible") != std::string::npos);
  for (int64_t n : {0, 3, 4, 9, 12}) {
    ir::EvalResult r = runBoth(l, k, {ints("a", {0}), scalar("n", n)});
    // n >= 10 goes to B once; below, A and B alternate (+1, +2) until the sum reaches 10.
    int32_t v = static_cast<int32_t>(n);
    bool inA = n < 10;
    for (;;) {
      v += inA ? 1 : 2;
      if (v >= 10) break;
      inA = !inA;
    }
    CHECK(intsOf(r.buffers[0])[0] == v);
  }
}

TEST_CASE("local arrays, struct members and OpenCL.std built-ins") {
  Loaded l = loadFile("misc.spv");
  SUBCASE("a constant-initialised local array becomes initial memory contents") {
    ir::Kernel k = lower(l, "localarr");
    REQUIRE(k.memories.size() == 3);
    const ir::Memory& t = k.memories[1];
    CHECK(t.kind == ir::Memory::Kind::Private);
    CHECK(t.name == "t");
    CHECK(t.sizeBytes == 16);
    CHECK(t.init == bytesOf<int32_t>({1, 2, 3, 4}));
    CHECK(k.memories[2].name == "u");
    CHECK(k.memories[2].sizeBytes == 32);
    CHECK(k.memories[2].init.empty());
    CHECK(k.loops.size() == 2);
    CHECK(countKind(k.ops, OpKind::Store) == 0); // the copy from the constant was folded
    auto a = pseudoRandom(8, 9, 0, 100);
    ir::EvalResult r = runBoth(l, k, {ints("a", a)});
    auto out = intsOf(r.buffers[0]);
    for (int i = 0; i < 4; ++i) CHECK(out[i] == i + 1 + a[a[i] & 7]);
  }
  SUBCASE("struct members are at their OpenCL offsets") {
    ir::Kernel k = lower(l, "structs");
    REQUIRE(k.loops.size() == 1);
    const ir::Loop& lp = k.loops[0];
    std::vector<std::pair<uint8_t, uint8_t>> accesses; // (size, is store)
    for (const auto& op : lp.ops)
      if (op.kind == OpKind::Load || op.kind == OpKind::Store)
        accesses.push_back({op.size, op.kind == OpKind::Store});
    std::sort(accesses.begin(), accesses.end());
    CHECK(accesses == std::vector<std::pair<uint8_t, uint8_t>>{{1, 0}, {4, 0}, {8, 1}});
    // struct S { char c; int x; long y; } is 16 bytes: c at 0, x at 4, y at 8.
    std::vector<uint8_t> s(3 * 16, 0);
    for (int i = 0; i < 3; ++i) {
      s[16 * i] = static_cast<uint8_t>(-3 - i); // c
      int32_t x = 1000 * (i + 1);
      std::memcpy(&s[16 * i + 4], &x, 4);
    }
    ir::EvalResult r = runBoth(l, k, {buffer("s", s, sim::ElemType{"u8", 1, false, false}), scalar("n", 3)});
    for (int i = 0; i < 3; ++i) {
      int64_t y;
      std::memcpy(&y, &r.buffers[0][16 * i + 8], 8);
      CHECK(y == 1000 * (i + 1) - 3 - i);
    }
  }
  SUBCASE("min, max and abs become compares and selects") {
    ir::Kernel k = lower(l, "builtins");
    REQUIRE(k.loops.size() == 1);
    CHECK(countKind(k.loops[0].ops, OpKind::Select) == 3);
    std::vector<int32_t> a{-7, 0, 3, 12, -2147483647, 2147483647, 1, -1};
    ir::EvalResult r = runBoth(l, k, {ints("a", a), scalar("n", 8)});
    auto out = intsOf(r.buffers[0]);
    for (size_t i = 0; i < a.size(); ++i) {
      uint32_t m = std::max(static_cast<uint32_t>(a[i]), 3u);
      int32_t expect = static_cast<int32_t>(static_cast<uint32_t>(std::min(a[i], 8)) +
                                            static_cast<uint32_t>(a[i] < 0 ? -a[i] : a[i]) + m);
      CHECK(out[i] == expect);
    }
  }
}

TEST_CASE("loop controls on OpLoopMerge in the header") {
  Loaded l = loadFile("controls_merge.spvasm");
  ir::Kernel k = lower(l, "vadd");
  REQUIRE(k.loops.size() == 1); // PipelineEnableINTEL 0 loops are extracted too
  const ir::Loop& lp = k.loops[0];
  const ir::LoopControls& c = lp.controls;
  CHECK(c.ii == 4u);
  CHECK(c.pipelineEnable == false);
  CHECK(c.maxConcurrency == 2u);
  CHECK(lp.tripCountHint == 100u);
  // a.addr and c.addr (promoted variables holding pointers a and c) resolve to memories a and c.
  auto dist = c.memoryDependenceDistance;
  std::sort(dist.begin(), dist.end());
  CHECK(dist == std::vector<std::pair<uint32_t, uint32_t>>{{k.args[0].memory, 0}, {k.args[2].memory, 3}});
  using S = ir::LoopControlRequest::Status;
  for (const char* honoured : {"InitiationIntervalINTEL", "MaxConcurrencyINTEL", "DependencyArrayINTEL", "PipelineEnableINTEL"}) {
    const auto* r = request(c, honoured);
    REQUIRE_MESSAGE(r, honoured);
    CHECK_MESSAGE(r->status == S::Honoured, honoured);
  }
  CHECK(request(c, "DependencyArrayINTEL")->value == "a:0, c:3");
  // Full unrolling needs a trip count known at compile time; vadd's is the argument n.
  CHECK(request(c, "Unroll")->status == S::Ignored);
  CHECK(request(c, "Unroll")->note.find("the trip count is not known at compile time") != std::string::npos);
  CHECK(request(c, "LoopCountINTEL")->status == S::Honoured);
  CHECK(c.loopCountMax == 1000);
  CHECK(c.loopCountAvg == 100);
  CHECK(!c.loopCountMin); // -1: not given
  CHECK(c.requests.size() == 6);
  REQUIRE(k.diagnostics.size() == 1);
  CHECK(k.diagnostics[0].message.find("full unrolling requested but not done") != std::string::npos);
}

TEST_CASE("loop controls on OpLoopControlINTEL in the latch (where llvm-spirv puts them)") {
  const std::string text = readFile("controls_intel.spvasm");
  {
    Loaded l = loadText(text);
    ir::Kernel k = lower(l, "vadd");
    REQUIRE(k.loops.size() == 1);
    const ir::LoopControls& c = k.loops[0].controls;
    CHECK(c.ii == 4u);
    CHECK(c.pipelineEnable == true);
    CHECK(c.speculatedIterations == 2u);
    CHECK(c.memoryDependenceDistance == std::vector<std::pair<uint32_t, uint32_t>>{{k.args[2].memory, 0}});
    using S = ir::LoopControlRequest::Status;
    CHECK(request(c, "DependencyArrayINTEL")->status == S::Honoured);
    // Speculation bounds the schedule; no interleaving and no fusion are what the hardware does.
    for (const char* met : {"MaxInterleavingINTEL", "SpeculatedIterationsINTEL", "NoFusionINTEL"}) {
      const auto* r = request(c, met);
      REQUIRE_MESSAGE(r, met);
      CHECK_MESSAGE(r->status == S::Honoured, met);
    }
    CHECK(k.diagnostics.empty()); // the latch belongs to the loop: nothing to say
  }
  SUBCASE("controls outside any loop are reported, not dropped") {
    std::string moved = text;
    const std::string ctl =
        "               OpLoopControlINTEL InitiationIntervalINTEL|DependencyArrayINTEL|PipelineEnableINTEL|"
        "MaxInterleavingINTEL|SpeculatedIterationsINTEL|NoFusionINTEL 4 1 %c_addr 0 1 1 2\n";
    auto at = moved.find(ctl);
    REQUIRE(at != std::string::npos);
    moved.erase(at, ctl.size());
    // Into the kernel's entry block, before its branch to the loop.
    const std::string entryBranch = "               OpStore %i %uint_0 Aligned 4\n";
    auto e = moved.find(entryBranch);
    REQUIRE(e != std::string::npos);
    moved.insert(e + entryBranch.size(), "               OpLoopControlINTEL InitiationIntervalINTEL 3\n");
    Loaded l = loadText(moved);
    ir::Kernel k = lower(l, "vadd");
    REQUIRE(k.loops.size() == 1);
    CHECK_FALSE(k.loops[0].controls.ii.has_value());
    REQUIRE(k.diagnostics.size() == 1);
    CHECK(k.diagnostics[0].severity == Diagnostic::Severity::Warning);
    CHECK(k.diagnostics[0].message.find("not part of any loop") != std::string::npos);
    CHECK(k.diagnostics[0].message.find("InitiationIntervalINTEL 3") != std::string::npos);
    CHECK(k.diagnostics[0].loc.line > 0);
  }
}

// Float logic (lower_float.cpp) folds constant operands: a NaN or infinity known at compile time makes
// some of its 1-bit terms constants, which must stay values (they once became "always" predicates and
// left a select without an operand).
TEST_CASE("fmin, fmax, fdim, floor and float compares with constant NaN and infinity operands") {
  Loaded l = loadText(R"(
               OpCapability Addresses
               OpCapability Kernel
          %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
      %float = OpTypeFloat 32
       %long = OpTypeInt 64 0
        %ptr = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %ptr
        %nan = OpConstant %float 0x1.8p+128
        %inf = OpConstant %float 0x1p+128
        %two = OpConstant %float 2.5
       %zero = OpConstant %float 0
       %one = OpConstant %float 1
         %l1 = OpConstant %long 1
         %l2 = OpConstant %long 2
         %l3 = OpConstant %long 3
         %l4 = OpConstant %long 4
         %l5 = OpConstant %long 5
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr
      %entry = OpLabel
          %x = OpLoad %float %a
         %m1 = OpExtInst %float %std fmin %x %nan
         %m2 = OpExtInst %float %std fmax %inf %x
         %m3 = OpExtInst %float %std fdim %nan %x
         %m4 = OpExtInst %float %std floor %two
         %lt = OpFOrdLessThan %bool %x %nan
         %m5 = OpSelect %float %lt %one %zero
         %p1 = OpInBoundsPtrAccessChain %ptr %a %l1
               OpStore %p1 %m1
         %p2 = OpInBoundsPtrAccessChain %ptr %a %l2
               OpStore %p2 %m2
         %p3 = OpInBoundsPtrAccessChain %ptr %a %l3
               OpStore %p3 %m3
         %p4 = OpInBoundsPtrAccessChain %ptr %a %l4
               OpStore %p4 %m4
         %p5 = OpInBoundsPtrAccessChain %ptr %a %l5
               OpStore %p5 %m5
               OpReturn
               OpFunctionEnd
)");
  const ir::Kernel k = lower(l, "k");
  const ir::EvalResult r = runBoth(l, k, {floats("a", {-1.5f, 9, 9, 9, 9, 9})});
  const std::vector<float> out = valuesOf<float>(r.buffers[0]);
  CHECK(out[1] == -1.5f); // fmin(x, NaN) = x
  CHECK(std::isinf(out[2]));
  CHECK(std::isnan(out[3]));
  CHECK(out[4] == 2.0f);
  CHECK(out[5] == 0.0f); // x < NaN is false
}

TEST_CASE("conversions with FPRoundingMode: folded constants and conversion units in the mode") {
  Loaded l = loadText(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %c1 FPRoundingMode RTZ
               OpDecorate %c2 FPRoundingMode RTP
               OpDecorate %c3 FPRoundingMode RTN
               OpDecorate %c4 FPRoundingMode RTP
               OpDecorate %c5 FPRoundingMode RTE
               OpDecorate %c6 FPRoundingMode RTN
       %void = OpTypeVoid
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
        %int = OpTypeInt 32 0
       %long = OpTypeInt 64 0
       %fptr = OpTypePointer CrossWorkgroup %float
       %iptr = OpTypePointer CrossWorkgroup %int
         %fn = OpTypeFunction %void %fptr %iptr
        %big = OpConstant %int 16777217
      %third = OpConstant %double 0.33333333333333331
       %half = OpConstant %float 2.5
         %l1 = OpConstant %long 1
         %l2 = OpConstant %long 2
         %l3 = OpConstant %long 3
          %k = OpFunction %void None %fn
          %f = OpFunctionParameter %fptr
          %i = OpFunctionParameter %iptr
      %entry = OpLabel
          %n = OpLoad %int %i
          %x = OpLoad %float %f
         %c1 = OpConvertSToF %float %big
         %c2 = OpConvertSToF %float %n
         %c3 = OpFConvert %float %third
         %c4 = OpFConvert %float %third
         %c5 = OpConvertFToS %int %half
         %c6 = OpConvertFToS %int %x
         %s1 = OpFAdd %float %c1 %c2
         %s2 = OpFSub %float %c4 %c3
               OpStore %f %s1
         %p1 = OpInBoundsPtrAccessChain %fptr %f %l1
               OpStore %p1 %s2
         %q1 = OpInBoundsPtrAccessChain %iptr %i %l1
               OpStore %q1 %c5
         %q2 = OpInBoundsPtrAccessChain %iptr %i %l2
               OpStore %q2 %c6
               OpReturn
               OpFunctionEnd
)");
  const ir::Kernel k = lower(l, "k");
  // The SIToFP of the loaded integer keeps its mode for the unit; the constants are folded in theirs.
  size_t rtp = 0, conversions = 0;
  for (const ir::Op& op : k.ops)
    if (ir::isConversion(op.kind)) ++conversions, rtp += op.kind == ir::OpKind::SIToFP && op.rounding == 2;
  CHECK(rtp == 1);
  CHECK(conversions == 2); // and the float -> int of x, rounded down to an integral value first
  const ir::EvalResult r = runBoth(l, k, {floats("f", {-2.5f, 0}), ints("i", {16777219, 0, 0})});
  const std::vector<float> fo = valuesOf<float>(r.buffers[0]);
  const std::vector<int32_t> io = intsOf(r.buffers[1]);
  CHECK(fo[0] == 16777216.0f + 16777220.0f); // RTZ 16777217 -> 2^24; RTP 16777219 -> 2^24 + 4
  CHECK(fo[1] == 0x1p-25f);                  // RTP - RTN of 1/3: the two floats around it, one ulp apart
  CHECK(io[1] == 2);                         // RTE 2.5
  CHECK(io[2] == -3);                        // RTN -2.5
}

TEST_CASE("DependencyArrayINTEL on a private array names its local memory") {
  Loaded l = loadFile("localdep.spvasm");
  ir::Kernel k = lower(l, "localarr");
  REQUIRE(k.loops.size() == 2);
  uint32_t u = 0;
  while (u < k.memories.size() && k.memories[u].name != "u") ++u;
  REQUIRE(u < k.memories.size());
  CHECK(k.memories[u].kind == ir::Memory::Kind::Private);
  CHECK(k.loops[0].controls.memoryDependenceDistance == std::vector<std::pair<uint32_t, uint32_t>>{{u, 2}});
  CHECK(request(k.loops[0].controls, "DependencyArrayINTEL")->value == "u:2");
  CHECK(k.loops[1].controls.requests.empty());
}

TEST_CASE("InitiationIntervalINTEL on an outer loop pipelines it around its inner loop") {
  Loaded l = loadFile("nest_controls.spvasm");
  ir::Kernel k = lower(l, "matvec");
  REQUIRE(k.loops.size() == 2);
  // Inner loop: DependencyInfinite = no carried dependence at all.
  CHECK(k.loops[0].controls.dependencyLengthAll == 0u);
  CHECK(request(k.loops[0].controls, "DependencyInfinite")->status == ir::LoopControlRequest::Status::Honoured);
  // Outer loop: asks for II 2, so it is a pipeline whose body runs the inner loop (a LoopCall with
  // the inner loop's live-ins and a predicate, results expected kSubPipelineLatency cycles later).
  const ir::Loop& outer = k.loops[1];
  CHECK(outer.controls.ii == 2u);
  CHECK(request(outer.controls, "InitiationIntervalINTEL")->status ==
        ir::LoopControlRequest::Status::Honoured);
  const auto calls = opsOf(outer.ops, OpKind::LoopCall);
  REQUIRE(calls.size() == 1);
  const ir::Op& call = outer.ops[calls[0]];
  CHECK(call.index == 0u);
  CHECK(call.imm == ir::kSubPipelineLatency);
  CHECK(call.operands.size() == k.loops[0].liveIns.size() + 1);
  CHECK(std::equal(k.loops[0].liveIns.begin(), k.loops[0].liveIns.end(), call.operands.begin()));
  for (const auto& b : k.blocks)
    CHECK_FALSE(b.loopControls); // no loop is left in the CFG
}

// A loop's loads and stores in order, after checking that no lowering-only op is left in it.
std::pair<std::vector<ir::ValueId>, std::vector<ir::ValueId>> laneAccesses(const ir::Loop& lp) {
  std::vector<ir::ValueId> loads, stores;
  for (ir::ValueId v = 0; v < lp.ops.size(); ++v) {
    CHECK(!ir::isLoweringOnly(lp.ops[v].kind));
    if (lp.ops[v].kind == OpKind::Load) loads.push_back(v);
    if (lp.ops[v].kind == OpKind::Store) stores.push_back(v);
  }
  return {loads, stores};
}

// A kernel k(global uint* a) that reads global id 0 into %i and its element's pointer %p, then runs
// `body` (SPV_INTEL_subgroups declared; `modes` and `decls` added where they belong).
std::string subgroupKernel(const std::string& modes, const std::string& decls, const std::string& body) {
  return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability SubgroupShuffleINTEL
               OpExtension "SPV_INTEL_subgroups"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
)" + modes +
         R"(
               OpDecorate %gid BuiltIn GlobalInvocationId
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
         %v3 = OpTypeVector %ulong 3
       %void = OpTypeVoid
     %ptr_in = OpTypePointer Input %v3
      %ptr_g = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_g
     %uint_1 = OpConstant %uint 1
)" + decls +
         R"(
        %gid = OpVariable %ptr_in Input
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr_g
      %entry = OpLabel
        %ids = OpLoad %v3 %gid
          %i = OpCompositeExtract %ulong %ids 0
          %p = OpInBoundsPtrAccessChain %ptr_g %a %i
)" + body +
         "               OpFunctionEnd\n";
}

// A kernel of subgroups of 4 lanes loading %q (defined by `address`) and storing the lanes' values,
// shuffled across neighbours, at %p.
std::string shuffledCopyKernel(const std::string& address) {
  return subgroupKernel("OpExecutionMode %k SubgroupSize 4\n",
                        "%ulong_2 = OpConstant %ulong 2\n%ulong_1 = OpConstant %ulong 1\n", address + R"(
          %x = OpLoad %uint %q
          %y = OpSubgroupShuffleXorINTEL %uint %x %uint_1
               OpStore %p %y
               OpReturn
)");
}

TEST_CASE("errors name the construct, its location, what was found and what was expected") {
  Loaded l = loadFile("errors.spv");
  SUBCASE("a pointer into two buffers is no error any more: its store dispatches on the memory") {
    ir::Kernel k = lower(l, "twomem");
    // One store into each buffer, each in its own block, reached by a switch on the address's tag.
    const auto stores = opsOf(k.ops, OpKind::Store);
    REQUIRE(stores.size() == 2);
    CHECK(k.memories[k.ops[stores[0]].memory].name != k.memories[k.ops[stores[1]].memory].name);
    CHECK(k.ops[stores[0]].block != k.ops[stores[1]].block);
    const auto sw = std::find_if(k.blocks.begin(), k.blocks.end(), [](const ir::BasicBlock& b) {
      return b.term.kind == ir::Terminator::Kind::Switch;
    });
    REQUIRE(sw != k.blocks.end());
    CHECK(sw->term.targets.size() == 2);
    CHECK(k.ops[sw->term.cond].kind == OpKind::ZExt); // the tag's bits: a shift by a constant, wires
  }
  SUBCASE("floating-point addition is no error any more: an FAdd on the IEEE adder unit") {
    ir::Kernel k = lower(l, "floats");
    REQUIRE(k.loops.size() == 1);
    CHECK(countKind(k.loops[0].ops, OpKind::FAdd) == 1);
  }
  SUBCASE("an unsupported opcode") {
    Loaded t = loadText(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %q "q"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
        %ptr = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %ptr
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr
      %entry = OpLabel
          %x = OpLoad %float %a
          %q = OpFRem %float %x %x
               OpStore %a %q
               OpReturn
               OpFunctionEnd
)");
    std::string e = lowerError(t, "k");
    CHECK(e.find("OpFRem %q: OpFRem is not supported in hardware yet") != std::string::npos);
    CHECK(e.find("test.spvasm:") != std::string::npos);
  }
  SUBCASE("a program-scope variable is no error any more: an on-chip memory kept from run to run") {
    ir::Kernel k = lower(l, "globalvar");
    auto it = std::find_if(k.memories.begin(), k.memories.end(), [](const ir::Memory& m) { return m.name == "counter"; });
    REQUIRE(it != k.memories.end());
    CHECK(it->kind == ir::Memory::Kind::ProgramScope);
    CHECK(it->persistent);
  }
  SUBCASE("a local pointer argument") {
    std::string e = lowerError(l, "localptr");
    CHECK(e.find("kernel argument %l") != std::string::npos);
    CHECK(e.find("Workgroup") != std::string::npos);
  }
  SUBCASE("a work-item built-in is no error any more: the body runs in a loop over work-items") {
    ir::Kernel k = lower(l, "workitem");
    CHECK(k.ndRange);
    CHECK(k.workItemLoop == "workitem");
    REQUIRE(k.args.size() == 1 + ir::kNdRangeArgs);
    CHECK(k.args[1].name == "global_size_0");
    CHECK(k.args.back().name == "work_dim");
    CHECK(opsOf(k.ops, OpKind::WorkItem).empty());
    REQUIRE(k.loops.size() == 1);
    const ir::Loop& lp = k.loops[0];
    CHECK(lp.name == "workitem");
    // No dependence between work-items through the argument's memory.
    CHECK(lp.controls.memoryDependenceDistance == std::vector<std::pair<uint32_t, uint32_t>>{{0, 0}});
    CHECK(std::any_of(lp.controls.requests.begin(), lp.controls.requests.end(),
                      [](const ir::LoopControlRequest& r) { return r.name == "ND-range work-items"; }));
  }
  SUBCASE("subgroups: a subgroup's lanes side by side, a shuffle wired across them") {
    ir::Kernel k = lower(loadText(shuffledCopyKernel("%q = OpCopyObject %ptr_g %p\n")), "k");
    CHECK(k.subgroupLanes == 4);
    REQUIRE(k.loops.size() == 1);
    const ir::Loop& lp = k.loops[0];
    const auto [loads, stores] = laneAccesses(lp);
    // a[i] of lanes i..i+3, i a multiple of 4: one 16-byte load and one 16-byte store.
    REQUIRE(loads.size() == 1);
    REQUIRE(stores.size() == 1);
    CHECK(lp.ops[loads[0]].size == 16);
    CHECK(lp.ops[loads[0]].width() == 128);
    CHECK(lp.ops[stores[0]].size == 16);
    CHECK(k.laneAccessesJoined == 2);
    CHECK(k.laneAccessesPerLane == 0);
    REQUIRE(k.laneLogic.size() == 1); // the shuffle by a constant: wires
    CHECK(k.laneLogic[0].wired);
    CHECK(k.laneLogic[0].inputs == 4);
    CHECK(k.laneLogic[0].bits == 32);
    const ir::Op& data = lp.ops[lp.ops[stores[0]].operands[1]];
    REQUIRE(data.kind == OpKind::Concat);
    REQUIRE(data.operands.size() == 4);
    for (uint32_t j = 0; j < 4; ++j) { // lane j (bits 32j up) stores lane j^1's x
      const ir::Op& part = lp.ops[data.operands[j]];
      CHECK(part.kind == OpKind::Extract);
      CHECK(part.operands[0] == loads[0]);
      CHECK(part.imm == 32 * (j ^ 1));
    }
  }
  SUBCASE("subgroups: lanes' accesses one element apart from an unaligned lane 0, or further apart, "
          "stay one per lane") {
    auto build = [](const std::string& address) { return lower(loadText(shuffledCopyKernel(address)), "k"); };
    // a[i + 1]: consecutive, but lane 0's address is 4 bytes past a multiple of 16.
    ir::Kernel k = build("%q = OpInBoundsPtrAccessChain %ptr_g %p %ulong_1\n");
    REQUIRE(k.loops.size() == 1);
    auto [loads, stores] = laneAccesses(k.loops[0]);
    CHECK(loads.size() == 4);
    CHECK(stores.size() == 1);
    CHECK(k.laneAccessesJoined == 1);
    CHECK(k.laneAccessesPerLane == 1);
    // a[2 * i]: 8 bytes apart.
    k = build("%i2 = OpIMul %ulong %i %ulong_2\n%q = OpInBoundsPtrAccessChain %ptr_g %a %i2\n");
    REQUIRE(k.loops.size() == 1);
    std::tie(loads, stores) = laneAccesses(k.loops[0]);
    CHECK(loads.size() == 4);
    CHECK(stores.size() == 1);
    for (ir::ValueId v : loads)
      CHECK(k.loops[0].ops[v].size == 4);
  }
  SUBCASE("subgroups of one lane: every subgroup operation on the lane itself") {
    ir::Kernel k = lower(
        loadText(subgroupKernel("OpExecutionMode %k SubgroupSize 1\n", "%uint_0 = OpConstant %uint 0\n", R"(
          %x = OpLoad %uint %p
          %y = OpSubgroupShuffleXorINTEL %uint %x %uint_0
               OpStore %p %y
               OpReturn
)")),
        "k");
    CHECK(k.subgroups);
    CHECK(k.subgroupLanes == 1);
    REQUIRE(k.loops.size() == 1);
    const ir::Loop& lp = k.loops[0];
    const auto [loads, stores] = laneAccesses(lp);
    REQUIRE(loads.size() == 1);
    REQUIRE(stores.size() == 1);
    CHECK(lp.ops[stores[0]].operands[1] == loads[0]);
  }
  SUBCASE("subgroups in a kernel with a loop of its own name the loop") {
    const std::string e =
        lowerError(loadText(subgroupKernel("", "%bool = OpTypeBool\n%uint_4 = OpConstant %uint 4\n",
                                           R"(
               OpBranch %head
       %head = OpLabel
          %n = OpPhi %uint %uint_1 %entry %n1 %head
          %x = OpLoad %uint %p
          %y = OpSubgroupShuffleXorINTEL %uint %x %uint_1
               OpStore %p %y
         %n1 = OpIAdd %uint %n %uint_1
          %c = OpULessThan %bool %n1 %uint_4
               OpBranchConditional %c %head %exit
       %exit = OpLabel
               OpReturn
)")),
                   "k");
    CHECK(e.find("a kernel that uses subgroups is built only when its body has no loop of its own") !=
          std::string::npos);
    CHECK(e.find("it has loop 'head'") != std::string::npos);
  }
  SUBCASE("vectors are no error any more: one add per lane, int4 accessed whole") {
    ir::Kernel k = lower(l, "vectors");
    std::vector<uint64_t> offsets;
    for (ir::ValueId v : opsOf(k.ops, OpKind::Load)) {
      CHECK(k.ops[v].size == 16);
      offsets.push_back(k.ops[k.ops[v].operands[0]].imm);
    }
    std::sort(offsets.begin(), offsets.end());
    CHECK(offsets == std::vector<uint64_t>{16, 32});
    const auto stores = opsOf(k.ops, OpKind::Store);
    REQUIRE(stores.size() == 1);
    const ir::Op& st = k.ops[stores[0]];
    CHECK(st.size == 16);
    CHECK(k.ops[st.operands[0]].imm == 0);
    const ir::Op& data = k.ops[st.operands[1]];
    REQUIRE(data.kind == OpKind::Concat);
    REQUIRE(data.operands.size() == 4);
    for (ir::ValueId lane : data.operands)
      CHECK(k.ops[lane].kind == OpKind::Add);
  }
  SUBCASE("recursion") {
    Loaded r = loadFile("recursion.spv");
    std::string e = lowerError(r, "recursion");
    CHECK(e.find("recursion is not supported in hardware") != std::string::npos);
    CHECK(e.find("fact -> fact") != std::string::npos);
  }
  SUBCASE("an unknown kernel") {
    std::string e = lowerError(l, "nope");
    CHECK(e.find("no kernel entry point named \"nope\"") != std::string::npos);
    CHECK(e.find("twomem") != std::string::npos);
  }
}

TEST_CASE("verifyKernel rejects broken IR") {
  Loaded l = loadFile("dot.spv");
  const ir::Kernel good = lower(l, "dot");
  auto broken = [&](auto&& edit) {
    ir::Kernel k = good;
    edit(k);
    CHECK_THROWS_AS(ir::verifyKernel(k), DiagnosticError);
  };
  broken([](ir::Kernel& k) { k.ops[opsOf(k.ops, OpKind::Store)[0]].operands[0] = 999999; });
  broken([](ir::Kernel& k) { k.ops[opsOf(k.ops, OpKind::Store)[0]].memory = 17; });
  broken([](ir::Kernel& k) { k.ops[opsOf(k.ops, OpKind::Store)[0]].size = 8; }); // data is 32 bits
  broken([](ir::Kernel& k) { k.blocks[0].term.targets = {99}; });
  broken([](ir::Kernel& k) { k.loops[0].continueCond = k.loops[0].phis[0].next; }); // 32 bits
  broken([](ir::Kernel& k) { k.loops[0].phis[0].initLiveIn = 42; });
  broken([](ir::Kernel& k) { k.loops[0].liveOuts[0] = 1000; });
  broken([](ir::Kernel& k) { std::swap(k.loops[0].ops[2], k.loops[0].ops.back()); }); // order
  broken([](ir::Kernel& k) { k.ops[opsOf(k.ops, OpKind::LoopCall)[0]].operands.pop_back(); });
  broken([](ir::Kernel& k) { k.ops[0].block = 1; });
  broken([](ir::Kernel& k) {
    for (auto& op : k.loops[0].ops)
      if (op.kind == OpKind::Add) op.type = ir::Type::bits(16);
  });
  CHECK_NOTHROW(ir::verifyKernel(good));
}

TEST_CASE("printKernel shows the CFG, the loops and their controls") {
  Loaded l = loadFile("controls_merge.spvasm");
  std::string s = ir::printKernel(lower(l, "vadd"));
  CHECK(s.find("kernel vadd") != std::string::npos);
  CHECK(s.find("LoopCall loop0(") != std::string::npos);
  CHECK(s.find("loop0 for.cond: depth 1, trip count hint 100") != std::string::npos);
  CHECK(s.find("request InitiationIntervalINTEL 4: honoured") != std::string::npos);
  CHECK(s.find("Store i") == std::string::npos); // stores have no result
  CHECK(s.find("Store mem2(c)") != std::string::npos);
}

TEST_CASE("every kernel of the examples lowers, verifies and matches the interpreter") {
  for (const char* name : {"vadd.spv", "dot.spv", "ifelse.spv", "calls.spv", "switch.spv", "nest.spv", "misc.spv",
                           "exits.spv", "more.spv", "controls_merge.spvasm", "controls_intel.spvasm",
                           "nest_controls.spvasm", "irreducible.spvasm", "localdep.spvasm"}) {
    Loaded l = loadFile(name);
    for (const auto& kn : ir::kernelNames(*l.view)) {
      ir::Kernel k = lower(l, kn);
      // Generic inputs: every buffer 256 ints of small values, every scalar the same n.
      struct Inputs {
        int64_t n;
        int32_t lo, hi;
      };
      for (Inputs in : {Inputs{5, 1, 6}, Inputs{13, -8, 8}, Inputs{0, -3, 3}}) {
        INFO(name << " " << kn << " n=" << in.n);
        std::vector<sim::ArgSpec> args;
        for (const auto& a : k.args)
          args.push_back(a.isPointer ? ints(a.name, pseudoRandom(256, a.memory + 11, in.lo, in.hi))
                                     : scalar(a.name, in.n, a.width()));
        runBoth(l, k, args);
      }
    }
  }
}

TEST_CASE("a register limit (SPV_INTEL_maximum_registers) is carried to the kernel as a budget of bits") {
  std::string text = readFile("controls_intel.spvasm");
  CHECK(lower(loadText(text), "vadd").registerLimit.empty());
  CHECK(lower(loadText(text), "vadd").registerBudgetBits == 0);
  size_t ep = text.find("OpEntryPoint Kernel");
  REQUIRE(ep != std::string::npos);
  size_t caps = text.find("OpCapability Kernel");
  REQUIRE(caps != std::string::npos);
  std::string id = text.substr(ep + 20, text.find(' ', ep + 20) - (ep + 20)); // the entry point's %id
  text.insert(text.find('\n', ep) + 1, "OpExecutionMode " + id + " MaximumRegistersINTEL 96\n");
  text.insert(text.find("OpExtension"), "OpExtension \"SPV_INTEL_maximum_registers\"\n");
  text.insert(caps, "OpCapability RegisterLimitsINTEL\n");
  const ir::Kernel k = lower(loadText(text), "vadd");
  CHECK(k.registerLimit == "MaximumRegistersINTEL 96");
  CHECK(k.registerBudgetBits == 96 * 32);
}

TEST_CASE("cluster-kind decorations on the kernel (SPV_INTEL_fpga_cluster_attributes) reach the IR") {
  std::string text = readFile("controls_intel.spvasm");
  size_t ep = text.find("OpEntryPoint Kernel");
  REQUIRE(ep != std::string::npos);
  std::string id = text.substr(ep + 20, text.find(' ', ep + 20) - (ep + 20));
  text.insert(text.find("OpCapability Kernel"), "OpCapability FPGAClusterAttributesINTEL\n");
  text.insert(text.find("OpExtension"), "OpExtension \"SPV_INTEL_fpga_cluster_attributes\"\n");
  size_t decorations = text.find("OpDecorate");
  REQUIRE(decorations != std::string::npos);
  std::string enable = text, both = text;
  enable.insert(decorations, "OpDecorate " + id + " StallEnableINTEL\n");
  CHECK(lower(loadText(enable), "vadd").clusterAttribute == "StallEnableINTEL");
  both.insert(decorations, "OpDecorate " + id + " StallEnableINTEL\nOpDecorate " + id + " StallFreeINTEL\n");
  std::string e = lowerError(loadText(both), "vadd");
  CHECK_MESSAGE(e.find("decorated both StallEnableINTEL and StallFreeINTEL") != std::string::npos, e);
}

TEST_CASE("a private array past the on-chip budget is external; one past the compiler's limit is an error") {
  std::string text = readFile("localdep.spvasm");
  const std::string small = "%_arr_uint_ulong_8 = OpTypeArray %uint %ulong_8";
  REQUIRE(text.find(small) != std::string::npos);
  text.replace(text.find(small), small.size(), "%_arr_uint_ulong_8 = OpTypeArray %uint %ulong_big");
  // 80,000 bytes fit the default budget; with a 64 KiB budget the array becomes an external memory,
  // with a note saying so.
  std::string big = text;
  big.insert(big.find("%ulong_8 = OpConstant"), "%ulong_big = OpConstant %ulong 20000\n");
  Loaded fits = loadText(big);
  ir::Kernel onChip = ir::lowerKernel(*fits.view, "localarr");
  ir::Kernel off = ir::lowerKernel(*fits.view, "localarr", ir::LowerOptions{64 * 1024});
  auto memU = [](const ir::Kernel& k) {
    for (const ir::Memory& m : k.memories)
      if (m.name == "u") return m;
    FAIL("no memory u");
    return ir::Memory{};
  };
  CHECK(memU(onChip).kind == ir::Memory::Kind::Private);
  CHECK(memU(off).kind == ir::Memory::Kind::External);
  bool noted = false;
  for (const Diagnostic& d : off.diagnostics)
    noted |= d.construct == "array u" &&
             d.message.find("its 80000 bytes do not fit the on-chip budget (") != std::string::npos &&
             d.message.find(" of 65536 bytes left, --on-chip-budget)") != std::string::npos;
  CHECK(noted);
  // 80 MiB: more than the compiler builds as one array at all.
  std::string huge = text;
  huge.insert(huge.find("%ulong_8 = OpConstant"), "%ulong_big = OpConstant %ulong 20971520\n");
  std::string e = lowerError(loadText(huge), "localarr");
  CHECK_MESSAGE(
      e.find("u (83886080 bytes) is larger than the 67108864 bytes spvhls builds as one array (on chip or "
             "external); pass a buffer in global memory") != std::string::npos,
      e);
}

// ---- issue 9: defects found by random C programs (tests/unit/data/lower/issue9.cl) ----

TEST_CASE("issue 9: lowering keeps C semantics where random programs found it wrong") {
  Loaded l = loadFile("issue9.spv");
  const std::vector<int32_t> r{5, 7, 0, 0};
  auto eval = [&](const ir::Kernel& k) { return intsOf(ir::evaluateKernel(k, {0}, {bytesOf(r)}).buffers[0]); };

  // Accesses outside loops named the memory's old number once unused arrays were dropped: the
  // stores to `b` landed in `c`.
  ir::Kernel stale = lower(l, "stale_memory");
  CHECK(eval(stale) == std::vector<int32_t>{5, 7, 312, 0});
  runBoth(l, stale, {ints("r", r)});

  // The folded `a &&` branch left its phi entry behind, which a merge turned into a second entry.
  ir::Kernel logic = lower(l, "logic_after_join");
  CHECK(eval(logic) == std::vector<int32_t>{1, 0, 0, 0});
  runBoth(l, logic, {ints("r", r)});
  runBoth(l, logic, {ints("r", {5, 7, 0, 9})});

  // The callee writes its own copy of a by-value struct, never the caller's.
  ir::Kernel byval = lower(l, "byval");
  CHECK(eval(byval) == std::vector<int32_t>{5, 1, 0, 0});
  runBoth(l, byval, {ints("r", r)});

  // A call that never returns made promotion loop forever over the unreachable rest.
  ir::Kernel noret = lower(l, "noreturn_call");
  CHECK(eval(noret) == std::vector<int32_t>{5, 7, 7, 0});
  runBoth(l, noret, {ints("r", r)});

  // A written initialised array keeps no configuration-time contents: they are stored at entry.
  ir::Kernel init = lower(l, "written_init");
  for (const auto& m : init.memories) CHECK_MESSAGE(m.init.empty(), "memory " << m.name << " keeps an initial image");
  CHECK(eval(init) == std::vector<int32_t>{6, 17, 8, 9});
  runBoth(l, init, {ints("r", r)});
  runBoth(l, init, {ints("r", {2, 0, 0, 0})});
}

TEST_CASE("verifyKernel: phi entries match the predecessors; between passes dead code is allowed") {
  Loaded l = loadFile("issue9.spv");
  const ir::Kernel good = lower(l, "logic_after_join");
  auto rejects = [&](const ir::Kernel& base, auto&& edit, const char* what, ir::VerifyLevel level) {
    ir::Kernel k = base;
    edit(k);
    try {
      ir::verifyKernel(k, level);
      FAIL("verifyKernel accepted " << what);
    } catch (const DiagnosticError& e) {
      CHECK_MESSAGE(std::string(e.what()).find("IR invariant violated") != std::string::npos, e.what());
    }
  };
  Loaded c = loadFile("calls.spv");
  const ir::Kernel withPhi = lower(c, ir::kernelNames(*c.view).front());
  size_t checked = 0;
  for (const ir::Kernel* base : {&good, &withPhi}) {
    for (ir::ValueId v = 0; v < base->ops.size(); ++v) {
      if (base->ops[v].kind != OpKind::Phi || base->ops[v].operands.size() < 2) continue;
      for (auto level : {ir::VerifyLevel::Final, ir::VerifyLevel::Between}) {
        rejects(*base, [&](ir::Kernel& k) { k.ops[v].phiBlocks[1] = k.ops[v].phiBlocks[0]; },
                "two entries for one predecessor", level);
        rejects(*base, [&](ir::Kernel& k) {
          k.ops[v].operands.pop_back();
          k.ops[v].phiBlocks.pop_back();
        }, "a missing entry", level);
        rejects(*base, [&](ir::Kernel& k) {
          // An entry from a block that does not branch here (the shape of the && defect).
          uint32_t other = 0;
          while (other == k.ops[v].block ||
                 std::find(k.ops[v].phiBlocks.begin(), k.ops[v].phiBlocks.end(), other) != k.ops[v].phiBlocks.end())
            ++other;
          k.ops[v].phiBlocks.back() = other;
        }, "an entry from a non-predecessor", level);
      }
      ++checked;
      break;
    }
  }
  CHECK(checked >= 1); // some kernel has a join
  // An unreachable block: dead code between passes, an error in the final IR.
  ir::Kernel dead = good;
  ir::BasicBlock extra;
  extra.name = "dead";
  dead.blocks.push_back(extra);
  CHECK_NOTHROW(ir::verifyKernel(dead, ir::VerifyLevel::Between));
  CHECK_THROWS_AS(ir::verifyKernel(dead, ir::VerifyLevel::Final), DiagnosticError);
}

TEST_CASE("OpSpecConstantOp addresses into a constant table are followed; numbers folded by the view") {
  // r[0] = tab[1 + (r[1] & 1)] through a constant access chain and its cast; r[2] = 6 * 7 folded.
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GenericPointer
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %r "r"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %void = OpTypeVoid
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_6 = OpConstant %uint 6
     %uint_7 = OpConstant %uint 7
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
    %ulong_4 = OpConstant %ulong 4
        %arr = OpTypeArray %uint %ulong_4
    %ptr_arr = OpTypePointer UniformConstant %arr
     %ptr_uc = OpTypePointer UniformConstant %uint
     %ptr_cw = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_cw
   %uint_10 = OpConstant %uint 10
   %uint_20 = OpConstant %uint 20
   %uint_30 = OpConstant %uint 30
   %uint_40 = OpConstant %uint 40
       %init = OpConstantComposite %arr %uint_10 %uint_20 %uint_30 %uint_40
        %tab = OpVariable %ptr_arr UniformConstant %init
         %p1 = OpSpecConstantOp %ptr_uc InBoundsAccessChain %tab %ulong_1
         %p1b = OpSpecConstantOp %ptr_uc Bitcast %p1
         %c42 = OpSpecConstantOp %uint IMul %uint_6 %uint_7
          %k = OpFunction %void None %fn
          %r = OpFunctionParameter %ptr_cw
      %entry = OpLabel
        %r1p = OpInBoundsPtrAccessChain %ptr_cw %r %ulong_1
         %r1 = OpLoad %uint %r1p Aligned 4
        %odd = OpBitwiseAnd %uint %r1 %uint_1
       %oddl = OpUConvert %ulong %odd
          %q = OpInBoundsPtrAccessChain %ptr_uc %p1b %oddl
          %v = OpLoad %uint %q Aligned 4
               OpStore %r %v Aligned 4
        %r2p = OpInBoundsPtrAccessChain %ptr_cw %r %ulong_2
               OpStore %r2p %c42 Aligned 4
               OpReturn
               OpFunctionEnd
)";
  Loaded l = loadText(text);
  ir::Kernel k = lower(l, "k");
  ir::EvalResult e = runBoth(l, k, {ints("r", {0, 7, 0, 0})});
  CHECK(intsOf(e.buffers[0]) == std::vector<int32_t>{30, 7, 42, 0});
  runBoth(l, k, {ints("r", {0, 6, 0, 0})});
  // The table is a program-scope constant on chip, only read; the argument is read and written.
  REQUIRE(k.memories.size() == 2);
  CHECK(k.memories[0].kind == ir::Memory::Kind::Argument);
  CHECK(k.memories[1].kind == ir::Memory::Kind::ProgramScope);
  CHECK(k.memories[1].onChip());
  CHECK(k.memories[1].init.size() == 16);
  REQUIRE(k.memories[0].ports.size() == 1);
  REQUIRE(k.memories[1].ports.size() == 1);
  CHECK(k.memories[0].ports[0].access == ir::PortAccess::ReadWrite);
  CHECK(k.memories[1].ports[0].access == ir::PortAccess::Read);
}

TEST_CASE("operands whose width differs from the result type's are the input's error, not an internal one") {
  // fuzz_compile: an OpIMul of a 64-bit result with a 32-bit operand got through to the IR verifier
  // after translation (an InternalError). Each template below replaces %OP with one instruction.
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
       %void = OpTypeVoid
     %uint_1 = OpConstant %uint 1
    %ulong_1 = OpConstant %ulong 1
     %ptr_cw = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %ptr_cw
          %k = OpFunction %void None %fn
          %r = OpFunctionParameter %ptr_cw
      %entry = OpLabel
         %a = OpLoad %ulong %r Aligned 8
         %w = OpUConvert %uint %a
         %c = OpULessThan %bool %w %uint_1
%OP
               OpStore %r %x Aligned 8
               OpReturn
               OpFunctionEnd
)";
  auto with = [&](const std::string& op) {
    std::string t = text;
    t.replace(t.find("%OP"), 3, op);
    return t;
  };
  auto fails = [&](const std::string& op, const std::string& message) {
    Loaded l = loadText(with(op));
    try {
      ir::lowerKernel(*l.view, "k");
      FAIL("lowering succeeded: " << op);
    } catch (const InternalError& e) {
      FAIL("internal error for " << op << ": " << e.what());
    } catch (const DiagnosticError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(message) != std::string::npos, e.what());
    }
  };
  fails("%x = OpIMul %ulong %a %w", "operand %w has 32 bits; expected 64");
  fails("%x = OpIAdd %ulong %w %w", "operand %w has 32 bits; expected 64");
  fails("%x = OpNot %ulong %w", "operand %w has 32 bits; expected 64");
  fails("%x = OpSelect %ulong %c %a %w", "operand %w has 32 bits; expected 64");
  fails("%e = OpIEqual %bool %a %w\n%x = OpSelect %ulong %e %a %a", "operand %w has 32 bits; expected 64");
  fails("%x = OpIAdd %ulong %a %ulong", "uses %ulong as a value; it is a type, function or instruction set");
  // Shift amounts may have another width.
  Loaded ok = loadText(with("%x = OpShiftLeftLogical %ulong %a %w"));
  CHECK_NOTHROW(lower(ok, "k"));
}

TEST_CASE("vector loads and stores through vector pointers are one wide access; vload4 where aligned") {
  Loaded l = loadFile("wide.spv");
  ir::Kernel k = lower(l, "wide");
  REQUIRE(k.loops.size() == 1);
  const ir::Loop& lp = k.loops[0];
  std::map<std::pair<OpKind, uint32_t>, int> accesses; // (kind, size) -> count
  for (const ir::Op& op : lp.ops)
    if (op.kind == OpKind::Load || op.kind == OpKind::Store) ++accesses[{op.kind, op.size}];
  // a[i] twice, c[i], vload4(i, f): 16-byte loads; b[i]: 32 bytes; a[i], c[i] stored whole, b[i] too.
  CHECK(accesses[{OpKind::Load, 16}] == 4);
  CHECK(accesses[{OpKind::Load, 32}] == 1);
  CHECK(accesses[{OpKind::Store, 16}] == 2);
  CHECK(accesses[{OpKind::Store, 32}] == 1);
  // The narrow store into a[i] and the lanes of vstore4 at f + 4n + 1 + i (4-byte aligned).
  CHECK(accesses[{OpKind::Load, 4}] == 0);
  CHECK(accesses[{OpKind::Store, 4}] == 1 + 4);
  // Lanes out of wide values and wide values made of lanes (the shifts by constants, wires too, not
  // counted).
  auto wide = [&](OpKind kind, bool operand) {
    return std::count_if(lp.ops.begin(), lp.ops.end(), [&](const ir::Op& op) {
      return op.kind == kind && (operand ? lp.ops[op.operands[0]].width() : op.width()) > 64;
    });
  };
  CHECK(wide(OpKind::Extract, true) == 4 + 4 + 8 + 16 + 4);
  CHECK(wide(OpKind::Concat, false) == 3);
  // Ports as wide as their widest access.
  CHECK(k.memories[k.args[0].memory].wordBits == 128);
  CHECK(k.memories[k.args[1].memory].wordBits == 256);
  CHECK(k.memories[k.args[2].memory].wordBits == 128);
  CHECK(k.memories[k.args[3].memory].wordBits == 128);
  CHECK_NOTHROW(ir::checkHardwareSupport(k));

  const int n = 6;
  std::vector<uint8_t> a(16 * n), b(32 * n), c(16 * n), f(4 * (5 * n + 4));
  for (size_t i = 0; i < f.size(); i += 4) {
    const float x = float(int(i % 37) - 18) * 0.375f;
    if (i < a.size()) std::memcpy(&a[i], &x, 4);
    std::memcpy(&f[i], &x, 4);
  }
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = uint8_t(i * 7 + 3);
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = uint8_t(i * 13 + 1);
  const sim::ElemType f32{"f32", 4, true, true}, u8{"u8", 1, false, false};
  const ir::EvalResult r = runBoth(
      l, k,
      {buffer("a", a, f32), buffer("b", b, u8), buffer("c", c, u8), buffer("f", f, f32), scalar("n", n)});
  CHECK(r.buffers[2][0] == uint8_t(c[0] ^ 3));
}

// Redundant loads (ir/lower_loads.cpp): a[1] loaded twice is one request; marked Volatile, two.
TEST_CASE(
    "a load of the bytes an earlier one read reuses its value, unless the kernel has a volatile access") {
  auto kernel = [](const std::string& second) {
    return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %long = OpTypeInt 64 0
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
         %l1 = OpConstant %long 1
         %l2 = OpConstant %long 2
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr
      %entry = OpLabel
         %p1 = OpInBoundsPtrAccessChain %ptr %a %l1
         %x = OpLoad %uint %p1 Aligned 4
         %q1 = OpInBoundsPtrAccessChain %ptr %a %l1
         %y = OpLoad %uint %q1 )" +
           second + R"(
         %s = OpIAdd %uint %x %y
         %p2 = OpInBoundsPtrAccessChain %ptr %a %l2
               OpStore %p2 %s Aligned 4
               OpReturn
               OpFunctionEnd
)";
  };
  auto loads = [](const ir::Kernel& k) {
    return std::count_if(k.ops.begin(), k.ops.end(),
                         [](const ir::Op& op) { return op.kind == OpKind::Load; });
  };
  for (const char* second : {"Aligned 4", "Volatile|Aligned 4"}) {
    CAPTURE(second);
    Loaded l = loadText(kernel(second));
    const ir::Kernel k = lower(l, "k");
    const bool isVolatile = std::string(second).find("Volatile") != std::string::npos;
    CHECK(k.volatileAccess == isVolatile);
    CHECK(loads(k) == (isVolatile ? 2 : 1));
    CHECK(k.datapath.reusedLoads == (isVolatile ? 0 : 1));
    const ir::EvalResult r = runBoth(l, k, {ints("a", {0, 20, 9})});
    CHECK(intsOf(r.buffers[0])[2] == 40);
  }
}

TEST_CASE("an on-chip RAM the kernel reads and writes has a read port and a write port (--ram-ports)") {
  Loaded l = loadText(readFile("localdep.spvasm"));
  ir::LowerOptions single;
  single.ramPorts = 1;
  const ir::Kernel two = ir::lowerKernel(*l.view, "localarr"),
                   one = ir::lowerKernel(*l.view, "localarr", single);
  auto indexOf = [](const ir::Kernel& k, const std::string& name) {
    for (uint32_t m = 0; m < k.memories.size(); ++m)
      if (k.memories[m].name == name) return m;
    FAIL("no memory " << name);
    return 0u;
  };
  const uint32_t u = indexOf(two, "u");
  REQUIRE(two.memories[u].onChip());
  REQUIRE(two.memories[u].ports.size() == 2);
  CHECK(two.memories[u].ports[0].access == ir::PortAccess::Read);
  CHECK(two.memories[u].ports[0].key == u);
  CHECK(two.memories[u].ports[1].access == ir::PortAccess::Write);
  const uint32_t writeKey = two.memories[u].ports[1].key;
  CHECK(writeKey >= two.memories.size());
  CHECK(ir::portCount(two.memories) == writeKey + 1);
  CHECK(ir::portMemory(two.memories, writeKey) == u);
  CHECK(ir::portName(two.memories, u) == "u (read)");
  CHECK(ir::portName(two.memories, writeKey) == "u (write)");
  // Loads take the read port, stores the write port, in the FSM and in the loops alike.
  size_t loads = 0, stores = 0;
  auto scan = [&](const std::vector<ir::Op>& ops) {
    for (const ir::Op& op : ops) {
      if (op.memory != u || (op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store)) continue;
      const bool store = op.kind == ir::OpKind::Store;
      (store ? stores : loads)++;
      CHECK(op.port == (store ? 1 : 0));
      CHECK(ir::portKey(two.memories, op) == (store ? writeKey : u));
    }
  };
  scan(two.ops);
  for (const ir::Loop& lp : two.loops)
    scan(lp.ops);
  CHECK(loads > 0);
  CHECK(stores > 0);
  // Pointer arguments keep one port; so does every memory with --ram-ports 1.
  for (const ir::Memory& m : two.memories)
    if (!m.onChip()) CHECK(m.ports.size() <= 1);
  const uint32_t u1 = indexOf(one, "u");
  REQUIRE(one.memories[u1].ports.size() == 1);
  CHECK(one.memories[u1].ports[0].access == ir::PortAccess::ReadWrite);
  CHECK(ir::portCount(one.memories) == one.memories.size());
  CHECK(ir::portName(one.memories, u1) == "u");

  // The verifier rejects a load on the write port.
  ir::Kernel bad = two;
  for (ir::Op& op : bad.ops)
    if (op.memory == u && op.kind == ir::OpKind::Load) {
      op.port = 1;
      break;
    }
  for (ir::Loop& lp : bad.loops)
    for (ir::Op& op : lp.ops)
      if (op.memory == u && op.kind == ir::OpKind::Load) op.port = 1;
  bool rejected = false;
  try {
    ir::verifyKernel(bad);
  } catch (const DiagnosticError& e) {
    rejected = std::string(e.what()).find("uses port 1 of memory u") != std::string::npos;
    INFO(e.what());
  }
  CHECK(rejected);
}
