// The operator library: the unit (latency, own II, delay, resource, build) of every HLS IR operation
// on the target. The scheduler's problem builders, the microarchitecture plan (loop positions, FSM
// form cycles) and the generators all read OperatorLibrary::unit(); nothing else decides timing.
//
// Default target "generic-6lut-300mhz" (Target defaults: memLatency 4, mulLatency 3):
//
//   operation                              latency             II  build       result on a wire  resource
//   -------------------------------------  ------------------  --  ----------  ----------------  ---------
//   Const Arg LiveIn LoopPhi Undef         0                   1   Wire        0                 -
//   ZExt SExt Trunc Extract Concat Phi     0                   1   Wire        0                 -
//   LoopOut
//   Add Sub Neg Not And Or Xor Shl LShr    1                   1   Inline      0                 -
//   AShr Eq Ne ULt ULe UGt UGe SLt SLe
//   SGt SGe Select
//   Mul                                    mulLatency (3),     1   Instance    latency - 1 [4]   -
//                                          +2 above 32 bit
//   UDiv SDiv URem SRem SMod               width + 2           1   Instance    width + 1 [1]     -
//   FAdd FSub (f16 / f32 / f64)            4 / 5 / 6           1   Instance    latency - 1 [2]   -
//   FMul (f16 / f32 / f64)                 3 / 4 / 5           1   Instance    latency - 1 [2]   -
//   FFma (f16 / f32 / f64)                 5 / 5 / 7           1   Instance    latency - 1 [2]   -
//   FDiv (f16 / f32 / f64)                 16 / 29 / 58        1   Instance    latency - 1 [2]   -
//   FSqrt (f16 / f32 / f64)                13 / 26 / 55        1   Instance    latency - 1 [2]   -
//   SIToFP UIToFP FPToSI FPToUI FPToFP     3                   1   Instance    2 [2]             -
//   Load                                   memLatency + 1 (5)  1   MemoryPort  memLatency (4)    port,
//                                                                              [5]               1/cycle
//   Load from an on-chip RAM               2                   1   MemoryPort  1                 port,
//                                                                                                1/cycle
//   Store                                  1                   1   MemoryPort  0                 port,
//                                                                                                1/cycle
//   LoopCall                               1 (FSM then waits)  1   Fsm         0                 -
//   LoopCall in a loop body (imm = 2)      imm + 1 (3)         1   SubPipeline imm (2) [3]       -
//   Param                                  0                   1   Wire        0                 -
//   Call                                   0 (FSM jumps)       1   Fsm         0                 -
//   TaskAsync TaskGet TaskRelease          1 (FSM then waits)  1   Fsm         0                 -
//
// "Result on a wire" is the offset from start at which a pipeline sees the value (Unit::resultOffset);
// the kernel FSM, whose operands stay in registers, forms an Inline result in its last cycle
// (Unit::formOffset). [1] The dividers' pipelined unit spvhls_<op>_<width> (rtlgen/units/divider.h).
// A unit advances with one enable; in a stall-free loop where its span crosses a cluster boundary it
// runs free in its first cluster and its results reach the result position through a side FIFO
// (rtl::LoopPlan::sideFifoDepth): an Instance always runs on its unit, in both cluster kinds.
//
// [2] The IEEE units spvhls_fadd_32, spvhls_ffma_32, spvhls_sitofp_32_from64, ... (rtlgen/units/fp_add.h,
// fp_mul.h, fp_fma.h, fp_div.h, fp_convert.h), latency - 1 register ranks; the generator checks its
// unit's latency. Across stall-free cluster boundaries, as [1].
//
// [3] The inner loop's module, started at start; its done and live-outs go into a response FIFO
// read imm cycles later, where the outer pipeline waits for them (rtl::LoopPlan, loop_gen.cpp).
//
// [4] The pipelined multiplier spvhls_mul_<width> (rtlgen/units/multiplier.h): slice products, then
// an adder tree, one level per rank.
//
// [5] With a clock period that fits an add behind the response FIFO's head, the response waits in
// its FIFO (Unit::queued): a pipeline pops it where it is read, with no register of its own. Else,
// and in the kernel FSM, it is registered as it arrives.
//
// Delays (ns) come from the target's delay table (targets/<name>.json, scripts/characterise_target.py)
// at the operation's width; where the table has no entry (or the target none), estimates for a 6-LUT
// fabric: a carry chain 0.3 + 0.02 per bit, bitwise logic and selects 0.3, a barrel shift 0.3 per
// level. Single-cycle Inline units are chainable (Unit::chainable); Instance units their slowest
// stage's delay (the table's unit_stage_ns; else an add's of its width), memory ports a 64-bit
// multiplexer's delay (the request), loop phis a multiplexer's (the carry register or a forwarded
// value, the initial value).
#include <fmt/format.h>

#include <bit>
#include <cctype>

#include "scheduler/schedule.h"

