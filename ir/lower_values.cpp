// Translation of instructions: values, pointer arithmetic (byte offsets), memory accesses and the
// OpenCL.std integer built-ins.
#include <bit>

#include <fmt/format.h>

#include "frontend/grammar.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

using K = spirv::Type::Kind;
namespace ocl = spirv::spv::OpenCLStd;
namespace deco = spirv::spv::Decoration;

namespace {

std::optional<OpKind> binaryKind(SpvOp op) {
  switch (op) {
  case SpvOp::OpIAdd: return OpKind::Add;
  case SpvOp::OpISub: return OpKind::Sub;
  case SpvOp::OpIMul: return OpKind::Mul;
  case SpvOp::OpUDiv: return OpKind::UDiv;
  case SpvOp::OpSDiv: return OpKind::SDiv;
  case SpvOp::OpUMod: return OpKind::URem; // unsigned modulo is the remainder
  case SpvOp::OpSRem: return OpKind::SRem;
  case SpvOp::OpSMod: return OpKind::SMod;
  case SpvOp::OpBitwiseAnd: case SpvOp::OpLogicalAnd: return OpKind::And;
  case SpvOp::OpBitwiseOr: case SpvOp::OpLogicalOr: return OpKind::Or;
  case SpvOp::OpBitwiseXor: return OpKind::Xor;
  case SpvOp::OpShiftLeftLogical: return OpKind::Shl;
  case SpvOp::OpShiftRightLogical: return OpKind::LShr;
  case SpvOp::OpShiftRightArithmetic: return OpKind::AShr;
  case SpvOp::OpIEqual: case SpvOp::OpLogicalEqual: return OpKind::Eq;
  case SpvOp::OpINotEqual: case SpvOp::OpLogicalNotEqual: return OpKind::Ne;
  case SpvOp::OpULessThan: return OpKind::ULt;
  case SpvOp::OpULessThanEqual: return OpKind::ULe;
  case SpvOp::OpUGreaterThan: return OpKind::UGt;
  case SpvOp::OpUGreaterThanEqual: return OpKind::UGe;
  case SpvOp::OpSLessThan: return OpKind::SLt;
  case SpvOp::OpSLessThanEqual: return OpKind::SLe;
  case SpvOp::OpSGreaterThan: return OpKind::SGt;
  case SpvOp::OpSGreaterThanEqual: return OpKind::SGe;
  case SpvOp::OpFAdd:
    return OpKind::FAdd;
  case SpvOp::OpFSub:
    return OpKind::FSub;
  case SpvOp::OpFMul:
    return OpKind::FMul;
  case SpvOp::OpFDiv:
    return OpKind::FDiv;
  default: return std::nullopt;
  }
}

std::optional<OpKind> unaryKind(SpvOp op) {
  switch (op) {
  case SpvOp::OpSNegate: return OpKind::Neg;
  case SpvOp::OpNot: case SpvOp::OpLogicalNot: return OpKind::Not;
  default: return std::nullopt;
  }
}

bool isShift(OpKind k) { return k == OpKind::Shl || k == OpKind::LShr || k == OpKind::AShr; }

} // namespace

uint32_t Translator::widthOf(Id type, const LInst& at) const {
  const spirv::Type& t = c_.type(type);
  if (t.kind == K::Bool) return 1;
  if ((t.kind == K::Int || t.kind == K::Float) && t.width >= 1 && t.width <= 64)
    return t.width;
  if (t.kind == K::Struct) {
    const auto fields = structLayout(type, at);
    return fields.back().first + fields.back().second;
  }
  if (t.kind == K::Pointer)
    c_.failAt(at, fmt::format("uses a pointer ({}) as data; converting, comparing or storing pointers is "
                              "not supported", c_.typeName(type)));
  if (t.kind == K::TaskSequence)
    c_.failAt(at, "a task sequence chosen at run time (a phi or select of sequences, or one kept in memory) is "
                  "not supported in hardware yet; each async, get and release must name one "
                  "OpTaskSequenceCreateINTEL");
  c_.failAt(at, fmt::format("values of type {} are not supported yet; expected an integer or bool scalar",
                            c_.typeName(type)));
}

