// The validation rules of the SPIR-V extensions the frontend accepts (specs in /work/shared/specs):
// capability and extension declared for each extension instruction and execution mode;
// SPV_INTEL_task_sequence, SPV_INTEL_fpga_loop_controls (DependencyArrayINTEL variables),
// SPV_INTEL_maximum_registers, SPV_INTEL_subgroups and SPV_INTEL_2d_block_io operand rules.
// Runs after indexing, so types, constants, functions and loop controls are known; every rule reports
// through ViewBuilder::error and checking goes on, so one run lists every problem.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "frontend/module_view_internal.h"

namespace spvhls::spirv::detail {

namespace {

using K = Type::Kind;

// An extension instruction (or execution mode) and what it needs to be declared.
struct Requirement {
  uint32_t capability;
  const char* capabilityName;
  const char* extension;
};

std::optional<Requirement> requirementOf(Op op) {
  namespace C = spv::Capability;
  switch (op) {
  case Op::OpTypeTaskSequenceINTEL:
  case Op::OpTaskSequenceCreateINTEL:
  case Op::OpTaskSequenceAsyncINTEL:
  case Op::OpTaskSequenceGetINTEL:
  case Op::OpTaskSequenceReleaseINTEL:
    return Requirement{C::TaskSequenceINTEL, "TaskSequenceINTEL", "SPV_INTEL_task_sequence"};
  case Op::OpSubgroup2DBlockLoadINTEL:
  case Op::OpSubgroup2DBlockPrefetchINTEL:
  case Op::OpSubgroup2DBlockStoreINTEL:
    return Requirement{C::Subgroup2DBlockIOINTEL, "Subgroup2DBlockIOINTEL", "SPV_INTEL_2d_block_io"};
  case Op::OpSubgroup2DBlockLoadTransformINTEL:
    return Requirement{C::Subgroup2DBlockTransformINTEL, "Subgroup2DBlockTransformINTEL",
                       "SPV_INTEL_2d_block_io"};
  case Op::OpSubgroup2DBlockLoadTransposeINTEL:
    return Requirement{C::Subgroup2DBlockTransposeINTEL, "Subgroup2DBlockTransposeINTEL",
                       "SPV_INTEL_2d_block_io"};
  case Op::OpSubgroupShuffleINTEL:
  case Op::OpSubgroupShuffleDownINTEL:
  case Op::OpSubgroupShuffleUpINTEL:
  case Op::OpSubgroupShuffleXorINTEL:
    return Requirement{C::SubgroupShuffleINTEL, "SubgroupShuffleINTEL", "SPV_INTEL_subgroups"};
  case Op::OpSubgroupBlockReadINTEL:
  case Op::OpSubgroupBlockWriteINTEL:
    return Requirement{C::SubgroupBufferBlockIOINTEL, "SubgroupBufferBlockIOINTEL", "SPV_INTEL_subgroups"};
  case Op::OpSubgroupImageBlockReadINTEL:
  case Op::OpSubgroupImageBlockWriteINTEL:
    return Requirement{C::SubgroupImageBlockIOINTEL, "SubgroupImageBlockIOINTEL", "SPV_INTEL_subgroups"};
  default:
    return std::nullopt;
  }
}

bool isRegisterLimitMode(uint32_t mode) {
  namespace E = spv::ExecutionMode;
  return mode == E::MaximumRegistersINTEL || mode == E::MaximumRegistersIdINTEL ||
         mode == E::NamedMaximumRegistersINTEL;
}

// Rules over one module; `report` is ViewBuilder::error.
class ExtensionRules {
public:
  using Report = std::function<void(uint32_t, std::string)>;
  ExtensionRules(const Module& m, const ModuleView& v, Report report)
      : m_(m), v_(v), report_(std::move(report)) {
    for (uint32_t c : v_.capabilities) {
      caps_.push_back(c);
      // Capabilities that implicitly declare another (SPV_INTEL_2d_block_io, fpga_cluster_attributes).
      if (c == spv::Capability::Subgroup2DBlockTransformINTEL ||
          c == spv::Capability::Subgroup2DBlockTransposeINTEL)
        caps_.push_back(spv::Capability::Subgroup2DBlockIOINTEL);
    }
  }

