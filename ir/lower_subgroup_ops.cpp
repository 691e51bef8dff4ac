// Subgroups in translation: the shuffles of SPV_INTEL_subgroups and the core group instructions at
// Subgroup scope read as Sg* ops on one lane's values (Translator::translateSubgroup), and block reads
// and writes as each lane's element accesses; lower_subgroups.cpp builds the lanes from them.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>

#include "frontend/grammar.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace {
constexpr uint64_t kSubgroupScope = 3, kWorkgroupScope = 2;
} // namespace

ValueId combineValues(Builder& b, SgCombine c, ValueId a, ValueId x) {
  switch (c) {
  case SgCombine::Add:
    return b.binary(OpKind::Add, a, x);
  case SgCombine::Mul:
    return b.binary(OpKind::Mul, a, x);
  case SgCombine::And:
    return b.binary(OpKind::And, a, x);
  case SgCombine::Or:
    return b.binary(OpKind::Or, a, x);
  case SgCombine::Xor:
    return b.binary(OpKind::Xor, a, x);
  case SgCombine::SMin:
    return b.select(b.binary(OpKind::SLt, x, a), x, a);
  case SgCombine::UMin:
    return b.select(b.binary(OpKind::ULt, x, a), x, a);
  case SgCombine::SMax:
    return b.select(b.binary(OpKind::SGt, x, a), x, a);
  case SgCombine::UMax:
    return b.select(b.binary(OpKind::UGt, x, a), x, a);
  case SgCombine::FAdd:
    return b.binary(OpKind::FAdd, a, x);
  case SgCombine::FMul:
    return b.binary(OpKind::FMul, a, x);
  case SgCombine::FMin:
    return floatMinMax(b, false, a, x);
  case SgCombine::FMax:
    return floatMinMax(b, true, a, x);
  }
  return a;
}

uint64_t combineIdentity(SgCombine c, uint32_t w) {
  const uint64_t ones = w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1, sign = uint64_t(1) << (w - 1);
  const uint64_t inf = w == 16 ? 0x7c00 : w == 32 ? 0x7f800000 : 0x7ff0000000000000;
  switch (c) {
  case SgCombine::FMul: // 1.0
    return w == 16 ? 0x3c00 : w == 32 ? 0x3f800000 : 0x3ff0000000000000;
  case SgCombine::FMin:
    return inf;
  case SgCombine::FMax:
    return inf | sign;
  case SgCombine::Mul:
    return 1;
  case SgCombine::And:
  case SgCombine::UMin:
    return ones;
  case SgCombine::SMin:
    return ones >> 1;
  case SgCombine::SMax:
    return sign;
  default:
    return 0; // Add, Or, Xor, UMax; FAdd: +0.0, as the interpreter
  }
}

