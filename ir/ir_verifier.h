// The IR verifier's state and checks (verifyKernel, hls_ir.h). Internal to ir: ir_verify.cpp checks
// the interface, blocks, operations, functions and loops; ir_verify_regions.cpp the memory ports,
// processes, task operations and the region tree.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <map>

#include "ir/hls_ir.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::verify {

// Operation classes that compute on bits; floating-point operations will bring classes of their own.
inline bool computesOnBits(OpClass c) {
  switch (c) {
  case OpClass::Logic:
  case OpClass::Arith:
  case OpClass::Shift:
  case OpClass::Compare:
  case OpClass::Multiply:
  case OpClass::Divide:
  case OpClass::Float:
    return true;
  default:
    return false;
  }
}

class Verifier {
public:
  Verifier(const Kernel& k, VerifyLevel level) : k_(k), final_(level == VerifyLevel::Final) {}

  void run();

private:
  const Kernel& k_;
  const bool final_;
  std::vector<int> idom_;
  std::vector<int>
      rootOf_; // per block: 0 the kernel's part of the CFG, f + 1 shared function f's; -1 unreachable
  std::vector<uint32_t> blockOfOp_, posOfOp_;
  // Per loop: the loop whose body calls it (-1: the kernel CFG, or no caller).
  std::vector<int> callerOf_;
  std::vector<uint32_t> loopCalls_;

  [[noreturn]] void fail(const SourceLoc& loc, const std::string& where, const std::string& msg) const {
    throw DiagnosticError(loc, fmt::format("kernel {}: {}", k_.name, where), "IR invariant violated: " + msg);
  }

  // An operation a message is about, named only when a check fails: the verifier runs after every
  // lowering pass, and formatting a name per operation up front was most of its time.
  struct OpAt {
    int loop; // -1: the kernel CFG
    ValueId v;
  };
  std::string describe(OpAt at) const;
  [[noreturn]] void fail(const SourceLoc& loc, OpAt where, const std::string& msg) const {
    fail(loc, describe(where), msg);
  }

  void checkInterface();

  // Who calls each loop: the kernel CFG or a loop body (an inner loop).
  void findCallers();

  // The op list a loop's live-ins refer to: its caller's body, or the kernel's.
  const std::vector<Op>& callerOps(uint32_t l) const;

  // Ops that lowering replaces before it ends (work-item built-ins, subgroup operations).
  void checkTransient(const Op& op, OpAt where) const;