  void run() {
    std::map<uint16_t, bool> reported; // capability/extension problems: once per opcode
    for (uint32_t i = 0; i < m_.insts.size(); ++i) {
      const Instruction& inst = m_.insts[i];
      if (auto req = requirementOf(inst.op()); req && !reported[inst.opcode]) {
        reported[inst.opcode] = true;
        require(i, *req);
      }
      switch (inst.op()) {
      case Op::OpTaskSequenceCreateINTEL:
        taskCreate(i);
        break;
      case Op::OpTaskSequenceAsyncINTEL:
        taskAsync(i);
        break;
      case Op::OpTaskSequenceGetINTEL:
        taskGet(i);
        break;
      case Op::OpTaskSequenceReleaseINTEL:
        sequenceOperand(i, 0);
        break;
      case Op::OpSubgroupShuffleINTEL:
      case Op::OpSubgroupShuffleXorINTEL:
        shuffle(i, 1);
        break;
      case Op::OpSubgroupShuffleDownINTEL:
      case Op::OpSubgroupShuffleUpINTEL:
        shuffle(i, 2);
        break;
      case Op::OpSubgroupBlockReadINTEL:
        blockRead(i);
        break;
      case Op::OpSubgroupBlockWriteINTEL:
        blockWrite(i);
        break;
      case Op::OpSubgroupImageBlockReadINTEL:
        imageBlock(i, 0, 1);
        break;
      case Op::OpSubgroupImageBlockWriteINTEL:
        imageBlock(i, 0, 1);
        break;
      case Op::OpSubgroup2DBlockLoadINTEL:
      case Op::OpSubgroup2DBlockLoadTransformINTEL:
      case Op::OpSubgroup2DBlockLoadTransposeINTEL:
      case Op::OpSubgroup2DBlockPrefetchINTEL:
      case Op::OpSubgroup2DBlockStoreINTEL:
        block2d(i);
        break;
      default:
        break;
      }
    }
    registerLimits();
    dependencyArrays();
  }

private:
  bool hasCapability(uint32_t c) const { return std::find(caps_.begin(), caps_.end(), c) != caps_.end(); }
  bool hasExtension(const std::string& intelName) const {
    std::string altera = intelName;
    altera.replace(altera.find("_INTEL_"), 7, "_ALTERA_");
    const auto& e = v_.extensions;
    return std::find(e.begin(), e.end(), intelName) != e.end() ||
           std::find(e.begin(), e.end(), altera) != e.end();
  }
  void require(uint32_t i, const Requirement& r) {
    if (!hasCapability(r.capability))
      report_(i, fmt::format("needs OpCapability {}, which the module does not declare", r.capabilityName));
    if (!hasExtension(r.extension))
      report_(i, fmt::format("needs OpExtension \"{}\", which the module does not declare", r.extension));
  }

  // ---- types of values ----
  Id typeOf(Id value) const {
    const Instruction* d = v_.defInst(value);
    return d ? d->resultType : 0;
  }
  const Type* typeOfValue(Id value) const { return v_.findType(typeOf(value)); }
  std::string describeType(Id type) const {
    const Type* t = v_.findType(type);
    if (!t) return fmt::format("{} (not a type)", v_.nameOf(type));
    switch (t->kind) {
    case K::Int:
      return fmt::format("{} ({}-bit integer)", v_.nameOf(type), t->width);
    case K::Float:
      return fmt::format("{} ({}-bit float)", v_.nameOf(type), t->width);
    case K::Vector:
      return fmt::format("{} ({}-component vector)", v_.nameOf(type), t->count);
    case K::Pointer:
      return fmt::format("{} (pointer to {} in {})", v_.nameOf(type), v_.nameOf(t->elem),
                         grammar::enumName(OperandKind::StorageClass, t->storageClass));
    default:
      return v_.nameOf(type);
    }
  }
  // "%x has type %float (32-bit float)"
  std::string valueHas(Id value) const {
    Id t = typeOf(value);
    return t ? fmt::format("{} has type {}", v_.nameOf(value), describeType(t))
             : fmt::format("{} has no type", v_.nameOf(value));
  }
  bool isScalarType(Id type) const {
    const Type* t = v_.findType(type);
    return t && (t->kind == K::Int || t->kind == K::Float || t->kind == K::Bool);
  }
  bool isScalarOrVectorType(Id type) const {
    const Type* t = v_.findType(type);
    return t && (isScalarType(type) || t->kind == K::Vector);
  }
  Id componentType(Id type) const {
    const Type* t = v_.findType(type);
    return t && t->kind == K::Vector ? t->elem : type;
  }
  bool isIntScalar(Id value, uint32_t width = 0) const {
    const Type* t = typeOfValue(value);
    return t && t->kind == K::Int && (width == 0 || t->width == width);
  }

