// The HLS IR's own layer: types, the operation table, the verifier's type rules, the region tree,
// processes and channels, memory kinds and ports, loops calling inner loops, and the back end's
// "not supported yet" check. Lowering itself is tested in test_lower*.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <set>

#include "frontend/module.h"
#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "ir/lower_internal.h"
#include "scheduler/kernel_schedule.h"

using namespace spvhls;
using ir::kNone;
using ir::OpKind;
using ir::Type;

namespace {

struct Loaded {
  std::unique_ptr<spirv::Module> module;
  std::unique_ptr<spirv::ModuleView> view;
};

Loaded loadFile(const std::string& name) {
  Loaded l;
  l.module = std::make_unique<spirv::Module>(
      spirv::readModuleFile(std::string(SPVHLS_SOURCE_DIR) + "/tests/unit/data/lower/" + name));
  l.view = std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*l.module));
  return l;
}

ir::Kernel lowerFile(const std::string& file, const std::string& kernel) {
  Loaded l = loadFile(file);
  ir::Kernel k = ir::lowerKernel(*l.view, kernel);
  ir::verifyKernel(k);
  return k;
}

ir::Op makeOp(OpKind kind, Type type, std::vector<ir::ValueId> operands = {}, uint64_t imm = 0) {
  ir::Op op;
  op.kind = kind;
  op.type = type;
  op.operands = std::move(operands);
  op.imm = imm;
  return op;
}

// A kernel of one block (arguments: c, a buffer, and n, an i32) whose ops the test appends.
struct OneBlock {
  ir::Kernel k;
  OneBlock() {
    k.name = "k";
    k.args = {{"c", true, Type::none(), 0}, {"n", false, Type::bits(32), 0}};
    k.memories.resize(1);
    k.memories[0].name = "c";
    k.blocks.resize(1);
    k.blocks[0].name = "entry";
    k.blocks[0].term.kind = ir::Terminator::Kind::Return;
  }
  ir::ValueId add(ir::Op op) {
    op.block = 0;
    k.ops.push_back(std::move(op));
    k.blocks[0].ops.push_back(ir::ValueId(k.ops.size() - 1));
    return ir::ValueId(k.ops.size() - 1);
  }
  // The verifier's message for the kernel ("" when it passes).
  std::string verify() {
    ir::buildStructure(k);
    try {
      ir::verifyKernel(k);
    } catch (const DiagnosticError& e) {
      return e.what();
    }
    return "";
  }
};

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::string hardwareError(const ir::Kernel& k) {
  try {
    ir::checkHardwareSupport(k);
  } catch (const DiagnosticError& e) {
    return e.what();
  }
  return "";
}

// for (i = 0;; ) { c[i] = inner(i + 1); if (!(i + 1 < n)) break; i++ } where inner(m) counts
// j = 1, 2, ... up to m and returns m: a pipelined loop whose body calls an inner loop.
ir::Kernel nestedLoopsKernel() {
  OneBlock b;
  ir::Kernel& k = b.k;
  const ir::ValueId n = b.add(makeOp(OpKind::Arg, Type::bits(32)));
  k.ops[n].index = 1;
  const ir::ValueId zero = b.add(makeOp(OpKind::Const, Type::bits(32)));
  k.blocks[0].term.kind = ir::Terminator::Kind::Branch;
  k.blocks[0].term.targets = {1};
  k.blocks.resize(3);
  k.blocks[1].name = "outer.loop";
  k.blocks[1].loopCall = 0;
  k.blocks[1].term.kind = ir::Terminator::Kind::Branch;
  k.blocks[1].term.targets = {2};
  k.blocks[2].name = "exit";
  k.blocks[2].term.kind = ir::Terminator::Kind::Return;
  ir::Op call = makeOp(OpKind::LoopCall, Type::none(), {n, zero});
  call.block = 1;
  k.ops.push_back(call);
  k.blocks[1].ops = {ir::ValueId(k.ops.size() - 1)};

  const Type i32 = Type::bits(32), i64 = Type::bits(64), i1 = Type::bits(1);
  ir::Loop outer;
  outer.name = "outer";
  outer.liveIns = {n, zero};
  auto liveIn = [](uint32_t index) {
    ir::Op op = makeOp(OpKind::LiveIn, Type::bits(32));
    op.index = index;
    return op;
  };
  outer.ops = {liveIn(0),
               liveIn(1),
               makeOp(OpKind::LoopPhi, i32),
               makeOp(OpKind::Const, i32, {}, 1),
               makeOp(OpKind::Add, i32, {2, 3}),
               makeOp(OpKind::LoopCall, Type::none(), {4, 1, kNone}), // live-ins, then its predicate
               makeOp(OpKind::LoopOut, i32, {5}),
               makeOp(OpKind::ZExt, i64, {2}),
               makeOp(OpKind::Const, i64, {}, 2),
               makeOp(OpKind::Shl, i64, {7, 8}),
               makeOp(OpKind::Store, Type::none(), {9, 6, kNone}),
               makeOp(OpKind::ULt, i1, {4, 0})};
  outer.ops[5].index = 1;
  outer.ops[5].imm = ir::kSubPipelineLatency;
  outer.ops[10].size = 4;
  outer.phis = {{"i", 1, 4, i32}};
  outer.continueCond = 11;

  ir::Loop inner;
  inner.name = "inner";
  inner.liveIns = {4, 1}; // values of the outer body
  inner.ops = {liveIn(0),
               liveIn(1),
               makeOp(OpKind::LoopPhi, i32),
               makeOp(OpKind::Const, i32, {}, 1),
               makeOp(OpKind::Add, i32, {2, 3}),
               makeOp(OpKind::ULt, i1, {4, 0})};
  inner.phis = {{"j", 1, 4, i32}};
  inner.continueCond = 5;
  inner.liveOuts = {4};
  k.loops = {outer, inner};
  ir::buildStructure(k);
  return k;
}

} // namespace