  // Rules shared by kernel and loop ops: operand counts and types from ir/ops.def, memory indices.
  template <class TypeOf> void checkOp(const Op& op, OpAt where, TypeOf typeOf) const {
    const OpInfo& info = opInfo(op.kind);
    const bool memory = info.opClass == OpClass::Memory;
    // Memory operations and an inner loop's call in a loop body end with a predicate.
    const bool predicated = memory || op.kind == OpKind::LoopCall;
    if (info.operands != kVariadic && op.operands.size() != static_cast<size_t>(info.operands))
      fail(op.loc, where,
           fmt::format("{} takes {} operands, has {}", info.name, info.operands, op.operands.size()));
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (op.operands[i] == kNone &&
          !(predicated && i + 1 == op.operands.size())) // only a predicate may be absent
        fail(op.loc, where, "missing operand");
    if (!op.type.isNone())
      if (std::string p = typeProblem(op.type); !p.empty()) fail(op.loc, where, p);
    auto expect = [&](size_t i, Type t, const char* what) {
      Type got = typeOf(op.operands[i]);
      if (got != t)
        fail(op.loc, where,
             fmt::format("{} {} has type {}, expected {}", info.name, what, typeName(got), typeName(t)));
    };
    auto needResult = [&] {
      if (op.type.isNone()) fail(op.loc, where, fmt::format("{} without a result type", info.name));
    };
    switch (info.result) {
    case ResultRule::None:
      if (!op.type.isNone()) fail(op.loc, where, fmt::format("{} has no result", info.name));
      break;
    case ResultRule::Explicit:
      needResult();
      break;
    case ResultRule::Callee: // checked with the call (checkFunctionCall)
      break;
    case ResultRule::SameAsOperands:
      needResult();
      for (size_t i = 0; i < op.operands.size(); ++i)
        expect(i, op.type, "operand");
      break;
    case ResultRule::Bool:
      if (op.type != Type::bits(1)) fail(op.loc, where, fmt::format("{} yields 1 bit", info.name));
      if (typeOf(op.operands[0]).isNone()) fail(op.loc, where, "operand without a value");
      for (size_t i = 1; i < op.operands.size(); ++i)
        expect(i, typeOf(op.operands[0]), "operand");
      break;
    case ResultRule::SelectValue:
      needResult();
      expect(0, Type::bits(1), "condition");
      for (size_t i = 1; i < op.operands.size(); ++i)
        expect(i, op.type, "value");
      break;
    case ResultRule::Wider:
    case ResultRule::Narrower: {
      const Type from = typeOf(op.operands[0]);
      const bool wider = info.result == ResultRule::Wider;
      if (!from.isBits() || !op.type.isBits() ||
          (wider ? from.width() >= op.width() : from.width() <= op.width()))
        fail(op.loc, where, fmt::format("{} from {} to {}", info.name, typeName(from), typeName(op.type)));
      break;
    }
    }
    if (computesOnBits(info.opClass))
      for (ValueId o : op.operands)
        if (typeOf(o).lane().scalar != TypeKind::Bits)
          fail(op.loc, where, fmt::format("{} computes on bits, not {}", info.name, typeName(typeOf(o))));
    if (info.opClass == OpClass::Float) checkFloat(op, where, typeOf);
    const bool rounds = op.kind == OpKind::SIToFP || op.kind == OpKind::UIToFP || op.kind == OpKind::FPToFP;
    if (op.rounding > (rounds ? 3 : 0))
      fail(op.loc, where,
           fmt::format("{} has rounding mode {}; expected {}", info.name, op.rounding,
                       rounds ? "0 (RTE) .. 3 (RTN)" : "0 (it does not round)"));
    if (op.kind == OpKind::Const) checkConst(op, where);
    if (op.kind == OpKind::Extract || op.kind == OpKind::Concat) checkWide(op, where, typeOf);
    if (memory) checkAccess(op, where, typeOf);
  }

  // Extract: bits [imm, imm + width) within its operand; Concat: as wide as its operands together.
  template <class TypeOf> void checkWide(const Op& op, OpAt where, TypeOf typeOf) const {
    if (!op.type.isBits())
      fail(op.loc, where, fmt::format("{} yields bits, not {}", opKindName(op.kind), typeName(op.type)));
    uint64_t total = 0;
    for (ValueId o : op.operands) {
      if (!typeOf(o).isBits())
        fail(op.loc, where, fmt::format("{} of {}, expected bits", opKindName(op.kind), typeName(typeOf(o))));
      total += typeOf(o).width();
    }
    if (op.kind == OpKind::Extract && op.imm + op.width() > total)
      fail(op.loc, where, fmt::format("bits [{}, {}) of a {}-bit value", op.imm, op.imm + op.width(), total));
    if (op.kind == OpKind::Concat && (op.operands.empty() || total != op.width()))
      fail(op.loc, where, fmt::format("{} bits of operands for a {}-bit result", total, op.width()));
  }

