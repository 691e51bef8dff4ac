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

// Why the model cannot give the cycles (rtl::predictCycles passes it on as its reason).
struct ModelError {
  std::string why;
};

// The task queues a modelled loop pushes or pops (PipelineModel::Access::queue), stepped in lockstep
// with it: `ready` and `access` speak of the current cycle, `clock` ends it.
class QueueSystem {
public:
  virtual ~QueueSystem() = default;
  virtual bool ready(uint32_t memory) = 0;  // the queue's port takes a request in this cycle
  virtual void access(uint32_t memory) = 0; // a push (a store) or a pop (a load) made in this cycle
  virtual void clock() = 0;
};

// A loop whose one call never ends (a served task's loop, Process::served), stepped by its owner.
class EndlessLoop {
public:
  virtual ~EndlessLoop() = default;
  virtual void clock(bool start) = 0; // throws ModelError
};

// The model of loop `l` of `k` planned as `p` (LoopHardware::model), with `unmodelled` saying why it
// does not apply.
PipelineModel pipelineModel(const ir::Kernel& k, uint32_t l, const LoopPlan& p);

// Why the model cannot step loop `l` (the loop or one it runs cannot be modelled: "loop X: why"), or
// empty when it can.
std::string unmodelledReason(const ir::Kernel& k, const RtlResult& r, uint32_t l);

// Whether loop `l` pushes or pops task queues: its cycles depend on the tasks', so it is stepped
// together with them (rtlgen/task_timing.cpp) even where it has a closed form.
bool usesQueues(const RtlResult& r, uint32_t l);

// The loops whose iterations' predicates the model reads (ir::evaluateKernel's recordPredicates):
// those whose cycles have no closed form (LoopHardware::predictable false) or that use task queues,
// and the loops they run.
std::vector<bool> predicateProfile(const ir::Kernel& k, const RtlResult& r);

// Steps outer pipelines through one run's profile. Each loop's calls are taken in the profile's
// order, so `callCycles` must see a loop's calls from the FSM in order. `queues`: the task queues
// of loops that use them, clocked once per cycle of their calls.
class PipelineTiming {
public:
  PipelineTiming(const ir::Kernel& k, const RtlResult& r, const ir::EvalResult& profile,
                 QueueSystem* queues = nullptr);
  ~PipelineTiming();
  // The cycles of the next call of loop `l` from the FSM, start to done as rtl::loopCallCycles, or
  // nullopt with the reason in `why`.
  std::optional<int64_t> callCycles(uint32_t l, std::string& why);
  // Loop `l`, whose one call never ends: iteration j's predicates are the j-th record of
  // loopIterationPredicates[l], which the owner appends before the iteration is issued.
  std::unique_ptr<EndlessLoop> endless(uint32_t l);

  struct State; // per loop: the profile's cursor

private:
  std::unique_ptr<State> s_;
};

} // namespace spvhls::rtl
