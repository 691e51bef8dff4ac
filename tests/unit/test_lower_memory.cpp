// Lowering of memories and accesses: a private array past the on-chip budget, a constant table
// reached through OpSpecConstantOp addresses, vector loads and stores as one wide access, a load of
// bytes an earlier one read, and the read and write ports of an on-chip RAM; each kernel also runs on
// the IR evaluator against the golden interpreter. Fixtures: tests/unit/data/lower/.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "frontend/module.h"
#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "lower_test_util.h"
#include "sim/interp.h"

using namespace spvhls;
using ir::kNone;
using ir::OpKind;

using namespace lower_test;

TEST_CASE("a private array past the on-chip budget is external; one past the compiler's limit is an error") {
  std::string text = readFile("localdep.spvasm");
  const std::string small = "%_arr_uint_ulong_8 = OpTypeArray %uint %ulong_8";
  REQUIRE(text.find(small) != std::string::npos);
  text.replace(text.find(small), small.size(), "%_arr_uint_ulong_8 = OpTypeArray %uint %ulong_big");
  // 80,000 bytes fit the default budget; with a 64 KiB budget the array becomes an external memory,
  // with a note saying so.
  std::string big = text;
  big.insert(big.find("%ulong_8 = OpConstant"), "%ulong_big = OpConstant %ulong 20000\n");
  Loaded fits = loadText(big);
  ir::Kernel onChip = ir::lowerKernel(*fits.view, "localarr");
  ir::Kernel off = ir::lowerKernel(*fits.view, "localarr", ir::LowerOptions{64 * 1024});
  auto memU = [](const ir::Kernel& k) {
    for (const ir::Memory& m : k.memories)
      if (m.name == "u") return m;
    FAIL("no memory u");
    return ir::Memory{};
  };
  CHECK(memU(onChip).kind == ir::Memory::Kind::Private);
  CHECK(memU(off).kind == ir::Memory::Kind::External);
  bool noted = false;
  for (const Diagnostic& d : off.diagnostics)
    noted |= d.construct == "array u" &&
             d.message.find("its 80000 bytes do not fit the on-chip budget (") != std::string::npos &&
             d.message.find(" of 65536 bytes left, --on-chip-budget)") != std::string::npos;
  CHECK(noted);
  // 80 MiB: more than the compiler builds as one array at all.
  std::string huge = text;
  huge.insert(huge.find("%ulong_8 = OpConstant"), "%ulong_big = OpConstant %ulong 20971520\n");
  std::string e = lowerError(loadText(huge), "localarr");
  CHECK_MESSAGE(
      e.find("u (83886080 bytes) is larger than the 67108864 bytes spvhls builds as one array (on chip or "
             "external); pass a buffer in global memory") != std::string::npos,
      e);
}

TEST_CASE("OpSpecConstantOp addresses into a constant table are followed; numbers folded by the view") {
  // r[0] = tab[1 + (r[1] & 1)] through a constant access chain and its cast; r[2] = 6 * 7 folded.
  const std::string text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability GenericPointer
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %r "r"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %void = OpTypeVoid
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_6 = OpConstant %uint 6
     %uint_7 = OpConstant %uint 7
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
    %ulong_4 = OpConstant %ulong 4
        %arr = OpTypeArray %uint %ulong_4
    %ptr_arr = OpTypePointer UniformConstant %arr
     %ptr_uc = OpTypePointer UniformConstant %uint
     %ptr_cw = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_cw
   %uint_10 = OpConstant %uint 10
   %uint_20 = OpConstant %uint 20
   %uint_30 = OpConstant %uint 30
   %uint_40 = OpConstant %uint 40
       %init = OpConstantComposite %arr %uint_10 %uint_20 %uint_30 %uint_40
        %tab = OpVariable %ptr_arr UniformConstant %init
         %p1 = OpSpecConstantOp %ptr_uc InBoundsAccessChain %tab %ulong_1
         %p1b = OpSpecConstantOp %ptr_uc Bitcast %p1
         %c42 = OpSpecConstantOp %uint IMul %uint_6 %uint_7
          %k = OpFunction %void None %fn
          %r = OpFunctionParameter %ptr_cw
      %entry = OpLabel
        %r1p = OpInBoundsPtrAccessChain %ptr_cw %r %ulong_1
         %r1 = OpLoad %uint %r1p Aligned 4
        %odd = OpBitwiseAnd %uint %r1 %uint_1
       %oddl = OpUConvert %ulong %odd
          %q = OpInBoundsPtrAccessChain %ptr_uc %p1b %oddl
          %v = OpLoad %uint %q Aligned 4
               OpStore %r %v Aligned 4
        %r2p = OpInBoundsPtrAccessChain %ptr_cw %r %ulong_2
               OpStore %r2p %c42 Aligned 4
               OpReturn
               OpFunctionEnd
)";
  Loaded l = loadText(text);
  ir::Kernel k = lower(l, "k");
  ir::EvalResult e = runBoth(l, k, {ints("r", {0, 7, 0, 0})});
  CHECK(intsOf(e.buffers[0]) == std::vector<int32_t>{30, 7, 42, 0});
  runBoth(l, k, {ints("r", {0, 6, 0, 0})});
  // The table is a program-scope constant on chip, only read; the argument is read and written.
  REQUIRE(k.memories.size() == 2);
  CHECK(k.memories[0].kind == ir::Memory::Kind::Argument);
  CHECK(k.memories[1].kind == ir::Memory::Kind::ProgramScope);
  CHECK(k.memories[1].onChip());
  CHECK(k.memories[1].init.size() == 16);
  REQUIRE(k.memories[0].ports.size() == 1);
  REQUIRE(k.memories[1].ports.size() == 1);
  CHECK(k.memories[0].ports[0].access == ir::PortAccess::ReadWrite);
  CHECK(k.memories[1].ports[0].access == ir::PortAccess::Read);
}

