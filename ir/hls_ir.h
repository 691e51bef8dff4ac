// The HLS IR: the output of lowering (frontend/ModuleView -> ir::Kernel) and the input of scheduling.
//
// A Kernel is one entry point after inlining every call and promoting Function-storage variables.
// Its control flow is a CFG of blocks in SSA form (the part executed by the kernel's FSM). Every
// innermost loop that can be pipelined is cut out of the CFG into a Loop: an if-converted body (a DAG
// of operations with predicates, no control flow), loop-carried phis, live-ins and live-outs. In the CFG
// such a loop is one Op of kind LoopCall in a block of its own.
//
// Every value has a Type (ir/types.h); lowering produces bits of 1..64, and wider bits only for a
// vector accessed as one wide Load/Store (the Load, the Concat of a store's data, their Extracts). Operations
// are listed once, in ir/ops.def. Pointers into CrossWorkgroup buffers are not values: every Load/Store names
// its Memory (one per pointer argument or on-chip array) and takes a byte offset (64-bit) into it.
//
// Above the CFG and the loops: the region tree (the kernel's loops at every depth, pipelined or
// not), the processes (the kernel's own, later one per task function) and the channels between them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "ir/types.h"

namespace spvhls::ir {

using ValueId = uint32_t; // index into the owning OpList (Kernel::ops or Loop::ops)
constexpr ValueId kNone = ~0u;
// The default on-chip budget (LowerOptions::onChipBudget): the bytes of private arrays and
// program-scope variables built as on-chip RAMs; the rest become external memories.
constexpr uint64_t kDefaultOnChipBudget = 256 * 1024;
// The largest single variable or private array the compiler builds at all (on chip or as an external
// memory): its initial image is held in memory while compiling and simulating.
constexpr uint64_t kMaxVariableBytes = uint64_t(64) << 20;
// The widest single Load/Store: a 16-lane vector of 64-bit elements, accessed whole.
constexpr uint32_t kMaxAccessBytes = 128;
// An on-chip RAM (rtlgen/ram_gen.h) is always ready and answers a read the cycle after its request.
constexpr uint8_t kOnChipReadLatency = 1;

enum class OpKind : uint8_t {
#define OP(name, operands, result, effect, cls) name,
#include "ir/ops.def"
#undef OP
};

// How an operation's result type follows from its operands (see ir/ops.def).
enum class ResultRule : uint8_t {
  Explicit,
  SameAsOperands,
  Bool,
  SelectValue,
  Wider,
  Narrower,
  None,
  Callee
};
// The kind of hardware an operation needs, for the operator library.
enum class OpClass : uint8_t {
  Wire,
  Logic,
  Arith,
  Shift,
  Compare,
  Mux,
  Multiply,
  Divide,
  Float,
  Memory,
  Control
};
constexpr int kVariadic = -1;

struct OpInfo {
  const char* name;
  int operands; // a count, or kVariadic
  ResultRule result;
  bool sideEffect;
  OpClass opClass;
};

const OpInfo& opInfo(OpKind k);
inline const char* opKindName(OpKind k) { return opInfo(k).name; }
// A subgroup operation (ops.def: Lane, Sg*), replaced by logic across a subgroup's lanes.
inline bool isSubgroupOp(OpKind k) {
  return k == OpKind::Lane || k == OpKind::SgShuffle || k == OpKind::SgShuffleDown ||
         k == OpKind::SgShuffleUp || k == OpKind::SgShuffleXor || k == OpKind::SgScan;
}
// Ops that exist only during lowering: work-item built-ins, barriers and subgroup operations.
inline bool isLoweringOnly(OpKind k) {
  return k == OpKind::WorkItem || k == OpKind::Barrier || isSubgroupOp(k);
}
inline bool hasSideEffect(OpKind k) {
  return opInfo(k).sideEffect;
} // Store, LoopCall, Call
// Op::rounding's name: "rte", "rtz", "rtp", "rtn" (IR dumps, unit module names).
const char* roundingName(uint8_t rounding);
// The floating-point conversions, whose Op::imm is their operand's width.
inline bool isConversion(OpKind k) {
  return k == OpKind::SIToFP || k == OpKind::UIToFP || k == OpKind::FPToSI || k == OpKind::FPToUI ||
         k == OpKind::FPToFP;
}
const char* opClassName(OpClass c);

struct Op {
  OpKind kind = OpKind::Const;
  uint8_t size = 0;            // Load/Store access size in bytes (next to kind: packs the struct)
  // SIToFP / UIToFP / FPToFP: how an inexact result rounds, SPIR-V FPRoundingMode (0 RTE, 1 RTZ,
  // 2 RTP, 3 RTN); 0 for every other op.
  uint8_t rounding = 0;
  // Load: the cycles from its request to its response when its memory answers in fixed time (an
  // on-chip RAM: kOnChipReadLatency); 0 = unknown, the target's memory latency is assumed. Set by
  // buildStructure from the memory's kind.
  uint8_t readLatency = 0;
  // Load/Store: which of its memory's ports it uses (Memory::ports; set by buildStructure): a store
  // the port that writes, a load one of the ports that read.
  uint8_t port = 0;
  Type type;                   // result type (none: no result)
  uint32_t memory = 0;         // Load/Store memory index
  uint32_t index = 0;          // Arg / LiveIn / LoopPhi / LoopCall / LoopOut index
  uint64_t imm = 0;            // Const value (zero-extended): its low 64 bits
  std::vector<ValueId> operands;
  std::vector<uint32_t> phiBlocks; // Phi: predecessor block of each operand
  uint32_t block = 0;          // Kernel ops: the block it lives in
  uint32_t spirvId = 0;        // the SPIR-V result id it came from (0 = synthesized), for reports
  std::string name;            // readable name (OpName or derived), may be empty
  SourceLoc loc;               // where it came from, for diagnostics
  // Const wider than 64 bits: the 64-bit words above `imm`, least significant first (empty up to 64).
  std::vector<uint64_t> immHigh;

