// Frontend tests: grammar tables, binary and text readers, writers, module view, loop controls and
// diagnostics. Fixtures in tests/unit/data/frontend were produced by regen.sh there (clang-15,
// llvm-spirv-15, spirv-dis); spirv-dis --raw-id output is the oracle for the text reader and writer.
#include <doctest/doctest.h>

#include <cstring>

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "frontend/grammar.h"
#include "frontend/literals.h"
#include "frontend/module.h"

#include "frontend_test_util.h"

using namespace spvhls;
using namespace spvhls::spirv;
using namespace spvhls::testutil;

namespace {

std::string fixture(const std::string& name) { return std::string(SPVHLS_SOURCE_DIR) + "/tests/unit/data/frontend/" + name; }

const Block* findBlockWithLoop(const ModuleView& v) {
  for (const auto& f : v.functions)
    for (const auto& b : f.blocks)
      if (b.loopControls) return &b;
  return nullptr;
}

Id idNamed(const Module& m, const std::string& name) {
  for (const auto& [id, n] : m.textNames)
    if (n == name) return id;
  FAIL("no id named " << name);
  return 0;
}

const char* kPrelude = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int16
               OpCapability Int8
               OpCapability Float16
               OpCapability Float64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %uchar = OpTypeInt 8 0
      %short = OpTypeInt 16 1
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
       %half = OpTypeFloat 16
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %uint_10 = OpConstant %uint 10
       %fnty = OpTypeFunction %void
)";

std::string kernel(const std::string& decls, const std::string& caps, const std::string& body) {
  return caps + kPrelude + decls + "          %k = OpFunction %void None %fnty\n      %entry = OpLabel\n" + body +
         "               OpFunctionEnd\n";
}

} // namespace

TEST_CASE("grammar tables: core, supplement and ALTERA aliases") {
  CHECK(std::string(grammar::opName(uint16_t(Op::OpIAdd))) == "OpIAdd");
  CHECK(spv::StorageClass::CrossWorkgroup == 5);
  CHECK(spv::Decoration::StallFreeINTEL == 6151);
  CHECK(uint16_t(Op::OpTaskSequenceCreateINTEL) == 6163);
  CHECK(uint16_t(Op::OpTypeTaskSequenceINTEL) == 6199);
  CHECK(uint16_t(Op::OpSubgroup2DBlockStoreINTEL) == 6235);
  CHECK(spv::Capability::RegisterLimitsINTEL == 6460);
  CHECK(spv::ExecutionMode::NamedMaximumRegistersINTEL == 6463);
  CHECK(spv::Capability::Subgroup2DBlockTransposeINTEL == 6230);
  // ALTERA spellings name the same numbers; the INTEL spelling is the one printed.
  CHECK(uint16_t(Op::OpTaskSequenceCreateALTERA) == 6163);
  CHECK(spv::LoopControl::InitiationIntervalALTERA == spv::LoopControl::InitiationIntervalINTEL);
  CHECK(spv::Capability::FPGALoopControlsALTERA == 5888);
  CHECK(grammar::findInstruction("OpLoopControlALTERA")->opcode == 5887);
  CHECK(std::string(grammar::findInstruction(6163)->name) == "OpTaskSequenceCreateINTEL");
  CHECK(grammar::enumName(OperandKind::Decoration, 5905) == "StallEnableINTEL");
  // LoopControl parameters follow the extension spec, not the Khronos grammar.
  auto params = grammar::paramsOf(*grammar::findEnumerant(OperandKind::LoopControl, "LoopCountINTEL"));
  REQUIRE(params.size() == 3);
  CHECK(params[0].kind == OperandKind::LiteralInteger64);
  auto dep = grammar::paramsOf(*grammar::findEnumerant(OperandKind::LoopControl, "DependencyArrayINTEL"));
  REQUIRE(dep.size() == 2);
  CHECK(dep[1].quantifier == grammar::Quantifier::Counted);
  CHECK(grammar::maskName(OperandKind::FunctionControl, 0x2 | 0x10000) == "DontInline|OptNoneINTEL");
}

TEST_CASE("clang-15 vector add: binary reader and module view") {
  Module m = readBinary(readBytes(fixture("vadd.spv")), "vadd.spv");
  CHECK(m.bound == 54);
  CHECK(m.version == 0x00010400);
  CHECK((m.generator >> 16) == 6u); // Khronos LLVM/SPIR-V Translator
  REQUIRE(m.insts.size() == 118);
  CHECK(m.insts[0].wordOffset == 5);
  CHECK(m.locOf(m.insts[0]).str() == "vadd.spv: word 5");

  ModuleView v = buildModuleView(m);
  const EntryPoint* ep = v.findEntryPoint("vadd");
  REQUIRE(ep);
  const Function* f = v.findFunction(ep->function);
  REQUIRE(f);
  CHECK(f->params.size() == 4);
  CHECK(f->blocks.size() == 1);
  CHECK(v.nameOf(ep->function) == "%47");
  const Function* inner = v.findFunction(10);
  REQUIRE(inner);
  CHECK(v.nameOf(inner->id) == "%vadd");
  REQUIRE(inner->blocks.size() == 3);
  CHECK(v.inst(inner->blocks[0].terminator).op() == Op::OpBranchConditional);
  CHECK(v.blockOf.at(inner->blocks[2].label) == std::pair<uint32_t, uint32_t>{v.functionIndex.at(10), 2});
  CHECK(v.addressingModel == spv::AddressingModel::Physical64);
  CHECK(v.extInstImports.at(1) == "OpenCL.std");
  const Type& ptr = v.type(8);
  CHECK(ptr.kind == Type::Kind::Pointer);
  CHECK(ptr.storageClass == spv::StorageClass::CrossWorkgroup);
  CHECK(v.sizeOf(8) == 8);
  CHECK(v.sizeOf(3) == 32); // ulong3 is laid out like ulong4
  CHECK(v.hasDecoration(5, spv::Decoration::BuiltIn));
  CHECK(v.globals == std::vector<Id>{5});
  CHECK(v.capabilities.size() == 5);
  CHECK_THROWS_AS(v.type(1), DiagnosticError); // %1 is the OpenCL.std import
}

