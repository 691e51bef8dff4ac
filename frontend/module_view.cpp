// buildModuleView: indexes the module (types, constants, functions, blocks, decorations, names, entry
// points, loop controls) and validates what lowering and the interpreter rely on. The control-flow
// checks (terminators, branch targets, OpPhi parents, loop controls) are in module_cfg.cpp.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/module_view_internal.h"
#include "frontend/operand_walk.h"

namespace spvhls::spirv {

namespace detail {

namespace {

bool isTypeDecl(const Instruction& inst) {
  const auto* info = grammar::findInstruction(inst.opcode);
  return info && std::string_view(info->klass) == "Type-Declaration" && inst.op() != Op::OpTypeForwardPointer;
}

// Instructions that may appear outside functions.
bool isModuleScope(const Instruction& inst) {
  const auto* info = grammar::findInstruction(inst.opcode);
  if (!info) return false;
  std::string_view k = info->klass;
  if (k == "Type-Declaration" || k == "Constant-Creation" || k == "Annotation" || k == "Debug" ||
      k == "Mode-Setting" || k == "Extension")
    return true;
  switch (inst.op()) {
  case Op::OpVariable:
  case Op::OpUndef:
  case Op::OpLine:
  case Op::OpNoLine:
  case Op::OpTypeStructContinuedINTEL:
  case Op::OpConstantCompositeContinuedINTEL:
  case Op::OpSpecConstantCompositeContinuedINTEL:
  case Op::OpConstantFunctionPointerINTEL:
  case Op::OpAliasDomainDeclINTEL:
  case Op::OpAliasScopeDeclINTEL:
  case Op::OpAliasScopeListDeclINTEL:
  case Op::OpAsmTargetINTEL:
  case Op::OpAsmINTEL:
    return true;
  default:
    return false;
  }
}

std::string decodeStringAt(const std::vector<uint32_t>& words, size_t from, size_t* used = nullptr) {
  std::string s;
  size_t n = 0;
  if (from <= words.size()) decodeString(std::span<const uint32_t>(words).subspan(from), s, n);
  if (used) *used = n;
  return s;
}

} // namespace

void ViewBuilder::error(uint32_t instIndex, std::string message) {
  const Instruction& inst = m_.insts[instIndex];
  diags_.push_back({Diagnostic::Severity::Error, m_.locOf(inst), grammar::opName(inst.opcode), std::move(message)});
}

void ViewBuilder::collectDefinitions() {
  v_.def.reserve(m_.insts.size());
  for (uint32_t i = 0; i < m_.insts.size(); ++i) {
    const Instruction& inst = m_.insts[i];
    if (!grammar::findInstruction(inst.opcode)) {
      error(i, fmt::format("unknown opcode {}", inst.opcode));
      continue;
    }
    if (!inst.resultId) continue;
    if (inst.resultId >= m_.bound && m_.bound != 0)
      error(i, fmt::format("result id %{} is not below the module's id bound {}", inst.resultId, m_.bound));
    auto [it, fresh] = v_.def.emplace(inst.resultId, i);
    if (!fresh)
      error(i, fmt::format("{} is defined again; first defined at {}", v_.nameOf(inst.resultId),
                           m_.locOf(m_.insts[it->second]).str()));
  }
}

void ViewBuilder::checkUses() {
  TypeTracker types;
  for (uint32_t i = 0; i < m_.insts.size(); ++i) {
    const Instruction& inst = m_.insts[i];
    const auto* info = grammar::findInstruction(inst.opcode);
    if (!info) continue;
    std::vector<uint32_t> words = operandWords(inst);
    WordCursor cur(words, m_.locOf(inst), info->name);
    try {
      walkOperands(*info, cur, types);
    } catch (const DiagnosticError& e) {
      diags_.insert(diags_.end(), e.diagnostics().begin(), e.diagnostics().end());
      continue;
    }
    types.note(inst);
    std::vector<Id> reported; // each undefined id once per instruction
    for (const auto& use : cur.ids) {
      if (use.kind == OperandKind::IdResult) continue;
      Id id = words[use.index];
      auto it = v_.def.find(id);
      if (it == v_.def.end()) {
        if (std::find(reported.begin(), reported.end(), id) != reported.end()) continue;
        reported.push_back(id);
        error(i, fmt::format("uses {}, which is not defined; expected the id of a definition", v_.nameOf(id)));
        continue;
      }
      if (use.kind == OperandKind::IdResultType && !isTypeDecl(m_.insts[it->second]))
        error(i, fmt::format("result type {} is defined by {}; expected a type declaration", v_.nameOf(id),
                             grammar::opName(m_.insts[it->second].opcode)));
      else if (use.kind != OperandKind::IdResultType)
        uses_.emplace_back(i, id);
    }
  }
}

void ViewBuilder::indexModuleScope(uint32_t i) {
  const Instruction& inst = m_.insts[i];
  const auto& ops = inst.operands;
  switch (inst.op()) {
  case Op::OpCapability:
    v_.capabilities.push_back(ops.at(0));
    break;
  case Op::OpExtension:
    v_.extensions.push_back(decodeStringAt(ops, 0));
    break;
  case Op::OpExtInstImport:
    v_.extInstImports[inst.resultId] = decodeStringAt(ops, 0);
    break;
  case Op::OpMemoryModel:
    v_.addressingModel = ops.at(0);
    v_.memoryModel = ops.at(1);
    break;
  case Op::OpEntryPoint: {
    EntryPoint ep;
    ep.executionModel = ops.at(0);
    ep.function = ops.at(1);
    size_t used = 0;
    ep.name = decodeStringAt(ops, 2, &used);
    ep.interface.assign(ops.begin() + static_cast<ptrdiff_t>(2 + used), ops.end());
    ep.inst = i;
    v_.entryPoints.push_back(std::move(ep));
    break;
  }
  case Op::OpExecutionMode:
  case Op::OpExecutionModeId: {
    ExecutionMode em;
    em.entryPoint = ops.at(0);
    em.mode = ops.at(1);
    em.literals.assign(ops.begin() + 2, ops.end());
    em.isId = inst.op() == Op::OpExecutionModeId;
    em.inst = i;
    v_.executionModes.push_back(std::move(em));
    break;
  }
  case Op::OpName:
    v_.names[ops.at(0)] = decodeStringAt(ops, 1);
    break;
  case Op::OpDecorate:
  case Op::OpDecorateId:
  case Op::OpDecorateString: {
    Decoration d;
    d.kind = ops.at(1);
    d.literals.assign(ops.begin() + 2, ops.end());
    v_.decorations[ops.at(0)].push_back(std::move(d));
    break;
  }
  case Op::OpMemberDecorate:
  case Op::OpMemberDecorateString: {
    Decoration d;
    d.member = ops.at(1);
    d.kind = ops.at(2);
    d.literals.assign(ops.begin() + 3, ops.end());
    v_.decorations[ops.at(0)].push_back(std::move(d));
    break;
  }
  case Op::OpVariable:
    if (ops.at(0) == spv::StorageClass::Function)
      error(i, "a Function-storage OpVariable outside a function; expected it in a function's first block");
    v_.globals.push_back(inst.resultId);
    break;
  case Op::OpTypeForwardPointer:
    forwardPointers_.insert(ops.at(0));
    break;
  default:
    if (isTypeDecl(inst)) indexType(i);
    else indexConstant(i);
    break;
  }
}

void ViewBuilder::indexType(uint32_t i) {
  const Instruction& inst = m_.insts[i];
  const auto& ops = inst.operands;
  Type t;
  using K = Type::Kind;
  switch (inst.op()) {
  case Op::OpTypeVoid: t.kind = K::Void; break;
  case Op::OpTypeBool: t.kind = K::Bool; break;
  case Op::OpTypeInt:
    t.kind = K::Int;
    t.width = ops.at(0);
    t.isSigned = ops.at(1) != 0;
    break;
  case Op::OpTypeFloat:
    t.kind = K::Float;
    t.width = ops.at(0);
    break;
  case Op::OpTypeVector:
    t.kind = K::Vector;
    t.elem = ops.at(0);
    t.count = ops.at(1);
    break;
  case Op::OpTypeArray: {
    t.kind = K::Array;
    t.elem = ops.at(0);
    const Constant* len = v_.findConstant(ops.at(1));
    if (!len || len->isUndef || !len->constituents.empty() || len->expr)
      error(i, fmt::format("array length {} is not a scalar constant defined before the array type",
                           v_.nameOf(ops.at(1))));
    else if (len->bits == 0 || len->bits > UINT32_MAX)
      error(i, fmt::format("array length {} is not between 1 and 2^32-1", len->bits));
    else
      t.count = static_cast<uint32_t>(len->bits);
    break;
  }
  case Op::OpTypeRuntimeArray:
    t.kind = K::RuntimeArray;
    t.elem = ops.at(0);
    break;
  case Op::OpTypeStruct:
    t.kind = K::Struct;
    t.members = ops;
    break;
  case Op::OpTypePointer:
    t.kind = K::Pointer;
    t.storageClass = ops.at(0);
    t.elem = ops.at(1);
    break;
  case Op::OpTypeFunction:
    t.kind = K::Function;
    t.elem = ops.at(0);
    t.members.assign(ops.begin() + 1, ops.end());
    break;
  case Op::OpTypeOpaque: t.kind = K::Opaque; break;
  case Op::OpTypeTaskSequenceINTEL: t.kind = K::TaskSequence; break;
  default: t.kind = K::Other; break;
  }
  // Component types come first (only a pointer may name a type declared later, through
  // OpTypeForwardPointer), so types are never cyclic.
  auto declaredBefore = [&](Id part) {
    if (!v_.types.count(part) && !forwardPointers_.count(part))
      error(i, fmt::format("component type {} is not a type declared before {}; expected a type declared earlier",
                           v_.nameOf(part), v_.nameOf(inst.resultId)));
  };
  for (Id member : t.members) declaredBefore(member);
  if (t.kind == K::Vector || t.kind == K::Array || t.kind == K::RuntimeArray) declaredBefore(t.elem);
  v_.types[inst.resultId] = std::move(t);
}

// The constituents of a composite constant: constants (or module-scope variables, as addresses)
// defined before it, as many as its type has, of the types it has.
bool ViewBuilder::checkConstituents(uint32_t i) {
  const Instruction& inst = m_.insts[i];
  const Type* t = v_.findType(inst.resultType);
  using K = Type::Kind;
  if (!t || (t->kind != K::Vector && t->kind != K::Array && t->kind != K::Struct)) {
    error(i, fmt::format("result type {} is not a vector, array or struct", v_.nameOf(inst.resultType)));
    return false;
  }
  size_t want = t->kind == K::Struct ? t->members.size() : t->count;
  if (inst.operands.size() != want) {
    Op next = i + 1 < m_.insts.size() ? m_.insts[i + 1].op() : Op::OpNop;
    if (next == Op::OpConstantCompositeContinuedINTEL || next == Op::OpSpecConstantCompositeContinuedINTEL)
      error(i, "continued composite constants (SPV_INTEL_long_composites) are not supported");
    else
      error(i, fmt::format("{} constituents for type {}; expected {}", inst.operands.size(), v_.nameOf(inst.resultType), want));
    return false;
  }
  for (size_t k = 0; k < want; ++k) {
    Id part = inst.operands[k];
    auto d = v_.def.find(part);
    if (d == v_.def.end() || d->second >= i) {
      error(i, fmt::format("constituent {} is not defined before {}; expected a constant defined earlier",
                           v_.nameOf(part), v_.nameOf(inst.resultId)));
      return false;
    }
    Id partType = m_.insts[d->second].resultType, expect = t->kind == K::Struct ? t->members[k] : t->elem;
    if (partType != expect) {
      error(i, fmt::format("constituent {} has type {}; expected {}", k, partType ? v_.nameOf(partType) : "none",
                           v_.nameOf(expect)));
      return false;
    }
  }
  return true;
}

void ViewBuilder::indexConstant(uint32_t i) {
  const Instruction& inst = m_.insts[i];
  const auto& ops = inst.operands;
  Constant c;
  c.type = inst.resultType;
  switch (inst.op()) {
  case Op::OpConstant:
  case Op::OpSpecConstant: {
    const Type* t = v_.findType(inst.resultType);
    uint64_t bits = ops.empty() ? 0 : ops[0];
    if (ops.size() > 1) bits |= uint64_t(ops[1]) << 32;
    // Narrow signed constants are sign-extended in their word; the view keeps them zero-extended.
    if (t && t->width > 0 && t->width < 64) bits &= (uint64_t(1) << t->width) - 1;
    c.bits = bits;
    break;
  }
  case Op::OpConstantTrue:
  case Op::OpSpecConstantTrue: c.bits = 1; break;
  case Op::OpConstantFalse:
  case Op::OpSpecConstantFalse: c.bits = 0; break;
  case Op::OpConstantNull: c.isNull = true; break;
  case Op::OpConstantComposite:
  case Op::OpSpecConstantComposite:
    if (!checkConstituents(i)) return;
    c.constituents = ops;
    break;
  case Op::OpUndef: c.isUndef = true; break;
  case Op::OpSpecConstantOp:
    if (!foldSpecConstantOp(i, c)) return;
    break;
  default: return; // OpConstantSampler, ...: no constant value recorded
  }
  v_.constants[inst.resultId] = std::move(c);
}

// Splits the module into module scope and functions, and functions into blocks.
void ViewBuilder::indexLayout() {
  enum class State { Module, FunctionHead, InBlock, BetweenBlocks } state = State::Module;
  Function* fn = nullptr;
  for (uint32_t i = 0; i < m_.insts.size(); ++i) {
    const Instruction& inst = m_.insts[i];
    if (!grammar::findInstruction(inst.opcode)) continue;
    Op op = inst.op();
    if (state == State::Module) {
      if (op == Op::OpFunction) {
        Function f;
        f.id = inst.resultId;
        f.resultType = inst.resultType;
        f.control = inst.operands.at(0);
        f.functionType = inst.operands.at(1);
        f.defInst = i;
        v_.functionIndex[f.id] = static_cast<uint32_t>(v_.functions.size());
        v_.functions.push_back(std::move(f));
        fn = &v_.functions.back();
        state = State::FunctionHead;
      } else if (isModuleScope(inst)) {
        indexModuleScope(i);
      } else {
        error(i, "appears outside a function; expected it inside a function's block");
      }
      continue;
    }
    if (op == Op::OpFunctionEnd) {
      if (state == State::InBlock)
        error(i, fmt::format("block {} does not end with a terminator before OpFunctionEnd",
                             v_.nameOf(fn->blocks.back().label)));
      state = State::Module;
      fn = nullptr;
      continue;
    }
    if (op == Op::OpFunction) {
      error(i, "OpFunction inside another function; expected OpFunctionEnd first");
      continue;
    }
    if (op == Op::OpFunctionParameter) {
      if (state != State::FunctionHead) error(i, "OpFunctionParameter after the function's first block");
      else fn->params.push_back(inst.resultId);
      continue;
    }
    if (op == Op::OpLabel) {
      if (state == State::InBlock) {
        error(i, fmt::format("block {} does not end with a terminator before the next OpLabel",
                             v_.nameOf(fn->blocks.back().label)));
        closeBlock(*fn, i, false);
      }
      Block b;
      b.label = inst.resultId;
      b.firstInst = i;
      v_.blockOf[b.label] = {v_.functionIndex[fn->id], static_cast<uint32_t>(fn->blocks.size())};
      fn->blocks.push_back(std::move(b));
      state = State::InBlock;
      continue;
    }
    if (state != State::InBlock) {
      if (op == Op::OpLine || op == Op::OpNoLine) continue;
      error(i, state == State::FunctionHead ? "appears before the function's first OpLabel"
                                            : "appears after a block's terminator; expected an OpLabel first");
      continue;
    }
    if (op == Op::OpVariable && fn->blocks.size() > 1)
      error(i, "OpVariable outside the function's first block; expected all variables in the entry block");
    if (op == Op::OpUndef) indexConstant(i);
    if (isTerminator(op)) {
      closeBlock(*fn, i, true);
      state = State::BetweenBlocks;
    }
  }
  if (state != State::Module) error(static_cast<uint32_t>(m_.insts.size() - 1), "the module ends inside a function");
}

void ViewBuilder::closeBlock(Function& fn, uint32_t index, bool terminated) {
  Block& b = fn.blocks.back();
  b.terminator = terminated ? index : index - 1;
  b.endInst = terminated ? index + 1 : index;
}

bool isTerminator(Op op) {
  switch (op) {
  case Op::OpBranch:
  case Op::OpBranchConditional:
  case Op::OpSwitch:
  case Op::OpReturn:
  case Op::OpReturnValue:
  case Op::OpKill:
  case Op::OpUnreachable:
  case Op::OpTerminateInvocation:
    return true;
  default:
    return false;
  }
}

void ViewBuilder::checkReferences() {
  for (const auto& ep : v_.entryPoints)
    if (!v_.findFunction(ep.function))
      error(ep.inst, fmt::format("entry point \"{}\" names {}, which is not a function", ep.name, v_.nameOf(ep.function)));
  for (const auto& em : v_.executionModes) {
    bool found = false;
    for (const auto& ep : v_.entryPoints) found |= ep.function == em.entryPoint;
    if (!found) error(em.inst, fmt::format("{} is not an entry point", v_.nameOf(em.entryPoint)));
  }
  for (uint32_t i = 0; i < m_.insts.size(); ++i) {
    const Instruction& inst = m_.insts[i];
    Id callee = 0;
    if (inst.op() == Op::OpFunctionCall || inst.op() == Op::OpTaskSequenceCreateINTEL) callee = inst.operands.at(0);
    if (callee && !v_.findFunction(callee))
      error(i, fmt::format("calls {}, which is not an OpFunction", v_.nameOf(callee)));
    if (inst.op() == Op::OpFunctionCall && callee) checkCall(i);
  }
}

// OpFunctionCall: the callee's return type, as many arguments as it has parameters, of their types.
void ViewBuilder::checkCall(uint32_t i) {
  const Instruction& inst = m_.insts[i];
  const Function* fn = v_.findFunction(inst.operands.at(0));
  if (!fn) return;
  if (inst.resultType != fn->resultType)
    error(i, fmt::format("Result Type is {}; expected {}, the return type of {}", v_.nameOf(inst.resultType),
                         v_.nameOf(fn->resultType), v_.nameOf(fn->id)));
  const size_t args = inst.operands.size() - 1;
  if (args != fn->params.size()) {
    error(i, fmt::format("{} arguments passed to {}, which takes {}", args, v_.nameOf(fn->id), fn->params.size()));
    return;
  }
  for (size_t k = 0; k < args; ++k) {
    const Instruction* arg = v_.defInst(inst.operands[k + 1]);
    const Instruction* param = v_.defInst(fn->params[k]);
    if (arg && param && arg->resultType != param->resultType)
      error(i, fmt::format("argument {} ({}) has type {}; expected {}, the type of parameter {} of {}", k + 1,
                           v_.nameOf(inst.operands[k + 1]), arg->resultType ? v_.nameOf(arg->resultType) : "none",
                           v_.nameOf(param->resultType), k + 1, v_.nameOf(fn->id)));
  }
}

} // namespace detail

ModuleView buildModuleView(const Module& m) {
  ModuleView v(m);
  detail::ViewBuilder b(m, v);
  b.collectDefinitions();
  b.checkUses();
  if (b.hasErrors()) b.throwErrors(); // the layout and CFG checks assume well-formed operands
  b.indexLayout();
  b.checkReferences();
  b.checkControlFlow();
  if (!b.hasErrors()) b.checkDominance(); // needs terminated blocks and valid branch targets
  b.checkCapabilities();
  b.checkExtensions();
  if (b.hasErrors()) b.throwErrors();
  return v;
}

// ---------------------------------------------------------------------------------------------
// ModuleView queries

const Instruction* ModuleView::defInst(Id id) const {
  auto it = def.find(id);
  return it == def.end() ? nullptr : &module.insts[it->second];
}

const Type* ModuleView::findType(Id id) const {
  auto it = types.find(id);
  return it == types.end() ? nullptr : &it->second;
}

const Type& ModuleView::type(Id id) const {
  if (const Type* t = findType(id)) return *t;
  const Instruction* d = defInst(id);
  throw DiagnosticError(d ? module.locOf(*d) : SourceLoc{module.fileName}, d ? grammar::opName(d->opcode) : "type",
                        fmt::format("{} is not a type", nameOf(id)));
}

const Constant* ModuleView::findConstant(Id id) const {
  auto it = constants.find(id);
  return it == constants.end() ? nullptr : &it->second;
}

const Function* ModuleView::findFunction(Id id) const {
  auto it = functionIndex.find(id);
  return it == functionIndex.end() ? nullptr : &functions[it->second];
}

const EntryPoint* ModuleView::findEntryPoint(const std::string& name) const {
  for (const auto& ep : entryPoints)
    if (ep.name == name) return &ep;
  return nullptr;
}

bool ModuleView::hasDecoration(Id id, uint32_t kind) const {
  auto it = decorations.find(id);
  if (it == decorations.end()) return false;
  for (const auto& d : it->second)
    if (d.kind == kind && !d.member) return true;
  return false;
}

bool ModuleView::isByValParam(Id param) const {
  auto it = decorations.find(param);
  if (it == decorations.end()) return false;
  for (const auto& d : it->second)
    if (d.kind == spv::Decoration::FuncParamAttr && !d.member && !d.literals.empty() &&
        d.literals[0] == spv::FunctionParameterAttribute::ByVal)
      return true;
  return false;
}

std::string ModuleView::nameOf(Id id) const {
  if (auto it = names.find(id); it != names.end() && !it->second.empty()) return "%" + it->second;
  if (auto it = module.textNames.find(id); it != module.textNames.end()) return "%" + it->second;
  return fmt::format("%{}", id);
}

} // namespace spvhls::spirv