ValueId Translator::valueOf(Id id, const LInst& at) {
  if (auto it = vals_.find(id); it != vals_.end()) return it->second;
  if (auto a = argOf_.find(id); a != argOf_.end()) {
    const KernelArg& arg = k_.args[a->second];
    if (arg.isPointer)
      c_.failAt(at, fmt::format("uses pointer argument {} as data; converting, comparing or storing "
                                "pointers is not supported", arg.name));
    if (auto v = argVals_.find(id); v != argVals_.end()) return v->second;
    Op op;
    op.kind = OpKind::Arg;
    op.type = arg.type;
    op.index = a->second;
    op.name = arg.name;
    op.spirvId = c_.origin(id);
    uint32_t saved = b_.block;
    b_.block = 0;
    ValueId v = b_.emit(std::move(op));
    b_.block = saved;
    return argVals_[id] = v;
  }
  if (c_.isSynthesizedUndef(id)) {
    if (auto u = undefVals_.find(id); u != undefVals_.end()) return u->second;
    return undefVals_[id] = b_.undef(widthOf(c_.typeOf(id), at));
  }
  if (const spirv::Constant* k = c_.mv.findConstant(id)) {
    if (k->expr)
      c_.failAt(at, fmt::format("uses {}, the address of a variable as a number ({} of a constant address); "
                                "converting pointers to integers is not supported in hardware",
                                c_.ref(id), spirv::grammar::opName(static_cast<uint16_t>(k->expr->op))));
    const uint32_t w = widthOf(k->type, at);
    if (k->isUndef) {
      if (auto u = undefVals_.find(id); u != undefVals_.end()) return u->second;
      return undefVals_[id] = b_.undef(w);
    }
    if (c_.type(k->type).kind == K::Struct && !k->isNull) return structConstant(*k, at);
    return b_.constant(w, k->isNull ? 0 : k->bits);
  }
  if (c_.isPointerValue(id))
    c_.failAt(at, fmt::format("uses pointer {} as data; converting, comparing or storing pointers is not "
                              "supported", c_.ref(id)));
  if (auto u = c_.mv.unevaluatedConstants.find(id); u != c_.mv.unevaluatedConstants.end())
    c_.failAt(at, fmt::format("uses {}: {}", c_.ref(id), u->second));
  if (c_.mv.types.count(id) || c_.mv.functionIndex.count(id) || c_.mv.extInstImports.count(id))
    c_.failAt(at, fmt::format("uses {} as a value; it is a type, function or instruction set", c_.ref(id)));
  throw InternalError(c_.locOf(at.src), c_.describe(at), fmt::format("value {} used before its definition", c_.ref(id)));
}

ValueId Translator::operandOf(Id id, uint32_t width, const LInst& at) {
  const ValueId v = valueOf(id, at);
  if (b_.width(v) != width)
    c_.failAt(at, fmt::format("operand {} has {} bits; expected {} (as the result type or the other operand)",
                              c_.ref(id), b_.width(v), width));
  return v;
}

Translator::Ptr Translator::ptrOf(Id id, const LInst& at) {
  if (auto it = ptrs_.find(id); it != ptrs_.end()) return it->second;
  if (const spirv::Constant* k = c_.mv.findConstant(id); k && k->expr) return constantAddress(id, *k->expr, at);
  const int m = memoryOf(id, at);
  if (isNullOnly(m)) return Ptr{kNull, b_.constant(64, 0), -1};
  if (m < 0)
    c_.failAt(at, fmt::format("pointer {} does not point into a known buffer (it is undefined or null)",
                              c_.ref(id)));
  if (argOf_.count(id) || varMemory_.count(id)) // arguments and module-scope variables
    return ptrs_[id] = pointerIn(m, b_.constant(64, 0));
  throw InternalError(c_.locOf(at.src), c_.describe(at), fmt::format("pointer {} used before its definition", c_.ref(id)));
}

uint32_t Translator::accessSize(Id type, const LInst& at) const {
  const spirv::Type& t = c_.type(type);
  if (t.kind == K::Int || t.kind == K::Float) {
    if (t.width == 8 || t.width == 16 || t.width == 32 || t.width == 64) return t.width / 8;
    c_.failAt(at, fmt::format("{}-bit memory accesses are not supported; expected 8, 16, 32 or 64 bits",
                              t.width));
  }
  if (t.kind == K::Pointer) return 8; // its byte offset (cellTarget_ knows the memory)
  c_.failAt(at, fmt::format("accesses a whole {} value; only integer scalars are supported yet (access "
                            "the elements one by one)", c_.typeName(type)));
}

ValueId Translator::emitLoad(const Ptr& p, uint32_t size, const LInst& at) {
  if (p.set >= 0) {
    std::vector<ValueId> loaded;
    std::vector<uint32_t> from = dispatch(p, [&](const Ptr& q) { loaded.push_back(emitLoad(q, size, at)); });
    if (loaded.size() == 1) return loaded[0]; // one memory (or null): no join
    Op phi;
    phi.kind = OpKind::Phi;
    phi.type = Type::bits(8 * size);
    phi.operands = std::move(loaded);
    phi.phiBlocks = std::move(from);
    return b_.emit(std::move(phi));
  }
  if (p.memory == kNull) return b_.undef(8 * size); // undefined behaviour, if it ever runs
  Op op;
  op.kind = OpKind::Load;
  op.type = Type::bits(8 * size);
  op.size = static_cast<uint8_t>(size);
  op.memory = p.memory;
  op.operands = {p.offset, kNone};
  touched_[p.memory] = 1;
  Memory& m = k_.memories[p.memory];
  m.elemBytes = std::max(m.elemBytes, size);
  return b_.emit(std::move(op));
}

void Translator::emitStore(const Ptr& p, ValueId data, uint32_t size, const LInst& at) {
  if (p.set >= 0) {
    // A constant among the memories is not written: a store through a pointer to it is undefined
    // behaviour (the interpreter reports it), not a reason to reject the pointer.
    dispatch(p, [&](const Ptr& q) {
      if (!readOnly_[q.memory]) emitStore(q, data, size, at);
    });
    return;
  }
  if (p.memory == kNull) return; // undefined behaviour, if it ever runs
  if (readOnly_[p.memory])
    c_.failAt(at, fmt::format("stores into constant {}", k_.memories[p.memory].name));
  Op op;
  op.kind = OpKind::Store;
  op.size = static_cast<uint8_t>(size);
  op.memory = p.memory;
  op.operands = {p.offset, data, kNone};
  touched_[p.memory] = 1;
  Memory& m = k_.memories[p.memory];
  m.elemBytes = std::max(m.elemBytes, size);
  b_.emit(std::move(op));
}

