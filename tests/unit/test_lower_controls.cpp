// Lowering: loop controls (on OpLoopMerge in the header, in OpLoopControlINTEL in the latch, on a
// private array, on an outer loop) and kernel decorations (a register limit, cluster kinds) reach the
// IR, each request honoured or reported, and printKernel shows them. They steer scheduling and the
// choice of hardware, so each is checked where it lands. Fixtures: tests/unit/data/lower/.
#include <doctest/doctest.h>

#include <algorithm>

#include "frontend/module.h"
#include "ir/lower.h"
#include "lower_test_util.h"

using namespace spvhls;
using ir::kNone;
using ir::OpKind;

using namespace lower_test;

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
  for (const char* honoured :
       {"InitiationIntervalINTEL", "MaxConcurrencyINTEL", "DependencyArrayINTEL", "PipelineEnableINTEL"}) {
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

TEST_CASE("DependencyArrayINTEL on a private array names its local memory") {
  Loaded l = loadFile("localdep.spvasm");
  ir::Kernel k = lower(l, "localarr");
  REQUIRE(k.loops.size() == 2);
  uint32_t u = 0;
  while (u < k.memories.size() && k.memories[u].name != "u")
    ++u;
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
  CHECK(request(k.loops[0].controls, "DependencyInfinite")->status ==
        ir::LoopControlRequest::Status::Honoured);
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