  uint32_t width() const { return type.width(); } // total result bits (0 = no result)
};

// How a memory is accessed through one of its ports.
enum class PortAccess : uint8_t { Read, Write, ReadWrite };
const char* portAccessName(PortAccess a);

struct MemoryPort {
  PortAccess access = PortAccess::ReadWrite;
  // The port's number among the kernel's hardware ports (a scheduling resource, a port of the loop
  // modules): memory m's first port is m; the further ports of the memories that have several are
  // memories.size(), memories.size() + 1, ... in memory and port order (portKey).
  uint32_t key = 0;
};

struct Memory {
  // Argument: a pointer argument's buffer, outside the kernel (a memory port of the top module).
  // ProgramScope: a module-scope variable (program-scope global or constant, a kernel's local array,
  // a private module-scope variable); Private: a function's private array, or a buffer holding each
  // work-item's values across a barrier (ir/lower_barriers.cpp); WorkGroup: a work-group's local
  // memory (a Workgroup variable), its contents undefined at the start of each work-group and after
  // the run. These three become on-chip RAMs while they fit the on-chip budget.
  // External: a program-scope variable or private array that did not fit the on-chip budget
  // (LowerOptions::onChipBudget); a memory port of the top module of its own, like an argument's,
  // whose buffer the host loads with `init` (docs/hardware-interface.md).
  // Queue: a task process's invocation or result queue as a pipelined loop reaches it: a Store pushes
  // an invocation (the arguments end to end), a Load pops a result (docs/task-sequences.md). Only
  // loop bodies access one; the kernel's FSM uses TaskAsync / TaskGet.
  enum class Kind { Argument, ProgramScope, Private, WorkGroup, External, Queue };
  Kind kind = Kind::Argument;
  std::string name;      // pointer argument's name or variable's name
  uint32_t argIndex = 0; // Argument: the kernel argument it belongs to
  uint64_t sizeBytes = 0;        // on chip: size; Argument: 0 (unknown)
  std::vector<uint8_t> init;     // on chip: initial contents (empty = zero)
  // ProgramScope: the SPIR-V variable (simulation compares its final contents with the interpreter's).
  uint32_t spirvVar = 0;
  // The contents persist from one run of the kernel to the next (a program-scope variable in the global
  // address space): `init` is configured once, and the kernel's writes stay. Otherwise an initialised
  // memory the kernel writes gets its contents stored again at the start of every run.
  bool persistent = false;
  // It holds pointers (their byte offsets into the memory they point to): its bytes are not the
  // interpreter's, which encodes pointers its own way, so simulation does not compare them.
  bool holdsPointers = false;
  uint32_t elemBytes = 4;        // the widest access seen, for reports
  // Data width of its ports: its widest access, at least 64 (docs/hardware-interface.md); set by
  // buildStructure.
  uint32_t wordBits = 64;
  // Derived from the accesses (buildStructure): one port, read, write or both; none if unused. An
  // on-chip RAM that is read and written, and that no task process reaches, has two: a read port and
  // a write port (LowerOptions::ramPorts), so a loop may load and store it in the same cycle. An
  // on-chip RAM with a read port may have more read ports after those (LowerOptions::ramReadPorts),
  // each a copy of its contents: ports[0] always reads when any port does.
  std::vector<MemoryPort> ports;
  // WorkGroup: a work-group collective's accumulator (bytes [0, elemBytes)) and result (the next
  // elemBytes), which the work-items update in order (ir/lower_collectives.cpp): unlike other local
  // memory, the loop over work-items keeps its dependences.
  bool collective = false;
  // A Private memory holding one slice per work-item of a work-group, indexed by the local linear id
  // (values and private arrays kept across a barrier, ir/lower_barriers.cpp): a subgroup's lanes
  // already access slices of their own.
  bool perWorkItem = false;
  // Queue: the Task process and which of its queues (results, or invocations).
  uint32_t queueProcess = 0;
  bool queueResults = false;
  // Queue: the task body's own end of its queues (a pipelined task's body pops its invocations and
  // pushes its results; queueProcess unused): a port of the body's module, like an External memory.
  bool queueOwn = false;
  // A pipelined task's body: a port onto this kernel memory of the caller's, addressed with the byte
  // offsets the body computes itself (pointer parameters; ~0u: not one).
  uint32_t boundTo = ~0u;
  bool onChip() const { return kind != Kind::Argument && kind != Kind::External && kind != Kind::Queue; }
  bool ownQueue() const { return kind == Kind::Queue && queueOwn; }
  // A port of its kernel's module (the top module's, or a task body's).
  bool isPort() const { return kind == Kind::Argument || kind == Kind::External || ownQueue(); }
  // Not an argument: its contents at the start, `init` or zeros (the image an external memory is loaded
  // with, a RAM's configured contents).
  std::vector<uint8_t> initialContents() const {
    return init.empty() ? std::vector<uint8_t>(sizeBytes, 0) : init;
  }
};
const char* memoryKindName(Memory::Kind k);

struct KernelArg {
  std::string name;
  bool isPointer = false;
  Type type;               // scalar: its type (none for pointers)
  uint32_t memory = 0;     // pointer: memory index