uint64_t Translator::memberOffset(Id structType, uint32_t member) const {
  if (auto it = c_.mv.decorations.find(structType); it != c_.mv.decorations.end())
    for (const auto& d : it->second)
      if (d.kind == deco::Offset && d.member && *d.member == member && !d.literals.empty())
        return d.literals[0];
  const spirv::Type& t = c_.type(structType);
  const bool packed = c_.mv.hasDecoration(structType, deco::CPacked);
  uint64_t off = 0;
  for (uint32_t i = 0; i <= member; ++i) {
    const uint64_t align = packed ? 1 : std::max<uint64_t>(1, c_.mv.alignOf(t.members[i]));
    off = (off + align - 1) / align * align;
    if (i < member) off += c_.mv.sizeOf(t.members[i]);
  }
  return off;
}

// An address computed by OpSpecConstantOp (a cast of or an access chain into a module-scope
// variable): evaluated like the instruction it names, where it is used (its offsets are constants of
// the current block, so the result is not cached across blocks).
Translator::Ptr Translator::constantAddress(Id id, const spirv::ConstantExpr& e, const LInst& at) {
  switch (e.op) {
  case SpvOp::OpPtrCastToGeneric: case SpvOp::OpGenericCastToPtr: case SpvOp::OpBitcast:
    if (c_.isPointerValue(e.operands.at(0))) return ptrOf(e.operands[0], at);
    break;
  case SpvOp::OpAccessChain: case SpvOp::OpInBoundsAccessChain: case SpvOp::OpPtrAccessChain:
  case SpvOp::OpInBoundsPtrAccessChain: {
    LInst chain;
    chain.op = e.op;
    chain.type = c_.typeOf(id);
    chain.result = id;
    chain.ids = e.operands;
    chain.src = at.src;
    return accessChain(chain);
  }
  default:
    break;
  }
  c_.failAt(at, fmt::format("uses {}, an address made from an integer ({}); converting integers to pointers is "
                            "not supported in hardware",
                            c_.ref(id), spirv::grammar::opName(static_cast<uint16_t>(e.op))));
}

template <class Element, class Fail>
void Translator::walkChain(SpvOp op, const std::vector<Id>& ids, Element element, Fail fail) const {
  Id t = c_.pointeeOf(ids.at(0));
  size_t i = 1;
  if (op == SpvOp::OpPtrAccessChain || op == SpvOp::OpInBoundsPtrAccessChain) element(ids.at(i++), c_.mv.sizeOf(t), 0);
  for (; i < ids.size(); ++i) {
    const spirv::Type& ty = c_.type(t);
    if (ty.kind == K::Struct) {
      const spirv::Constant* k = c_.mv.findConstant(ids[i]);
      if (!k || k->expr || k->bits >= ty.members.size())
        fail(fmt::format("struct member index {} must be a constant below {}", i, ty.members.size()));
      const uint32_t member = static_cast<uint32_t>(k->bits);
      element(kNone, 0, memberOffset(t, member));
      t = ty.members[member];
    } else if (ty.kind == K::Array || ty.kind == K::RuntimeArray || ty.kind == K::Vector) {
      element(ids[i], c_.mv.sizeOf(ty.elem), 0);
      t = ty.elem;
    } else {
      fail(fmt::format("index {} goes into a {} value, which has no elements", i, c_.typeName(t)));
    }
  }
}

Translator::Ptr Translator::accessChain(const LInst& in) {
  Ptr p = ptrOf(in.ids[0], in);
  walkChain(
      in.op, in.ids,
      [&](Id index, uint64_t size, uint64_t bytes) {
        const ValueId step = index == kNone ? b_.constant(64, bytes)
                                            : b_.mulConst(b_.resize(valueOf(index, in), 64, true), size); // signed
        p.offset = b_.binary(OpKind::Add, p.offset, step);
      },
      [&](const std::string& msg) { c_.failAt(in, msg); });
  return p;
}

