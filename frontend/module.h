// The SPIR-V module model: the frontend's output and the input of lowering and of the interpreter.
//
// Two layers:
//  * Module: the raw instruction stream (opcode, result type/id, remaining operand words), identical
//    whether it came from a binary (.spv) or from text (.spvasm). Every instruction remembers where it
//    came from so that later stages can point at it in diagnostics.
//  * ModuleView: the validated, indexed view (types, constants, functions, blocks, decorations, names,
//    entry points, decoded loop controls). Built once by buildModuleView(), which validates what lowering
//    and the interpreter rely on and throws a Diagnostic error otherwise.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/opcodes.h" // generated: enum spvhls::spirv::Op and operand-kind enums

namespace spvhls::spirv {

using Id = uint32_t;

struct Instruction {
  uint16_t opcode = 0;
  Id resultType = 0;             // 0 when the instruction has none
  Id resultId = 0;               // 0 when the instruction has none
  std::vector<uint32_t> operands; // the words after result type and result id
  uint32_t wordOffset = 0;        // binary: word offset of the instruction's first word
  uint32_t line = 0, column = 0;  // text: 1-based position of the instruction; 0 for binary input

  Op op() const { return static_cast<Op>(opcode); }
};

struct Module {
  std::string fileName;
  uint32_t version = 0x00010400, generator = 0, bound = 0, schema = 0;
  std::vector<Instruction> insts;
  // Names from the text form (%name) by id, so that `dis` can print them back; may be empty.
  std::unordered_map<Id, std::string> textNames;

