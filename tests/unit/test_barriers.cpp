// Work-group barriers in hardware (ir/lower_barriers.cpp): the loop over work-items split at each
// barrier, values kept across a barrier in per-work-item buffers, and the IR evaluator's run of the
// result equal to the interpreter's on a few ND-ranges.
#include <doctest/doctest.h>

#include <algorithm>

#include "lower_test_util.h"

using namespace lower_test;

namespace {

// A kernel in SPIR-V text: `a` and `b` global uint buffers, a local array `tmp` of 16 uints, the
// global and local id (dimension 0) as %gid and %lid (64 bits); `body` follows them in the entry block.
std::string barrierKernel(const std::string& modes, const std::string& decls, const std::string& body,
                          const std::string& capabilities = "") {
  return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
)" + capabilities +
         R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gidv %lidv %tmp
)" + modes +
         R"(
               OpName %tmp "tmp"
               OpDecorate %gidv BuiltIn GlobalInvocationId
               OpDecorate %lidv BuiltIn LocalInvocationId
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
         %v3 = OpTypeVector %ulong 3
       %void = OpTypeVoid
     %ptr_in = OpTypePointer Input %v3
      %ptr_g = OpTypePointer CrossWorkgroup %uint
   %ulong_16 = OpConstant %ulong 16
        %arr = OpTypeArray %uint %ulong_16
      %ptr_w = OpTypePointer Workgroup %arr
     %ptr_wu = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %ptr_g %ptr_g
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
   %uint_272 = OpConstant %uint 272
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
)" + decls +
         R"(
       %gidv = OpVariable %ptr_in Input
       %lidv = OpVariable %ptr_in Input
        %tmp = OpVariable %ptr_w Workgroup
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr_g
          %b = OpFunctionParameter %ptr_g
      %entry = OpLabel
       %gids = OpLoad %v3 %gidv
        %gid = OpCompositeExtract %ulong %gids 0
       %lids = OpLoad %v3 %lidv
        %lid = OpCompositeExtract %ulong %lids 0
)" + body +
         "               OpFunctionEnd\n";
}

// Each work-item stores a[gid] into tmp[lid], waits, and writes its value plus its mirror's
// (tmp[n-1-lid]) to b[gid]: x crosses the barrier.
const char* kMirror = R"(
         %pa = OpInBoundsPtrAccessChain %ptr_g %a %gid
          %x = OpLoad %uint %pa
         %pt = OpInBoundsAccessChain %ptr_wu %tmp %lid
               OpStore %pt %x
               OpControlBarrier %uint_2 %uint_2 %uint_272
        %top = OpISub %ulong %ulong_15 %lid
         %pm = OpInBoundsAccessChain %ptr_wu %tmp %top
          %m = OpLoad %uint %pm
          %s = OpIAdd %uint %x %m
         %pb = OpInBoundsPtrAccessChain %ptr_g %b %gid
               OpStore %pb %s
               OpReturn
)";

// The loads or stores of `memory` in a loop body.
size_t accessesOf(const ir::Loop& lp, OpKind kind, uint32_t memory) {
  return static_cast<size_t>(std::count_if(lp.ops.begin(), lp.ops.end(), [&](const ir::Op& op) {
    return op.kind == kind && op.memory == memory;
  }));
}

const ir::Memory* memoryNamed(const ir::Kernel& k, const std::string& name) {
  auto it =
      std::find_if(k.memories.begin(), k.memories.end(), [&](const ir::Memory& m) { return m.name == name; });
  return it == k.memories.end() ? nullptr : &*it;
}

} // namespace