TEST_CASE("types: bits of any width, floats distinct from bits, vectors, none") {
  CHECK(ir::typeName(Type::bits(32)) == "i32");
  CHECK(ir::typeName(Type::f16()) == "f16");
  CHECK(ir::typeName(Type::vector(Type::f32(), 4)) == "<4 x f32>");
  CHECK(ir::typeName(Type::none()) == "none");
  CHECK(Type::f32() != Type::bits(32));
  CHECK(Type::f32().width() == 32);
  CHECK(Type::vector(Type::bits(8), 64).width() == 512);
  CHECK(Type::vector(Type::bits(8), 64).lane() == Type::bits(8));
  CHECK(Type::bits(0) == Type::none());
  CHECK(Type::bits(1).isBool());
  for (Type t : {Type::bits(1), Type::bits(64), Type::bits(4096), Type::bits(ir::kMaxTypeBits), Type::f64(),
                 Type::vector(Type::bits(32), 16)})
    CHECK_MESSAGE(ir::typeProblem(t).empty(), ir::typeName(t));
  CHECK(contains(ir::typeProblem(Type::bits(ir::kMaxTypeBits + 1)), "not in 1.."));
  CHECK(contains(ir::typeProblem(Type::floating(24)), "no 24-bit floating-point type"));
  CHECK(contains(ir::typeProblem(Type::vector(Type::bits(8), 1)), "1 lanes"));
  CHECK(contains(ir::typeProblem(Type::vector(Type::bits(4096), 32)), "above"));
}