TEST_CASE("text reader on spirv-dis output gives the binary's words") {
  for (const char* name : {"vadd", "mixed"}) {
    CAPTURE(name);
    auto bytes = readBytes(fixture(std::string(name) + ".spv"));
    Module text = readText(readString(fixture(std::string(name) + ".spvasm")), name);
    CHECK(writeBinary(text) == wordsOf(bytes));
    buildModuleView(text);
  }
  // Friendly names: ids are renumbered, but the module is the same instruction by instruction.
  Module bin = readBinary(readBytes(fixture("vadd.spv")), "vadd.spv");
  Module named = readText(readString(fixture("vadd_named.spvasm")), "vadd_named.spvasm");
  REQUIRE(named.insts.size() == bin.insts.size());
  for (size_t i = 0; i < bin.insts.size(); ++i) {
    CHECK(named.insts[i].opcode == bin.insts[i].opcode);
    CHECK(named.insts[i].operands.size() == bin.insts[i].operands.size());
  }
  ModuleView v = buildModuleView(named);
  CHECK(v.findEntryPoint("vadd"));
  CHECK(named.textNames.at(idNamed(named, "vadd")) == "vadd");
  CHECK(named.insts[12].line == 18); // OpEntryPoint, after the header comments and capabilities
}

TEST_CASE("writers: spirv-dis --raw-id output and round trips") {
  for (const char* name : {"vadd", "mixed"}) {
    CAPTURE(name);
    auto bytes = readBytes(fixture(std::string(name) + ".spv"));
    Module m = readBinary(bytes, name);
    TextOptions raw;
    raw.friendlyNames = false;
    std::string text = writeText(m, raw);
    CHECK(text == readString(fixture(std::string(name) + ".spvasm")));
    CHECK(writeBinary(readText(text, name)) == wordsOf(bytes));
    // With names (spirv-dis's: %uint, %uint_0, ...): text -> module -> text is a fixpoint, and so is
    // text -> binary -> text. Named ids get the lowest free numbers in order of first use, as
    // spirv-as numbers them, so the words come back renumbered, as many as before. Without the
    // header, only the generator word is lost.
    TextOptions noHeader;
    noHeader.header = false;
    std::string friendly = writeText(m, noHeader);
    Module back = readText(friendly, name);
    CHECK(writeText(back, noHeader) == friendly);
    std::vector<uint32_t> words = writeBinary(back);
    REQUIRE(words.size() == wordsOf(bytes).size());
    CHECK(words[2] == 0);
    std::vector<uint8_t> again(words.size() * 4);
    std::memcpy(again.data(), words.data(), again.size());
    CHECK(writeText(readBinary(again, name), noHeader) == friendly);
  }
}

TEST_CASE("big-endian binary reads like little-endian") {
  auto words = wordsOf(readBytes(fixture("vadd.spv")));
  Module le = readBinary(bytesOf(words), "le.spv");
  Module be = readBinary(bytesOf(words, true), "be.spv");
  CHECK(writeBinary(be) == writeBinary(le));
  buildModuleView(be);
}

TEST_CASE("readModuleFile chooses binary or text by the magic number") {
  Module b = readModuleFile(fixture("vadd.spv"));
  Module t = readModuleFile(fixture("vadd.spvasm"));
  CHECK(b.insts[0].wordOffset == 5);
  CHECK(t.insts[0].line > 0);
  CHECK(writeBinary(b) == writeBinary(t));
  CHECK_THROWS_AS(readModuleFile(fixture("does-not-exist.spv")), DiagnosticError);
}

TEST_CASE("loop controls from llvm-spirv-15 (OpLoopMerge with LoopCount and DependencyArray)") {
  auto bytes = readBytes(fixture("loop_controls.spv"));
  Module m = readBinary(bytes, "loop_controls.spv");
  ModuleView v = buildModuleView(m);
  const Block* b = findBlockWithLoop(v);
  REQUIRE(b);
  const LoopControls& lc = *b->loopControls;
  CHECK(v.inst(b->loopControlInst).op() == Op::OpLoopMerge);
  CHECK(lc.initiationInterval == 2u);
  CHECK(lc.maxConcurrency == 3u);
  CHECK(lc.noFusion);
  CHECK(lc.loopCountMin == -1);
  CHECK(lc.loopCountMax == 1000);
  CHECK(lc.loopCountAvg == 500);
  REQUIRE(lc.hasDependencyArray);
  REQUIRE(lc.dependencyArray.size() == 2);
  CHECK(lc.dependencyArray[0].second == 1);
  CHECK(lc.dependencyArray[1].second == 4);
  CHECK(v.defInst(lc.dependencyArray[0].first) != nullptr);
  CHECK(v.defInst(lc.dependencyArray[1].first) != nullptr);
  // spirv-dis cannot print this module; our writer can, and reads it back to the same words.
  std::string text = writeText(m);
  CHECK(text.find("LoopCountINTEL") != std::string::npos);
  CHECK(writeBinary(readText(text, "lc.spvasm")).size() == wordsOf(bytes).size());
  TextOptions raw;
  raw.friendlyNames = false;
  CHECK(writeBinary(readText(writeText(m, raw), "lc.spvasm")) == wordsOf(bytes));
}

