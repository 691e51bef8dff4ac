// The translator from the working copy to the HLS IR CFG (private to lower_translate.cpp and
// lower_values.cpp).
#pragma once

#include <array>
#include <functional>
#include <map>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

class Translator {
public:
  Translator(Context& c, const LFunc& f, uint64_t onChipBudget)
      : c_(c), f_(f), b_(k_.ops, &k_.blocks), onChipBudget_(onChipBudget) {}
  Translated run();

private:
  // Where a pointer points. Into one memory: `memory`, and `offset` a 64-bit byte offset into it.
  // Into one of several (`set` >= 0, an index into sets_): `offset` is the address, the byte offset
  // plus (memory + 1) << kTagShift, as OpConvertPtrToU gives it; accesses dispatch on the tag.
  static constexpr unsigned kTagShift = 40;
  // The null pointer as a member of a pointer's set of memories (sorted last): a pointer that may be
  // null and point into a memory is an address, so that null (address 0) stays distinct. Accesses
  // through null are undefined behaviour and are not built.
  static constexpr uint32_t kNull = ~0u;
  struct Ptr {
    uint32_t memory = 0;
    ValueId offset = kNone;
    int set = -1;
  };
  struct PendingPhi {
    ValueId op;
    const LInst* inst;
    bool isPointer;
    int lane; // a vector phi's lane (its operands' lanes), -1 for a scalar or pointer phi
  };

  Context& c_;
  const LFunc& f_;
  Kernel k_;
  Builder b_;
  std::vector<uint32_t> rpo_;                  // indices into f_.blocks, reverse post-order
  std::unordered_map<Id, uint32_t> blockOf_;   // label -> kernel block
  std::vector<uint8_t> prologue_;              // per kernel block: runs exactly once, first
  std::vector<int> functionOf_; // per kernel block: the shared function it is in, -1: the kernel's
  int currentFunction_ = -1;    // of the blocks being made
  std::unordered_map<Id, uint32_t> functionIndex_; // shared function -> Kernel::functions index
  std::unordered_map<Id, ValueId> vals_;
  std::unordered_map<Id, Ptr> ptrs_;
  // Pointer provenance: the memories a pointer may point into, as a set (an index into sets_, sorted
  // memory numbers with kNull last, interned); -1: none (undefined, or not known yet).
  std::unordered_map<Id, int> memOf_;
  std::vector<std::vector<uint32_t>> sets_;
  std::map<std::vector<uint32_t>, int> setIds_;
  // Pointers stored in memory: per memory that holds any, the set they point into. A stored pointer
  // is its byte offset when the set has one memory, its address (see Ptr) otherwise.
  std::unordered_map<uint32_t, int> cellTarget_;
  // Pointers in initializers, written before their memory's target set was known: (memory holding
  // them, byte position, memory pointed into), encoded as addresses once the sets are known.
  std::vector<std::array<uint64_t, 3>> initPointers_;
  std::unordered_map<std::string, int> blockNames_; // block name -> times used
  std::unordered_map<Id, uint32_t> varMemory_; // unpromoted or module-scope variable -> memory
  std::unordered_map<Id, uint32_t> argOf_;     // entry parameter -> kernel argument
  std::unordered_map<Id, ValueId> argVals_;
  std::unordered_map<Id, ValueId> undefVals_;
  std::unordered_map<Id, uint32_t> exitBlockOf_; // label -> kernel block holding its terminator
  std::vector<uint8_t> touched_;               // per memory: accessed by an op emitted so far
  std::vector<uint8_t> readOnly_;              // per memory: module-scope constant
  std::vector<PendingPhi> phis_;
  std::unordered_map<Id, uint32_t> taskOf_; // an OpTaskSequenceCreateINTEL's result -> its Task process
  uint32_t current_ = 0;                       // kernel block being translated
  uint64_t onChipBudget_;

