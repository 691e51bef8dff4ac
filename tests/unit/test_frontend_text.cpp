// Text reader: id numbering (as `spirv-as --preserve-numeric-ids` does it), header words, and
// diagnostics that keep their line:column in large texts and across continuation lines. The expected
// numbers below were read off SPIRV-Tools 2023.1 (`spirv-as --preserve-numeric-ids x.spvasm` then
// `spirv-dis --raw-id`); test_frontend_oracle.cpp compares the same texts with spirv-as live.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <string>

#include "frontend/module.h"

#include "frontend_test_util.h"

using namespace spvhls;
using namespace spvhls::spirv;
using namespace spvhls::testutil;

namespace {

Id idNamed(const Module& m, const std::string& name) {
  for (const auto& [id, n] : m.textNames)
    if (n == name) return id;
  FAIL("no id named " << name);
  return 0;
}

const Instruction& defOf(const Module& m, Id id) {
  for (const auto& inst : m.insts)
    if (inst.resultId == id) return inst;
  FAIL("no definition of %" << id);
  return m.insts.front();
}

// Names and numbers mixed; %1 and %6 appear only after names that would otherwise take them, and
// "%2", "%3" and %4 inside a string or a comment are not ids.
const char* kMixed = R"(OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k %2"
OpName %x "%3" ; %4
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%c = OpConstant %uint 7
%k = OpFunction %void None %fn
%lab = OpLabel
%x = OpIAdd %uint %c %c
%1 = OpIAdd %uint %x %c
%y = OpIAdd %uint %x %1
%6 = OpIAdd %uint %y %y
OpReturn
OpFunctionEnd
)";

// A kernel with `body` in its only block, ids numeric from 10 on: `%1`..`%5` are declared here.
std::string numericKernel(const std::string& body) {
  return "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
         "OpEntryPoint Kernel %4 \"k\"\n%1 = OpTypeVoid\n%2 = OpTypeInt 32 0\n%3 = OpTypeFunction %1\n"
         "%5 = OpConstant %2 1\n%4 = OpFunction %1 None %3\n%6 = OpLabel\n" +
         body + "OpReturn\nOpFunctionEnd\n";
}

} // namespace

TEST_CASE("text ids: names take the lowest numbers no numeric id of the text uses, in order of first use") {
  Module m = readText(kMixed, "mixed.spvasm");
  CHECK(idNamed(m, "k") == 2);    // 1 is taken by %1, which appears only later
  CHECK(idNamed(m, "x") == 3);    // first used by OpName; "%3" in the string is not an id
  CHECK(idNamed(m, "void") == 4); // "; %4" is a comment
  CHECK(idNamed(m, "uint") == 5);
  CHECK(idNamed(m, "fn") == 7); // 6 is taken by %6
  CHECK(idNamed(m, "c") == 8);
  CHECK(idNamed(m, "lab") == 9);
  CHECK(idNamed(m, "y") == 10);
  CHECK(m.textNames.size() == 8);
  CHECK(m.bound == 11); // no "; Bound:" comment: max id + 1
  CHECK(defOf(m, 1).operands == std::vector<uint32_t>{3, 8});
  CHECK(defOf(m, 6).operands == std::vector<uint32_t>{10, 10});
  buildModuleView(m);
}

TEST_CASE("text ids: a result id is numbered after its result type, as spirv-as encodes them") {
  Module m = readText("OpCapability Kernel\nOpMemoryModel Logical OpenCL\n%a = OpIAdd %b %c %d\n"
                      "%e = OpTypeInt 32 0\n",
                      "order.spvasm");
  CHECK(idNamed(m, "b") == 1);
  CHECK(idNamed(m, "a") == 2);
  CHECK(idNamed(m, "c") == 3);
  CHECK(idNamed(m, "d") == 4);
  CHECK(idNamed(m, "e") == 5);
  CHECK(m.insts.at(2).resultType == 1);
  CHECK(m.insts.at(2).resultId == 2);
  CHECK(m.bound == 6);
}

TEST_CASE("text ids: numeric spellings as spirv-as reads them") {
  // Like strtoul with base 0: %0x10 is id 16, %011 is octal (id 9); %08 is not a number, so a name,
  // and so is a number beyond 32 bits.
  Module m = readText(numericKernel("%0x10 = OpIAdd %2 %5 %5\n%011 = OpIAdd %2 %0x10 %5\n"
                                    "%4294967296 = OpIAdd %2 %9 %0X10\n%08 = OpIAdd %2 %5 %5\n"),
                      "spell.spvasm");
  CHECK(defOf(m, 16).operands == std::vector<uint32_t>{5, 5});
  CHECK(defOf(m, 9).operands == std::vector<uint32_t>{16, 5});
  CHECK(idNamed(m, "4294967296") == 7); // 1..6 are numeric ids
  CHECK(defOf(m, 7).operands == std::vector<uint32_t>{9, 16});
  CHECK(idNamed(m, "08") == 8);
  CHECK(m.bound == 17);
  auto d = diagnosticsOf([&] { readText(numericKernel("%0x400000 = OpIAdd %2 %5 %5\n"), "big.spvasm"); });
  REQUIRE(d.size() == 1);
  CHECK(d[0].str() == "big.spvasm:11:1: error: id: id %0x400000 is out of range; expected 1 to 4194303");
}