  // A location string for diagnostics: "file:line:col" (text) or "file: word N" (binary).
  SourceLoc locOf(const Instruction& inst) const;
};

// ---------------------------------------------------------------------------------------------
// Indexed view.

struct Type {
  enum class Kind { Void, Bool, Int, Float, Vector, Array, RuntimeArray, Struct, Pointer, Function,
                    Opaque, TaskSequence, Other };
  Kind kind = Kind::Other;
  uint32_t width = 0;        // Int/Float bit width
  bool isSigned = false;     // Int signedness word (informational in Kernel SPIR-V)
  Id elem = 0;               // Vector/Array/RuntimeArray element, Pointer pointee, Function return
  uint32_t count = 0;        // Vector component count, Array length (constant value)
  uint32_t storageClass = 0; // Pointer storage class
  std::vector<Id> members;   // Struct members, Function parameter types
};

// An address-valued OpSpecConstantOp, kept as an expression because only the consumer's pointer model
// can evaluate it. `operands` are the operation's operands after the Opcode word, all ids, each
// defined before the constant and validated as the operation requires:
//   OpPtrCastToGeneric, OpGenericCastToPtr, OpBitcast (pointer to pointer): {pointer} -- same address;
//   OpBitcast (pointer <-> 64-bit integer), OpConvertPtrToU, OpConvertUToPtr: {value} -- the address as
//     an integer (ConvertPtrToU / Bitcast to integer: a Constant of integer type with an expr) or back;
//   OpAccessChain, OpInBoundsAccessChain: {base, index...};
//   OpPtrAccessChain, OpInBoundsPtrAccessChain: {base, element, index...} -- as the instructions: the
//     element steps over the base's pointee, indices walk into it (struct members by constant value).
// A pointer operand is a module-scope OpVariable (ModuleView::globals), a null pointer constant
// (access chains only: casts of null are folded to isNull) or another Constant with an expr. Integer
// operands (indices, element, ConvertUToPtr's value) are scalar integer constants with known bits,
// read as signed of their type's width for indices. Struct indices are in range and the walked type
// is the result's pointee.
struct ConstantExpr {
  Op op = Op::OpNop;
  std::vector<Id> operands;
};

// A scalar, composite or null constant (OpConstant, OpConstantTrue/False, OpConstantNull,
// OpConstantComposite, OpSpecConstant* with their default values, OpUndef as an undefined scalar), or
// an OpSpecConstantOp (frontend/spec_constant_op.cpp): integer and bool operations are folded into
// bits, composite ones (CompositeExtract/Insert, VectorShuffle, Select) into constituents or a copy of
// the chosen constant; address-valued ones are kept in `expr`. Exactly one of isUndef, isNull,
// constituents (non-empty), expr and bits describes the value.
struct Constant {
  Id type = 0;
  bool isUndef = false;
  bool isNull = false;
  uint64_t bits = 0;               // scalar value, zero-extended to 64 bits (bool: 0/1); 0 when expr is set
  std::vector<Id> constituents;    // composite constants (ids of constants or module-scope variables)
  std::optional<ConstantExpr> expr; // address-valued OpSpecConstantOp: evaluate, do not read bits
};

// Decoded FPGA and core loop controls (from OpLoopMerge or OpLoopControlINTEL), operands decoded by
// SPV_INTEL_fpga_loop_controls: LoopCount is three 64-bit literals, DependencyArray is a count followed
// by (variable id, distance) pairs.
struct LoopControls {
  uint32_t mask = 0;
  std::optional<uint32_t> dependencyLength;     // core DependencyLength
  bool dependencyInfinite = false, unroll = false, dontUnroll = false;
  std::optional<uint32_t> minIterations, maxIterations, iterationMultiple, peelCount, partialCount;
  std::optional<uint32_t> initiationInterval;   // InitiationIntervalINTEL
  std::optional<uint32_t> maxConcurrency;       // MaxConcurrencyINTEL
  std::vector<std::pair<Id, uint32_t>> dependencyArray; // DependencyArrayINTEL (variable, distance)
  bool hasDependencyArray = false;
  std::optional<uint32_t> pipelineEnable;       // PipelineEnableINTEL
  std::optional<uint32_t> loopCoalesce;         // LoopCoalesceINTEL (0 = all levels)
  std::optional<uint32_t> maxInterleaving;      // MaxInterleavingINTEL
  std::optional<uint32_t> speculatedIterations; // SpeculatedIterationsINTEL
  bool noFusion = false;                        // NoFusionINTEL
  std::optional<int64_t> loopCountMin, loopCountMax, loopCountAvg; // LoopCountINTEL (-1 = unknown)
  std::optional<uint32_t> maxReinvocationDelay; // MaxReinvocationDelayINTEL
};

struct Block {
  Id label = 0;
  uint32_t firstInst = 0; // index into Module::insts of the OpLabel
  uint32_t endInst = 0;   // one past the terminator
  uint32_t terminator = 0; // index of the terminator instruction
  // Loop controls attached to this block (it is then a loop header): from an OpLoopMerge or an
  // OpLoopControlINTEL in this block.
  std::optional<LoopControls> loopControls;
  uint32_t loopControlInst = 0; // index of the instruction that carried them (for diagnostics)
};

struct Function {
  Id id = 0;
  Id resultType = 0;
  Id functionType = 0;
  uint32_t control = 0;          // FunctionControl mask
  uint32_t defInst = 0;          // index of OpFunction
  std::vector<Id> params;        // OpFunctionParameter ids
  std::vector<Block> blocks;     // in module order; blocks[0] is the entry
  bool isDeclaration() const { return blocks.empty(); }
};

struct EntryPoint {
  uint32_t executionModel = 0;   // 6 = Kernel
  Id function = 0;
  std::string name;
  std::vector<Id> interface;
  uint32_t inst = 0;
};

struct ExecutionMode {
  Id entryPoint = 0;
  uint32_t mode = 0;
  std::vector<uint32_t> literals; // OpExecutionMode literals / OpExecutionModeId ids
  bool isId = false;
  uint32_t inst = 0;
};

struct Decoration {
  uint32_t kind = 0;               // Decoration enum value
  std::vector<uint32_t> literals;  // the words after the decoration (strings stay packed)
  std::optional<uint32_t> member;  // OpMemberDecorate
};

class ModuleView {
public:
  const Module& module;
  explicit ModuleView(const Module& m) : module(m) {}

