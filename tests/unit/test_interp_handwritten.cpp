// Golden interpreter on hand-written SPIR-V (tests/unit/data/interp/handwritten.spvasm, and modules
// written here as text): what clang emits rarely or not at all, such as parallel phi copies, an OpSwitch
// merge phi, composites, shifts by the bit width, OpUnreachable, pointers that leave their object
// (issue 11), huge arrays and OpSpecConstantOp folds, with the errors each must end with. Expected
// results are computed here from the SPIR-V and OpenCL definitions.
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_spec_util.h"
#include "interp_test_util.h"

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

// ---- hand-written SPIR-V (handwritten.spvasm) ----

namespace {
std::string oneBuffer(const std::string& kernel, const std::string& type, int length, int64_t n) {
  return fmt::format(
      R"({{"kernel": "{}", "args": [{{"name": "out", "buffer": {{"type": "{}", "length": {}}}}}, {{"name": "n", "value": {}}}]}})",
      kernel, type, length, n);
}
} // namespace

TEST_CASE("interp: loop-header phis are parallel copies") {
  Kernel k("handwritten.spv");
  for (int n : {0, 1, 2, 5, 10}) {
    CAPTURE(n);
    InterpResult r = k.run(spec(oneBuffer("phis", "i32", 4, n)));
    int a = 0, b = 1, x = 1, y = 2;
    for (int i = 0; i < n; ++i) {
      std::tie(a, b) = std::make_pair(b, a + b);
      std::swap(x, y);
    }
    CHECK(elems<int32_t>(r.buffers[0]) == std::vector<int32_t>{a, b, x, y});
  }
}

TEST_CASE("interp: OpSwitch with a selection merge phi; SMod, SRem, UMod") {
  Kernel k("handwritten.spv");
  for (int n : {-7, -6, -5, -4, -1, 0, 1, 2, 3, 9}) {
    CAPTURE(n);
    InterpResult r = k.run(spec(oneBuffer("switch_phi", "i32", 4, n)));
    int sel = ((n % 4) + 4) % 4; // SMod: sign of the divisor
    int res = sel == 0 ? 5 : sel <= 2 ? n * 3 : -n;
    CHECK(elems<int32_t>(r.buffers[0]) == std::vector<int32_t>{res, sel, n % 4, int32_t(uint32_t(n) % 10)});
  }
}

TEST_CASE("interp: composites, whole-struct memory, shuffles, dynamic components, composite calls") {
  Kernel k("handwritten.spv");
  for (int n : {-3, 2, 6, 11}) {
    CAPTURE(n);
    InterpResult r = k.run(spec(oneBuffer("composites", "i32", 12, n)));
    std::vector<int32_t> sh = {3, n, 5, n};
    uint32_t idx = uint32_t(n) % 4;
    std::vector<int32_t> ins = sh;
    ins[idx] = 0;
    std::vector<int32_t> expect = {n, 7,     3, sh[idx], ins[0], ins[1], ins[2], ins[3], n > 10 ? 1 : n,
                                   n, n + 4, 5};
    CHECK(elems<int32_t>(r.buffers[0]) == expect);
  }
}

TEST_CASE("interp: shifts by the bit width or more are errors") {
  Kernel k("handwritten.spv");
  CHECK(elems<uint32_t>(k.run(spec(oneBuffer("shift", "u32", 1, 31))).buffers[0])[0] == 0x80000000u);
  std::string e = runError(k, oneBuffer("shift", "u32", 1, 32));
  checkContains(e, "OpShiftLeftLogical");
  checkContains(e, "shift amount 32 is not less than the bit width 32");

  auto r = elems<int64_t>(k.run(spec(oneBuffer("shift64", "i64", 2, 40))).buffers[0]);
  CHECK(r[0] == (int64_t(-8) >> 40));
  CHECK(r[1] == int64_t(uint64_t(-8) >> 40));
  checkContains(runError(k, oneBuffer("shift64", "i64", 2, 64)),
                "shift amount 64 is not less than the bit width 64");
}