  // lower_translate.cpp: structure.
  void setupArgs();
  void setupBlocks();
  void setupFunctions();
  void computeMemories();
  // The set of memories a pointer may point into (-1: none known yet, or undefined).
  int memoryOf(Id ptr, const LInst& at);
  int intern(std::vector<uint32_t> memories); // sorted
  int single(uint32_t memory) { return intern({memory}); }
  int unite(int a, int b);
  bool isMulti(int set) const { return set >= 0 && sets_[set].size() > 1; }
  // The one memory of a set that holds exactly one (not null).
  std::optional<uint32_t> onlyMemory(int set) const {
    if (set < 0 || isMulti(set) || sets_[set][0] == kNull) return std::nullopt;
    return sets_[set][0];
  }
  bool isNullOnly(int set) const { return set >= 0 && !isMulti(set) && sets_[set][0] == kNull; }
  // The union of the target sets of the memories `cells` (-1 if none holds pointers).
  int targetsOf(const std::vector<uint32_t>& cells);
  // Records that memory `cells` holds pointers into the memories of `target`; changed: a new fact.
  bool storePointerInto(uint32_t cells, int target);
  // The pointer in the representation of `set` (which holds p's memories): an address for several.
  Ptr inSet(const Ptr& p, int set);
  // The pointer as an address: its offset plus (memory + 1) << kTagShift (null: kNull + 1 wraps to
  // tag 0, so null is 0); an address already for a pointer into several memories.
  ValueId addressOf(const Ptr& p);
  // A pointer into `set` whose offset (one memory) or address (several) is v.
  Ptr pointerIn(int set, ValueId v) const;
  // Rewrites the pointers recorded in initPointers_ as addresses where their memory holds pointers
  // into several memories.
  void encodeInitialPointers();
  // Adds the tag of `target` to the pointer stored at bytes[pos..pos+8) (little-endian).
  static void addTag(std::vector<uint8_t>& bytes, uint64_t pos, uint32_t target);
  uint32_t newBlock(const std::string& name);
  // An access through a pointer into several memories: the current block ends in a switch on the
  // address's tag to one block per memory, each running access(pointer into that memory); they join
  // in a new current block. Returns the blocks that branch to the join, one per memory, in order. With
  // one memory besides null there is no choice: the access runs in the current block.
  std::vector<uint32_t> dispatch(const Ptr& p, const std::function<void(const Ptr&)>& access);
  uint32_t newMemory(Memory m);
  void checkSize(const Memory& m, const LInst& at); // a variable or private array the compiler builds
  // Memories past the on-chip budget become external: smallest first on chip, so the budget holds
  // as many arrays as it can and the largest (the likeliest to be streamed) go off chip.
  void placeMemories();
  uint32_t localVariableMemory(const LInst& var);
  uint32_t moduleVariableMemory(Id var, const LInst& at);
  void translateBlock(uint32_t fi);
  void translatePhi(const LInst& in);
  void translateTerminator(const LInst& t);
  void fillPhis();
  void storeWrittenInitialisers();
  void collectControls(Translated& out);

  // lower_ndrange.cpp: work-item built-ins (Input variables decorated BuiltIn), read as WorkItem ops.
  std::unordered_map<Id, std::pair<uint32_t, int>> builtinPtrs_; // pointer -> (BuiltIn, component; -1: all)
  std::optional<uint32_t> builtinOf(Id var) const;               // the BuiltIn a module variable is
  bool translateBuiltin(const LInst& in); // false: the instruction does not touch a built-in
  // lower_subgroups.cpp: shuffles and group instructions at Subgroup scope as Sg* ops (false: another).
  bool translateSubgroup(const LInst& in);
  bool translateBarrier(const LInst& in); // OpControlBarrier, OpMemoryBarrier (lower_barriers.cpp)
  bool translateBlock2D(const LInst& in); // SPV_INTEL_2d_block_io (lower_block2d.cpp)
  // Runs `body` in a block of its own, entered when `cond` holds (named after the current block and
  // `what`); translation goes on in the block after it.
  void runIf(ValueId cond, const std::string& what, const std::function<void()>& body);
  // A store that happens when `cond` holds (CFG stores take no predicate), in such a block.
  void storeIf(ValueId cond, const Ptr& at, ValueId data, uint32_t size, const LInst& in,
               const std::string& what);
  // A load that happens when `cond` holds, the same way: its value, or zero where it did not run.
  ValueId loadIf(ValueId cond, const Ptr& at, uint32_t size, const LInst& in, const std::string& what);
  // Runs `body` inside a loop of one iteration (`name`) entered from the current block: a
  // sub-pipeline of its own, so that its accesses take no slot of the enclosing pipeline's schedule.
  // Translation goes on in the block after it.
  void runOnce(const std::string& name, const std::function<void()>& body);
  bool translateWorkGroupCollective(const LInst& in); // OpGroup* at Workgroup scope (lower_collectives.cpp)
  void blockAccess(const LInst& in); // OpSubgroupBlockReadINTEL / WriteINTEL

  // lower_tasks.cpp: task sequences.
  void translateTask(const LInst& in);
  uint32_t taskProcess(Id sequence, const LInst& at) const;
  Type taskValueType(Id typeId, const LInst& at, const std::string& what) const;

