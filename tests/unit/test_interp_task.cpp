// Golden interpreter: SPV_INTEL_task_sequence (sim/interp_task.cpp). Kernels are generated as SPIR-V
// text from a script of asyncs and gets, so each test states exactly the order of operations and the
// capacities; the task function records the order it ran in, so results and side effects are both
// checked against the spec's rules (results in async order, the blocking rules of GetCapacity and
// AsyncCapacity, task threads as invocations of their own).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

// Module start: capabilities, types and the task function %task(uint* out, uint x) -> uint, which
// appends x to the log out[1 + out[0]++] and returns 3x + 1. %own(Function uint*) reads through a pointer it is
// given; %ids() returns GlobalInvocationId.x + 10 * GlobalSize.x.
std::string header(const std::string& spelling = "INTEL") {
  return fmt::format(R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability TaskSequence{0}
OpCapability SubgroupShuffleINTEL
OpExtension "SPV_{0}_task_sequence"
OpExtension "SPV_INTEL_subgroups"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid %gsize
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gsize BuiltIn GlobalSize
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%inptr = OpTypePointer Input %v3ulong
%gid = OpVariable %inptr Input
%gsize = OpVariable %inptr Input
%gptr = OpTypePointer CrossWorkgroup %uint
%fptr = OpTypePointer Function %uint
%ts = OpTypeTaskSequence{0}
%tsptr = OpTypePointer Function %ts
%kty = OpTypeFunction %void %gptr
%taskty = OpTypeFunction %uint %gptr %uint
%ownty = OpTypeFunction %uint %fptr
%idsty = OpTypeFunction %uint
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%uint_10 = OpConstant %uint 10
%uint_64 = OpConstant %uint 64
%task = OpFunction %uint None %taskty
%tout = OpFunctionParameter %gptr
%x = OpFunctionParameter %uint
%tl = OpLabel
%n = OpAtomicIIncrement %uint %tout %uint_1 %uint_0
%n1 = OpIAdd %uint %n %uint_1
%slot = OpInBoundsPtrAccessChain %gptr %tout %n1
OpStore %slot %x
%x3 = OpIMul %uint %x %uint_3
%r = OpIAdd %uint %x3 %uint_1
OpReturnValue %r
OpFunctionEnd
%own = OpFunction %uint None %ownty
%p = OpFunctionParameter %fptr
%ol = OpLabel
%pv = OpLoad %uint %p
OpReturnValue %pv
OpFunctionEnd
%initv = OpFunction %uint None %idsty
%vl = OpLabel
%iv = OpVariable %fptr Function %uint_10
%ivv = OpLoad %uint %iv
OpReturnValue %ivv
OpFunctionEnd
%down = OpFunction %uint None %idsty
%dl = OpLabel
%next = OpIAdd %uint %uint_10 %uint_1
%dv = OpSubgroupShuffleDownINTEL %uint %uint_3 %next %uint_1
OpReturnValue %dv
OpFunctionEnd
%ids = OpFunction %uint None %idsty
%il = OpLabel
%gidv = OpLoad %v3ulong %gid
%gsv = OpLoad %v3ulong %gsize
%g0 = OpCompositeExtract %ulong %gidv 0
%s0 = OpCompositeExtract %ulong %gsv 0
%g32 = OpUConvert %uint %g0
%s32 = OpUConvert %uint %s0
%s10 = OpIMul %uint %s32 %uint_10
%idr = OpIAdd %uint %g32 %s10
OpReturnValue %idr
OpFunctionEnd
)",
                     spelling);
}

// A kernel k(out) running `script` on one sequence of %task with the given capacities:
// 'A' = async with the next argument (5, 7, 9, ...), 'G' = get, stored to out[64 + j] for the j-th
// get, 'R' = release.
std::string scriptKernel(const std::string& script, uint32_t getCapacity, uint32_t asyncCapacity,
                         const std::string& spelling = "INTEL") {
  std::string consts, body;
  uint32_t arg = 5, gets = 0;
  for (size_t i = 0; i < script.size(); ++i) {
    switch (script[i]) {
    case 'A':
      consts += fmt::format("%a{} = OpConstant %uint {}\n", i, arg);
      body += fmt::format("OpTaskSequenceAsync{} %seq %out %a{}\n", spelling, i);
      arg += 2;
      break;
    case 'G':
      consts += fmt::format("%i{} = OpConstant %uint {}\n", i, 64 + gets++);
      body += fmt::format("%v{0} = OpTaskSequenceGet{1} %uint %seq\n%p{0} = OpInBoundsPtrAccessChain %gptr %out %i{0}\n"
                          "OpStore %p{0} %v{0}\n",
                          i, spelling);
      break;
    case 'R': body += fmt::format("OpTaskSequenceRelease{} %seq\n", spelling); break;
    }
  }
  // The handle goes through a Function variable, as clang -O0 code keeps every local in memory.
  return header(spelling) + consts + fmt::format(R"(%k = OpFunction %void None %kty
%out = OpFunctionParameter %gptr
%kl = OpLabel
%hv = OpVariable %tsptr Function
%seq0 = OpTaskSequenceCreate{} %ts %task -1 -1 {} {}
OpStore %hv %seq0
%seq = OpLoad %ts %hv
)",
                                                 spelling, getCapacity, asyncCapacity) +
         body + "OpReturn\nOpFunctionEnd\n";
}

RunSpec spec(uint32_t groups = 1) {
  return parseRunSpec(fmt::format(R"({{"kernel": "k", "global_size": [{}],
      "args": [{{"name": "out", "buffer": {{"type": "u32", "length": 128, "init": "zeros"}}}}]}})",
                                  groups),
                      "task.json");
}

