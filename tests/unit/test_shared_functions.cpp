// Shared functions (--inline, issue 11): which called functions lowering keeps as one shared unit
// (an FSM subroutine) under each policy and why, the IR they become (Call and Param ops, a root of the
// CFG per function), that the IR evaluator still computes what the interpreter computes, and what the
// verifier rejects. The hardware is simulated by e2e.regress.shared_fn.never.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "frontend/diagnostics.h"
#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

using namespace spvhls;
using ir::OpKind;

namespace {

using testutil::Kernel;

// tests/e2e/regress/shared_fn.cl as the build compiled it (clang-15 -O0 + llvm-spirv-15).
const Kernel& sharedFn() {
  static const Kernel k = Kernel::fromFile(std::string(SPVHLS_BINARY_DIR) + "/regress/shared_fn.spv");
  return k;
}

ir::Kernel lowerWith(ir::InlinePolicy policy) {
  ir::LowerOptions o;
  o.inlinePolicy = policy;
  ir::Kernel k = ir::lowerKernel(*sharedFn().view, "shared_fn", o);
  ir::verifyKernel(k);
  return k;
}

const ir::InlineDecision& decision(const ir::Kernel& k, const std::string& name) {
  auto it = std::find_if(k.inlining.begin(), k.inlining.end(), [&](auto& d) { return d.name == name; });
  REQUIRE_MESSAGE(it != k.inlining.end(), "no decision for " << name);
  return *it;
}

std::vector<std::string> sharedNames(const ir::Kernel& k) {
  std::vector<std::string> names;
  for (const ir::Function& f : k.functions)
    names.push_back(f.name);
  std::sort(names.begin(), names.end());
  return names;
}

size_t count(const ir::Kernel& k, OpKind kind) {
  return size_t(std::count_if(k.ops.begin(), k.ops.end(), [&](const ir::Op& op) { return op.kind == kind; }));
}

// The IR evaluator against the golden interpreter on the regression's run spec: `out` must agree.
void checkAgainstInterpreter(const ir::Kernel& k) {
  const std::string path = std::string(SPVHLS_SOURCE_DIR) + "/tests/e2e/regress/shared_fn.run.json";
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const sim::RunSpec spec = sim::parseRunSpec(text, path);
  const sim::InterpResult golden = sharedFn().run(spec);
  std::vector<uint64_t> scalars;
  std::vector<std::vector<uint8_t>> buffers;
  for (const auto& a : spec.args) {
    scalars.push_back(a.scalar);
    buffers.push_back(a.isBuffer ? a.init : std::vector<uint8_t>{});
  }
  const ir::EvalResult r = ir::evaluateKernel(k, scalars, buffers);
  CHECK(r.buffers.at(0) == golden.buffers.at(0));
}

// Blocks reachable from `entry` through branches (a shared function's part of the CFG).
std::vector<uint32_t> partOf(const ir::Kernel& k, uint32_t entry) {
  std::vector<uint32_t> seen{entry}, work{entry};
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t t : k.blocks[b].term.targets)
      if (std::find(seen.begin(), seen.end(), t) == seen.end()) seen.push_back(t), work.push_back(t);
  }
  return seen;
}

} // namespace

TEST_CASE("--inline never: every function with scalar parameters is one shared unit") {
  const ir::Kernel k = lowerWith(ir::InlinePolicy::Never);
  CHECK(k.inlinePolicy == "never");
  CHECK(sharedNames(k) == std::vector<std::string>{"bump", "keep", "mix", "pick", "seven", "twice"});
  // note() takes the output pointer: inlined, and the report says why.
  const ir::InlineDecision& note = decision(k, "note");
  CHECK_FALSE(note.shared);
  CHECK(note.callSites == 3);
  testutil::checkContains(note.reason, "a shared unit takes scalars only");
  // mix is called twice by the kernel, once in its loop and twice by twice(), which is shared: 5 calls.
  const ir::InlineDecision& mix = decision(k, "mix");
  CHECK(mix.shared);
  CHECK(mix.callSites == 5);
  CHECK(count(k, OpKind::Call) == 5 + 2 + 1 + 2 + 2 + 2); // mix, twice, bump, pick, seven, keep
  // keep(): nobody reads its result, and it never reads its second parameter: it returns nothing and
  // its calls pass an undefined value there.
  const ir::Function& keep =
      *std::find_if(k.functions.begin(), k.functions.end(), [](auto& f) { return f.name == "keep"; });
  CHECK(keep.result.isNone());
  for (const ir::Op& op : k.ops)
    if (op.kind == OpKind::Call && k.functions[op.index].name == "keep")
      CHECK(k.ops[op.operands[1]].kind == OpKind::Undef);
  for (const ir::Function& f : k.functions) {
    CAPTURE(f.name);
    // Its entry is a root: nothing branches to it; its parameters are Params there (unused ones
    // removed as dead code).
    for (const ir::BasicBlock& b : k.blocks)
      CHECK(std::find(b.term.targets.begin(), b.term.targets.end(), f.entry) == b.term.targets.end());
    for (ir::ValueId v : k.blocks[f.entry].ops)
      if (k.ops[v].kind == OpKind::Param) CHECK(k.ops[v].type == f.params.at(k.ops[v].index));
    // Every Return in its part returns its result type.
    for (uint32_t b : partOf(k, f.entry))
      if (k.blocks[b].term.kind == ir::Terminator::Kind::Return)
        CHECK((k.blocks[b].term.cond == ir::kNone ? ir::Type::none() : k.ops[k.blocks[b].term.cond].type) ==
              f.result);
  }
  // The kernel's loop calls mix: it stays in the FSM, and says why; mix's own loop is pipelined.
  bool reported = false;
  for (const ir::BasicBlock& b : k.blocks)
    if (b.notPipelinedReason.find("calls mix, a shared function") != std::string::npos) reported = true;
  CHECK(reported);
  CHECK(k.loops.size() == 1);
  checkAgainstInterpreter(k);
  const std::string dump = ir::printKernel(k);
  testutil::checkContains(dump, "mix(i32, i32) -> i32: shared, entry bb");
  testutil::checkContains(dump, "Call i32 fn");
}

