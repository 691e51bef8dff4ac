// Loop transformations by loop controls (ir/lower_loop_transform.cpp): the IR they leave (which loops
// remain and are pipelined, the controls' statuses, the report's transformations) and its meaning (the
// IR evaluator against the golden interpreter over trip counts around the unroll factors, breaks and
// values read after the loops). Kernels: tests/unit/data/lower/transforms.cl.
#include <algorithm>

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
  // Three copies of the body, each loading a[i] once (-O0 code reloads it; the second load of each
  // copy reuses the first's value, ir/lower_loads.cpp).
  CHECK(countKind(k.loops[0].ops, OpKind::Load) == 3);
  CHECK(k.datapath.reusedLoads >= 3);
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
  // Its four taps a[4y + t] are one 16-byte load (ir/lower_widen.cpp).
  CHECK(countKind(k.loops[0].ops, OpKind::Load) == 1);
  CHECK(k.datapath.widenedAccesses == 4);
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

TEST_CASE("a loop containing another runs in the FSM unless it asks for a pipeline: concurrency > 1 does") {
  auto status = [&](const std::string& controls, const char* name) {
    Loaded l = withControls("transforms.spv", 4, controls);
    ir::Kernel k = lower(l, "nest_coalesce");
    const auto* r = findRequest(k, name);
    REQUIRE(r);
    return r->status;
  };
  CHECK(status("MaxConcurrencyINTEL|PipelineEnableINTEL 1 0", "MaxConcurrencyINTEL") == S::Honoured);
  CHECK(status("MaxConcurrencyINTEL|PipelineEnableINTEL 1 0", "PipelineEnableINTEL") == S::Honoured);
  // These ask for a pipeline: the outer loop becomes one, its inner loop a sub-pipeline.
  CHECK(status("MaxConcurrencyINTEL 2", "MaxConcurrencyINTEL") == S::Honoured);
  CHECK(status("PipelineEnableINTEL 1", "PipelineEnableINTEL") == S::Honoured);
  Loaded l = withControls("transforms.spv", 4, "MaxConcurrencyINTEL 2");
  ir::Kernel k = lower(l, "nest_coalesce");
  REQUIRE(k.loops.size() == 2);
  CHECK(ir::loopCallers(k.loops) == std::vector<int>{1, -1});
  CHECK(k.loops[1].controls.maxConcurrency == 2u);
}

namespace {

// The report's fusion lines: "fused" or "not fused: <reason>" for each adjacent pair.
std::vector<std::string> fusions(const ir::Kernel& k) {
  std::vector<std::string> out;
  for (const ir::LoopTransform& t : k.loopTransforms)
    if (t.control == "fusion")
      out.push_back("fused");
    else if (t.control == "not fused")
      out.push_back("not fused: " + t.what);
  return out;
}

bool mentions(const std::vector<std::string>& lines, const std::string& what) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& s) { return s.find(what) != std::string::npos; });
}

} // namespace

TEST_CASE("fusion: adjacent loops with the same trip count become one, the same element of a buffer shared") {
  Loaded l = loadFile("fusion.spv");
  ir::Kernel k = lower(l, "same_elem");
  CHECK(k.loops.size() == 1);
  CHECK(fusions(k) == std::vector<std::string>{"fused"});
  for (int n : {0, 1, 2, 5, 9})
    runBoth(l, k,
            {ints("a", pseudoRandom(10, uint32_t(n) + 1, -99, 99)), ints("b", std::vector<int32_t>(10, 0)),
             ints("out", {0, 0, 0}), scalar("n", n)});
  // Off by the option: two loops, the pair reported.
  ir::Kernel off =
      ir::lowerKernel(*l.view, "same_elem", ir::LowerOptions{ir::kDefaultOnChipBudget, {}, false});
  CHECK(off.loops.size() == 2);
  CHECK(mentions(fusions(off), "fusion is off"));
}