  // ---- SPV_INTEL_task_sequence ----
  // The sequence operand must have OpTypeTaskSequenceINTEL; returns the function of its
  // OpTaskSequenceCreateINTEL when the operand is that instruction's result (else null: the sequence
  // came through memory or a parameter and its function is not known statically).
  const Function* sequenceOperand(uint32_t i, size_t index) {
    const auto& ops = m_.insts[i].operands;
    if (index >= ops.size()) return nullptr;
    Id seq = ops[index];
    const Type* t = typeOfValue(seq);
    if (!t || t->kind != K::TaskSequence) {
      report_(i, fmt::format("Sequence {}; expected a value of OpTypeTaskSequenceINTEL", valueHas(seq)));
      return nullptr;
    }
    const Instruction* d = v_.defInst(seq);
    if (!d || d->op() != Op::OpTaskSequenceCreateINTEL || d->operands.empty()) return nullptr;
    return v_.findFunction(d->operands[0]);
  }

  void taskCreate(uint32_t i) {
    const Instruction& inst = m_.insts[i];
    const auto& ops = inst.operands;
    const Type* rt = v_.findType(inst.resultType);
    if (!rt || rt->kind != K::TaskSequence)
      report_(i, fmt::format("Result Type is {}; expected an OpTypeTaskSequenceINTEL",
                             describeType(inst.resultType)));
    if (ops.size() < 5) return; // the grammar walk has reported the shape
    // Function being an OpFunction is checked with the other callees (checkReferences).
    auto pipelined = static_cast<int32_t>(ops[1]);
    if (pipelined < -1)
      report_(i, fmt::format(
                     "Pipelined is {}; expected -1 (compiler's choice), 0 (not pipelined) or an initiation "
                     "interval N > 0",
                     pipelined));
    auto clusterMode = static_cast<int32_t>(ops[2]);
    if (clusterMode < -1 || clusterMode > 1)
      report_(i, fmt::format(
                     "ClusterMode is {}; expected -1 (compiler's choice), 0 (stall-free) or 1 (stall-enable)",
                     clusterMode));
  }

  void taskAsync(uint32_t i) {
    const auto& ops = m_.insts[i].operands;
    const Function* fn = sequenceOperand(i, 0);
    if (!fn) return;
    size_t args = ops.size() - 1;
    if (args != fn->params.size()) {
      report_(i,
              fmt::format("passes {} argument{} to {}, which takes {}; expected one argument per parameter",
                          args, args == 1 ? "" : "s", v_.nameOf(fn->id), fn->params.size()));
      return;
    }
    for (size_t k = 0; k < args; ++k) {
      Id want = typeOf(fn->params[k]), got = typeOf(ops[k + 1]);
      if (want != got)
        report_(i, fmt::format("argument {}: {}; expected {}, the type of parameter {} of {}", k,
                               valueHas(ops[k + 1]), describeType(want), v_.nameOf(fn->params[k]),
                               v_.nameOf(fn->id)));
    }
  }

  void taskGet(uint32_t i) {
    const Instruction& inst = m_.insts[i];
    const Function* fn = sequenceOperand(i, 0);
    if (fn && fn->resultType != inst.resultType)
      report_(i, fmt::format("Result Type is {}; expected {}, the return type of {}",
                             describeType(inst.resultType), describeType(fn->resultType), v_.nameOf(fn->id)));
  }

