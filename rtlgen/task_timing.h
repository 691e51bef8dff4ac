// The cycles of a kernel with task sequences (docs/task-sequences.md), predicted by replaying the IR
// evaluator's trace of the kernel (ir::EvalResult::trace) against a cycle-by-cycle model of its task
// instances: the FSM's block lengths and the cycle of each task operation in its block, each pipelined
// loop's cycles (a loop using the queues stepped in lockstep with the instances), and per instance its
// invocation and result queues and each invocation's cycles (its body's own prediction from that
// invocation's profile; a served body's loop stepped). Fixed memory latency, no back-pressure, as
// rtl::predictCycles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "ir/ir_eval.h"
#include "rtlgen/rtlgen.h"

namespace spvhls::rtl {

// `bodies`: per process of `k` (index 0 unused), the generated body of that task instance. nullopt
// with the reason in `why` when the timing is not modelled: a memory shared by two processes (the
// arbiter's interleaving is not modelled), a body or loop whose own cycles are not predicted, a trace
// the evaluator cut short.
std::optional<uint64_t> predictTaskCycles(const ir::Kernel& k, const RtlResult& r,
                                          const std::vector<const RtlResult*>& bodies,
                                          const ir::EvalResult& profile, std::string& why);

} // namespace spvhls::rtl
