// Program-scope variables (issue 11): how lowering turns module-scope variables of each storage
// class into on-chip memories (contents, persistence, re-initialisation), the interpreter's final
// contents of them, and the comparison `spvhls sim` makes against the simulated RAMs.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "frontend/diagnostics.h"
#include "frontend/module.h"
#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "rtlgen/ram_gen.h"
#include "rtlgen/verilog_printer.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

using namespace spvhls;
using ir::OpKind;

namespace {

using testutil::Kernel;

// A regression kernel compiled by the build (tests/e2e/regress/<stem>.cl, clang-15 -O0 + llvm-spirv-15).
Kernel regress(const std::string& stem) {
  return Kernel::fromFile(std::string(SPVHLS_BINARY_DIR) + "/regress/" + stem + ".spv");
}

const ir::Memory& memoryNamed(const ir::Kernel& k, const std::string& name) {
  auto it =
      std::find_if(k.memories.begin(), k.memories.end(), [&](const ir::Memory& m) { return m.name == name; });
  REQUIRE_MESSAGE(it != k.memories.end(), "no memory " << name);
  return *it;
}

sim::RunSpec r4Spec() {
  return sim::parseRunSpec(R"({"kernel": "k", "args": [{"name": "r", "buffer": {"type": "u32", "length": 4,
                              "init": [5, 7, 0, 0]}}]})",
                           "r4.run.json");
}

// A Private variable with an initializer that the kernel writes, and a Workgroup variable without one
// (OpenCL C has neither at program scope; other producers do).
const char* kPrivateAndWorkgroup = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %p "p"
               OpName %w "w"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %void = OpTypeVoid
         %n2 = OpConstant %ulong 2
        %arr = OpTypeArray %uint %n2
         %pp = OpTypePointer Private %arr
         %pw = OpTypePointer Workgroup %arr
        %ppi = OpTypePointer Private %uint
        %pwi = OpTypePointer Workgroup %uint
        %pgi = OpTypePointer CrossWorkgroup %uint
         %u0 = OpConstant %ulong 0
         %u1 = OpConstant %ulong 1
         %i3 = OpConstant %uint 3
         %i4 = OpConstant %uint 4
       %init = OpConstantComposite %arr %i3 %i4
          %p = OpVariable %pp Private %init
          %w = OpVariable %pw Workgroup
       %fnty = OpTypeFunction %void %pgi
          %k = OpFunction %void None %fnty
          %r = OpFunctionParameter %pgi
      %entry = OpLabel
         %p1 = OpInBoundsAccessChain %ppi %p %u1
          %v = OpLoad %uint %p1
         %v2 = OpIAdd %uint %v %i3
               OpStore %p1 %v2
         %w0 = OpInBoundsAccessChain %pwi %w %u0
               OpStore %w0 %v2
          %x = OpLoad %uint %w0
               OpStore %r %x
               OpReturn
               OpFunctionEnd
)";

} // namespace

TEST_CASE("program-scope variables: on-chip memories with their contents and persistence") {
  Kernel l = regress("globals");
  ir::Kernel k = ir::lowerKernel(*l.view, "k");
  // Globals keep their contents from run to run: configured once from the initializer (zeros when
  // there is none), never stored again by the kernel.
  const ir::Memory& table = memoryNamed(k, "table");
  CHECK(table.kind == ir::Memory::Kind::ProgramScope);
  CHECK(table.persistent);
  CHECK(table.spirvVar != 0);
  REQUIRE(table.init.size() == 32);
  CHECK(table.init[0] == 0x67);
  CHECK(table.init[3] == 0x01);
  CHECK(table.init[28] == 0xff);
  const ir::Memory& zeros = memoryNamed(k, "zeros");
  CHECK(zeros.persistent);
  CHECK(zeros.init == std::vector<uint8_t>(24, 0));
  CHECK(memoryNamed(k, "counter").persistent);
  // A constant is read-only and not persistent (it never changes); a kernel's local array is
  // work-group memory without initial contents.
  const ir::Memory& sbox = memoryNamed(k, "sbox");
  CHECK_FALSE(sbox.persistent);
  CHECK(sbox.init.size() == 16);
  const ir::Memory& scratch = memoryNamed(k, "k.scratch");
  CHECK(scratch.kind == ir::Memory::Kind::WorkGroup);
  CHECK_FALSE(scratch.persistent);
  CHECK(scratch.init.empty());
  // The kernel writes table, and nothing stores its initial contents at the start.
  const uint32_t tableIndex = uint32_t(&table - k.memories.data());
  for (ir::ValueId v : k.blocks[0].ops)
    CHECK_FALSE((k.ops[v].kind == OpKind::Store && k.ops[v].memory == tableIndex));
}

