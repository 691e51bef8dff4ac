// Validation rules of the SPIR-V extensions (frontend/validate_extensions.cpp and the capability and
// loop-control checks of module_cfg.cpp): for every rule, a module that breaks it must fail with a
// diagnostic naming the file, location, instruction and found vs expected, and the same module with
// the rule respected must pass. Specs: /work/shared/specs/*.txt.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "frontend/module.h"

#include "frontend_test_util.h"

using namespace spvhls;
using namespace spvhls::spirv;
using namespace spvhls::testutil;

namespace {

const char* kAllExtensions = R"(OpCapability TaskSequenceINTEL
OpCapability Subgroup2DBlockIOINTEL
OpCapability Subgroup2DBlockTransformINTEL
OpCapability Subgroup2DBlockTransposeINTEL
OpCapability SubgroupShuffleINTEL
OpCapability SubgroupBufferBlockIOINTEL
OpCapability SubgroupImageBlockIOINTEL
OpCapability RegisterLimitsINTEL
OpCapability FPGALoopControlsINTEL
OpExtension "SPV_INTEL_task_sequence"
OpExtension "SPV_INTEL_2d_block_io"
OpExtension "SPV_INTEL_subgroups"
OpExtension "SPV_INTEL_maximum_registers"
OpExtension "SPV_INTEL_fpga_loop_controls"
)";

// Types and values every test may use; %task takes (uint, float) and returns uint.
const char* kDecls = R"(%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_8 = OpConstant %uint 8
%uint_64 = OpConstant %uint 64
%ulong_4 = OpConstant %ulong 4
%float_1 = OpConstant %float 1
%fnty = OpTypeFunction %void
%ts = OpTypeTaskSequenceINTEL
%v2uint = OpTypeVector %uint 2
%v2float = OpTypeVector %float 2
%v3uint = OpTypeVector %uint 3
%gptr = OpTypePointer CrossWorkgroup %uint
%fptr = OpTypePointer Function %uint
%fptrf = OpTypePointer Function %float
%wptr = OpTypePointer Workgroup %uint
%gptrv = OpTypePointer CrossWorkgroup %v2uint
%coord = OpConstantComposite %v2uint %uint_0 %uint_1
%coord3 = OpConstantComposite %v3uint %uint_0 %uint_1 %uint_2
%v2u = OpConstantComposite %v2uint %uint_1 %uint_2
%gp = OpUndef %gptr
%wp = OpUndef %wptr
%gpv = OpUndef %gptrv
%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%img1 = OpTypeImage %void 2D 0 0 0 1 Unknown ReadOnly
%image = OpUndef %img
%image1 = OpUndef %img1
%taskty = OpTypeFunction %uint %uint %float
%task = OpFunction %uint None %taskty
%x = OpFunctionParameter %uint
%y = OpFunctionParameter %float
%tl = OpLabel
OpReturnValue %x
OpFunctionEnd
)";

// A module with the kernel %k whose entry block holds `body` (which must end the block), after the
// capability/extension lines `caps` and the execution modes `modes`.
std::string kernel(const std::string& body, const std::string& caps = kAllExtensions,
                   const std::string& modes = "") {
  return "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n" + caps +
         "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n" + modes + kDecls +
         "%k = OpFunction %void None %fnty\n%entry = OpLabel\n%dst = OpVariable %fptr Function\n"
         "%dstf = OpVariable %fptrf Function\n" +
         body + "OpFunctionEnd\n";
}

std::vector<Diagnostic> errorsOf(const std::string& text) {
  Module m = readText(text, "r.spvasm");
  try {
    buildModuleView(m);
  } catch (const DiagnosticError& e) {
    return e.diagnostics();
  }
  return {};
}

// The module must validate, and fail with exactly one diagnostic once `bad` replaces `good`; returns it.
Diagnostic onlyError(const std::string& text, const std::string& good, const std::string& bad) {
  CHECK_MESSAGE(errorsOf(text).empty(), text);
  std::string broken = text;
  size_t at = broken.find(good);
  REQUIRE_MESSAGE(at != std::string::npos, good);
  broken.replace(at, good.size(), bad);
  auto diags = errorsOf(broken);
  REQUIRE_MESSAGE(diags.size() == 1, broken);
  return diags[0];
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// 1-based line of the first line of `text` that contains `needle`.
uint32_t lineOf(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n'));
}

const char* kTaskBody = R"(%seq = OpTaskSequenceCreateINTEL %ts %task -1 0 2 4
OpTaskSequenceAsyncINTEL %seq %uint_1 %float_1
%r = OpTaskSequenceGetINTEL %uint %seq
OpTaskSequenceReleaseINTEL %seq
OpReturn
)";

} // namespace