  // ---- SPV_INTEL_maximum_registers ----
  void registerLimits() {
    std::map<Id, uint32_t> first; // entry point -> its first register-limit mode instruction
    for (const ExecutionMode& em : v_.executionModes) {
      if (!isRegisterLimitMode(em.mode)) continue;
      require(em.inst,
              {spv::Capability::RegisterLimitsINTEL, "RegisterLimitsINTEL", "SPV_INTEL_maximum_registers"});
      auto [it, fresh] = first.emplace(em.entryPoint, em.inst);
      if (!fresh)
        report_(
            em.inst,
            fmt::format("{} on entry point {}, which already has {} (at {}); expected at most one of "
                        "MaximumRegistersINTEL, MaximumRegistersIdINTEL and NamedMaximumRegistersINTEL",
                        grammar::enumName(OperandKind::ExecutionMode, em.mode), v_.nameOf(em.entryPoint),
                        grammar::enumName(OperandKind::ExecutionMode, m_.insts[it->second].operands.at(1)),
                        m_.locOf(m_.insts[it->second]).str()));
      if (em.mode == spv::ExecutionMode::MaximumRegistersIdINTEL && !em.literals.empty()) {
        Id n = em.literals[0];
        const Instruction* d = v_.defInst(n);
        bool constant = d && (d->op() == Op::OpConstant || d->op() == Op::OpSpecConstant);
        if (!constant || !isIntScalar(n))
          report_(em.inst,
                  fmt::format("Number of Registers {} is defined by {} and {}; expected an integer scalar "
                              "OpConstant or OpSpecConstant",
                              v_.nameOf(n), d ? grammar::opName(d->opcode) : "nothing", valueHas(n)));
      }
    }
  }

  // ---- SPV_INTEL_fpga_loop_controls: DependencyArrayINTEL names variables ----
  void dependencyArrays() {
    for (const Function& fn : v_.functions)
      for (const Block& b : fn.blocks) {
        if (!b.loopControls) continue;
        for (const auto& [var, distance] : b.loopControls->dependencyArray) {
          // A "variable" here is any pointer: llvm-spirv names access-chain results, not only OpVariables.
          const Instruction* d = v_.defInst(var);
          const Type* t = d && d->resultType ? v_.findType(d->resultType) : nullptr;
          if (!t || t->kind != Type::Kind::Pointer)
            report_(
                b.loopControlInst,
                fmt::format("DependencyArrayINTEL names {}, defined by {}; expected a pointer (a variable or "
                            "an access chain into one)",
                            v_.nameOf(var), d ? grammar::opName(d->opcode) : "nothing"));
        }
      }
  }

  // ---- SPV_INTEL_subgroups ----
  void scalarOrVectorResult(uint32_t i) {
    const Instruction& inst = m_.insts[i];
    if (!isScalarOrVectorType(inst.resultType))
      report_(i, fmt::format("Result Type is {}; expected a scalar or vector type",
                             describeType(inst.resultType)));
  }

  // Shuffles: `dataCount` data operands of the result type, then a 32-bit integer scalar index.
  void shuffle(uint32_t i, size_t dataCount) {
    const Instruction& inst = m_.insts[i];
    const auto& ops = inst.operands;
    if (ops.size() != dataCount + 1) return;
    scalarOrVectorResult(i);
    static const char* kOne[] = {"Data"};
    static const char* kTwo[] = {"first data operand", "second data operand"};
    for (size_t k = 0; k < dataCount; ++k)
      if (typeOf(ops[k]) != inst.resultType)
        report_(i, fmt::format("{}: {}; expected the Result Type {}", dataCount == 1 ? kOne[0] : kTwo[k],
                               valueHas(ops[k]), describeType(inst.resultType)));
    const char* indexName = inst.op() == Op::OpSubgroupShuffleINTEL      ? "InvocationId"
                            : inst.op() == Op::OpSubgroupShuffleXorINTEL ? "Value"
                                                                         : "Delta";
    if (!isIntScalar(ops[dataCount], 32))
      report_(i,
              fmt::format("{}: {}; expected a 32-bit integer scalar", indexName, valueHas(ops[dataCount])));
  }

  // Ptr of the buffer block instructions: a pointer to a scalar; returns the pointee (0 if not).
  Id blockPointee(uint32_t i, Id ptr) {
    const Type* t = typeOfValue(ptr);
    if (!t || t->kind != K::Pointer || !isScalarType(t->elem)) {
      report_(i, fmt::format("Ptr: {}; expected a pointer to a scalar type", valueHas(ptr)));
      return 0;
    }
    return t->elem;
  }

