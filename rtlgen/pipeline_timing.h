// The cycles of pipelines without a closed form, predicted by stepping their hardware cycle by cycle
// through one run. An outer pipeline (docs/loop-controls.md "Outer loops as pipelines") waits at a
// call's request while the inner loop is busy and at the capture of its results until they are there,
// which depends on each call's trip count and on the calls before it; a stall-free loop whose
// recurrence gate waits even at the assumed latency admits iterations as its later clusters allow.
// The model follows the generated control (loop_gen.cpp) at the level of tokens: stall-enable, the one
// enable, the II slot, the in-flight limit, the exit's kill of speculated iterations; stall-free, each
// cluster's admission (exit FIFO head, credits, II since the last one, an older request first on a
// port, the gates' counts); both, a sub-pipeline's busy count and bypassing result FIFO, and a body's
// requests before its inner loops' on a port they share. Inner loops are stepped the same way, a
// reinvocable one taking its next call while it drains. Which iterations make which call or access,
// and each call's trip count, come from the IR evaluator's profile of the same run. Fixed memory
// latency (the target's) and no back-pressure, as rtl::predictCycles.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "ir/ir_eval.h"
#include "rtlgen/loop_plan.h"
#include "rtlgen/rtlgen.h"

namespace spvhls::rtl {

// The model of loop `l` of `k` planned as `p` (LoopHardware::model), with `unmodelled` saying why it
// does not apply.
PipelineModel pipelineModel(const ir::Kernel& k, uint32_t l, const LoopPlan& p);

// Why the model cannot step loop `l` (the loop or one it runs cannot be modelled: "loop X: why"), or
// empty when it can.
std::string unmodelledReason(const ir::Kernel& k, const RtlResult& r, uint32_t l);

// The loops whose iterations' predicates the model reads (ir::evaluateKernel's recordPredicates):
// those whose cycles have no closed form (LoopHardware::predictable false) and the loops they run.
std::vector<bool> predicateProfile(const ir::Kernel& k, const RtlResult& r);

// Steps outer pipelines through one run's profile. Each loop's calls are taken in the profile's
// order, so `callCycles` must see a loop's calls from the FSM in order.
class PipelineTiming {
public:
  PipelineTiming(const ir::Kernel& k, const RtlResult& r, const ir::EvalResult& profile);
  ~PipelineTiming();
  // The cycles of the next call of loop `l` from the FSM, start to done as rtl::loopCallCycles, or
  // nullopt with the reason in `why`.
  std::optional<int64_t> callCycles(uint32_t l, std::string& why);

  struct State; // per loop: the profile's cursor

private:
  std::unique_ptr<State> s_;
};

} // namespace spvhls::rtl
