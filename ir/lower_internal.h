// Internals shared by the lowering steps (ir/lower_*.cpp); not part of the IR's interface.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frontend/module.h"
#include "ir/hls_ir.h"
#include "ir/lower.h"

namespace spvhls::ir::lower {

using spirv::Id;
using SpvOp = spirv::Op;

class Builder;

// ---------------------------------------------------------------------------------------------
// The working copy: SPIR-V instructions reduced to what lowering needs. Every id operand (values and
// labels alike) is in `ids`, so renaming ids (inlining, promotion) needs no per-opcode knowledge.
// Instructions lowering does not support keep no operands; translating them reports them.

struct LInst {
  SpvOp op = SpvOp::OpNop;
  Id type = 0, result = 0;
  std::vector<Id> ids;        // id operands, per opcode (see lower_decode.cpp)
  std::vector<uint64_t> lits; // literal operands: storage class, OpExtInst number, switch cases, alignment
  uint32_t src = 0;           // Module::insts index it came from (locations, names)
};

struct LBlock {
  Id label = 0;
  std::vector<LInst> insts; // phis first, terminator last
  std::optional<spirv::LoopControls> controls; // decoded LoopMerge / LoopControlINTEL of this block
  uint32_t controlsSrc = 0;
};

// A function kept as one shared unit (lower_decode.cpp): its blocks follow the kernel's in
// LFunc::blocks, entered only by its OpFunctionCalls, each alone in a block that branches on.
struct LShared {
  Id function = 0; // module id
  Id entry = 0;    // label of its entry block
  std::vector<Id> params;
  Id resultType = 0;
};

struct LFunc {
  std::vector<LBlock> blocks; // blocks[0] is the entry; only blocks reachable from a root
  std::vector<LShared> shared;
  std::vector<InlineDecision> decisions; // every function called, for the report
};

// Indices of the roots of `f`: blocks[0] and each shared function's entry.
std::vector<uint32_t> lfuncRoots(const LFunc& f);
// Per block of `f`: reachable from a root (branches to labels outside `f` are ignored).
std::vector<uint8_t> reachableBlocks(const LFunc& f);

// Floating-point comparisons and classifications (OpFOrd*, OpFUnord*, OpOrdered, OpUnordered, OpIsNan,
// OpIsInf): decoded with their id operands (lower_decode.cpp), translated to integer logic on the bits.
bool isFloatCompare(SpvOp op);

// Successor labels of a block (from its terminator), duplicates removed, in order.
std::vector<Id> successorLabels(const LBlock& b);

// ---------------------------------------------------------------------------------------------
// State shared by the steps of one lowering run.

class Context {
public:
  Context(const spirv::ModuleView& mv, const spirv::EntryPoint& ep, const spirv::Function& entryFunc);

  const spirv::ModuleView& mv;
  const spirv::EntryPoint& entry;
  const spirv::Function& entryFunc;
  // Lowering a task function's body (a Task process, lower_tasks.cpp) rather than a kernel: its
  // parameters may be bools and it may return a value (Kernel::result).
  bool taskBody = false;
  // Lanes of a subgroup in hardware (lower.cpp: the kernel's SubgroupSize, else --subgroup-size):
  // the 2D block instructions' shape depends on it.
  uint32_t subgroupLanes = 8;
  // An access the kernel decodes is volatile (a memory operand's Volatile bit or the decoration).
  bool volatileAccess = false;

  // A new id standing for a copy of `copyOf` (same name, type and location).
  Id freshId(Id copyOf);
  // A new id with a name of its own.
  Id freshNamedId(std::string name, Id type);
  void setName(Id id, std::string name) { names_[id] = std::move(name); }
  Id origin(Id id) const; // the module id an id was copied from (itself for module ids)
  std::string nameOf(Id id) const; // OpName (or text name), else "%<id>"
  std::string ref(Id id) const;    // "%name" or "%<id>", for messages
  bool hasName(Id id) const;

  void setType(Id value, Id type) { typeOf_[value] = type; }
  Id typeOf(Id value) const; // result type of a value; 0 when unknown
  const spirv::Type& type(Id typeId) const { return mv.type(typeId); }
  // The pointee type of a pointer-typed value, 0 if not a pointer.
  Id pointeeOf(Id value) const;
  bool isPointerValue(Id value) const;