  std::vector<uint32_t> capabilities;
  std::vector<std::string> extensions;
  std::unordered_map<Id, std::string> extInstImports; // id -> "OpenCL.std"
  uint32_t addressingModel = 0, memoryModel = 0;
  std::vector<EntryPoint> entryPoints;
  std::vector<ExecutionMode> executionModes;
  std::unordered_map<Id, std::string> names;        // OpName
  std::unordered_map<Id, std::vector<Decoration>> decorations;
  std::unordered_map<Id, Type> types;
  std::unordered_map<Id, Constant> constants;
  // OpSpecConstantOps the view does not evaluate (an operation not supported yet, or an undefined
  // result such as a division by zero), with the reason: an error only where they are used.
  std::unordered_map<Id, std::string> unevaluatedConstants;
  std::vector<Id> globals;                           // module-scope OpVariable ids, in order
  std::vector<Function> functions;
  std::unordered_map<Id, uint32_t> functionIndex;    // function id -> index in functions
  std::unordered_map<Id, uint32_t> def;              // id -> instruction index that defines it
  std::unordered_map<Id, std::pair<uint32_t, uint32_t>> blockOf; // label -> (function, block index)

  const Instruction& inst(uint32_t index) const { return module.insts[index]; }
  const Instruction* defInst(Id id) const;
  const Type& type(Id id) const;                     // throws a Diagnostic if id is not a type
  const Type* findType(Id id) const;
  const Constant* findConstant(Id id) const;
  const Function* findFunction(Id id) const;
  const EntryPoint* findEntryPoint(const std::string& name) const;
  bool hasDecoration(Id id, uint32_t kind) const;
  // Whether an OpFunctionParameter is decorated FuncParamAttr ByVal: the pointer argument stands for
  // an aggregate passed by value, so the callee works on its own copy of the pointee, made on entry.
  bool isByValParam(Id param) const;
  // A readable name for an id: its OpName, else its text name, else "%<id>".
  std::string nameOf(Id id) const;
  SourceLoc locOf(uint32_t instIndex) const { return module.locOf(module.insts[instIndex]); }
  // Size in bytes of a type as OpenCL lays it out (Physical64: pointers are 8 bytes).
  uint64_t sizeOf(Id type) const;
  uint64_t alignOf(Id type) const;
};

// Validates and indexes the module. Throws DiagnosticError listing every problem found.
ModuleView buildModuleView(const Module& m);

// The register limit an entry point requests (SPV_INTEL_maximum_registers) as text, e.g.
// "MaximumRegistersINTEL 64", "MaximumRegistersIdINTEL 32 (%n)", "NamedMaximumRegistersINTEL AutoINTEL";
// empty when it requests none. `entryFunction` is the entry point's OpFunction.
std::string registerLimitOf(const ModuleView& mv, Id entryFunction);
// Its number of registers: MaximumRegistersINTEL's literal, MaximumRegistersIdINTEL's constant;
// nullopt for none and for NamedMaximumRegistersINTEL AutoINTEL (no limit).
std::optional<uint64_t> registerLimitValue(const ModuleView& mv, Id entryFunction);

// Decodes LoopControl words (mask followed by its parameters) by the extension spec. `words` starts
// at the mask. Throws DiagnosticError (at `where`) on a missing or malformed operand.
LoopControls decodeLoopControls(const uint32_t* words, size_t count, const SourceLoc& where);

// Readers. Both throw DiagnosticError with the file and location of the first problems found.
Module readBinary(const std::vector<uint8_t>& bytes, const std::string& fileName);
Module readText(std::string_view text, const std::string& fileName);
// Reads a file, choosing binary or text by content (SPIR-V magic in either endianness => binary).
Module readModuleFile(const std::string& path);

// Writers.
std::vector<uint32_t> writeBinary(const Module& m);
std::string writeText(const Module& m); // spirv-dis syntax, friendly names, with header comments

struct TextOptions {
  // %names from Module::textNames or OpName where unambiguous; false prints numeric ids only, like
  // `spirv-dis --raw-id` (then binary -> text -> binary is the identity).
  bool friendlyNames = true;
  bool header = true; // "; SPIR-V", "; Version: 1.4", ... (readText restores version, generator, bound)
};
std::string writeText(const Module& m, const TextOptions& opts);

} // namespace spvhls::spirv