TEST_CASE("interp: OpUnreachable, generic casts, dangling and read-only pointers") {
  Kernel k("handwritten.spv");
  CHECK(elems<int32_t>(k.run(spec(oneBuffer("unreachable", "i32", 1, 3))).buffers[0])[0] == 3);
  checkContains(runError(k, oneBuffer("unreachable", "i32", 1, 0)), "OpUnreachable was executed");

  CHECK(elems<int32_t>(k.run(spec(oneBuffer("generic_cast", "i32", 2, 42))).buffers[0]) ==
        std::vector<int32_t>{0, 42});
  // A generic pointer to a Function variable cast to CrossWorkgroup keeps its address (clang emits
  // such casts to compare pointers of different address spaces); nothing is checked until an access.
  CHECK(elems<int32_t>(k.run(spec(oneBuffer("generic_cast_bad", "i32", 1, 1))).buffers[0]) ==
        std::vector<int32_t>{0});

  checkContains(runError(k, oneBuffer("dangling", "i32", 1, 5)), "load through a dangling pointer");

  // Invalid SPIR-V (a store into constant memory) must be rejected, by the frontend or the interpreter.
  std::string ro = errorOf([&] {
    Kernel bad("readonly.spv");
    bad.run(
        spec(R"({"kernel": "readonly", "args": [{"buffer": {"type": "i32", "length": 1}}, {"value": 1}]})"));
  });
  CHECK((ro.find("read-only") != std::string::npos || ro.find("UniformConstant") != std::string::npos));
}

TEST_CASE("interp: a constant index far outside the buffer is a wild pointer, not an overflow in decoding") {
  // Found by fuzz_interp: the constant offset -8358680908399640575 * 4 overflowed int64 when decoded.
  const char* text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%huge = OpConstant %ulong 0x8c0000000000ff01
%uint_1 = OpConstant %uint 1
%gptr = OpTypePointer CrossWorkgroup %uint
%fnty = OpTypeFunction %void %gptr
%k = OpFunction %void None %fnty
%out = OpFunctionParameter %gptr
%entry = OpLabel
%p = OpPtrAccessChain %gptr %out %huge
OpStore %p %uint_1
OpReturn
OpFunctionEnd
)";
  std::string e = Kernel::fromText(text, "wild.spvasm")
                      .error(spec(R"({"kernel": "k", "args": [{"buffer": {"type": "u32", "length": 4}}]})"));
  checkContains(e, "OpPtrAccessChain %p");
  checkContains(e, "pointer arithmetic leaves argument 0");
  checkContains(e, "by more than the interpreter's pointers hold");
}