  uint32_t width() const { return type.width(); }
};

// Loop controls as requested by the source, plus what lowering concluded.
struct LoopControlRequest {
  std::string name;        // e.g. "InitiationIntervalINTEL"
  std::string value;       // e.g. "4" or "a:1, b:0"
  enum class Status { Honoured, NotHonouredYet, Ignored } status = Status::NotHonouredYet;
  std::string note;        // why, when not honoured
};

struct LoopControls {
  std::optional<uint32_t> ii;              // InitiationIntervalINTEL
  std::optional<bool> pipelineEnable;      // PipelineEnableINTEL
  std::optional<uint32_t> maxConcurrency;  // MaxConcurrencyINTEL
  std::optional<uint32_t> speculatedIterations;
  std::optional<uint32_t> maxInterleaving; // MaxInterleavingINTEL
  // DependencyArrayINTEL / DependencyInfinite / DependencyLength: distance per memory (by memory
  // index); 0 = no loop-carried dependence through that memory; missing = unknown.
  std::vector<std::pair<uint32_t, uint32_t>> memoryDependenceDistance;
  std::optional<uint32_t> dependencyLengthAll; // core DependencyLength / DependencyInfinite (=0)
  // LoopCountINTEL min / max / avg trip counts (-1 in the source: not given).
  std::optional<int64_t> loopCountMin, loopCountMax, loopCountAvg;
  std::vector<LoopControlRequest> requests;   // every control seen, for the report
};

struct LoopPhi {
  std::string name;
  uint32_t initLiveIn = 0; // index into Loop::liveIns of the value before the first iteration
  ValueId next = kNone;  // body value (Loop::ops) carried into the next iteration
  Type type;