  void blockRead(uint32_t i) {
    const Instruction& inst = m_.insts[i];
    if (inst.operands.size() != 1) return;
    scalarOrVectorResult(i);
    Id pointee = blockPointee(i, inst.operands[0]);
    if (pointee && componentType(inst.resultType) != pointee)
      report_(i, fmt::format("Result Type {} has component type {}; expected the type Ptr points to, {}",
                             describeType(inst.resultType), describeType(componentType(inst.resultType)),
                             describeType(pointee)));
  }

  void blockWrite(uint32_t i) {
    const auto& ops = m_.insts[i].operands;
    if (ops.size() != 2) return;
    Id pointee = blockPointee(i, ops[0]);
    Id dataType = typeOf(ops[1]);
    if (!isScalarOrVectorType(dataType))
      report_(i, fmt::format("Data: {}; expected a scalar or vector", valueHas(ops[1])));
    else if (pointee && componentType(dataType) != pointee)
      report_(i, fmt::format("Data: {}, component type {}; expected the type Ptr points to, {}",
                             valueHas(ops[1]), describeType(componentType(dataType)), describeType(pointee)));
  }

  void imageBlock(uint32_t i, size_t imageIndex, size_t coordIndex) {
    const Instruction& inst = m_.insts[i];
    const auto& ops = inst.operands;
    if (ops.size() <= coordIndex) return;
    if (inst.op() == Op::OpSubgroupImageBlockReadINTEL) scalarOrVectorResult(i);
    const Instruction* imageType = v_.defInst(typeOf(ops[imageIndex]));
    // OpTypeImage operands: Sampled Type, Dim, Depth, Arrayed, MS, Sampled, ...
    if (!imageType || imageType->op() != Op::OpTypeImage || imageType->operands.size() < 6)
      report_(i, fmt::format("Image: {}; expected an OpTypeImage value", valueHas(ops[imageIndex])));
    else if (imageType->operands[5] != 0 && imageType->operands[5] != 2)
      report_(i,
              fmt::format("Image: the image type has Sampled {}; expected 0 or 2", imageType->operands[5]));
    Id coordType = typeOf(ops[coordIndex]);
    const Type* ct = v_.findType(componentType(coordType));
    if (!isScalarOrVectorType(coordType) || !ct || ct->kind != K::Int)
      report_(i,
              fmt::format("Coordinate: {}; expected an integer scalar or vector", valueHas(ops[coordIndex])));
  }

  // ---- SPV_INTEL_2d_block_io ----
  // A constant instruction with scalar 32-bit integer type; its value, or nullopt after reporting.
  std::optional<uint32_t> constant32(uint32_t i, const char* what, Id id) {
    const Constant* c = v_.findConstant(id);
    if (!c || c->isUndef || !c->constituents.empty() || c->expr || !isIntScalar(id, 32)) {
      const Instruction* d = v_.defInst(id);
      report_(
          i, fmt::format("{}: {} is defined by {} and {}; expected a constant instruction with scalar 32-bit "
                         "integer type",
                         what, v_.nameOf(id), d ? grammar::opName(d->opcode) : "nothing", valueHas(id)));
      return std::nullopt;
    }
    return static_cast<uint32_t>(c->bits);
  }

  void pointerIn(uint32_t i, const char* what, Id ptr, uint32_t storageClass) {
    const Type* t = typeOfValue(ptr);
    if (!t || t->kind != K::Pointer || t->storageClass != storageClass)
      report_(i, fmt::format("{}: {}; expected a pointer to the {} storage class", what, valueHas(ptr),
                             grammar::enumName(OperandKind::StorageClass, storageClass)));
  }

