// Loop transformations by loop controls (ir/lower_loop_transform.cpp): the IR they leave (which loops
// remain and are pipelined, the controls' statuses, the report's transformations) and its meaning (the
// IR evaluator against the golden interpreter over trip counts around the unroll factors, breaks and
// values read after the loops). Kernels: tests/unit/data/lower/transforms.cl.
#include <doctest/doctest.h>

#include "lower_test_util.h"

using namespace lower_test;

namespace {

using S = ir::LoopControlRequest::Status;

// The module as text with `mask literals...` replacing the loop controls of its `index`-th
// OpLoopMerge (in the order the module lists them), and the capability the INTEL controls need.
Loaded withControls(const std::string& spv, size_t index, const std::string& controls) {
  std::string text = spirv::writeText(spirv::readModuleFile(dataPath(spv)));
  size_t at = 0;
  for (size_t i = 0; i <= index; ++i) {
    at = text.find("OpLoopMerge", at + 1);
    REQUIRE(at != std::string::npos);
  }
  const size_t eol = text.find('\n', at);
  // OpLoopMerge %merge %continue <controls>: keep the two labels.
  size_t labels = at;
  for (int w = 0; w < 3; ++w)
    labels = text.find(' ', labels + 1);
  text.replace(labels + 1, eol - labels - 1, controls);
  const size_t cap = text.find("OpCapability Kernel");
  REQUIRE(cap != std::string::npos);
  text.insert(cap, "OpCapability FPGALoopControlsINTEL\n");
  const size_t ext = text.rfind('\n', text.find("OpExtInstImport"));
  text.insert(ext + 1, "OpExtension \"SPV_INTEL_fpga_loop_controls\"\n");
  return loadText(text);
}

const ir::LoopControlRequest* findRequest(const ir::Kernel& k, const std::string& name) {
  for (const ir::Loop& lp : k.loops)
    if (const auto* r = request(lp.controls, name)) return r;
  for (const ir::BasicBlock& b : k.blocks)
    if (b.loopControls)
      if (const auto* r = request(*b.loopControls, name)) return r;
  return nullptr;
}

bool transformed(const ir::Kernel& k, const std::string& control) {
  for (const ir::LoopTransform& t : k.loopTransforms)
    if (t.control.rfind(control, 0) == 0) return true;
  return false;
}

} // namespace

TEST_CASE("Unroll: a constant trip count with a break is unrolled away; every copy's exit joins") {
  Loaded l = loadFile("transforms.spv");
  ir::Kernel k = lower(l, "full_brk");
  CHECK(k.loops.empty());
  CHECK(transformed(k, "Unroll"));
  for (const auto& a :
       {std::vector<int32_t>{1, 2, 3, 4, 5}, {1, -2, 3, 4, 5}, {-1, 0, 0, 0, 0}, {5, 4, 3, 2, -1}})
    runBoth(l, k, {ints("a", a), ints("out", {0, 0})});
}

TEST_CASE("PartialCount 3: trip counts around the factor, breaks in any copy, values after the loop") {
  Loaded l = loadFile("transforms.spv");
  ir::Kernel k = lower(l, "partial_brk");
  REQUIRE(k.loops.size() == 1);
  const auto* r = request(k.loops[0].controls, "PartialCount");
  REQUIRE(r);
  CHECK(r->status == S::Honoured);
  // Three copies of the body, each loading a[i] twice (-O0 code reloads it).
  CHECK(countKind(k.loops[0].ops, OpKind::Load) == 6);
  const std::vector<int32_t> a = pseudoRandom(16, 3, 0, 6);
  for (int n = 0; n <= 10; ++n) {
    runBoth(l, k, {ints("a", a), ints("out", {0, 0}), scalar("n", n)});
    std::vector<int32_t> b = a;
    b[std::min(n, 5)] = 7; // a break in a later copy
    runBoth(l, k, {ints("a", b), ints("out", {0, 0}), scalar("n", n)});
  }
}

TEST_CASE("PartialCount 2 on a do-while, and Unroll of an inner loop making its parent innermost") {
  Loaded l = loadFile("transforms.spv");
  {
    ir::Kernel k = lower(l, "dowhile2");
    REQUIRE(k.loops.size() == 1);
    for (int n : {1, 2, 3, 4, 7})
      runBoth(l, k, {ints("a", pseudoRandom(8, 5, -50, 50)), scalar("n", n)});
  }
  ir::Kernel k = lower(l, "nest_inner");
  REQUIRE(k.loops.size() == 1); // the row loop, pipelined: the tap loop is gone
  CHECK(countKind(k.loops[0].ops, OpKind::Load) == 4);
  for (int rows : {0, 1, 5})
    runBoth(l, k,
            {ints("a", pseudoRandom(20, 7, -99, 99)), ints("out", std::vector<int32_t>(5, 0)),
             scalar("rows", rows)});
}

TEST_CASE("LoopCoalesceINTEL 2: an imperfect triangular nest becomes one pipelined loop") {
  // nest_coalesce's row loop has the module's fifth OpLoopMerge.
  Loaded l = withControls("transforms.spv", 4, "PartialCount|LoopCoalesceINTEL 1 2");
  ir::Kernel k = lower(l, "nest_coalesce");
  REQUIRE(k.loops.size() == 1);
  CHECK(k.loops[0].depth == 1);
  const auto* r = request(k.loops[0].controls, "LoopCoalesceINTEL");
  REQUIRE(r);
  CHECK(r->status == S::Honoured);
  CHECK(transformed(k, "LoopCoalesceINTEL 2"));
  const std::vector<int32_t> a = pseudoRandom(64, 9, -500, 500);
  for (auto [rows, cols] : {std::pair{0, 3}, {1, 0}, {3, 0}, {4, 1}, {5, 4}})
    runBoth(
        l, k,
        {ints("a", a), ints("out", std::vector<int32_t>(8, 0)), scalar("rows", rows), scalar("cols", cols)});
}