void Translator::constantBytes(Id constant, Id type, std::vector<uint8_t>& out, uint64_t offset,
                               std::vector<std::pair<uint64_t, uint32_t>>& pointerTargets) {
  const uint32_t where = c_.mv.def.count(constant) ? c_.mv.def.at(constant) : 0;
  const spirv::Instruction* def = c_.mv.defInst(constant);
  const std::string what = def ? fmt::format("{} ({})", c_.ref(constant),
                                             spirv::grammar::opName(def->opcode))
                               : c_.ref(constant);
  if (c_.type(type).kind == K::Pointer) {
    // A pointer in memory is its byte offset in the memory it points into.
    if (auto p = constantPointer(constant, where)) {
      for (uint32_t i = 0; i < 8 && offset + i < out.size(); ++i)
        out[offset + i] = static_cast<uint8_t>(p->second >> (8 * i));
      pointerTargets.emplace_back(offset, p->first);
    } else {
      pointerTargets.emplace_back(offset, kNull); // 0: null, as an offset (into no memory) or an address
    }
    return;
  }
  const spirv::Constant* k = c_.mv.findConstant(constant);
  if (!k)
    c_.fail(where, "initializer",
            fmt::format("{} has no value known at compile time; expected a constant of type {}", what,
                        c_.typeName(type)));
  if (k->isNull || k->isUndef) return; // zeros
  const spirv::Type& t = c_.type(type);
  if (t.kind == K::Int || t.kind == K::Float) {
    for (uint32_t i = 0; i < t.width / 8 && offset + i < out.size(); ++i)
      out[offset + i] = static_cast<uint8_t>(k->bits >> (8 * i));
  } else if (t.kind == K::Array || t.kind == K::Vector) {
    const uint64_t es = c_.mv.sizeOf(t.elem);
    for (size_t i = 0; i < k->constituents.size(); ++i)
      constantBytes(k->constituents[i], t.elem, out, offset + i * es, pointerTargets);
  } else if (t.kind == K::Struct) {
    for (size_t i = 0; i < k->constituents.size() && i < t.members.size(); ++i)
      constantBytes(k->constituents[i], t.members[i], out, offset + memberOffset(type, static_cast<uint32_t>(i)),
                    pointerTargets);
  } else {
    c_.fail(where, "initializer", fmt::format("constants of type {} in memory are not supported yet",
                                              c_.typeName(type)));
  }
}

std::optional<std::pair<uint32_t, uint64_t>> Translator::constantPointer(Id constant, uint32_t where) {
  const spirv::Instruction* def = c_.mv.defInst(constant);
  if (def && def->opcode == static_cast<uint16_t>(SpvOp::OpVariable)) {
    LInst at;
    at.op = SpvOp::OpVariable;
    at.src = where;
    return std::pair<uint32_t, uint64_t>{moduleVariableMemory(constant, at), 0};
  }
  const spirv::Constant* k = c_.mv.findConstant(constant);
  if (k && (k->isNull || k->isUndef)) return std::nullopt;
  if (!k || !k->expr || k->expr->operands.empty())
    c_.fail(where, "initializer",
            fmt::format("{} is stored as a pointer but is not an address known at compile time", c_.ref(constant)));
  const spirv::ConstantExpr& e = *k->expr;
  auto base = constantPointer(e.operands[0], where);
  if (!base) c_.fail(where, "initializer", fmt::format("{} computes an address from a null pointer", c_.ref(constant)));
  switch (e.op) {
  case SpvOp::OpPtrCastToGeneric: case SpvOp::OpGenericCastToPtr: case SpvOp::OpBitcast:
    return base;
  case SpvOp::OpAccessChain: case SpvOp::OpInBoundsAccessChain: case SpvOp::OpPtrAccessChain:
  case SpvOp::OpInBoundsPtrAccessChain:
    walkChain(
        e.op, e.operands,
        [&](Id index, uint64_t size, uint64_t bytes) {
          if (index == kNone) {
            base->second += bytes;
            return;
          }
          const spirv::Constant* ik = c_.mv.findConstant(index);
          if (!ik || ik->expr)
            c_.fail(where, "initializer", fmt::format("{}: an index is not a constant", c_.ref(constant)));
          base->second += static_cast<uint64_t>(static_cast<int64_t>(ik->bits) * static_cast<int64_t>(size));
        },
        [&](const std::string& msg) { c_.fail(where, "initializer", fmt::format("{}: {}", c_.ref(constant), msg)); });
    return base;
  default:
    c_.fail(where, "initializer",
            fmt::format("{}: {} of an address is not supported in memory", c_.ref(constant),
                        spirv::grammar::opName(static_cast<uint16_t>(e.op))));
  }
}

const std::vector<uint8_t>* Translator::knownBytes(uint32_t memory) const {
  return readOnly_[memory] ? &k_.memories[memory].init : nullptr;
}

// Stores `bytes` at p in naturally aligned chunks of up to 8 bytes; `align` is what the destination
// is known to be aligned to.
void Translator::storeBytes(const Ptr& p, const std::vector<uint8_t>& bytes, uint64_t align, const LInst& at) {
  for (uint64_t pos = 0; pos < bytes.size();) {
    uint64_t chunk = std::bit_floor(std::min<uint64_t>({8, align, bytes.size() - pos}));
    uint64_t v = 0;
    for (uint64_t i = 0; i < chunk; ++i) v |= static_cast<uint64_t>(bytes[pos + i]) << (8 * i);
    Ptr q = p;
    q.offset = b_.binary(OpKind::Add, p.offset, b_.constant(64, pos));
    emitStore(q, b_.constant(static_cast<uint8_t>(8 * chunk), v), static_cast<uint32_t>(chunk), at);
    pos += chunk;
  }
}

