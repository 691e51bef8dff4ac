// Work-group collectives in hardware (OpGroup* at Workgroup scope: work_group_reduce_*, _scan_*,
// work_group_broadcast, _all, _any), translated into a running value in a small local memory and, for
// a result every work-item reads, a barrier (lower_barriers.cpp builds the loops around it).
#include <fmt/format.h>

#include <bit>

#include "frontend/grammar.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace bi = spirv::spv::BuiltIn;

// A work-group collective (OpGroup* at Workgroup scope) as the work-items of a group reach it in
// local order: each combines its value with a running accumulator in a small local memory (the first
// work-item starts it, as the interpreter's order does), which gives the scans at once; for a
// reduction, broadcast, all or any, the last work-item also writes the result, and after a barrier
// every work-item reads it. The last one writing it (not each in turn) keeps a collective in a loop
// right: no work-item of the next round overwrites the result before every one has read it.
bool Translator::translateWorkGroupCollective(const LInst& in) {
  using O = SpvOp;
  enum class Kind { Combine, Broadcast };
  Kind kind = Kind::Combine;
  SgCombine combine = SgCombine::Add;
  uint64_t mode = 0; // 0 reduce, 1 inclusive scan, 2 exclusive scan
  switch (in.op) {
  case O::OpGroupIAdd:
    combine = SgCombine::Add;
    break;
  case O::OpGroupUMin:
    combine = SgCombine::UMin;
    break;
  case O::OpGroupSMin:
    combine = SgCombine::SMin;
    break;
  case O::OpGroupUMax:
    combine = SgCombine::UMax;
    break;
  case O::OpGroupSMax:
    combine = SgCombine::SMax;
    break;
  case O::OpGroupFAdd:
    combine = SgCombine::FAdd;
    break;
  case O::OpGroupFMin:
    combine = SgCombine::FMin;
    break;
  case O::OpGroupFMax:
    combine = SgCombine::FMax;
    break;
  case O::OpGroupAll:
    combine = SgCombine::And;
    break;
  case O::OpGroupAny:
    combine = SgCombine::Or;
    break;
  case O::OpGroupBroadcast:
    kind = Kind::Broadcast;
    break;
  default:
    c_.failAt(in,
              "expected one of OpGroupAll, Any, Broadcast, IAdd, FAdd, UMin, SMin, FMin, UMax, SMax, FMax at "
              "Workgroup scope (the OpGroupNonUniform* instructions are built at Subgroup scope only)");
  }
  const bool arith = in.op != O::OpGroupAll && in.op != O::OpGroupAny && kind != Kind::Broadcast;
  if (arith) {
    mode = in.lits.at(0);
    if (mode > 2 || in.ids.size() > 2)
      c_.failAt(in,
                fmt::format("GroupOperation {} is not built in hardware; expected Reduce, InclusiveScan or "
                            "ExclusiveScan",
                            spirv::grammar::enumName(spirv::OperandKind::GroupOperation, uint32_t(mode))));
  }
  if (vectorType(in.type))
    c_.failAt(in, fmt::format("work-group collectives on vectors ({}) are not built in hardware yet",
                              c_.typeName(in.type)));
  const uint32_t w = widthOf(in.type, in);
  const uint32_t bytes = std::bit_ceil((w + 7) / 8);
  const ValueId x = operandOf(in.ids.at(1), w, in);
  auto workItem = [&](uint32_t builtin, uint32_t comp) {
    Op op;
    op.kind = OpKind::WorkItem;
    op.type = Type::bits(32);
    op.index = builtin;
    op.imm = comp;
    return b_.emit(std::move(op));
  };
  const ValueId index = workItem(bi::LocalInvocationIndex, 0);
  const ValueId first = b_.binary(OpKind::Eq, index, b_.constant(32, 0));
  const ValueId items = b_.binary(
      OpKind::Mul, b_.binary(OpKind::Mul, workItem(bi::WorkgroupSize, 0), workItem(bi::WorkgroupSize, 1)),
      workItem(bi::WorkgroupSize, 2));
  const ValueId last = b_.binary(OpKind::Eq, index, b_.binary(OpKind::Sub, items, b_.constant(32, 1)));

  Memory m;
  m.kind = Memory::Kind::WorkGroup;
  m.collective = true;
  m.name = fmt::format("collective.{}", c_.nameOf(in.result));
  m.sizeBytes = 2 * bytes;
  m.elemBytes = bytes;
  const uint32_t memory = newMemory(std::move(m));
  const Ptr accAt{memory, b_.constant(64, 0), -1}, resultAt{memory, b_.constant(64, bytes), -1};
  auto stored = [&](ValueId v) { return w < 8 * bytes ? b_.resize(v, 8 * bytes, false) : v; };
  auto loaded = [&](ValueId v) { return w < 8 * bytes ? b_.resize(v, w, false) : v; };
  const ValueId old = loaded(emitLoad(accAt, bytes, in));
  ValueId now = kNone;
  switch (kind) {
  case Kind::Combine:
    now = combineValues(b_, combine, old, x);
    break;
  case Kind::Broadcast: {
    // LocalId: a scalar (dimension 0, the others 0) or a vector of 2 or 3 components.
    const Id idId = in.ids.at(2);
    std::vector<ValueId> id;
    if (vectorType(c_.typeOf(idId)))
      for (Id lane : lanesOf(idId, in))
        id.push_back(valueOf(lane, in));
    else
      id.push_back(valueOf(idId, in));
    ValueId match = kNone;
    for (uint32_t d = 0; d < 3; ++d) {
      const ValueId want = d < id.size() ? b_.resize(id[d], 64, false) : b_.constant(64, 0);
      const ValueId here = b_.resize(workItem(bi::LocalInvocationId, d), 64, false);
      match = b_.predAnd(match, b_.binary(OpKind::Eq, here, want));
    }
    now = b_.select(match, x, old);
    break;
  }
  }
  if (kind != Kind::Broadcast) now = b_.select(first, x, now);
  emitStore(accAt, stored(now), bytes, in);
  ValueId r = now; // an inclusive scan
  if (mode == 2)   // the first work-item gets the identity (+0.0 for FAdd, +-infinity for FMin / FMax)
    r = b_.select(first, b_.constant(w, combineIdentity(combine, w)), old);
  if (mode == 0) {
    // The last work-item writes the result (a block of its own: CFG stores take no predicate), and
    // after a barrier every work-item reads it.
    storeIf(last, resultAt, stored(now), bytes, in, "collective.last");
    Op barrier;
    barrier.kind = OpKind::Barrier;
    barrier.name = "barrier";
    b_.emit(std::move(barrier));
    r = loaded(emitLoad(resultAt, bytes, in));
  }
  vals_[in.result] = r;
  return true;
}

} // namespace spvhls::ir::lower