namespace {

std::string loopKernel(const std::string& caps, const std::string& controlInst) {
  std::string decls = "        %ptr = OpTypePointer Function %uint\n";
  std::string body = R"(         %va = OpVariable %ptr Function
         %vb = OpVariable %ptr Function
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %latch
       %cond = OpULessThan %bool %i %uint_10
)" + controlInst + R"(
               OpBranchConditional %cond %body %exit
       %body = OpLabel
               OpBranch %latch
      %latch = OpLabel
       %next = OpIAdd %uint %i %uint_1
               OpBranch %header
       %exit = OpLabel
               OpReturn
)";
  return kernel(decls, caps, body);
}

void checkDecodedLoop(const std::string& text, Op expectedInst) {
  Module m = readText(text, "loop.spvasm");
  ModuleView v = buildModuleView(m);
  const Block* b = findBlockWithLoop(v);
  REQUIRE(b);
  CHECK(v.inst(b->loopControlInst).op() == expectedInst);
  CHECK(b->label == idNamed(m, "header"));
  const LoopControls& lc = *b->loopControls;
  CHECK(lc.initiationInterval == 1u);
  CHECK(lc.loopCountMin == -1);
  CHECK(lc.loopCountMax == -1);
  CHECK(lc.loopCountAvg == 100);
  REQUIRE(lc.dependencyArray.size() == 2);
  CHECK(lc.dependencyArray[0] == std::pair<Id, uint32_t>{idNamed(m, "va"), 0});
  CHECK(lc.dependencyArray[1] == std::pair<Id, uint32_t>{idNamed(m, "vb"), 3});
  // LoopCount's -1 values are two all-ones words each; the binary round trip keeps every word.
  auto words = writeBinary(m);
  Module bin = readBinary(bytesOf(words), "loop.spv");
  CHECK(writeBinary(bin) == words);
  CHECK(buildModuleView(bin).functions.size() == 1);
  const auto& ops = v.inst(b->loopControlInst).operands;
  size_t base = expectedInst == Op::OpLoopMerge ? 2 : 0;
  REQUIRE(ops.size() == base + 1 + 1 + 5 + 6);
  CHECK(ops[base + 7] == 0xffffffffu);
  CHECK(ops[base + 8] == 0xffffffffu);
  CHECK(ops[base + 11] == 100u);
  CHECK(ops[base + 12] == 0u);
  // Printed back with the INTEL spelling.
  std::string out = writeText(m);
  CHECK(out.find("InitiationIntervalINTEL|DependencyArrayINTEL|LoopCountINTEL 1 2 %va 0 %vb 3 -1 -1 100") !=
        std::string::npos);
  CHECK(readText(out, "again.spvasm").insts.size() == m.insts.size());
}

} // namespace

TEST_CASE("loop controls in text: OpLoopMerge and OpLoopControlINTEL, INTEL and ALTERA spellings") {
  const std::string params = "1 2 %va 0 %vb 3 -1 -1 100";
  const std::string intelCaps = "OpCapability FPGALoopControlsINTEL\nOpExtension \"SPV_INTEL_fpga_loop_controls\"\n";
  const std::string alteraCaps =
      "OpCapability FPGALoopControlsALTERA\nOpExtension \"SPV_ALTERA_fpga_loop_controls\"\n";
  const std::string unstructured =
      "OpCapability UnstructuredLoopControlsINTEL\nOpExtension \"SPV_INTEL_unstructured_loop_controls\"\n";
  SUBCASE("OpLoopMerge, INTEL") {
    checkDecodedLoop(
        loopKernel(intelCaps, "OpLoopMerge %exit %latch InitiationIntervalINTEL|DependencyArrayINTEL|LoopCountINTEL " + params),
        Op::OpLoopMerge);
  }
  SUBCASE("OpLoopMerge, ALTERA") {
    checkDecodedLoop(
        loopKernel(alteraCaps,
                   "OpLoopMerge %exit %latch LoopCountALTERA|InitiationIntervalALTERA|DependencyArrayALTERA " + params),
        Op::OpLoopMerge);
  }
  SUBCASE("OpLoopControlINTEL") {
    checkDecodedLoop(
        loopKernel(intelCaps + unstructured,
                   "OpLoopControlINTEL InitiationIntervalINTEL|DependencyArrayINTEL|LoopCountINTEL " + params),
        Op::OpLoopControlINTEL);
  }
  SUBCASE("OpLoopControlALTERA") {
    checkDecodedLoop(
        loopKernel(alteraCaps + unstructured,
                   "OpLoopControlALTERA InitiationIntervalALTERA|DependencyArrayALTERA|LoopCountALTERA " + params),
        Op::OpLoopControlINTEL);
  }
  SUBCASE("missing capability and extension are reported") {
    auto diags = diagnosticsOf([&] {
      buildModuleView(readText(loopKernel("", "OpLoopMerge %exit %latch InitiationIntervalINTEL 4"), "nocap.spvasm"));
    });
    REQUIRE(diags.size() == 2);
    CHECK(diags[0].message.find("FPGALoopControlsINTEL") != std::string::npos);
    CHECK(diags[1].message.find("SPV_INTEL_fpga_loop_controls") != std::string::npos);
    CHECK(diags[0].construct == "OpLoopMerge");
    CHECK(diags[0].loc.line > 0);
  }
  SUBCASE("loop controls must precede the terminator") {
    std::string text = loopKernel(intelCaps, "OpLoopMerge %exit %latch None\n%extra = OpIAdd %uint %i %uint_1");
    auto diags = diagnosticsOf([&] { buildModuleView(readText(text, "late.spvasm")); });
    CHECK(diags.at(0).message.find("must immediately precede the terminator") != std::string::npos);
  }
}

