// Golden interpreter: decoding SPIR-V functions into DInst arrays with resolved slots. The OpenCL.std
// instructions supported are listed in interp_decode_ext.cpp (and docs/interpreter.md).
#include <fmt/format.h>

#include "frontend/grammar.h"
#include "sim/interp_block2d.h"
#include "sim/interp_program.h"

namespace spvhls::sim::interp {

using spirv::Instruction;
using spirv::Op;
using spirv::Type;
namespace spv = spirv::spv;

namespace {

class FunctionDecoder {
public:
  FunctionDecoder(Program& p, const spirv::Function& f, std::vector<Id>& worklist)
      : p_(p), mv_(p.mv), f_(f), worklist_(worklist) {}

  DFunction run() {
    out_.id = f_.id;
    out_.defInst = f_.defInst;
    assignSlots();
    for (const spirv::Block& b : f_.blocks) decodeBlock(b);
    for (auto& [edge, label] : pendingEdges_) out_.edges[edge].pc = blockPc_.at(label);
    out_.nSlots = out_.nLocals + static_cast<uint32_t>(out_.constInit.size());
    out_.decoded = true;
    return std::move(out_);
  }

private:
  struct Phi {
    uint32_t inst, dst, count;
  };

  Program& p_;
  const spirv::ModuleView& mv_;
  const spirv::Function& f_;
  std::vector<Id>& worklist_;
  DFunction out_;
  std::unordered_map<Id, uint32_t> slot_;    // local values and constants -> first slot
  std::unordered_map<Id, std::vector<Phi>> phis_; // block label -> its OpPhi instructions
  std::unordered_map<Id, uint32_t> blockPc_, blockNumber_;
  std::vector<std::pair<uint32_t, Id>> pendingEdges_; // edge -> target label (pc patched at the end)
  uint32_t cur_ = 0;   // instruction being decoded
  Id curBlock_ = 0;

  [[noreturn]] void fail(const std::string& msg) const { failAt(p_, cur_, msg); }
  const Instruction& inst() const { return mv_.inst(cur_); }
  Id operand(size_t i) const {
    if (i >= inst().operands.size()) fail(fmt::format("missing operand {}", i + 1));
    return inst().operands[i];
  }
  const Type& type(Id t) const { return mv_.type(t); }
  Id typeOfValue(Id v) const {
    const Instruction* d = mv_.defInst(v);
    if (!d || !d->resultType) fail(fmt::format("{} is not a value", mv_.nameOf(v)));
    return d->resultType;
  }
  // Scalar width of a (vector of) bool/int/float/pointer type.
  uint8_t widthOf(Id t) const {
    const Type& ty = type(t);
    const Type& s = ty.kind == Type::Kind::Vector ? type(ty.elem) : ty;
    if (s.kind == Type::Kind::Bool) return 1;
    if (s.kind == Type::Kind::Pointer) return 64;
    if ((s.kind == Type::Kind::Int || s.kind == Type::Kind::Float) && s.width >= 1 && s.width <= 64)
      return static_cast<uint8_t>(s.width);
    fail(fmt::format("expected a scalar or vector of at most 64-bit scalars, found type {}", mv_.nameOf(t)));
  }
  uint32_t componentsOf(Id t) const {
    const Type& ty = type(t);
    return ty.kind == Type::Kind::Vector ? ty.count : 1;
  }
  bool isBoolScalar(Id t) const { return type(t).kind == Type::Kind::Bool; }
  bool isPointer(Id t) const { return type(t).kind == Type::Kind::Pointer; }

  // ---- slots ----

