// Vectors, translated lane by lane: a vector value is one scalar id per lane (Translator::lanes_),
// each with its own HLS IR value. Elementwise instructions become one scalar instruction per lane,
// translated as any scalar one; the vector instructions (extract, insert, construct, shuffle, dynamic
// extract and insert, any, all, dot) only pick lanes or reduce them. A vector load or store whose
// alignment covers the whole vector (through a pointer to the vector type, or a vloadn / vstoren at
// an offset provably a multiple of its size) is one access of the vector's size (a Load whose lanes
// are Extracts, a Store of the lanes' Concat, lane 0 lowest); otherwise it is one access per lane, at
// the lane's byte offset (docs/hardware-interface.md).
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "frontend/grammar.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

using K = spirv::Type::Kind;
namespace ocl = spirv::spv::OpenCLStd;

const spirv::Type* Translator::vectorType(Id type) const {
  const spirv::Type* t = type ? c_.mv.findType(type) : nullptr;
  return t && t->kind == K::Vector ? t : nullptr;
}

bool Translator::isVector(Id value) const {
  return lanes_.count(value) || vectorType(c_.typeOf(value));
}

std::vector<Id>& Translator::lanesFor(Id result, const LInst& at) {
  auto it = lanes_.find(result);
  if (it != lanes_.end()) return it->second;
  const spirv::Type* vt = vectorType(c_.typeOf(result));
  if (!vt)
    throw InternalError(c_.locOf(at.src), c_.describe(at), fmt::format("{} is not a vector", c_.ref(result)));
  std::vector<Id> lanes;
  for (uint32_t i = 0; i < vt->count; ++i) {
    const Id l = c_.freshId(result);
    c_.setType(l, vt->elem);
    if (c_.hasName(result)) c_.setName(l, fmt::format("{}.{}", c_.nameOf(result), i));
    lanes.push_back(l);
  }
  return lanes_[result] = std::move(lanes);
}

const std::vector<Id>& Translator::lanesOf(Id v, const LInst& at) {
  if (auto it = lanes_.find(v); it != lanes_.end()) return it->second;
  const spirv::Constant* k = c_.mv.findConstant(v);
  if (k && !k->constituents.empty()) return lanes_[v] = k->constituents;
  if ((k && (k->isNull || k->isUndef)) || c_.isSynthesizedUndef(v)) {
    std::vector<Id>& lanes = lanesFor(v, at);
    for (Id l : lanes) {
      const uint32_t w = widthOf(c_.typeOf(l), at);
      vals_[l] = k && k->isNull ? b_.constant(w, 0) : b_.undef(w);
    }
    return lanes;
  }
  // Defined later (a phi's operand along a back edge): its lanes get their values then.
  return lanesFor(v, at);
}

Translator::Ptr Translator::offsetPtr(const Ptr& p, uint64_t bytes) {
  if (bytes == 0) return p;
  return Ptr{p.memory, b_.binary(OpKind::Add, p.offset, b_.constant(64, bytes)), p.set};
}

void Translator::translatePhi(const LInst& in) {
  // Operands are filled once every block has been translated (back edges): fillPhis.
  auto phi = [&](Id result, uint32_t width) {
    Op op;
    op.kind = OpKind::Phi;
    op.spirvId = c_.origin(result);
    if (c_.hasName(result)) op.name = c_.nameOf(result);
    op.type = Type::bits(width);
    return b_.emit(std::move(op));
  };
  if (isVector(in.result)) {
    const std::vector<Id> lanes = lanesFor(in.result, in);
    for (size_t i = 0; i < lanes.size(); ++i) {
      const ValueId v = phi(lanes[i], widthOf(c_.typeOf(lanes[i]), in));
      vals_[lanes[i]] = v;
      phis_.push_back({v, &in, false, int(i)});
    }
  } else if (c_.isPointerValue(in.result)) {
    const int m = memOf_.at(in.result);
    if (m < 0) return; // only undefined pointers flow in: using it fails later
    const ValueId v = phi(in.result, 64);
    ptrs_[in.result] = pointerIn(m, v);
    phis_.push_back({v, &in, true, -1});
  } else {
    const ValueId v = phi(in.result, widthOf(in.type, in));
    vals_[in.result] = v;
    phis_.push_back({v, &in, false, -1});
  }
}

