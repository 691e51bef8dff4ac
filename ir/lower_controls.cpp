// Loop controls: SPIR-V LoopControl (decoded by the frontend) -> ir::LoopControls, recording every
// control seen and whether the compiler honours it.
#include <fmt/format.h>

#include "frontend/grammar.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

constexpr const char* kNotYet = "parsed, not implemented yet";

void request(LoopControls& lc, std::string name, std::string value, LoopControlRequest::Status status,
             std::string note = {}) {
  lc.requests.push_back(LoopControlRequest{std::move(name), std::move(value), status, std::move(note)});
}

// Two distances for one memory: 0 means "no carried dependence", so the smaller positive one is the
// safe combination.
uint32_t combineDistance(uint32_t a, uint32_t b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

} // namespace

PendingControls convertControls(const Context& c, const spirv::LoopControls& raw, uint32_t srcInst,
                                const Kernel& k,
                                const std::function<std::optional<uint32_t>(Id)>& memoryOf) {
  using S = LoopControlRequest::Status;
  PendingControls pc;
  pc.loc = c.locOf(srcInst);
  pc.construct = spirv::grammar::opName(c.mv.inst(srcInst).opcode);
  LoopControls& lc = pc.controls;
  auto num = [](auto v) { return fmt::format("{}", v); };

  if (raw.unroll) request(lc, "Unroll", "", S::NotHonouredYet, kNotYet);
  if (raw.dontUnroll) request(lc, "DontUnroll", "", S::NotHonouredYet, kNotYet);
  if (raw.dependencyInfinite) {
    lc.dependencyLengthAll = 0;
    request(lc, "DependencyInfinite", "", S::Honoured);
  }
  if (raw.dependencyLength) {
    lc.dependencyLengthAll = *raw.dependencyLength;
    request(lc, "DependencyLength", num(*raw.dependencyLength), S::Honoured);
  }
  if (raw.minIterations) request(lc, "MinIterations", num(*raw.minIterations), S::NotHonouredYet, kNotYet);
  if (raw.maxIterations) request(lc, "MaxIterations", num(*raw.maxIterations), S::NotHonouredYet, kNotYet);
  if (raw.iterationMultiple)
    request(lc, "IterationMultiple", num(*raw.iterationMultiple), S::NotHonouredYet, kNotYet);
  if (raw.peelCount) request(lc, "PeelCount", num(*raw.peelCount), S::NotHonouredYet, kNotYet);
  if (raw.partialCount) request(lc, "PartialCount", num(*raw.partialCount), S::NotHonouredYet, kNotYet);
  if (raw.initiationInterval) {
    lc.ii = *raw.initiationInterval;
    request(lc, "InitiationIntervalINTEL", num(*raw.initiationInterval), S::Honoured);
  }
  if (raw.maxConcurrency) {
    lc.maxConcurrency = *raw.maxConcurrency;
    request(lc, "MaxConcurrencyINTEL", num(*raw.maxConcurrency), S::Honoured);
  }
  if (raw.hasDependencyArray) {
    std::string value, unresolved;
    for (const auto& [var, dist] : raw.dependencyArray) {
      std::optional<uint32_t> m = memoryOf(var);
      if (!m) {
        unresolved += (unresolved.empty() ? "" : ", ") + c.ref(var);
        continue;
      }
      value += fmt::format("{}{}:{}", value.empty() ? "" : ", ", k.memories[*m].name, dist);
      bool merged = false;
      for (auto& [mem, d] : lc.memoryDependenceDistance)
        if (mem == *m) {
          d = combineDistance(d, dist);
          merged = true;
        }
      if (!merged) lc.memoryDependenceDistance.push_back({*m, dist});
    }
    if (unresolved.empty())
      request(lc, "DependencyArrayINTEL", value, S::Honoured);
    else
      request(lc, "DependencyArrayINTEL", value, value.empty() ? S::Ignored : S::Honoured,
              fmt::format("ignored for {}: not a pointer into a known buffer or local array", unresolved));
  }
  if (raw.pipelineEnable) {
    lc.pipelineEnable = *raw.pipelineEnable != 0;
    request(lc, "PipelineEnableINTEL", num(*raw.pipelineEnable), S::Honoured);
  }
  if (raw.loopCoalesce) request(lc, "LoopCoalesceINTEL", num(*raw.loopCoalesce), S::NotHonouredYet, kNotYet);
  // What it builds is decided once the outer pipelines are known (buildInterleaving).
  if (raw.maxInterleaving) {
    lc.maxInterleaving = *raw.maxInterleaving;
    request(lc, "MaxInterleavingINTEL", num(*raw.maxInterleaving), S::Honoured);
  }
  if (raw.speculatedIterations) {
    lc.speculatedIterations = *raw.speculatedIterations;
    request(
        lc, "SpeculatedIterationsINTEL", num(*raw.speculatedIterations), S::Honoured,
        "a later iteration starts no earlier than the exit condition of the iteration this many before it "
        "is known");
  }
  if (raw.noFusion)
    request(lc, "NoFusionINTEL", "", S::NotHonouredYet, "settled by loop fusion"); // lower_loop_fusion.cpp
  if (raw.loopCountMin || raw.loopCountMax || raw.loopCountAvg) {
    auto v = [](const std::optional<int64_t>& x) { return x ? *x : -1; };
    request(
        lc, "LoopCountINTEL",
        fmt::format("min {} max {} avg {}", v(raw.loopCountMin), v(raw.loopCountMax), v(raw.loopCountAvg)),
        S::Honoured,
        "avg (or max) gives the report's expected cycles per invocation; spvhls sim checks every "
        "invocation's trip count against min and max");
    if (v(raw.loopCountMin) >= 0) lc.loopCountMin = *raw.loopCountMin;
    if (v(raw.loopCountMax) >= 0) lc.loopCountMax = *raw.loopCountMax;
    if (v(raw.loopCountAvg) >= 0) lc.loopCountAvg = *raw.loopCountAvg;
    if (v(raw.loopCountAvg) >= 0) pc.loopCountHint = static_cast<uint64_t>(*raw.loopCountAvg);
    else if (v(raw.loopCountMax) >= 0) pc.loopCountHint = static_cast<uint64_t>(*raw.loopCountMax);
    pc.hasLoopCountHint = v(raw.loopCountAvg) >= 0 || v(raw.loopCountMax) >= 0;
  }
  if (raw.maxReinvocationDelay)
    request(lc, "MaxReinvocationDelayINTEL", num(*raw.maxReinvocationDelay), S::NotHonouredYet,
            "settled by the hardware's reinvocation delay (driver)");
  return pc;
}

} // namespace spvhls::ir::lower
