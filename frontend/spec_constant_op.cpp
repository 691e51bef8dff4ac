// OpSpecConstantOp in the ModuleView: the operations SPIR-V allows there for Kernel modules are folded
// when their value is a number (Constant::bits / constituents) and recorded as a ConstantExpr when it
// is an address (casts and access chains of module-scope variables), which only the consumers can
// evaluate with their own pointer model. Specialization is not supported, so spec constants have
// their default values and every OpSpecConstantOp is a plain constant expression.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "frontend/module_view_internal.h"

namespace spvhls::spirv::detail {

namespace {

using K = Type::Kind;

// The operations the SPIR-V specification allows in OpSpecConstantOp for modules with the Kernel
// capability (the general list, UConvert included, and the Kernel additions).
bool allowedInKernel(Op op) {
  switch (op) {
  case Op::OpSConvert:
  case Op::OpUConvert:
  case Op::OpFConvert:
  case Op::OpSNegate:
  case Op::OpNot:
  case Op::OpIAdd:
  case Op::OpISub:
  case Op::OpIMul:
  case Op::OpUDiv:
  case Op::OpSDiv:
  case Op::OpUMod:
  case Op::OpSRem:
  case Op::OpSMod:
  case Op::OpShiftRightLogical:
  case Op::OpShiftRightArithmetic:
  case Op::OpShiftLeftLogical:
  case Op::OpBitwiseOr:
  case Op::OpBitwiseXor:
  case Op::OpBitwiseAnd:
  case Op::OpVectorShuffle:
  case Op::OpCompositeExtract:
  case Op::OpCompositeInsert:
  case Op::OpLogicalOr:
  case Op::OpLogicalAnd:
  case Op::OpLogicalNot:
  case Op::OpLogicalEqual:
  case Op::OpLogicalNotEqual:
  case Op::OpSelect:
  case Op::OpIEqual:
  case Op::OpINotEqual:
  case Op::OpULessThan:
  case Op::OpSLessThan:
  case Op::OpUGreaterThan:
  case Op::OpSGreaterThan:
  case Op::OpULessThanEqual:
  case Op::OpSLessThanEqual:
  case Op::OpUGreaterThanEqual:
  case Op::OpSGreaterThanEqual:
  // Kernel capability
  case Op::OpConvertFToS:
  case Op::OpConvertSToF:
  case Op::OpConvertFToU:
  case Op::OpConvertUToF:
  case Op::OpConvertPtrToU:
  case Op::OpConvertUToPtr:
  case Op::OpGenericCastToPtr:
  case Op::OpPtrCastToGeneric:
  case Op::OpBitcast:
  case Op::OpFNegate:
  case Op::OpFAdd:
  case Op::OpFSub:
  case Op::OpFMul:
  case Op::OpFDiv:
  case Op::OpFRem:
  case Op::OpFMod:
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpPtrAccessChain:
  case Op::OpInBoundsPtrAccessChain:
    return true;
  default:
    return false;
  }
}

bool isPointerExprOp(Op op) {
  switch (op) {
  case Op::OpConvertPtrToU:
  case Op::OpConvertUToPtr:
  case Op::OpGenericCastToPtr:
  case Op::OpPtrCastToGeneric:
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpPtrAccessChain:
  case Op::OpInBoundsPtrAccessChain:
    return true;
  default:
    return false;
  }
}

std::string storageName(uint32_t sc) {
  return grammar::enumName(OperandKind::StorageClass, sc);
}

uint64_t maskTo(uint64_t v, uint32_t w) {
  return w >= 64 ? v : v & ((uint64_t(1) << w) - 1);
}
int64_t signedOf(uint64_t v, uint32_t w) {
  return w >= 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - w)) >> (64 - w);
}

// Thrown to abandon the instruction after its diagnostic was reported.
struct Rejected {};

// Folds or records one OpSpecConstantOp. Operand rules follow the instruction the Opcode names; every
// operand must be defined before the OpSpecConstantOp (as checkConstituents requires of composites).
class SpecOpFolder {
public:
  SpecOpFolder(const Module& m, ModuleView& v, uint32_t i, std::function<void(std::string)> report)
      : m_(m), v_(v), i_(i), inst_(m.insts[i]), report_(std::move(report)) {}