// Bits [from, from + width) of the lanes laid end to end (lane 0 lowest), all lanes `laneBits` wide;
// the range is within one lane or covers whole lanes.
ValueId Translator::laneBits(const std::vector<ValueId>& lanes, uint32_t laneBits, uint32_t from,
                             uint32_t width) {
  if (width <= laneBits) {
    const ValueId v = lanes.at(from / laneBits);
    const uint32_t shift = from % laneBits;
    return b_.resize(shift ? b_.binary(OpKind::LShr, v, b_.constant(laneBits, shift)) : v, width, false);
  }
  ValueId r = kNone;
  for (uint32_t k = 0; k < width / laneBits; ++k) {
    ValueId part = b_.resize(lanes.at(from / laneBits + k), width, false);
    if (k) part = b_.binary(OpKind::Shl, part, b_.constant(width, uint64_t(k) * laneBits));
    r = r == kNone ? part : b_.binary(OpKind::Or, r, part);
  }
  return r;
}

namespace {

// log2 of the largest power of two (up to 2^32) that byte offset `v` is known to be a multiple of:
// constants, and sums, differences, extensions, shifts and products of such values; 0 otherwise.
// Wrapping at 64 bits keeps these multiples.
uint32_t knownAlignmentLog2(const Builder& b, ValueId v, int depth = 0) {
  constexpr uint32_t kMax = 32;
  if (v == kNone || depth > 16) return 0;
  const Op& op = b.op(v);
  auto of = [&](size_t i) { return knownAlignmentLog2(b, op.operands.at(i), depth + 1); };
  switch (op.kind) {
  case OpKind::Const:
    return op.imm == 0 ? kMax : std::min<uint32_t>(kMax, std::countr_zero(op.imm));
  case OpKind::Add:
  case OpKind::Sub:
    return std::min(of(0), of(1));
  case OpKind::ZExt:
  case OpKind::SExt:
    return of(0);
  case OpKind::Mul:
    return std::min(kMax, of(0) + of(1));
  case OpKind::Shl:
    if (auto s = b.constValue(op.operands.at(1)); s && *s < op.width())
      return std::min<uint32_t>(kMax, of(0) + *s);
    return 0;
  default:
    return 0;
  }
}

} // namespace

uint32_t Translator::wholeVectorBytes(const spirv::Type* vt, uint64_t aligned, const LInst& at) const {
  const uint32_t bytes = vt->count * accessSize(vt->elem, at);
  // A 3-lane vector is 4 lanes wide in memory and must not touch the fourth: lane by lane.
  if (!std::has_single_bit(bytes) || bytes > kMaxAccessBytes) return 0;
  return aligned == 0 || aligned >= bytes ? bytes : 0;
}

std::vector<ValueId> Translator::loadVector(const Ptr& p, const spirv::Type* vt, uint64_t aligned,
                                            const LInst& at) {
  const uint32_t eb = accessSize(vt->elem, at), lane = 8 * eb;
  std::vector<ValueId> v;
  // Through a pointer into one of several memories the loads join in a phi, which would be wide.
  const uint32_t bytes = p.set < 0 ? wholeVectorBytes(vt, aligned, at) : 0;
  if (bytes) {
    const ValueId all = emitLoad(p, bytes, at);
    for (uint32_t i = 0; i < vt->count; ++i)
      v.push_back(b_.extract(all, i * lane, lane));
    return v;
  }
  for (uint32_t i = 0; i < vt->count; ++i)
    v.push_back(emitLoad(offsetPtr(p, uint64_t(i) * eb), eb, at));
  return v;
}

void Translator::storeVector(const Ptr& p, const spirv::Type* vt, const std::vector<ValueId>& lanes,
                             uint64_t aligned, const LInst& at) {
  const uint32_t eb = accessSize(vt->elem, at);
  if (const uint32_t bytes = wholeVectorBytes(vt, aligned, at)) {
    emitStore(p, b_.concat(lanes), bytes, at);
    return;
  }
  for (uint32_t i = 0; i < lanes.size(); ++i)
    emitStore(offsetPtr(p, uint64_t(i) * eb), lanes[i], eb, at);
}