TEST_CASE("capability and extension are declared for each extension instruction") {
  struct Case {
    const char* body;
    std::vector<const char*> dropCapabilities; // the first is the one the error names
    const char* extension;
    size_t users; // opcodes of the module that need the capability (%ts is always declared)
  };
  const Case cases[] = {
      {"%seq = OpTaskSequenceCreateINTEL %ts %task 0 0 1 1\nOpReturn\n",
       {"TaskSequenceINTEL"},
       "SPV_INTEL_task_sequence",
       2},
      {"%s = OpSubgroupShuffleINTEL %uint %uint_1 %uint_0\nOpReturn\n",
       {"SubgroupShuffleINTEL"},
       "SPV_INTEL_subgroups",
       1},
      {"%s = OpSubgroupBlockReadINTEL %uint %gp\nOpReturn\n",
       {"SubgroupBufferBlockIOINTEL"},
       "SPV_INTEL_subgroups",
       1},
      {"%s = OpSubgroupImageBlockReadINTEL %uint %image %coord\nOpReturn\n",
       {"SubgroupImageBlockIOINTEL"},
       "SPV_INTEL_subgroups",
       1},
      // The transform and transpose capabilities implicitly declare Subgroup2DBlockIOINTEL: drop all three.
      {"OpSubgroup2DBlockPrefetchINTEL %uint_4 %uint_4 %uint_4 %uint_1 %gp %uint_64 %uint_64 %uint_64 "
       "%coord\n"
       "OpReturn\n",
       {"Subgroup2DBlockIOINTEL", "Subgroup2DBlockTransformINTEL", "Subgroup2DBlockTransposeINTEL"},
       "SPV_INTEL_2d_block_io",
       1},
      {"OpSubgroup2DBlockLoadTransformINTEL %uint_4 %uint_4 %uint_4 %uint_1 %gp %uint_64 %uint_64 %uint_64 "
       "%coord "
       "%dst\nOpReturn\n",
       {"Subgroup2DBlockTransformINTEL"},
       "SPV_INTEL_2d_block_io",
       1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.body);
    std::string good = kernel(c.body);
    CHECK(errorsOf(good).empty());
    // Drop the capability: one error per opcode that needs it. Drop the extension too: twice as many,
    // in one run.
    std::string noCap = good;
    for (const char* cap : c.dropCapabilities) {
      std::string line = fmt::format("OpCapability {}\n", cap);
      noCap.erase(noCap.find(line), line.size());
    }
    auto d = errorsOf(noCap);
    REQUIRE(d.size() == c.users);
    CHECK(d.back().message ==
          fmt::format("needs OpCapability {}, which the module does not declare", c.dropCapabilities[0]));
    CHECK(d.back().loc.line == lineOf(noCap, c.body));
    std::string extLine = fmt::format("OpExtension \"{}\"\n", c.extension);
    std::string neither = noCap;
    neither.erase(neither.find(extLine), extLine.size());
    d = errorsOf(neither);
    REQUIRE(d.size() == 2 * c.users);
    CHECK(d.back().message ==
          fmt::format("needs OpExtension \"{}\", which the module does not declare", c.extension));
  }
  SUBCASE("the type declaration needs them too, and the transform capability implies the 2D block one") {
    std::string caps = "OpCapability Subgroup2DBlockTransposeINTEL\nOpExtension \"SPV_INTEL_2d_block_io\"\n";
    auto d = errorsOf(kernel("OpReturn\n", caps)); // %ts is declared without TaskSequenceINTEL
    REQUIRE(d.size() == 2);
    CHECK(d[0].construct == "OpTypeTaskSequenceINTEL");
    std::string caps2 = caps + "OpCapability TaskSequenceALTERA\nOpExtension \"SPV_ALTERA_task_sequence\"\n";
    CHECK(errorsOf(kernel("OpSubgroup2DBlockLoadINTEL %uint_4 %uint_4 %uint_4 %uint_1 %gp %uint_64 %uint_64 "
                          "%uint_64 %coord %dst\nOpReturn\n",
                          caps2))
              .empty());
  }
}

