#include "rtlgen/reinvocation.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

#include <fmt/format.h>

namespace spvhls::rtl {
namespace {

// Ways back from the loop's block to itself enumerated at most; past this the delay is unknown.
constexpr size_t kMaxPaths = 4096;

} // namespace

ReinvocationDelay reinvocationDelay(const ir::Kernel& k, const RtlResult& r, uint32_t loop) {
  ReinvocationDelay d;
  const LoopHardware& hw = r.loops.at(loop);
  uint32_t home = ir::kNoBlock;
  for (size_t b = 0; b < k.blocks.size(); ++b)
    if (k.blocks[b].loopCall == loop) home = uint32_t(b);
  if (home == ir::kNoBlock) {
    d.why = "the loop is run by another loop's body";
    return d;
  }
  if (ir::functionOfBlocks(k)[home] >= 0) {
    d.why = "the loop is in a shared function: its invocations follow the function's calls";
    return d;
  }
  if (hw.drainAfterLastLaunch < 0) {
    d.why = "the loop's launches are not predicted (a recurrence gate between stall-free clusters, or "
            "MaxConcurrencyINTEL bursts)";
    return d;
  }
  // Blocks whose time depends on data: another pipelined loop, a shared function's call, the header
  // of a loop run by the FSM that does not enclose this one (it may go round several times).
  std::vector<uint8_t> variable(k.blocks.size(), 0);
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    if (k.blocks[b].loopCall && *k.blocks[b].loopCall != loop) variable[b] = 1;
    for (ir::ValueId v : k.blocks[b].ops)
      if (k.ops[v].kind == ir::OpKind::Call) variable[b] = 1;
  }
  for (const ir::Region& reg : k.regions)
    if (reg.kind == ir::Region::Kind::Loop && !reg.loop && reg.header != ir::kNoBlock &&
        !std::binary_search(reg.blocks.begin(), reg.blocks.end(), home))
      variable[reg.header] = 1;
  // Simple paths from the loop's block back to it, each block's FSM cycles counted once (the loop's
  // own block included: the cycles before its start and after its done).
  std::vector<uint8_t> onPath(k.blocks.size(), 0);
  std::vector<uint32_t> path, shortest;
  int64_t best = std::numeric_limits<int64_t>::max(), worst = 0;
  bool back = false, unbounded = false, tooMany = false;
  size_t paths = 0;
  std::function<void(uint32_t, int64_t, bool)> walk = [&](uint32_t b, int64_t cost, bool var) {
    if (tooMany) return;
    for (uint32_t s : k.blocks[b].term.targets) {
      if (s == home) {
        if (++paths > kMaxPaths) {
          tooMany = true;
          return;
        }
        back = true;
        if (cost < best) best = cost, shortest = path;
        if (var) unbounded = true;
        worst = std::max(worst, cost);
        continue;
      }
      if (onPath[s]) continue;
      onPath[s] = 1;
      path.push_back(s);
      walk(s, cost + int64_t(r.blockCycles[s]), var || variable[s]);
      path.pop_back();
      onPath[s] = 0;
    }
  };
  onPath[home] = 1;
  walk(home, int64_t(r.blockCycles[home]), false);
  if (tooMany) {
    d.why = fmt::format("more than {} ways lead back to the loop", kMaxPaths);
    return d;
  }
  if (!back) {
    d.kind = ReinvocationDelay::Kind::Once;
    return d;
  }
  d.kind = ReinvocationDelay::Kind::Known;
  d.drain = hw.drainAfterLastLaunch;
  d.min = d.drain + best;
  if (!unbounded)
    d.max = d.drain + worst;
  else
    d.why = "a way back runs another loop, a shared function or an inner loop of the FSM";
  shortest.push_back(home);
  for (uint32_t b : shortest)
    d.path += (d.path.empty() ? "" : ", ") + k.blocks[b].name;
  return d;
}

} // namespace spvhls::rtl