namespace {
// Pointers that leave their object (issue 11): formed one and two elements before an array and one
// past its end, compared, subtracted, stored, passed, moved back in; and accesses outside the object.
const char* kOutsideModule = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %form "form"
OpEntryPoint Kernel %read "read"
OpEntryPoint Kernel %write "write"
OpEntryPoint Kernel %atomic "atomic"
OpEntryPoint Kernel %copy "copy"
OpEntryPoint Kernel %priv "priv"
OpName %arr "arr"
OpName %garr "garr"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u4 = OpConstant %uint 4
%u7 = OpConstant %uint 7
%u11 = OpConstant %uint 11
%u12 = OpConstant %uint 12
%u13 = OpConstant %uint 13
%u14 = OpConstant %uint 14
%l0 = OpConstant %ulong 0
%l1 = OpConstant %ulong 1
%l2 = OpConstant %ulong 2
%l3 = OpConstant %ulong 3
%l4 = OpConstant %ulong 4
%l5 = OpConstant %ulong 5
%l6 = OpConstant %ulong 6
%l7 = OpConstant %ulong 7
%l8 = OpConstant %ulong 8
%l9 = OpConstant %ulong 9
%lm1 = OpConstant %ulong 0xffffffffffffffff
%lm2 = OpConstant %ulong 0xfffffffffffffffe
%lbig = OpConstant %ulong 1000000
%lback = OpConstant %ulong 0xfffffffffff0bdc3
%arr4 = OpTypeArray %uint %u4
%gu = OpTypePointer CrossWorkgroup %uint
%garrp = OpTypePointer CrossWorkgroup %arr4
%fu = OpTypePointer Function %uint
%farr = OpTypePointer Function %arr4
%fgu = OpTypePointer Function %gu
%ginit = OpConstantComposite %arr4 %u11 %u12 %u13 %u14
%garr = OpVariable %garrp CrossWorkgroup %ginit
%gbefore = OpSpecConstantOp %gu InBoundsAccessChain %garr %lm1
%gend = OpSpecConstantOp %gu InBoundsAccessChain %garr %l4
%kty = OpTypeFunction %void %gu %gu %uint
%getty = OpTypeFunction %uint %gu %ulong
%get = OpFunction %uint None %getty
%gp = OpFunctionParameter %gu
%gi = OpFunctionParameter %ulong
%gl = OpLabel
%gq = OpInBoundsPtrAccessChain %gu %gp %gi
%gv = OpLoad %uint %gq Aligned 4
OpReturnValue %gv
OpFunctionEnd
%form = OpFunction %void None %kty
%buf = OpFunctionParameter %gu
%out = OpFunctionParameter %gu
%fn = OpFunctionParameter %uint
%fe = OpLabel
%slot = OpVariable %fgu Function
%bm1 = OpInBoundsPtrAccessChain %gu %buf %lm1
%bm2 = OpInBoundsPtrAccessChain %gu %buf %lm2
%bend = OpInBoundsPtrAccessChain %gu %buf %l4
%ie = OpConvertPtrToU %ulong %bend
%im2 = OpConvertPtrToU %ulong %bm2
%diff = OpISub %ulong %ie %im2
%d32 = OpUConvert %uint %diff
OpStore %out %d32
%lt = OpULessThan %bool %im2 %ie
%lts = OpSelect %uint %lt %u1 %u0
%o1 = OpInBoundsPtrAccessChain %gu %out %l1
OpStore %o1 %lts
%back = OpInBoundsPtrAccessChain %gu %bm2 %l3
%v2 = OpLoad %uint %back
%o2 = OpInBoundsPtrAccessChain %gu %out %l2
OpStore %o2 %v2
%last = OpPtrAccessChain %gu %bend %lm1
%v3 = OpLoad %uint %last
%o3 = OpInBoundsPtrAccessChain %gu %out %l3
OpStore %o3 %v3
OpStore %slot %bm1
%reload = OpLoad %gu %slot
%v4 = OpFunctionCall %uint %get %reload %l1
%o4 = OpInBoundsPtrAccessChain %gu %out %l4
OpStore %o4 %v4
%v5 = OpFunctionCall %uint %get %bm2 %l4
%o5 = OpInBoundsPtrAccessChain %gu %out %l5
OpStore %o5 %v5
%far = OpPtrAccessChain %gu %buf %lbig
%near = OpPtrAccessChain %gu %far %lback
%v6 = OpLoad %uint %near
%o6 = OpInBoundsPtrAccessChain %gu %out %l6
OpStore %o6 %v6
%ib = OpConvertPtrToU %ulong %bm1
%ib8 = OpIAdd %ulong %ib %l8
%pb = OpConvertUToPtr %gu %ib8
%v7 = OpLoad %uint %pb
%o7 = OpInBoundsPtrAccessChain %gu %out %l7
OpStore %o7 %v7
%v8 = OpFunctionCall %uint %get %gbefore %l1
%o8 = OpInBoundsPtrAccessChain %gu %out %l8
OpStore %o8 %v8
%v9 = OpFunctionCall %uint %get %gend %lm2
%o9 = OpInBoundsPtrAccessChain %gu %out %l9
OpStore %o9 %v9
OpReturn
OpFunctionEnd
%read = OpFunction %void None %kty
%rbuf = OpFunctionParameter %gu
%rout = OpFunctionParameter %gu
%rn = OpFunctionParameter %uint
%re = OpLabel
%rm2 = OpInBoundsPtrAccessChain %gu %rbuf %lm2
%rq = OpInBoundsPtrAccessChain %gu %rm2 %rn
%rv = OpLoad %uint %rq
OpStore %rout %rv
OpReturn
OpFunctionEnd
%write = OpFunction %void None %kty
%wbuf = OpFunctionParameter %gu
%wout = OpFunctionParameter %gu
%wn = OpFunctionParameter %uint
%we = OpLabel
%wm2 = OpInBoundsPtrAccessChain %gu %wbuf %lm2
%wq = OpInBoundsPtrAccessChain %gu %wm2 %wn
OpStore %wq %u7
OpReturn
OpFunctionEnd
%atomic = OpFunction %void None %kty
%abuf = OpFunctionParameter %gu
%aout = OpFunctionParameter %gu
%an = OpFunctionParameter %uint
%ae = OpLabel
%am2 = OpInBoundsPtrAccessChain %gu %abuf %lm2
%aq = OpInBoundsPtrAccessChain %gu %am2 %an
%av = OpAtomicIAdd %uint %aq %u1 %u0 %u7
OpStore %aout %av
OpReturn
OpFunctionEnd
%copy = OpFunction %void None %kty
%cbuf = OpFunctionParameter %gu
%cout = OpFunctionParameter %gu
%cn = OpFunctionParameter %uint
%ce = OpLabel
%cm2 = OpInBoundsPtrAccessChain %gu %cbuf %lm2
%cq = OpInBoundsPtrAccessChain %gu %cm2 %cn
OpCopyMemorySized %cout %cq %l8
OpReturn
OpFunctionEnd
%priv = OpFunction %void None %kty
%pbuf = OpFunctionParameter %gu
%pout = OpFunctionParameter %gu
%pn = OpFunctionParameter %uint
%pe = OpLabel
%arr = OpVariable %farr Function
OpStore %arr %ginit
%pm2 = OpInBoundsAccessChain %fu %arr %lm2
%pend = OpInBoundsAccessChain %fu %arr %l4
%pq = OpInBoundsPtrAccessChain %fu %pm2 %pn
%pv = OpLoad %uint %pq
OpStore %pout %pv
%plast = OpPtrAccessChain %fu %pend %lm1
%pw = OpLoad %uint %plast
%po1 = OpInBoundsPtrAccessChain %gu %pout %l1
OpStore %po1 %pw
OpReturn
OpFunctionEnd
)";