TEST_CASE("decodeLoopControls") {
  SourceLoc where{"x.spv", 7, 0, 0, true};
  uint32_t core[] = {0x1 | 0x8 | 0x100, 4, 8};
  LoopControls lc = decodeLoopControls(core, 3, where);
  CHECK(lc.unroll);
  CHECK(lc.dependencyLength == 4u);
  CHECK(lc.partialCount == 8u);
  uint32_t fpga[] = {0x20000 | 0x80000 | 0x100000 | 0x200000 | 0x400000 | 0x2000000, 5, 1, 0, 2, 9, 3};
  lc = decodeLoopControls(fpga, 7, where);
  CHECK(lc.maxConcurrency == 5u);
  CHECK(lc.pipelineEnable == 1u);
  CHECK(lc.loopCoalesce == 0u);
  CHECK(lc.maxInterleaving == 2u);
  CHECK(lc.speculatedIterations == 9u);
  CHECK(lc.maxReinvocationDelay == 3u);
  uint32_t shortCount[] = {0x1000000, 1, 0, 2, 0}; // LoopCount needs 6 words
  auto diags = diagnosticsOf([&] { decodeLoopControls(shortCount, 5, where); });
  CHECK(diags.at(0).str().find("x.spv: word 7") != std::string::npos);
  CHECK(diags.at(0).message.find("LoopCountINTEL") != std::string::npos);
  uint32_t badArray[] = {0x40000, 3, 10, 0};
  CHECK_THROWS_AS(decodeLoopControls(badArray, 4, where), DiagnosticError);
  uint32_t unknownBit[] = {0x400};
  CHECK_THROWS_AS(decodeLoopControls(unknownBit, 1, where), DiagnosticError);
  uint32_t extra[] = {0x1, 5};
  CHECK_THROWS_AS(decodeLoopControls(extra, 2, where), DiagnosticError);
}

TEST_CASE("task sequence and 2D block instructions in text and binary") {
  std::string caps = R"(OpCapability TaskSequenceALTERA
OpCapability Subgroup2DBlockIOINTEL
OpCapability Subgroup2DBlockTransformINTEL
OpCapability Subgroup2DBlockTransposeINTEL
OpCapability RegisterLimitsINTEL
OpCapability FPGAClusterAttributesV2INTEL
OpExtension "SPV_INTEL_task_sequence"
OpExtension "SPV_INTEL_2d_block_io"
OpExtension "SPV_INTEL_maximum_registers"
OpExtension "SPV_INTEL_fpga_cluster_attributes"
)";
  std::string decls = R"(
OpExecutionMode %k NamedMaximumRegistersINTEL AutoINTEL
OpDecorate %task StallFreeINTEL
%ts = OpTypeTaskSequenceINTEL
%uint_4 = OpConstant %uint 4
%v2uint = OpTypeVector %uint 2
%gptr = OpTypePointer CrossWorkgroup %uint
%fptr = OpTypePointer Function %uint
%coord = OpConstantComposite %v2uint %uint_0 %uint_1
%gptrv = OpUndef %gptr
%taskty = OpTypeFunction %uint %uint
%task = OpFunction %uint None %taskty
%x = OpFunctionParameter %uint
%tl = OpLabel
OpReturnValue %x
OpFunctionEnd
)";
  std::string body = R"(%dst = OpVariable %fptr Function
%seq = OpTaskSequenceCreateINTEL %ts %task -1 0 2 4
OpTaskSequenceAsyncALTERA %seq %uint_10
%r = OpTaskSequenceGetINTEL %uint %seq
OpTaskSequenceReleaseINTEL %seq
OpSubgroup2DBlockLoadINTEL %uint_1 %uint_4 %uint_10 %uint_1 %gptrv %uint_10 %uint_10 %uint_10 %coord %dst
OpSubgroup2DBlockLoadTransformINTEL %uint_1 %uint_4 %uint_10 %uint_1 %gptrv %uint_10 %uint_10 %uint_10 %coord %dst
OpSubgroup2DBlockLoadTransposeINTEL %uint_1 %uint_4 %uint_10 %uint_1 %gptrv %uint_10 %uint_10 %uint_10 %coord %dst
OpSubgroup2DBlockPrefetchINTEL %uint_1 %uint_4 %uint_10 %uint_1 %gptrv %uint_10 %uint_10 %uint_10 %coord
OpSubgroup2DBlockStoreINTEL %uint_1 %uint_4 %uint_10 %uint_1 %dst %gptrv %uint_10 %uint_10 %uint_10 %coord
OpReturn
)";
  Module m = readText(kernel(decls, caps, body), "ts.spvasm");
  ModuleView v = buildModuleView(m);
  CHECK(v.type(idNamed(m, "ts")).kind == Type::Kind::TaskSequence);
  CHECK(v.executionModes.size() == 1);
  CHECK(v.executionModes[0].literals == std::vector<uint32_t>{0});
  CHECK(v.hasDecoration(idNamed(m, "task"), spv::Decoration::StallFreeINTEL));
  const Instruction* create = v.defInst(idNamed(m, "seq"));
  REQUIRE(create);
  CHECK(create->operands == std::vector<uint32_t>{idNamed(m, "task"), 0xffffffffu, 0, 2, 4});
  auto words = writeBinary(m);
  Module bin = readBinary(bytesOf(words), "ts.spv");
  CHECK(writeBinary(bin) == words);
  buildModuleView(bin);
  size_t loads = 0;
  for (const auto& inst : bin.insts)
    if (inst.op() == Op::OpSubgroup2DBlockLoadINTEL) {
      ++loads;
      CHECK(inst.operands.size() == 10);
    }
  CHECK(loads == 1);
  std::string text = writeText(m);
  CHECK(text.find("OpTaskSequenceAsyncINTEL %seq %uint_10") != std::string::npos);
  CHECK(text.find("OpSubgroup2DBlockPrefetchINTEL") != std::string::npos);
  CHECK(text.find("NamedMaximumRegistersINTEL AutoINTEL") != std::string::npos);
  CHECK(writeBinary(readText(text, "again.spvasm")) == words);
}