TEST_CASE("task sequence rules") {
  std::string text = kernel(kTaskBody);
  SUBCASE("Create's Function is an OpFunction") {
    auto d = onlyError(text, "%ts %task -1", "%ts %uint_1 -1");
    CHECK(d.construct == "OpTaskSequenceCreateINTEL");
    CHECK(d.message == "calls %uint_1, which is not an OpFunction");
  }
  SUBCASE("Pipelined >= -1") {
    auto d = onlyError(text, "%task -1 0", "%task -2 0");
    CHECK(d.message == "Pipelined is -2; expected -1 (compiler's choice), 0 (not pipelined) or an initiation "
                       "interval N > 0");
    CHECK(errorsOf(kernel("%s = OpTaskSequenceCreateINTEL %ts %task 3 1 1 1\nOpReturn\n")).empty());
  }
  SUBCASE("ClusterMode in {-1, 0, 1}") {
    auto d = onlyError(text, "%task -1 0 2", "%task -1 2 2");
    CHECK(d.message ==
          "ClusterMode is 2; expected -1 (compiler's choice), 0 (stall-free) or 1 (stall-enable)");
    CHECK(errorsOf(kernel("%s = OpTaskSequenceCreateINTEL %ts %task 0 -1 1 1\nOpReturn\n")).empty());
  }
  SUBCASE("Async argument count matches the function") {
    auto d = onlyError(text, "%seq %uint_1 %float_1", "%seq %uint_1");
    CHECK(d.construct == "OpTaskSequenceAsyncINTEL");
    CHECK(d.message == "passes 1 argument to %task, which takes 2; expected one argument per parameter");
  }
  SUBCASE("Async argument types match the parameters") {
    auto d = onlyError(text, "%seq %uint_1 %float_1", "%seq %float_1 %float_1");
    CHECK(d.message ==
          "argument 0: %float_1 has type %float (32-bit float); expected %uint (32-bit integer), the "
          "type of parameter %x of %task");
  }
  SUBCASE("Get's type is the function's return type") {
    auto d = onlyError(text, "OpTaskSequenceGetINTEL %uint", "OpTaskSequenceGetINTEL %float");
    CHECK(d.message ==
          "Result Type is %float (32-bit float); expected %uint (32-bit integer), the return type of %task");
  }
  SUBCASE("Sequence operands have OpTypeTaskSequenceINTEL") {
    for (const char* op : {"OpTaskSequenceAsyncINTEL %seq", "OpTaskSequenceReleaseINTEL %seq",
                           "OpTaskSequenceGetINTEL %uint %seq"}) {
      std::string bad = op;
      bad.replace(bad.find("%seq"), 4, "%uint_1");
      auto d = onlyError(text, op, bad);
      CHECK(d.message == "Sequence %uint_1 has type %uint (32-bit integer); expected a value of "
                         "OpTypeTaskSequenceINTEL");
    }
  }
  SUBCASE("a wrong Create result type also makes its uses wrong, all in one run") {
    std::string bad = text;
    bad.replace(bad.find("OpTaskSequenceCreateINTEL %ts"), 29, "OpTaskSequenceCreateINTEL %uint");
    auto d = errorsOf(bad);
    REQUIRE(d.size() == 4);
    CHECK(d[0].message == "Result Type is %uint (32-bit integer); expected an OpTypeTaskSequenceINTEL");
    CHECK(d[0].loc.str() == fmt::format("r.spvasm:{}:1", lineOf(bad, "%seq = ")));
    for (size_t k = 1; k < 4; ++k)
      CHECK(contains(d[k].message, "expected a value of OpTypeTaskSequenceINTEL"));
  }
}

TEST_CASE("loop control rules") {
  auto loop = [](const std::string& controls) {
    return kernel("OpBranch %head\n%head = OpLabel\n%i = OpPhi %uint %uint_0 %entry %next %head\n"
                  "%next = OpIAdd %uint %i %uint_1\n%c = OpULessThan %bool %next %uint_64\n"
                  "OpLoopMerge %exit %head " +
                  controls + "\nOpBranchConditional %c %head %exit\n%exit = OpLabel\nOpReturn\n");
  };
  SUBCASE("DependencyArrayINTEL names variables") {
    auto d = onlyError(loop("DependencyArrayINTEL 2 %dst 0 %dstf 1"), "%dstf 1", "%uint_3 1");
    CHECK(d.construct == "OpLoopMerge");
    CHECK(d.message ==
          "DependencyArrayINTEL names %uint_3, defined by OpConstant; expected a pointer (a variable or "
          "an access chain into one)");
  }
  SUBCASE("parameters present for each bit, in bit order, nothing left over") {
    std::string text = loop("InitiationIntervalINTEL|MaxConcurrencyINTEL 2 4");
    Module m = readText(text, "r.spvasm");
    ModuleView v = buildModuleView(m);
    const Block& head = v.functions.back().blocks.at(1);
    REQUIRE(head.loopControls);
    // Parameters follow bit order whatever the order of the names: II is bit 16, MaxConcurrency 17.
    CHECK(head.loopControls->initiationInterval == 2u);
    CHECK(head.loopControls->maxConcurrency == 4u);
    // A missing parameter and an extra one are errors of the instruction, with its location.
    std::vector<uint32_t> words = writeBinary(m);
    size_t mergeAt = 0;
    for (const auto& inst : readBinary(bytesOf(words), "r.spv").insts)
      if (inst.op() == Op::OpLoopMerge) mergeAt = inst.wordOffset;
    REQUIRE(mergeAt > 0);
    uint32_t count = words[mergeAt] >> 16;
    REQUIRE((words[mergeAt] & 0xffff) == uint32_t(Op::OpLoopMerge));
    // Drop the last parameter word: the mask announces MaxConcurrencyINTEL without its value.
    std::vector<uint32_t> shorter(words.begin(), words.begin() + static_cast<ptrdiff_t>(mergeAt + count - 1));
    shorter[mergeAt] = (count - 1) << 16 | uint32_t(Op::OpLoopMerge);
    shorter.insert(shorter.end(), words.begin() + static_cast<ptrdiff_t>(mergeAt + count), words.end());
    try {
      buildModuleView(readBinary(bytesOf(shorter), "r.spv"));
      FAIL("a missing loop control parameter was accepted");
    } catch (const DiagnosticError& e) {
      REQUIRE(!e.diagnostics().empty());
      CHECK(e.diagnostics()[0].loc.str() == fmt::format("r.spv: word {}", mergeAt));
      // The binary reader walks the mask with the grammar and finds the parameter missing.
      CHECK(e.diagnostics()[0].message ==
            "missing operand (LiteralInteger); OpLoopMerge needs more operands");
    }
  }
  SUBCASE("FPGA loop controls need their capability") {
    std::string text = loop("MaxConcurrencyINTEL 4");
    std::string cap = "OpCapability FPGALoopControlsINTEL\n";
    auto d = onlyError(text, cap, "");
    CHECK(d.message ==
          "FPGA loop controls need OpCapability FPGALoopControlsINTEL, which the module does not declare");
  }
}