namespace spvhls::sched {

namespace {
double carryChainNs(uint32_t width) {
  return 0.3 + 0.02 * width;
}

// "sdiv" for SDiv: unit module names and the delay table's operators.
std::string lowerName(ir::OpKind kind) {
  std::string name = ir::opKindName(kind);
  for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  return name;
}
} // namespace

std::string unitModuleName(ir::OpKind kind, uint32_t width) {
  return fmt::format("spvhls_{}_{}", lowerName(kind), width);
}

const char* unitBuildName(UnitBuild b) {
  switch (b) {
  case UnitBuild::Wire: return "wire";
  case UnitBuild::Inline: return "inline";
  case UnitBuild::Instance: return "instance";
  case UnitBuild::MemoryPort: return "memory port";
  case UnitBuild::Fsm: return "fsm";
  case UnitBuild::SubPipeline:
    return "sub-pipeline";
  }
  return "?";
}

double OperatorLibrary::delayOf(std::string_view op, uint32_t width, double estimate) const {
  return target_.delays.delay(op, width).value_or(estimate);
}

Unit OperatorLibrary::unit(const ir::Op& op, uint32_t operandWidth) const {
  Unit u = unitTiming(op);
  using K = ir::OpKind;
  const uint32_t w = op.width();
  switch (u.build) {
  case UnitBuild::Inline: {
    std::string name = lowerName(op.kind);
    // Unsigned/signed greater-than are the less-than circuits with the operands swapped.
    if (name == "ugt" || name == "uge") name = name == "ugt" ? "ult" : "ule";
    if (name == "sgt" || name == "sge") name = name == "sgt" ? "slt" : "sle";
    // Comparisons are characterised by their operands' width (unknown: the widest, 64).
    const bool compare = ir::opInfo(op.kind).opClass == ir::OpClass::Compare;
    const uint32_t cw = compare ? (operandWidth ? operandWidth : 64) : w;
    u.delayNs = delayOf(name, std::max(cw, 1u), u.delayNs);
    u.chainable = u.latency == 1;
    break;
  }
  case UnitBuild::Instance:
    // Its slowest stage, characterised (it bounds the clock, and the logic before its first register
    // is no longer); else an add's of its width.
    u.delayNs = target_.delays.unitStage(u.module).value_or(delayOf("add", std::min(w, 64u), u.delayNs));
    break;
  case UnitBuild::MemoryPort:
  case UnitBuild::SubPipeline:
    u.delayNs = delayOf("select", 64, 0.3);
    if (op.kind == K::Load && op.readLatency == 0) {
      // The response FIFO's head: a read multiplexer over its entries (two levels of 4:1 for 16) and
      // the bypass of an empty FIFO, about three selects. With a clock period where a reader (an add,
      // say) fits behind it in a cycle, a pipeline reads the head there. Without one every result is
      // registered, and so is the response as it arrives: the FIFO's storage (a block RAM) feeding
      // logic directly costs Fmax (vadd 100 to 81 MHz, dot 80 to 57 on the iCE40). Under a tighter
      // clock the readers would be a cycle later.
      const double head = 3 * delayOf("select", std::max(w, 1u), 0.3);
      const double budget = target_.clockPeriodNs - target_.delays.registerOverheadNs;
      u.queued =
          target_.clockPeriodNs > 0 && head + delayOf("add", std::max(w, 1u), carryChainNs(w)) <= budget;
      u.resultDelayNs = u.queued ? head : 0.0;
    }
    break;
  default:
    if (op.kind == K::LoopPhi) u.delayNs = delayOf("select", std::max(w, 1u), 0.3);
    break;
  }
  return u;
}

Unit OperatorLibrary::unitTiming(const ir::Op& op) const {
  using K = ir::OpKind;
  const uint32_t w = op.width();
  Unit u;
  switch (op.kind) {
  case K::Const:
  case K::Arg:
  case K::WorkItem:
  case K::Barrier:
  case K::Lane:
  case K::SgShuffle:
  case K::SgShuffleDown:
  case K::SgShuffleUp:
  case K::SgShuffleXor:
  case K::SgScan:
  case K::LiveIn:
  case K::LoopPhi:
  case K::Undef:
  case K::ZExt:
  case K::SExt:
  case K::Trunc:
  case K::Extract:
  case K::Concat:
  case K::Phi:
  case K::LoopOut:
  case K::Param:
    return u; // a wire: latency 0, no logic
  case K::Not: case K::And: case K::Or: case K::Xor: case K::Select:
    u.latency = 1, u.build = UnitBuild::Inline, u.delayNs = 0.3;
    return u;
  case K::Shl: case K::LShr: case K::AShr:
    u.latency = 1, u.build = UnitBuild::Inline, u.delayNs = 0.3 * std::bit_width(std::max(w, 1u));
    return u;
  case K::Add: case K::Sub: case K::Neg:
  case K::Eq: case K::Ne: case K::ULt: case K::ULe: case K::UGt: case K::UGe:
  case K::SLt: case K::SLe: case K::SGt: case K::SGe:
    u.latency = 1, u.build = UnitBuild::Inline, u.delayNs = carryChainNs(w);
    return u;
  case K::Mul:
    // The pipelined multiplier (rtlgen/units/multiplier.h): partial products, then an adder tree.
    u.latency = w > 32 ? target_.mulLatency + 2 : target_.mulLatency;
    u.build = UnitBuild::Instance, u.delayNs = carryChainNs(w);
    u.resultOffset = u.latency - 1;
    u.module = unitModuleName(op.kind, w);
    return u;
  case K::UDiv: case K::SDiv: case K::URem: case K::SRem: case K::SMod:
    // A pipelined restoring divider instance (rtlgen/units/divider.h): an operand stage, one stage
    // per quotient bit, and the sign fix-up combinational out of the last stage.
    u.latency = w + 2, u.build = UnitBuild::Instance, u.delayNs = carryChainNs(w);
    u.resultOffset = u.latency - 1;
    u.module = unitModuleName(op.kind, w);
    return u;
  case K::FAdd:
  case K::FSub:
  case K::FMul: {
    // Pipelined IEEE units (rtlgen/units/fp_add.h, fp_mul.h): register ranks between their phases,
    // more for wider formats; latency = ranks + 1, the result combinational out of the last rank.
    const uint32_t wide = w == 16 ? 0 : w == 32 ? 1 : 2;
    const uint32_t ranks = (op.kind == K::FMul ? 2 : 3) + wide;
    u.latency = ranks + 1, u.build = UnitBuild::Instance, u.delayNs = carryChainNs(w);
    u.resultOffset = u.latency - 1;
    u.module = unitModuleName(op.kind, w);
    return u;
  }
  case K::FFma: {
    // The fused multiply-add (rtlgen/units/fp_fma.h): the fewest ranks past which more do not shorten
    // its longest path (yosys synth -lut 6, LUT levels: f16 10, f32 12, f64 16, against the
    // multipliers' 9, 11, 12), which is then the leading-zero count (f16, f32) or the f64 partial
    // products, as in the multiplier.
    const uint32_t ranks = w == 64 ? 6 : 4;
    u.latency = ranks + 1, u.build = UnitBuild::Instance, u.delayNs = carryChainNs(3 * w);
    u.resultOffset = u.latency - 1;
    u.module = unitModuleName(op.kind, w);
    return u;
  }
  case K::FDiv:
  case K::FSqrt: {
    // Radix-2 digit recurrences, one rank per result bit (rtlgen/units/fp_div.h): mant + 6 and
    // mant + 3 cycles; a new operation every cycle.
    const uint32_t mant = w == 16 ? 10 : w == 32 ? 23 : 52;
    u.latency = op.kind == K::FDiv ? mant + 6 : mant + 3;
    u.build = UnitBuild::Instance, u.delayNs = carryChainNs(mant + 3);
    u.resultOffset = u.latency - 1;
    u.module = unitModuleName(op.kind, w);
    return u;
  }
  case K::SIToFP:
  case K::UIToFP:
  case K::FPToSI:
  case K::FPToUI:
  case K::FPToFP:
    // Two ranks (rtlgen/units/fp_convert.h); one module per conversion: the operand's width and a
    // rounding mode other than nearest even too.
    u.latency = 3, u.build = UnitBuild::Instance, u.delayNs = carryChainNs(64);
    u.resultOffset = u.latency - 1;
    u.module = fmt::format("{}_from{}", unitModuleName(op.kind, w), op.imm);
    if (op.rounding != 0) u.module += fmt::format("_{}", ir::roundingName(op.rounding));
    return u;
  case K::Load: {
    // The request is issued at start; the response arrives memLatency later (an on-chip RAM's the
    // next cycle). The FSM registers it there; a pipeline reads an external memory's response from
    // its response FIFO a cycle later, where it is readable, and an on-chip RAM's registers it.
    const uint32_t lat = op.readLatency > 0 ? op.readLatency : target_.memLatency;
    u.latency = lat + 1, u.build = UnitBuild::MemoryPort, u.resultOffset = lat;
    u.resource = int(op.memory), u.resourceLimit = memoryPortLimit();
    return u;
  }
  case K::Store:
    u.latency = 1, u.build = UnitBuild::MemoryPort;
    u.resource = int(op.memory), u.resourceLimit = memoryPortLimit();
    return u;
  case K::LoopCall:
    if (op.imm > 0) { // in a loop body (ir::kSubPipelineLatency): results expected imm cycles on
      u.latency = uint32_t(op.imm) + 1, u.build = UnitBuild::SubPipeline, u.resultOffset = uint32_t(op.imm);
      return u;
    }
    u.latency = 1, u.build = UnitBuild::Fsm;
    return u;
  case K::Call: // the FSM jumps to the function in the block's last cycle
    u.build = UnitBuild::Fsm;
    return u;
  case K::TaskAsync:   // pushes the arguments (the FSM waits while the queue is full)
  case K::TaskGet:     // pops a result into its register (waits while none is ready)
  case K::TaskRelease: // waits until the task is idle
    u.latency = 1, u.build = UnitBuild::Fsm;
    return u;
  }
  // Only reachable with an OpKind value outside the enum: a corrupted IR, not a user error.
  throw InternalError(op.loc, "operator library", fmt::format("no unit for operation kind {}", int(op.kind)));
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