TEST_CASE("text literals: ids, integers, floats, 64-bit, OpSwitch, OpExtInst, OpSpecConstantOp") {
  std::string decls = R"(
%ocl = OpExtInstImport "OpenCL.std"
%7 = OpConstant %uint -1
%big = OpConstant %ulong 0x123456789
%neg = OpConstant %ulong -2
%c8 = OpConstant %uchar 255
%s16 = OpConstant %short -2
%f = OpConstant %float 1.5
%nan = OpConstant %float 0x1.8p+128
%ninf = OpConstant %float -0x1p+128
%h = OpConstant %half 0x1p-1
%h2 = OpConstant %half -2.5
%d = OpConstant %double 0.1
%sc = OpSpecConstantOp %uint IAdd %uint_1 %uint_10
%fnl = OpTypeFunction %void %ulong
)";
  std::string text = kPrelude + decls + R"(
%k = OpFunction %void None %fnl
%p = OpFunctionParameter %ulong
%entry = OpLabel
%s = OpExtInst %float %ocl sqrt %f
%m = OpExtInst %float %ocl 27 %f %f   ; fmax by number
OpSwitch %p %def 1 %a 0x100000000 %b -1 %def
%a = OpLabel
OpBranch %def
%b = OpLabel
OpBranch %def
%def = OpLabel
OpReturn
OpFunctionEnd
)";
  Module m = readText(text, "lit.spvasm");
  // %7 keeps its number; names take the free numbers from 1 in order of first appearance, skipping 7.
  CHECK(idNamed(m, "k") == 1);
  CHECK(idNamed(m, "void") == 2);
  CHECK(idNamed(m, "uchar") == 6); // the sixth name
  CHECK(idNamed(m, "short") == 8); // the seventh
  CHECK(m.bound == m.textNames.size() + 2); // names 1..6 and 8..n+1, no header: max id + 1
  ModuleView v = buildModuleView(m);
  auto bits = [&](const char* name) { return v.findConstant(idNamed(m, name))->bits; };
  CHECK(v.findConstant(7)->bits == 0xffffffffu);
  CHECK(bits("big") == 0x123456789ull);
  CHECK(bits("neg") == 0xfffffffffffffffeull);
  CHECK(bits("c8") == 255);
  CHECK(bits("s16") == 0xfffe);                              // zero-extended in the view...
  CHECK(v.defInst(idNamed(m, "s16"))->operands[0] == 0xfffffffeu); // ...sign-extended in the word
  CHECK(bits("f") == 0x3fc00000u);
  CHECK(bits("nan") == 0x7fc00000u);
  CHECK(bits("ninf") == 0xff800000u);
  CHECK(bits("h") == 0x3800u);
  CHECK(bits("h2") == 0xc100u);
  CHECK(bits("d") == 0x3fb999999999999aull);
  CHECK(v.defInst(idNamed(m, "big"))->operands == std::vector<uint32_t>{0x23456789u, 0x1u});
  CHECK(v.defInst(idNamed(m, "sc"))->operands[0] == uint32_t(Op::OpIAdd));
  CHECK(v.defInst(idNamed(m, "s"))->operands[1] == spv::OpenCLStd::Sqrt);
  const Function& fn = v.functions.at(0);
  const auto& sw = v.inst(fn.blocks[0].terminator);
  REQUIRE(sw.op() == Op::OpSwitch);
  // selector, default, then (64-bit literal = 2 words, label) x 3
  CHECK(sw.operands.size() == 2 + 3 * 3);
  CHECK(sw.operands[5] == 0u);
  CHECK(sw.operands[6] == 1u);
  CHECK(sw.operands[8] == 0xffffffffu);
  CHECK(sw.operands[9] == 0xffffffffu);
  // Printing keeps every bit.
  std::string out = writeText(m);
  CHECK(out.find("OpConstant %float 0x1.8p+128") != std::string::npos);
  CHECK(out.find("OpConstant %half 0x1p-1") != std::string::npos);
  CHECK(out.find("OpExtInst %float %ocl fmax %f %f") != std::string::npos);
  CHECK(out.find("OpSpecConstantOp %uint IAdd") != std::string::npos);
  CHECK(out.find("OpConstant %short -2") != std::string::npos);
  CHECK(writeText(readText(out, "again.spvasm")) == out);
}

TEST_CASE("sizeOf and alignOf follow OpenCL") {
  std::string decls = R"(
%uint_3 = OpConstant %uint 3
%S = OpTypeStruct %uint %uchar %ulong
%P = OpTypeStruct %uint %uchar %ulong
OpDecorate %P CPacked
%v3f = OpTypeVector %float 3
%arr = OpTypeArray %S %uint_3
%ptr = OpTypePointer CrossWorkgroup %S
)";
  Module m = readText(kernel(decls, "", "OpReturn\n"), "size.spvasm");
  ModuleView v = buildModuleView(m);
  CHECK(v.sizeOf(idNamed(m, "S")) == 16);
  CHECK(v.alignOf(idNamed(m, "S")) == 8);
  CHECK(v.sizeOf(idNamed(m, "P")) == 13);
  CHECK(v.alignOf(idNamed(m, "P")) == 1);
  CHECK(v.sizeOf(idNamed(m, "v3f")) == 16);
  CHECK(v.alignOf(idNamed(m, "v3f")) == 16);
  CHECK(v.sizeOf(idNamed(m, "arr")) == 48);
  CHECK(v.type(idNamed(m, "arr")).count == 3);
  CHECK(v.sizeOf(idNamed(m, "ptr")) == 8);
  CHECK(v.sizeOf(idNamed(m, "half")) == 2);
  CHECK_THROWS_AS(v.sizeOf(idNamed(m, "void")), DiagnosticError);
}