  void block2d(uint32_t i) {
    const Instruction& inst = m_.insts[i];
    const auto& ops = inst.operands;
    Op op = inst.op();
    bool store = op == Op::OpSubgroup2DBlockStoreINTEL, prefetch = op == Op::OpSubgroup2DBlockPrefetchINTEL;
    if (ops.size() != (prefetch ? 9u : 10u)) return;
    auto elementSize = constant32(i, "Element Size", ops[0]);
    auto width = constant32(i, "Block Width", ops[1]);
    constant32(i, "Block Height", ops[2]);
    constant32(i, "Block Count", ops[3]);
    if (elementSize && *elementSize != 1 && *elementSize != 2 && *elementSize != 4 && *elementSize != 8)
      report_(i, fmt::format("Element Size is {}; expected 1, 2, 4 or 8 bytes", *elementSize));
    if (elementSize && width && (*elementSize == 1 || *elementSize == 2)) {
      uint32_t multiple = *elementSize == 1 ? 4 : 2;
      if (*width % multiple != 0)
        report_(i, fmt::format("Block Width is {} for {}-byte elements; expected a multiple of {}", *width,
                               *elementSize, multiple));
    }
    // Pointer operands, then Memory Width/Height/Pitch and Coordinate.
    size_t memory = 5;
    if (store) {
      pointerIn(i, "Src Pointer", ops[4], spv::StorageClass::Function);
      pointerIn(i, "Dst Base Pointer", ops[5], spv::StorageClass::CrossWorkgroup);
      memory = 6;
    } else {
      pointerIn(i, prefetch ? "Src Pointer" : "Src Base Pointer", ops[4], spv::StorageClass::CrossWorkgroup);
    }
    static const char* kMemory[] = {"Memory Width", "Memory Height", "Memory Pitch"};
    for (size_t k = 0; k < 3; ++k)
      if (!isIntScalar(ops[memory + k]))
        report_(i, fmt::format("{}: {}; expected an integer scalar", kMemory[k], valueHas(ops[memory + k])));
    Id coord = ops[memory + 3];
    const Type* ct = typeOfValue(coord);
    const Type* comp = ct && ct->kind == K::Vector ? v_.findType(ct->elem) : nullptr;
    if (!ct || ct->kind != K::Vector || ct->count != 2 || !comp || comp->kind != K::Int)
      report_(i, fmt::format("Coordinate: {}; expected a vector of two integer components", valueHas(coord)));
    if (store || prefetch) return;
    Id dst = ops[9];
    pointerIn(i, "Dst Pointer", dst, spv::StorageClass::Function);
    if (op == Op::OpSubgroup2DBlockLoadTransformINTEL) {
      const Type* dt = typeOfValue(dst);
      const Type* pointee = dt && dt->kind == K::Pointer ? v_.findType(dt->elem) : nullptr;
      if (pointee && (pointee->kind != K::Int || pointee->width != 32))
        report_(i, fmt::format(
                       "Dst Pointer: {}; expected a pointer to a scalar 32-bit integer (transformed data is "
                       "packed into 32-bit values)",
                       valueHas(dst)));
    }
  }

  const Module& m_;
  const ModuleView& v_;
  Report report_;
  std::vector<uint32_t> caps_;
};

} // namespace

void ViewBuilder::checkExtensions() {
  ExtensionRules(m_, v_, [this](uint32_t i, std::string msg) { error(i, std::move(msg)); }).run();
}

} // namespace spvhls::spirv::detail

namespace spvhls::spirv {

std::string registerLimitOf(const ModuleView& mv, Id entryFunction) {
  for (const ExecutionMode& em : mv.executionModes) {
    if (em.entryPoint != entryFunction || !detail::isRegisterLimitMode(em.mode)) continue;
    std::string name = grammar::enumName(OperandKind::ExecutionMode, em.mode);
    if (em.literals.empty()) return name;
    uint32_t v = em.literals[0];
    if (em.mode == spv::ExecutionMode::NamedMaximumRegistersINTEL)
      return name + " " + grammar::enumName(OperandKind::NamedMaximumNumberOfRegisters, v);
    if (em.mode == spv::ExecutionMode::MaximumRegistersIdINTEL) {
      const Constant* c = mv.findConstant(v);
      return c ? fmt::format("{} {} ({})", name, c->bits, mv.nameOf(v)) : fmt::format("{} {}", name, mv.nameOf(v));
    }
    return fmt::format("{} {}", name, v);
  }
  return "";
}

std::optional<uint64_t> registerLimitValue(const ModuleView& mv, Id entryFunction) {
  for (const ExecutionMode& em : mv.executionModes) {
    if (em.entryPoint != entryFunction || em.literals.empty()) continue;
    if (em.mode == spv::ExecutionMode::MaximumRegistersINTEL) return em.literals[0];
    if (em.mode == spv::ExecutionMode::MaximumRegistersIdINTEL)
      if (const Constant* c = mv.findConstant(em.literals[0])) return c->bits;
  }
  return std::nullopt;
}

} // namespace spvhls::spirv