  // A synthesized undefined value of `type` (mem2reg: a variable read before any store).
  Id undefOf(Id type);
  bool isSynthesizedUndef(Id id) const { return undefs_.count(id) != 0; }

  SourceLoc locOf(uint32_t src) const { return mv.locOf(src); }
  [[noreturn]] void fail(uint32_t src, std::string construct, std::string message) const;
  // Fails at an instruction; the construct is its opcode name (and result name when it has one).
  [[noreturn]] void failAt(const LInst& inst, std::string message) const;
  std::string describe(const LInst& inst) const; // "OpIAdd %add"
  std::string typeName(Id typeId) const;          // "i32", "ptr CrossWorkgroup i32", ...

  // Values stored into promoted variables, by variable (to resolve DependencyArrayINTEL ids that name
  // a promoted pointer variable).
  std::unordered_map<Id, std::vector<Id>> promotedStores;

private:
  Id next_ = 0;
  std::unordered_map<Id, Id> origin_;
  std::unordered_map<Id, Id> typeOf_;
  std::unordered_map<Id, std::string> names_;
  std::unordered_map<Id, Id> undefByType_;
  std::unordered_set<Id> undefs_;
};

// ---------------------------------------------------------------------------------------------
// Steps. Each is followed by a check of the invariants it must keep (checkAfter, checkFunc): a
// broken invariant is an internal error naming the step, not wrong hardware later.

// The HLS IR between passes (verifyKernel at VerifyLevel::Between, or Final).
void checkAfter(const Kernel& k, const char* pass, VerifyLevel level = VerifyLevel::Between);
// The working copy: blocks reachable, terminated, phis with one entry per predecessor, every id
// operand defined (lower_decode.cpp).
void checkFunc(const Context& c, const LFunc& f, const char* pass);

// Decodes the entry function's reachable blocks and inlines every call, except calls of functions
// the policy keeps as shared units, whose bodies are appended once (lower_decode.cpp).
LFunc decodeAndInline(Context& c, InlinePolicy policy);

// Promotes Function-storage variables accessed only by whole loads/stores to SSA values
// (lower_mem2reg.cpp).
void promoteVariables(Context& c, LFunc& f);

// Loop controls found on a block during translation, to be attached to a loop (lower_loops.cpp).
struct PendingControls {
  uint32_t block = 0;       // kernel block that carried them
  LoopControls controls;    // converted, memories resolved
  uint64_t loopCountHint = 0;
  bool hasLoopCountHint = false;
  SourceLoc loc;
  std::string construct;    // "OpLoopMerge" / "OpLoopControlINTEL"
};

// Lowers `fn` as a kernel entered at `ep` (lower.cpp): a kernel entry point, or the body of `task`, a
// Task process (its `served` and `notServed` are set here).
Kernel lowerFunction(const spirv::ModuleView& mv, const spirv::EntryPoint& ep, const spirv::Function& fn,
                     const LowerOptions& options, Process* task);


struct Translated {
  Kernel kernel;
  std::vector<PendingControls> controls;
};

// The working copy -> HLS IR CFG: kernel interface, memories (on chip within `onChipBudget` bytes,
// external beyond), pointer provenance, ops, terminators (lower_translate.cpp).
Translated translate(Context& c, const LFunc& f, uint64_t onChipBudget);

// Converts decoded loop controls; `memoryOf` resolves a DependencyArrayINTEL variable id to a memory
// index (nullopt when it cannot) (lower_controls.cpp).
PendingControls convertControls(const Context& c, const spirv::LoopControls& raw, uint32_t srcInst,
                                const Kernel& k,
                                const std::function<std::optional<uint32_t>(Id)>& memoryOf);

// Natural loops of the kernel CFG (lower_loops.cpp).
struct LoopInfo {
  uint32_t header = 0;
  std::vector<uint32_t> blocks;  // sorted, header included
  std::vector<uint32_t> latches; // blocks with a back edge to the header
  int parent = -1;
  std::vector<uint32_t> children;
  uint32_t depth = 1;
  std::optional<uint64_t> tripCountHint;
};
struct LoopForest {
  std::vector<LoopInfo> loops;
  std::vector<int> innermost;       // per block: innermost loop containing it, -1 if none
  std::vector<uint32_t> irreducible; // blocks entered by a retreating edge that is not a back edge
};
LoopForest findLoops(const Kernel& k);
// A pipelined task's body (Pipelined != 0) as one loop serving its invocations, on the CFG before
// loop extraction (lower_task_serve.cpp). Returns why it cannot be (empty: done).
std::string serveInvocations(Kernel& k, const Process& p, const LoopForest& forest);
// ND-range kernels (lower_ndrange.cpp): whether translation read a work-item built-in, and the
// loop over work-items around the kernel's body, on the CFG before loop extraction (it replaces every
// WorkItem op and sets Kernel::ndRange).
bool hasWorkItems(const Kernel& k);
// `lanes` work-items per iteration (a subgroup's lanes; 1 without subgroups), Kernel::subgroupLanes.
// Barriers need per-work-item buffers of `maxWorkGroupItems` entries.
void streamWorkItems(Kernel& k, uint32_t lanes, bool subgroups, uint64_t maxWorkGroupItems);
// Parts of it, shared with the loops over work-groups that barriers need (lower_barriers.cpp).
struct NdRange {
  std::array<ValueId, kNdRangeArgs> size{}; // the arguments
  std::array<ValueId, 3> lastLocal{}, lastBase{};
  ValueId zero = kNone, one = kNone, laneCount = kNone;
  uint32_t lanes = 1;
  uint32_t body = 0; // the block the entry's work moved to
};
// Adds the ND-range's arguments, moves the entry block's work to NdRange::body (the entry is left
// without a terminator) and computes in the entry what the counters compare against.
NdRange beginNdRange(Kernel& k, Builder& b, uint32_t lanes);
// Three 32-bit phis named `name`0..2 in `header`, without entries yet.
std::array<ValueId, 3> counterPhis(Builder& b, uint32_t header, const std::string& name);
void addPhiEntry(Kernel& k, ValueId phi, uint32_t from, ValueId value);
// Each counter phi takes 0 from `entry` and its next value from `latch`.
void closeCounters(Kernel& k, const NdRange& nd, const std::array<ValueId, 3>& phis, uint32_t entry,
                   uint32_t latch, const std::array<ValueId, 3>& next);
// The next local ids (or group bases and ids) in `b.block`, stepping when `carry` (kNone: always);
// returns the carry out: every counter wrapped.
ValueId stepLocalIds(Builder& b, const NdRange& nd, const std::array<ValueId, 3>& local, ValueId carry,
                     std::array<ValueId, 3>& next);
ValueId stepGroups(Builder& b, const NdRange& nd, const std::array<ValueId, 3>& base,
                   const std::array<ValueId, 3>& group, ValueId carry, std::array<ValueId, 3>& nextBase,
                   std::array<ValueId, 3>& nextGroup);
struct WorkItemIds {
  std::array<ValueId, 3> local{}, base{}, group{}; // local id (a subgroup's first), group base and id
};
// Uses of WorkItem ops in `blocks` read the built-ins of `ids`, computed in `block` (which dominates
// them).
void replaceWorkItems(Kernel& k, Builder& b, const NdRange& nd, const WorkItemIds& ids, uint32_t block,
                      const std::vector<uint32_t>& blocks);
void retireWorkItemOps(Kernel& k); // every WorkItem op, unused by now, becomes a dead Undef
// The loop over work-items' controls: no dependence between work-items through memories they share,
// nor through those marked in `alsoFree` (each work-item's own slices).
LoopControls workItemControls(const Kernel& k, uint32_t lanes, const std::vector<uint8_t>& alsoFree);
// Barriers (lower_barriers.cpp): the loop over work-groups, in it one loop over the work-group's items
// per stretch of the kernel between barriers; called by streamWorkItems when the kernel has a barrier.
void streamWorkGroups(Kernel& k, uint64_t maxWorkGroupItems);
bool hasBarriers(const Kernel& k);        // a Barrier op (OpControlBarrier at Workgroup scope)
bool isSubgroupBuiltin(uint32_t builtin); // SubgroupSize, SubgroupLocalInvocationId, ...
// Subgroups (lower_subgroups.cpp): whether the kernel uses any (operations or built-ins), and, after
// loop extraction, the loop over work-items with its body built once per lane and the subgroup
// operations as logic across the lanes.
bool hasSubgroups(const Kernel& k);
void buildLanes(Kernel& k);
// The loops over work-items' header names: one, or one per stretch between barriers.
std::vector<std::string> workItemLoops(const Kernel& k);
// One step of a reduction or scan (`a` so far, `x` the next value), and the value an exclusive scan
// starts from (the interpreter's identities).
ValueId combineValues(Builder& b, SgCombine c, ValueId a, ValueId x);
uint64_t combineIdentity(SgCombine c, uint32_t w);
// A Lane op (this lane's index in its subgroup, 32 bits), for a builder to emit.
inline Op laneOp() {
  Op op;
  op.kind = OpKind::Lane;
  op.type = Type::bits(32);
  op.name = "lane";
  return op;
}
// Moves pending controls onto loop headers (BasicBlock::loopControls); warns about controls outside
// any loop.
void attachControls(Kernel& k, LoopForest& lf, std::vector<PendingControls>& pending);
// Adds `from`'s controls to `into`: values `from` sets win, lists and requests are appended.
void mergeControls(LoopControls& into, const LoopControls& from);

// If-converts every extractable innermost loop into a Loop and replaces it in the CFG by a LoopCall
// block; marks the others with notPipelinedReason (lower_extract.cpp).
void extractLoops(Kernel& k, const LoopForest& lf);
// After extractLoops and compaction: pipelines outer loops whose inner loops are all pipelined (all
// of them, or those whose controls ask), each inner LoopCall block a LoopCall of the outer body;
// repeats outwards. Marks the outer loops left in the CFG. Returns whether any was extracted.
// `within`: loop headers whose loops are pipelined that way too (a subgroup kernel's loop over
// work-items, its lanes side by side around its own loops).
bool extractOuterLoops(Kernel& k, bool all, const std::vector<std::string>& within = {});
// MaxInterleavingINTEL N on an outer pipeline's inner loop: N >= 2 builds N copies of a loop that
// accesses no memory (Loop::copies; copies of one that does would share its ports), taking the calls
// in turn; says what was built in the control's note (lower_extract.cpp).
void buildInterleaving(Kernel& k);
// The inner loops `body` runs take their live-ins from its LoopCalls' operands (all but the last, the
// call's predicate), after the body was built or renumbered.
void takeLiveInsFromCalls(Kernel& k, const Loop& body);

// Loop transformations requested by loop controls (Unroll, PartialCount, PeelCount,
// LoopCoalesceINTEL), on the CFG before extraction: the transformed loops' controls record what was
// done, Kernel::loopTransforms lists it. Returns whether the CFG changed (the caller finds the loops
// again) (lower_loop_transform.cpp).
bool transformLoops(Kernel& k, const LoopForest& lf);

// Helpers of the loop transformations (lower_loop_transform.cpp), shared with fusion.
bool contains(const std::vector<uint32_t>& sorted, uint32_t b);
// The loop control `name` on the loop with this header, if it asks and nothing settled it yet.
LoopControlRequest* pendingRequest(Kernel& k, uint32_t header, const char* name);
void settle(LoopControlRequest& r, LoopControlRequest::Status status, std::string note);
// The header's predecessors outside the loop.
std::vector<uint32_t> enteringPreds(const Kernel& k, const LoopInfo& L);
// Edges from `from` to `oldTarget` lead to `newTarget` (phis are the caller's).
void retarget(Kernel& k, uint32_t from, uint32_t oldTarget, uint32_t newTarget);
// Why the loop cannot be copied or fused: it calls a shared function; "" otherwise.
std::string loopsOfCalls(const Kernel& k, const LoopInfo& L);
// `from`'s loop controls join `to`'s (to's values win where both set one).
void moveControls(Kernel& k, uint32_t from, uint32_t to);
// The loop leaves only from its header's conditional branch: its targets inside and outside.
struct HeaderExit {
  uint32_t inside = 0, outside = 0;
};
std::optional<HeaderExit> headerOnlyExit(const Kernel& k, const LoopInfo& L);

// Fuses adjacent loops with the same trip count (default on; NoFusionINTEL, or `enabled` false,
// prevents it), recording each fusion and each adjacent pair not fused with the reason in
// Kernel::loopTransforms. Returns whether the CFG changed (lower_loop_fusion.cpp).
bool fuseLoops(Kernel& k, const LoopForest& lf, bool enabled);

// CFG surgery (lower_clone.cpp).
std::vector<std::vector<uint32_t>> kernelPredecessors(const Kernel& k);
// A copy of `blocks` with their ops: edges inside the set lead to the copies, edges leaving it to the
// same blocks as before (whose phis get the copies' entries); phi entries from outside the set are
// copied as they are (the caller rewires the edges into the copy).
struct BlockCopy {
  std::unordered_map<uint32_t, uint32_t> block; // original block -> copy
  std::unordered_map<ValueId, ValueId> value;   // original value -> copy
};
BlockCopy cloneBlocks(Kernel& k, const std::vector<uint32_t>& blocks, const std::string& suffix);
// Keeps only the phi entries of `block` from `preds`.
void keepPhiEntriesFrom(Kernel& k, uint32_t block, const std::vector<uint32_t>& preds);
// After copying the same blocks (one or more times), each value defined in them has several
// definitions (itself and one per copy): its uses outside the original blocks and the copies read
// the one that reaches them, through new phis where they meet.
void repairSsa(Kernel& k, const std::vector<BlockCopy>& copies);
// An op nobody uses any more becomes a dead Undef at the end of its block (compaction removes it).
void neutralize(Kernel& k, ValueId v);
// Every use of a value v with repl[v] != kNone reads repl[v] instead, followed to the end of the chain
// (a replacement may be replaced too); values past repl's end keep their uses. In the CFG: operands,
// branch conditions and loops' live-ins; in a loop body: operands, phis' next values, the continue
// condition and the live-outs (lower_clone.cpp).
void redirectUses(Kernel& k, const std::vector<ValueId>& repl);
void redirectUses(Loop& loop, const std::vector<ValueId>& repl);
// Unreachable blocks lose their edges (and the phi entries those fed).
void detachUnreachable(Kernel& k);
// Folds operations over constants, phis of one value, selects and branches on constants, to a fixed
// point; unreachable blocks are detached.
void propagateConstants(Kernel& k);
// The value of an integer operation (logic, arithmetic, shift, compare, extension, truncation) whose
// operands all have values by `valueOf`; nullopt for other operations or unknown operands. The one
// folding rule of propagateConstants and of the unroller's trip-count evaluation, which must agree.
// `ops`: the list op's operands index.
std::optional<uint64_t> foldPure(const std::vector<Op>& ops, const Op& op,
                                 const std::function<std::optional<uint64_t>(ValueId)>& valueOf);
// Removes the phi entries of block `to` that come from block `from` (lower_compact.cpp).
void dropPhiEntries(Kernel& k, uint32_t to, uint32_t from);
// The phi entries of `block` from `from` now come from `to`, its new predecessor (lower_compact.cpp).
void renamePhiEntries(Kernel& k, uint32_t block, uint32_t from, uint32_t to);
// Where a CondBranch or Switch goes when its condition is `cond` (lower_compact.cpp).
uint32_t branchTarget(const Terminator& t, uint64_t cond);
// CondBranch/Switch on a constant -> Branch; whether any was folded (lower_compact.cpp).
bool foldConstantBranches(Kernel& k);

// Bypasses empty blocks that only branch on (not those marked in `keep`), updating phis
// (lower_compact.cpp).
void threadForwardingBlocks(Kernel& k, const std::vector<uint8_t>& keep);
// Moves the entry block's ops, but those of the kinds in `stay`, and its terminator to a new block
// (returned), so that something can run between the entry and the function's first block; phis that
// named the entry as a predecessor name the new block (lower_cfg.cpp). The entry is left without a
// terminator.
uint32_t moveEntryOps(Kernel& k, std::initializer_list<OpKind> stay);

// Datapath optimisations (lower_datapath.cpp): shifts by a constant become wires, multiplications and
// divisions by a constant shifts and adds or a multiplication by the reciprocal, in the CFG and in
// every loop body. Returns whether anything changed (compaction then drops what was replaced).
bool optimizeDatapath(Kernel& k);
// OpenCL's fmin (isMax: fmax) of two IEEE values of 16, 32 or 64 bits as logic on their bits, as the
// interpreter (glibc) gives it, NaNs and signed zeros included (ir/lower_float.cpp).
ValueId floatMinMax(Builder& b, bool isMax, ValueId x, ValueId y);
// A load of the bytes an earlier access in its block read or wrote takes that value (ir/lower_loads.cpp).
bool reuseLoads(Kernel& k);
// Stores to a private array that nothing reads any more (every load of it reused an earlier value)
// are dropped, and the array with them (ir/lower_loads.cpp).
bool dropUnreadStores(Kernel& k);
// Loop-body values equal to an earlier one, carried values (e.g. the induction variables of fused
// loops) included, are replaced by it (ir/lower_gvn.cpp).
bool mergeEqualValues(Kernel& k);
// A load that reads what the one store to its memory in the loop body wrote the iteration before
// takes that value, carried in a register; it reads the memory only where that store did not run
// (ir/lower_forward.cpp).
bool forwardStores(Kernel& k);
// Consecutive loads, or stores, of a loop body to an external memory under one predicate, the lowest
// aligned to their total width, as one wide access (ir/lower_widen.cpp).
bool widenAccesses(Kernel& k);
// The one LoopCall of the CFG that runs loop l (kNone: none, or a loop body runs it; lower_datapath.cpp).
ValueId cfgCallOf(const Kernel& k, uint32_t l);
// A new operation standing for `from` (same type, name, origin and location): a LiveIn or LoopPhi
// `index` in a loop body (lower_extract.cpp).
Op standIn(const Op& from, OpKind kind, uint32_t index);
// The cheaper form of one such operation, built with `b` from `op`'s operands (values of b's list);
// kNone when it stays as it is. For tests.
ValueId reduceOperation(Builder& b, const Op& op);

// Removes unreachable blocks, dead ops, dead loop parts and unused local memories; renumbers values
// and blocks (reverse post-order), orders block ops (phis, leaves, the rest) and gives every block its
// own copies of the constants it uses (lower_compact.cpp).
void compactKernel(Kernel& k);

// The ports each memory needs, from the loads and stores that access it (structure.cpp); ramPorts and
// ramReadPorts as LowerOptions'.
std::vector<std::vector<MemoryPort>> memoryPortsFromAccesses(const Kernel& k, uint32_t ramPorts,
                                                             uint32_t ramReadPorts);
// Each memory's port data width (Memory::wordBits) from its widest access (structure.cpp).
std::vector<uint32_t> memoryWordBitsFromAccesses(const Kernel& k);

// ---------------------------------------------------------------------------------------------
// Graph helpers (lower_cfg.cpp). Nodes are 0..n-1.

using Succs = std::vector<std::vector<uint32_t>>;
std::vector<uint32_t> reversePostOrder(const Succs& succ, uint32_t entry); // reachable nodes only
// Several roots (the kernel's entry and shared functions' entries): each root's reverse post-order in
// turn, so the first root's blocks come first.
std::vector<uint32_t> reversePostOrder(const Succs& succ, const std::vector<uint32_t>& roots);
// Immediate dominators by Boost's Lengauer-Tarjan; -1 for the entry and unreachable nodes.
std::vector<int> immediateDominators(const Succs& succ, uint32_t entry);
// A forest: -1 for every root; nothing in one root's tree dominates a block of another.
std::vector<int> immediateDominators(const Succs& succ, const std::vector<uint32_t>& roots);
bool dominates(const std::vector<int>& idom, uint32_t a, uint32_t b);
std::vector<std::vector<uint32_t>> dominanceFrontiers(const Succs& succ, const std::vector<int>& idom,
                                                      const std::vector<uint32_t>& roots);
Succs kernelSuccessors(const Kernel& k);
// The loop's blocks in a topological order of its body without the back edges to its header (the
// header first); empty when a cycle remains (an inner loop, or flow entering a cycle elsewhere).
std::vector<uint32_t> loopBodyOrder(const Succs& succ, const LoopInfo& L);

// ---------------------------------------------------------------------------------------------
// Appends ops to an op list with light constant folding and algebraic simplification. Used for the
// kernel CFG (ops go into `block`) and for loop bodies.

class Builder {
public:
  Builder(std::vector<Op>& ops, std::vector<BasicBlock>* blocks) : ops_(ops), blocks_(blocks) {}