TEST_CASE("fusion: three loops fused into one, a store between the third and fourth keeps those apart") {
  Loaded l = loadFile("fusion.spv");
  ir::Kernel k = lower(l, "three");
  CHECK(k.loops.size() == 2);
  const auto f = fusions(k);
  CHECK(std::count(f.begin(), f.end(), "fused") == 2);
  CHECK(mentions(f, "the code between the loops (block for.end24) accesses memory"));
  for (int n : {0, 1, 4, 7}) {
    const std::vector<int32_t> z(8, 0);
    runBoth(l, k,
            {ints("a", pseudoRandom(8, uint32_t(n) + 3, -99, 99)), ints("b", z), ints("c", z), ints("d", z),
             ints("out", std::vector<int32_t>(9, 0)), scalar("n", n)});
  }
}

TEST_CASE("fusion: the inner loops of each row are fused; the row loop stays") {
  Loaded l = loadFile("fusion.spv");
  ir::Kernel k = lower(l, "rows");
  REQUIRE(k.loops.size() == 1);
  CHECK(k.loops[0].depth == 2);
  CHECK(fusions(k) == std::vector<std::string>{"fused"});
  for (auto [n, cols] : {std::pair{0, 3}, {3, 0}, {3, 4}}) {
    const std::vector<int32_t> z(12, 0);
    runBoth(l, k,
            {ints("a", pseudoRandom(12, 5, -99, 99)), ints("b", z), ints("c", z), scalar("n", n),
             scalar("cols", cols)});
  }
}

TEST_CASE("fusion: not fused when it would change the result, and the report says why") {
  Loaded l = loadFile("fusion.spv");
  const std::vector<int32_t> a = pseudoRandom(10, 7, -99, 99), z(10, 0);
  struct Case {
    const char* kernel;
    const char* why;
    std::vector<sim::ArgSpec> args;
  };
  const std::vector<Case> cases{
      {"next_elem",
       "memory b is written by one loop and accessed by the other at different elements",
       {ints("a", a), ints("b", z), ints("out", {0}), scalar("n", 8)}},
      {"reads_sum", "reads %s, computed by loop", {ints("a", a), ints("out", z), scalar("n", 8)}},
      {"other_count",
       "the trip counts may differ",
       {ints("a", a), ints("b", z), ints("c", z), scalar("n", 8), scalar("m", 5)}},
      {"breaks",
       "leaves from inside its body",
       {ints("a", a), ints("b", z), ints("out", {0}), scalar("n", 8)}}};
  for (const Case& c : cases) {
    CAPTURE(c.kernel);
    ir::Kernel k = lower(l, c.kernel);
    CHECK(k.loops.size() == 2);
    CHECK(mentions(fusions(k), c.why));
    runBoth(l, k, c.args);
  }
}

TEST_CASE("fusion: NoFusionINTEL on either loop keeps them apart and is honoured") {
  // -O0 code has no OpLoopMerge without a pragma: same_elem's second loop (header for.cond6, the
  // module's first block of that name, %for_cond6 as spirv-dis names it) gets an OpLoopControlINTEL
  // before its header's branch.
  std::string text = spirv::writeText(spirv::readModuleFile(dataPath("fusion.spv")));
  const size_t label = text.find("%for_cond6 = OpLabel");
  REQUIRE(label != std::string::npos);
  const size_t branch = text.rfind('\n', text.find("OpBranchConditional", label));
  text.insert(branch + 1, "OpLoopControlINTEL NoFusionINTEL\n");
  const size_t cap = text.find("OpCapability Kernel");
  text.insert(cap, "OpCapability FPGALoopControlsINTEL\nOpCapability UnstructuredLoopControlsINTEL\n");
  const size_t ext = text.rfind('\n', text.find("OpExtInstImport"));
  text.insert(
      ext + 1,
      "OpExtension \"SPV_INTEL_fpga_loop_controls\"\nOpExtension \"SPV_INTEL_unstructured_loop_controls\"\n");
  Loaded l = loadText(text);
  ir::Kernel k = lower(l, "same_elem");
  CHECK(k.loops.size() == 2);
  CHECK(mentions(fusions(k), "NoFusionINTEL on loop"));
  const auto* r = findRequest(k, "NoFusionINTEL");
  REQUIRE(r);
  CHECK(r->status == S::Honoured);
  runBoth(l, k,
          {ints("a", pseudoRandom(10, 2, -99, 99)), ints("b", std::vector<int32_t>(10, 0)),
           ints("out", {0, 0, 0}), scalar("n", 6)});
}

