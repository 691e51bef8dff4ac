// The HLS IR: the output of lowering (frontend/ModuleView -> ir::Kernel) and the input of scheduling.
//
// A Kernel is one entry point after inlining every call and promoting Function-storage variables.
// Its control flow is a CFG of blocks in SSA form (the part executed by the kernel's FSM). Every
// innermost loop that can be pipelined is cut out of the CFG into a Loop: an if-converted body (a DAG
// of operations with predicates, no control flow), loop-carried phis, live-ins and live-outs. In the CFG
// such a loop is one Op of kind LoopCall in a block of its own.
//
// Values are bit vectors of 1..64 bits; signedness is a property of the operation, as in SPIR-V.
// Pointers into CrossWorkgroup buffers are not values: every Load/Store names its Memory (one per
// pointer argument or local array) and takes a byte offset (64-bit) into it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"

namespace spvhls::ir {

using ValueId = uint32_t; // index into the owning OpList (Kernel::ops or Loop::ops)
constexpr ValueId kNone = ~0u;
// The largest private array or program-scope constant built as an on-chip RAM: FPGA block RAM is
// scarce, and the RAM's initial contents are written out byte by byte.
constexpr uint64_t kMaxOnChipBytes = 64 * 1024;

enum class OpKind : uint8_t {
  // Leaves
  Const,    // imm (width bits)
  Arg,      // scalar kernel argument number `index` (Kernel only)
  LiveIn,   // Loop only: the value of Loop::liveIns[index] (an outer ValueId), constant over the loop
  LoopPhi,  // Loop only: Loop::phis[index]; the carried value at the start of this iteration
  Undef,    // an undefined value (OpUndef); hardware uses 0
  // Integer arithmetic (operands: a, b), wrap-around at `width`
  Add, Sub, Mul,
  UDiv, SDiv, URem, SRem, SMod, // division by zero: hardware gives 0; the interpreter reports it
  Neg, Not,                     // one operand
  And, Or, Xor,
  Shl, LShr, AShr,              // shift amount is operand b, taken modulo width
  // Comparisons: result width 1
  Eq, Ne, ULt, ULe, UGt, UGe, SLt, SLe, SGt, SGe,
  Select,                       // operands: cond (i1), a (cond true), b
  ZExt, SExt, Trunc,            // operand: a; result `width`
  // Memory. `memory` names Kernel::memories[memory]. `size` is the access size in bytes.
  Load,   // operands: offset (i64), pred (i1, kNone = always). Result: width = 8 * size
  Store,  // operands: offset (i64), data, pred (i1, kNone = always). No result (width 0)
  // CFG only
  Phi,      // operands: one per incoming edge; Op::phiBlocks gives the predecessor of each
  LoopCall, // operands: Loop::liveIns values; `index` = loop number. No result; LoopOut reads results
  LoopOut,  // operand: the LoopCall; `index` = live-out number: value of Loop::liveOuts[index]
};

const char* opKindName(OpKind k);
bool hasSideEffect(OpKind k); // Store, LoopCall

struct Op {
  OpKind kind = OpKind::Const;
  uint8_t width = 0;           // result width in bits (0 = no result)
  uint8_t size = 0;            // Load/Store access size in bytes
  uint32_t memory = 0;         // Load/Store memory index
  uint32_t index = 0;          // Arg / LiveIn / LoopPhi / LoopCall / LoopOut index
  uint64_t imm = 0;            // Const value (zero-extended)
  std::vector<ValueId> operands;
  std::vector<uint32_t> phiBlocks; // Phi: predecessor block of each operand
  uint32_t block = 0;          // Kernel ops: the block it lives in
  uint32_t spirvId = 0;        // the SPIR-V result id it came from (0 = synthesized), for reports
  std::string name;            // readable name (OpName or derived), may be empty
  SourceLoc loc;               // where it came from, for diagnostics
};

struct Memory {
  enum class Kind { Global, Local };
  Kind kind = Kind::Global;
  std::string name;      // pointer argument's name or local variable's name
  uint32_t argIndex = 0; // Global: the kernel argument it belongs to
  uint64_t sizeBytes = 0;        // Local: size; Global: 0 (unknown)
  std::vector<uint8_t> init;     // Local: initial contents (empty = zero)
  uint32_t elemBytes = 4;        // the widest access seen, for reports
};

struct KernelArg {
  std::string name;
  bool isPointer = false;
  uint8_t width = 0;       // scalar: bit width
  uint32_t memory = 0;     // pointer: memory index
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
  // DependencyArrayINTEL / DependencyInfinite / DependencyLength: distance per memory (by memory
  // index); 0 = no loop-carried dependence through that memory; missing = unknown.
  std::vector<std::pair<uint32_t, uint32_t>> memoryDependenceDistance;
  std::optional<uint32_t> dependencyLengthAll; // core DependencyLength / DependencyInfinite (=0)
  std::vector<LoopControlRequest> requests;   // every control seen, for the report
};

struct LoopPhi {
  std::string name;
  uint32_t initLiveIn = 0; // index into Loop::liveIns of the value before the first iteration
  ValueId next = kNone;  // body value (Loop::ops) carried into the next iteration
  uint8_t width = 0;
};

// An innermost loop, if-converted. Iteration semantics: every iteration evaluates all of `ops`;
// ops with side effects are guarded by their pred operand. `continueCond` (i1) is true when another
// iteration follows; the iteration in which it is false is the last one, and the live-outs are the
// values it computed. A top-tested `for` therefore runs trip count + 1 iterations, the last one only
// evaluating the header (every body predicate false).
struct Loop {
  std::string name;                // header block name, e.g. "for.cond"
  uint32_t headerLabel = 0;        // SPIR-V label id of the header (0 if synthesized): iterations of
                                   // the loop = executions of this block (cycle prediction)
  SourceLoc loc;                   // header location
  std::vector<Op> ops;             // body, in a topological order (operands before users)
  std::vector<ValueId> liveIns;    // outer values (Kernel::ops) used by the body, by LiveIn index
  std::vector<LoopPhi> phis;
  ValueId continueCond = kNone;
  std::vector<ValueId> liveOuts;   // body values readable after the loop, by LoopOut index
  LoopControls controls;
  uint32_t depth = 1;              // nesting depth (1 = outermost)
  std::optional<uint64_t> tripCountHint; // from LoopCountINTEL avg or max, if any
};

struct Terminator {
  enum class Kind { Branch, CondBranch, Switch, Return, Unreachable };
  Kind kind = Kind::Return;
  ValueId cond = kNone;                 // CondBranch condition / Switch selector
  std::vector<uint32_t> targets;        // Branch: [t]; CondBranch: [true, false]; Switch: [default, cases...]
  std::vector<uint64_t> caseValues;     // Switch: one per targets[1..]
  SourceLoc loc;
};

struct BasicBlock {
  std::string name;
  // SPIR-V label this block came from (0 if synthesized, e.g. a LoopCall block). The cycle predictor
  // multiplies block lengths by the interpreter's execution counts of these labels.
  uint32_t spirvLabel = 0;
  // LoopCall blocks: the loop number it runs (its invocation count = entries into the loop header).
  std::optional<uint32_t> loopCall;
  std::vector<ValueId> ops; // in execution order; Phis first
  Terminator term;
  // Loops that are not pipelined stay in the CFG; their controls are reported from here.
  std::optional<LoopControls> loopControls;
  std::string notPipelinedReason;  // set on headers of loops that stayed in the CFG
};

struct Kernel {
  std::string name;
  SourceLoc loc;
  std::vector<KernelArg> args;
  std::vector<Memory> memories;
  std::vector<Op> ops;            // all CFG values
  std::vector<BasicBlock> blocks; // blocks[0] is the entry
  std::vector<Loop> loops;        // pipelined innermost loops, called by LoopCall ops
  // SPV_INTEL_maximum_registers request, as text (empty: none). A GPU register-allocation hint:
  // reported, no effect on the hardware.
  std::string registerLimit;
  // SPV_INTEL_fpga_cluster_attributes on the kernel function: the cluster kind its source asks for
  // ("StallEnableINTEL" / "StallFreeINTEL"; empty: none). Honoured unless the command line overrides.
  std::string clusterAttribute;
  // Warnings and notes from lowering (never errors: those are thrown), e.g. loop controls that could
  // not be attached to a loop.
  std::vector<Diagnostic> diagnostics;
};

// Checks the IR's own invariants (operands defined before use, phi entries matching predecessors,
// widths consistent, memory indices valid, loop structure). Throws DiagnosticError describing the
// first violation. Lowering output must always pass; a failure is a compiler bug, reported as such.
// `Between` is the state between lowering passes: unreachable blocks (and loops no block calls yet or
// any longer) are allowed there, everything else is checked as in the final IR.
enum class VerifyLevel { Final, Between };
void verifyKernel(const Kernel& k, VerifyLevel level = VerifyLevel::Final);

// A readable dump, for tests and --dump-ir.
std::string printKernel(const Kernel& k);

} // namespace spvhls::ir