void Translator::translateCopy(const LInst& in) {
  const Ptr dst = ptrOf(in.ids[0], in);
  const Ptr src = ptrOf(in.ids[1], in);
  if (dst.memory == kNull || src.memory == kNull) return; // undefined behaviour, if it ever runs
  uint64_t size = 0;
  if (in.op == SpvOp::OpCopyMemorySized) {
    const ValueId n = valueOf(in.ids[2], in);
    auto cv = b_.constValue(n);
    if (!cv) {
      copyLoop(dst, src, b_.resize(n, 64, false), in);
      return;
    }
    size = *cv;
  } else {
    size = c_.mv.sizeOf(c_.pointeeOf(in.ids[0]));
  }
  uint64_t align = in.lits.empty() || in.lits[0] == 0 ? 1 : std::bit_floor(in.lits[0]);
  auto srcOff = b_.constValue(src.offset), dstOff = b_.constValue(dst.offset);
  if (const auto* bytes = src.set < 0 ? knownBytes(src.memory) : nullptr; bytes && srcOff) {
    if (*srcOff + size > bytes->size())
      c_.failAt(in, fmt::format("copies {} bytes from offset {} of {}, which has {} bytes", size, *srcOff,
                                k_.memories[src.memory].name, bytes->size()));
    std::vector<uint8_t> slice(bytes->begin() + static_cast<long>(*srcOff),
                               bytes->begin() + static_cast<long>(*srcOff + size));
    Memory& dm = k_.memories[dst.memory];
    // A constant copied into a local array before anything touches it: its initial contents (not for
    // a global, whose contents at the start of a run are the previous run's).
    if (dst.set < 0 && dm.onChip() && !dm.persistent && !readOnly_[dst.memory] && prologue_[current_] &&
        !touched_[dst.memory] && dstOff && *dstOff + size <= dm.sizeBytes) {
      dm.init.resize(dm.sizeBytes, 0);
      std::copy(slice.begin(), slice.end(), dm.init.begin() + static_cast<long>(*dstOff));
      return;
    }
    storeBytes(dst, slice, align, in);
    return;
  }
  for (uint64_t pos = 0; pos < size;) {
    uint64_t chunk = std::bit_floor(std::min<uint64_t>({8, align, size - pos}));
    ValueId offPos = b_.constant(64, pos);
    Ptr s = src, d = dst;
    s.offset = b_.binary(OpKind::Add, src.offset, offPos);
    d.offset = b_.binary(OpKind::Add, dst.offset, offPos);
    emitStore(d, emitLoad(s, static_cast<uint32_t>(chunk), in), static_cast<uint32_t>(chunk), in);
    pos += chunk;
  }
}

void Translator::copyLoop(const Ptr& dst, const Ptr& src, ValueId n, const LInst& at) {
  const uint32_t from = current_;
  const std::string base = k_.blocks[from].name + ".copy";
  const uint32_t header = newBlock(base), body = newBlock(base + ".body"), exit = newBlock(base + ".done");
  const ValueId zero = b_.constant(64, 0), one = b_.constant(64, 1);
  auto branch = [&](uint32_t block, uint32_t to) {
    Terminator& t = k_.blocks[block].term;
    t.kind = Terminator::Kind::Branch;
    t.targets = {to};
    t.loc = b_.loc;
  };
  branch(from, header);
  // header: i = phi(0, i + 1); i < n ? body : exit
  current_ = b_.block = header;
  Op phi;
  phi.kind = OpKind::Phi;
  phi.type = Type::bits(64);
  phi.name = "copy.i";
  const ValueId i = b_.emit(std::move(phi));
  Terminator& cond = k_.blocks[header].term;
  cond.kind = Terminator::Kind::CondBranch;
  cond.cond = b_.binary(OpKind::ULt, i, n);
  cond.targets = {body, exit};
  cond.loc = b_.loc;
  // body: one byte (the pointers' alignment is not known), through any pointer representation
  current_ = b_.block = body;
  Ptr s = src, d = dst;
  s.offset = b_.binary(OpKind::Add, src.offset, i);
  d.offset = b_.binary(OpKind::Add, dst.offset, i);
  emitStore(d, emitLoad(s, 1, at), 1, at);
  const ValueId next = b_.binary(OpKind::Add, i, one);
  const uint32_t latch = current_; // dispatches add blocks
  branch(latch, header);
  k_.ops[i].operands = {zero, next};
  k_.ops[i].phiBlocks = {from, latch};
  current_ = b_.block = exit;
}