TEST_CASE("--inline auto shares only what would copy many instructions, outside innermost loops") {
  const ir::Kernel k = lowerWith(ir::InlinePolicy::Auto);
  CHECK(k.functions.empty());
  CHECK(count(k, OpKind::Call) == 0);
  // mix brings a loop of its own into the kernel's loop, which is then not innermost: too small to
  // share all the same.
  testutil::checkContains(decision(k, "mix").reason, "its 6 more copies add");
  testutil::checkContains(decision(k, "bump").reason, "called once");
  const ir::InlineDecision& twice = decision(k, "twice");
  CHECK(twice.callSites == 2);
  CHECK(twice.instructions > decision(k, "mix").instructions); // mix inlined into it, twice
  testutil::checkContains(twice.reason, "its 1 more copies add");
  // Each of the 7 copies of mix's loop is pipelined (the kernel's loop holds one and stays in the FSM).
  CHECK(k.loops.size() == 7);
  checkAgainstInterpreter(k);
}

TEST_CASE("--inline always inlines every call") {
  const ir::Kernel k = lowerWith(ir::InlinePolicy::Always);
  CHECK(k.functions.empty());
  for (const ir::InlineDecision& d : k.inlining) {
    CHECK_FALSE(d.shared);
    CHECK(d.reason == "--inline always");
  }
  checkAgainstInterpreter(k);
}

TEST_CASE("verifyKernel rejects broken shared functions") {
  const ir::Kernel good = lowerWith(ir::InlinePolicy::Never);
  const ir::Function& twice =
      *std::find_if(good.functions.begin(), good.functions.end(), [](auto& f) { return f.name == "twice"; });
  const uint32_t twiceIndex = uint32_t(&twice - good.functions.data());
  auto firstCall = [&](const ir::Kernel& k) {
    return ir::ValueId(
        std::find_if(k.ops.begin(), k.ops.end(), [](auto& op) { return op.kind == OpKind::Call; }) -
        k.ops.begin());
  };
  auto broken = [&](const char* what, auto&& edit) {
    ir::Kernel k = good;
    edit(k);
    const std::string e = testutil::errorOf([&] { ir::verifyKernel(k); });
    CHECK_MESSAGE(e.find(what) != std::string::npos, e);
  };
  broken("arguments for the", [&](ir::Kernel& k) { k.ops[firstCall(k)].operands.pop_back(); });
  broken("does not exist", [&](ir::Kernel& k) { k.ops[firstCall(k)].index = 99; });
  broken("a call must end its block", [&](ir::Kernel& k) {
    const uint32_t b = k.ops[firstCall(k)].block;
    ir::Op c;
    c.kind = OpKind::Const;
    c.type = ir::Type::bits(8);
    c.block = b;
    k.blocks[b].ops.push_back(ir::ValueId(k.ops.size()));
    k.ops.push_back(c);
  });
  broken("branches to an entry block", [&](ir::Kernel& k) {
    k.blocks[0].term = ir::Terminator{ir::Terminator::Kind::Branch, ir::kNone, {twice.entry}, {}, {}};
  });
  broken("returns", [&](ir::Kernel& k) {
    for (uint32_t b : partOf(k, twice.entry))
      if (k.blocks[b].term.kind == ir::Terminator::Kind::Return) k.blocks[b].term.cond = ir::kNone;
  });
  broken("recursion", [&](ir::Kernel& k) {
    for (uint32_t b : partOf(k, twice.entry))
      for (ir::ValueId v : k.blocks[b].ops)
        if (k.ops[v].kind == OpKind::Call) {
          k.ops[v].index = twiceIndex; // twice calls itself
          k.ops[v].operands.resize(1);
        }
  });
  CHECK_NOTHROW(ir::verifyKernel(good));
}

TEST_CASE("recursion through a shared function is rejected when lowering") {
  const Kernel r = Kernel::fromFile(std::string(SPVHLS_SOURCE_DIR) + "/tests/unit/data/lower/recursion.spv");
  ir::LowerOptions o;
  o.inlinePolicy = ir::InlinePolicy::Never;
  const std::string e = testutil::errorOf([&] { ir::lowerKernel(*r.view, "recursion", o); });
  testutil::checkContains(e, "recursion is not supported in hardware");
  testutil::checkContains(e, "fact -> fact");
}
