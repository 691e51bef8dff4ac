// Private to the golden interpreter: FunctionDecoder, which decodes one SPIR-V function into a
// DFunction (DInst array with resolved slots). Slots, control flow, memory and calls are in
// interp_decode.cpp; values and the per-instruction dispatch (decodeInst) in interp_decode_values.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/interp_program.h"

namespace spvhls::sim::interp {

using spirv::Instruction;
using spirv::Op;
using spirv::Type;
namespace spv = spirv::spv;

class FunctionDecoder {
public:
  FunctionDecoder(Program& p, const spirv::Function& f, std::vector<Id>& worklist)
      : p_(p), mv_(p.mv), f_(f), worklist_(worklist) {}

  DFunction run();

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
  uint8_t widthOf(Id t) const;
  uint32_t componentsOf(Id t) const {
    const Type& ty = type(t);
    return ty.kind == Type::Kind::Vector ? ty.count : 1;
  }
  bool isBoolScalar(Id t) const { return type(t).kind == Type::Kind::Bool; }
  bool isPointer(Id t) const { return type(t).kind == Type::Kind::Pointer; }

  // ---- slots (interp_decode.cpp) ----

  void assignSlots();
  // The first slot of a value: a local, or a constant / global address placed after the locals.
  uint32_t val(Id id);
  uint32_t dst() { return slot_.at(inst().resultId); }
  uint32_t zeroSlot() {
    uint32_t s = out_.nLocals + static_cast<uint32_t>(out_.constInit.size());
    out_.constInit.push_back(0);
    return s;
  }
  // The value of a constant integer operand (sign-extended), for struct member indices and folding.
  std::optional<int64_t> constInt(Id id) const;

  uint32_t emit(DInst d) {
    d.src = cur_;
    out_.code.push_back(d);
    return static_cast<uint32_t>(out_.code.size() - 1);
  }
  uint32_t extraPos() const { return static_cast<uint32_t>(out_.extra.size()); }

  // ---- control flow (interp_decode.cpp) ----

  uint32_t edgeTo(Id label);
  void decodeSwitch();

  // ---- memory (interp_decode.cpp) ----

  void decodeAccessChain(bool hasElement);
  void decodeLoad(Id ptr, Id valueType, bool store, Id value);
  void decodeVariable();
  void decodeAtomic(X op);

  // ---- values (interp_decode_values.cpp) ----

  void componentWise(X op, Id operandType);
  void convert(X op, Id from, Id to);
  bool hasDecoration(Id id, uint32_t kind) const;
  // Float conversions: OpenCL's _sat conversions carry SaturatedConversion (float -> integer only),
  // explicit rounding modes (convert_float_rtz, convert_int_rte...) FPRoundingMode.
  void decodeFloatConvert(X op);
  // Shuffles: data operands of the result type, then a 32-bit integer index/delta/value.
  void decodeSubgroup(X op, size_t operands);
  // Block reads/writes: a pointer to a scalar, and a scalar or vector of that scalar type.
  void decodeBlockIO(bool write);
  // OpGroupAll/Any/Broadcast and the group arithmetic (w2: GroupArith) at Subgroup or Workgroup scope;
  // with `nonUniform` the OpGroupNonUniform* forms at Subgroup scope (also Elect, AllEqual, and
  // BroadcastFirst: GroupBroadcast with arith 1).
  void decodeGroup(X op, bool nonUniform, uint8_t arith = 0);
  void move(uint32_t dstSlot, uint32_t srcSlot, uint32_t n);
  void decodeBitcast();
  // Slot offset and count of the part of a composite addressed by literal indices.
  std::pair<uint32_t, Id> compositePart(Id type, size_t firstIndex);
  void decodeExtInst();

  // ---- calls (interp_decode.cpp) ----

  // Index of `callee` in p_.functions, queueing it for decoding.
  uint32_t calleeIndex(Id callee);
  void decodeCall();
  // SPV_INTEL_task_sequence. Create: Function, Pipelined, ClusterMode, GetCapacity, AsyncCapacity
  // (the FPGA-only literals do not change results). The others take the sequence first.
  void decodeTaskSequence(X op);

  void decodeBlock(const spirv::Block& b);
  void decodeInst(); // interp_decode_values.cpp
};

} // namespace spvhls::sim::interp