void Translator::translateExtInst(const LInst& in) {
  auto set = c_.mv.extInstImports.find(in.ids[0]);
  if (set == c_.mv.extInstImports.end() || set->second != "OpenCL.std")
    c_.failAt(in, fmt::format("extended instruction set \"{}\" is not supported",
                              set == c_.mv.extInstImports.end() ? "?" : set->second));
  const uint32_t n = static_cast<uint32_t>(in.lits[0]);
  const auto* info = spirv::grammar::findOpenCLStd(n);
  const std::string name = info ? info->name : fmt::format("#{}", n);
  auto arg = [&](size_t i) {
    if (i + 1 >= in.ids.size()) c_.failAt(in, fmt::format("OpenCL.std {} expects more operands", name));
    return valueOf(in.ids[i + 1], in);
  };
  auto minMax = [&](OpKind cmp, ValueId a, ValueId b) { return b_.select(b_.binary(cmp, a, b), a, b); };
  ValueId r;
  switch (n) {
  case ocl::S_min: r = minMax(OpKind::SLt, arg(0), arg(1)); break;
  case ocl::S_max: r = minMax(OpKind::SGt, arg(0), arg(1)); break;
  case ocl::U_min: r = minMax(OpKind::ULt, arg(0), arg(1)); break;
  case ocl::U_max: r = minMax(OpKind::UGt, arg(0), arg(1)); break;
  case ocl::S_clamp: r = minMax(OpKind::SLt, minMax(OpKind::SGt, arg(0), arg(1)), arg(2)); break;
  case ocl::U_clamp: r = minMax(OpKind::ULt, minMax(OpKind::UGt, arg(0), arg(1)), arg(2)); break;
  case ocl::S_abs: {
    ValueId x = arg(0);
    r = b_.select(b_.binary(OpKind::SLt, x, b_.constant(b_.width(x), 0)), b_.unary(OpKind::Neg, x), x);
    break;
  }
  case ocl::U_abs: r = arg(0); break;
  case ocl::Sqrt: {
    const ValueId x = arg(0);
    Op op;
    op.kind = OpKind::FSqrt;
    op.type = Type::bits(b_.width(x));
    op.operands = {x};
    r = b_.emit(std::move(op));
    break;
  }
  case ocl::Fma:
  case ocl::Mad: { // a * b + c rounded once on the fma unit: the interpreter computes mad as fma
    const ValueId x = arg(0), y = arg(1), z = arg(2);
    const uint32_t w = b_.width(x);
    if ((w != 16 && w != 32 && w != 64) || b_.width(y) != w || b_.width(z) != w)
      c_.failAt(in, fmt::format("OpenCL.std {}: operands of {}, {} and {} bits (one of 16, 32, 64 expected)",
                                name, w, b_.width(y), b_.width(z)));
    const auto cx = b_.constValue(x), cy = b_.constValue(y), cz = b_.constValue(z);
    if (cx && cy && cz) {
      r = b_.constant(w, *foldConstant(OpKind::FFma, w, {*cx, *cy, *cz}, w));
      break;
    }
    Op op;
    op.kind = OpKind::FFma;
    op.type = Type::bits(w);
    op.operands = {x, y, z};
    r = b_.emit(std::move(op));
    break;
  }
  case ocl::Fabs: { // the sign bit cleared, NaN or not
    const ValueId x = arg(0);
    r = b_.binary(OpKind::And, x, b_.constant(b_.width(x), widthMask(b_.width(x)) >> 1));
    break;
  }
  case ocl::Copysign: {
    const ValueId x = arg(0), y = arg(1);
    const uint64_t mag = widthMask(b_.width(x)) >> 1;
    r = b_.binary(OpKind::Or, b_.binary(OpKind::And, x, b_.constant(b_.width(x), mag)),
                  b_.binary(OpKind::And, y, b_.constant(b_.width(x), ~mag & widthMask(b_.width(x)))));
    break;
  }
  default:
    if (auto v = floatBuiltin(n, arg, in)) {
      r = *v;
      break;
    }
    c_.failAt(in, fmt::format("OpenCL.std {} is not supported in hardware yet", name));
  }
  if (b_.width(r) != widthOf(in.type, in))
    c_.failAt(in, fmt::format("OpenCL.std {}: result type {} does not match its operands", name,
                              c_.typeName(in.type)));
  vals_[in.result] = r;
}