TEST_CASE("a barrier splits the loop over work-items; a value crossing it waits in a buffer") {
  Loaded l = loadText(barrierKernel("OpExecutionMode %k LocalSize 16 1 1\nOpName %x \"x\"\n",
                                    "%ulong_15 = OpConstant %ulong 15\n", kMirror));
  ir::Kernel k = lower(l, "k");
  CHECK(k.ndRange);
  CHECK(k.workItemLoop == "workgroup");
  CHECK(k.barrierLoops == std::vector<std::string>{"workitem", "workitem.1"});
  CHECK(k.maxWorkGroupItems == 16); // from LocalSize
  CHECK(countKind(k.ops, OpKind::Barrier) == 0);
  // x is a loaded value: kept in a buffer of one 32-bit entry per work-item. The ids are counted
  // again after the barrier, not buffered.
  const ir::Memory* buf = memoryNamed(k, "across_barrier.x");
  REQUIRE(buf != nullptr);
  CHECK(buf->kind == ir::Memory::Kind::Private);
  CHECK(buf->sizeBytes == 16 * 4);
  CHECK(k.barrierBufferBits == 32);
  const ir::Memory* tmp = memoryNamed(k, "tmp");
  REQUIRE(tmp != nullptr);
  CHECK(tmp->kind == ir::Memory::Kind::WorkGroup);
  // Two pipelined loops: the first writes the buffer, the second reads it; both declare no dependence
  // between work-items through it.
  REQUIRE(k.loops.size() == 2);
  const uint32_t bufIndex = static_cast<uint32_t>(buf - k.memories.data());
  auto accesses = [&](const ir::Loop& lp, OpKind kind) { return accessesOf(lp, kind, bufIndex); };
  CHECK(accesses(k.loops[0], OpKind::Store) == 1);
  CHECK(accesses(k.loops[0], OpKind::Load) == 0);
  CHECK(accesses(k.loops[1], OpKind::Load) == 1);
  for (const ir::Loop& lp : k.loops) {
    const auto& deps = lp.controls.memoryDependenceDistance;
    CHECK(std::find(deps.begin(), deps.end(), std::pair<uint32_t, uint32_t>{bufIndex, 0}) != deps.end());
  }
  const std::vector<int32_t> a = pseudoRandom(48, 7, -1000, 1000);
  runBoth(l, k, {ints("a", a), ints("b", std::vector<int32_t>(48, 0))}, {48, 1, 1}, {16, 1, 1});
}

TEST_CASE("a barrier in a loop: a loop of stretches around the loops over work-items") {
  // The reduction of work-group collectives' textbook: s halves each round, a barrier per round.
  Loaded l =
      loadText(barrierKernel("OpName %x \"x\"\nOpName %s \"s\"\n", "%ulong_8 = OpConstant %ulong 8\n", R"(
         %pa = OpInBoundsPtrAccessChain %ptr_g %a %gid
          %x = OpLoad %uint %pa
         %pt = OpInBoundsAccessChain %ptr_wu %tmp %lid
               OpStore %pt %x
               OpControlBarrier %uint_2 %uint_2 %uint_272
               OpBranch %head
       %head = OpLabel
          %s = OpPhi %ulong %ulong_8 %entry %s2 %join
         %lt = OpULessThan %bool %lid %s
               OpBranchConditional %lt %add %join
        %add = OpLabel
         %o = OpIAdd %ulong %lid %s
         %po = OpInBoundsAccessChain %ptr_wu %tmp %o
         %vo = OpLoad %uint %po
         %vm = OpLoad %uint %pt
         %vs = OpIAdd %uint %vm %vo
               OpStore %pt %vs
               OpBranch %join
       %join = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_272
         %s2 = OpShiftRightLogical %ulong %s %ulong_1
       %more = OpUGreaterThan %bool %s %ulong_1
               OpBranchConditional %more %head %done
       %done = OpLabel
         %p0 = OpInBoundsAccessChain %ptr_wu %tmp %ulong_0
        %sum = OpLoad %uint %p0
         %pb = OpInBoundsPtrAccessChain %ptr_g %b %gid
         %r = OpISub %uint %sum %x
               OpStore %pb %r
               OpReturn
)"));
  ir::Kernel k = lower(l, "k");
  // Stretch 0 runs up to the first barrier, stretch 1 from it into the loop up to the second; stretch
  // 2 from that one around the loop back to it or to the return: its loop over work-items sits in a
  // loop of its own (stretch2) that repeats it.
  CHECK(k.barrierLoops == std::vector<std::string>{"workitem", "workitem.1", "workitem.2"});
  CHECK(k.maxWorkGroupItems == 256); // the default, --max-work-group-size
  CHECK(memoryNamed(k, "across_barrier.x") != nullptr);
  CHECK(memoryNamed(k, "across_barrier.s") != nullptr);
  bool repeats = false;
  for (const ir::Region& r : k.regions)
    repeats = repeats || (r.name == "stretch2" && r.kind == ir::Region::Kind::Loop);
  CHECK(repeats);
  const std::vector<int32_t> a = pseudoRandom(64, 3, -5000, 5000);
  runBoth(l, k, {ints("a", a), ints("b", std::vector<int32_t>(64, 0))}, {64, 1, 1}, {16, 1, 1});
}

TEST_CASE("work-group collectives: a running value in local memory, the result after a barrier") {
  Loaded l = loadText(barrierKernel("OpName %sum \"sum\"\n", "", R"(
         %pa = OpInBoundsPtrAccessChain %ptr_g %a %gid
          %x = OpLoad %uint %pa
        %sum = OpGroupIAdd %uint %uint_2 Reduce %x
         %ex = OpGroupUMin %uint %uint_2 ExclusiveScan %x
          %r = OpIAdd %uint %sum %ex
         %pb = OpInBoundsPtrAccessChain %ptr_g %b %gid
               OpStore %pb %r
               OpReturn
)",
                                    "OpCapability Groups\n"));
  ir::Kernel k = lower(l, "k");
  // The reduction waits for its result at a barrier; the scan needs none.
  CHECK(k.barrierLoops.size() == 2);
  const ir::Memory* acc = memoryNamed(k, "collective.sum");
  REQUIRE(acc != nullptr);
  CHECK(acc->kind == ir::Memory::Kind::WorkGroup);
  CHECK(acc->collective);
  CHECK(acc->sizeBytes == 8); // the running sum and the result
  // The work-items update it in order: no loop over work-items drops its dependences.
  const uint32_t index = static_cast<uint32_t>(acc - k.memories.data());
  for (const ir::Loop& lp : k.loops)
    for (const auto& [m, distance] : lp.controls.memoryDependenceDistance)
      CHECK(m != index);
  const std::vector<int32_t> a = pseudoRandom(32, 11, -1000000, 1000000);
  runBoth(l, k, {ints("a", a), ints("b", std::vector<int32_t>(32, 0))}, {32, 1, 1}, {8, 1, 1});
}