std::string outsideSpec(const std::string& kernel, int64_t n) {
  return fmt::format(R"({{"kernel": "{}", "args": [
      {{"name": "buf", "buffer": {{"type": "u32", "length": 4, "init": [10, 20, 30, 40]}}}},
      {{"name": "out", "buffer": {{"type": "u32", "length": 10}}}}, {{"name": "n", "value": {}}}]}})",
                     kernel, n);
}
} // namespace

TEST_CASE("interp: pointers may leave their object; only an access outside it is an error (issue 11)") {
  Kernel k = Kernel::fromText(kOutsideModule, "outside.spvasm");
  // Formed before and past the buffer and a program-scope array, never dereferenced there: compared,
  // subtracted, stored in memory, passed to a function, moved 10^6 elements away, through an integer,
  // and back into the object, where they read the right element.
  InterpResult r = k.run(spec(outsideSpec("form", 0)));
  CHECK(elems<uint32_t>(r.buffers[1]) == std::vector<uint32_t>{24, 1, 20, 40, 10, 30, 40, 20, 11, 13});
  CHECK(r.buffers[0] == bytesOf(std::vector<uint32_t>{10, 20, 30, 40}));

  // buf - 2 + n, accessed inside the buffer: read, written, atomically added to, copied from.
  for (int64_t n : {2, 5}) {
    CAPTURE(n);
    CHECK(elems<uint32_t>(k.run(spec(outsideSpec("read", n))).buffers[1])[0] == uint32_t(10 * (n - 1)));
    std::vector<uint32_t> written = {10, 20, 30, 40};
    written[n - 2] = 7;
    CHECK(k.run(spec(outsideSpec("write", n))).buffers[0] == bytesOf(written));
    written[n - 2] = uint32_t(10 * (n - 1)) + 7;
    InterpResult a = k.run(spec(outsideSpec("atomic", n)));
    CHECK(a.buffers[0] == bytesOf(written));
    CHECK(elems<uint32_t>(a.buffers[1])[0] == uint32_t(10 * (n - 1)));
  }
  for (int64_t n : {2, 4}) { // 8 bytes
    auto c = elems<uint32_t>(k.run(spec(outsideSpec("copy", n))).buffers[1]);
    CHECK(c[0] == uint32_t(10 * (n - 1)));
    CHECK(c[1] == uint32_t(10 * n));
  }
  // A Function array: a pointer two elements before it moved back in, one past its end moved back.
  auto p = elems<uint32_t>(k.run(spec(outsideSpec("priv", 3))).buffers[1]);
  CHECK(p[0] == 12);
  CHECK(p[1] == 14);

  // Real out-of-bounds accesses are errors naming the access, the object and the offset.
  auto error = [&](const char* kernel, int64_t n) { return k.error(spec(outsideSpec(kernel, n))); };
  std::string e = error("read", 1);
  checkContains(e, "OpLoad %rv");
  checkContains(
      e, "out-of-bounds load: 4 bytes at byte offset -4 of argument 0 'buf' (buffer of 4 x u32 = 16 bytes)");
  e = error("read", 6);
  checkContains(e, "OpLoad %rv");
  checkContains(e, "out-of-bounds load: 4 bytes at byte offset 16 of argument 0 'buf'");
  e = error("write", 0);
  checkContains(e, "OpStore");
  checkContains(e, "out-of-bounds store: 4 bytes at byte offset -8 of argument 0 'buf'");
  e = error("write", 6);
  checkContains(e, "out-of-bounds store: 4 bytes at byte offset 16 of argument 0 'buf'");
  checkContains(error("atomic", 1),
                "out-of-bounds atomic access: 4 bytes at byte offset -4 of argument 0 'buf'");
  checkContains(error("copy", 0), "out-of-bounds copy from: 8 bytes at byte offset -8 of argument 0 'buf'");
  checkContains(error("copy", 5), "out-of-bounds copy from: 8 bytes at byte offset 12 of argument 0 'buf'");
  e = error("priv", 1);
  checkContains(e, "OpLoad %pv");
  checkContains(e, "out-of-bounds load: 4 bytes at byte offset -4 of variable %arr (16 bytes)");
  checkContains(error("priv", 6),
                "out-of-bounds load: 4 bytes at byte offset 16 of variable %arr (16 bytes)");
}