  std::optional<Constant> fold() {
    try {
      return foldOrThrow();
    } catch (const Rejected&) {
      return std::nullopt;
    }
  }

private:
  [[noreturn]] void reject(const std::string& message) {
    report_(message);
    throw Rejected{};
  }
  // A valid constant without a value here: not an error unless something uses it (an unused
  // constant must not make a valid module fail). Consumers report the reason where it is used.
  [[noreturn]] void defer(const std::string& message) {
    v_.unevaluatedConstants[inst_.resultId] = message;
    throw Rejected{};
  }
  [[noreturn]] void notYet(const std::string& detail = "") {
    defer(
        fmt::format("OpSpecConstantOp {} {}is not supported yet", name_, detail.empty() ? "" : detail + " "));
  }

  const Type* typeOf(Id type) const { return v_.findType(type); }
  const Type& resultType() {
    const Type* t = typeOf(inst_.resultType);
    if (!t) reject(fmt::format("result type {} is not a type", v_.nameOf(inst_.resultType)));
    return *t;
  }
  // Operand k of the operation (after the Opcode word).
  Id operandId(size_t k) {
    if (k + 1 >= inst_.operands.size())
      reject(fmt::format("OpSpecConstantOp {} has {} operands; expected at least {}", name_,
                         inst_.operands.size() - 1, k + 1));
    return inst_.operands[k + 1];
  }
  // The defining instruction of an operand, which must come before this one.
  const Instruction& definedBefore(Id id) {
    auto d = v_.def.find(id);
    if (d == v_.def.end() || d->second >= i_)
      reject(fmt::format(
          "operand {} is not defined before {}; expected a constant or module-scope variable defined "
          "earlier",
          v_.nameOf(id), v_.nameOf(inst_.resultId)));
    return m_.insts[d->second];
  }
  // A constant operand (not a variable).
  const Constant& constant(Id id) {
    const Instruction& d = definedBefore(id);
    const Constant* c = v_.findConstant(id);
    if (!c && v_.unevaluatedConstants.count(id))
      defer(fmt::format("OpSpecConstantOp {} of {}, which has no value: {}", name_, v_.nameOf(id),
                        v_.unevaluatedConstants.at(id)));
    if (!c)
      reject(fmt::format("operand {} is defined by {}; expected a constant", v_.nameOf(id),
                         grammar::opName(d.opcode)));
    return *c;
  }
  // A scalar integer or bool constant with a known value: its type and bits. Addresses (expressions)
  // have no value here.
  std::pair<const Type*, const Constant*> scalar(Id id, bool wantBool) {
    const Constant& c = constant(id);
    const Type* t = typeOf(c.type);
    if (t && (t->kind == K::Vector)) notYet("on vectors");
    if (!t || (wantBool ? t->kind != K::Bool : t->kind != K::Int))
      reject(fmt::format("operand {} has type {}; expected a scalar {}", v_.nameOf(id), v_.nameOf(c.type),
                         wantBool ? "bool" : "integer"));
    if (c.expr) notYet(fmt::format("of an address ({})", v_.nameOf(id)));
    return {t, &c};
  }

  std::optional<Constant> foldOrThrow() {
    if (inst_.operands.empty()) reject("OpSpecConstantOp without an Opcode operand");
    op_ = static_cast<Op>(inst_.operands[0]);
    name_ = grammar::opName(inst_.operands[0]);
    if (name_.starts_with("Op")) name_ = name_.substr(2);
    if (!allowedInKernel(op_))
      reject(
          fmt::format("OpSpecConstantOp {} is not allowed: SPIR-V permits only a fixed set of operations in "
                      "OpSpecConstantOp of a Kernel module",
                      name_));
    const Type& rt = resultType();
    Constant c;
    c.type = inst_.resultType;
    if (isPointerExprOp(op_) ||
        (op_ == Op::OpBitcast && (rt.kind == K::Pointer || isPointerValue(operandId(0)))))
      return pointerOp(rt, c);
    switch (op_) {
    case Op::OpCompositeExtract:
      return compositeExtract(rt);
    case Op::OpCompositeInsert:
      return compositeInsert(rt, c);
    case Op::OpVectorShuffle:
      return vectorShuffle(rt, c);
    case Op::OpSelect:
      return select(rt);
    case Op::OpFConvert:
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertFToU:
    case Op::OpConvertUToF:
    case Op::OpFNegate:
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod:
      notYet(); // floating-point folding would have to match the interpreter's rounding
    default:
      break;
    }
    if (rt.kind == K::Vector) notYet("on vectors");
    return scalarOp(rt, c);
  }