TEST_CASE("vector loads and stores through vector pointers are one wide access; vload4 where aligned") {
  Loaded l = loadFile("wide.spv");
  ir::Kernel k = lower(l, "wide");
  REQUIRE(k.loops.size() == 1);
  const ir::Loop& lp = k.loops[0];
  std::map<std::pair<OpKind, uint32_t>, int> accesses; // (kind, size) -> count
  for (const ir::Op& op : lp.ops)
    if (op.kind == OpKind::Load || op.kind == OpKind::Store) ++accesses[{op.kind, op.size}];
  // a[i] twice, c[i], vload4(i, f): 16-byte loads; b[i]: 32 bytes; a[i], c[i] stored whole, b[i] too.
  CHECK(accesses[{OpKind::Load, 16}] == 4);
  CHECK(accesses[{OpKind::Load, 32}] == 1);
  CHECK(accesses[{OpKind::Store, 16}] == 2);
  CHECK(accesses[{OpKind::Store, 32}] == 1);
  // The narrow store into a[i] and the lanes of vstore4 at f + 4n + 1 + i (4-byte aligned).
  CHECK(accesses[{OpKind::Load, 4}] == 0);
  CHECK(accesses[{OpKind::Store, 4}] == 1 + 4);
  // Lanes out of wide values and wide values made of lanes (the shifts by constants, wires too, not
  // counted). c[i] ^ 3 takes each char's low 2 bits and high 6 bits straight from the wide value (the
  // known bits' parts of a part are parts of the whole): 32 for c's 16 lanes.
  auto wide = [&](OpKind kind, bool operand) {
    return std::count_if(lp.ops.begin(), lp.ops.end(), [&](const ir::Op& op) {
      return op.kind == kind && (operand ? lp.ops[op.operands[0]].width() : op.width()) > 64;
    });
  };
  CHECK(wide(OpKind::Extract, true) == 4 + 4 + 8 + 32 + 4);
  CHECK(wide(OpKind::Concat, false) == 3);
  // Ports as wide as their widest access.
  CHECK(k.memories[k.args[0].memory].wordBits == 128);
  CHECK(k.memories[k.args[1].memory].wordBits == 256);
  CHECK(k.memories[k.args[2].memory].wordBits == 128);
  CHECK(k.memories[k.args[3].memory].wordBits == 128);
  CHECK_NOTHROW(ir::checkHardwareSupport(k));

  const int n = 6;
  std::vector<uint8_t> a(16 * n), b(32 * n), c(16 * n), f(4 * (5 * n + 4));
  for (size_t i = 0; i < f.size(); i += 4) {
    const float x = float(int(i % 37) - 18) * 0.375f;
    if (i < a.size()) std::memcpy(&a[i], &x, 4);
    std::memcpy(&f[i], &x, 4);
  }
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = uint8_t(i * 7 + 3);
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = uint8_t(i * 13 + 1);
  const sim::ElemType f32{"f32", 4, true, true}, u8{"u8", 1, false, false};
  const ir::EvalResult r = runBoth(
      l, k,
      {buffer("a", a, f32), buffer("b", b, u8), buffer("c", c, u8), buffer("f", f, f32), scalar("n", n)});
  CHECK(r.buffers[2][0] == uint8_t(c[0] ^ 3));
}