TEST_CASE("PeelCount 2 with LoopCoalesceINTEL 0 (all levels) on the same loop") {
  Loaded l = withControls("transforms.spv", 4, "PeelCount|PartialCount|LoopCoalesceINTEL 2 1 0");
  ir::Kernel k = lower(l, "nest_coalesce");
  const auto* peel = findRequest(k, "PeelCount");
  REQUIRE(peel);
  CHECK(peel->status == S::Honoured);
  CHECK(transformed(k, "PeelCount 2"));
  CHECK(transformed(k, "LoopCoalesceINTEL 0"));
  const std::vector<int32_t> a = pseudoRandom(64, 11, -500, 500);
  for (auto [rows, cols] : {std::pair{0, 3}, {1, 2}, {2, 0}, {3, 2}, {6, 3}})
    runBoth(
        l, k,
        {ints("a", a), ints("out", std::vector<int32_t>(8, 0)), scalar("rows", rows), scalar("cols", cols)});
}

TEST_CASE("Unroll without a constant trip count and LoopCoalesceINTEL without an inner loop say why") {
  Loaded l = withControls("transforms.spv", 1, "Unroll|LoopCoalesceINTEL 2");
  ir::Kernel k = lower(l, "partial_brk");
  REQUIRE(k.loops.size() == 1);
  const auto* full = request(k.loops[0].controls, "Unroll");
  REQUIRE(full);
  CHECK(full->status == S::Ignored);
  CHECK(full->note.find("not known at compile time") != std::string::npos);
  const auto* co = request(k.loops[0].controls, "LoopCoalesceINTEL");
  REQUIRE(co);
  CHECK(co->status == S::Ignored);
  CHECK(co->note == "no inner loop to coalesce");
  runBoth(l, k, {ints("a", {1, 2, 3, 7, 5}), ints("out", {0, 0}), scalar("n", 5)});
}

TEST_CASE(
    "hints: MinIterations with PeelCount, MaxIterations with Unroll, IterationMultiple with PartialCount") {
  // hinted's loop has the module's sixth OpLoopMerge.
  auto check = [&](const std::string& controls, const char* hint, std::vector<int> trips, size_t loops) {
    Loaded l = withControls("transforms.spv", 5, controls);
    ir::Kernel k = lower(l, "hinted");
    CAPTURE(controls);
    CHECK(k.loops.size() == loops);
    bool used = false;
    for (const ir::LoopTransform& t : k.loopTransforms)
      used = used || t.what.find(hint) != std::string::npos;
    CHECK(used);
    for (int n : trips)
      runBoth(l, k, {ints("a", pseudoRandom(12, uint32_t(n), -99, 99)), scalar("n", n)});
  };
  check("MinIterations|PeelCount 2 3", "MinIterations 2", {2, 3, 4, 7}, 1);
  check("Unroll|MaxIterations 5", "MaxIterations 5", {0, 1, 4, 5}, 0);
  check("IterationMultiple|PartialCount 4 2", "IterationMultiple 4", {0, 4, 8}, 1);
  // Without the exit in the header alone a hint is not used, and the report says so.
  Loaded l = withControls("transforms.spv", 1, "MaxIterations|PartialCount 5 2");
  ir::Kernel k = lower(l, "partial_brk");
  REQUIRE(k.loops.size() == 1);
  const auto* r = request(k.loops[0].controls, "MaxIterations");
  REQUIRE(r);
  CHECK(r->status == S::Ignored);
}

TEST_CASE("LoopCoalesceINTEL 2 on a nest whose inner trip count is loaded before the inner loop") {
  Loaded l = withControls("transforms.spv", 6, "LoopCoalesceINTEL 2");
  ir::Kernel k = lower(l, "ragged");
  REQUIRE(k.loops.size() == 1);
  const std::vector<int32_t> lens{3, 0, 1, 4, 2}, starts{0, 3, 3, 4, 8};
  runBoth(l, k,
          {ints("len", lens), ints("start", starts), ints("val", pseudoRandom(10, 3, -50, 50)),
           ints("out", std::vector<int32_t>(5, 0)), scalar("rows", 5)});
}

TEST_CASE("a loop containing another runs in the FSM: serial requests hold, concurrency > 1 is ignored") {
  auto status = [&](const std::string& controls, const char* name) {
    Loaded l = withControls("transforms.spv", 4, controls);
    ir::Kernel k = lower(l, "nest_coalesce");
    const auto* r = findRequest(k, name);
    REQUIRE(r);
    return r->status;
  };
  CHECK(status("MaxConcurrencyINTEL|PipelineEnableINTEL 1 0", "MaxConcurrencyINTEL") == S::Honoured);
  CHECK(status("MaxConcurrencyINTEL|PipelineEnableINTEL 1 0", "PipelineEnableINTEL") == S::Honoured);
  CHECK(status("MaxConcurrencyINTEL 2", "MaxConcurrencyINTEL") == S::Ignored);
  CHECK(status("PipelineEnableINTEL 1", "PipelineEnableINTEL") == S::Ignored);
}
