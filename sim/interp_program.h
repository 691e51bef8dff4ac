// Private to the golden interpreter: the pre-decoded program and the memory model.
//
// Every function reachable from the entry point is decoded once into a flat array of DInst with
// resolved operand *slots*: each SSA value owns a fixed range of 64-bit slots in its function's frame
// (scalars, bools and pointers one slot, composites their flattened scalars in order). Constants and
// global-variable addresses used by a function live in the frame too, right after the locals, and
// are copied in when the frame is created, so the hot loop only ever indexes one array.
//
// Pointers are single 64-bit values: (memory object index << 40) + byte offset, the offset signed in
// [-2^39, 2^39) and added as an integer (so pointer differences and round trips through integers are
// plain arithmetic). A pointer may leave its object and come back (C's one past the end, `p - 2` never
// dereferenced): only an access outside the object is an error (Executor::access). Object 0 is the
// null object; objects below Program::sharedObjects are shared by all work-items (buffers,
// module-scope CrossWorkgroup/UniformConstant/Workgroup variables); higher ones are the work-item's own
// (built-in inputs, Function-storage variables, allocated and released like a stack).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/module.h"

namespace spvhls::sim::interp {

using spirv::Id;

constexpr unsigned kOffsetBits = 40;
constexpr int64_t kOffsetLimit = int64_t(1) << (kOffsetBits - 1); // offsets lie in [-kOffsetLimit, kOffsetLimit)
constexpr uint32_t kMaxObjects = 1u << (64 - kOffsetBits);
// Object numbers are split into ranges for nested task threads (SPV_INTEL_task_sequence): depth d
// numbers its Function variables from d * kTaskObjects, so invocations never share numbers.
constexpr uint32_t kMaxTaskDepth = 15;
constexpr uint32_t kTaskObjects = kMaxObjects / (kMaxTaskDepth + 1);
// Scalars in one value or one laid-out type (slots, layout leaves): beyond this a whole-array value
// would take gigabytes of slots. Memory objects themselves are only sized (InterpOptions::maxMemoryBytes).
constexpr uint64_t kMaxScalars = uint64_t(1) << 22;

inline uint64_t makeAddress(uint32_t object, int64_t offset) {
  return (uint64_t(object) << kOffsetBits) + static_cast<uint64_t>(offset);
}
// The memory object an address belongs to, and its signed byte offset in that object.
inline uint32_t addressObject(uint64_t addr) {
  return static_cast<uint32_t>((addr + static_cast<uint64_t>(kOffsetLimit)) >> kOffsetBits);
}
inline int64_t addressOffset(uint64_t addr) {
  return static_cast<int64_t>(addr - (uint64_t(addressObject(addr)) << kOffsetBits));
}
// The byte offset of an address that Executor::access() accepted (inside its object, so not negative).
inline uint64_t byteOffset(uint64_t addr) { return static_cast<uint64_t>(addressOffset(addr)); }
// addr moved by `delta` bytes (two's complement), staying with its object: false when the offset
// would leave [-kOffsetLimit, kOffsetLimit), beyond what the encoding holds.
inline bool movePointer(uint64_t addr, uint64_t delta, uint64_t& out) {
  const __int128 off = static_cast<__int128>(addressOffset(addr)) + static_cast<int64_t>(delta);
  if (off < -kOffsetLimit || off >= kOffsetLimit) return false;
  out = makeAddress(addressObject(addr), static_cast<int64_t>(off));
  return true;
}
inline uint64_t widthMask(unsigned w) { return ~uint64_t(0) >> (64 - w); } // w in [1, 64]
inline int64_t sext(uint64_t v, unsigned w) { return static_cast<int64_t>(v << (64 - w)) >> (64 - w); }

// Decoded operations. Unless noted: dst/a/b/c are slots, n the component count, w the scalar width
// of the result (and of the operands for same-width operations), w2 the operands' width.
enum class X : uint16_t {
  // integer arithmetic, component-wise
  IAdd,
  ISub,
  IMul,
  UDiv,
  SDiv,
  UMod,
  SRem,
  SMod,
  SNegate,
  Not,
  And,
  Or,
  Xor,
  Shl,
  ShrL,
  ShrA,
  BitCount,
  BitReverse,
  IEq,
  INe,
  ULt,
  ULe,
  UGt,
  UGe,
  SLt,
  SLe,
  SGt,
  SGe, // w = operand width, result bool
  LAnd,
  LOr,
  LNot,
  LEq,
  LNe,
  UConvert,
  SConvert, // w = result width, w2 = operand width
  UConvertSat,
  SConvertSat,
  SatSToU,
  SatUToS,      // saturating (OpenCL convert_<T>_sat), w and w2 likewise
  SelectScalar, // a = condition, b / c = values of n slots each
  SelectVector, // component-wise; a = bool vector
  Any,
  All, // a = bool vector of n
  // data movement
  Move,       // copy n slots from a
  Reshape,    // bitcast between int vectors of different shapes: n/w from a, c components of w2
  Insert,     // copy n slots of composite a, then extra[b] slots of object c at offset extra[b+1]
  Construct,  // n (slot, count) pairs in extra[b...]
  Gather,     // dst[i] = slot extra[b + i], n components (OpVectorShuffle)
  ExtractDyn, // dst = a[b], n = vector length, w2 = index width
  InsertDyn,  // dst = a with component [c] = b, n = vector length, w2 = index width
  // OpenCL.std integer built-ins, component-wise (operands a, b, c)
  SAbs,
  SAbsDiff,
  UAbsDiff,
  SAddSat,
  UAddSat,
  SSubSat,
  USubSat,
  SHadd,
  UHadd,
  SRhadd,
  URhadd,
  SMin,
  SMax,
  UMin,
  UMax,
  SClamp,
  UClamp,
  Clz,
  Ctz,
  Rotate,
  SMulHi,
  UMulHi,
  SMadHi,
  UMadHi,
  SMadSat,
  UMadSat,
  SUpsample,
  UUpsample, // upsample: w = result width, w2 = operand width
  // floating point (interp_float.cpp), component-wise on IEEE bits; w = operand width (16, 32, 64)
  FAdd,
  FSub,
  FMul,
  FDiv,
  FRem,
  FMod,
  FNegate,
  FOrdEq,
  FOrdNe,
  FOrdLt,
  FOrdGt,
  FOrdLe,
  FOrdGe, // result bool
  FUnordEq,
  FUnordNe,
  FUnordLt,
  FUnordGt,
  FUnordLe,
  FUnordGe,
  IsNan,
  IsInf,
  IsFinite,
  IsNormal,
  SignBitSet,
  Ordered,
  Unordered,
  ConvertFToS,
  ConvertFToU, // w = result width, w2 = operand width; b = 1: saturating
  ConvertSToF,
  ConvertUToF,
  FConvert, // w = result width, w2 = operand width
  Dot,      // OpDot: one result from n lanes of a and b
            // conversions: c = FPRoundingMode + 1 (0: default)
  // OpenCL.std floating-point built-ins (operands a, b, c)
  Fma,
  Mad,
  Fabs,
  Sqrt,
  Fmin,
  Fmax,
  Fdim,
  Floor,
  Ceil,
  Trunc,
  Round,
  Rint,
  Copysign,
  FmodStd,
  Exp,
  Exp2,
  Exp10,
  Log,
  Log2,
  Log10,
  Pow,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Cbrt,
  Rsqrt,
  Hypot,
  // memory
  Variable,     // new Function-storage object of n bytes; b = initializer image + 1 (0: none)
  LoadScalar,   // dst = *a, n bytes, w bits
  StoreScalar,  // *a = b, n bytes
  Load,         // dst = *a by layout b
  Store,        // *a = b by layout c
  CopyMemory,   // copy n bytes from *b to *a; c = size slot + 1 when sized (0: use n)
  AccessChain,  // dst = a + extra[b..b+1] (constant, lo/hi) + sum(index * stride); n dynamic indices
                // as (slot, stride, index width) triples following the constant
  GenericToPtr, // dst = a, checking the object's storage class is c; b = 1: null instead of an error
  AtomicLoad,
  AtomicStore,
  AtomicExchange,
  AtomicCmpXchg,
  AtomicIInc,
  AtomicIDec,
  AtomicIAdd,
  AtomicISub,
  AtomicSMin,
  AtomicUMin,
  AtomicSMax,
  AtomicUMax,
  AtomicAnd,
  AtomicOr,
  AtomicXor, // n bytes, w bits; c = comparator
  // control
  Branch,     // a = edge
  BranchCond, // a = condition, b = true edge, c = false edge
  Switch,     // a = selector, w = its width, n cases (lo, hi, edge) in extra[b...], c = default edge
  Return,
  ReturnValue, // a = value of n slots
  Call,        // dst = result, a = callee, n argument slots in extra[b...]
  Barrier,     // OpControlBarrier: a scheduling point for ND-range execution
  // SPV_INTEL_task_sequence (interp_task.cpp); a sequence value is a handle into Executor's table
  TaskCreate,  // dst = new sequence running function a; b = GetCapacity, c = AsyncCapacity
  TaskAsync,   // sequence a; n arguments as (slot, slot count) pairs in extra[b...]
  TaskGet,     // dst = n slots of the oldest result of sequence a
  TaskRelease, // releases sequence a
  // SPV_INTEL_subgroups: executed for a whole subgroup at once (interp_subgroup.cpp); n slots, w bits
  SgShuffle,     // a = data, b = invocation id
  SgShuffleDown, // a = current, b = next, c = delta
  SgShuffleUp,   // a = previous, b = current, c = delta
  SgShuffleXor,  // a = data, b = value
  SgBlockRead,   // dst = n components of w bits read from pointer a, w2 = element bytes
  SgBlockWrite,  // writes n components from b through pointer a, w2 = element bytes
  // Core group instructions (Groups capability, interp_subgroup.cpp), c = execution scope: 3 Subgroup
  // (executed like the shuffles), 2 Workgroup (a scheduling point like a barrier, executed once every
  // work-item of the work-group is there).
  GroupAll,       // dst = a (bool) true in every invocation
  GroupAny,       // dst = a (bool) true in some invocation
  GroupBroadcast, // dst = n slots of a from the invocation whose local id is b (w2 components)
  GroupArith,     // dst = w bits: b = GroupOperation (0 reduce, 1 inclusive, 2 exclusive scan) of
                  // a by w2 = GroupArith (interp_exec.h)
  GroupElect,     // dst = true in the first invocation (OpGroupNonUniformElect)
  GroupAllEqual,  // dst = the n slots of a are equal in every invocation
  // The OpGroupNonUniform* forms decode to the ops above with kNonUniform set in c: the interpreter runs
  // them when every invocation of the subgroup reaches them (uniform control flow).
  // SPV_INTEL_2d_block_io, also per subgroup (interp_block2d.cpp): a = the 2D memory region's base
  // pointer, c = the per-invocation pointer (Dst of loads, Src of stores; none for prefetch), the
  // other operands are a Block2DOperands in extra[b...] (interp_block2d.h)
  Block2DLoad,
  Block2DLoadTranspose,
  Block2DLoadTransform,
  Block2DPrefetch,
  Block2DStore,
  Unreachable,
};

// The arithmetic of X::GroupArith (DInst::w2), one per OpGroup* instruction.
enum class GroupArith : uint8_t {
  IAdd, FAdd, FMin, UMin, SMin, FMax, UMax, SMax,
  IMul, FMul, BitwiseAnd, BitwiseOr, BitwiseXor, LogicalAnd, LogicalOr, LogicalXor // non-uniform forms only
};
// DInst::c of a group op decoded from an OpGroupNonUniform* instruction (besides its scope).
constexpr uint32_t kNonUniform = 0x100;
// The group instructions (interp_subgroup.cpp).
inline bool isGroupOp(X op) {
  return op == X::GroupAll || op == X::GroupAny || op == X::GroupBroadcast || op == X::GroupArith ||
         op == X::GroupElect || op == X::GroupAllEqual;
}

struct DInst {
  X op;
  uint8_t w = 0, w2 = 0;
  uint32_t n = 1;
  uint32_t dst = 0, a = 0, b = 0, c = 0;
  uint32_t src = 0; // index into Module::insts of the SPIR-V instruction (diagnostics)
};

// A group instruction runs per subgroup (Subgroup scope), else per work-group (Workgroup scope).
inline bool atSubgroupScope(const DInst& d) { return (d.c & 0xff) == 3; }

// A CFG edge: where to continue, and the OpPhi copies of the target block for this predecessor
// (performed as a parallel copy).
struct Edge {
  uint32_t pc = 0;
  uint32_t moveBegin = 0, moveCount = 0;
  uint32_t phiCount = 0; // OpPhi instructions executed when taking the edge
  uint32_t block = 0;    // global block number of the target (block counts)
  uint32_t id = 0;       // global edge number (edge counts)
};

// A scalar of a type in memory: byte offset from the start of the type, size, and value width.
struct Leaf {
  uint64_t offset = 0;
  uint32_t bytes = 0;
  uint8_t width = 0;
  bool isBool = false;
};

struct Layout {
  std::vector<Leaf> leaves; // in slot order
  uint64_t size = 0;
};

struct DFunction {
  Id id = 0;
  uint32_t defInst = 0;
  std::vector<DInst> code;
  std::vector<uint32_t> extra;
  std::vector<Edge> edges;
  std::vector<std::pair<uint32_t, uint32_t>> moves; // phi copies (dst slot, src slot)
  uint32_t nLocals = 0, nSlots = 0;
  std::vector<uint64_t> constInit;                   // values of slots [nLocals, nSlots)
  std::vector<std::pair<uint32_t, uint32_t>> params; // (first slot, slot count)
  // Parameters decorated FuncParamAttr ByVal: the callee gets a fresh Function-storage copy of the
  // argument's pointee (spirv::ModuleView::isByValParam).
  struct ByValParam {
    uint32_t index = 0; // parameter number
    Id param = 0;       // its OpFunctionParameter
    uint64_t bytes = 0; // size of the pointee
  };
  std::vector<ByValParam> byVal;
  uint32_t entryBlock = 0;                            // global block number
  bool decoded = false;
};

enum class ObjectKind : uint8_t { Null, Buffer, Global, BuiltIn, Variable };

// What a memory object is, for diagnostics and access rules.
struct ObjectInfo {
  ObjectKind kind = ObjectKind::Null;
  uint32_t storageClass = 0;
  bool readOnly = false;
  bool tracksInit = false; // reads of never-written bytes are errors
  uint32_t arg = 0;        // Buffer: kernel argument index
  Id var = 0;              // Global/BuiltIn/Variable: the OpVariable
};

struct MemObject {
  ObjectInfo info;
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> defined; // per byte, only when info.tracksInit
};

// A module-scope variable: where it lives and its initial contents.
struct GlobalVar {
  Id var = 0;
  uint32_t object = 0;        // object index
  bool perWorkItem = false;   // built-in inputs and Private variables
  uint32_t builtIn = ~0u;     // BuiltIn decoration value, if any
  Id pointee = 0;
  ObjectInfo info;
  std::vector<uint8_t> init;  // initial bytes (size of the pointee)
};

// A buffer argument and its memory object.
struct BufferBinding {
  uint32_t arg = 0, object = 0;
  ObjectInfo info;
};

struct Program {
  const spirv::ModuleView& mv;
  explicit Program(const spirv::ModuleView& m) : mv(m) {}