TEST_CASE("register limit rules") {
  SUBCASE("each mode alone is accepted, and registerLimitOf / registerLimitValue report it") {
    struct Mode {
      const char* mode;
      const char* text;
      std::optional<uint64_t> value; // AutoINTEL: no budget
    };
    const Mode modes[] = {{"OpExecutionMode %k MaximumRegistersINTEL 64\n", "MaximumRegistersINTEL 64", 64},
                          {"OpExecutionModeId %k MaximumRegistersIdINTEL %uint_64\n",
                           "MaximumRegistersIdINTEL 64 (%uint_64)", 64},
                          {"OpExecutionMode %k NamedMaximumRegistersINTEL AutoINTEL\n",
                           "NamedMaximumRegistersINTEL AutoINTEL", std::nullopt},
                          {"", "", std::nullopt}};
    for (const Mode& md : modes) {
      std::string src = kernel("OpReturn\n", kAllExtensions, md.mode);
      CHECK(errorsOf(src).empty());
      Module m = readText(src, "r.spvasm");
      ModuleView v = buildModuleView(m);
      CHECK(registerLimitOf(v, v.entryPoints.at(0).function) == std::string(md.text));
      CHECK(registerLimitValue(v, v.entryPoints.at(0).function) == md.value);
    }
  }
  SUBCASE("at most one of the three modes per entry point") {
    std::string modes =
        "OpExecutionMode %k MaximumRegistersINTEL 64\nOpExecutionModeId %k MaximumRegistersIdINTEL "
        "%uint_64\nOpExecutionMode %k NamedMaximumRegistersINTEL AutoINTEL\n";
    std::string text = kernel("OpReturn\n", kAllExtensions, modes);
    auto d = errorsOf(text);
    REQUIRE(d.size() == 2);
    CHECK(d[0].construct == "OpExecutionModeId");
    CHECK(d[0].message ==
          fmt::format("MaximumRegistersIdINTEL on entry point %k, which already has "
                      "MaximumRegistersINTEL (at r.spvasm:{}:1); expected at most one of "
                      "MaximumRegistersINTEL, MaximumRegistersIdINTEL and NamedMaximumRegistersINTEL",
                      lineOf(text, "MaximumRegistersINTEL 64")));
    CHECK(d[1].construct == "OpExecutionMode");
  }
  SUBCASE("the Id form names an integer scalar constant") {
    std::string text =
        kernel("OpReturn\n", kAllExtensions, "OpExecutionModeId %k MaximumRegistersIdINTEL %uint_64\n");
    auto d = onlyError(text, "MaximumRegistersIdINTEL %uint_64", "MaximumRegistersIdINTEL %float_1");
    CHECK(d.message ==
          "Number of Registers %float_1 is defined by OpConstant and %float_1 has type %float (32-bit "
          "float); expected an integer scalar OpConstant or OpSpecConstant");
    d = onlyError(text, "MaximumRegistersIdINTEL %uint_64", "MaximumRegistersIdINTEL %coord");
    CHECK(contains(d.message, "is defined by OpConstantComposite"));
  }
  SUBCASE("the modes need RegisterLimitsINTEL") {
    std::string text = kernel("OpReturn\n", kAllExtensions, "OpExecutionMode %k MaximumRegistersINTEL 8\n");
    auto d = onlyError(text, "OpCapability RegisterLimitsINTEL\n", "");
    CHECK(d.message == "needs OpCapability RegisterLimitsINTEL, which the module does not declare");
  }
}