  uint32_t width() const { return type.width(); }
};

// A floating-point sum the loop carries (ir/reassociate.h), for the report: found always, split into
// partial sums only under --fp-reassociate.
struct FpReduction {
  std::string phi;           // the carried sum's name
  std::string op;            // the adder, e.g. "FAdd %add"
  uint32_t chainLatency = 0; // cycles from the phi through the adder back to it: its RecMII
  uint32_t partials = 0;     // the partial sums built (0: not reassociated)
};

// A pipelined loop (an innermost one, or an outer loop running its inner loops as LoopCalls), if-converted.
// Iteration semantics: every iteration evaluates all of `ops`; ops with side effects are guarded by their
// pred operand. `continueCond` (i1) is true when another iteration follows; the iteration in which it is
// false is the last one, and the live-outs are the values it computed. A top-tested `for` therefore runs trip
// count + 1 iterations, the last one only evaluating the header (every body predicate false). A LoopCall in
// `ops` runs an inner loop to its end in the iterations its predicate (its last operand, after the inner
// loop's live-ins) holds; its LoopOuts read the results. In hardware it is a sub-pipeline: started at the
// call's position, its results expected `imm` cycles later (kSubPipelineLatency; the outer pipeline waits
// when they come later). Lowering builds such outer loops when asked (ir/lower_extract.cpp:
// extractOuterLoops).
constexpr uint64_t kSubPipelineLatency = 2;
struct Loop {
  std::string name;                // header block name, e.g. "for.cond"
  SourceLoc loc;                   // header location
  std::vector<Op> ops;             // body, in a topological order (operands before users)
  // Values of the caller used by the body, by LiveIn index: Kernel::ops when a LoopCall of the CFG runs
  // the loop, the enclosing Loop::ops when a LoopCall in a loop body does (an inner loop).
  std::vector<ValueId> liveIns;
  std::vector<LoopPhi> phis;
  ValueId continueCond = kNone;
  std::vector<ValueId> liveOuts;   // body values readable after the loop, by LoopOut index
  LoopControls controls;
  uint32_t depth = 1;              // nesting depth (1 = outermost), as its region's
  std::optional<uint64_t> tripCountHint; // from LoopCountINTEL avg or max, if any
  // An outer pipeline's inner loop: the copies of its hardware, taking the calls in turn, so that that
  // many calls run at once (MaxInterleavingINTEL; lower::buildInterleaving).
  uint32_t copies = 1;
  // An inner loop of a kernel with subgroups whose lanes may leave at different iterations, or that
  // only some lanes run: each lane's "still running" is carried and guards its accesses
  // (lower_subgroups.cpp).
  bool laneMasked = false;
  std::vector<FpReduction> fpReductions; // found by findFpReductions (driver), for the report
  // Where the loop can leave from: the header (a top-tested loop: its last iteration runs only the
  // header, so trip count = iterations - 1) and / or other blocks (a bottom test or a break: the last
  // iteration ran the body).
  bool exitsFromHeader = false, exitsFromBody = false;

