// Golden interpreter: value slots, memory layouts and constants of SPIR-V types.
#include <fmt/format.h>

#include "frontend/grammar.h"
#include "sim/interp_program.h"

namespace spvhls::sim::interp {

using spirv::Type;
namespace spv = spirv::spv;

std::string constructName(const Program& p, uint32_t instIndex) {
  const spirv::Instruction& inst = p.mv.inst(instIndex);
  std::string s = spirv::grammar::opName(inst.opcode);
  if (inst.resultId) {
    std::string n = p.mv.nameOf(inst.resultId);
    s += n.starts_with("%") ? " " + n : " %" + n;
  }
  return s;
}

void failAt(const Program& p, uint32_t instIndex, const std::string& message) {
  throw DiagnosticError(p.mv.locOf(instIndex), constructName(p, instIndex), message);
}

static const char* kindName(Type::Kind k) {
  switch (k) {
  case Type::Kind::Void: return "void";
  case Type::Kind::Bool: return "bool";
  case Type::Kind::Int: return "integer";
  case Type::Kind::Float: return "float";
  case Type::Kind::Vector: return "vector";
  case Type::Kind::Array: return "array";
  case Type::Kind::RuntimeArray: return "runtime array";
  case Type::Kind::Struct: return "struct";
  case Type::Kind::Pointer: return "pointer";
  case Type::Kind::Function: return "function";
  case Type::Kind::Opaque: return "opaque";
  case Type::Kind::TaskSequence: return "task sequence";
  case Type::Kind::Other: break;
  }
  return "unsupported";
}

static const spirv::Decoration* findDecoration(const Program& p, Id id, uint32_t kind, std::optional<uint32_t> member = {}) {
  auto it = p.mv.decorations.find(id);
  if (it == p.mv.decorations.end()) return nullptr;
  for (const auto& d : it->second)
    if (d.kind == kind && d.member == member) return &d;
  return nullptr;
}

static void checkScalarWidth(const Program& p, const Type& t, Id type, uint32_t where) {
  if (t.width == 0 || t.width > 64)
    failAt(p, where, fmt::format("{}-bit {} type {} is not supported by the interpreter (at most 64 bits)", t.width,
                                 kindName(t.kind), p.mv.nameOf(type)));
}

uint32_t slotCount(Program& p, Id type, uint32_t where) {
  const Type& t = p.mv.type(type);
  auto capped = [&](uint64_t n) {
    if (n > kMaxScalars)
      failAt(p, where, fmt::format("values of type {} have {} scalars, more than the interpreter's limit of {} per value",
                                   p.mv.nameOf(type), n, kMaxScalars));
    return static_cast<uint32_t>(n);
  };
  switch (t.kind) {
  case Type::Kind::Void: return 0;
  case Type::Kind::Bool:
  case Type::Kind::Pointer:
  case Type::Kind::TaskSequence: return 1; // a handle
  case Type::Kind::Int:
  case Type::Kind::Float: checkScalarWidth(p, t, type, where); return 1;
  case Type::Kind::Vector:
  case Type::Kind::Array: return capped(uint64_t(t.count) * slotCount(p, t.elem, where));
  case Type::Kind::Struct: {
    uint64_t n = 0;
    for (Id m : t.members) n += slotCount(p, m, where);
    return capped(n);
  }
  default: break;
  }
  failAt(p, where, fmt::format("values of {} type {} are not supported by the interpreter", kindName(t.kind), p.mv.nameOf(type)));
}

uint64_t memberOffset(Program& p, Id structType, uint32_t index, uint32_t where) {
  const Type& t = p.mv.type(structType);
  if (index >= t.members.size())
    failAt(p, where, fmt::format("member index {} is out of range for struct {} with {} members", index,
                                 p.mv.nameOf(structType), t.members.size()));
  if (const auto* d = findDecoration(p, structType, spv::Decoration::Offset, index); d && !d->literals.empty())
    return d->literals[0];
  // OpenCL C layout: each member at the next multiple of its alignment (no padding when packed).
  bool packed = p.mv.hasDecoration(structType, spv::Decoration::CPacked);
  uint64_t off = 0;
  for (uint32_t i = 0;; ++i) {
    uint64_t align = packed ? 1 : p.mv.alignOf(t.members[i]);
    off = (off + align - 1) / align * align;
    if (i == index) return off;
    off += p.mv.sizeOf(t.members[i]);
  }
}

uint64_t strideOf(Program& p, Id type, uint32_t where) {
  if (const auto* d = findDecoration(p, type, spv::Decoration::ArrayStride); d && !d->literals.empty()) return d->literals[0];
  const Type& t = p.mv.type(type);
  switch (t.kind) {
  case Type::Kind::Array:
  case Type::Kind::RuntimeArray:
  case Type::Kind::Vector:
  case Type::Kind::Pointer: return p.mv.sizeOf(t.elem);
  default: break;
  }
  failAt(p, where, fmt::format("cannot index into {} type {}", kindName(t.kind), p.mv.nameOf(type)));
}

// Appends the leaves of `type` placed at byte offset `base`.
static void addLeaves(Program& p, Id type, uint64_t base, std::vector<Leaf>& out, uint32_t where) {
  const Type& t = p.mv.type(type);
  if (out.size() >= kMaxScalars)
    failAt(p, where, fmt::format("type {} has more than {} scalars, the interpreter's limit for loading, storing or "
                                 "initialising a value as a whole", p.mv.nameOf(type), kMaxScalars));
  switch (t.kind) {
  case Type::Kind::Bool: out.push_back({base, 1, 1, true}); return;
  case Type::Kind::Int:
  case Type::Kind::Float:
    checkScalarWidth(p, t, type, where);
    out.push_back({base, static_cast<uint32_t>(p.mv.sizeOf(type)), static_cast<uint8_t>(t.width), false});
    return;
  case Type::Kind::Pointer:
  case Type::Kind::TaskSequence: out.push_back({base, 8, 64, false}); return;
  case Type::Kind::Vector:
  case Type::Kind::Array: {
    uint64_t stride = strideOf(p, type, where);
    for (uint32_t i = 0; i < t.count; ++i) addLeaves(p, t.elem, base + i * stride, out, where);
    return;
  }
  case Type::Kind::Struct:
    for (uint32_t i = 0; i < t.members.size(); ++i) addLeaves(p, t.members[i], base + memberOffset(p, type, i, where), out, where);
    return;
  default: break;
  }
  failAt(p, where, fmt::format("{} type {} cannot be loaded or stored by the interpreter", kindName(t.kind), p.mv.nameOf(type)));
}

uint32_t layoutIndexOf(Program& p, Id type, uint32_t where) {
  if (auto it = p.layoutIndex.find(type); it != p.layoutIndex.end()) return it->second;
  Layout l;
  addLeaves(p, type, 0, l.leaves, where);
  const Type& t = p.mv.type(type);
  l.size = t.kind == Type::Kind::Bool ? 1 : p.mv.sizeOf(type);
  for (const Leaf& leaf : l.leaves) l.size = std::max(l.size, leaf.offset + leaf.bytes);
  p.layouts.push_back(std::move(l));
  p.layoutIndex[type] = static_cast<uint32_t>(p.layouts.size() - 1);
  return static_cast<uint32_t>(p.layouts.size() - 1);
}

const Layout& layoutOf(Program& p, Id type, uint32_t where) { return p.layouts[layoutIndexOf(p, type, where)]; }

uint64_t objectSize(Program& p, Id type, uint32_t where) {
  if (auto it = p.layoutIndex.find(type); it != p.layoutIndex.end()) return p.layouts[it->second].size;
  try {
    return p.mv.sizeOf(type);
  } catch (const DiagnosticError& e) { // no size: say where it was needed
    failAt(p, where, e.diagnostics().empty() ? std::string("type has no size") : e.diagnostics()[0].message);
  }
}

void materialize(Program& p, Id id, std::vector<uint64_t>& out, uint32_t where) {
  if (auto g = p.globalAddress.find(id); g != p.globalAddress.end()) {
    out.push_back(g->second);
    return;
  }
  if (auto u = p.unsupportedGlobals.find(id); u != p.unsupportedGlobals.end())
    failAt(p, where, fmt::format("uses {}: {}", p.mv.nameOf(id), u->second));
  const spirv::Constant* c = p.mv.findConstant(id);
  if (!c) {
    const spirv::Instruction* def = p.mv.defInst(id);
    if (def && def->op() == spirv::Op::OpUndef) {
      out.resize(out.size() + slotCount(p, def->resultType, where), 0);
      return;
    }
    if (auto u = p.mv.unevaluatedConstants.find(id); u != p.mv.unevaluatedConstants.end())
      failAt(p, where, fmt::format("uses {}: {}", p.mv.nameOf(id), u->second));
    if (def) {
      uint32_t at = p.mv.def.at(id);
      failAt(p, at, fmt::format("{} is not supported as a constant by the interpreter", spirv::grammar::opName(def->opcode)));
    }
    failAt(p, where, fmt::format("{} is not a constant", p.mv.nameOf(id)));
  }
  if (c->expr) {
    if (auto v = p.constExprValues.find(id); v != p.constExprValues.end()) {
      out.push_back(v->second);
      return;
    }
    if (auto e = p.constExprErrors.find(id); e != p.constExprErrors.end()) throw e->second;
    failAt(p, where, fmt::format("internal error: constant expression {} was not evaluated", p.mv.nameOf(id)));
  }
  const Type& t = p.mv.type(c->type);
  if (c->isUndef || c->isNull) { // OpUndef reads as zero
    out.resize(out.size() + slotCount(p, c->type, where), 0);
    return;
  }
  switch (t.kind) {
  case Type::Kind::Bool: out.push_back(c->bits & 1); return;
  case Type::Kind::Int:
  case Type::Kind::Float: checkScalarWidth(p, t, c->type, where); out.push_back(c->bits & widthMask(t.width)); return;
  case Type::Kind::Pointer: out.push_back(0); return;
  case Type::Kind::Vector:
  case Type::Kind::Array:
  case Type::Kind::Struct:
    for (Id part : c->constituents) materialize(p, part, out, where);
    return;
  default: break;
  }
  failAt(p, where, fmt::format("constant {} of {} type is not supported by the interpreter", p.mv.nameOf(id), kindName(t.kind)));
}

namespace {

// The value of one constant expression in the interpreter's pointer encoding; its operands are
// constants, variables or expressions evaluated before it.
uint64_t evalConstantExpr(Program& p, Id id, const spirv::Constant& c) {
  const spirv::ConstantExpr& e = *c.expr;
  const uint32_t at = p.mv.def.at(id);
  auto value = [&](Id operand) {
    std::vector<uint64_t> v;
    materialize(p, operand, v, at);
    if (v.size() != 1) failAt(p, at, fmt::format("operand {} is not a scalar", p.mv.nameOf(operand)));
    return v[0];
  };
  auto index = [&](Id operand) { // sign-extended, as the interpreter's access chains read indices
    const Type& t = p.mv.type(p.mv.findConstant(operand)->type);
    return static_cast<uint64_t>(sext(value(operand), t.width));
  };
  const Type& rt = p.mv.type(c.type);
  const uint64_t base = value(e.operands.at(0));
  switch (e.op) {
  case spirv::Op::OpPtrCastToGeneric:
  case spirv::Op::OpBitcast:
  case spirv::Op::OpConvertUToPtr: return base;
  case spirv::Op::OpConvertPtrToU: return base & widthMask(rt.width);
  case spirv::Op::OpGenericCastToPtr: {
    const uint32_t object = addressObject(base);
    for (const GlobalVar& g : p.globals)
      if (g.object == object && g.info.storageClass != rt.storageClass)
        failAt(p, at, fmt::format("{} is in {} storage, not {}", p.mv.nameOf(g.var),
                                  spirv::grammar::enumName(spirv::OperandKind::StorageClass, g.info.storageClass),
                                  spirv::grammar::enumName(spirv::OperandKind::StorageClass, rt.storageClass)));
    return base;
  }
  case spirv::Op::OpAccessChain:
  case spirv::Op::OpInBoundsAccessChain:
  case spirv::Op::OpPtrAccessChain:
  case spirv::Op::OpInBoundsPtrAccessChain: {
    const Id ptrType = p.mv.defInst(e.operands[0])->resultType;
    uint64_t delta = 0; // two's complement, as in the decoded OpAccessChain
    size_t k = 1;
    if (e.op == spirv::Op::OpPtrAccessChain || e.op == spirv::Op::OpInBoundsPtrAccessChain)
      delta += index(e.operands.at(k++)) * strideOf(p, ptrType, at);
    Id cur = p.mv.type(ptrType).elem;
    for (; k < e.operands.size(); ++k) {
      const Type& t = p.mv.type(cur);
      if (t.kind == Type::Kind::Struct) {
        const uint64_t member = value(e.operands[k]);
        delta += memberOffset(p, cur, static_cast<uint32_t>(member), at);
        cur = t.members.at(member);
      } else {
        delta += index(e.operands[k]) * strideOf(p, cur, at);
        cur = t.elem;
      }
    }
    if (addressObject(base) == 0) failAt(p, at, "pointer arithmetic on a null pointer");
    uint64_t result = 0; // may point outside the variable, like the decoded OpAccessChain
    if (!movePointer(base, delta, result))
      failAt(p, at, fmt::format("pointer arithmetic leaves the memory object by more than the interpreter's pointers "
                                "hold: byte offset {} moved by {} bytes (offsets must stay within 2^39 bytes of the object)",
                                addressOffset(base), static_cast<int64_t>(delta)));
    return result;
  }
  default: break;
  }
  failAt(p, at, fmt::format("constant expression {} is not supported by the interpreter", spirv::grammar::opName(uint16_t(e.op))));
}

} // namespace

void evaluateConstantExprs(Program& p) {
  const auto& insts = p.mv.module.insts;
  for (const spirv::Instruction& in : insts) {
    if (in.op() != spirv::Op::OpSpecConstantOp) continue;
    const spirv::Constant* c = p.mv.findConstant(in.resultId);
    if (!c || !c->expr) continue;
    try {
      p.constExprValues[in.resultId] = evalConstantExpr(p, in.resultId, *c);
    } catch (const DiagnosticError& e) { // reported only if the constant is used
      p.constExprErrors.emplace(in.resultId, e);
    }
  }
}

std::vector<uint8_t> imageOf(Program& p, Id constant, Id type, uint32_t where) {
  const Layout& l = layoutOf(p, type, where);
  std::vector<uint64_t> slots;
  materialize(p, constant, slots, where);
  if (slots.size() != l.leaves.size())
    failAt(p, where, fmt::format("initializer {} has {} scalars; its type {} has {}", p.mv.nameOf(constant), slots.size(),
                                 p.mv.nameOf(type), l.leaves.size()));
  std::vector<uint8_t> bytes(l.size, 0);
  for (size_t i = 0; i < slots.size(); ++i)
    for (uint32_t k = 0; k < l.leaves[i].bytes; ++k) bytes[l.leaves[i].offset + k] = static_cast<uint8_t>(slots[i] >> (8 * k));
  return bytes;
}

} // namespace spvhls::sim::interp