TEST_CASE("program-scope variables: RAMs of words as wide as the widest access, ROMs without write logic") {
  Kernel l = regress("globals");
  ir::Kernel k = ir::lowerKernel(*l.view, "k");
  const std::vector<uint32_t> words = rtl::ramWordBytes(k);
  auto ram = [&](const char* name) {
    const ir::Memory& m = memoryNamed(k, name);
    return rtl::printVerilog(
        rtl::buildRamModule(m, words[size_t(&m - k.memories.data())], std::string("k_") + name));
  };
  auto wordOf = [&](const char* name) { return words[size_t(&memoryNamed(k, name) - k.memories.data())]; };
  // uchar S-box: bytes; uint table: 32-bit words; struct {int; short; uchar}: 32-bit words with byte
  // enables for the short and uchar members.
  CHECK(wordOf("sbox") == 1);
  CHECK(wordOf("table") == 4);
  CHECK(wordOf("pts") == 4);
  // The constant sbox is only read: its RAM is a ROM (a write decoder per byte and lane made yosys
  // take 11 s for AES's 256-byte S-box, 1.3 s without).
  const std::string sbox = ram("sbox"), table = ram("table"), pts = ram("pts");
  CHECK(sbox.find("reg [7:0] ram_mem [0:15];") != std::string::npos);
  CHECK(sbox.find("req_write) begin") == std::string::npos);
  CHECK(sbox.find("assign resp_data = {56'h0, ram_rword_") != std::string::npos);
  CHECK(table.find("reg [31:0] ram_mem [0:7];") != std::string::npos);
  CHECK(table.find("req_write) begin") != std::string::npos);
  // Byte enables: the lanes [lane, lane + size) of one word; the read word shifted down by the lane.
  CHECK(pts.find("= ~({4{1'b1}} << w_req_size) << ram_wlane_") != std::string::npos);
  CHECK(pts.find("[3]) ram_mem[ram_wword_") != std::string::npos);
  CHECK(pts.find("[31:24] <= ram_wdata_") != std::string::npos);
  CHECK(pts.find("assign resp_data = {32'h0, ram_rword_") != std::string::npos);
  // Synthesis may drop the read-during-write logic where a read never meets a write of its word in
  // one cycle: a ROM; a RAM with a write port only when every access is a whole word.
  CHECK(sbox.find("(* no_rw_check *) reg") != std::string::npos);
  CHECK(pts.find("no_rw_check") == std::string::npos);
  const ir::Memory& tm = memoryNamed(k, "table");
  if (tm.ports.size() == 2) {
    CHECK(table.find("no_rw_check") == std::string::npos); // narrowest access not given: assume narrow
    const std::string whole =
        rtl::printVerilog(rtl::buildRamModule(tm, wordOf("table"), "k_table", wordOf("table")));
    CHECK(whole.find("(* no_rw_check *) reg") != std::string::npos);
  }
  // The initial image is little-endian words: table[0] = 0x01234567.
  CHECK(table.find("ram_mem[3'h0] = 32'h1234567;") != std::string::npos);
}

TEST_CASE("program-scope variables: a written Private initializer is stored at every run") {
  Kernel l = Kernel::fromText(kPrivateAndWorkgroup, "private.spvasm");
  ir::Kernel k = ir::lowerKernel(*l.view, "k");
  const ir::Memory& p = memoryNamed(k, "p");
  CHECK_FALSE(p.persistent);
  CHECK(p.init.empty()); // moved into stores at the start of the entry block
  const uint32_t pIndex = uint32_t(&p - k.memories.data());
  size_t stores = 0;
  for (ir::ValueId v : k.blocks[0].ops)
    if (k.ops[v].kind == OpKind::Store && k.ops[v].memory == pIndex) ++stores;
  CHECK(stores >= 1);
  CHECK(memoryNamed(k, "w").init.empty());
  // The interpreter agrees on the result: r[0] = p[1] + 3 = 7.
  sim::RunSpec spec = r4Spec();
  sim::InterpResult r = sim::interpret(*l.view, spec);
  CHECK(r.buffers[0][0] == 7);
}

