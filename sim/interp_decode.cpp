// Golden interpreter: decoding SPIR-V functions into DInst arrays with resolved slots. This file holds
// FunctionDecoder's slots, control flow, memory and calls, and decodeFunction(); its values and the
// per-instruction dispatch are in interp_decode_values.cpp. The OpenCL.std instructions supported are
// listed in interp_decode_ext.cpp (and docs/interpreter.md).
#include <fmt/format.h>

#include "frontend/grammar.h"
#include "sim/interp_decoder.h"

namespace spvhls::sim::interp {

DFunction FunctionDecoder::run() {
  out_.id = f_.id;
  out_.defInst = f_.defInst;
  assignSlots();
  for (const spirv::Block& b : f_.blocks) decodeBlock(b);
  for (auto& [edge, label] : pendingEdges_) out_.edges[edge].pc = blockPc_.at(label);
  out_.nSlots = out_.nLocals + static_cast<uint32_t>(out_.constInit.size());
  out_.decoded = true;
  return std::move(out_);
}

uint8_t FunctionDecoder::widthOf(Id t) const {
  const Type& ty = type(t);
  const Type& s = ty.kind == Type::Kind::Vector ? type(ty.elem) : ty;
  if (s.kind == Type::Kind::Bool) return 1;
  if (s.kind == Type::Kind::Pointer) return 64;
  if ((s.kind == Type::Kind::Int || s.kind == Type::Kind::Float) && s.width >= 1 && s.width <= 64)
    return static_cast<uint8_t>(s.width);
  fail(fmt::format("expected a scalar or vector of at most 64-bit scalars, found type {}", mv_.nameOf(t)));
}

// ---- slots ----

void FunctionDecoder::assignSlots() {
  auto add = [&](Id id, Id ty, uint32_t where) {
    slot_[id] = out_.nLocals;
    out_.nLocals += slotCount(p_, ty, where);
  };
  for (Id param : f_.params) {
    const uint32_t at = mv_.def.at(param);
    cur_ = at;
    uint32_t first = out_.nLocals;
    const Id type = mv_.inst(at).resultType;
    add(param, type, at);
    if (mv_.isByValParam(param)) {
      if (!isPointer(type)) fail("a FuncParamAttr ByVal parameter must be a pointer");
      out_.byVal.push_back({static_cast<uint32_t>(out_.params.size()), param, objectSize(p_, this->type(type).elem, at)});
    }
    out_.params.emplace_back(first, out_.nLocals - first);
  }
  for (const spirv::Block& b : f_.blocks) {
    blockNumber_[b.label] = static_cast<uint32_t>(p_.blockLabels.size());
    p_.blockLabels.push_back(b.label);
    for (uint32_t i = b.firstInst; i < b.endInst; ++i) {
      const Instruction& in = mv_.inst(i);
      cur_ = i;
      if (!in.resultId || !in.resultType || in.op() == Op::OpUndef) continue;
      add(in.resultId, in.resultType, i);
      if (in.op() == Op::OpPhi) phis_[b.label].push_back({i, slot_[in.resultId], slotCount(p_, in.resultType, i)});
    }
  }
  out_.entryBlock = blockNumber_.at(f_.blocks.at(0).label);
}

uint32_t FunctionDecoder::val(Id id) {
  if (auto it = slot_.find(id); it != slot_.end()) return it->second;
  uint32_t s = out_.nLocals + static_cast<uint32_t>(out_.constInit.size());
  materialize(p_, id, out_.constInit, cur_);
  slot_[id] = s;
  return s;
}

std::optional<int64_t> FunctionDecoder::constInt(Id id) const {
  const spirv::Constant* c = mv_.findConstant(id);
  if (!c || c->isUndef || c->expr) return std::nullopt;
  const Type& t = type(c->type);
  if (t.kind != Type::Kind::Int) return std::nullopt;
  return c->isNull ? 0 : sext(c->bits, t.width);
}

// ---- control flow ----

uint32_t FunctionDecoder::edgeTo(Id label) {
  if (!blockNumber_.count(label)) fail(fmt::format("branch target {} is not a block of this function", mv_.nameOf(label)));
  Edge e;
  e.block = blockNumber_.at(label);
  e.id = static_cast<uint32_t>(p_.edgeLabels.size());
  p_.edgeLabels.emplace_back(curBlock_, label);
  e.moveBegin = static_cast<uint32_t>(out_.moves.size());
  uint32_t saved = cur_;
  for (const Phi& phi : phis_[label]) {
    cur_ = phi.inst;
    const auto& ops = mv_.inst(phi.inst).operands;
    bool found = false;
    for (size_t k = 0; k + 1 < ops.size(); k += 2) {
      if (ops[k + 1] != curBlock_) continue;
      uint32_t src = val(ops[k]);
      for (uint32_t s = 0; s < phi.count; ++s) out_.moves.emplace_back(phi.dst + s, src + s);
      found = true;
      break;
    }
    if (!found) fail(fmt::format("no incoming value for predecessor {}", mv_.nameOf(curBlock_)));
    ++e.phiCount;
  }
  cur_ = saved;
  e.moveCount = static_cast<uint32_t>(out_.moves.size()) - e.moveBegin;
  out_.edges.push_back(e);
  pendingEdges_.emplace_back(static_cast<uint32_t>(out_.edges.size() - 1), label);
  return static_cast<uint32_t>(out_.edges.size() - 1);
}

void FunctionDecoder::decodeSwitch() {
  Id sel = operand(0);
  uint8_t w = widthOf(typeOfValue(sel));
  size_t litWords = w > 32 ? 2 : 1;
  DInst d{X::Switch};
  d.a = val(sel);
  d.w = w;
  d.c = edgeTo(operand(1));
  std::vector<uint32_t> cases;
  const auto& ops = inst().operands;
  if ((ops.size() - 2) % (litWords + 1) != 0) fail("malformed (literal, label) pairs");
  for (size_t k = 2; k + litWords < ops.size(); k += litWords + 1) {
    uint64_t lit = ops[k] | (litWords == 2 ? uint64_t(ops[k + 1]) << 32 : 0);
    lit &= widthMask(w);
    cases.push_back(static_cast<uint32_t>(lit));
    cases.push_back(static_cast<uint32_t>(lit >> 32));
    cases.push_back(edgeTo(ops[k + litWords]));
  }
  d.b = extraPos();
  d.n = static_cast<uint32_t>(cases.size() / 3);
  out_.extra.insert(out_.extra.end(), cases.begin(), cases.end());
  emit(d);
}

// ---- memory ----

void FunctionDecoder::decodeAccessChain(bool hasElement) {
  Id base = operand(0);
  Id ptrType = typeOfValue(base);
  if (!isPointer(ptrType)) fail("the base is not a pointer");
  int64_t constant = 0;
  std::vector<uint32_t> dyn;
  auto index = [&](Id idx, uint64_t stride) {
    if (auto c = constInt(idx)) {
      // Address arithmetic wraps (as pointers do); a wild offset fails at the access, not here.
      constant = static_cast<int64_t>(static_cast<uint64_t>(constant) + static_cast<uint64_t>(*c) * stride);
      return;
    }
    dyn.push_back(val(idx));
    dyn.push_back(static_cast<uint32_t>(stride));
    dyn.push_back(widthOf(typeOfValue(idx)));
    if (stride > UINT32_MAX) fail("element stride exceeds 4 GiB");
  };
  size_t first = 1;
  if (hasElement) {
    index(operand(1), strideOf(p_, ptrType, cur_));
    first = 2;
  }
  Id cur = type(ptrType).elem;
  for (size_t k = first; k < inst().operands.size(); ++k) {
    Id idx = inst().operands[k];
    const Type& t = type(cur);
    if (t.kind == Type::Kind::Struct) {
      auto c = constInt(idx);
      if (!c || *c < 0) fail(fmt::format("struct member index {} must be a non-negative constant", mv_.nameOf(idx)));
      constant = static_cast<int64_t>(static_cast<uint64_t>(constant) + memberOffset(p_, cur, static_cast<uint32_t>(*c), cur_));
      cur = t.members[*c];
    } else if (t.kind == Type::Kind::Array || t.kind == Type::Kind::RuntimeArray || t.kind == Type::Kind::Vector) {
      index(idx, strideOf(p_, cur, cur_));
      cur = t.elem;
    } else {
      fail(fmt::format("index {} applied to non-composite type {}", k - first + 1, mv_.nameOf(cur)));
    }
  }
  DInst d{X::AccessChain};
  d.dst = dst();
  d.a = val(base);
  d.b = extraPos();
  d.n = static_cast<uint32_t>(dyn.size() / 3);
  out_.extra.push_back(static_cast<uint32_t>(static_cast<uint64_t>(constant)));
  out_.extra.push_back(static_cast<uint32_t>(static_cast<uint64_t>(constant) >> 32));
  out_.extra.insert(out_.extra.end(), dyn.begin(), dyn.end());
  emit(d);
}

void FunctionDecoder::decodeLoad(Id ptr, Id valueType, bool store, Id value) {
  if (!isPointer(typeOfValue(ptr))) fail("expected a pointer operand");
  uint32_t li = layoutIndexOf(p_, valueType, cur_);
  const Layout& l = p_.layouts[li];
  DInst d{store ? X::Store : X::Load};
  d.a = val(ptr);
  if (store) d.b = val(value); else d.dst = dst();
  if (l.leaves.size() == 1 && l.leaves[0].offset == 0) {
    d.op = store ? X::StoreScalar : X::LoadScalar;
    d.n = l.leaves[0].bytes;
    d.w = l.leaves[0].width;
  } else if (store) {
    d.c = li;
  } else {
    d.b = li;
  }
  emit(d);
}

void FunctionDecoder::decodeVariable() {
  uint32_t sc = operand(0);
  if (sc != spv::StorageClass::Function)
    fail(fmt::format("function-scope variables must be in Function storage, found {}",
                     spirv::grammar::enumName(spirv::OperandKind::StorageClass, sc)));
  Id pointee = type(inst().resultType).elem;
  uint64_t size = objectSize(p_, pointee, cur_); // its layout is built where it is loaded or stored
  DInst d{X::Variable};
  d.dst = dst();
  if (size > UINT32_MAX) fail("variable larger than 4 GiB");
  d.n = static_cast<uint32_t>(size);
  if (inst().operands.size() > 1) {
    p_.images.push_back(imageOf(p_, inst().operands[1], pointee, cur_));
    d.b = static_cast<uint32_t>(p_.images.size());
  }
  emit(d);
}

void FunctionDecoder::decodeAtomic(X op) {
  Op o = inst().op();
  Id ptr = operand(0);
  Id valueType = o == Op::OpAtomicStore ? typeOfValue(operand(3)) : inst().resultType;
  const Type& t = type(valueType);
  if (t.kind != Type::Kind::Int) fail("only integer atomics are supported by the interpreter");
  DInst d{op};
  d.a = val(ptr);
  d.w = widthOf(valueType);
  d.n = static_cast<uint32_t>(layoutOf(p_, valueType, cur_).size);
  if (o != Op::OpAtomicStore) d.dst = dst();
  if (o == Op::OpAtomicStore) d.b = val(operand(3));
  else if (o == Op::OpAtomicCompareExchange) d.b = val(operand(4)), d.c = val(operand(5));
  else if (o != Op::OpAtomicLoad && o != Op::OpAtomicIIncrement && o != Op::OpAtomicIDecrement) d.b = val(operand(3));
  emit(d);
}

// ---- calls ----

uint32_t FunctionDecoder::calleeIndex(Id callee) {
  const spirv::Function* fn = mv_.findFunction(callee);
  if (!fn) fail(fmt::format("{} is not a function", mv_.nameOf(callee)));
  if (fn->isDeclaration())
    fail(fmt::format("call to {} which has no body (an imported declaration); the interpreter cannot run it",
                     mv_.nameOf(callee)));
  if (auto it = p_.functionIndex.find(callee); it != p_.functionIndex.end()) return it->second;
  uint32_t index = static_cast<uint32_t>(p_.functions.size());
  p_.functionIndex[callee] = index;
  p_.functions.emplace_back();
  worklist_.push_back(callee);
  return index;
}

void FunctionDecoder::decodeCall() {
  DInst d{X::Call};
  d.a = calleeIndex(operand(0)); // the module view has checked the arguments against the parameters
  if (slotCount(p_, inst().resultType, cur_) > 0) d.dst = dst();
  d.b = extraPos();
  d.n = static_cast<uint32_t>(inst().operands.size() - 1);
  std::vector<uint32_t> args;
  for (size_t k = 1; k < inst().operands.size(); ++k) args.push_back(val(inst().operands[k]));
  out_.extra.insert(out_.extra.end(), args.begin(), args.end());
  emit(d);
}

void FunctionDecoder::decodeTaskSequence(X op) {
  DInst d{op};
  if (op == X::TaskCreate) {
    d.dst = dst();
    d.a = calleeIndex(operand(0)); // the arguments are checked at each async
    d.b = operand(3);
    d.c = operand(4);
    emit(d);
    return;
  }
  d.a = val(operand(0));
  if (op == X::TaskGet) {
    d.n = slotCount(p_, inst().resultType, cur_);
    if (d.n > 0) d.dst = dst();
  } else if (op == X::TaskAsync) {
    d.b = extraPos();
    d.n = static_cast<uint32_t>(inst().operands.size() - 1);
    for (size_t k = 1; k < inst().operands.size(); ++k) {
      Id arg = inst().operands[k];
      out_.extra.push_back(val(arg));
      out_.extra.push_back(slotCount(p_, typeOfValue(arg), cur_));
    }
  }
  emit(d);
}

// ---- blocks ----

void FunctionDecoder::decodeBlock(const spirv::Block& b) {
  curBlock_ = b.label;
  blockPc_[b.label] = static_cast<uint32_t>(out_.code.size());
  for (uint32_t i = b.firstInst; i < b.endInst; ++i) {
    cur_ = i;
    decodeInst();
  }
}

uint32_t decodeFunction(Program& p, Id fn) {
  std::vector<Id> worklist;
  uint32_t index;
  if (auto it = p.functionIndex.find(fn); it != p.functionIndex.end()) {
    index = it->second;
  } else {
    index = static_cast<uint32_t>(p.functions.size());
    p.functionIndex[fn] = index;
    p.functions.emplace_back();
    worklist.push_back(fn);
  }
  while (!worklist.empty()) {
    Id id = worklist.back();
    worklist.pop_back();
    const spirv::Function* f = p.mv.findFunction(id);
    uint32_t i = p.functionIndex.at(id);
    if (p.functions[i].decoded) continue;
    DFunction d = FunctionDecoder(p, *f, worklist).run(); // may append to p.functions
    p.functions[i] = std::move(d);
  }
  return index;
}

} // namespace spvhls::sim::interp