// Redundant loads (ir/lower_loads.cpp): a[1] loaded twice is one request; marked Volatile, two.
TEST_CASE(
    "a load of the bytes an earlier one read reuses its value, unless the kernel has a volatile access") {
  auto kernel = [](const std::string& second) {
    return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %long = OpTypeInt 64 0
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
         %l1 = OpConstant %long 1
         %l2 = OpConstant %long 2
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr
      %entry = OpLabel
         %p1 = OpInBoundsPtrAccessChain %ptr %a %l1
         %x = OpLoad %uint %p1 Aligned 4
         %q1 = OpInBoundsPtrAccessChain %ptr %a %l1
         %y = OpLoad %uint %q1 )" +
           second + R"(
         %s = OpIAdd %uint %x %y
         %p2 = OpInBoundsPtrAccessChain %ptr %a %l2
               OpStore %p2 %s Aligned 4
               OpReturn
               OpFunctionEnd
)";
  };
  auto loads = [](const ir::Kernel& k) {
    return std::count_if(k.ops.begin(), k.ops.end(),
                         [](const ir::Op& op) { return op.kind == OpKind::Load; });
  };
  for (const char* second : {"Aligned 4", "Volatile|Aligned 4"}) {
    CAPTURE(second);
    Loaded l = loadText(kernel(second));
    const ir::Kernel k = lower(l, "k");
    const bool isVolatile = std::string(second).find("Volatile") != std::string::npos;
    CHECK(k.volatileAccess == isVolatile);
    CHECK(loads(k) == (isVolatile ? 2 : 1));
    CHECK(k.datapath.reusedLoads == (isVolatile ? 0 : 1));
    const ir::EvalResult r = runBoth(l, k, {ints("a", {0, 20, 9})});
    CHECK(intsOf(r.buffers[0])[2] == 40);
  }
}

// A store between a store and a load of the same private array does not hide the stored value when
// its bytes are apart (the same base, constant offsets); an array nothing reads then loses its stores.
TEST_CASE("loads reuse stored values past stores to other bytes; a private array nothing reads is dropped") {
  auto kernel = [](const std::string& middle) {
    return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %long = OpTypeInt 64 0
         %u4 = OpConstant %uint 4
        %arr = OpTypeArray %uint %u4
       %parr = OpTypePointer Function %arr
        %ptr = OpTypePointer CrossWorkgroup %uint
       %fptr = OpTypePointer Function %uint
         %fn = OpTypeFunction %void %ptr
         %l0 = OpConstant %long 0
         %l1 = OpConstant %long 1
         %l2 = OpConstant %long 2
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr
      %entry = OpLabel
          %t = OpVariable %parr Function
         %p0 = OpInBoundsPtrAccessChain %ptr %a %l0
         %x = OpLoad %uint %p0 Aligned 4
         %p1 = OpInBoundsPtrAccessChain %ptr %a %l1
         %y = OpLoad %uint %p1 Aligned 4
         %t0 = OpInBoundsAccessChain %fptr %t %l0
         %t1 = OpInBoundsAccessChain %fptr %t %l1
               OpStore %t0 %x Aligned 4
               OpStore %t1 %y Aligned 4
)" + middle +
           R"(
         %u = OpLoad %uint %t0 Aligned 4
         %v = OpLoad %uint %t1 Aligned 4
         %s = OpISub %uint %u %v
         %p2 = OpInBoundsPtrAccessChain %ptr %a %l2
               OpStore %p2 %s Aligned 4
               OpReturn
               OpFunctionEnd
)";
  };
  // Then a store at an index from memory (it may be either element): the loads after it must read.
  const std::string dynamic = R"(
         %ix = OpUConvert %long %x
         %w = OpInBoundsAccessChain %fptr %t %ix
               OpStore %w %y Aligned 4
)";
  auto count = [](const ir::Kernel& k, OpKind kind) {
    return std::count_if(k.ops.begin(), k.ops.end(), [&](const ir::Op& op) { return op.kind == kind; });
  };
  for (const std::string& middle : {std::string(), dynamic}) {
    CAPTURE(middle);
    Loaded l = loadText(kernel(middle));
    const ir::Kernel k = lower(l, "k");
    const bool apart = middle.empty();
    CHECK(k.datapath.reusedLoads == (apart ? 2 : 0));
    CHECK(k.datapath.droppedStores == (apart ? 2 : 0));
    CHECK(count(k, OpKind::Load) == (apart ? 2 : 4));
    CHECK(std::any_of(k.memories.begin(), k.memories.end(),
                      [](const ir::Memory& m) { return m.kind == ir::Memory::Kind::Private; }) == !apart);
    const ir::EvalResult r = runBoth(l, k, {ints("a", {0, 7, 0})}); // t[x] is t[0]
    CHECK(intsOf(r.buffers[0])[2] == (apart ? uint32_t(0 - 7) : 0u));
  }
}