TEST_CASE("program-scope variables: the interpreter's final contents and their comparison") {
  Kernel l = regress("globals");
  sim::InterpResult r = sim::interpret(*l.view, r4Spec());
  auto table =
      std::find_if(r.globals.begin(), r.globals.end(), [](const auto& g) { return g.name == "table"; });
  REQUIRE(table != r.globals.end());
  REQUIRE(table->bytes.size() == 32);
  CHECK(table->defined.empty());  // a global is defined everywhere (its initializer)
  CHECK(table->bytes[0] == 0xe9); // table[0] = scratch[3] + 0, as `spvhls run` prints it
  auto sbox =
      std::find_if(r.globals.begin(), r.globals.end(), [](const auto& g) { return g.name == "sbox"; });
  REQUIRE(sbox != r.globals.end());
  CHECK(sbox->constant);
  const std::string printed = sim::formatGlobals(r);
  CHECK(printed.find("program-scope table, 32 bytes: e9 7e 69 ec") != std::string::npos);
  CHECK(printed.find("program-scope sbox") == std::string::npos); // constants are not printed

  // The comparison: equal contents, one byte off, an undefined byte, an unknown variable.
  const std::vector<std::pair<uint32_t, std::string>> vars = {{table->var, "table"}};
  sim::BufferSet got = {table->bytes};
  CHECK(sim::compareGlobals(r, vars, got) == "");
  got[0][5] ^= 0x10;
  CHECK(sim::compareGlobals(r, vars, got) ==
        fmt::format("program-scope variable table: byte 5: expected {:02x}, got {:02x}\n", table->bytes[5],
                    table->bytes[5] ^ 0x10));
  sim::InterpResult partial = r;
  auto& pt = *std::find_if(partial.globals.begin(), partial.globals.end(),
                           [](const auto& g) { return g.name == "table"; });
  pt.defined.assign(32, 1);
  pt.defined[5] = 0; // never written in the interpreter: the hardware may hold anything there
  CHECK(sim::compareGlobals(partial, vars, got) == "");
  CHECK(sim::compareGlobals(r, {{99999, "ghost"}}, got).find("ghost") != std::string::npos);
}

TEST_CASE("pointers kept in memory: offsets into one memory, addresses into several") {
  // tests/e2e/regress/ptr_memory.cl: a global pointer, a private table of pointers, a pointer member.
  Kernel l = regress("ptr_memory");
  ir::Kernel k = ir::lowerKernel(*l.view, "k");
  const ir::Memory& cursor = memoryNamed(k, "cursor");
  CHECK(cursor.holdsPointers);
  CHECK(cursor.persistent);
  // Its initializer, &data[2], is the byte offset 8 into data.
  REQUIRE(cursor.init.size() == 8);
  CHECK(cursor.init == std::vector<uint8_t>{8, 0, 0, 0, 0, 0, 0, 0});
  CHECK_FALSE(memoryNamed(k, "data").holdsPointers);
  // Pointers into two variables in one table are addresses: offset + (memory + 1) << 40.
  Kernel several = regress("ptr_several");
  ir::Kernel ks = ir::lowerKernel(*several.view, "k");
  const ir::Memory& tab = memoryNamed(ks, "tab");
  CHECK(tab.holdsPointers);
  REQUIRE(tab.init.size() == 16);
  auto entry = [&](size_t i) {
    uint64_t v = 0;
    for (unsigned b = 0; b < 8; ++b) v |= uint64_t(tab.init[8 * i + b]) << (8 * b);
    return v;
  };
  // (The tags name memories as numbered during translation; they are only compared with each other.)
  const uint64_t low = (uint64_t(1) << 40) - 1;
  CHECK((entry(0) & low) == 0);
  CHECK((entry(1) & low) == 0);
  CHECK((entry(0) >> 40) != 0);
  CHECK((entry(1) >> 40) != 0);
  CHECK((entry(0) >> 40) != (entry(1) >> 40));
}

