// The cycles of a kernel with task sequences (docs/task-sequences.md), predicted by replaying the IR
// evaluator's trace of the kernel (ir::EvalResult::trace) against the hardware's timing: the FSM's
// block lengths and the cycle of each task operation in its block, each pipelined loop's cycles, and
// per task instance its invocation and result queues and the cycles of each invocation (its body's
// own prediction from that invocation's profile). Fixed memory latency, no back-pressure, as
// rtl::predictCycles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "ir/ir_eval.h"
#include "rtlgen/plan.h"
#include "rtlgen/rtlgen.h"

namespace spvhls::rtl {

// `bodies`: per process of `k` (index 0 unused), the generated body of that task instance. nullopt
// with the reason in `why` when the timing is not modelled: a memory shared by two processes (the
// arbiter's interleaving is not modelled), a body or loop whose own cycles are not predicted, a trace
// the evaluator cut short.
std::optional<uint64_t> predictTaskCycles(const ir::Kernel& k, const KernelPlan& plan, const RtlResult& r,
                                          const std::vector<const RtlResult*>& bodies, const ir::EvalResult& profile,
                                          std::string& why);

} // namespace spvhls::rtl