bool Translator::translateSubgroup(const LInst& in) {
  using O = SpvOp;
  const bool shuffle = in.op == O::OpSubgroupShuffleINTEL || in.op == O::OpSubgroupShuffleDownINTEL ||
                       in.op == O::OpSubgroupShuffleUpINTEL || in.op == O::OpSubgroupShuffleXorINTEL;
  std::optional<SgCombine> combine;
  switch (in.op) {
  case O::OpGroupIAdd:
  case O::OpGroupNonUniformIAdd:
    combine = SgCombine::Add;
    break;
  case O::OpGroupNonUniformIMul:
    combine = SgCombine::Mul;
    break;
  case O::OpGroupSMin:
  case O::OpGroupNonUniformSMin:
    combine = SgCombine::SMin;
    break;
  case O::OpGroupUMin:
  case O::OpGroupNonUniformUMin:
    combine = SgCombine::UMin;
    break;
  case O::OpGroupSMax:
  case O::OpGroupNonUniformSMax:
    combine = SgCombine::SMax;
    break;
  case O::OpGroupUMax:
  case O::OpGroupNonUniformUMax:
    combine = SgCombine::UMax;
    break;
  case O::OpGroupNonUniformBitwiseAnd:
  case O::OpGroupNonUniformLogicalAnd:
    combine = SgCombine::And;
    break;
  case O::OpGroupNonUniformBitwiseOr:
  case O::OpGroupNonUniformLogicalOr:
    combine = SgCombine::Or;
    break;
  case O::OpGroupNonUniformBitwiseXor:
  case O::OpGroupNonUniformLogicalXor:
    combine = SgCombine::Xor;
    break;
  // Floats: a chain in lane order, every step rounded, as the interpreter's (one order OpenCL allows).
  case O::OpGroupFAdd:
  case O::OpGroupNonUniformFAdd:
    combine = SgCombine::FAdd;
    break;
  case O::OpGroupNonUniformFMul:
    combine = SgCombine::FMul;
    break;
  case O::OpGroupFMin:
  case O::OpGroupNonUniformFMin:
    combine = SgCombine::FMin;
    break;
  case O::OpGroupFMax:
  case O::OpGroupNonUniformFMax:
    combine = SgCombine::FMax;
    break;
  default:
    break;
  }
  const bool group = combine || in.op == O::OpGroupBroadcast || in.op == O::OpGroupNonUniformBroadcast ||
                     in.op == O::OpGroupNonUniformBroadcastFirst || in.op == O::OpGroupAll ||
                     in.op == O::OpGroupAny || in.op == O::OpGroupNonUniformAll ||
                     in.op == O::OpGroupNonUniformAny || in.op == O::OpGroupNonUniformAllEqual ||
                     in.op == O::OpGroupNonUniformElect;
  if (in.op == O::OpSubgroupBlockReadINTEL || in.op == O::OpSubgroupBlockWriteINTEL) {
    blockAccess(in);
    return true;
  }
  if (!shuffle && !group) return false;
  if (group) {
    const spirv::Constant* scope = c_.mv.findConstant(in.ids.at(0));
    if (scope && scope->bits == kWorkgroupScope) return translateWorkGroupCollective(in);
    if (!scope || scope->bits != kSubgroupScope)
      c_.failAt(in, "expected Subgroup or Workgroup scope (the group scopes built in hardware)");
  }
  if (vectorType(in.type))
    c_.failAt(in, fmt::format("subgroup operations on vectors ({}) are not built in hardware yet",
                              c_.typeName(in.type)));
  const uint32_t w = widthOf(in.type, in);
  auto emit = [&](OpKind kind, std::vector<ValueId> operands, uint32_t width, uint32_t index = 0,
                  uint64_t imm = 0) {
    Op op;
    op.kind = kind;
    op.type = Type::bits(width);
    op.operands = std::move(operands);
    op.index = index;
    op.imm = imm;
    return b_.emit(std::move(op));
  };
  auto lane32 = [&](Id id) { return b_.resize(valueOf(id, in), 32, false); };
  auto value = [&](size_t i) { return operandOf(in.ids.at(i), w, in); };
  ValueId r = kNone;
  switch (in.op) {
  case O::OpSubgroupShuffleINTEL:
    r = emit(OpKind::SgShuffle, {value(0), lane32(in.ids.at(1))}, w);
    break;
  case O::OpSubgroupShuffleDownINTEL:
    r = emit(OpKind::SgShuffleDown, {value(0), value(1), lane32(in.ids.at(2))}, w);
    break;
  case O::OpSubgroupShuffleUpINTEL:
    r = emit(OpKind::SgShuffleUp, {value(0), value(1), lane32(in.ids.at(2))}, w);
    break;
  case O::OpSubgroupShuffleXorINTEL:
    r = emit(OpKind::SgShuffleXor, {value(0), lane32(in.ids.at(1))}, w);
    break;
  case O::OpGroupBroadcast:
  case O::OpGroupNonUniformBroadcast:
    if (vectorType(c_.typeOf(in.ids.at(2))))
      c_.failAt(in, "expected a scalar LocalId at Subgroup scope (a subgroup local id)");
    r = emit(OpKind::SgShuffle, {value(1), lane32(in.ids.at(2))}, w);
    break;
  case O::OpGroupNonUniformBroadcastFirst: // every lane is active: the first is lane 0
    r = emit(OpKind::SgShuffle, {value(1), b_.constant(32, 0)}, w);
    break;
  case O::OpGroupAll:
  case O::OpGroupNonUniformAll:
    r = emit(OpKind::SgScan, {value(1)}, 1, uint32_t(SgCombine::And));
    break;
  case O::OpGroupAny:
  case O::OpGroupNonUniformAny:
    r = emit(OpKind::SgScan, {value(1)}, 1, uint32_t(SgCombine::Or));
    break;
  case O::OpGroupNonUniformAllEqual: {
    const uint32_t vw = widthOf(c_.typeOf(in.ids.at(1)), in);
    const ValueId v = operandOf(in.ids.at(1), vw, in);
    const ValueId first = emit(OpKind::SgShuffle, {v, b_.constant(32, 0)}, vw);
    r = emit(OpKind::SgScan, {b_.binary(OpKind::Eq, v, first)}, 1, uint32_t(SgCombine::And));
    break;
  }
  case O::OpGroupNonUniformElect:
    r = b_.binary(OpKind::Eq, b_.emit(laneOp()), b_.constant(32, 0));
    break;
  default: { // the reductions and scans
    const uint64_t mode = in.lits.at(0);
    if (mode > 2 || in.ids.size() > 2)
      c_.failAt(
          in, fmt::format("GroupOperation {} is not built in hardware yet; expected Reduce, InclusiveScan or "
                          "ExclusiveScan",
                          spirv::grammar::enumName(spirv::OperandKind::GroupOperation, uint32_t(mode))));
    r = emit(OpKind::SgScan, {value(1)}, w, uint32_t(*combine), mode);
    break;
  }
  }
  vals_[in.result] = r;
  return true;
}