  bool isPointerValue(Id id) {
    const Instruction& d = definedBefore(id);
    const Type* t = typeOf(d.resultType);
    return t && t->kind == K::Pointer;
  }

  // ---- integer and bool scalars ----
  Constant scalarOp(const Type& rt, Constant& c) {
    auto need = [&](size_t n) {
      if (inst_.operands.size() != n + 1)
        reject(fmt::format("OpSpecConstantOp {} has {} operands; expected {}", name_,
                           inst_.operands.size() - 1, n));
    };
    auto resultIs = [&](K kind) {
      if (rt.kind != kind)
        reject(fmt::format("result type {} is not a scalar {}", v_.nameOf(inst_.resultType),
                           kind == K::Bool ? "bool" : "integer"));
    };
    switch (op_) {
    case Op::OpLogicalNot: {
      need(1), resultIs(K::Bool);
      auto [t, a] = scalar(operandId(0), true);
      c.isUndef = a->isUndef;
      c.bits = !a->isUndef && !a->isNull && (a->bits & 1) ? 0 : 1;
      return c;
    }
    case Op::OpLogicalOr:
    case Op::OpLogicalAnd:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual: {
      need(2), resultIs(K::Bool);
      auto [ta, a] = scalar(operandId(0), true);
      auto [tb, b] = scalar(operandId(1), true);
      c.isUndef = a->isUndef || b->isUndef;
      bool x = !a->isNull && (a->bits & 1), y = !b->isNull && (b->bits & 1);
      c.bits = op_ == Op::OpLogicalOr      ? x || y
               : op_ == Op::OpLogicalAnd   ? x && y
               : op_ == Op::OpLogicalEqual ? x == y
                                           : x != y;
      return c;
    }
    case Op::OpSConvert:
    case Op::OpUConvert:
    case Op::OpBitcast:
    case Op::OpSNegate:
    case Op::OpNot: {
      need(1), resultIs(K::Int);
      auto [t, a] = scalar(operandId(0), false);
      if (op_ != Op::OpSConvert && op_ != Op::OpUConvert && t->width != rt.width)
        reject(fmt::format("operand {} is {}-bit; expected the result's width {}", v_.nameOf(operandId(0)),
                           t->width, rt.width));
      uint64_t x = a->isNull ? 0 : a->bits;
      c.isUndef = a->isUndef;
      uint64_t r = op_ == Op::OpSConvert  ? static_cast<uint64_t>(signedOf(x, t->width))
                   : op_ == Op::OpSNegate ? uint64_t(0) - x
                   : op_ == Op::OpNot     ? ~x
                                          : x;
      c.bits = maskTo(r, rt.width);
      return c;
    }
    default:
      break;
    }
    // Binary integer operations and comparisons.
    need(2);
    auto [ta, a] = scalar(operandId(0), false);
    auto [tb, b] = scalar(operandId(1), false);
    const bool shift =
        op_ == Op::OpShiftLeftLogical || op_ == Op::OpShiftRightLogical || op_ == Op::OpShiftRightArithmetic;
    if (!shift && ta->width != tb->width)
      reject(
          fmt::format("operands are {}- and {}-bit integers; expected the same width", ta->width, tb->width));
    const bool compare = op_ >= Op::OpIEqual && op_ <= Op::OpSLessThanEqual;
    resultIs(compare ? K::Bool : K::Int);
    if (!compare && ta->width != rt.width)
      reject(fmt::format("operand {} is {}-bit; expected the result's width {}", v_.nameOf(operandId(0)),
                         ta->width, rt.width));
    c.isUndef = a->isUndef || b->isUndef;
    if (c.isUndef) return c;
    const uint32_t w = ta->width;
    const uint64_t x = a->isNull ? 0 : a->bits, y = b->isNull ? 0 : b->bits;
    const int64_t sx = signedOf(x, w), sy = signedOf(y, tb->width);
    auto divisor = [&] {
      // Undefined values, not invalid modules: an error only where they are used.
      if (y == 0)
        defer(
            fmt::format("OpSpecConstantOp {}: division by zero ({} is 0)", name_, v_.nameOf(operandId(1))));
      if (op_ != Op::OpUDiv && op_ != Op::OpUMod && sy == -1 && sx == signedOf(uint64_t(1) << (w - 1), w))
        defer(fmt::format("OpSpecConstantOp {}: signed overflow (the minimum {}-bit value divided by -1)",
                           name_, w));
    };
    uint64_t r = 0;
    switch (op_) {
    case Op::OpIAdd:
      r = x + y;
      break;
    case Op::OpISub:
      r = x - y;
      break;
    case Op::OpIMul:
      r = x * y;
      break;
    case Op::OpUDiv:
      divisor();
      r = x / y;
      break;
    case Op::OpUMod:
      divisor();
      r = x % y;
      break;
    case Op::OpSDiv:
      divisor();
      r = static_cast<uint64_t>(sx / sy);
      break;
    case Op::OpSRem:
      divisor();
      r = static_cast<uint64_t>(sx % sy);
      break;
    case Op::OpSMod: { // the sign of the divisor
      divisor();
      int64_t m = sx % sy;
      if (m != 0 && ((m < 0) != (sy < 0))) m += sy;
      r = static_cast<uint64_t>(m);
      break;
    }
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
      if (y >= w)
        defer(fmt::format("OpSpecConstantOp {}: shift amount {} is not below the width {}", name_, y, w));
      r = op_ == Op::OpShiftLeftLogical    ? x << y
          : op_ == Op::OpShiftRightLogical ? x >> y
                                           : static_cast<uint64_t>(sx >> y);
      break;
    case Op::OpBitwiseOr:
      r = x | y;
      break;
    case Op::OpBitwiseXor:
      r = x ^ y;
      break;
    case Op::OpBitwiseAnd:
      r = x & y;
      break;
    case Op::OpIEqual:
      r = x == y;
      break;
    case Op::OpINotEqual:
      r = x != y;
      break;
    case Op::OpUGreaterThan:
      r = x > y;
      break;
    case Op::OpSGreaterThan:
      r = sx > sy;
      break;
    case Op::OpUGreaterThanEqual:
      r = x >= y;
      break;
    case Op::OpSGreaterThanEqual:
      r = sx >= sy;
      break;
    case Op::OpULessThan:
      r = x < y;
      break;
    case Op::OpSLessThan:
      r = sx < sy;
      break;
    case Op::OpULessThanEqual:
      r = x <= y;
      break;
    case Op::OpSLessThanEqual:
      r = sx <= sy;
      break;
    default:
      notYet();
    }
    c.bits = compare ? r : maskTo(r, rt.width);
    return c;
  }

