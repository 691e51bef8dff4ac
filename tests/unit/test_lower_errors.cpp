// Lowering: the errors users can cause name the construct, its location, what was found and what was
// expected (constructs that once were errors, such as subgroups, vectors and work-item built-ins, are
// checked to lower instead), operands of the wrong width are the input's error rather than an internal
// one, and verifyKernel rejects broken IR, so a pass that breaks an invariant stops the compiler.
// Fixtures: tests/unit/data/lower/.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>

#include "frontend/module.h"
#include "ir/lower.h"
#include "lower_test_util.h"

using namespace spvhls;
using ir::kNone;
using ir::OpKind;

using namespace lower_test;

namespace {

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

} // namespace

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
    auto it = std::find_if(k.memories.begin(), k.memories.end(),
                           [](const ir::Memory& m) { return m.name == "counter"; });
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
    // a[i + 1]: consecutive, but lane 0's address is 4 bytes past a multiple of 16: one load per
    // lane, of which the loop's wide accesses (ir/lower_widen.cpp) join lanes 1 and 2 (8 bytes at a
    // multiple of 8).
    ir::Kernel k = build("%q = OpInBoundsPtrAccessChain %ptr_g %p %ulong_1\n");
    REQUIRE(k.loops.size() == 1);
    auto [loads, stores] = laneAccesses(k.loops[0]);
    CHECK(loads.size() == 3);
    CHECK(k.datapath.widenedAccesses == 2);
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
  // A loop of the kernel's own: the loop over work-items is one pipeline, the kernel's loop a
  // sub-pipeline of it built once per lane.
  auto ownLoop = [](const std::string& exitTest) {
    return lower(loadText(subgroupKernel("", "%bool = OpTypeBool\n%uint_4 = OpConstant %uint 4\n", R"(
               OpBranch %head
       %head = OpLabel
          %n = OpPhi %uint %uint_1 %entry %n1 %head
          %x = OpLoad %uint %p
          %y = OpSubgroupShuffleXorINTEL %uint %x %uint_1
               OpStore %p %y
         %n1 = OpIAdd %uint %n %uint_1
)" + exitTest + R"(
               OpBranchConditional %c %head %exit
       %exit = OpLabel
               OpReturn
)")),
                 "k");
  };
  auto innerLoop = [](const ir::Kernel& k) -> const ir::Loop& {
    REQUIRE(k.loops.size() == 2);
    const ir::Loop& outer = k.loops[0].name == "workitem" ? k.loops[0] : k.loops[1];
    const ir::Loop& inner = k.loops[0].name == "workitem" ? k.loops[1] : k.loops[0];
    CHECK(inner.name == "head");
    CHECK(std::count_if(outer.ops.begin(), outer.ops.end(),
                        [](const ir::Op& op) { return op.kind == OpKind::LoopCall; }) == 1);
    return inner;
  };
  auto running = [](const ir::Loop& lp) {
    return std::count_if(lp.phis.begin(), lp.phis.end(),
                         [](const ir::LoopPhi& p) { return p.name.rfind("running.lane", 0) == 0; });
  };
  SUBCASE("subgroups in a kernel with a loop of its own: the lanes run it side by side") {
    // Its trip count is the same in every lane: no mask, the lanes' p[i] one load and one store (8
    // lanes of 4 bytes: the subgroup size when the kernel sets none).
    const ir::Kernel k = ownLoop("          %c = OpULessThan %bool %n1 %uint_4\n");
    const ir::Loop& lp = innerLoop(k);
    const auto [loads, stores] = laneAccesses(lp);
    REQUIRE(loads.size() == 1);
    REQUIRE(stores.size() == 1);
    CHECK(lp.ops[loads[0]].size == 4 * k.subgroupLanes);
    CHECK(lp.ops[stores[0]].size == 4 * k.subgroupLanes);
    CHECK(running(lp) == 0);
    CHECK(lp.ops[lp.continueCond].kind != OpKind::Or);
    REQUIRE(k.laneLogic.size() == 1);
    CHECK(k.laneLogic[0].wired);
    CHECK(std::none_of(k.diagnostics.begin(), k.diagnostics.end(), [](const Diagnostic& d) {
      return d.message.find("may leave at different iterations") != std::string::npos;
    }));
  }
  SUBCASE("subgroups in a kernel with a loop whose trip count differs between lanes: masks") {
    // n < i: lane j runs about i + j iterations. Each lane's "still running" is carried, its accesses
    // happen under it (one per lane: their predicates differ), and the loop runs while some lane does.
    const ir::Kernel k =
        ownLoop("         %iu = OpUConvert %uint %i\n          %c = OpULessThan %bool %n1 %iu\n");
    const ir::Loop& lp = innerLoop(k);
    const auto [loads, stores] = laneAccesses(lp);
    REQUIRE(k.subgroupLanes == 8);
    CHECK(loads.size() == 8);
    REQUIRE(stores.size() == 8);
    for (ir::ValueId v : stores)
      CHECK(lp.ops[v].operands[2] != ir::kNone);
    CHECK(running(lp) == 8);
    CHECK(lp.ops[lp.continueCond].kind == OpKind::Or);
    // The shuffle in it combines the lanes' values of one iteration: a warning says so.
    CHECK(std::any_of(k.diagnostics.begin(), k.diagnostics.end(), [](const Diagnostic& d) {
      return d.severity == Diagnostic::Severity::Warning &&
             d.message.find("OpenCL requires every lane of the subgroup to reach it together") !=
                 std::string::npos;
    }));
  }
  SUBCASE(
      "subgroups in a kernel whose loop cannot be a sub-pipeline: the error names the inner loop and why") {
    // The loop calls a shared function (--inline never), so it stays in the FSM, and the loop over
    // work-items cannot be one pipeline around it.
    const Loaded sl = loadText(subgroupKernel(
        "", "%bool = OpTypeBool\n%uint_4 = OpConstant %uint 4\n%fnu = OpTypeFunction %uint %uint\n", R"(
               OpBranch %head
       %head = OpLabel
          %n = OpPhi %uint %uint_1 %entry %n1 %head
          %x = OpLoad %uint %p
          %y = OpSubgroupShuffleXorINTEL %uint %x %uint_1
          %z = OpFunctionCall %uint %mix %y
               OpStore %p %z
         %n1 = OpIAdd %uint %n %uint_1
          %c = OpULessThan %bool %n1 %uint_4
               OpBranchConditional %c %head %exit
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
        %mix = OpFunction %uint None %fnu
          %v = OpFunctionParameter %uint
         %mb = OpLabel
          %w = OpIAdd %uint %v %uint_1
               OpReturnValue %w
)"));
    ir::LowerOptions never;
    never.inlinePolicy = ir::InlinePolicy::Never;
    std::string e;
    try {
      ir::lowerKernel(*sl.view, "k", never);
    } catch (const DiagnosticError& d) {
      e = d.what();
    }
    CHECK(e.find("a kernel that uses subgroups is built as one pipeline over its work-items") !=
          std::string::npos);
    CHECK(e.find(
              "an outer pipeline needs every inner loop pipelined, and loop head is not (the loop body calls "
              "mix, a shared function") != std::string::npos);
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
        rejects(
            *base, [&](ir::Kernel& k) { k.ops[v].phiBlocks[1] = k.ops[v].phiBlocks[0]; },
            "two entries for one predecessor", level);
        rejects(
            *base,
            [&](ir::Kernel& k) {
              k.ops[v].operands.pop_back();
              k.ops[v].phiBlocks.pop_back();
            },
            "a missing entry", level);
        rejects(
            *base,
            [&](ir::Kernel& k) {
              // An entry from a block that does not branch here (the shape of the && defect).
              uint32_t other = 0;
              while (other == k.ops[v].block ||
                     std::find(k.ops[v].phiBlocks.begin(), k.ops[v].phiBlocks.end(), other) !=
                         k.ops[v].phiBlocks.end())
                ++other;
              k.ops[v].phiBlocks.back() = other;
            },
            "an entry from a non-predecessor", level);
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