// OpSubgroupBlockReadINTEL / WriteINTEL on a buffer: component k of lane i at Ptr[i + k * S], the
// pointer the same in every lane. Each lane's access here; when the lanes are built, consecutive ones
// become one wide access where the pointer is provably aligned (LaneBuilder::widen).
void Translator::blockAccess(const LInst& in) {
  const bool read = in.op == SpvOp::OpSubgroupBlockReadINTEL;
  const Id type = read ? in.type : c_.typeOf(in.ids.at(1));
  const spirv::Type* vt = vectorType(type);
  const Id elem = vt ? vt->elem : type;
  const uint32_t eb = accessSize(elem, in), n = vt ? vt->count : 1;
  const Ptr p = ptrOf(in.ids.at(0), in);
  Op lanes; // the subgroup's size: S (lower_ndrange.cpp)
  lanes.kind = OpKind::WorkItem;
  lanes.type = Type::bits(32);
  lanes.index = spirv::spv::BuiltIn::SubgroupMaxSize;
  lanes.name = "max_sub_group_size";
  const ValueId laneV = b_.resize(b_.emit(laneOp()), 64, false);
  const ValueId size = b_.resize(b_.emit(std::move(lanes)), 64, false);
  std::vector<ValueId> data;
  if (!read)
    data = vt ? [&] {
    std::vector<ValueId> v;
    for (Id l : lanesOf(in.ids[1], in)) v.push_back(valueOf(l, in));
    return v;
  }()
                       : std::vector<ValueId>{valueOf(in.ids[1], in)};
  std::vector<ValueId> loaded;
  for (uint32_t k = 0; k < n; ++k) {
    const ValueId element = k == 0 ? laneV : b_.binary(OpKind::Add, laneV, b_.mulConst(size, k));
    const Ptr at{p.memory, b_.binary(OpKind::Add, p.offset, b_.mulConst(element, eb)), p.set};
    if (read)
      loaded.push_back(emitLoad(at, eb, in));
    else
      emitStore(at, data.at(k), eb, in);
  }
  if (!read) return;
  if (!vt) {
    vals_[in.result] = loaded[0];
    return;
  }
  const std::vector<Id>& out = lanesFor(in.result, in);
  for (uint32_t k = 0; k < n; ++k)
    vals_[out[k]] = loaded[k];
}

} // namespace spvhls::ir::lower