  // ---- composites ----
  // The constituent ids of a composite constant operand, which must have them (not null or undef).
  const Constant& composite(Id id, const char* what) {
    const Constant& c = constant(id);
    const Type* t = typeOf(c.type);
    if (!t || (t->kind != K::Vector && t->kind != K::Array && t->kind != K::Struct))
      reject(fmt::format("{} {} has type {}; expected a vector, array or struct", what, v_.nameOf(id),
                         v_.nameOf(c.type)));
    if (c.isNull || c.isUndef) notYet(fmt::format("of a {} composite", c.isNull ? "null" : "undefined"));
    return c;
  }
  // A constituent that is itself a constant (a module-scope variable's address has no Constant).
  Constant constituentCopy(Id part, Id wantType) {
    const Constant* p = v_.findConstant(part);
    if (!p) notYet(fmt::format("yielding the address of {}", v_.nameOf(part)));
    if (p->type != wantType)
      reject(fmt::format("the selected constituent has type {}; expected the result type {}",
                         v_.nameOf(p->type), v_.nameOf(wantType)));
    return *p;
  }
  // The type of member / element `index` of composite type `t`, or 0 when out of range.
  Id memberType(const Type& t, uint32_t index) const {
    if (t.kind == K::Struct) return index < t.members.size() ? t.members[index] : 0;
    return index < t.count ? t.elem : 0;
  }