  uint32_t block = 0;    // kernel: block of new ops
  SourceLoc loc;         // location given to new ops

  ValueId emit(Op op);
  const Op& op(ValueId v) const { return ops_[v]; }
  const std::vector<Op>& ops() const { return ops_; }
  uint32_t width(ValueId v) const { return ops_[v].width(); }
  std::optional<uint64_t> constValue(ValueId v) const;

  ValueId constant(uint32_t width, uint64_t value);
  ValueId undef(uint32_t width);
  ValueId phi(Type type, std::string name = {});  // without entries yet (addPhiEntry)
  ValueId binary(OpKind k, ValueId a, ValueId b); // result width: 1 for compares, else a's
  ValueId unary(OpKind k, ValueId a);             // Neg, Not
  ValueId select(ValueId c, ValueId a, ValueId b);
  ValueId resize(ValueId a, uint32_t width, bool isSigned); // ZExt/SExt/Trunc or a itself
  ValueId mulConst(ValueId a, uint64_t c);                 // Shl for powers of two
  ValueId extract(ValueId a, uint32_t lo, uint32_t width); // bits [lo, lo + width) of a (a itself if all)
  ValueId concat(const std::vector<ValueId>& parts);       // parts[0] in the lowest bits
  // Predicates (i1); kNone stands for "always true".
  ValueId predAnd(ValueId a, ValueId b);
  ValueId predOr(ValueId a, ValueId b);
  ValueId predNot(ValueId a);

private:
  std::vector<Op>& ops_;
  std::vector<BasicBlock>* blocks_;
  std::unordered_map<uint64_t, ValueId> consts_; // (width << 56 ^ value) collisions checked
  // Common subexpressions: pure ops by (block, kind, width, attributes, operands), so that the
  // address arithmetic -O0 code repeats for every access is computed once.
  std::map<std::vector<uint64_t>, ValueId> pure_;
};

// Kernel values a pass computes before the LoopCall `call` of the CFG and passes to loop l as new
// live-ins (lower_datapath.cpp): build them with `b`, pass them with addLiveIn, then finish().
struct CallSite {
  CallSite(Kernel& k, uint32_t l, ValueId call);
  // The loop's live-in index that passes kernel value kv (a new one unless it is passed already).
  uint32_t addLiveIn(ValueId kv);
  // The call passes the loop's live-ins; the kernel values made go into its block, before it.
  void finish();