TEST_CASE("subgroup rules") {
  SUBCASE("shuffles: data of the result type, 32-bit integer scalar index") {
    std::string text = kernel("%a = OpSubgroupShuffleINTEL %v2uint %v2u %uint_0\n"
                              "%b = OpSubgroupShuffleDownINTEL %uint %uint_1 %uint_2 %uint_3\n"
                              "%c = OpSubgroupShuffleUpINTEL %float %float_1 %float_1 %uint_3\n"
                              "%e = OpSubgroupShuffleXorINTEL %uint %uint_1 %uint_2\nOpReturn\n");
    auto d = onlyError(text, "%v2u %uint_0", "%uint_1 %uint_0");
    CHECK(d.message == "Data: %uint_1 has type %uint (32-bit integer); expected the Result Type %v2uint "
                       "(2-component vector)");
    d = onlyError(text, "%uint_2 %uint_3", "%float_1 %uint_3");
    CHECK(d.message ==
          "second data operand: %float_1 has type %float (32-bit float); expected the Result Type %uint "
          "(32-bit integer)");
    d = onlyError(text, "%float_1 %float_1 %uint_3", "%float_1 %float_1 %ulong_4");
    CHECK(d.message == "Delta: %ulong_4 has type %ulong (64-bit integer); expected a 32-bit integer scalar");
    d = onlyError(text, "%uint_1 %uint_2\nOpReturn", "%uint_1 %v2u\nOpReturn");
    CHECK(d.message == "Value: %v2u has type %v2uint (2-component vector); expected a 32-bit integer scalar");
    d = onlyError(text, "%a = OpSubgroupShuffleINTEL %v2uint %v2u", "%a = OpSubgroupShuffleINTEL %gptr %gp");
    CHECK(d.message ==
          "Result Type is %gptr (pointer to %uint in CrossWorkgroup); expected a scalar or vector type");
  }
  SUBCASE("buffer block read/write: pointer to a scalar, component type equal to the pointee") {
    std::string text =
        kernel("%a = OpSubgroupBlockReadINTEL %v2uint %gp\nOpSubgroupBlockWriteINTEL %gp %v2u\n"
               "OpReturn\n");
    auto d = onlyError(text, "%v2uint %gp", "%v2float %gp");
    CHECK(d.message ==
          "Result Type %v2float (2-component vector) has component type %float (32-bit float); expected "
          "the type Ptr points to, %uint (32-bit integer)");
    d = onlyError(text, "%v2uint %gp", "%v2uint %gpv");
    CHECK(d.message ==
          "Ptr: %gpv has type %gptrv (pointer to %v2uint in CrossWorkgroup); expected a pointer to a "
          "scalar type");
    d = onlyError(text, "%gp %v2u", "%gp %float_1");
    CHECK(contains(d.message, "Data: %float_1 has type %float (32-bit float), component type"));
    d = onlyError(text, "%gp %v2u", "%uint_1 %v2u");
    CHECK(contains(d.message, "Ptr: %uint_1 has type %uint"));
  }
  SUBCASE("image block read/write: OpTypeImage with Sampled 0 or 2, integer coordinate") {
    std::string text = kernel("%a = OpSubgroupImageBlockReadINTEL %uint %image %coord\n"
                              "OpSubgroupImageBlockWriteINTEL %image %uint_1 %uint_2\nOpReturn\n");
    auto d = onlyError(text, "%uint %image %coord", "%uint %image1 %coord");
    CHECK(d.message == "Image: the image type has Sampled 1; expected 0 or 2");
    d = onlyError(text, "%uint %image %coord", "%uint %uint_1 %coord");
    CHECK(d.message == "Image: %uint_1 has type %uint (32-bit integer); expected an OpTypeImage value");
    d = onlyError(text, "%image %uint_1 %uint_2", "%image %float_1 %uint_2");
    CHECK(d.message ==
          "Coordinate: %float_1 has type %float (32-bit float); expected an integer scalar or vector");
  }
}