  // Every part of a null or undefined composite is null or undefined too.
  Constant compositeExtract(const Type&) {
    if (inst_.operands.size() < 3) reject("OpSpecConstantOp CompositeExtract needs a composite and an index");
    Id cur = operandId(0);
    const Constant* c = &constant(cur);
    Id type = c->type;
    bool null = false, undef = false;
    for (size_t k = 2; k < inst_.operands.size(); ++k) {
      const uint32_t index = inst_.operands[k];
      const Type* t = typeOf(type);
      if (!t || (t->kind != K::Vector && t->kind != K::Array && t->kind != K::Struct))
        reject(fmt::format("index {} applied to type {}, which is not a vector, array or struct", k - 1,
                           v_.nameOf(type)));
      const Id mt = memberType(*t, index);
      if (!mt) reject(fmt::format("index {} is {}; {} has fewer members", k - 1, index, v_.nameOf(type)));
      type = mt;
      if (null || undef) continue;
      null = c->isNull, undef = c->isUndef;
      if (null || undef) continue;
      cur = c->constituents.at(index);
      c = v_.findConstant(cur);
      if (!c) notYet(fmt::format("yielding the address of {}", v_.nameOf(cur)));
    }
    if (type != inst_.resultType)
      reject(fmt::format("the extracted part has type {}; expected the result type {}", v_.nameOf(type),
                         v_.nameOf(inst_.resultType)));
    Constant r = null || undef ? Constant{} : *c;
    r.type = inst_.resultType;
    r.isNull |= null;
    r.isUndef |= undef;
    return r;
  }

  Constant compositeInsert(const Type& rt, Constant& c) {
    if (inst_.operands.size() != 4) notYet("with other than one index");
    const Id object = operandId(0), comp = operandId(1);
    const Constant& base = composite(comp, "composite");
    if (base.type != inst_.resultType)
      reject(fmt::format("composite {} has type {}; expected the result type", v_.nameOf(comp),
                         v_.nameOf(base.type)));
    const uint32_t index = inst_.operands[3];
    const Id mt = memberType(rt, index);
    if (!mt) reject(fmt::format("index {} is out of range for {}", index, v_.nameOf(inst_.resultType)));
    const Instruction& od = definedBefore(object);
    if (od.resultType != mt)
      reject(fmt::format("object {} has type {}; expected {}", v_.nameOf(object), v_.nameOf(od.resultType),
                         v_.nameOf(mt)));
    c.constituents = base.constituents;
    c.constituents[index] = object;
    return c;
  }

  Constant vectorShuffle(const Type& rt, Constant& c) {
    if (rt.kind != K::Vector)
      reject(fmt::format("result type {} is not a vector", v_.nameOf(inst_.resultType)));
    if (inst_.operands.size() != 3 + rt.count)
      reject(fmt::format("{} components for result type {}; expected {}", inst_.operands.size() - 3,
                         v_.nameOf(inst_.resultType), rt.count));
    const Constant& a = composite(operandId(0), "vector");
    const Constant& b = composite(operandId(1), "vector");
    const Type& ta = *typeOf(a.type);
    const Type& tb = *typeOf(b.type);
    if (ta.kind != K::Vector || tb.kind != K::Vector || ta.elem != rt.elem || tb.elem != rt.elem)
      reject(fmt::format("vectors of {} and {}; expected vectors of the result's component type",
                         v_.nameOf(a.type), v_.nameOf(b.type)));
    for (size_t k = 3; k < inst_.operands.size(); ++k) {
      const uint32_t sel = inst_.operands[k];
      if (sel == 0xFFFFFFFFu) notYet("with an undefined component (0xFFFFFFFF)");
      if (sel >= ta.count + tb.count)
        reject(fmt::format("component {} selects {}; the vectors have {} components", k - 3, sel,
                           ta.count + tb.count));
      c.constituents.push_back(sel < ta.count ? a.constituents[sel] : b.constituents[sel - ta.count]);
    }
    return c;
  }