  std::vector<DFunction> functions;
  std::unordered_map<Id, uint32_t> functionIndex;
  std::vector<Layout> layouts;
  std::unordered_map<Id, uint32_t> layoutIndex;         // type id -> layouts index
  std::vector<std::vector<uint8_t>> images;             // initializer bytes of Function variables
  std::vector<Id> blockLabels;                          // global block number -> label
  std::vector<std::pair<Id, Id>> edgeLabels;            // global edge number -> (from, to)
  std::vector<GlobalVar> globals;
  std::vector<BufferBinding> buffers;
  std::unordered_map<Id, uint64_t> globalAddress;       // module-scope variable -> address
  std::unordered_map<Id, std::string> unsupportedGlobals; // reported where such a variable is used
  // Address-valued OpSpecConstantOps (spirv::ConstantExpr), evaluated once after the globals have
  // addresses: the value, or the error to report where the constant is used.
  std::unordered_map<Id, uint64_t> constExprValues;
  std::unordered_map<Id, DiagnosticError> constExprErrors;
  uint32_t sharedObjects = 1;                           // object 0 is null
  uint32_t perWorkItemObjects = 0;
};

// ---- decoding (interp_decode.cpp, interp_types.cpp) ----

// Slot count of a value of this type; throws DiagnosticError (at `where`) for unsupported types.
uint32_t slotCount(Program& p, Id type, uint32_t where);
// Memory layout of a type (cached).
const Layout& layoutOf(Program& p, Id type, uint32_t where);
// Size in bytes of a memory object of this type, without building its layout.
uint64_t objectSize(Program& p, Id type, uint32_t where);
uint32_t layoutIndexOf(Program& p, Id type, uint32_t where);
// Slot values of a constant (or OpUndef = 0, or module-scope variable = its address).
void materialize(Program& p, Id id, std::vector<uint64_t>& out, uint32_t where);
// Evaluates every address-valued constant expression (spirv::ConstantExpr) in module order, after
// p.globalAddress is complete; each only uses earlier ones, so evaluation never nests deeply.
void evaluateConstantExprs(Program& p);
// Memory image (little-endian bytes) of a constant of type `type`.
std::vector<uint8_t> imageOf(Program& p, Id constant, Id type, uint32_t where);
// Byte offset of member `index` of a struct type.
uint64_t memberOffset(Program& p, Id structType, uint32_t index, uint32_t where);
// Element stride of an array/runtime array/vector type, or of the pointee of a pointer type for
// OpPtrAccessChain's Element operand.
uint64_t strideOf(Program& p, Id type, uint32_t where);

// The decoded operation of an OpenCL.std extended instruction (u_abs aside, which is a move), and
// whether it takes floating-point operands; false if the interpreter does not implement it.
bool openclStdOp(uint32_t number, X& op, bool& isFloat);

// Decodes function `fn` (and, transitively, its callees) into p.functions; returns its index.
uint32_t decodeFunction(Program& p, Id fn);

// A readable name of a SPIR-V instruction for diagnostics: "OpIAdd %sum".
std::string constructName(const Program& p, uint32_t instIndex);
[[noreturn]] void failAt(const Program& p, uint32_t instIndex, const std::string& message);

} // namespace spvhls::sim::interp