void Translator::translateInst(const LInst& in) {
  const size_t before = k_.ops.size();
  switch (in.op) {
  case SpvOp::OpTaskSequenceCreateINTEL:
  case SpvOp::OpTaskSequenceAsyncINTEL:
  case SpvOp::OpTaskSequenceGetINTEL:
  case SpvOp::OpTaskSequenceReleaseINTEL:
    translateTask(in);
    break;
  case SpvOp::OpFunctionCall: { // a shared function's (the others are inlined)
    const uint32_t f = functionIndex_.at(in.ids.at(0));
    Op op;
    op.kind = OpKind::Call;
    op.index = f;
    op.type = k_.functions[f].result;
    for (size_t i = 1; i < in.ids.size(); ++i)
      op.operands.push_back(operandOf(in.ids[i], k_.functions[f].params.at(i - 1).width(), in));
    op.spirvId = c_.origin(in.result);
    op.name = k_.functions[f].name;
    const ValueId v = b_.emit(std::move(op));
    if (!k_.functions[f].result.isNone()) vals_[in.result] = v;
    break;
  }
  case SpvOp::OpVariable: {
    const uint32_t m = localVariableMemory(in);
    const Ptr p{m, b_.constant(64, 0)};
    ptrs_[in.result] = p;
    if (!in.ids.empty()) {
      const Id pointee = c_.pointeeOf(in.result);
      std::vector<uint8_t> bytes(k_.memories[m].sizeBytes, 0);
      std::vector<std::pair<uint64_t, uint32_t>> targets; // recorded in computeMemories
      constantBytes(in.ids[0], pointee, bytes, 0, targets);
      if (auto t = cellTarget_.find(m); t != cellTarget_.end() && isMulti(t->second))
        for (auto [pos, target] : targets) addTag(bytes, pos, target);
      if (prologue_[current_] && !touched_[m]) {
        if (std::any_of(bytes.begin(), bytes.end(), [](uint8_t x) { return x != 0; }))
          k_.memories[m].init = bytes;
      } else {
        storeBytes(p, bytes, std::max<uint64_t>(1, c_.mv.alignOf(pointee)), in);
      }
    }
    break;
  }
  case SpvOp::OpLoad: {
    const Ptr p = ptrOf(in.ids[0], in); // first: what is accessed says more than how
    if (c_.isPointerValue(in.result)) {
      // A pointer from memory: its offset or address, in the representation of the set the pointers
      // stored there point into (none stored: it stays undefined, an error where it is used).
      if (const int t = memOf_.at(in.result); t >= 0) ptrs_[in.result] = pointerIn(t, emitLoad(p, 8, in));
      break;
    }
    vals_[in.result] = emitLoad(p, accessSize(in.type, in), in);
    break;
  }
  case SpvOp::OpStore: {
    const Ptr p = ptrOf(in.ids[0], in);
    if (c_.isPointerValue(in.ids[1])) {
      // In the representation of the pointers kept where p points (the same for all of them).
      if (p.memory == kNull) break; // through null: undefined behaviour, if it ever runs
      const bool null = memoryOf(in.ids[1], in) < 0; // an undefined pointer
      const int cells = p.set >= 0 ? p.set : single(p.memory);
      emitStore(p, null ? b_.constant(64, 0) : inSet(ptrOf(in.ids[1], in), cellTarget_.at(sets_[cells][0])).offset,
                8, in);
      break;
    }
    const uint32_t size = accessSize(c_.typeOf(in.ids[1]), in);
    emitStore(p, valueOf(in.ids[1], in), size, in);
    break;
  }
  case SpvOp::OpCopyMemory: case SpvOp::OpCopyMemorySized:
    translateCopy(in);
    break;
  case SpvOp::OpAccessChain: case SpvOp::OpInBoundsAccessChain: case SpvOp::OpPtrAccessChain:
  case SpvOp::OpInBoundsPtrAccessChain:
    if (memoryOf(in.ids[0], in) < 0) break; // from an undefined pointer: so is the result
    ptrs_[in.result] = accessChain(in);
    break;
  case SpvOp::OpPtrCastToGeneric: case SpvOp::OpGenericCastToPtr:
    if (memoryOf(in.ids[0], in) < 0) break; // an undefined pointer cast: undefined
    ptrs_[in.result] = ptrOf(in.ids[0], in);
    break;
  case SpvOp::OpConvertPtrToU: {
    // A pointer as a number: its offset, with its memory above bit 40 (as the interpreter encodes
    // it, though not with the same memory numbers): differences and comparisons of pointers into one
    // object, which is what C defines, come out right; null is 0.
    const int m = memoryOf(in.ids[0], in);
    const ValueId v = m < 0 ? b_.constant(64, 0) : addressOf(ptrOf(in.ids[0], in));
    vals_[in.result] = b_.resize(v, widthOf(in.type, in), false);
    break;
  }
  case SpvOp::OpCopyObject: case SpvOp::OpBitcast: {
    if (c_.isPointerValue(in.result)) {
      if (memoryOf(in.ids[0], in) >= 0) ptrs_[in.result] = ptrOf(in.ids[0], in); // else null stays null
      break;
    }
    if (c_.isPointerValue(in.ids[0])) c_.failAt(in, "converting a pointer to an integer is not supported");
    const ValueId v = valueOf(in.ids[0], in);
    if (widthOf(in.type, in) != b_.width(v))
      c_.failAt(in, fmt::format("bit casts between {} and {} are not supported yet",
                                c_.typeName(c_.typeOf(in.ids[0])), c_.typeName(in.type)));
    vals_[in.result] = v; // same bits
    break;
  }
  case SpvOp::OpUndef:
    if (!c_.isPointerValue(in.result)) vals_[in.result] = b_.undef(widthOf(in.type, in));
    break;
  case SpvOp::OpSelect: {
    if (widthOf(c_.typeOf(in.ids[0]), in) != 1)
      c_.failAt(in, "expected a bool condition");
    const ValueId cond = valueOf(in.ids[0], in);
    if (c_.isPointerValue(in.result)) {
      const int m = memOf_.at(in.result);
      if (m < 0) break; // both undefined; using it fails later
      auto off = [&](Id p) { return memoryOf(p, in) < 0 ? b_.undef(64) : inSet(ptrOf(p, in), m).offset; };
      ptrs_[in.result] = pointerIn(m, b_.select(cond, off(in.ids[1]), off(in.ids[2])));
      break;
    }
    const uint32_t w = widthOf(in.type, in);
    vals_[in.result] = b_.select(cond, operandOf(in.ids[1], w, in), operandOf(in.ids[2], w, in));
    break;
  }
  case SpvOp::OpUConvert: case SpvOp::OpSConvert:
    vals_[in.result] = b_.resize(valueOf(in.ids[0], in), widthOf(in.type, in), in.op == SpvOp::OpSConvert);
    break;
  case SpvOp::OpExtInst:
    translateExtInst(in);
    break;
  case SpvOp::OpConvertSToF:
  case SpvOp::OpConvertUToF:
  case SpvOp::OpConvertFToS:
  case SpvOp::OpConvertFToU:
  case SpvOp::OpFConvert:
    vals_[in.result] = floatConversion(in);
    break;
  case SpvOp::OpFNegate: { // the sign bit flips, NaN or not (as x86 negates)
    const uint32_t w = widthOf(in.type, in);
    vals_[in.result] =
        b_.binary(OpKind::Xor, operandOf(in.ids[0], w, in), b_.constant(w, uint64_t(1) << (w - 1)));
    break;
  }
  default:
    if (isFloatCompare(in.op)) {
      vals_[in.result] = floatCompare(in);
      break;
    }
    if (auto k = binaryKind(in.op)) {
      const uint32_t w = widthOf(in.type, in); // rejects vectors
      // Comparisons: operands of one width, a bool result; shifts: the shift amount may be narrower
      // or wider; the rest: operands and result of one width.
      const ValueId a = isCompare(*k) ? valueOf(in.ids[0], in) : operandOf(in.ids[0], w, in);
      if (isCompare(*k) && w != 1) c_.failAt(in, "expected a bool result type");
      ValueId b = isShift(*k) ? valueOf(in.ids[1], in) : operandOf(in.ids[1], b_.width(a), in);
      if (isShift(*k)) b = b_.resize(b, b_.width(a), false);
      vals_[in.result] = b_.binary(*k, a, b);
    } else if (auto u = unaryKind(in.op)) {
      vals_[in.result] = b_.unary(*u, operandOf(in.ids[0], widthOf(in.type, in), in));
    } else {
      c_.failAt(in, fmt::format("{} is not supported in hardware yet",
                                spirv::grammar::opName(static_cast<uint16_t>(in.op))));
    }
    break;
  }
  // Name the op that computes the instruction's result (not folded or shared ones).
  if (auto it = vals_.find(in.result); in.result && it != vals_.end() && it->second >= before) {
    Op& op = k_.ops[it->second];
    if (op.spirvId == 0 && op.kind != OpKind::Const && op.kind != OpKind::Undef) {
      op.spirvId = c_.origin(in.result);
      if (c_.hasName(in.result)) op.name = c_.nameOf(in.result);
    }
  }
}