  Constant select(const Type&) {
    if (inst_.operands.size() != 4) reject("OpSpecConstantOp Select needs a condition and two objects");
    const Constant& cond = constant(operandId(0));
    const Type* ct = typeOf(cond.type);
    if (ct && ct->kind == K::Vector) notYet("with a vector condition");
    if (!ct || ct->kind != K::Bool)
      reject(fmt::format("condition has type {}; expected bool", v_.nameOf(cond.type)));
    for (size_t k = 1; k <= 2; ++k)
      if (definedBefore(operandId(k)).resultType != inst_.resultType)
        reject(fmt::format("object {} does not have the result type {}", v_.nameOf(operandId(k)),
                           v_.nameOf(inst_.resultType)));
    if (cond.isUndef) notYet("with an undefined condition");
    const bool pickFirst = !cond.isNull && (cond.bits & 1);
    return constituentCopy(operandId(pickFirst ? 1 : 2), inst_.resultType);
  }

  // ---- addresses: recorded, not folded ----
  // A pointer operand: a module-scope variable, a null pointer constant or another address expression.
  const Type& pointerOperand(Id id, bool& isNull) {
    const Instruction& d = definedBefore(id);
    const Type* t = typeOf(d.resultType);
    if (!t || t->kind != K::Pointer)
      reject(fmt::format("operand {} has type {}; expected a pointer", v_.nameOf(id),
                         d.resultType ? v_.nameOf(d.resultType) : "none"));
    isNull = false;
    if (d.op() == Op::OpVariable) return *t;
    const Constant* c = v_.findConstant(id);
    if (!c)
      reject(
          fmt::format("operand {} is defined by {}; expected a module-scope variable or a constant address",
                      v_.nameOf(id), grammar::opName(d.opcode)));
    if (c->isUndef) notYet("of an undefined pointer");
    isNull = c->isNull;
    return *t;
  }
  const Type& pointerResult(const Type& rt) {
    if (rt.kind != K::Pointer)
      reject(fmt::format("result type {} is not a pointer", v_.nameOf(inst_.resultType)));
    return rt;
  }