TEST_CASE("binary errors: truncation, word counts, unknown opcodes, strings, ids") {
  auto words = wordsOf(readBytes(fixture("vadd.spv")));
  SUBCASE("file size not a multiple of 4") {
    auto b = bytesOf(words);
    b.resize(b.size() - 2);
    auto d = diagnosticsOf([&] { readBinary(b, "t.spv"); });
    CHECK(d.at(0).message.find("not a multiple of 4") != std::string::npos);
  }
  SUBCASE("last instruction cut off") {
    auto w = words;
    w.pop_back(); // OpFunctionEnd is one word: drop the OpReturn's too
    w.pop_back();
    w.push_back(0x00050000u | uint32_t(Op::OpIAdd));
    auto d = diagnosticsOf([&] { readBinary(bytesOf(w), "t.spv"); });
    REQUIRE(d.size() == 1);
    CHECK(d[0].str() == fmt::format("t.spv: word {}: error: OpIAdd: word count 5 runs past the end of the module "
                                    "(1 words left)",
                                    w.size() - 1));
  }
  SUBCASE("header only partly there") {
    auto d = diagnosticsOf([&] { readBinary(bytesOf({0x07230203, 0x10000}), "t.spv"); });
    CHECK(d.at(0).message.find("header") != std::string::npos);
  }
  SUBCASE("word count 0") {
    auto w = words;
    w[5] = uint32_t(Op::OpCapability); // word count 0
    auto d = diagnosticsOf([&] { readBinary(bytesOf(w), "t.spv"); });
    CHECK(d.at(0).loc.wordOffset == 5);
    CHECK(d.at(0).loc.known);
    CHECK(d.at(0).construct == "OpCapability");
    CHECK(d.at(0).message.find("word count is 0") != std::string::npos);
  }
  SUBCASE("unknown opcodes: every one is reported") {
    auto w = words;
    w[5] = (w[5] & 0xffff0000u) | 9999;
    w[7] = (w[7] & 0xffff0000u) | 9998;
    auto d = diagnosticsOf([&] { readBinary(bytesOf(w), "t.spv"); });
    REQUIRE(d.size() == 2);
    CHECK(d[0].str() == "t.spv: word 5: error: opcode 9999: unknown opcode; expected an opcode of the SPIR-V grammar");
    CHECK(d[1].loc.wordOffset == 7);
  }
  SUBCASE("operand count differs from the grammar") {
    auto w = words;
    w[5] = (3u << 16) | uint32_t(Op::OpCapability); // OpCapability takes one operand
    auto d = diagnosticsOf([&] { readBinary(bytesOf(w), "t.spv"); });
    CHECK(d.at(0).message.find("more operands than OpCapability takes") != std::string::npos);
    std::vector<uint32_t> tooFew{0x07230203, 0x00010400, 0, 10, 0, (1u << 16) | uint32_t(Op::OpCapability)};
    d = diagnosticsOf([&] { readBinary(bytesOf(tooFew), "t.spv"); });
    CHECK(d.at(0).message.find("missing operand") != std::string::npos);
  }
  SUBCASE("string without NUL") {
    std::vector<uint32_t> w{0x07230203, 0x00010400, 0, 10, 0, (3u << 16) | uint32_t(Op::OpExtension), 0x41414141,
                            0x41414141};
    auto d = diagnosticsOf([&] { readBinary(bytesOf(w), "t.spv"); });
    CHECK(d.at(0).construct == "OpExtension");
    CHECK(d.at(0).message.find("not NUL-terminated") != std::string::npos);
  }
  SUBCASE("id not below the bound") {
    auto w = words;
    w[3] = 40; // bound
    auto d = diagnosticsOf([&] { readBinary(bytesOf(w), "t.spv"); });
    CHECK(d.size() > 1);
    CHECK(d.at(0).message.find("out of range; expected 1 to 39 (bound 40)") != std::string::npos);
  }
  SUBCASE("bad magic") {
    auto w = words;
    w[0] = 0x12345678;
    CHECK_THROWS_WITH_AS(readBinary(bytesOf(w), "t.spv"), doctest::Contains("magic number 0x12345678"),
                         DiagnosticError);
  }
}

TEST_CASE("text errors name file:line:column, the construct and what was expected") {
  SUBCASE("bad token") {
    std::string text = kernel("", "", "%x = OpIAdd %uint %uint_1 42\nOpReturn\n");
    auto d = diagnosticsOf([&] { readText(text, "bad.spvasm"); });
    REQUIRE(d.size() == 1);
    CHECK(d[0].str() == "bad.spvasm:26:27: error: OpIAdd: expected an id (%name or %number) for operand 'Operand 2', "
                        "found '42'");
  }
  SUBCASE("several errors, each instruction on its own") {
    std::string text = kernel("", "", "%x = OpIAdd %uint %uint_1\nOpFrobnicate %x\n%y = OpIAdd %uint %uint_1 %uint_1\n"
                                      "OpStore %x %x Volatile|Bogus\nOpReturn\n");
    auto d = diagnosticsOf([&] { readText(text, "bad.spvasm"); });
    REQUIRE(d.size() == 3);
    CHECK(d[0].message.find("missing operand") != std::string::npos);
    CHECK(d[1].message == "expected an instruction name (Op...) or '%id =', found 'OpFrobnicate'");
    CHECK(d[1].loc.line == 27);
    CHECK(d[2].message.find("'Bogus' is not a MemoryAccess bit") != std::string::npos);
  }
  SUBCASE("literal out of range, unterminated string, result id mismatch") {
    std::string text = kernel("%big = OpConstant %uchar 256\n", "OpExtension \"abc\n", "OpReturn\n%z = OpReturn\n");
    auto d = diagnosticsOf([&] { readText(text, "bad.spvasm"); });
    REQUIRE(d.size() >= 1);
    CHECK(d[0].message.find("string literal is not terminated") != std::string::npos);
    text = kernel("%big = OpConstant %uchar 256\n", "", "OpReturn\n%z = OpReturn\n");
    d = diagnosticsOf([&] { readText(text, "bad.spvasm"); });
    REQUIRE(d.size() == 2);
    CHECK(d[0].message == "expected a 8-bit integer literal for operand 'Value', found '256'");
    CHECK(d[1].message.find("has no result id") != std::string::npos);
  }
  SUBCASE("duplicate definition") {
    std::string text = kernel("%uint_1 = OpConstant %uint 2\n", "", "OpReturn\n");
    auto d = diagnosticsOf([&] { readText(text, "dup.spvasm"); });
    CHECK(d.at(0).message.find("already defined at line") != std::string::npos);
  }
}

