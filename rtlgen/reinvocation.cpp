#include "rtlgen/reinvocation.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

#include <fmt/format.h>

namespace spvhls::rtl {

namespace {

std::string launchesNotPredicted(const LoopHardware& hw) {
  return "the loop's launches are not predicted (" +
         (hw.unpredictedWhy.empty() ? std::string("MaxConcurrencyINTEL bursts") : hw.unpredictedWhy) + ")";
}

// An outer pipeline's inner loop, its next call waiting (loop_gen.cpp, loop_gen_memory.cpp). A
// reinvocable one (stall-enable) takes it in the cycle after its exit is known at position q
// (`accept`): the last launch was at the last slot-0 cycle up to then, floor(q / II) * II after the
// exit iteration's, and the first launch of the next call follows its start at the next slot 0 (the
// slots restart if the pipeline is empty by then). Any other takes it when it is done, and launches in
// the next cycle: the drain.
ReinvocationDelay subPipelineDelay(const ir::Kernel& k, const LoopHardware& hw, uint32_t loop) {
  ReinvocationDelay d;
  const std::vector<int> callers = ir::loopCallers(k.loops);
  if (callers.at(loop) < 0) {
    d.why = "the loop is neither the FSM's nor another loop's";
    return d;
  }
  d.caller = k.loops[size_t(callers[loop])].name;
  if (k.loops[loop].copies > 1) {
    d.why =
        fmt::format("its {} copies take the calls in turn (MaxInterleavingINTEL): their launches interleave",
                    k.loops[loop].copies);
    return d;
  }
  if (!hw.model || !hw.model->unmodelled.empty() || (!hw.model->reinvocable && hw.drainAfterLastLaunch < 0)) {
    d.why = launchesNotPredicted(hw);
    return d;
  }
  const PipelineModel& m = *hw.model;
  if (m.reinvocable && m.maxConcurrency > 0) {
    d.why = fmt::format("MaxConcurrencyINTEL {} holds the next call's first launch while the last call's "
                        "iterations drain",
                        m.maxConcurrency);
    return d;
  }
  d.kind = ReinvocationDelay::Kind::Known;
  if (m.reinvocable) {
    const int64_t ii = m.ii, q = m.exitPos, F = m.F;
    const int64_t last = q / ii * ii;
    const int64_t first = q + 1 - last >= F ? q + 2 : (q + 2 + ii - 1) / ii * ii;
    d.min = first - last;
    d.drain = hw.drainAfterLastLaunch;
    d.path = fmt::format("it takes the next call while it drains, once its exit is known (position {} of {}, "
                         "II {})",
                         q, F, ii);
  } else {
    d.min = d.drain = hw.drainAfterLastLaunch;
    d.path = "it takes the next call when it is done";
  }
  d.why = fmt::format("when the next call waits; a later call starts when loop {} makes it", d.caller);
  return d;
}

} // namespace

ReinvocationDelay reinvocationDelay(const ir::Kernel& k, const RtlResult& r, uint32_t loop) {
  ReinvocationDelay d;
  const LoopHardware& hw = r.loops.at(loop);
  uint32_t home = ir::kNoBlock;
  for (size_t b = 0; b < k.blocks.size(); ++b)
    if (k.blocks[b].loopCall == loop) home = uint32_t(b);
  if (home == ir::kNoBlock) return subPipelineDelay(k, hw, loop);
  if (ir::functionOfBlocks(k)[home] >= 0) {
    d.why = "the loop is in a shared function: its invocations follow the function's calls";
    return d;
  }
  if (hw.drainAfterLastLaunch < 0) {
    d.why = launchesNotPredicted(hw);
    return d;
  }
  // The ways back: walks from the loop's block to itself that do not pass it in between, over the
  // blocks R reachable from it and reaching it again. A cycle within R (a loop of the FSM that goes
  // round without running this loop: another loop, an `if` around this one in an enclosing loop) or
  // a block whose time depends on data (another pipelined loop, a shared function's call) leaves the
  // longest way unknown; the shortest is found either way (Dijkstra over the blocks' FSM cycles).
  const size_t n = k.blocks.size();
  std::vector<std::vector<uint32_t>> preds(n);
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t s : k.blocks[b].term.targets)
      preds[s].push_back(b);
  auto reach = [&](const std::vector<std::vector<uint32_t>>& next, uint32_t from) {
    std::vector<uint8_t> seen(n, 0);
    std::vector<uint32_t> work{from};
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t s : next[b])
        if (s != home && !seen[s]) seen[s] = 1, work.push_back(s);
    }
    return seen;
  };
  std::vector<std::vector<uint32_t>> succs(n);
  for (uint32_t b = 0; b < n; ++b)
    succs[b] = k.blocks[b].term.targets;
  const std::vector<uint8_t> fwd = reach(succs, home), bwd = reach(preds, home);
  const bool back = std::find(succs[home].begin(), succs[home].end(), home) != succs[home].end() ||
                    std::any_of(preds[home].begin(), preds[home].end(), [&](uint32_t q) { return fwd[q]; });
  if (!back) {
    d.kind = ReinvocationDelay::Kind::Once;
    return d;
  }
  std::vector<uint8_t> inR(n, 0);
  for (uint32_t b = 0; b < n; ++b)
    inR[b] = fwd[b] && bwd[b];
  std::string unbounded;
  for (uint32_t b = 0; b < n && unbounded.empty(); ++b) {
    if (!inR[b]) continue;
    if (k.blocks[b].loopCall)
      unbounded = fmt::format("a way back runs loop {}", k.loops[*k.blocks[b].loopCall].name);
    for (ir::ValueId v : k.blocks[b].ops)
      if (k.ops[v].kind == ir::OpKind::Call) unbounded = "a way back calls a shared function";
  }
  // A cycle within R: depth-first search with colours.
  std::vector<uint8_t> colour(n, 0); // 0 new, 1 on the stack, 2 done
  std::function<bool(uint32_t)> cyclic = [&](uint32_t b) {
    colour[b] = 1;
    for (uint32_t s : succs[b]) {
      if (!inR[s]) continue;
      if (colour[s] == 1 || (colour[s] == 0 && cyclic(s))) return true;
    }
    colour[b] = 2;
    return false;
  };
  for (uint32_t b = 0; b < n && unbounded.empty(); ++b)
    if (inR[b] && colour[b] == 0 && cyclic(b))
      unbounded = fmt::format("a way back goes round a loop of the FSM (block {})", k.blocks[b].name);
  // Shortest (Dijkstra) and, without cycles, longest (over the acyclic R, memoised) ways back.
  constexpr int64_t kInf = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> dist(n, kInf);
  std::vector<int64_t> via(n, -1);
  using Item = std::pair<int64_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  int64_t best = kInf;
  int64_t bestFrom = -1; // the last block of the shortest way (-1: the loop's block itself)
  const int64_t own = int64_t(r.blockCycles[home]);
  for (uint32_t s : succs[home]) {
    if (s == home && own < best) best = own, bestFrom = -1;
    if (inR[s] && own + int64_t(r.blockCycles[s]) < dist[s])
      dist[s] = own + int64_t(r.blockCycles[s]), via[s] = -1, queue.push({dist[s], s});
  }
  while (!queue.empty()) {
    const auto [c, b] = queue.top();
    queue.pop();
    if (c != dist[b]) continue;
    for (uint32_t s : succs[b]) {
      if (s == home && c < best) best = c, bestFrom = b;
      if (inR[s] && c + int64_t(r.blockCycles[s]) < dist[s])
        dist[s] = c + int64_t(r.blockCycles[s]), via[s] = b, queue.push({dist[s], s});
    }
  }
  std::vector<uint32_t> shortest;
  std::vector<int64_t> longest(n, -1);
  std::function<int64_t(uint32_t)> longestFrom = [&](uint32_t b) -> int64_t { // cycles after b, to home
    if (longest[b] >= 0) return longest[b];
    int64_t m = -1;
    for (uint32_t s : succs[b])
      if (s == home)
        m = std::max<int64_t>(m, 0);
      else if (inR[s] && longestFrom(s) >= 0)
        m = std::max(m, int64_t(r.blockCycles[s]) + longest[s]);
    return longest[b] = m;
  };
  for (int64_t b = bestFrom; b >= 0; b = via[uint32_t(b)])
    shortest.insert(shortest.begin(), uint32_t(b));
  d.kind = ReinvocationDelay::Kind::Known;
  d.drain = hw.drainAfterLastLaunch;
  d.min = d.drain + best;
  if (unbounded.empty())
    d.max = d.drain + own + longestFrom(home);
  else
    d.why = unbounded;
  shortest.push_back(home);
  for (uint32_t b : shortest)
    d.path += (d.path.empty() ? "" : ", ") + k.blocks[b].name;
  return d;
}

} // namespace spvhls::rtl