  Kernel& k;
  Loop& loop;
  ValueId call;
  Builder b;

private:
  ValueId firstNew_;
};

// Known bits (ir/lower_bits.cpp): an AND, OR, XOR or ADD whose result bits are, by what is known of
// its operands' bits, bits of an operand or constants becomes those wires; where only some are, the
// gate stays on the others; an ADD or multiplication whose result fits fewer bits is built that wide.
// Values that form an address into a memory the list stores to are left alone. Built over the list
// the rewrites go to (`ops`: the op list as rewritten so far, whose values the rewritten ops' operands
// are).
class KnownBits;
class BitRewriter {
public:
  // `original`: the op list before rewriting, whose values `rewrite` is asked about; read here only
  // (its address cone), so it may be `ops` itself before anything is appended.
  BitRewriter(const std::vector<Op>& ops, const std::vector<Op>& original);
  ~BitRewriter();
  // The operations `rewrite` may change (AND, OR, XOR, ADD, multiplication).
  static bool rewritable(OpKind k);
  // `op` (the original's value `v`, its operands already in b's list) rewritten, or kNone.
  ValueId rewrite(Builder& b, ValueId v, const Op& op);

private:
  std::unique_ptr<KnownBits> known_;
  std::vector<uint8_t> address_; // of the original values: part of a memory address
};

uint64_t widthMask(uint32_t width);
// Whether `a` (an op of `ops`) is x + c or x - c with c a constant and x not one: x, and c (negated
// for a subtraction, modulo 2^64).
bool splitConstantAdd(const std::vector<Op>& ops, const Op& a, ValueId& x, uint64_t& c);
int64_t signExtend(uint64_t v, uint32_t width);
// Folds an operation over constant operands; nullopt when it does not fold (e.g. division by zero).
// `rounding`: a conversion's Op::rounding.
std::optional<uint64_t> foldConstant(OpKind k, uint32_t width, const std::vector<uint64_t>& vals,
                                     uint32_t operandWidth, uint8_t rounding = 0);
bool isCompare(OpKind k);
// An unsigned comparison with a constant at an end of its range has a fixed result (x u< 0 is false,
// x u<= max is true, ...): nullopt otherwise. `ca`, `cb`: the operands' values where constant.
std::optional<bool> foldUnsignedBound(OpKind k, uint32_t width, std::optional<uint64_t> ca,
                                      std::optional<uint64_t> cb);

} // namespace spvhls::ir::lower