TEST_CASE("the operation table lists every kind once, with its rules") {
  std::set<std::string> names;
  size_t kinds = 0;
#define OP(name, operands, result, effect, cls)                                                              \
  ++kinds;                                                                                                   \
  CHECK(std::string(ir::opKindName(OpKind::name)) == #name);
#include "ir/ops.def"
#undef OP
  for (size_t i = 0; i < kinds; ++i) {
    const ir::OpInfo& info = ir::opInfo(static_cast<OpKind>(i));
    CHECK(names.insert(info.name).second);
    // Comparisons and only they yield a bool of their own; side effects are exactly Store, the calls,
    // the task operations and a barrier (while lowering).
    CHECK((info.opClass == ir::OpClass::Compare) == (info.result == ir::ResultRule::Bool));
    const auto k = static_cast<OpKind>(i);
    CHECK(info.sideEffect == (k == OpKind::Store || k == OpKind::LoopCall || k == OpKind::Call ||
                              k == OpKind::TaskAsync || k == OpKind::TaskGet || k == OpKind::TaskRelease ||
                              k == OpKind::Barrier));
  }
  CHECK(names.size() == kinds);
  CHECK(ir::opInfo(OpKind::Phi).operands == ir::kVariadic);
  CHECK(ir::opInfo(OpKind::Select).operands == 3);
  CHECK(ir::opInfo(OpKind::UDiv).opClass == ir::OpClass::Divide);
  CHECK(std::string(ir::opClassName(ir::opInfo(OpKind::Mul).opClass)) == "multiply");
  CHECK_THROWS_AS(ir::opInfo(static_cast<OpKind>(kinds)), InternalError);
}

TEST_CASE("the verifier applies the table's type rules") {
  SUBCASE("well-typed ops, a 128-bit constant and a vector select pass") {
    OneBlock b;
    const ir::ValueId x = b.add(makeOp(OpKind::Const, Type::bits(32), {}, 5));
    b.add(makeOp(OpKind::Add, Type::bits(32), {x, x}));
    ir::Op wide = makeOp(OpKind::Const, Type::bits(128), {}, ~0ull);
    wide.immHigh = {0x1234};
    b.add(wide);
    const ir::ValueId c = b.add(makeOp(OpKind::Const, Type::bits(1), {}, 1));
    const ir::ValueId v = b.add(makeOp(OpKind::Undef, Type::vector(Type::bits(32), 4)));
    b.add(makeOp(OpKind::Select, Type::vector(Type::bits(32), 4), {c, v, v}));
    CHECK(b.verify() == "");
    CHECK(contains(ir::printKernel(b.k), "Const i128 0x1234ffffffffffffffff"));
    CHECK(contains(ir::printKernel(b.k), "Select <4 x i32>"));
  }
  SUBCASE("operands of another type") {
    OneBlock b;
    const ir::ValueId x = b.add(makeOp(OpKind::Const, Type::bits(32), {}, 5));
    const ir::ValueId y = b.add(makeOp(OpKind::Const, Type::bits(16), {}, 5));
    b.add(makeOp(OpKind::Xor, Type::bits(32), {x, y}));
    CHECK(contains(b.verify(), "Xor operand has type i16, expected i32"));
  }
  SUBCASE("a store with a result") {
    OneBlock b;
    const ir::ValueId off = b.add(makeOp(OpKind::Const, Type::bits(64)));
    const ir::ValueId x = b.add(makeOp(OpKind::Const, Type::bits(32), {}, 5));
    ir::Op st = makeOp(OpKind::Store, Type::bits(32), {off, x, kNone});
    st.size = 4;
    b.add(st);
    CHECK(contains(b.verify(), "Store has no result"));
  }
  SUBCASE("wide constants need all their words, and no bits above the width") {
    OneBlock b;
    ir::Op wide = makeOp(OpKind::Const, Type::bits(100), {}, 1);
    b.add(wide);
    CHECK(contains(b.verify(), "a 100-bit constant has 1 words, expected 2"));
    b.k.ops[0].immHigh = {1ull << 36};
    CHECK(contains(b.verify(), "does not fit in 100 bits"));
    b.k.ops[0].immHigh = {1ull << 35};
    CHECK(b.verify() == "");
  }
  SUBCASE("one op breaking one rule") {
    struct Case {
      OpKind kind;
      Type result, operand;
      size_t operands;
      const char* message;
    };
    for (const Case& c :
         {Case{OpKind::Add, Type::f32(), Type::f32(), 2, "Add computes on bits, not f32"},
          Case{OpKind::SLt, Type::bits(32), Type::bits(32), 2, "SLt yields 1 bit"},
          Case{OpKind::Select, Type::bits(8), Type::bits(8), 3, "condition has type i8, expected i1"},
          Case{OpKind::ZExt, Type::bits(16), Type::bits(32), 1, "ZExt from i32 to i16"},
          Case{OpKind::Neg, Type::bits(32), Type::bits(32), 2, "Neg takes 1 operands, has 2"}}) {
      OneBlock b;
      const ir::ValueId x = b.add(makeOp(OpKind::Undef, c.operand));
      b.add(makeOp(c.kind, c.result, std::vector<ir::ValueId>(c.operands, x)));
      CHECK_MESSAGE(contains(b.verify(), c.message), c.message);
    }
  }
}

TEST_CASE("checkHardwareSupport rejects what the hardware cannot build yet, naming op and location") {
  // Lowering's output is buildable.
  for (auto [file, kernel] :
       {std::pair{"vadd.spv", "vadd"}, {"nest.spv", "matvec"}, {"misc.spv", "localarr"}})
    CHECK_NOTHROW(ir::checkHardwareSupport(lowerFile(file, kernel)));

  const SourceLoc at{"k.cl", 0, 7, 3, true};
  SUBCASE("a 128-bit value") {
    OneBlock b;
    ir::Op wide = makeOp(OpKind::Const, Type::bits(128), {}, 1);
    wide.immHigh = {0};
    wide.loc = at;
    wide.name = "big";
    b.add(wide);
    REQUIRE(b.verify() == "");
    const std::string e = hardwareError(b.k);
    CHECK(contains(e, "k.cl:7:3"));
    CHECK(contains(e, "Const %big"));
    CHECK(contains(e, "a value of type i128"));
    CHECK(contains(e, "not supported yet"));
    // Scheduling begins with the check.
    CHECK_THROWS_WITH_AS(sched::scheduleKernel(b.k, {}), doctest::Contains("not supported yet"),
                         DiagnosticError);
  }
  SUBCASE("floating point and vectors") {
    OneBlock b;
    ir::Op f = makeOp(OpKind::Undef, Type::f32());
    f.loc = at;
    b.add(f);
    CHECK(contains(hardwareError(b.k), "a value of type f32"));
    b.k.ops[0].type = Type::vector(Type::bits(8), 4);
    CHECK(contains(hardwareError(b.k), "a value of type <4 x i8>"));
    b.k.ops.clear();
    b.k.blocks[0].ops.clear();
    b.k.args[1].type = Type::f64();
    CHECK(contains(hardwareError(b.k), "kernel argument n: an argument of type f64 is not supported yet"));
  }
  SUBCASE("wider ports, task processes and channels (work-group memories are built)") {
    OneBlock b;
    ir::buildStructure(b.k);
    CHECK(hardwareError(b.k) == "");
    b.k.memories.emplace_back();
    b.k.memories.back().kind = ir::Memory::Kind::WorkGroup;
    b.k.memories.back().name = "w";
    CHECK(hardwareError(b.k) == "");
    b.k.memories.pop_back();
    b.k.memories[0].wordBits = 2048;
    CHECK(contains(hardwareError(b.k), "a memory port of 2048 bits (ports carry 64 to 1024)"));
    b.k.memories[0].wordBits = 32;
    CHECK(contains(hardwareError(b.k), "a memory port of 32 bits"));
    b.k.memories[0].wordBits = 64;
  }
  SUBCASE("an inner loop inside a pipelined loop is built (a sub-pipeline)") {
    ir::Kernel k = nestedLoopsKernel();
    CHECK(hardwareError(k) == "");
  }
}

TEST_CASE("the region tree of a loop nest: every loop, pipelined or not, with its controls") {
  // The outer loop asks for II 2: it is pipelined around its inner loop, which its body runs.
  ir::Kernel k = lowerFile("nest_controls.spvasm", "matvec");
  REQUIRE(k.loops.size() == 2);
  REQUIRE(k.regions.size() == 3);
  const ir::Region& root = k.regions[0];
  CHECK(root.kind == ir::Region::Kind::Process);
  CHECK(root.depth == 0);
  CHECK(root.blocks.size() == k.blocks.size());
  REQUIRE(root.children == std::vector<uint32_t>{1});
  const ir::Region& outer = k.regions[1];
  CHECK(outer.kind == ir::Region::Kind::Loop);
  CHECK(outer.loop == 1u);
  CHECK(outer.name == "for.cond");
  CHECK(outer.depth == 1);
  CHECK(k.blocks[outer.header].loopCall == 1u);
  REQUIRE(ir::regionControls(k, outer) == &k.loops[1].controls);
  CHECK(k.loops[1].controls.ii == 2u);
  REQUIRE(outer.children == std::vector<uint32_t>{2});
  const ir::Region& inner = k.regions[2];
  CHECK(inner.loop == 0u);
  CHECK(inner.parent == 1u);
  CHECK(inner.depth == 2);
  CHECK(k.loops[0].depth == 2);
  CHECK(inner.header == ir::kNoBlock);
  CHECK(inner.blocks.empty());
  CHECK(ir::loopCallers(k.loops) == std::vector<int>{1, -1});
  CHECK(ir::regionControls(k, inner) == &k.loops[0].controls);
  CHECK(ir::regionControls(k, root) == nullptr);
  // The kernel's one process runs the root.
  REQUIRE(k.processes.size() == 1);
  CHECK(k.processes[0].kind == ir::Process::Kind::Kernel);
  CHECK(k.processes[0].name == "matvec");
  CHECK(k.processes[0].region == 0);
  CHECK(k.channels.empty());
  const std::string s = ir::printKernel(k);
  CHECK(contains(s, "process0 matvec: kernel, runs region0"));
  CHECK(contains(s, "region0 matvec: process0 top level, depth 0"));
  CHECK(contains(s, "\n    region1 for.cond: loop, pipelined as loop1, header bb"));
  CHECK(contains(s, "\n      region2 for.cond1: loop, pipelined as loop0"));
}

TEST_CASE("the verifier checks the region tree, processes and channels") {
  const ir::Kernel good = lowerFile("nest.spv", "matvec");
  auto broken = [good](const char* what, auto&& edit) {
    ir::Kernel k = good;
    edit(k);
    CHECK_THROWS_WITH_AS(ir::verifyKernel(k), doctest::Contains(what), DiagnosticError);
  };
  broken("depth 3 under a parent at depth 1", [](ir::Kernel& k) { k.regions[2].depth = 3; });
  broken("loop0 says depth 1", [](ir::Kernel& k) { k.loops[0].depth = 1; });
  broken("its parent does not list it once", [](ir::Kernel& k) { k.regions[1].children.clear(); });
  broken("has blocks its parent does not",
         [](ir::Kernel& k) { k.regions[2].blocks.insert(k.regions[2].blocks.begin(), 0); });
  broken("a pipelined loop without a region", [](ir::Kernel& k) {
    k.regions.pop_back();
    k.regions[1].children.clear();
  });
  broken("the CFG has 1", [&good](ir::Kernel& k) {
    k.regions.erase(k.regions.begin() + 1, k.regions.end());
    k.regions[0].children.clear();
    ir::Region pipelined = good.regions[2];
    pipelined.parent = 0;
    pipelined.depth = 1;
    k.loops[0].depth = 1;
    k.regions.push_back(pipelined);
    k.regions[0].children = {1};
  });
  broken("a sibling", [](ir::Kernel& k) { // the pipelined loop hung beside the loop that contains it
    k.regions[1].children.clear();
    k.regions[2].parent = 0;
    k.regions[2].depth = 1;
    k.loops[0].depth = 1;
    k.regions[0].children.push_back(2);
  });
  broken("processes[0] must be the kernel's own", [](ir::Kernel& k) { k.processes.clear(); });
  broken("region1 is not its root", [](ir::Kernel& k) { k.processes[0].region = 1; });
  broken("connect two different processes", [](ir::Kernel& k) {
    k.channels.push_back({ir::Channel::Kind::Result, "r", Type::bits(8), 1, 0, 0, {}});
  });
  broken("ports do not match", [](ir::Kernel& k) { k.memories[0].ports.clear(); });
  CHECK_NOTHROW(ir::verifyKernel(good));
}

TEST_CASE("memories carry their kind, word width and ports") {
  const ir::Kernel k = lowerFile("misc.spv", "localarr");
  REQUIRE(k.memories.size() == 3);
  CHECK(k.memories[0].kind == ir::Memory::Kind::Argument);
  CHECK(!k.memories[0].onChip());
  for (const ir::Memory& m : k.memories)
    CHECK(m.wordBits == 64);
  REQUIRE(k.memories[0].ports.size() == 1);
  CHECK(k.memories[0].ports[0].access == ir::PortAccess::ReadWrite); // a[i] read and written
  for (size_t m = 1; m < 3; ++m)
    CHECK(k.memories[m].kind == ir::Memory::Kind::Private);
  REQUIRE(k.memories[1].ports.size() == 1);
  CHECK(k.memories[1].ports[0].access == ir::PortAccess::Read); // t: only its initial contents
  // u: filled, then read; an on-chip RAM with a read port and a write port (LowerOptions::ramPorts)
  REQUIRE(k.memories[2].ports.size() == 2);
  CHECK(k.memories[2].ports[0].access == ir::PortAccess::Read);
  CHECK(k.memories[2].ports[1].access == ir::PortAccess::Write);
  CHECK(contains(ir::printKernel(k), "ports: read, write"));
  CHECK(contains(ir::printKernel(k), "mem1 t: private, 16 bytes, initialised, 64-bit words"));
  const ir::Kernel v = lowerFile("vadd.spv", "vadd");
  CHECK(v.memories[0].ports[0].access == ir::PortAccess::Read);
  CHECK(v.memories[2].ports[0].access == ir::PortAccess::Write);
  CHECK(contains(ir::printKernel(v), "ports: write"));
}

namespace {
// c[off] (16 bytes) = its two 64-bit halves swapped, plus c[off + 16] as one i32 lane (a narrow load of
// bytes the wide store wrote): a wide Load, Extracts, a Concat, a wide Store, then a narrow Load/Store.
struct WideBlock : OneBlock {
  ir::ValueId off, load, lo, hi, cat, st;
  WideBlock() {
    off = add(makeOp(OpKind::Const, Type::bits(64), {}, 16));
    ir::Op ld = makeOp(OpKind::Load, Type::bits(128), {off, kNone});
    ld.size = 16;
    load = add(ld);
    lo = add(makeOp(OpKind::Extract, Type::bits(64), {load}, 0));
    hi = add(makeOp(OpKind::Extract, Type::bits(64), {load}, 64));
    cat = add(makeOp(OpKind::Concat, Type::bits(128), {hi, lo}));
    ir::Op wst = makeOp(OpKind::Store, Type::none(), {off, cat, kNone});
    wst.size = 16;
    st = add(wst);
    const ir::ValueId at = add(makeOp(OpKind::Const, Type::bits(64), {}, 20));
    ir::Op nl = makeOp(OpKind::Load, Type::bits(32), {at, kNone});
    nl.size = 4;
    const ir::ValueId narrow = add(nl);
    const ir::ValueId zero = add(makeOp(OpKind::Const, Type::bits(64), {}, 0));
    ir::Op ns = makeOp(OpKind::Store, Type::none(), {zero, narrow, kNone});
    ns.size = 4;
    add(ns);
  }
};
} // namespace

TEST_CASE("wide values: a vector accessed whole is a wide Load / Store with Extract and Concat") {
  WideBlock b;
  REQUIRE(b.verify() == "");
  CHECK(b.k.memories[0].wordBits == 128); // the port as wide as the widest access
  const std::string text = ir::printKernel(b.k);
  CHECK(contains(text, "Extract i64 %1 [64+:64]"));
  CHECK(contains(text, "Concat i128"));
  CHECK(hardwareError(b.k) == "");
  SUBCASE("the evaluator moves the bytes: lanes swapped, a narrow load of the wide store's bytes") {
    std::vector<uint8_t> c(48);
    for (size_t i = 0; i < c.size(); ++i)
      c[i] = uint8_t(i);
    const ir::EvalResult r = ir::evaluateKernel(b.k, {0, 0}, {c, {}});
    std::vector<uint8_t> want = c;
    for (size_t i = 0; i < 8; ++i)
      want[16 + i] = uint8_t(24 + i), want[24 + i] = uint8_t(16 + i);
    for (size_t i = 0; i < 4; ++i)
      want[i] = want[20 + i];
    CHECK(r.buffers[0] == want);
  }
  SUBCASE("the verifier checks the bit ranges and the port width") {
    b.k.ops[b.hi].imm = 65;
    CHECK(contains(b.verify(), "bits [65, 129) of a 128-bit value"));
    b.k.ops[b.hi].imm = 64;
    b.k.ops[b.cat].type = Type::bits(96);
    CHECK(contains(b.verify(), "128 bits of operands for a 96-bit result"));
    b.k.ops[b.cat].type = Type::bits(128);
    b.k.ops[b.load].size = 12;
    b.k.ops[b.load].type = Type::bits(96);
    CHECK(contains(b.verify(), "access size 12 is not a power of two up to 128"));
    b.k.ops[b.load].size = 16;
    b.k.ops[b.load].type = Type::bits(128);
    REQUIRE(b.verify() == "");
    b.k.memories[0].wordBits = 64;
    ir::verifyKernel(b.k, ir::VerifyLevel::Between); // ports are derived last
    CHECK_THROWS_WITH_AS(ir::verifyKernel(b.k),
                         doctest::Contains("16-byte access wider than the memory's 64-bit words"),
                         DiagnosticError);
  }
  SUBCASE("hardware computes on no wide value") {
    b.add(makeOp(OpKind::Not, Type::bits(128), {b.load}));
    REQUIRE(b.verify() == "");
    CHECK(contains(hardwareError(b.k), "an operation on a 128-bit value (only wide loads and stores are)"));
  }
}

TEST_CASE("a pipelined loop's body may call an inner loop: verified, evaluated, in the region tree") {
  ir::Kernel k = nestedLoopsKernel();
  CHECK_NOTHROW(ir::verifyKernel(k));
  REQUIRE(k.regions.size() == 3);
  CHECK(k.regions[1].loop == 0u);
  CHECK(k.regions[2].loop == 1u);
  CHECK(k.regions[2].parent == 1u);
  CHECK(k.regions[2].header == ir::kNoBlock);
  CHECK(k.loops[1].depth == 2);
  ir::EvalResult r = ir::evaluateKernel(k, {0, 3}, {std::vector<uint8_t>(12, 0), {}});
  CHECK(r.buffers[0] == std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0});
  CHECK(r.loopIterations == std::vector<uint64_t>{3, 1 + 2 + 3});
  // The inner loop's live-ins are values of the outer body, computed before the call.
  ir::Kernel bad = k;
  bad.loops[1].liveIns = {7, 1};
  bad.loops[0].ops[5].operands = {7, 1, kNone};
  CHECK_THROWS_WITH_AS(ir::verifyKernel(bad), doctest::Contains("operand %7 is not defined before its use"),
                       DiagnosticError);
  bad.loops[1].liveIns = {2, 0}; // i32 values of the outer body, as the inner loop's live-ins expect
  bad.loops[0].ops[5].operands = {2, 0, kNone};
  CHECK_NOTHROW(ir::verifyKernel(bad));
  bad.loops[0].ops[5].operands = {2, 0}; // no predicate
  CHECK_THROWS_WITH_AS(ir::verifyKernel(bad), doctest::Contains("operands differ from the loop's live-ins"),
                       DiagnosticError);
  bad.loops[0].ops[5].operands = {2, 0, 3}; // a predicate that is no i1
  CHECK_THROWS_WITH_AS(ir::verifyKernel(bad), doctest::Contains("its predicate is not an i1"),
                       DiagnosticError);
  ir::Kernel twice = k;
  twice.ops[2].index = 1; // the CFG calls the inner loop too
  CHECK_THROWS_AS(ir::verifyKernel(twice), DiagnosticError);
}