TEST_CASE("interp: huge arrays: sized without a layout, refused by name as whole values") {
  // Found by fuzz_interp: a module-scope array of 2^31 elements built one layout leaf per element.
  auto module = [](const std::string& body) {
    return std::string(R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%big = OpConstant %uint 10000000
%uint_0 = OpConstant %uint 0
%arr = OpTypeArray %uint %big
%fptr = OpTypePointer Function %arr
%eptr = OpTypePointer Function %uint
%gptr = OpTypePointer CrossWorkgroup %uint
%fnty = OpTypeFunction %void %gptr
%k = OpFunction %void None %fnty
%out = OpFunctionParameter %gptr
%entry = OpLabel
%a = OpVariable %fptr Function
)") + body +
           "OpReturn\nOpFunctionEnd\n";
  };
  RunSpec s = spec(R"({"kernel": "k", "args": [{"buffer": {"type": "u32", "length": 1}}]})");
  // A 40 MB private array used element by element is fine.
  Kernel ok = Kernel::fromText(
      module(
          "%e = OpAccessChain %eptr %a %uint_0\nOpStore %e %uint_0\n%v = OpLoad %uint %e\nOpStore %out %v\n"),
      "big.spvasm");
  CHECK_NOTHROW(ok.run(s));
  // Loaded as one value it would need ten million slots.
  std::string e = Kernel::fromText(module("%w = OpLoad %arr %a\n"), "big.spvasm").error(s);
  checkContains(
      e, "values of type %arr have 10000000 scalars, more than the interpreter's limit of 4194304 per value");
}

namespace {

// Folded integer constants and constant addresses, stored to the buffer in this order: IAdd,
// ShiftLeftLogical, SConvert, SDiv, SMod, Select, CompositeExtract of a CompositeInsert, a load through
// an InBoundsAccessChain constant, one through a global pointer initialised with it, and one through
// a PtrCastToGeneric of it.
std::string specConstModule(const std::string& body) {
  return R"(OpCapability Addresses
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
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%m7 = OpConstant %uint 0xfffffff9
%s8001 = OpConstant %ushort 0x8001
%arr4 = OpTypeArray %uint %uint_4
%st = OpTypeStruct %uint %arr4
%gst = OpTypePointer CrossWorkgroup %st
%gu = OpTypePointer CrossWorkgroup %uint
%genu = OpTypePointer Generic %uint
%gpp = OpTypePointer CrossWorkgroup %gu
%add = OpSpecConstantOp %uint IAdd %uint_2 %uint_3
%shl = OpSpecConstantOp %uint ShiftLeftLogical %uint_1 %uint_4
%sconv = OpSpecConstantOp %uint SConvert %s8001
%sdiv = OpSpecConstantOp %uint SDiv %m7 %uint_2
%smod = OpSpecConstantOp %uint SMod %m7 %uint_2
%lt = OpSpecConstantOp %bool SLessThan %m7 %uint_0
%sel = OpSpecConstantOp %uint Select %lt %add %shl
%vals = OpConstantComposite %arr4 %add %shl %sconv %uint_4
%ins = OpSpecConstantOp %arr4 CompositeInsert %sdiv %vals 3
%ext = OpSpecConstantOp %uint CompositeExtract %ins 3
%init = OpConstantComposite %st %uint_1 %ins
%gv = OpVariable %gst CrossWorkgroup %init
%elt = OpSpecConstantOp %gu InBoundsAccessChain %gv %uint_1 %uint_1
%pv = OpVariable %gpp CrossWorkgroup %elt
%gen = OpSpecConstantOp %genu PtrCastToGeneric %elt
%nullp = OpConstantNull %gu
%bad = OpSpecConstantOp %gu PtrAccessChain %nullp %uint_1
%fnty = OpTypeFunction %void %gu
%k = OpFunction %void None %fnty
%out = OpFunctionParameter %gu
%entry = OpLabel
)" + body +
         "OpReturn\nOpFunctionEnd\n";
}

} // namespace