  Constant pointerOp(const Type& rt, Constant& c) {
    const Id base = operandId(0);
    c.expr = ConstantExpr{op_, {inst_.operands.begin() + 1, inst_.operands.end()}};
    bool null = false;
    auto oneOperand = [&] {
      if (inst_.operands.size() != 2)
        reject(
            fmt::format("OpSpecConstantOp {} has {} operands; expected 1", name_, inst_.operands.size() - 1));
    };
    switch (op_) {
    case Op::OpConvertUToPtr: {
      oneOperand();
      pointerResult(rt);
      auto [t, a] = scalar(base, false);
      (void)t;
      if (a->isUndef) c.isUndef = true, c.expr.reset();
      return c;
    }
    case Op::OpConvertPtrToU: {
      oneOperand();
      if (rt.kind != K::Int)
        reject(fmt::format("result type {} is not a scalar integer", v_.nameOf(inst_.resultType)));
      pointerOperand(base, null);
      break;
    }
    case Op::OpBitcast: {
      oneOperand();
      const Instruction& d = definedBefore(base);
      const Type* from = typeOf(d.resultType);
      const bool fromPtr = from && from->kind == K::Pointer, toPtr = rt.kind == K::Pointer;
      if (fromPtr && toPtr) {
        pointerOperand(base, null);
        break;
      }
      // Between a pointer and a 64-bit integer (Physical64).
      const Type& intType = fromPtr ? rt : *from;
      if (intType.kind != K::Int || intType.width != 64)
        reject(fmt::format("Bitcast between a pointer and {}; expected a 64-bit integer",
                           v_.nameOf(fromPtr ? inst_.resultType : d.resultType)));
      if (fromPtr)
        pointerOperand(base, null);
      else {
        auto [t, a] = scalar(base, false);
        (void)t;
        if (a->isUndef) c.isUndef = true, c.expr.reset();
      }
      break;
    }
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr: {
      oneOperand();
      const Type& from = pointerOperand(base, null);
      const Type& to = pointerResult(rt);
      const bool toGeneric = op_ == Op::OpPtrCastToGeneric;
      const uint32_t generic = spv::StorageClass::Generic;
      if ((from.storageClass == generic) == toGeneric || (to.storageClass == generic) != toGeneric)
        reject(fmt::format("{} from {} to {} storage; expected {}", name_, storageName(from.storageClass),
                           storageName(to.storageClass),
                           toGeneric ? "a Workgroup, CrossWorkgroup or Function pointer to a Generic one"
                                     : "a Generic pointer to a Workgroup, CrossWorkgroup or Function one"));
      if (from.elem != to.elem)
        reject(fmt::format("pointee types {} and {} differ; expected the same", v_.nameOf(from.elem),
                           v_.nameOf(to.elem)));
      break;
    }
    default:
      accessChain(rt, null);
      break;
    }
    if (null && op_ != Op::OpAccessChain && op_ != Op::OpInBoundsAccessChain && op_ != Op::OpPtrAccessChain &&
        op_ != Op::OpInBoundsPtrAccessChain) {
      c.expr.reset(); // a cast of a null pointer is null (and converts to the integer 0)
      c.isNull = true;
    }
    return c;
  }

  // Access chains: constant integer indices, struct members in range, the walked type the result's
  // pointee, in the base's storage class.
  void accessChain(const Type& rt, bool& null) {
    const Type& from = pointerOperand(operandId(0), null);
    pointerResult(rt);
    if (rt.storageClass != from.storageClass)
      reject(fmt::format("result storage class {} differs from the base's {}", storageName(rt.storageClass),
                         storageName(from.storageClass)));
    const bool element = op_ == Op::OpPtrAccessChain || op_ == Op::OpInBoundsPtrAccessChain;
    size_t k = 1;
    if (element) scalar(operandId(k++), false);
    Id cur = from.elem;
    for (; k + 1 < inst_.operands.size(); ++k) {
      const Id idx = operandId(k);
      auto [t, c] = scalar(idx, false);
      const Type* ct = typeOf(cur);
      if (!ct || (ct->kind != K::Struct && ct->kind != K::Array && ct->kind != K::RuntimeArray &&
                  ct->kind != K::Vector))
        reject(fmt::format("index {} applied to non-composite type {}", v_.nameOf(idx), v_.nameOf(cur)));
      if (ct->kind == K::Struct) {
        const uint64_t member = c->isNull ? 0 : c->bits;
        if (c->isUndef || member >= ct->members.size())
          reject(
              fmt::format("struct member index {} is out of range for {}", v_.nameOf(idx), v_.nameOf(cur)));
        cur = ct->members[member];
      } else {
        if (c->isUndef) notYet("with an undefined index");
        cur = ct->elem;
      }
      (void)t;
    }
    if (cur != rt.elem)
      reject(fmt::format("the indices reach type {}; expected the result's pointee {}", v_.nameOf(cur),
                         v_.nameOf(rt.elem)));
  }

  const Module& m_;
  ModuleView& v_;
  uint32_t i_;
  const Instruction& inst_;
  std::function<void(std::string)> report_;
  Op op_ = Op::OpNop;
  std::string name_;
};

} // namespace

bool ViewBuilder::foldSpecConstantOp(uint32_t i, Constant& out) {
  SpecOpFolder f(m_, v_, i, [&](std::string message) { error(i, std::move(message)); });
  std::optional<Constant> c = f.fold();
  if (!c) return false;
  out = std::move(*c);
  return true;
}

} // namespace spvhls::spirv::detail