TEST_CASE("2D block IO rules") {
  const std::string load = "OpSubgroup2DBlockLoadINTEL %uint_4 %uint_4 %uint_2 %uint_1 %gp %uint_64 %uint_64 "
                           "%uint_64 %coord %dst\n";
  std::string text =
      kernel(load + "OpSubgroup2DBlockLoadTransformINTEL %uint_1 %uint_8 %uint_4 %uint_1 %gp %uint_64 "
                    "%uint_64 %uint_64 %coord %dst\n"
                    "OpSubgroup2DBlockLoadTransposeINTEL %uint_2 %uint_2 %uint_4 %uint_1 %gp %ulong_4 "
                    "%uint_64 %uint_64 %coord %dstf\n"
                    "OpSubgroup2DBlockPrefetchINTEL %uint_8 %uint_1 %uint_1 %uint_1 %gp %uint_64 %uint_64 "
                    "%uint_64 %coord\n"
                    "OpSubgroup2DBlockStoreINTEL %uint_4 %uint_3 %uint_1 %uint_1 %dst %gp %uint_64 %uint_64 "
                    "%uint_64 %coord\nOpReturn\n");
  SUBCASE("element size 1, 2, 4 or 8") {
    auto d = onlyError(text, "LoadINTEL %uint_4 %uint_4", "LoadINTEL %uint_3 %uint_4");
    CHECK(d.construct == "OpSubgroup2DBlockLoadINTEL");
    CHECK(d.message == "Element Size is 3; expected 1, 2, 4 or 8 bytes");
    CHECK(d.loc.line == lineOf(text, "OpSubgroup2DBlockLoadINTEL"));
  }
  SUBCASE("block width, height, count (and element size) are 32-bit integer constants") {
    auto d = onlyError(text, "LoadINTEL %uint_4 %uint_4 %uint_2", "LoadINTEL %uint_4 %ulong_4 %uint_2");
    CHECK(d.message ==
          "Block Width: %ulong_4 is defined by OpConstant and %ulong_4 has type %ulong (64-bit integer); "
          "expected a constant instruction with scalar 32-bit integer type");
    std::string withLoad = text;
    withLoad.replace(withLoad.find(load), load.size(),
                     "%n = OpLoad %uint %dst\n" + std::string(load).replace(load.find("%uint_2"), 7, "%n"));
    auto ds = errorsOf(withLoad);
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].message ==
          "Block Height: %n is defined by OpLoad and %n has type %uint (32-bit integer); expected a "
          "constant instruction with scalar 32-bit integer type");
    d = onlyError(text, "LoadINTEL %uint_4 %uint_4 %uint_2 %uint_1",
                  "LoadINTEL %uint_4 %uint_4 %uint_2 %float_1");
    CHECK(contains(d.message, "Block Count: %float_1"));
  }
  SUBCASE("block width a multiple of 4 for 1-byte and of 2 for 2-byte elements") {
    auto d = onlyError(text, "%uint_1 %uint_8 %uint_4", "%uint_1 %uint_2 %uint_4");
    CHECK(d.message == "Block Width is 2 for 1-byte elements; expected a multiple of 4");
    d = onlyError(text, "%uint_2 %uint_2 %uint_4", "%uint_2 %uint_3 %uint_4");
    CHECK(d.message == "Block Width is 3 for 2-byte elements; expected a multiple of 2");
  }
  SUBCASE("pointer storage classes") {
    auto d = onlyError(text, "%uint_1 %gp %uint_64 %uint_64 %uint_64 %coord %dst\nOpSubgroup2DBlockLoadT",
                       "%uint_1 %wp %uint_64 %uint_64 %uint_64 %coord %dst\nOpSubgroup2DBlockLoadT");
    CHECK(d.message ==
          "Src Base Pointer: %wp has type %wptr (pointer to %uint in Workgroup); expected a pointer to "
          "the CrossWorkgroup storage class");
    d = onlyError(text, "%coord %dst\nOpSubgroup2DBlockLoadT", "%coord %gp\nOpSubgroup2DBlockLoadT");
    CHECK(contains(d.message,
                   "Dst Pointer: %gp has type %gptr (pointer to %uint in CrossWorkgroup); expected a "
                   "pointer to the Function storage class"));
    d = onlyError(text, "%uint_1 %dst %gp", "%uint_1 %gp %gp");
    CHECK(contains(d.message, "Src Pointer: %gp"));
    d = onlyError(text, "%uint_1 %dst %gp", "%uint_1 %dst %dst");
    CHECK(contains(d.message, "Dst Base Pointer: %dst"));
    d = onlyError(text, "%uint_1 %uint_1 %uint_1 %gp", "%uint_1 %uint_1 %uint_1 %dst");
    CHECK(contains(d.message, "Src Pointer: %dst has type %fptr"));
    d = onlyError(text, "%uint_64 %coord %dst\nOpSubgroup2DBlockLoadTranspose",
                  "%uint_64 %coord %dstf\nOpSubgroup2DBlockLoadTranspose");
    CHECK(d.message ==
          "Dst Pointer: %dstf has type %fptrf (pointer to %float in Function); expected a pointer to a "
          "scalar 32-bit integer (transformed data is packed into 32-bit values)");
  }
  SUBCASE("memory width/height/pitch are integer scalars, the coordinate a 2-vector of integers") {
    auto d = onlyError(text, "%gp %ulong_4 %uint_64", "%gp %float_1 %uint_64");
    CHECK(d.message == "Memory Width: %float_1 has type %float (32-bit float); expected an integer scalar");
    d = onlyError(text, "%uint_64 %uint_64 %coord\nOpSubgroup2DBlockStore",
                  "%uint_64 %uint_64 %coord3\nOpSubgroup2DBlockStore");
    CHECK(d.message ==
          "Coordinate: %coord3 has type %v3uint (3-component vector); expected a vector of two integer "
          "components");
    d = onlyError(text, "%uint_64 %uint_64 %coord\nOpSubgroup2DBlockStore",
                  "%uint_64 %uint_64 %uint_1\nOpSubgroup2DBlockStore");
    CHECK(contains(d.message, "Coordinate: %uint_1"));
  }
  SUBCASE("binary input: the diagnostic gives the instruction's word offset") {
    std::string bad = text;
    bad.replace(bad.find("LoadINTEL %uint_4 %uint_4"), 25, "LoadINTEL %uint_3 %uint_4");
    Module bin = readBinary(bytesOf(writeBinary(readText(bad, "r.spvasm"))), "r.spv");
    uint32_t at = 0;
    for (const auto& inst : bin.insts)
      if (inst.op() == Op::OpSubgroup2DBlockLoadINTEL) at = inst.wordOffset;
    REQUIRE(at > 0);
    try {
      buildModuleView(bin);
      FAIL("an element size of 3 was accepted");
    } catch (const DiagnosticError& e) {
      REQUIRE(e.diagnostics().size() == 1);
      CHECK(e.diagnostics()[0].str() ==
            fmt::format("r.spv: word {}: error: OpSubgroup2DBlockLoadINTEL: Element Size "
                        "is 3; expected 1, 2, 4 or 8 bytes",
                        at));
    }
  }
  SUBCASE("several errors of one instruction in one run") {
    std::string bad = text;
    bad.replace(
        bad.find(load), load.size(),
        "OpSubgroup2DBlockLoadINTEL %uint_1 %uint_2 %uint_2 %uint_1 %wp %float_1 %uint_64 %uint_64 %uint_1 "
        "%gp\n");
    auto d = errorsOf(bad);
    REQUIRE(d.size() == 5);
    CHECK(contains(d[0].message, "Block Width is 2 for 1-byte elements"));
    CHECK(contains(d[1].message, "Src Base Pointer"));
    CHECK(contains(d[2].message, "Memory Width"));
    CHECK(contains(d[3].message, "Coordinate"));
    CHECK(contains(d[4].message, "Dst Pointer"));
  }
}