// The kernel's buffer after the run: out[0] tasks run, out[1...] their arguments in the order they
// ran, out[64...] the results of the gets.
std::vector<uint32_t> run(const std::string& text, uint32_t groups = 1) {
  return elems<uint32_t>(Kernel::fromText(text, "task.spvasm").run(spec(groups)).buffers[0]);
}

// The error the kernel's run ends with.
std::string runError(const std::string& text) { return Kernel::fromText(text, "task.spvasm").error(spec()); }

} // namespace

TEST_CASE("task sequence: results come back in async order, each task thread runs once") {
  for (const char* spelling : {"INTEL", "ALTERA"}) {
    CAPTURE(spelling);
    auto out = run(scriptKernel("AAAGGG", 4, 4, spelling));
    CHECK(out[0] == 3);
    CHECK(std::vector<uint32_t>(out.begin() + 1, out.begin() + 4) == std::vector<uint32_t>{5, 7, 9});
    CHECK(std::vector<uint32_t>(out.begin() + 64, out.begin() + 67) == std::vector<uint32_t>{16, 22, 28});
  }
  // Interleaved, with the smallest capacities: each get takes the oldest outstanding result.
  auto out = run(scriptKernel("AGAAGAGG", 1, 1));
  CHECK(out[0] == 4);
  CHECK(std::vector<uint32_t>(out.begin() + 64, out.begin() + 68) == std::vector<uint32_t>{16, 22, 28, 34});
}

TEST_CASE("task sequence: GetCapacity + AsyncCapacity asyncs may be outstanding, one more deadlocks") {
  // GetCapacity 1 stores one result; AsyncCapacity 2 lets two finished threads wait for room.
  auto out = run(scriptKernel("AAAGGG", 1, 2));
  CHECK(std::vector<uint32_t>(out.begin() + 64, out.begin() + 67) == std::vector<uint32_t>{16, 22, 28});
  std::string e = runError(scriptKernel("AAAAGGGG", 1, 2));
  checkContains(e, "task.spvasm:");
  checkContains(e, "OpTaskSequenceAsyncINTEL");
  checkContains(e, "deadlock: this async blocks forever");
  checkContains(e, "GetCapacity = 1");
  checkContains(e, "AsyncCapacity = 2");
  checkContains(e, "GetCapacity + AsyncCapacity must be at least 4");
  // The same program is fine with the capacities the message asks for.
  CHECK(run(scriptKernel("AAAAGGGG", 2, 2))[67] == 34);
}

TEST_CASE("task sequence: a get with nothing outstanding is a deadlock") {
  std::string e = runError(scriptKernel("AGG", 2, 2));
  checkContains(e, "OpTaskSequenceGetINTEL");
  checkContains(e, "deadlock: this get blocks forever");
  checkContains(e, "1 asyncs, all 1 results already retrieved");
  checkContains(runError(scriptKernel("G", 2, 2)), "no outstanding task thread");
}

TEST_CASE("task sequence: zero capacities can never make progress") {
  checkContains(runError(scriptKernel("AG", 0, 2)), "has GetCapacity 0, so its 1 finished task threads can never store");
  checkContains(runError(scriptKernel("A", 2, 0)), "has AsyncCapacity 0, so this async can never start a task thread");
}

TEST_CASE("task sequence: use after release is an error; release discards outstanding results") {
  CHECK(run(scriptKernel("AAR", 2, 2))[0] == 2);
  std::string e = runError(scriptKernel("ARA", 2, 2));
  checkContains(e, "OpTaskSequenceAsyncINTEL");
  checkContains(e, "was already released by OpTaskSequenceReleaseINTEL");
  checkContains(runError(scriptKernel("ARG", 2, 2)), "already released");
}

namespace {
// A kernel with one async of `fn` (arguments `args`, prepared by `setup`) and one get into out[64].
std::string oneTaskKernel(const std::string& fn, const std::string& setup, const std::string& args) {
  return header() + fmt::format(R"(%k = OpFunction %void None %kty
%out = OpFunctionParameter %gptr
%kl = OpLabel
%local = OpVariable %fptr Function
{}%seq = OpTaskSequenceCreateINTEL %ts {} 0 1 1 1
OpTaskSequenceAsyncINTEL %seq{}
%v = OpTaskSequenceGetINTEL %uint %seq
%res = OpInBoundsPtrAccessChain %gptr %out %uint_64
OpStore %res %v
OpReturn
OpFunctionEnd
)",
                                setup, fn, args);
}
} // namespace

TEST_CASE("task sequence: a task thread is an invocation of its own") {
  SUBCASE("ids 0 and sizes 1, whatever the caller's ND-range") {
    auto out = run(oneTaskKernel("%ids", "", ""), 4); // four work-items, each writes out[64]
    CHECK(out[64] == 10); // GlobalInvocationId.x = 0, GlobalSize.x = 1
  }
  SUBCASE("a subgroup of one: shuffle down by 1 reads Next of invocation 0") {
    CHECK(run(oneTaskKernel("%down", "", ""))[64] == 11);
  }
  SUBCASE("its own Function variables, initialised") {
    CHECK(run(oneTaskKernel("%initv", "", ""))[64] == 10);
  }
  SUBCASE("no access to the caller's Function memory") {
    std::string e = runError(oneTaskKernel("%own", "OpStore %local %uint_3\n", " %local"));
    checkContains(e, "OpLoad %pv");
    checkContains(e, "another invocation's Function memory");
  }
}