TEST_CASE("interp: OpSpecConstantOp integer folds and constant access chains (SPIR-V text)") {
  std::string body;
  const char* values[] = {"%add", "%shl", "%sconv", "%sdiv", "%smod", "%sel", "%ext"};
  for (int i = 0; i < 7; ++i)
    body += fmt::format("%o{0} = OpInBoundsPtrAccessChain %gu %out %c{0}\nOpStore %o{0} {1}\n", i, values[i]);
  body += R"(%l7 = OpLoad %uint %elt
%o7 = OpInBoundsPtrAccessChain %gu %out %c7
OpStore %o7 %l7
%p8 = OpLoad %gu %pv
%l8 = OpLoad %uint %p8
%o8 = OpInBoundsPtrAccessChain %gu %out %c8
OpStore %o8 %l8
%l9 = OpLoad %uint %gen
%o9 = OpInBoundsPtrAccessChain %gu %out %c9
OpStore %o9 %l9
)";
  std::string consts;
  for (int i = 0; i < 10; ++i)
    consts += fmt::format("%c{} = OpConstant %uint {}\n", i, i);
  std::string text = specConstModule(body);
  text.insert(text.find("%add ="), consts);
  Kernel k = Kernel::fromText(text, "specconst.spvasm");
  InterpResult r = k.run(spec(R"({"kernel": "k", "args": [{"buffer": {"type": "i32", "length": 10}}]})"));
  // %ins = {5, 16, 0xffff8001, -3}; %elt = &gv.arr[1] = 16 (the unused %bad, null + 4, is no error).
  CHECK(elems<int32_t>(r.buffers[0]) ==
        std::vector<int32_t>{5, 16, int32_t(0xffff8001u), -3, 1, 5, -3, 16, 16, 16});
}

TEST_CASE("interp: OpSpecConstantOp errors: unsupported, division by zero, null pointer arithmetic") {
  // Constants without a value (undefined, or not folded yet) are errors where they are used; unused,
  // they do not make the module fail.
  const std::string buffer = R"({"kernel": "k", "args": [{"buffer": {"type": "i32", "length": 1}}]})";
  auto runError = [&](const std::string& constants, const std::string& body) {
    std::string text = specConstModule(body);
    text.insert(text.find("%fnty ="), constants);
    return Kernel::fromText(text, "bad.spvasm").error(spec(buffer));
  };
  const std::string div = "%z = OpSpecConstantOp %uint UMod %uint_1 %uint_0\n";
  checkContains(runError(div, "OpStore %out %z\n"), "OpSpecConstantOp UMod: division by zero (%uint_0 is 0)");
  std::string unused = specConstModule("");
  unused.insert(unused.find("%fnty ="), div);
  CHECK_NOTHROW(Kernel::fromText(unused, "unused.spvasm").run(spec(buffer)));
  const std::string fl =
      "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%z = OpSpecConstantOp %float FMul %f1 %f1\n";
  checkContains(runError(fl, "%zi = OpBitcast %uint %z\nOpStore %out %zi\n"),
                "OpSpecConstantOp FMul is not supported yet");
  // An address the interpreter cannot form is reported where it is used.
  std::string e2 = Kernel::fromText(specConstModule("OpStore %bad %uint_1\n"), "null.spvasm")
                       .error(spec(R"({"kernel": "k", "args": [{"buffer": {"type": "i32", "length": 1}}]})"));
  checkContains(e2, "OpSpecConstantOp %bad");
  checkContains(e2, "pointer arithmetic on a null pointer");
}