  // lower_vectors.cpp: vectors, lane by lane. A vector value is one scalar id per lane (fresh ids of
  // the component type, or a constant's constituents); vals_ holds the lanes' values.
  std::unordered_map<Id, std::vector<Id>> lanes_;
  const spirv::Type* vectorType(Id type) const; // nullptr unless a vector type
  bool isVector(Id value) const;
  std::vector<Id>& lanesFor(Id result, const LInst& at); // the lanes a result defines
  const std::vector<Id>& lanesOf(Id v, const LInst& at); // an operand's lanes
  Ptr offsetPtr(const Ptr& p, uint64_t bytes);
  ValueId laneBits(const std::vector<ValueId>& lanes, uint32_t laneBits, uint32_t from, uint32_t width);
  // A vector of type `vt` at p whose address is `aligned` (0: aligned to the vector's size, as a
  // pointer to the vector type is): one access of the vector's size when that alignment covers it,
  // else one per lane (lower_vectors.cpp).
  uint32_t wholeVectorBytes(const spirv::Type* vt, uint64_t aligned, const LInst& at) const;
  std::vector<ValueId> loadVector(const Ptr& p, const spirv::Type* vt, uint64_t aligned, const LInst& at);
  void storeVector(const Ptr& p, const spirv::Type* vt, const std::vector<ValueId>& lanes, uint64_t aligned,
                   const LInst& at);
  // Translates an instruction that has a vector result or operand; false for any other.
  bool translateVector(const LInst& in);
  // Struct values as their members' bits end to end (lower_structs.cpp).
  bool translateStruct(const LInst& in);
  std::vector<std::pair<uint32_t, uint32_t>> structLayout(Id type, const LInst& at) const;
  ValueId structConstant(const spirv::Constant& k, const LInst& at);

  // lower_values.cpp: values, pointers, instructions.
  ValueId valueOf(Id id, const LInst& at);
  // valueOf, for an operand that must have `width` bits (the SPIR-V rules tie operand types to the
  // result type); another width is the input's error, not an IR invariant to trip over later.
  ValueId operandOf(Id id, uint32_t width, const LInst& at);
  Ptr ptrOf(Id id, const LInst& at);
  uint32_t widthOf(Id type, const LInst& at) const;
  void translateInst(const LInst& in);
  void translateExtInst(const LInst& in);
  ValueId floatCompare(const LInst& in);
  // lower_float.cpp: OpenCL.std fmin, fmax, fdim, floor, ceil, trunc, round, rint (nullopt: another).
  std::optional<ValueId> floatBuiltin(uint32_t n, const std::function<ValueId(size_t)>& arg, const LInst& in);
  // lower_math.cpp: OpenCL.std exp, exp2, exp10, log, log2, log10, sin, cos on float (nullopt: another).
  std::optional<ValueId> mathBuiltin(uint32_t n, const std::function<ValueId(size_t)>& arg, const LInst& in);
  // lower_math_exact.cpp: OpenCL.std rsqrt (half, float, double) and fmod (half, float).
  std::optional<ValueId> exactMathBuiltin(uint32_t n, const std::function<ValueId(size_t)>& arg,
                                          const LInst& in);
  ValueId floatConversion(const LInst& in);
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
  // Loads and stores through any pointer (dispatching over several memories).
  ValueId emitLoad(const Ptr& p, uint32_t size, const LInst& at);
  void emitStore(const Ptr& p, ValueId data, uint32_t size, const LInst& at);
  void translateCopy(const LInst& in);
  // A copy of n bytes (a 64-bit value known at run time): a loop of byte loads and stores between
  // new blocks; translation continues after it.
  void copyLoop(const Ptr& dst, const Ptr& src, ValueId n, const LInst& at);
  void storeBytes(const Ptr& p, const std::vector<uint8_t>& bytes, uint64_t align, const LInst& at);
  // A constant's bytes in memory; a pointer is its byte offset in the memory it points into, which
  // is appended to `pointerTargets` with its byte position (a null pointer: 0, target kNull).
  void constantBytes(Id constant, Id type, std::vector<uint8_t>& out, uint64_t offset,
                     std::vector<std::pair<uint64_t, uint32_t>>& pointerTargets);
  // A constant address (a module-scope variable, a cast of or a constant access chain into one):
  // its memory and byte offset; nullopt for a null pointer.
  std::optional<std::pair<uint32_t, uint64_t>> constantPointer(Id constant, uint32_t where);
  const std::vector<uint8_t>* knownBytes(uint32_t memory) const;
};

} // namespace spvhls::ir::lower