TEST_CASE("text header: bound and generator come from the comments when present, else like spirv-as") {
  std::string body = "%7 = OpIAdd %2 %5 %5\n";
  Module plain = readText(numericKernel(body), "plain.spvasm");
  CHECK(plain.bound == 8);
  CHECK(plain.generator == 0); // spirv-as writes its own (SPIRV-Tools Assembler, 7 << 16); we write 0
  CHECK(plain.version == 0x00010400);
  std::string header =
      "; SPIR-V\n; Version: 1.2\n; Generator: Khronos LLVM/SPIR-V Translator; 14\n; Bound: 100\n"
      "; Schema: 0\n";
  Module withHeader = readText(header + numericKernel(body), "header.spvasm");
  CHECK(withHeader.bound == 100);
  CHECK(withHeader.generator == ((6u << 16) | 14u));
  CHECK(withHeader.version == 0x00010200);
  // A header bound that is too small is raised to max id + 1.
  Module small = readText("; Bound: 3\n" + numericKernel(body), "small.spvasm");
  CHECK(small.bound == 8);
}

TEST_CASE("text: an instruction may continue on later lines, and '%id =' may stand apart from its Op") {
  Module m = readText(numericKernel("%7 =\n  OpIAdd %2\n  %5 %5\n%8\n= OpIAdd %2 %7 %5\n"), "lines.spvasm");
  CHECK(defOf(m, 7).operands == std::vector<uint32_t>{5, 5});
  CHECK(defOf(m, 7).line == 11);
  CHECK(defOf(m, 8).operands == std::vector<uint32_t>{7, 5});
  CHECK(defOf(m, 8).line == 14);
  auto d = diagnosticsOf([&] { readText(numericKernel("%7 = OpIAdd %2\n     %5 bogus\n"), "cont.spvasm"); });
  REQUIRE(d.size() == 1);
  CHECK(d[0].str() == "cont.spvasm:12:9: error: OpIAdd: expected an id (%name or %number) for operand "
                      "'Operand 2', found 'bogus'");
}

TEST_CASE("text errors in the middle of a large text keep their line:column") {
  // 200,000 instructions; line numbers: the 10 lines of numericKernel's prelude come first.
  constexpr int kLines = 200000, kBad = 123457;
  auto bigText = [&](const std::string& badLine) {
    std::string body;
    body.reserve(size_t(kLines) * 32);
    for (int i = 0; i < kLines; ++i)
      body += i == kBad ? badLine : fmt::format("%{} = OpIAdd %2 %5 %5\n", 10 + i);
    return numericKernel(body);
  };
  const uint32_t line = 10 + kBad + 1;
  Module ok = readText(bigText(fmt::format("%{} = OpIAdd %2 %5 %5\n", 10 + kBad)), "big.spvasm");
  CHECK(ok.insts.size() == size_t(10 + kLines + 2));
  CHECK(ok.insts.at(10 + kBad).line == line);

  auto d = diagnosticsOf([&] { readText(bigText("       %9 = OpIAdd %2 %5 42\n"), "big.spvasm"); });
  REQUIRE(d.size() == 1);
  CHECK(d[0].str() == fmt::format("big.spvasm:{}:26: error: OpIAdd: expected an id (%name or %number) for "
                                  "operand 'Operand 2', found '42'",
                                  line));
  // Lexical errors come from the first pass, with the same precision.
  d = diagnosticsOf([&] { readText(bigText("OpName %5 \"abc\n"), "big.spvasm"); });
  REQUIRE(d.size() == 1);
  CHECK(d[0].str() == fmt::format("big.spvasm:{}:11: error: token: string literal is not terminated on its "
                                  "line; expected a closing '\"'",
                                  line));
  d = diagnosticsOf([&] { readText(bigText("%9 = OpIAdd %2 % %5\n"), "big.spvasm"); });
  REQUIRE(d.size() == 1);
  CHECK(d[0].str() ==
        fmt::format("big.spvasm:{}:16: error: token: '%' must be followed by an id name or number", line));
  d = diagnosticsOf([&] { readText(bigText("%9 = OpIAdd %2 %5 %9999999\n"), "big.spvasm"); });
  REQUIRE(d.size() == 1);
  CHECK(d[0].str() ==
        fmt::format("big.spvasm:{}:19: error: id: id %9999999 is out of range; expected 1 to 4194303", line));
}

TEST_CASE("text errors: a name whose first definition failed is still reported when defined again") {
  std::string text = numericKernel("%x = OpIAdd 5 %5 %5\n%x = OpIAdd %2 %5 %5\n");
  auto d = diagnosticsOf([&] { readText(text, "dup.spvasm"); });
  REQUIRE(d.size() == 2);
  CHECK(d[0].str() == "dup.spvasm:11:13: error: OpIAdd: expected an id (%name or %number), found '5'");
  CHECK(d[1].str() ==
        "dup.spvasm:12:1: error: OpIAdd: id '%x' is already defined at line 11; expected each id "
        "to be defined once");
}

TEST_CASE("text literals: integers as spirv-as reads them (0x hex, leading 0 octal, 08 is an error)") {
  Module m = readText(numericKernel("%20 = OpConstant %2 010\n%21 = OpConstant %2 0x1F\n%22 = OpConstant %2 0\n"), "lit.spvasm");
  CHECK(defOf(m, 20).operands == std::vector<uint32_t>{8});
  CHECK(defOf(m, 21).operands == std::vector<uint32_t>{31});
  CHECK(defOf(m, 22).operands == std::vector<uint32_t>{0});
  auto d = diagnosticsOf([&] { readText(numericKernel("%20 = OpConstant %2 08\n"), "lit.spvasm"); });
  REQUIRE(d.size() == 1);
  CHECK_MESSAGE(d[0].str().find("lit.spvasm:11:") == 0, d[0].str());
}