TEST_CASE("an on-chip RAM the kernel reads and writes has a read port and a write port (--ram-ports)") {
  Loaded l = loadText(readFile("localdep.spvasm"));
  ir::LowerOptions single;
  single.ramPorts = 1;
  const ir::Kernel two = ir::lowerKernel(*l.view, "localarr"),
                   one = ir::lowerKernel(*l.view, "localarr", single);
  auto indexOf = [](const ir::Kernel& k, const std::string& name) {
    for (uint32_t m = 0; m < k.memories.size(); ++m)
      if (k.memories[m].name == name) return m;
    FAIL("no memory " << name);
    return 0u;
  };
  const uint32_t u = indexOf(two, "u");
  REQUIRE(two.memories[u].onChip());
  REQUIRE(two.memories[u].ports.size() == 2);
  CHECK(two.memories[u].ports[0].access == ir::PortAccess::Read);
  CHECK(two.memories[u].ports[0].key == u);
  CHECK(two.memories[u].ports[1].access == ir::PortAccess::Write);
  const uint32_t writeKey = two.memories[u].ports[1].key;
  CHECK(writeKey >= two.memories.size());
  CHECK(ir::portCount(two.memories) == writeKey + 1);
  CHECK(ir::portMemory(two.memories, writeKey) == u);
  CHECK(ir::portName(two.memories, u) == "u (read)");
  CHECK(ir::portName(two.memories, writeKey) == "u (write)");
  // Loads take the read port, stores the write port, in the FSM and in the loops alike.
  size_t loads = 0, stores = 0;
  auto scan = [&](const std::vector<ir::Op>& ops) {
    for (const ir::Op& op : ops) {
      if (op.memory != u || (op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store)) continue;
      const bool store = op.kind == ir::OpKind::Store;
      (store ? stores : loads)++;
      CHECK(op.port == (store ? 1 : 0));
      CHECK(ir::portKey(two.memories, op) == (store ? writeKey : u));
    }
  };
  scan(two.ops);
  for (const ir::Loop& lp : two.loops)
    scan(lp.ops);
  CHECK(loads > 0);
  CHECK(stores > 0);
  // Pointer arguments keep one port; so does every memory with --ram-ports 1.
  for (const ir::Memory& m : two.memories)
    if (!m.onChip()) CHECK(m.ports.size() <= 1);
  const uint32_t u1 = indexOf(one, "u");
  REQUIRE(one.memories[u1].ports.size() == 1);
  CHECK(one.memories[u1].ports[0].access == ir::PortAccess::ReadWrite);
  CHECK(ir::portCount(one.memories) == one.memories.size());
  CHECK(ir::portName(one.memories, u1) == "u");

  // The verifier rejects a load on the write port.
  ir::Kernel bad = two;
  for (ir::Op& op : bad.ops)
    if (op.memory == u && op.kind == ir::OpKind::Load) {
      op.port = 1;
      break;
    }
  for (ir::Loop& lp : bad.loops)
    for (ir::Op& op : lp.ops)
      if (op.memory == u && op.kind == ir::OpKind::Load) op.port = 1;
  bool rejected = false;
  try {
    ir::verifyKernel(bad);
  } catch (const DiagnosticError& e) {
    rejected = std::string(e.what()).find("uses port 1 of memory u") != std::string::npos;
    INFO(e.what());
  }
  CHECK(rejected);
}
