// The reinvocation delay of a pipelined loop (SPV_INTEL_fpga_loop_controls MaxReinvocationDelayINTEL):
// cycles from the launch of an invocation's last iteration to the launch of the next invocation's
// first, at fixed memory latency (the target's) and no back-pressure, as the generated hardware runs
// it: the pipeline drains to its done, the FSM runs the blocks on its way back to the loop's block and
// starts it again. An outer pipeline's inner loop (a sub-pipeline) takes its next call as soon as it
// can when that call waits: while it drains (reinvocable) or when it is done; a later call starts when
// the outer pipeline makes it, which is the caller's timing, not the loop's.
// docs/loop-controls.md "MaxReinvocationDelayINTEL".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/hls_ir.h"
#include "rtlgen/rtlgen.h"

namespace spvhls::rtl {

struct ReinvocationDelay {
  // Once: at most one invocation per kernel run (no enclosing loop). Known: min (and max, when every
  // way back is predicted) below. Unknown: `why`.
  enum class Kind { Once, Known, Unknown } kind = Kind::Unknown;
  int64_t min = 0;
  std::optional<int64_t> max; // nullopt: some way back runs a loop, a call or a cycle (data-dependent)
  int64_t drain = 0;          // of which the pipeline's drain after the last launch
  std::string path;           // the FSM blocks on the shortest way back, e.g. "for.end, for.cond, ..."
  // A sub-pipeline: the outer loop that calls it. `min` is then the delay when the next call waits,
  // `max` is nullopt (a later call is the caller's), `path` says how the loop takes the next call.
  std::string caller;
  std::string why;            // Unknown: why; Known without max: what makes the longest way unknown
};

ReinvocationDelay reinvocationDelay(const ir::Kernel& k, const RtlResult& r, uint32_t loop);

} // namespace spvhls::rtl