  // Floating-point operations: the float side is IEEE binary16, 32 or 64; a conversion's `imm` is its
  // operand's width, and float to float changes the width.
  template <class TypeOf> void checkFloat(const Op& op, OpAt where, TypeOf typeOf) const {
    auto ieee = [](uint32_t w) { return w == 16 || w == 32 || w == 64; };
    const uint32_t in = op.operands.empty() ? 0 : typeOf(op.operands[0]).width(), out = op.width();
    bool ok = false;
    switch (op.kind) {
    case OpKind::SIToFP:
    case OpKind::UIToFP:
      ok = ieee(out) && in >= 1 && in <= 64;
      break;
    case OpKind::FPToSI:
    case OpKind::FPToUI:
      ok = ieee(in) && out >= 1 && out <= 64;
      break;
    case OpKind::FPToFP:
      ok = ieee(in) && ieee(out) && in != out;
      break;
    default:
      ok = ieee(out);
      break;
    }
    if (!ok)
      fail(op.loc, where,
           fmt::format("{} from {} to {} bits; IEEE binary16, 32 or 64 expected on the float side",
                       opKindName(op.kind), in, out));
    if (isConversion(op.kind) && op.imm != in)
      fail(op.loc, where,
           fmt::format("{} records an operand of {} bits, its operand has {}", opKindName(op.kind), op.imm,
                       in));
  }

  void checkConst(const Op& op, OpAt where) const;

  template <class TypeOf> void checkAccess(const Op& op, OpAt where, TypeOf typeOf) const {
    if (op.memory >= k_.memories.size())
      fail(op.loc, where, fmt::format("memory {} does not exist", op.memory));
    if (!std::has_single_bit(unsigned(op.size)) || op.size > kMaxAccessBytes)
      fail(op.loc, where,
           fmt::format("access size {} is not a power of two up to {}", op.size, kMaxAccessBytes));
    // Ports are sized last (buildStructure), to the widest access.
    if (final_ && 8u * op.size > k_.memories[op.memory].wordBits)
      fail(op.loc, where,
           fmt::format("{}-byte access wider than the memory's {}-bit words", op.size,
                       k_.memories[op.memory].wordBits));
    auto expect = [&](size_t i, Type t, const char* what) {
      if (typeOf(op.operands[i]) != t)
        fail(op.loc, where,
             fmt::format("{} {} has type {}, expected {}", opKindName(op.kind), what,
                         typeName(typeOf(op.operands[i])), typeName(t)));
    };
    expect(0, Type::bits(64), "offset");
    const Type data = Type::bits(8u * op.size);
    if (op.kind == OpKind::Load && op.type != data)
      fail(op.loc, where, fmt::format("load of {} bytes has type {}", op.size, typeName(op.type)));
    // The scheduler times the load by it: a wrong one is a response captured too early or too late.
    const uint8_t readLatency = k_.memories[op.memory].onChip() ? kOnChipReadLatency : 0;
    if (final_ && op.kind == OpKind::Load && op.readLatency != readLatency)
      fail(op.loc, where,
           fmt::format("load with read latency {}, its memory answers in {}", op.readLatency, readLatency));
    if (op.kind == OpKind::Store) expect(1, data, "data");
    if (op.operands.back() != kNone) expect(op.operands.size() - 1, Type::bits(1), "predicate");
  }

  // LoopCall and LoopOut, in the kernel CFG or in a loop body (`list`; `caller`: -1 for the kernel).
  void checkCallOp(const Op& op, const std::vector<Op>& list, int caller, OpAt where);

  void checkBlocks();

  // Constants (and undefined values) are available in every block: lowering makes them in the
  // entry block, which does not dominate shared functions' blocks, and compaction copies them into
  // the blocks using them.
  bool anywhere(ValueId v) const;

  // Shared functions: entries that are roots of their own part of the CFG (no block reached from two
  // roots, nothing branching to an entry), no recursion.
  void checkFunctions(const lower::Succs& succ);

  // A Call: of an existing function, arguments and result typed as its, last in its block, which
  // branches on.
  void checkFunctionCall(const Op& op, ValueId v, OpAt where);

  void checkLoop(uint32_t l);

  void checkCallCounts() const;

  void checkPorts() const;

  void checkRegions() const;
  void checkProcesses() const;
  void checkTaskProcess(uint32_t p) const;
  void checkTaskOp(const Op& op, OpAt where) const;
};

} // namespace spvhls::ir::verify
