// The operator library: latency and resource class of every HLS IR operation on the target.
//
// Default target "generic-6lut-300mhz" (Target defaults: memLatency 4, mulLatency 3):
//
//   operation                                        latency                     resource
//   -----------------------------------------------  --------------------------  ------------
//   Const Arg LiveIn LoopPhi Undef                   0 (wires / registers)       -
//   ZExt SExt Trunc Phi LoopOut                      0 (wires)                   -
//   Add Sub Neg Not And Or Xor Shl LShr AShr         1                           -
//   Eq Ne ULt ULe UGt UGe SLt SLe SGt SGe Select     1                           -
//   Mul                                              mulLatency (3), +2 > 32 bit -
//   UDiv SDiv URem SRem SMod                         width + 2 (pipelined array) -
//   Load                                             memLatency + 1 (5)          its memory port
//   Store                                            1                           its memory port
//   LoopCall                                         1 (the FSM then waits)      -
#include <fmt/format.h>

#include "scheduler/schedule.h"

namespace spvhls::sched {

uint32_t OperatorLibrary::latency(const ir::Op& op) const {
  using K = ir::OpKind;
  switch (op.kind) {
  case K::Const: case K::Arg: case K::LiveIn: case K::LoopPhi: case K::Undef:
  case K::ZExt: case K::SExt: case K::Trunc: case K::Phi: case K::LoopOut:
    return 0;
  case K::Add: case K::Sub: case K::Neg: case K::Not: case K::And: case K::Or: case K::Xor:
  case K::Shl: case K::LShr: case K::AShr:
  case K::Eq: case K::Ne: case K::ULt: case K::ULe: case K::UGt: case K::UGe:
  case K::SLt: case K::SLe: case K::SGt: case K::SGe: case K::Select:
  case K::Store:
  case K::LoopCall:
    return 1;
  case K::Mul:
    return op.width() > 32 ? target_.mulLatency + 2 : target_.mulLatency;
  case K::UDiv: case K::SDiv: case K::URem: case K::SRem: case K::SMod:
    return uint32_t(op.width()) + 2;
  case K::Load:
    return target_.memLatency + 1;
  }
  // Only reachable with an OpKind value outside the enum: a corrupted IR, not a user error.
  throw InternalError(op.loc, "operator library", fmt::format("no latency for operation kind {}", int(op.kind)));
}

int OperatorLibrary::resource(const ir::Op& op) const {
  if (op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store) return int(op.memory);
  return -1;
}

std::string valueName(const ir::Op& op, uint32_t index) {
  if (!op.name.empty()) return "%" + op.name;
  if (op.spirvId != 0) return fmt::format("%{}", op.spirvId);
  return fmt::format("#{}", index);
}

std::string opLabel(const ir::Op& op, uint32_t index) {
  return fmt::format("{} {}", ir::opKindName(op.kind), valueName(op, index));
}

} // namespace spvhls::sched