TEST_CASE("fusion at -O2: rotated loops behind the same guard, fused or not as at -O0") {
  Loaded l = loadFile("fusion_o2.spv");
  struct Case {
    const char* kernel;
    size_t loops;
    std::vector<std::string> fused; // "fused", or a part of the reason
  };
  for (const Case& c : std::vector<Case>{{"same_elem", 1, {"fused"}},
                                         {"next_elem", 2, {"at different elements"}},
                                         {"reads_sum", 2, {"computed by loop"}},
                                         {"three", 2, {"fused", "fused", "accesses memory"}},
                                         {"breaks", 2, {"does not leave from its latch alone"}},
                                         {"rows", 1, {"fused"}}}) {
    CAPTURE(c.kernel);
    ir::Kernel k = lower(l, c.kernel);
    CHECK(k.loops.size() == c.loops);
    const auto f = fusions(k);
    REQUIRE(f.size() == c.fused.size());
    for (size_t i = 0; i < f.size(); ++i)
      CHECK(f[i].find(c.fused[i]) != std::string::npos);
  }
  const std::vector<int32_t> z(12, 0);
  for (int n : {0, 1, 2, 7}) {
    const std::vector<int32_t> a = pseudoRandom(12, uint32_t(n) + 11, -99, 99);
    runBoth(l, lower(l, "same_elem"), {ints("a", a), ints("b", z), ints("out", {0, 0, 0}), scalar("n", n)});
    runBoth(l, lower(l, "three"),
            {ints("a", a), ints("b", z), ints("c", z), ints("d", z), ints("out", z), scalar("n", n)});
    runBoth(l, lower(l, "rows"),
            {ints("a", a), ints("b", z), ints("c", z), scalar("n", n % 4), scalar("cols", 3)});
    runBoth(l, lower(l, "next_elem"), {ints("a", a), ints("b", z), ints("out", {0}), scalar("n", n)});
  }
}

TEST_CASE("fusion at -O2: an exit phi that the guards reach too survives loop extraction") {
  Loaded l = loadFile("fusion_o2.spv");
  ir::Kernel k = lower(l, "exit_phi");
  CHECK(k.loops.size() == 3);
  const std::vector<int32_t> z(12, 0);
  for (auto [n, m] : {std::pair{0, 0}, {3, 0}, {0, 5}, {6, 6}})
    runBoth(l, k,
            {ints("a", z), ints("b", z), ints("c", pseudoRandom(12, uint32_t(n + 7 * m), -9, 9)),
             ints("d", pseudoRandom(12, uint32_t(m), -9, 9)), ints("out", std::vector<int32_t>(8, 0)),
             scalar("n", n), scalar("m", m)});
}

TEST_CASE("fusion: offsets by different arguments are different elements; bounds computed in the header") {
  for (const char* file : {"fusion.spv", "fusion_o2.spv"}) {
    CAPTURE(file);
    Loaded l = loadFile(file);
    // The old rule took two kernel arguments for the same leaf and fused this pair: wrong whenever
    // k2 != k1 makes the second loop read what the first writes later.
    ir::Kernel apart = lower(l, "arg_offset");
    CHECK(apart.loops.size() == 2);
    CHECK(mentions(fusions(apart), "at different elements"));
    ir::Kernel same = lower(l, "arg_offset_same");
    CHECK(same.loops.size() == 1);
    ir::Kernel bound = lower(l, "bound_expr");
    CHECK(bound.loops.size() == 1);
    const std::vector<int32_t> z(16, 0);
    for (auto [k1, k2] : {std::pair{0, 0}, {0, 1}, {2, 0}, {1, 3}}) {
      runBoth(l, apart, {ints("b", z), ints("out", z), scalar("n", 6), scalar("k1", k1), scalar("k2", k2)});
      runBoth(l, same, {ints("b", z), ints("out", z), scalar("n", 6), scalar("k1", k1)});
    }
    for (int n : {0, 1, 2, 7})
      runBoth(
          l, bound,
          {ints("a", pseudoRandom(8, uint32_t(n) + 2, -9, 9)), ints("b", z), ints("c", z), scalar("n", n)});
  }
}