TEST_CASE(
    "program-scope variables: the on-chip budget keeps the smallest arrays on chip, the rest external") {
  Kernel l = regress("globals");
  auto kindOf = [](const ir::Kernel& k, const char* name) { return memoryNamed(k, name).kind; };
  using Kind = ir::Memory::Kind;
  // The default budget holds all of them.
  ir::Kernel all = ir::lowerKernel(*l.view, "k");
  for (const char* n : {"counter", "sbox", "zeros", "table", "pts", "k.scratch"}) {
    CAPTURE(n);
    CHECK(memoryNamed(all, n).onChip());
  }
  CHECK(all.onChipBudget == ir::kDefaultOnChipBudget);
  // 40 bytes: counter (4) and sbox (16) fit, smallest first; zeros (24) would make 44.
  ir::Kernel k = ir::lowerKernel(*l.view, "k", ir::LowerOptions{40});
  CHECK(k.onChipBudget == 40);
  CHECK(kindOf(k, "counter") == Kind::ProgramScope);
  CHECK(kindOf(k, "sbox") == Kind::ProgramScope);
  for (const char* n : {"zeros", "table", "pts", "k.scratch"}) {
    CAPTURE(n);
    CHECK(kindOf(k, n) == Kind::External);
  }
  // An external memory keeps its initial image (the host loads it) and stays persistent.
  const ir::Memory& table = memoryNamed(k, "table");
  CHECK(table.persistent);
  REQUIRE(table.init.size() == 32);
  CHECK(table.init[0] == 0x67);
  // Budget 0: everything external; the IR evaluator runs it from the images like the interpreter.
  ir::Kernel none = ir::lowerKernel(*l.view, "k", ir::LowerOptions{0});
  for (const ir::Memory& m : none.memories)
    CHECK_FALSE(m.onChip());
  sim::RunSpec spec = r4Spec();
  sim::InterpResult golden = sim::interpret(*l.view, spec);
  std::vector<uint64_t> args(spec.args.size(), 0);
  std::vector<std::vector<uint8_t>> buffers;
  for (const auto& a : spec.args)
    buffers.push_back(a.init);
  ir::EvalResult e = ir::evaluateKernel(none, args, buffers);
  CHECK(e.buffers[0] == golden.buffers[0]);
}

TEST_CASE("program-scope variables: the run spec's host writes into globals, and its errors") {
  Kernel l = regress("globals");
  auto spec = [](const std::string& globals) {
    return sim::parseRunSpec(R"({"kernel": "k", "args": [{"name": "r", "buffer": {"type": "u32", "length": 4,
                              "init": [5, 7, 0, 0]}}], "globals": [)" +
                                 globals + "]}",
                             "g.run.json");
  };
  // counter = 1000 before the run: r[2] = counter after it (28 more, as without the write).
  sim::InterpResult plain = sim::interpret(*l.view, r4Spec());
  sim::InterpResult written = sim::interpret(
      *l.view, spec(R"({"name": "counter", "buffer": {"type": "i32", "length": 1, "init": [1000]}})"));
  CHECK(written.buffers[0][8] + 256 * written.buffers[0][9] == plain.buffers[0][8] + 1000);
  auto error = [&](const std::string& globals) {
    try {
      sim::interpret(*l.view, spec(globals));
    } catch (const DiagnosticError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error(R"({"name": "nope", "buffer": {"type": "u8", "length": 1}})")
            .find("globals[0]: the module has no program-scope variable named 'nope'; its globals: ") !=
        std::string::npos);
  CHECK(error(R"({"name": "sbox", "buffer": {"type": "u8", "length": 1}})")
            .find("'sbox' is a UniformConstant variable; the host writes only global (CrossWorkgroup) "
                  "variables") != std::string::npos);
  CHECK(error(R"({"name": "counter", "buffer": {"type": "u32", "length": 2}})")
            .find("8 bytes given for 'counter', which has 4 bytes") != std::string::npos);
  CHECK_THROWS_WITH_AS(spec(R"({"name": "counter", "buffer": {"type": "u8", "length": 1}},
                               {"name": "counter", "buffer": {"type": "u8", "length": 1}})"),
                       doctest::Contains("variable 'counter' is given twice"), DiagnosticError);
}