  // It never exits (its continue condition is the constant true: a pipelined task's loop serving its
  // invocations): nothing is squashed, so its memory requests need not wait for the condition.
  bool endless() const {
    return continueCond < ops.size() && ops[continueCond].kind == OpKind::Const && (ops[continueCond].imm & 1);
  }
};

struct Terminator {
  enum class Kind { Branch, CondBranch, Switch, Return, Unreachable };
  Kind kind = Kind::Return;
  ValueId cond = kNone;                 // CondBranch condition / Switch selector / Return: a shared
                                        // function's result (kNone: void, or the kernel's return)
  std::vector<uint32_t> targets;        // Branch: [t]; CondBranch: [true, false]; Switch: [default, cases...]
  std::vector<uint64_t> caseValues;     // Switch: one per targets[1..]
  SourceLoc loc;
};

struct BasicBlock {
  std::string name;
  // LoopCall blocks: the loop number it runs (its invocation count = entries into the loop header).
  std::optional<uint32_t> loopCall;
  std::vector<ValueId> ops; // in execution order; Phis first
  Terminator term;
  // Loops that are not pipelined stay in the CFG; their controls are reported from here.
  std::optional<LoopControls> loopControls;
  std::string notPipelinedReason;  // set on headers of loops that stayed in the CFG
};

// The region tree: a process's top level (the root, depth 0) and its loops at every depth, whether
// pipelined (an ir::Loop run by a LoopCall) or left in the CFG. Built by buildStructure() from the
// natural loops of the final CFG.
constexpr uint32_t kNoRegion = ~0u;
constexpr uint32_t kNoBlock = ~0u;

struct Region {
  enum class Kind { Process, Loop };
  Kind kind = Kind::Loop;
  std::string name;               // the process's name, or the loop header's
  SourceLoc loc;
  uint32_t process = 0;           // the Process it belongs to
  uint32_t parent = kNoRegion;    // kNoRegion for a root
  std::vector<uint32_t> children; // in order of their headers (reverse post-order)
  uint32_t depth = 0;             // 0: a process's top level; 1: an outermost loop, ...
  // Loops in the CFG: the header block. Pipelined loops: the block of the LoopCall that runs it when a
  // CFG block does (kNoBlock when a loop body calls it).
  uint32_t header = kNoBlock;
  std::vector<uint32_t> blocks;   // Kernel::blocks inside, sorted, inner regions' included
  std::optional<uint32_t> loop;   // pipelined: the Kernel::loops entry it became
};

// A process: hardware running one task function. The kernel has its own (processes[0]); every
// OpTaskSequenceCreateINTEL adds a Task process, one hardware instance of its task function whose
// body is lowered on its own (Kernel::tasks[body]: its parameters are that kernel's arguments), with
// an invocation and a result channel to the kernel (SPV_INTEL_task_sequence, docs/task-sequences.md).
struct Process {
  enum class Kind { Kernel, Task };
  Kind kind = Kind::Kernel;
  std::string name;
  SourceLoc loc;
  uint32_t region = 0; // the kernel's: its root region (the CFG in Kernel::blocks)
  // Task only.
  std::string function;                   // the task function's name
  uint32_t spirvFunction = 0;             // its SPIR-V id
  uint32_t body = 0;                      // Kernel::tasks index
  int32_t pipelined = -1;                 // the create's Pipelined: 0 no, N > 0 an II, -1 compiler's choice
  // Its body is one pipelined loop serving the invocations (Pipelined != 0 and the body has no loop of
  // its own): it pops each invocation's arguments from its invocation queue and pushes the result,
  // a new invocation every II cycles (lower_task_serve.cpp). Else one invocation at a time, and
  // `notServed` says why when Pipelined asked for more.
  bool served = false;
  std::string notServed;
  std::vector<Type> params;               // the task function's parameters (a pointer: its 64-bit offset)
  int32_t clusterMode = -1;               // 0 stall-free, 1 stall-enable, -1 compiler's choice
  uint32_t getCapacity = 0, asyncCapacity = 0;
  uint32_t invocation = 0, result = 0;    // its Channels
  Type resultType;                        // the task function's result (none: void)
  // Per task parameter: the kernel memory a pointer argument points into (every async passes a
  // byte offset into that one memory), kNoMemory for a scalar.
  std::vector<uint32_t> argMemory;
  // Per memory of the body: the kernel memory it is (a pointer parameter: the memory every async's
  // argument points into, its byte offset passed with the arguments; a program-scope variable: the
  // kernel's memory of that variable), or kNoMemory for the task's own (private arrays).
  std::vector<uint32_t> memoryMap;
};
constexpr uint32_t kNoMemory = ~0u;

// A FIFO between two processes. Invocation: the producer starts the consumer with arguments (their
// bits end to end, the first lowest); Result: the consumer's results back to the producer (one bit
// for a void task: the completion).
struct Channel {
  enum class Kind { Invocation, Result };
  Kind kind = Kind::Invocation;
  std::string name;
  Type element;         // one entry's type
  uint32_t depth = 1;   // entries
  uint32_t producer = 0, consumer = 0; // Process indices
  SourceLoc loc;
};

// A function kept as one shared unit instead of being inlined at every call (--inline, LowerOptions).
// Its blocks are part of Kernel::blocks, entered only through its Call ops: a root of the CFG beside
// blocks[0]. It runs in the kernel's FSM as a subroutine: a Call writes its Params, records where to
// return to and jumps to `entry`; a Return in its blocks writes that Call's result and continues after
// it. One activation at a time (no recursion), so its values need one register each, as the kernel's.
struct Function {
  std::string name;
  SourceLoc loc;
  uint32_t entry = kNoBlock;
  std::vector<Type> params;
  Type result; // none: void
};

// What lowering did with a function the kernel calls, for the report.
struct InlineDecision {
  std::string name;
  SourceLoc loc;
  bool shared = false;       // a Kernel::functions entry, or inlined at every call
  uint32_t callSites = 0;    // calls in the kernel as built (an inlined caller's calls count per copy)
  uint64_t instructions = 0; // its SPIR-V instructions with its callees inlined
  std::string reason;
};

// An OpenCL.std function built as an approximation (not bit-exact to the interpreter's libm), for
// the report and the simulation's comparison: its documented largest error in ulps.
struct Approximation {
  std::string function; // e.g. "exp"
  uint32_t width = 32;  // the operand's float width
  uint32_t maxUlps = 0; // documented bound against the correctly rounded result
  // How far the interpreter's own result (the host's libm) can be from the correctly rounded one:
  // `spvhls sim` allows maxUlps + referenceUlps between the two.
  uint32_t referenceUlps = 0;
  SourceLoc loc;
};

// A loop transformation lowering made on request of a loop control (unrolling, peeling, coalescing),
// for the report: the loop may no longer exist afterwards (fully unrolled).
struct LoopTransform {
  std::string loop; // the header's name as in the source
  SourceLoc loc;
  std::string control; // e.g. "Unroll", "PartialCount 4", "LoopCoalesceINTEL 2"
  std::string what;    // e.g. "fully unrolled: 3 copies of the body, no loop left"
};

// How an SgScan op combines its lanes' values (Op::index), in lane order.
// A subgroup reduction's or scan's combining step; the F* ones on IEEE values of 16, 32 or 64 bits.
enum class SgCombine : uint32_t { Add, Mul, And, Or, Xor, SMin, UMin, SMax, UMax, FAdd, FMul, FMin, FMax };

// What one subgroup operation became across the lanes (ir/lower_subgroups.cpp), for the report.
struct LaneLogic {
  std::string op;      // e.g. "SgShuffle %y"
  uint32_t bits = 0;   // of one lane's value
  uint32_t inputs = 0; // the values a lane may take (S; 2S for a shuffle up or down)
  bool wired = false;  // a shuffle by a constant: wires, no multiplexer
  std::string combine; // an SgScan's step, e.g. "add" (empty for shuffles)
};

// The scalar arguments an ND-range kernel gets after its own (ir/lower_ndrange.cpp), in this order:
// global_size_0..2, local_size_0..2, work_dim, each 32 bits.
constexpr uint32_t kNdRangeArgs = 7;

struct Kernel {
  std::string name;
  SourceLoc loc;
  std::vector<KernelArg> args;
  std::vector<Memory> memories;
  std::vector<Op> ops;            // all CFG values
  std::vector<BasicBlock> blocks; // blocks[0] is the entry
  std::vector<Loop> loops;        // pipelined loops, called by LoopCall ops
  std::vector<Function> functions;      // shared functions, called by Call ops
  std::vector<InlineDecision> inlining; // every function called, shared or inlined
  std::string inlinePolicy = "auto";    // the --inline policy lowering followed, for reports
  std::vector<Approximation> approximations; // one per call of an approximated function
  std::vector<LoopTransform> loopTransforms; // unrolled, peeled and coalesced loops
  std::vector<Region> regions;    // the region tree; regions[0] is the kernel process's root
  std::vector<Process> processes; // processes[0] is the kernel's own
  std::vector<Channel> channels;
  // Task processes' bodies, each lowered from its task function as a kernel of its own.
  std::vector<Kernel> tasks;
  // An ND-range kernel (ir/lower_ndrange.cpp): its body runs once per work-item in a loop the
  // compiler adds (Kernel::workItemLoop names its header block), the ND-range's sizes being the last
  // kNdRangeArgs scalar arguments.
  bool ndRange = false;
  std::string workItemLoop;
  // Work-items per iteration of that loop: a subgroup's lanes side by side (1: one work-item; more
  // only when the kernel uses subgroups, ir/lower_subgroups.cpp).
  uint32_t subgroupLanes = 1;
  bool subgroups = false; // the kernel uses subgroups (then subgroupLanes is their size, 1 included)
  // Memory accesses of the lanes (ir/lower_subgroups.cpp), not counting those the same in every lane:
  // made once for the lanes (consecutive addresses as one wide access, lane 0's aligned to its width;
  // one address under the lanes' predicates as one access), and made once per lane.
  uint32_t laneAccessesJoined = 0, laneAccessesPerLane = 0;
  std::vector<LaneLogic> laneLogic; // each shuffle's crossbar, each reduction's or scan's chain
  // Work-group barriers (ir/lower_barriers.cpp): the loop over work-items is split at them into
  // `barrierLoops` loops (their header blocks), run one after another for each work-group inside the
  // loop over work-groups (workItemLoop); values live across a barrier wait in per-work-item buffers
  // (Private memories of maxWorkGroupItems entries, `barrierBufferBits` bits per work-item in all).
  // One work-group is in flight at a time.
  std::vector<std::string> barrierLoops;
  uint64_t maxWorkGroupItems = 0; // the largest work-group the buffers hold (0: no barrier)
  uint64_t barrierBufferBits = 0;
  // A task body's result (the function's return type; none: void, and always for a kernel): the
  // value its Return terminators carry.
  Type result;
  // SPV_INTEL_maximum_registers request, as text (empty: none), and the budget it sets: N registers
  // of 32 bits each for the pipeline registers of every pipelined loop (0: none; AutoINTEL sets none).
  std::string registerLimit;
  uint64_t registerBudgetBits = 0;
  // What the datapath optimisations did (ir/lower_datapath.cpp; LowerOptions::optimizeDatapath), for
  // the report: operations by a constant rewritten, invariant values computed before their loop,
  // induction-variable multiplications turned into additions.
  struct DatapathRewrites {
    uint32_t shifts = 0, multiplications = 0, divisions = 0, hoisted = 0, inductions = 0;
    uint32_t reusedLoads = 0; // loads that took an earlier access's value (ir/lower_loads.cpp)
    uint32_t droppedStores = 0; // stores to private arrays nothing reads (ir/lower_loads.cpp)
    uint32_t mergedValues =
        0; // loop-body values equal to an earlier one, carried values included (ir/lower_gvn.cpp)
    uint32_t forwardedLoads = 0; // loads given the previous iteration's stored value (ir/lower_forward.cpp)
    // ANDs, ORs, XORs, ADDs and multiplications made wires or narrower by their operands' known bits
    // (ir/lower_bits.cpp)
    uint32_t knownBits = 0;
    // Consecutive loads or stores of a loop body made one wide access: the wide accesses, the accesses
    // they replace (ir/lower_widen.cpp)
    uint32_t wideAccesses = 0, widenedAccesses = 0;
    // x + c1 + c2 made x + (c1 + c2) (ir/lower_datapath.cpp)
    uint32_t foldedAdds = 0;
  } datapath;
  // Some access of the kernel (or a function it calls) is volatile (the Volatile memory operand or
  // decoration): every load must reach the memory, so none reuses an earlier one's value.
  bool volatileAccess = false;
  // The on-chip budget lowering placed the memories by (LowerOptions::onChipBudget), for reports.
  uint64_t onChipBudget = kDefaultOnChipBudget;
  // SPV_INTEL_fpga_cluster_attributes on the kernel function: the cluster kind its source asks for
  // ("StallEnableINTEL" / "StallFreeINTEL"; empty: none). Honoured unless the command line overrides.
  std::string clusterAttribute;
  // Warnings and notes from lowering (never errors: those are thrown), e.g. loop controls that could
  // not be attached to a loop.
  std::vector<Diagnostic> diagnostics;
};

// The roots of the CFG: blocks[0] (the kernel's entry) and every shared function's entry.
std::vector<uint32_t> cfgRoots(const Kernel& k);
// Per block: the shared function whose part of the CFG it is (reached from that function's entry),
// -1 for the kernel's own blocks and unreachable ones.
std::vector<int> functionOfBlocks(const Kernel& k);

// The memories pipelined loop `l` reads and writes, those of the inner loops it runs included
// (ascending, each once).
struct MemoryUse {
  std::vector<uint32_t> reads, writes;
};
MemoryUse loopMemoryUse(const std::vector<Loop>& loops, uint32_t l);
// The hardware port a Load or Store uses (MemoryPort::key).
uint32_t portKey(const std::vector<Memory>& memories, const Op& op);
// The number of hardware ports, keys 0 .. n-1 (key m < memories.size(): memory m's first port, also
// of a memory without any), and the memory a key belongs to.
uint32_t portCount(const std::vector<Memory>& memories);
uint32_t portMemory(const std::vector<Memory>& memories, uint32_t key);
// For reports: the memory's name, with " (read)" or " (write)" when it has several ports.
std::string portName(const std::vector<Memory>& memories, uint32_t key);
// As loopMemoryUse, in hardware ports: those loop `l` and its inner loops load through, and all.
struct PortUse {
  std::vector<uint32_t> loads, all;
};
PortUse loopPortUse(const std::vector<Memory>& memories, const std::vector<Loop>& loops, uint32_t l);
// Per loop: the loop whose body runs it (a sub-pipeline), -1 when the kernel's CFG does.
std::vector<int> loopCallers(const std::vector<Loop>& loops);
// Whether the loop's body runs inner loops (has LoopCall ops): an outer pipeline.
bool runsLoops(const Loop& loop);

// The controls of a loop region: Loop::controls when pipelined, the header block's otherwise
// (nullptr: none, or a process root).
const LoopControls* regionControls(const Kernel& k, const Region& r);

// Checks the IR's own invariants (operands defined before use, phi entries matching predecessors,
// types following ir/ops.def, memory indices and ports valid, loop structure, the region tree,
// processes and channels). Throws DiagnosticError describing the
// first violation. Lowering output must always pass; a failure is a compiler bug, reported as such.
// `Between` is the state between lowering passes: unreachable blocks (and loops no block calls yet or
// any longer) are allowed there, everything else is checked as in the final IR.
enum class VerifyLevel { Final, Between };
void verifyKernel(const Kernel& k, VerifyLevel level = VerifyLevel::Final);

// Derives what follows from the CFG and the loops: the region tree, the kernel's process (when it has
// none yet) and every memory's ports. Lowering calls it last; kernels built by hand call it before
// verifyKernel. ramPorts 2: an on-chip RAM that is read and written gets a read port and a write port
// where it may (Memory::ports); 1: one port for both. ramReadPorts: the most read ports (copies) of an
// on-chip RAM that a loop loads several times per iteration.
void buildStructure(Kernel& k, uint32_t ramPorts = 1, uint32_t ramReadPorts = 1);

// Rejects, with a DiagnosticError naming the operation and its location, what the IR represents but
// the hardware cannot build yet: types other than bits of 1..64, inner loops inside a pipelined loop,
// work-group memories, task processes and channels. Called where scheduling begins.
void checkHardwareSupport(const Kernel& k);

// A readable dump, for tests and --dump-ir.
std::string printKernel(const Kernel& k);

} // namespace spvhls::ir