bool Translator::translateVector(const LInst& in) {
  if (in.op == SpvOp::OpVariable) return false; // a vector initializer is bytes in memory
  const spirv::Type* rt = vectorType(in.type);
  bool vectorOperand = false;
  for (Id id : in.ids)
    vectorOperand = vectorOperand || isVector(id);
  if (!rt && !vectorOperand) return false;
  auto value = [&](Id lane) { return valueOf(lane, in); };
  // The result's lanes, bound to values.
  auto bind = [&](const std::vector<ValueId>& values) {
    const std::vector<Id>& lanes = lanesFor(in.result, in);
    if (lanes.size() != values.size())
      c_.failAt(in, fmt::format("gives {} components for a {}", values.size(), c_.typeName(in.type)));
    for (size_t i = 0; i < lanes.size(); ++i)
      vals_[lanes[i]] = values[i];
  };
  auto laneValues = [&](Id v) {
    std::vector<ValueId> out;
    for (Id l : lanesOf(v, in))
      out.push_back(value(l));
    return out;
  };
  const uint32_t n = rt ? rt->count : 0;
  switch (in.op) {
  case SpvOp::OpLoad: {
    // Through a pointer to the vector type: aligned to the vector's size (OpenCL) unless an Aligned
    // operand says less.
    const Ptr p = ptrOf(in.ids[0], in);
    bind(loadVector(p, rt, in.lits.empty() ? 0 : in.lits[0], in));
    return true;
  }
  case SpvOp::OpStore: {
    const Ptr p = ptrOf(in.ids[0], in);
    storeVector(p, vectorType(c_.typeOf(in.ids[1])), laneValues(in.ids[1]), in.lits.empty() ? 0 : in.lits[0],
                in);
    return true;
  }
  case SpvOp::OpCompositeExtract: {
    if (!isVector(in.ids[0]) || in.lits.size() != 1) return false;
    const auto& lanes = lanesOf(in.ids[0], in);
    if (in.lits[0] >= lanes.size()) c_.failAt(in, fmt::format("component {} is out of range", in.lits[0]));
    vals_[in.result] = value(lanes[in.lits[0]]);
    return true;
  }
  case SpvOp::OpCompositeInsert: {
    std::vector<ValueId> v = laneValues(in.ids[1]);
    if (in.lits.size() != 1 || in.lits[0] >= v.size())
      c_.failAt(in, "expected one component index within the vector");
    v[in.lits[0]] = value(in.ids[0]);
    bind(v);
    return true;
  }
  case SpvOp::OpCompositeConstruct: {
    std::vector<ValueId> v;
    for (Id id : in.ids)
      if (isVector(id))
        for (ValueId x : laneValues(id))
          v.push_back(x);
      else
        v.push_back(value(id));
    bind(v);
    return true;
  }
  case SpvOp::OpVectorShuffle: {
    std::vector<ValueId> all = laneValues(in.ids[0]), second = laneValues(in.ids[1]), v;
    all.insert(all.end(), second.begin(), second.end());
    for (uint64_t c : in.lits)
      if (c == 0xFFFFFFFF)
        v.push_back(b_.undef(widthOf(rt->elem, in)));
      else if (c < all.size())
        v.push_back(all[c]);
      else
        c_.failAt(in, fmt::format("component {} is out of range ({} components)", c, all.size()));
    bind(v);
    return true;
  }
  case SpvOp::OpVectorExtractDynamic:
  case SpvOp::OpVectorInsertDynamic: {
    // A chain of selects on the index (an index out of range is undefined: lane 0, or no change).
    const bool insert = in.op == SpvOp::OpVectorInsertDynamic;
    std::vector<ValueId> v = laneValues(in.ids[0]);
    const ValueId idx = value(in.ids[insert ? 2 : 1]);
    auto is = [&](size_t i) { return b_.binary(OpKind::Eq, idx, b_.constant(b_.width(idx), i)); };
    if (insert) {
      const ValueId x = value(in.ids[1]);
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = b_.select(is(i), x, v[i]);
      bind(v);
    } else {
      ValueId r = v[0];
      for (size_t i = 1; i < v.size(); ++i)
        r = b_.select(is(i), v[i], r);
      vals_[in.result] = r;
    }
    return true;
  }
  case SpvOp::OpAny:
  case SpvOp::OpAll: {
    const std::vector<ValueId> v = laneValues(in.ids[0]);
    ValueId r = v[0];
    for (size_t i = 1; i < v.size(); ++i)
      r = b_.binary(in.op == SpvOp::OpAny ? OpKind::Or : OpKind::And, r, v[i]);
    vals_[in.result] = r;
    return true;
  }
  case SpvOp::OpDot: {
    // Lane products added in lane order, each operation rounded (as the interpreter computes it).
    const std::vector<ValueId> x = laneValues(in.ids[0]), y = laneValues(in.ids[1]);
    ValueId r = b_.binary(OpKind::FMul, x[0], y[0]);
    for (size_t i = 1; i < x.size(); ++i)
      r = b_.binary(OpKind::FAdd, r, b_.binary(OpKind::FMul, x[i], y[i]));
    vals_[in.result] = r;
    return true;
  }
  case SpvOp::OpBitcast: {
    // Lanes of another width (or a scalar as one lane): the same bits regrouped.
    std::vector<ValueId> src =
        isVector(in.ids[0]) ? laneValues(in.ids[0]) : std::vector<ValueId>{value(in.ids[0])};
    const uint32_t wi = b_.width(src[0]);
    const uint32_t wo = widthOf(rt ? rt->elem : in.type, in), lanesOut = rt ? n : 1;
    if (uint64_t(wi) * src.size() != uint64_t(wo) * lanesOut)
      c_.failAt(in, fmt::format("bit cast between {} and {} of different sizes",
                                c_.typeName(c_.typeOf(in.ids[0])), c_.typeName(in.type)));
    std::vector<ValueId> v;
    for (uint32_t j = 0; j < lanesOut; ++j)
      v.push_back(laneBits(src, wi, j * wo, wo));
    if (rt)
      bind(v);
    else
      vals_[in.result] = v[0];
    return true;
  }
  case SpvOp::OpExtInst:
    if (in.lits.at(0) == ocl::Vloadn || in.lits.at(0) == ocl::Vstoren) {
      // vloadn(offset, p): the n elements at p + offset * n; vstoren(data, offset, p) stores them.
      const bool load = in.lits[0] == ocl::Vloadn;
      const Id data = load ? 0 : in.ids.at(1), offId = in.ids.at(load ? 1 : 2),
               ptrId = in.ids.at(load ? 2 : 3);
      const spirv::Type* vt = load ? rt : vectorType(c_.typeOf(data));
      if (!vt) return false;
      const uint32_t eb = accessSize(vt->elem, in);
      const Ptr p = ptrOf(ptrId, in);
      const ValueId off = b_.mulConst(b_.resize(value(offId), 64, false), uint64_t(vt->count) * eb);
      const Ptr base{p.memory, b_.binary(OpKind::Add, p.offset, off), p.set};
      // The pointer is only aligned to the element (OpenCL): the vector is accessed whole only where
      // the offset is provably a multiple of its size (the offset argument scaled, on a base that is),
      // else lane by lane.
      const uint64_t aligned = std::max<uint64_t>(eb, uint64_t(1) << knownAlignmentLog2(b_, base.offset));
      if (load)
        bind(loadVector(base, vt, aligned, in));
      else
        storeVector(base, vt, laneValues(data), aligned, in);
      return true;
    }
    break;
  default:
    break;
  }
  if (!rt)
    c_.failAt(in,
              fmt::format("{} with a vector operand and a scalar result is not supported in hardware yet",
                          in.op == SpvOp::OpExtInst ? "this OpenCL.std function"
                                                    : spirv::grammar::opName(static_cast<uint16_t>(in.op))));
  // Elementwise: one scalar instruction per lane; scalar operands (an instruction set, a select's
  // condition) are shared by the lanes.
  const std::vector<Id> lanes = lanesFor(in.result, in);
  for (size_t i = 0; i < lanes.size(); ++i) {
    LInst lane = in;
    lane.type = c_.typeOf(lanes[i]);
    lane.result = lanes[i];
    for (Id& id : lane.ids)
      if (isVector(id)) {
        const auto& ls = lanesOf(id, in);
        if (ls.size() != lanes.size())
          c_.failAt(in, fmt::format("operand {} has {} components, the result {}", c_.ref(id), ls.size(),
                                    lanes.size()));
        id = ls[i];
      }
    translateInst(lane);
  }
  return true;
}

} // namespace spvhls::ir::lower