  void assignSlots() {
    auto add = [&](Id id, Id ty, uint32_t where) {
      slot_[id] = out_.nLocals;
      out_.nLocals += slotCount(p_, ty, where);
    };
    for (Id param : f_.params) {
      const uint32_t at = mv_.def.at(param);
      cur_ = at;
      uint32_t first = out_.nLocals;
      add(param, mv_.inst(at).resultType, at);
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

  // The first slot of a value: a local, or a constant / global address placed after the locals.
  uint32_t val(Id id) {
    if (auto it = slot_.find(id); it != slot_.end()) return it->second;
    uint32_t s = out_.nLocals + static_cast<uint32_t>(out_.constInit.size());
    materialize(p_, id, out_.constInit, cur_);
    slot_[id] = s;
    return s;
  }
  uint32_t dst() { return slot_.at(inst().resultId); }
  uint32_t zeroSlot() {
    uint32_t s = out_.nLocals + static_cast<uint32_t>(out_.constInit.size());
    out_.constInit.push_back(0);
    return s;
  }
  // The value of a constant integer operand (sign-extended), for struct member indices and folding.
  std::optional<int64_t> constInt(Id id) const {
    const spirv::Constant* c = mv_.findConstant(id);
    if (!c || c->isUndef) return std::nullopt;
    const Type& t = type(c->type);
    if (t.kind != Type::Kind::Int) return std::nullopt;
    return c->isNull ? 0 : sext(c->bits, t.width);
  }

  uint32_t emit(DInst d) {
    d.src = cur_;
    out_.code.push_back(d);
    return static_cast<uint32_t>(out_.code.size() - 1);
  }
  uint32_t extraPos() const { return static_cast<uint32_t>(out_.extra.size()); }

  // ---- control flow ----

  uint32_t edgeTo(Id label) {
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

  void decodeSwitch() {
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

  void decodeAccessChain(bool hasElement) {
    Id base = operand(0);
    Id ptrType = typeOfValue(base);
    if (!isPointer(ptrType)) fail("the base is not a pointer");
    int64_t constant = 0;
    std::vector<uint32_t> dyn;
    auto index = [&](Id idx, uint64_t stride) {
      if (auto c = constInt(idx)) {
        constant += *c * static_cast<int64_t>(stride);
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
        constant += static_cast<int64_t>(memberOffset(p_, cur, static_cast<uint32_t>(*c), cur_));
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

  void decodeLoad(Id ptr, Id valueType, bool store, Id value) {
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

  void decodeVariable() {
    uint32_t sc = operand(0);
    if (sc != spv::StorageClass::Function)
      fail(fmt::format("function-scope variables must be in Function storage, found {}",
                       spirv::grammar::enumName(spirv::OperandKind::StorageClass, sc)));
    Id pointee = type(inst().resultType).elem;
    const Layout& l = layoutOf(p_, pointee, cur_);
    DInst d{X::Variable};
    d.dst = dst();
    if (l.size > UINT32_MAX) fail("variable larger than 4 GiB");
    d.n = static_cast<uint32_t>(l.size);
    if (inst().operands.size() > 1) {
      p_.images.push_back(imageOf(p_, inst().operands[1], pointee, cur_));
      d.b = static_cast<uint32_t>(p_.images.size());
    }
    emit(d);
  }

  void decodeAtomic(X op) {
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

  // ---- values ----

  void componentWise(X op, Id operandType) {
    DInst d{op};
    d.dst = dst();
    d.a = val(operand(0));
    if (inst().operands.size() > 1) d.b = val(operand(1));
    d.n = componentsOf(operandType);
    d.w = widthOf(operandType);
    emit(d);
  }

  void convert(X op, Id from, Id to) {
    DInst d{op};
    d.dst = dst();
    d.a = val(from);
    d.n = componentsOf(to);
    d.w = widthOf(to);
    d.w2 = widthOf(typeOfValue(from));
    emit(d);
  }

  bool hasDecoration(Id id, uint32_t kind) const {
    if (auto it = mv_.decorations.find(id); it != mv_.decorations.end())
      for (const auto& dec : it->second)
        if (dec.kind == kind) return true;
    return false;
  }
  // Float conversions: OpenCL's _sat conversions carry SaturatedConversion (float -> integer only),
  // explicit rounding modes (convert_float_rtz, convert_int_rte...) FPRoundingMode.
  void decodeFloatConvert(X op) {
    Id result = inst().resultId;
    bool saturate = false;
    uint32_t mode = 0;
    if (auto it = mv_.decorations.find(result); it != mv_.decorations.end())
      for (const auto& dec : it->second) {
        if (dec.kind == spv::Decoration::SaturatedConversion) saturate = true;
        if (dec.kind == spv::Decoration::FPRoundingMode) {
          if (dec.literals.empty() || dec.literals[0] > 3)
            fail(fmt::format("FPRoundingMode {}; expected RTE (0), RTZ (1), RTP (2) or RTN (3)",
                             dec.literals.empty() ? std::string("without a mode") : std::to_string(dec.literals[0])));
          mode = dec.literals[0] + 1;
        }
      }
    if (saturate && op != X::ConvertFToS && op != X::ConvertFToU)
      fail("SaturatedConversion on a conversion to floating point; OpenCL has no _sat conversions to float");
    convert(op, operand(0), inst().resultType);
    out_.code.back().b = saturate;
    out_.code.back().c = mode;
  }
  // Shuffles: data operands of the result type, then a 32-bit integer index/delta/value.
  void decodeSubgroup(X op, size_t operands) {
    Id rt = inst().resultType;
    if (inst().operands.size() != operands) fail(fmt::format("expected {} operands", operands));
    Id idx = operand(operands - 1);
    const Type& it = type(typeOfValue(idx));
    if (it.kind != Type::Kind::Int || it.width != 32) fail("the index/delta/value operand must be a 32-bit integer scalar");
    for (size_t k = 0; k + 1 < operands; ++k)
      if (typeOfValue(operand(k)) != rt) fail(fmt::format("data operand {} must have the result type", k + 1));
    DInst d{op};
    d.dst = dst();
    d.a = val(operand(0));
    d.b = val(operand(1));
    if (operands == 3) d.c = val(operand(2));
    d.n = slotCount(p_, rt, cur_);
    emit(d);
  }
  // Block reads/writes: a pointer to a scalar, and a scalar or vector of that scalar type.
  void decodeBlockIO(bool write) {
    Id ptr = operand(0);
    Id pt = typeOfValue(ptr);
    if (!isPointer(pt)) fail("the Ptr operand is not a pointer");
    Id elem = type(pt).elem;
    Id data = write ? typeOfValue(operand(1)) : inst().resultType;
    Id comp = componentsOf(data) > 1 ? type(data).elem : data;
    const Type& e = type(elem);
    if (e.kind != Type::Kind::Int && e.kind != Type::Kind::Float) fail("Ptr must point to an integer or float scalar");
    if (comp != elem) fail(fmt::format("the data's component type {} differs from the pointee type {}", mv_.nameOf(comp), mv_.nameOf(elem)));
    DInst d{write ? X::SgBlockWrite : X::SgBlockRead};
    if (!write) d.dst = dst();
    d.a = val(ptr);
    if (write) d.b = val(operand(1));
    d.n = componentsOf(data);
    d.w = widthOf(elem);
    d.w2 = static_cast<uint8_t>(layoutOf(p_, elem, cur_).size);
    emit(d);
  }
  void move(uint32_t dstSlot, uint32_t srcSlot, uint32_t n) {
    DInst d{X::Move};
    d.dst = dstSlot;
    d.a = srcSlot;
    d.n = n;
    emit(d);
  }

  void decodeBitcast() {
    Id to = inst().resultType, from = typeOfValue(operand(0));
    bool toPtr = isPointer(to), fromPtr = isPointer(from);
    if (toPtr || fromPtr) {
      if (toPtr && fromPtr) return move(dst(), val(operand(0)), 1);
      return convert(X::UConvert, operand(0), to); // pointer <-> 64-bit integer: the address bits
    }
    if (componentsOf(to) == componentsOf(from) && widthOf(to) == widthOf(from))
      return move(dst(), val(operand(0)), componentsOf(to));
    DInst d{X::Reshape};
    d.dst = dst();
    d.a = val(operand(0));
    d.n = componentsOf(to);
    d.w = widthOf(to);
    d.c = componentsOf(from);
    d.w2 = widthOf(from);
    if (d.n * d.w != d.c * d.w2) fail("bit sizes of the operand and result differ");
    emit(d);
  }

  // Slot offset and count of the part of a composite addressed by literal indices.
  std::pair<uint32_t, Id> compositePart(Id type, size_t firstIndex) {
    uint32_t off = 0;
    for (size_t k = firstIndex; k < inst().operands.size(); ++k) {
      uint32_t idx = inst().operands[k];
      const Type& t = this->type(type);
      if (t.kind == Type::Kind::Struct) {
        if (idx >= t.members.size()) fail(fmt::format("member index {} out of range", idx));
        for (uint32_t m = 0; m < idx; ++m) off += slotCount(p_, t.members[m], cur_);
        type = t.members[idx];
      } else if (t.kind == Type::Kind::Vector || t.kind == Type::Kind::Array) {
        if (idx >= t.count) fail(fmt::format("index {} out of range for {} elements", idx, t.count));
        off += idx * slotCount(p_, t.elem, cur_);
        type = t.elem;
      } else {
        fail(fmt::format("index into non-composite type {}", mv_.nameOf(type)));
      }
    }
    return {off, type};
  }

  void decodeExtInst() {
    Id set = operand(0);
    auto it = mv_.extInstImports.find(set);
    if (it == mv_.extInstImports.end() || it->second != "OpenCL.std")
      fail(fmt::format("extended instruction set {} is not supported", it == mv_.extInstImports.end() ? mv_.nameOf(set) : it->second));
    uint32_t number = operand(1);
    const auto* info = spirv::grammar::findOpenCLStd(number);
    std::string name = info ? info->name : fmt::format("#{}", number);
    Id rt = inst().resultType;
    if (number == spv::OpenCLStd::U_abs) return move(dst(), val(operand(2)), componentsOf(rt)); // |x| of unsigned x is x
    X op;
    bool isFloat = false;
    if (openclStdOp(number, op, isFloat)) {
      Type::Kind want = isFloat ? Type::Kind::Float : Type::Kind::Int;
      if (type(componentsOf(rt) > 1 ? type(rt).elem : rt).kind != want)
        fail(fmt::format("OpenCL.std {} is only supported on {}", name, isFloat ? "floating-point values" : "integers"));
      DInst d{op};
      d.dst = dst();
      size_t nargs = inst().operands.size() - 2;
      d.a = val(operand(2));
      if (nargs > 1) d.b = val(operand(3));
      if (nargs > 2) d.c = val(operand(4));
      d.n = componentsOf(rt);
      d.w = widthOf(rt);
      d.w2 = widthOf(typeOfValue(operand(2)));
      emit(d);
      return;
    }
    fail(fmt::format("unsupported instruction OpExtInst OpenCL.std {}", name));
  }

  // Index of `callee` in p_.functions, queueing it for decoding; `args` arguments are passed to it.
  uint32_t calleeIndex(Id callee, size_t args) {
    const spirv::Function* fn = mv_.findFunction(callee);
    if (!fn) fail(fmt::format("{} is not a function", mv_.nameOf(callee)));
    if (fn->isDeclaration())
      fail(fmt::format("call to {} which has no body (an imported declaration); the interpreter cannot run it",
                       mv_.nameOf(callee)));
    if (fn->params.size() != args)
      fail(fmt::format("{} arguments passed to {} which takes {}", args, mv_.nameOf(callee), fn->params.size()));
    if (auto it = p_.functionIndex.find(callee); it != p_.functionIndex.end()) return it->second;
    uint32_t index = static_cast<uint32_t>(p_.functions.size());
    p_.functionIndex[callee] = index;
    p_.functions.emplace_back();
    worklist_.push_back(callee);
    return index;
  }

  void decodeCall() {
    DInst d{X::Call};
    d.a = calleeIndex(operand(0), inst().operands.size() - 1);
    if (slotCount(p_, inst().resultType, cur_) > 0) d.dst = dst();
    d.b = extraPos();
    d.n = static_cast<uint32_t>(inst().operands.size() - 1);
    std::vector<uint32_t> args;
    for (size_t k = 1; k < inst().operands.size(); ++k) args.push_back(val(inst().operands[k]));
    out_.extra.insert(out_.extra.end(), args.begin(), args.end());
    emit(d);
  }

  // SPV_INTEL_task_sequence. Create: Function, Pipelined, ClusterMode, GetCapacity, AsyncCapacity
  // (the FPGA-only literals do not change results). The others take the sequence first.
  void decodeTaskSequence(X op) {
    DInst d{op};
    if (op == X::TaskCreate) {
      d.dst = dst();
      d.a = calleeIndex(operand(0), mv_.findFunction(operand(0)) ? mv_.findFunction(operand(0))->params.size() : 0);
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

  void decodeBlock(const spirv::Block& b) {
    curBlock_ = b.label;
    blockPc_[b.label] = static_cast<uint32_t>(out_.code.size());
    for (uint32_t i = b.firstInst; i < b.endInst; ++i) {
      cur_ = i;
      decodeInst();
    }
  }

  void decodeInst();
};

void FunctionDecoder::decodeInst() {
  const Instruction& in = inst();
  Id rt = in.resultType;
  switch (in.op()) {
  // Not executed: labels, phis (done on edges), merges and loop controls, debug info, lifetimes.
  case Op::OpLabel: case Op::OpPhi: case Op::OpLoopMerge: case Op::OpSelectionMerge: case Op::OpLoopControlINTEL:
  case Op::OpLine: case Op::OpNoLine: case Op::OpNop: case Op::OpLifetimeStart: case Op::OpLifetimeStop:
  case Op::OpUndef: case Op::OpMemoryBarrier:
    return;

  case Op::OpIAdd: return componentWise(X::IAdd, rt);
  case Op::OpISub: return componentWise(X::ISub, rt);
  case Op::OpIMul: return componentWise(X::IMul, rt);
  case Op::OpUDiv: return componentWise(X::UDiv, rt);
  case Op::OpSDiv: return componentWise(X::SDiv, rt);
  case Op::OpUMod: return componentWise(X::UMod, rt);
  case Op::OpSRem: return componentWise(X::SRem, rt);
  case Op::OpSMod: return componentWise(X::SMod, rt);
  case Op::OpSNegate: return componentWise(X::SNegate, rt);
  case Op::OpNot: return componentWise(X::Not, rt);
  case Op::OpBitwiseAnd: return componentWise(X::And, rt);
  case Op::OpBitwiseOr: return componentWise(X::Or, rt);
  case Op::OpBitwiseXor: return componentWise(X::Xor, rt);
  case Op::OpShiftLeftLogical: return componentWise(X::Shl, rt);
  case Op::OpShiftRightLogical: return componentWise(X::ShrL, rt);
  case Op::OpShiftRightArithmetic: return componentWise(X::ShrA, rt);
  case Op::OpBitCount: return convert(X::BitCount, operand(0), rt);
  case Op::OpBitReverse: return componentWise(X::BitReverse, rt);
  case Op::OpIEqual: return componentWise(X::IEq, typeOfValue(operand(0)));
  case Op::OpINotEqual: return componentWise(X::INe, typeOfValue(operand(0)));
  case Op::OpULessThan: return componentWise(X::ULt, typeOfValue(operand(0)));
  case Op::OpULessThanEqual: return componentWise(X::ULe, typeOfValue(operand(0)));
  case Op::OpUGreaterThan: return componentWise(X::UGt, typeOfValue(operand(0)));
  case Op::OpUGreaterThanEqual: return componentWise(X::UGe, typeOfValue(operand(0)));
  case Op::OpSLessThan: return componentWise(X::SLt, typeOfValue(operand(0)));
  case Op::OpSLessThanEqual: return componentWise(X::SLe, typeOfValue(operand(0)));
  case Op::OpSGreaterThan: return componentWise(X::SGt, typeOfValue(operand(0)));
  case Op::OpSGreaterThanEqual: return componentWise(X::SGe, typeOfValue(operand(0)));
  case Op::OpLogicalAnd: return componentWise(X::LAnd, rt);
  case Op::OpLogicalOr: return componentWise(X::LOr, rt);
  case Op::OpLogicalNot: return componentWise(X::LNot, rt);
  case Op::OpLogicalEqual: return componentWise(X::LEq, rt);
  case Op::OpLogicalNotEqual: return componentWise(X::LNe, rt);
  case Op::OpAny: return componentWise(X::Any, typeOfValue(operand(0)));
  case Op::OpAll: return componentWise(X::All, typeOfValue(operand(0)));
  case Op::OpUConvert:
  case Op::OpSConvert: {
    bool sat = hasDecoration(in.resultId, spv::Decoration::SaturatedConversion); // convert_<T>_sat
    bool u = in.op() == Op::OpUConvert;
    return convert(sat ? (u ? X::UConvertSat : X::SConvertSat) : (u ? X::UConvert : X::SConvert), operand(0), rt);
  }
  case Op::OpSatConvertSToU: return convert(X::SatSToU, operand(0), rt);
  case Op::OpSatConvertUToS: return convert(X::SatUToS, operand(0), rt);
  case Op::OpConvertPtrToU: return convert(X::UConvert, operand(0), rt);
  case Op::OpConvertUToPtr: return convert(X::UConvert, operand(0), rt);
  case Op::OpBitcast: return decodeBitcast();
  case Op::OpCopyObject:
  case Op::OpPtrCastToGeneric: return move(dst(), val(operand(0)), slotCount(p_, rt, cur_));
  case Op::OpGenericCastToPtr:
  case Op::OpGenericCastToPtrExplicit: {
    DInst d{X::GenericToPtr};
    d.dst = dst();
    d.a = val(operand(0));
    d.b = in.op() == Op::OpGenericCastToPtrExplicit;
    d.c = type(rt).storageClass;
    emit(d);
    return;
  }
  case Op::OpSelect: {
    Id condType = typeOfValue(operand(0));
    DInst d{isBoolScalar(condType) ? X::SelectScalar : X::SelectVector};
    d.dst = dst();
    d.a = val(operand(0));
    d.b = val(operand(1));
    d.c = val(operand(2));
    d.n = isBoolScalar(condType) ? slotCount(p_, rt, cur_) : componentsOf(condType);
    emit(d);
    return;
  }
  case Op::OpCompositeExtract: {
    auto [off, part] = compositePart(typeOfValue(operand(0)), 1);
    return move(dst(), val(operand(0)) + off, slotCount(p_, part, cur_));
  }
  case Op::OpCompositeInsert: {
    auto [off, part] = compositePart(rt, 2);
    DInst d{X::Insert};
    d.dst = dst();
    d.a = val(operand(1));
    d.c = val(operand(0));
    d.n = slotCount(p_, rt, cur_);
    d.b = extraPos();
    out_.extra.push_back(slotCount(p_, part, cur_));
    out_.extra.push_back(off);
    emit(d);
    return;
  }
  case Op::OpCompositeConstruct: {
    std::vector<uint32_t> parts;
    for (Id c : in.operands) {
      parts.push_back(val(c));
      parts.push_back(slotCount(p_, typeOfValue(c), cur_));
    }
    DInst d{X::Construct};
    d.dst = dst();
    d.b = extraPos();
    d.n = static_cast<uint32_t>(in.operands.size());
    out_.extra.insert(out_.extra.end(), parts.begin(), parts.end());
    emit(d);
    return;
  }
  case Op::OpVectorShuffle: {
    uint32_t n1 = componentsOf(typeOfValue(operand(0)));
    uint32_t a = val(operand(0)), b = val(operand(1));
    std::vector<uint32_t> src;
    for (size_t k = 2; k < in.operands.size(); ++k) {
      uint32_t c = in.operands[k];
      src.push_back(c == 0xffffffffu ? zeroSlot() : c < n1 ? a + c : b + (c - n1));
    }
    DInst d{X::Gather};
    d.dst = dst();
    d.b = extraPos();
    d.n = static_cast<uint32_t>(src.size());
    out_.extra.insert(out_.extra.end(), src.begin(), src.end());
    emit(d);
    return;
  }
  case Op::OpVectorExtractDynamic:
  case Op::OpVectorInsertDynamic: {
    bool insert = in.op() == Op::OpVectorInsertDynamic;
    DInst d{insert ? X::InsertDyn : X::ExtractDyn};
    d.dst = dst();
    d.a = val(operand(0));
    d.b = val(operand(1));
    if (insert) d.c = val(operand(2));
    d.n = componentsOf(typeOfValue(operand(0)));
    emit(d);
    return;
  }
  case Op::OpFAdd: return componentWise(X::FAdd, rt);
  case Op::OpFSub: return componentWise(X::FSub, rt);
  case Op::OpFMul: return componentWise(X::FMul, rt);
  case Op::OpFDiv: return componentWise(X::FDiv, rt);
  case Op::OpFRem: return componentWise(X::FRem, rt);
  case Op::OpFMod: return componentWise(X::FMod, rt);
  case Op::OpFNegate: return componentWise(X::FNegate, rt);
  case Op::OpFOrdEqual: return componentWise(X::FOrdEq, typeOfValue(operand(0)));
  case Op::OpFOrdNotEqual: return componentWise(X::FOrdNe, typeOfValue(operand(0)));
  case Op::OpFOrdLessThan: return componentWise(X::FOrdLt, typeOfValue(operand(0)));
  case Op::OpFOrdGreaterThan: return componentWise(X::FOrdGt, typeOfValue(operand(0)));
  case Op::OpFOrdLessThanEqual: return componentWise(X::FOrdLe, typeOfValue(operand(0)));
  case Op::OpFOrdGreaterThanEqual: return componentWise(X::FOrdGe, typeOfValue(operand(0)));
  case Op::OpFUnordEqual: return componentWise(X::FUnordEq, typeOfValue(operand(0)));
  case Op::OpFUnordNotEqual: return componentWise(X::FUnordNe, typeOfValue(operand(0)));
  case Op::OpFUnordLessThan: return componentWise(X::FUnordLt, typeOfValue(operand(0)));
  case Op::OpFUnordGreaterThan: return componentWise(X::FUnordGt, typeOfValue(operand(0)));
  case Op::OpFUnordLessThanEqual: return componentWise(X::FUnordLe, typeOfValue(operand(0)));
  case Op::OpFUnordGreaterThanEqual: return componentWise(X::FUnordGe, typeOfValue(operand(0)));
  case Op::OpOrdered: return componentWise(X::Ordered, typeOfValue(operand(0)));
  case Op::OpUnordered: return componentWise(X::Unordered, typeOfValue(operand(0)));
  case Op::OpIsNan: return componentWise(X::IsNan, typeOfValue(operand(0)));
  case Op::OpIsInf: return componentWise(X::IsInf, typeOfValue(operand(0)));
  case Op::OpIsFinite: return componentWise(X::IsFinite, typeOfValue(operand(0)));
  case Op::OpIsNormal: return componentWise(X::IsNormal, typeOfValue(operand(0)));
  case Op::OpSignBitSet: return componentWise(X::SignBitSet, typeOfValue(operand(0)));
  case Op::OpConvertFToS: return decodeFloatConvert(X::ConvertFToS);
  case Op::OpConvertFToU: return decodeFloatConvert(X::ConvertFToU);
  case Op::OpConvertSToF: return decodeFloatConvert(X::ConvertSToF);
  case Op::OpConvertUToF: return decodeFloatConvert(X::ConvertUToF);
  case Op::OpFConvert: return decodeFloatConvert(X::FConvert);
  case Op::OpExtInst: return decodeExtInst();

  case Op::OpVariable: return decodeVariable();
  case Op::OpLoad: return decodeLoad(operand(0), rt, false, 0);
  case Op::OpStore: return decodeLoad(operand(0), typeOfValue(operand(1)), true, operand(1));
  case Op::OpCopyMemory:
  case Op::OpCopyMemorySized: {
    DInst d{X::CopyMemory};
    d.a = val(operand(0));
    d.b = val(operand(1));
    if (in.op() == Op::OpCopyMemory) {
      d.n = static_cast<uint32_t>(layoutOf(p_, type(typeOfValue(operand(0))).elem, cur_).size);
    } else if (auto c = constInt(operand(2))) {
      if (*c < 0 || *c > UINT32_MAX) fail(fmt::format("size {} is out of range", *c));
      d.n = static_cast<uint32_t>(*c);
    } else {
      d.c = val(operand(2)) + 1;
      d.w2 = widthOf(typeOfValue(operand(2)));
    }
    emit(d);
    return;
  }
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain: return decodeAccessChain(false);
  case Op::OpPtrAccessChain:
  case Op::OpInBoundsPtrAccessChain: return decodeAccessChain(true);
  case Op::OpAtomicLoad: return decodeAtomic(X::AtomicLoad);
  case Op::OpAtomicStore: return decodeAtomic(X::AtomicStore);
  case Op::OpAtomicExchange: return decodeAtomic(X::AtomicExchange);
  case Op::OpAtomicCompareExchange: return decodeAtomic(X::AtomicCmpXchg);
  case Op::OpAtomicIIncrement: return decodeAtomic(X::AtomicIInc);
  case Op::OpAtomicIDecrement: return decodeAtomic(X::AtomicIDec);
  case Op::OpAtomicIAdd: return decodeAtomic(X::AtomicIAdd);
  case Op::OpAtomicISub: return decodeAtomic(X::AtomicISub);
  case Op::OpAtomicSMin: return decodeAtomic(X::AtomicSMin);
  case Op::OpAtomicUMin: return decodeAtomic(X::AtomicUMin);
  case Op::OpAtomicSMax: return decodeAtomic(X::AtomicSMax);
  case Op::OpAtomicUMax: return decodeAtomic(X::AtomicUMax);
  case Op::OpAtomicAnd: return decodeAtomic(X::AtomicAnd);
  case Op::OpAtomicOr: return decodeAtomic(X::AtomicOr);
  case Op::OpAtomicXor: return decodeAtomic(X::AtomicXor);

  case Op::OpBranch: {
    DInst d{X::Branch};
    d.a = edgeTo(operand(0));
    emit(d);
    return;
  }
  case Op::OpBranchConditional: {
    DInst d{X::BranchCond};
    d.a = val(operand(0));
    d.b = edgeTo(operand(1));
    d.c = edgeTo(operand(2));
    emit(d);
    return;
  }
  case Op::OpSwitch: return decodeSwitch();
  case Op::OpReturn: emit(DInst{X::Return}); return;
  case Op::OpReturnValue: {
    DInst d{X::ReturnValue};
    d.a = val(operand(0));
    d.n = slotCount(p_, typeOfValue(operand(0)), cur_);
    emit(d);
    return;
  }
  case Op::OpFunctionCall: return decodeCall();
  case Op::OpControlBarrier: emit(DInst{X::Barrier}); return;
  case Op::OpTaskSequenceCreateINTEL: return decodeTaskSequence(X::TaskCreate);
  case Op::OpTaskSequenceAsyncINTEL: return decodeTaskSequence(X::TaskAsync);
  case Op::OpTaskSequenceGetINTEL: return decodeTaskSequence(X::TaskGet);
  case Op::OpTaskSequenceReleaseINTEL: return decodeTaskSequence(X::TaskRelease);
  case Op::OpSubgroupShuffleINTEL: return decodeSubgroup(X::SgShuffle, 2);
  case Op::OpSubgroupShuffleDownINTEL: return decodeSubgroup(X::SgShuffleDown, 3);
  case Op::OpSubgroupShuffleUpINTEL: return decodeSubgroup(X::SgShuffleUp, 3);
  case Op::OpSubgroupShuffleXorINTEL: return decodeSubgroup(X::SgShuffleXor, 2);
  case Op::OpSubgroupBlockReadINTEL: return decodeBlockIO(false);
  case Op::OpSubgroupBlockWriteINTEL: return decodeBlockIO(true);
  case Op::OpUnreachable: emit(DInst{X::Unreachable}); return;
  default: break;
  }
  if (auto d = decodeBlock2D(p_, cur_, out_.extra, [this](Id v) { return val(v); })) return (void)emit(*d);
  fail(fmt::format("unsupported instruction {}", spirv::grammar::opName(in.opcode)));
}

} // namespace

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
