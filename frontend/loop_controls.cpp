// decodeLoopControls: LoopControl mask + parameters, by SPIR-V 1.4 and SPV_INTEL_fpga_loop_controls
// (LoopCountINTEL = three 64-bit literals, DependencyArrayINTEL = count then (id, distance) pairs).
#include <fmt/format.h>

#include "frontend/grammar.h"
#include "frontend/module.h"

namespace spvhls::spirv {

LoopControls decodeLoopControls(const uint32_t* words, size_t count, const SourceLoc& where) {
  auto fail = [&](const std::string& msg) -> void { throw DiagnosticError(where, "LoopControl", msg); };
  if (count == 0) fail("missing LoopControl mask");
  LoopControls lc;
  lc.mask = words[0];
  size_t pos = 1;
  auto take = [&](const char* what) -> uint32_t {
    if (pos >= count)
      fail(fmt::format("{} needs another parameter word; the instruction ends after {} words of loop controls", what,
                       count));
    return words[pos++];
  };
  auto take64 = [&](const char* what) -> int64_t {
    uint64_t lo = take(what);
    uint64_t hi = take(what);
    return static_cast<int64_t>(lo | hi << 32);
  };
  namespace LC = spv::LoopControl;
  for (uint32_t bit = 0; bit < 32; ++bit) {
    uint32_t b = 1u << bit;
    if (!(lc.mask & b)) continue;
    switch (b) {
    case LC::Unroll: lc.unroll = true; break;
    case LC::DontUnroll: lc.dontUnroll = true; break;
    case LC::DependencyInfinite: lc.dependencyInfinite = true; break;
    case LC::DependencyLength: lc.dependencyLength = take("DependencyLength"); break;
    case LC::MinIterations: lc.minIterations = take("MinIterations"); break;
    case LC::MaxIterations: lc.maxIterations = take("MaxIterations"); break;
    case LC::IterationMultiple: lc.iterationMultiple = take("IterationMultiple"); break;
    case LC::PeelCount: lc.peelCount = take("PeelCount"); break;
    case LC::PartialCount: lc.partialCount = take("PartialCount"); break;
    case LC::InitiationIntervalINTEL: lc.initiationInterval = take("InitiationIntervalINTEL"); break;
    case LC::MaxConcurrencyINTEL: lc.maxConcurrency = take("MaxConcurrencyINTEL"); break;
    case LC::DependencyArrayINTEL: {
      uint32_t n = take("DependencyArrayINTEL");
      if (n > (count - pos) / 2)
        fail(fmt::format("DependencyArrayINTEL announces {} (variable, distance) pairs but only {} words follow", n,
                         count - pos));
      lc.hasDependencyArray = true;
      for (uint32_t i = 0; i < n; ++i) {
        Id var = take("DependencyArrayINTEL");
        uint32_t dist = take("DependencyArrayINTEL");
        lc.dependencyArray.emplace_back(var, dist);
      }
      break;
    }
    case LC::PipelineEnableINTEL: lc.pipelineEnable = take("PipelineEnableINTEL"); break;
    case LC::LoopCoalesceINTEL: lc.loopCoalesce = take("LoopCoalesceINTEL"); break;
    case LC::MaxInterleavingINTEL: lc.maxInterleaving = take("MaxInterleavingINTEL"); break;
    case LC::SpeculatedIterationsINTEL: lc.speculatedIterations = take("SpeculatedIterationsINTEL"); break;
    case LC::NoFusionINTEL: lc.noFusion = true; break;
    case LC::LoopCountINTEL:
      lc.loopCountMin = take64("LoopCountINTEL");
      lc.loopCountMax = take64("LoopCountINTEL");
      lc.loopCountAvg = take64("LoopCountINTEL");
      break;
    case LC::MaxReinvocationDelayINTEL: lc.maxReinvocationDelay = take("MaxReinvocationDelayINTEL"); break;
    default:
      fail(fmt::format("unknown loop control bit {:#x}; expected a bit of SPIR-V 1.4 or SPV_INTEL_fpga_loop_controls",
                       b));
    }
  }
  if (pos != count)
    fail(fmt::format("{} words left after the parameters of mask {}; expected none", count - pos,
                     grammar::maskName(OperandKind::LoopControl, lc.mask)));
  return lc;
}

} // namespace spvhls::spirv