TEST_CASE("module view errors") {
  auto viewErrors = [](const std::string& text) {
    return diagnosticsOf([&] { buildModuleView(readText(text, "v.spvasm")); });
  };
  SUBCASE("undefined id") {
    auto d = viewErrors(kernel("", "", "%x = OpIAdd %uint %uint_1 %nowhere\nOpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].str() == "v.spvasm:26:1: error: OpIAdd: uses %nowhere, which is not defined; expected the id of a "
                        "definition");
  }
  SUBCASE("result type that is not a type") {
    auto d = viewErrors(kernel("", "", "%x = OpIAdd %uint_1 %uint_1 %uint_1\nOpReturn\n"));
    CHECK(d.at(0).message.find("expected a type declaration") != std::string::npos);
  }
  SUBCASE("block without terminator, instruction outside a function") {
    auto d = viewErrors(kernel("", "", "%x = OpIAdd %uint %uint_1 %uint_1\n") + "%y = OpIAdd %uint %uint_1 %uint_1\n");
    REQUIRE(d.size() == 2);
    CHECK(d[0].message.find("does not end with a terminator") != std::string::npos);
    CHECK(d[1].message.find("appears outside a function") != std::string::npos);
  }
  SUBCASE("OpPhi parent that is not a predecessor") {
    auto d = viewErrors(kernel("", "", "OpBranch %b\n%a = OpLabel\nOpBranch %b\n%b = OpLabel\n"
                                       "%p = OpPhi %uint %uint_0 %entry %uint_1 %a %uint_1 %b\nOpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "parent %b is not a predecessor of block %b");
  }
  SUBCASE("use not dominated by its definition (fuzz_compile: an internal error in lowering)") {
    // %x is defined on one arm of a branch and used after the join.
    const std::string diamond = "%c = OpULessThan %bool %uint_0 %uint_1\nOpBranchConditional %c %a %b\n"
                                "%a = OpLabel\n%x = OpIAdd %uint %uint_1 %uint_1\nOpBranch %b\n%b = OpLabel\n";
    auto d = viewErrors(kernel("", "", diamond + "%y = OpIAdd %uint %x %uint_1\nOpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].construct == "OpIAdd");
    CHECK(d[0].message == "uses %x, whose definition in block %a does not dominate this use in block %b");
    // Before its definition in the same block.
    d = viewErrors(kernel("", "", "%y = OpIAdd %uint %x %uint_1\n%x = OpIAdd %uint %uint_1 %uint_1\nOpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "uses %x, whose definition in block %entry does not dominate this use in block %entry");
    // An OpPhi's incoming value must dominate the end of its parent: from %a it may take %x, from
    // %entry it may not.
    CHECK_NOTHROW(buildModuleView(readText(
        kernel("", "", diamond + "%p = OpPhi %uint %x %a %uint_0 %entry\nOpReturn\n"), "v.spvasm")));
    d = viewErrors(kernel("", "", diamond + "%p = OpPhi %uint %uint_0 %a %x %entry\nOpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "uses %x, whose definition in block %a does not dominate the end of its parent in block %entry");
    // A label is not a value (fuzz_compile: an access chain indexed by a label).
    d = viewErrors(kernel("", "", diamond + "%y = OpIAdd %uint %a %uint_1\nOpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "uses label %a as a value");
    d = viewErrors(kernel("", "", diamond + "%p = OpPhi %uint %a %a %uint_0 %entry\nOpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "uses label %a as a value");
    // A loop: the header's phi takes the latch's value over the back edge; unreachable blocks are
    // not checked.
    CHECK_NOTHROW(buildModuleView(readText(
        kernel("", "", "OpBranch %h\n%h = OpLabel\n%i = OpPhi %uint %uint_0 %entry %n %h\n"
                       "%n = OpIAdd %uint %i %uint_1\n%c = OpULessThan %bool %n %uint_10\n"
                       "OpBranchConditional %c %h %e\n%dead = OpLabel\n%z = OpIAdd %uint %w %uint_1\nOpBranch %e\n"
                       "%e = OpLabel\n%w = OpIAdd %uint %n %uint_1\nOpReturn\n"),
        "v.spvasm")));
  }
  SUBCASE("entry point and call that name no function") {
    std::string text = kernel("", "", "%r = OpFunctionCall %void %uint_1\nOpReturn\n");
    text.replace(text.find("%k \"k\""), 2, "%uint_0");
    auto d = viewErrors(text);
    REQUIRE(d.size() == 2);
    CHECK(d[0].message == "entry point \"k\" names %uint_0, which is not a function");
    CHECK(d[1].message == "calls %uint_1, which is not an OpFunction");
  }
  SUBCASE("composite types name types declared before them (no cycles)") {
    auto d = viewErrors(kernel("%v = OpTypeVector %w 2\n%w = OpTypeVector %uint 2\n", "", "OpReturn\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "component type %w is not a type declared before %v; expected a type declared earlier");
    // A pointer declared by OpTypeForwardPointer may be named before its OpTypePointer.
    std::string fwd = kernel("OpTypeForwardPointer %p CrossWorkgroup\n%s = OpTypeStruct %uint %p\n"
                             "%p = OpTypePointer CrossWorkgroup %s\n",
                             "", "OpReturn\n");
    CHECK_NOTHROW(buildModuleView(readText(fwd, "v.spvasm")));
  }
  SUBCASE("composite constants: constituents defined before, as many as the type has, of its types") {
    const std::string vec = "%v2 = OpTypeVector %uint 2\n";
    auto self = viewErrors(kernel(vec + "%c = OpConstantComposite %v2 %uint_1 %c\n", "", "OpReturn\n"));
    REQUIRE(self.size() == 1);
    CHECK(self[0].message == "constituent %c is not defined before %c; expected a constant defined earlier");
    auto count = viewErrors(kernel(vec + "%c = OpConstantComposite %v2 %uint_1\n", "", "OpReturn\n"));
    REQUIRE(count.size() == 1);
    CHECK(count[0].message == "1 constituents for type %v2; expected 2");
    auto type = viewErrors(kernel(vec + "%c = OpConstantComposite %v2 %uint_1 %float_1\n%float_1 = OpConstant %float 1\n", "",
                                  "OpReturn\n"));
    CHECK(type.at(0).message == "constituent %float_1 is not defined before %c; expected a constant defined earlier");
    auto type2 = viewErrors(kernel("%f1 = OpConstant %float 1\n" + vec + "%c = OpConstantComposite %v2 %uint_1 %f1\n", "",
                                   "OpReturn\n"));
    REQUIRE(type2.size() == 1);
    CHECK(type2[0].message == "constituent 1 has type %float; expected %uint");
    CHECK_NOTHROW(buildModuleView(readText(kernel(vec + "%c = OpConstantComposite %v2 %uint_1 %uint_0\n", "", "OpReturn\n"), "v.spvasm")));
  }
  SUBCASE("OpFunctionCall: return type, argument count and types of the callee") {
    const std::string callee = "%g = OpFunction %uint None %gty\n%x = OpFunctionParameter %uint\n%gl = OpLabel\n"
                               "OpReturnValue %x\nOpFunctionEnd\n";
    const std::string decls = "%gty = OpTypeFunction %uint %uint\n";
    auto call = [&](const std::string& c) { return kernel(decls, "", c + "OpReturn\n") + callee; };
    CHECK_NOTHROW(buildModuleView(readText(call("%r = OpFunctionCall %uint %g %uint_1\n"), "v.spvasm")));
    auto count = viewErrors(call("%r = OpFunctionCall %uint %g\n"));
    REQUIRE(count.size() == 1);
    CHECK(count[0].message == "0 arguments passed to %g, which takes 1");
    auto type = viewErrors(call("%r = OpFunctionCall %uint %g %uchar_1\n%uchar_1 = OpConstant %uchar 1\n"));
    CHECK(type.at(0).message.find("argument 1 (%uchar_1) has type %uchar; expected %uint, the type of parameter 1 of %g") !=
          std::string::npos);
    auto result = viewErrors(call("%r = OpFunctionCall %ulong %g %uint_1\n"));
    REQUIRE(result.size() == 1);
    CHECK(result[0].message == "Result Type is %ulong; expected %uint, the return type of %g");
  }
  SUBCASE("branch to a label of another function") {
    std::string text = kernel("", "", "OpBranch %other\n") +
                       "%g = OpFunction %void None %fnty\n%other = OpLabel\nOpReturn\nOpFunctionEnd\n";
    auto d = viewErrors(text);
    CHECK(d.at(0).message.find("branches to %other") != std::string::npos);
  }
}

TEST_CASE("half-precision conversions round to nearest even") {
  using namespace spvhls::spirv::detail;
  CHECK(floatToHalf(1.0f) == 0x3c00);
  CHECK(floatToHalf(-2.5f) == 0xc100);
  CHECK(floatToHalf(65504.0f) == 0x7bff);
  CHECK(floatToHalf(65520.0f) == 0x7c00);              // rounds up to infinity
  CHECK(floatToHalf(1.0f + 1.0f / 2048) == 0x3c00);    // halfway, even stays
  CHECK(floatToHalf(1.0f + 3.0f / 2048) == 0x3c02);    // halfway, odd rounds up
  CHECK(floatToHalf(std::ldexp(1.0f, -24)) == 0x0001); // smallest subnormal
  CHECK(floatToHalf(std::ldexp(1.0f, -26)) == 0x0000);
  CHECK(halfToFloat(0x0001) == std::ldexp(1.0f, -24));
  for (uint32_t h = 0; h < 0x7c00; h += 7) CHECK(floatToHalf(halfToFloat(uint16_t(h))) == h);
  for (uint32_t h : {0x0000u, 0x8000u, 0x0001u, 0x03ffu, 0x0400u, 0x3555u, 0x7bffu, 0xfbffu})
    CHECK(parseFloat(formatFloat(h, 16), 16) == h);
  CHECK(parseFloat("0x1.8p+16", 16) == 0x7e00u); // NaN in spirv-dis form
  CHECK(formatFloat(0x7c00, 16) == "0x1p+16");
  CHECK(formatFloat(0x3fb999999999999aull, 64) == "0.10000000000000001");
  CHECK(parseFloat("1e40", 32) == 0x7f800000u);
  CHECK_FALSE(parseFloat("1.5x", 32).has_value());
  CHECK_FALSE(parseFloat("1.5", 8).has_value());
}
