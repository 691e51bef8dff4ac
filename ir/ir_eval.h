// A reference evaluator of the HLS IR itself (not of the SPIR-V): runs a Kernel with the semantics
// documented in ir/hls_ir.h, including the loop iteration semantics (every iteration evaluates all
// body ops; side effects are guarded by predicates; the iteration whose continueCond is false is the
// last one and produces the live-outs). Comparing it with the golden SPIR-V interpreter checks
// lowering on its own, before scheduling and Verilog.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ir/hls_ir.h"

namespace spvhls::ir {

struct EvalResult {
  std::vector<std::vector<uint8_t>> buffers; // final contents, by kernel argument (empty for scalars)
  std::vector<uint64_t> loopIterations;       // per Kernel::loops entry, summed over its calls
  // Per Kernel::loops entry: the fewest and most iterations one call ran (UINT64_MAX, 0: never called).
  std::vector<uint64_t> loopMinIterations, loopMaxIterations;
  // Per Kernel::loops entry: each call's iterations, in order (rtl::predictCycles for loops whose
  // cycles are not linear in the iterations).
  std::vector<std::vector<uint64_t>> loopCallIterations;
  // Per Kernel::loops entry asked for (evaluateKernel's recordPredicates): per iteration, in order over
  // its calls, which of its timed operations (timedOperation: bit j of the record is the loop's j-th)
  // were predicated on, in predicateWords(loop) words, for the cycle model of pipelines whose timing
  // has no closed form (rtlgen/pipeline_timing.h). Empty for other loops; past kMaxTraceEvents words
  // in all, `predicateTraceTruncated` is set and recording stops.
  std::vector<std::vector<uint64_t>> loopIterationPredicates;
  bool predicateTraceTruncated = false;
  std::vector<uint64_t> blockCounts;          // per Kernel block: executions (a LoopCall block's: calls)
  uint64_t steps = 0;                         // ops evaluated
  // A kernel with task processes: what its FSM did, in order (the cycle predictor replays it): each
  // block entered and each task operation (`op`, a Kernel value), an async with the profile of the
  // invocation it ran (its body's EvalResult, in `invocations`). Empty without tasks, and when the
  // run was longer than kMaxTraceEvents (then `traceTruncated`).
  struct TraceEvent {
    uint32_t block = 0;
    ValueId op = kNone;          // kNone: entering `block`
    uint32_t invocation = 0;     // TaskAsync: index into invocations
  };
  std::vector<TraceEvent> trace;
  std::vector<EvalResult> invocations;
  // Per process: its invocations (indices into `invocations`) in the order its asyncs made them, the
  // FSM's and the pipelined loops' (whose asyncs are queue stores) alike. A served body's invocation
  // records the predicates of its loop's one iteration; another body's, those of the loops
  // evaluateKernel's taskRecordPredicates asks for.
  std::vector<std::vector<uint32_t>> processInvocations;
  bool traceTruncated = false;
};
constexpr size_t kMaxTraceEvents = 1'000'000;

// The operations whose predicate an outer pipeline's timing depends on: its memory requests and its
// inner loops' calls.
inline bool timedOperation(const Op& op) {
  return op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::LoopCall;
}
// The 64-bit words of one iteration's record in EvalResult::loopIterationPredicates.
inline size_t predicateWords(const Loop& loop) {
  size_t n = 0;
  for (const Op& op : loop.ops)
    n += timedOperation(op);
  return (n + 63) / 64;
}

// `args` holds one value per kernel argument (ignored for pointers); `buffers` one buffer per kernel
// argument (ignored for scalars). Memory accesses are bounds-checked; division by zero yields 0 and
// Undef is 0, as in hardware. Throws DiagnosticError on an out-of-bounds access, a misaligned access,
// or more than maxSteps evaluated ops.
// `preload`: per memory index, contents that replace an on-chip or external memory's initial ones
// (what the host writes into a global before the run). `recordPredicates`: per loop, whether to
// record its iterations' predicates (EvalResult::loopIterationPredicates); none when empty.
EvalResult evaluateKernel(const Kernel& k, const std::vector<uint64_t>& args,
                          std::vector<std::vector<uint8_t>> buffers, uint64_t maxSteps = 200'000'000,
                          const std::map<uint32_t, std::vector<uint8_t>>& preload = {},
                          const std::vector<bool>& recordPredicates = {},
                          const std::vector<std::vector<bool>>& taskRecordPredicates = {});

} // namespace spvhls::ir