TEST_CASE("subgroups and barriers: each stretch's loop over work-items steps a subgroup's lanes") {
  Loaded l = loadText(barrierKernel(
      "OpExecutionMode %k SubgroupSize 4\nOpName %x \"x\"\n", "%ulong_15 = OpConstant %ulong 15\n",
      std::string("%sx = OpSubgroupShuffleXorINTEL %uint %uint_1 %uint_1\n") + kMirror,
      "OpCapability SubgroupShuffleINTEL\nOpExtension \"SPV_INTEL_subgroups\"\n"));
  ir::Kernel k = lower(l, "k");
  CHECK(k.subgroupLanes == 4);
  CHECK(k.barrierLoops.size() == 2);
  REQUIRE(k.loops.size() == 2);
  // Each lane keeps its own x, in consecutive entries (indexed by the local id): one 16-byte store of
  // the four lanes' into the buffer before the barrier, one load after.
  const ir::Memory* buf = memoryNamed(k, "across_barrier.x");
  REQUIRE(buf != nullptr);
  CHECK(buf->sizeBytes == 256 * 4); // one entry per work-item, not multiplied again by the lanes
  const uint32_t bufIndex = static_cast<uint32_t>(buf - k.memories.data());
  auto accesses = [&](const ir::Loop& lp, OpKind kind) { return accessesOf(lp, kind, bufIndex); };
  CHECK(accesses(k.loops[0], OpKind::Store) == 1);
  CHECK(accesses(k.loops[1], OpKind::Load) == 1);
  for (const ir::Loop& lp : k.loops)
    for (const ir::Op& op : lp.ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory == bufIndex)
        CHECK(op.size == 16);
  std::vector<sim::ArgSpec> args{ints("a", pseudoRandom(32, 5, -1000, 1000)),
                                 ints("b", std::vector<int32_t>(32, 0))};
  runBoth(l, k, args, {32, 1, 1}, {16, 1, 1});
}

TEST_CASE("barriers: what is not built names itself") {
  SUBCASE("a barrier at Device scope") {
    const std::string e = lowerError(loadText(barrierKernel("", "%uint_1d = OpConstant %uint 1\n", R"(
               OpControlBarrier %uint_1d %uint_2 %uint_272
               OpReturn
)")),
                                     "k");
    CHECK(e.find("OpControlBarrier") != std::string::npos);
    CHECK(e.find("execution scope 1; expected Workgroup (2) or Subgroup (3)") != std::string::npos);
  }
  SUBCASE("work-group collectives in a kernel with subgroups") {
    const std::string e = lowerError(loadText(barrierKernel("", "", R"(
         %pa = OpInBoundsPtrAccessChain %ptr_g %a %gid
          %x = OpLoad %uint %pa
          %y = OpSubgroupShuffleXorINTEL %uint %x %uint_1
          %s = OpGroupIAdd %uint %uint_2 Reduce %y
               OpStore %pa %s
               OpReturn
)",
                                                            "OpCapability Groups\n"
                                                            "OpCapability SubgroupShuffleINTEL\n"
                                                            "OpExtension \"SPV_INTEL_subgroups\"\n")),
                                     "k");
    CHECK(e.find("uses subgroups and work-group collectives") != std::string::npos);
  }
}