// OpConvertSToF / UToF / FToS / FToU / FConvert: an operation on the conversion unit, rounding as a
// FPRoundingMode decoration asks (by default nearest even to float, toward zero to integer): the
// units to float round in any mode; to integer, x is first rounded to an integral value (rint, ceil,
// floor) and then converted toward zero, which is exact. Float to integer saturates, which
// SaturatedConversion asks and which is one choice for the undefined out-of-range results otherwise.
ValueId Translator::floatConversion(const LInst& in) {
  const ValueId a = valueOf(in.ids[0], in);
  const uint32_t from = b_.width(a), to = widthOf(in.type, in);
  OpKind k;
  switch (in.op) {
  case SpvOp::OpConvertSToF:
    k = OpKind::SIToFP;
    break;
  case SpvOp::OpConvertUToF:
    k = OpKind::UIToFP;
    break;
  case SpvOp::OpConvertFToS:
    k = OpKind::FPToSI;
    break;
  case SpvOp::OpConvertFToU:
    k = OpKind::FPToUI;
    break;
  default:
    k = OpKind::FPToFP;
    break;
  }
  const bool toInt = k == OpKind::FPToSI || k == OpKind::FPToUI;
  auto ieee = [](uint32_t w) { return w == 16 || w == 32 || w == 64; };
  if (!ieee(toInt ? from : to) || (k == OpKind::FPToFP && !ieee(from)))
    c_.failAt(in, fmt::format(
                      "a conversion between {} and {} bits; expected half, float or double on the float side",
                      from, to));
  uint32_t mode = toInt ? 1 : 0; // FPRoundingMode: 0 RTE, 1 RTZ, 2 RTP, 3 RTN
  if (auto d = c_.mv.decorations.find(c_.origin(in.result)); d != c_.mv.decorations.end())
    for (const spirv::Decoration& dec : d->second)
      if (dec.kind == deco::FPRoundingMode && !dec.literals.empty()) {
        mode = dec.literals[0];
        if (mode > 3)
          c_.failAt(in,
                    fmt::format("FPRoundingMode {}; expected RTE (0), RTZ (1), RTP (2) or RTN (3)", mode));
      }
  const uint32_t intBits = toInt ? to : from;
  if (k != OpKind::FPToFP && intBits != 8 && intBits != 16 && intBits != 32 && intBits != 64)
    c_.failAt(
        in, fmt::format("a conversion with a {}-bit integer; the conversion units take 8, 16, 32 or 64 bits",
                        intBits));
  if (k == OpKind::FPToFP && from == to) return a;
  ValueId operand = a;
  if (toInt && mode != 1) {
    const uint32_t integral = mode == 0 ? ocl::Rint : mode == 2 ? ocl::Ceil : ocl::Floor;
    operand = *floatBuiltin(
        integral, [&](size_t) { return a; }, in);
  }
  // Widening is exact: the mode does not matter, and one unit serves every mode.
  const uint8_t rounding = toInt || (k == OpKind::FPToFP && to > from) ? 0 : uint8_t(mode);
  if (auto c = b_.constValue(operand))
    if (auto r = foldConstant(k, to, {*c}, from, rounding)) return b_.constant(to, *r);
  Op op;
  op.kind = k;
  op.type = Type::bits(to);
  op.imm = from;
  op.rounding = rounding;
  op.operands = {operand};
  return b_.emit(std::move(op));
}

} // namespace spvhls::ir::lower