namespace {

// Module-scope declarations for the OpSpecConstantOp tests; `extra` goes after them, before %k.
std::string specModule(const std::string& extra) {
  return std::string(R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int16
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_32 = OpConstant %uint 32
%m7 = OpConstant %uint 0xfffffff9
%min = OpConstant %uint 0x80000000
%minus1 = OpConstant %uint 0xffffffff
%s8001 = OpConstant %ushort 0x8001
%float_1 = OpConstant %float 1
%arr4 = OpTypeArray %uint %uint_4
%v2 = OpTypeVector %uint 2
%st = OpTypeStruct %uint %arr4
%gst = OpTypePointer CrossWorkgroup %st
%gu = OpTypePointer CrossWorkgroup %uint
%genu = OpTypePointer Generic %uint
%gv = OpVariable %gst CrossWorkgroup
%fnty = OpTypeFunction %void
)") + extra + "%k = OpFunction %void None %fnty\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
}

} // namespace

TEST_CASE("OpSpecConstantOp: integer and composite operations fold, addresses are recorded") {
  const std::string text = specModule(R"(%add = OpSpecConstantOp %uint IAdd %uint_2 %uint_3
%shl = OpSpecConstantOp %uint ShiftLeftLogical %uint_1 %uint_4
%sconv = OpSpecConstantOp %uint SConvert %s8001
%uconv = OpSpecConstantOp %uint UConvert %s8001
%trunc = OpSpecConstantOp %ushort UConvert %m7
%sdiv = OpSpecConstantOp %uint SDiv %m7 %uint_2
%srem = OpSpecConstantOp %uint SRem %m7 %uint_2
%smod = OpSpecConstantOp %uint SMod %m7 %uint_2
%sra = OpSpecConstantOp %uint ShiftRightArithmetic %m7 %uint_1
%wrap = OpSpecConstantOp %uint IMul %min %uint_2
%lt = OpSpecConstantOp %bool SLessThan %m7 %uint_0
%ult = OpSpecConstantOp %bool ULessThan %m7 %uint_0
%not = OpSpecConstantOp %bool LogicalNot %ult
%sel = OpSpecConstantOp %uint Select %lt %add %shl
%vals = OpConstantComposite %arr4 %add %shl %sconv %uconv
%ext = OpSpecConstantOp %uint CompositeExtract %vals 2
%ins = OpSpecConstantOp %arr4 CompositeInsert %sdiv %vals 0
%va = OpConstantComposite %v2 %uint_1 %uint_2
%vb = OpConstantComposite %v2 %uint_3 %uint_4
%shuf = OpSpecConstantOp %v2 VectorShuffle %va %vb 3 0
%elt = OpSpecConstantOp %gu InBoundsAccessChain %gv %uint_1 %uint_3
%gen = OpSpecConstantOp %genu PtrCastToGeneric %elt
%addr = OpSpecConstantOp %ulong ConvertPtrToU %gen
%nullg = OpConstantNull %gu
%nullgen = OpSpecConstantOp %genu PtrCastToGeneric %nullg
%table = OpTypeArray %genu %uint_2
%tab = OpConstantComposite %table %gen %nullgen
)");
  Module m = readText(text, "spec.spvasm");
  ModuleView v = buildModuleView(m);
  auto id = [&](const std::string& name) {
    for (const auto& [i, n] : m.textNames)
      if (n == name) return i;
    FAIL("no id named " << name);
    return Id(0);
  };
  auto bits = [&](const std::string& name) {
    const Constant* c = v.findConstant(id(name));
    REQUIRE_MESSAGE(c, name);
    CHECK_MESSAGE(!c->expr, name);
    return c->bits;
  };
  CHECK(bits("add") == 5);
  CHECK(bits("shl") == 16);
  CHECK(bits("sconv") == 0xffff8001u);
  CHECK(bits("uconv") == 0x8001u);
  CHECK(bits("trunc") == 0xfff9u);
  CHECK(bits("sdiv") == uint32_t(-3));
  CHECK(bits("srem") == uint32_t(-1));
  CHECK(bits("smod") == 1u);
  CHECK(bits("sra") == uint32_t(-4));
  CHECK(bits("wrap") == 0u);
  CHECK(bits("lt") == 1u);
  CHECK(bits("ult") == 0u);
  CHECK(bits("not") == 1u);
  CHECK(bits("sel") == 5u);
  CHECK(bits("ext") == 0xffff8001u);
  CHECK(v.findConstant(id("ins"))->constituents == std::vector<Id>{id("sdiv"), id("shl"), id("sconv"), id("uconv")});
  CHECK(v.findConstant(id("shuf"))->constituents == std::vector<Id>{id("uint_4"), id("uint_1")});
  // Addresses stay expressions for the consumers' pointer models.
  const Constant* elt = v.findConstant(id("elt"));
  REQUIRE(elt->expr);
  CHECK(elt->expr->op == Op::OpInBoundsAccessChain);
  CHECK(elt->expr->operands == std::vector<Id>{id("gv"), id("uint_1"), id("uint_3")});
  CHECK(v.findConstant(id("gen"))->expr->op == Op::OpPtrCastToGeneric);
  CHECK(v.findConstant(id("gen"))->expr->operands == std::vector<Id>{id("elt")});
  CHECK(v.findConstant(id("addr"))->expr->op == Op::OpConvertPtrToU);
  CHECK(v.findConstant(id("nullgen"))->isNull); // a cast of null is null
  CHECK(!v.findConstant(id("nullgen"))->expr);
  CHECK(v.findConstant(id("tab"))->constituents == std::vector<Id>{id("gen"), id("nullgen")});
}