TEST_CASE("FFma folds as the interpreter computes fma and runs on the fma unit") {
  auto fma = [](uint32_t w, uint64_t a, uint64_t b, uint64_t c) {
    return ir::lower::foldConstant(OpKind::FFma, w, {a, b, c}, w).value();
  };
  // Rounded once: (1 + 2^-22)^2 - 1 keeps its 2^-44, which a multiply then add would round away.
  CHECK(fma(32, 0x3f800002, 0x3f800002, 0xbf800000) == 0x35000001);
  CHECK(fma(64, 0x3ff0000000400000, 0x3ff0000000400000, 0xbff0000000000000) == 0x3e20000000200000);
  // f16 in double, one rounding: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20 is a tie, to even.
  CHECK(fma(16, 0x3c01, 0x3c01, 0xbc00) == 0x1800);
  CHECK(fma(16, 0x3c01, 0x3c01, 0x0000) == 0x3c02); // 1 + 2^-9 + 2^-20: the tie breaks up
  // NaNs: the first of a, b, c, quieted, sign and payload kept; 0 * inf the default NaN.
  CHECK(fma(32, 0x3f800000, 0x7fc00001, 0xff800002) == 0x7fc00001);
  CHECK(fma(32, 0xff800005, 0x7fc00001, 0x7fc00003) == 0xffc00005);
  CHECK(fma(16, 0x3c00, 0x3c00, 0x7d01) == 0x7f01);
  CHECK(fma(64, 0, 0x7ff0000000000000, 0x3ff0000000000000) == 0xfff8000000000000);
  CHECK(fma(32, 0x80000000, 0x3f800000, 0x80000000) == 0x80000000); // -0 * 1 + -0
  // The operator library's unit, one per width.
  sched::OperatorLibrary lib;
  for (auto [w, latency] : {std::pair<uint32_t, uint32_t>{16, 5}, {32, 5}, {64, 7}}) {
    ir::Op op = makeOp(OpKind::FFma, Type::bits(w));
    const sched::Unit u = lib.unit(op);
    CHECK(u.latency == latency);
    CHECK(u.build == sched::UnitBuild::Instance);
    CHECK(u.module == "spvhls_ffma_" + std::to_string(w));
  }
}
