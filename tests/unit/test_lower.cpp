// Lowering (SPIR-V -> HLS IR) of real clang-15 -O0 output: the structure of the IR (pipelined loops,
// phis, predicated accesses, live-outs, inlined calls, local arrays and structs) and its meaning (the IR
// evaluator against the golden SPIR-V interpreter and against plain C++ on the same inputs), for every
// fixture kernel, for the defects random C programs found, and for float logic and conversions with
// constant operands. Fixtures and the .cl sources they come from are in tests/unit/data/lower/
// (regen.sh rebuilds the .spv files). Loop controls: test_lower_controls.cpp; errors and the IR
// verifier: test_lower_errors.cpp; memories and accesses: test_lower_memory.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/module.h"
#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "lower_test_util.h"
#include "sim/interp.h"

using namespace spvhls;
using ir::kNone;
using ir::OpKind;

using namespace lower_test;

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
