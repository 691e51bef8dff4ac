// The translator from the working copy to the HLS IR CFG (private to lower_translate.cpp and
// lower_values.cpp).
#pragma once

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

class Translator {
public:
  Translator(Context& c, const LFunc& f) : c_(c), f_(f), b_(k_.ops, &k_.blocks) {}
  Translated run();

private:
  // Where a pointer points: a memory and a 64-bit byte offset into it.
  struct Ptr {
    uint32_t memory = 0;
    ValueId offset = kNone;
  };
  struct PendingPhi {
    ValueId op;
    const LInst* inst;
    bool isPointer;
  };

  Context& c_;
  const LFunc& f_;
  Kernel k_;
  Builder b_;
  std::vector<uint32_t> rpo_;                  // indices into f_.blocks, reverse post-order
  std::unordered_map<Id, uint32_t> blockOf_;   // label -> kernel block
  std::vector<uint8_t> prologue_;              // per kernel block: runs exactly once, first
  std::unordered_map<Id, ValueId> vals_;
  std::unordered_map<Id, Ptr> ptrs_;
  std::unordered_map<Id, int> memOf_;          // pointer value -> memory; -1: none (undef/null)
  // Pointers stored in memory: per memory that holds any, the one memory they all point into (a
  // stored pointer is its byte offset there; two targets for one memory are not supported).
  std::unordered_map<uint32_t, uint32_t> cellTarget_;
  std::unordered_map<Id, uint32_t> varMemory_; // unpromoted or module-scope variable -> memory
  std::unordered_map<Id, uint32_t> argOf_;     // entry parameter -> kernel argument
  std::unordered_map<Id, ValueId> argVals_;
  std::unordered_map<Id, ValueId> undefVals_;
  std::vector<uint8_t> touched_;               // per memory: accessed by an op emitted so far
  std::vector<uint8_t> readOnly_;              // per memory: module-scope constant
  std::vector<PendingPhi> phis_;
  uint32_t current_ = 0;                       // kernel block being translated

  // lower_translate.cpp: structure.
  void setupArgs();
  void setupBlocks();
  void computeMemories();
  int memoryOf(Id ptr, const LInst& at);
  int mergeMemories(int a, int b, const LInst& at);
  // Records that memory `cells` holds pointers into `target`; changed: a new fact.
  bool storePointerInto(uint32_t cells, uint32_t target, const LInst& at);
  uint32_t newMemory(Memory m);
  void checkOnChip(const Memory& m, const LInst& at); // a private array or constant fits on chip
  uint32_t localVariableMemory(const LInst& var);
  uint32_t moduleVariableMemory(Id var, const LInst& at);
  void translateBlock(uint32_t fi);
  void translateTerminator(const LInst& t);
  void fillPhis();
  void storeWrittenInitialisers();
  void collectControls(Translated& out);

  // lower_values.cpp: values, pointers, instructions.
  ValueId valueOf(Id id, const LInst& at);
  // valueOf, for an operand that must have `width` bits (the SPIR-V rules tie operand types to the
  // result type); another width is the input's error, not an IR invariant to trip over later.
  ValueId operandOf(Id id, uint32_t width, const LInst& at);
  Ptr ptrOf(Id id, const LInst& at);
  uint32_t widthOf(Id type, const LInst& at) const;
  void translateInst(const LInst& in);
  void translateExtInst(const LInst& in);
  Ptr accessChain(const LInst& in);
  // The byte offset steps of an access chain (ids[0]: the base pointer) over its pointee type:
  // element(index, size, 0) for the Ptr chain's first index and every array or vector index,
  // element(kNone, 0, bytes) for a struct member (its index must be a constant); fail(message)
  // reports a malformed chain and does not return.
  template <class Element, class Fail>
  void walkChain(SpvOp op, const std::vector<Id>& ids, Element element, Fail fail) const;
  Ptr constantAddress(Id id, const spirv::ConstantExpr& e, const LInst& at);
  uint64_t memberOffset(Id structType, uint32_t member) const;
  uint32_t accessSize(Id type, const LInst& at) const;
  ValueId emitLoad(const Ptr& p, uint32_t size, const LInst& at);
  void emitStore(const Ptr& p, ValueId data, uint32_t size, const LInst& at);
  void translateCopy(const LInst& in);
  void storeBytes(const Ptr& p, const std::vector<uint8_t>& bytes, uint64_t align, const LInst& at);
  // A constant's bytes in memory; a pointer is its byte offset in the memory it points into, which
  // is appended to `pointerTargets` (null pointers: offset 0, no target).
  void constantBytes(Id constant, Id type, std::vector<uint8_t>& out, uint64_t offset,
                     std::vector<uint32_t>& pointerTargets);
  // A constant address (a module-scope variable, a cast of or a constant access chain into one):
  // its memory and byte offset; nullopt for a null pointer.
  std::optional<std::pair<uint32_t, uint64_t>> constantPointer(Id constant, uint32_t where);
  const std::vector<uint8_t>* knownBytes(uint32_t memory) const;
};

} // namespace spvhls::ir::lower