TEST_CASE("OpSpecConstantOp: rejected operations and operands name the problem") {
  const std::string good = "%c = OpSpecConstantOp %uint IAdd %uint_2 %uint_3\n";
  const std::string text = specModule(good);
  auto fails = [&](const std::string& bad, const std::string& message) {
    Diagnostic d = onlyError(text, good, bad);
    CHECK(d.construct == "OpSpecConstantOp");
    CHECK_MESSAGE(contains(d.message, message), d.message);
  };
  // Valid, but without a value here: accepted (an unused constant must not fail a module), with the
  // reason recorded for whoever uses it.
  auto defers = [&](const std::string& bad, const std::string& message) {
    std::string changed = text;
    changed.replace(changed.find(good), good.size(), bad);
    Module m = readText(changed, "spec.spvasm");
    ModuleView v = buildModuleView(m);
    Id c = 0;
    for (const auto& [i, n] : m.textNames)
      if (n == "c") c = i;
    CHECK(v.findConstant(c) == nullptr);
    auto u = v.unevaluatedConstants.find(c);
    REQUIRE_MESSAGE(u != v.unevaluatedConstants.end(), bad);
    CHECK_MESSAGE(contains(u->second, message), u->second);
  };
  defers("%c = OpSpecConstantOp %float FAdd %float_1 %float_1\n", "OpSpecConstantOp FAdd is not supported yet");
  defers("%c = OpSpecConstantOp %uint UDiv %uint_2 %uint_0\n", "OpSpecConstantOp UDiv: division by zero (%uint_0 is 0)");
  defers("%c = OpSpecConstantOp %uint SRem %uint_2 %uint_0\n", "division by zero");
  defers("%c = OpSpecConstantOp %uint SDiv %min %minus1\n", "signed overflow");
  defers("%c = OpSpecConstantOp %uint ShiftLeftLogical %uint_1 %uint_32\n", "shift amount 32 is not below the width 32");
  defers("%d = OpSpecConstantOp %uint UDiv %uint_2 %uint_0\n%c = OpSpecConstantOp %uint IAdd %uint_2 %d\n",
         "which has no value: OpSpecConstantOp UDiv: division by zero");
  fails("%c = OpSpecConstantOp %uint BitReverse %uint_2\n", "OpSpecConstantOp BitReverse is not allowed");
  fails("%c = OpSpecConstantOp %uint IAdd %uint_2 %later\n%later = OpConstant %uint 1\n",
        "operand %later is not defined before %c");
  fails("%c = OpSpecConstantOp %uint IAdd %uint_2 %s8001\n", "operands are 32- and 16-bit integers");
  fails("%c = OpSpecConstantOp %uint IAdd %uint_2 %float_1\n", "operand %float_1 has type %float; expected a scalar integer");
  fails("%c = OpSpecConstantOp %gu InBoundsAccessChain %gv\n", "the indices reach type %st; expected the result's pointee");
  fails("%c = OpSpecConstantOp %gu InBoundsAccessChain %gv %uint_2 %uint_0\n", "struct member index %uint_2 is out of range");
  fails("%c = OpSpecConstantOp %gu PtrCastToGeneric %gv\n", "PtrCastToGeneric from CrossWorkgroup to CrossWorkgroup storage");
  fails("%c = OpSpecConstantOp %uint ConvertPtrToU %uint_1\n", "operand %uint_1 has type %uint; expected a pointer");
  // An array length must be a number, not an address.
  Diagnostic d = onlyError(text, good, "%c = OpSpecConstantOp %ulong ConvertPtrToU %gv\n%bad = OpTypeArray %uint %c\n");
  CHECK(d.construct == "OpTypeArray");
  CHECK_MESSAGE(contains(d.message, "array length %c is not a scalar constant"), d.message);
}
