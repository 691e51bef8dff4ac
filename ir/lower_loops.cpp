// Loops from the CFG (not from OpLoopMerge): dominators, back edges (the target dominates the source),
// natural loops and their nesting; then loop controls are attached to the loops they belong to.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

LoopForest findLoops(const Kernel& k) {
  const Succs succ = kernelSuccessors(k);
  const size_t n = succ.size();
  const std::vector<uint32_t> roots = cfgRoots(k);
  const std::vector<int> idom = immediateDominators(succ, roots);
  const std::vector<uint32_t> rpo = reversePostOrder(succ, roots);
  std::vector<int> rpoIndex(n, -1);
  for (size_t i = 0; i < rpo.size(); ++i) rpoIndex[rpo[i]] = static_cast<int>(i);
  std::vector<std::vector<uint32_t>> preds(n);
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b : succ[a]) preds[b].push_back(a);

  LoopForest lf;
  std::map<int, std::vector<uint32_t>> latchesByHeaderRpo; // outer loops (earlier headers) first
  for (uint32_t s : rpo)
    for (uint32_t t : succ[s]) {
      if (dominates(idom, t, s)) latchesByHeaderRpo[rpoIndex[t]].push_back(s);
      else if (rpoIndex[t] <= rpoIndex[s]) lf.irreducible.push_back(t); // retreating, not a back edge
    }

  for (auto& [hr, latches] : latchesByHeaderRpo) {
    LoopInfo L;
    L.header = rpo[hr];
    L.latches = latches;
    // Natural loop: the header plus everything reaching a latch without passing the header.
    std::vector<uint8_t> in(n, 0);
    in[L.header] = 1;
    std::vector<uint32_t> work;
    for (uint32_t l : latches)
      if (!in[l]) {
        in[l] = 1;
        work.push_back(l);
      }
    while (!work.empty()) {
      uint32_t b = work.back();
      work.pop_back();
      for (uint32_t p : preds[b])
        if (!in[p] && rpoIndex[p] >= 0) {
          in[p] = 1;
          work.push_back(p);
        }
    }
    for (uint32_t b = 0; b < n; ++b)
      if (in[b]) L.blocks.push_back(b);
    lf.loops.push_back(std::move(L));
  }

  // Nesting: the parent is the smallest other loop containing the header.
  lf.innermost.assign(n, -1);
  for (size_t i = 0; i < lf.loops.size(); ++i) {
    LoopInfo& L = lf.loops[i];
    size_t best = SIZE_MAX;
    for (size_t j = 0; j < lf.loops.size(); ++j) {
      const LoopInfo& O = lf.loops[j];
      if (i == j || O.blocks.size() <= L.blocks.size()) continue;
      if (!std::binary_search(O.blocks.begin(), O.blocks.end(), L.header)) continue;
      if (best == SIZE_MAX || O.blocks.size() < lf.loops[best].blocks.size()) best = j;
    }
    if (best != SIZE_MAX) L.parent = static_cast<int>(best);
  }
  // Loops were created outer first (headers in reverse post-order), so parents come first.
  for (size_t i = 0; i < lf.loops.size(); ++i) {
    LoopInfo& L = lf.loops[i];
    if (L.parent >= 0) {
      L.depth = lf.loops[L.parent].depth + 1;
      lf.loops[L.parent].children.push_back(static_cast<uint32_t>(i));
    }
    for (uint32_t b : L.blocks) {
      int& cur = lf.innermost[b];
      if (cur < 0 || lf.loops[cur].blocks.size() > L.blocks.size()) cur = static_cast<int>(i);
    }
  }
  return lf;
}

std::vector<uint32_t> loopBodyOrder(const Succs& succ, const LoopInfo& L) {
  auto inLoop = [&](uint32_t b) { return std::binary_search(L.blocks.begin(), L.blocks.end(), b); };
  std::map<uint32_t, uint32_t> indeg;
  for (uint32_t b : L.blocks)
    for (uint32_t s : succ[b])
      if (inLoop(s) && s != L.header) ++indeg[s];
  std::vector<uint32_t> order, ready{L.header};
  while (!ready.empty()) {
    const uint32_t b = ready.back();
    ready.pop_back();
    order.push_back(b);
    for (uint32_t s : succ[b])
      if (inLoop(s) && s != L.header && --indeg[s] == 0) ready.push_back(s);
  }
  if (order.size() != L.blocks.size()) order.clear();
  return order;
}

void mergeControls(LoopControls& into, const LoopControls& from) {
  if (from.ii) into.ii = from.ii;
  if (from.pipelineEnable) into.pipelineEnable = from.pipelineEnable;
  if (from.maxConcurrency) into.maxConcurrency = from.maxConcurrency;
  if (from.speculatedIterations) into.speculatedIterations = from.speculatedIterations;
  if (from.maxInterleaving) into.maxInterleaving = from.maxInterleaving;
  if (from.dependencyLengthAll) into.dependencyLengthAll = from.dependencyLengthAll;
  if (from.loopCountMin) into.loopCountMin = from.loopCountMin;
  if (from.loopCountMax) into.loopCountMax = from.loopCountMax;
  if (from.loopCountAvg) into.loopCountAvg = from.loopCountAvg;
  for (const auto& md : from.memoryDependenceDistance) into.memoryDependenceDistance.push_back(md);
  into.requests.insert(into.requests.end(), from.requests.begin(), from.requests.end());
}

namespace {

std::string requestList(const LoopControls& lc) {
  std::string s;
  for (const auto& r : lc.requests) s += (s.empty() ? "" : ", ") + r.name + (r.value.empty() ? "" : " " + r.value);
  return s;
}

} // namespace

void attachControls(Kernel& k, LoopForest& lf, std::vector<PendingControls>& pending) {
  std::vector<uint8_t> seen(lf.loops.size(), 0);
  for (PendingControls& pc : pending) {
    int L = -1;
    for (size_t i = 0; i < lf.loops.size(); ++i)
      if (lf.loops[i].header == pc.block) L = static_cast<int>(i);
    if (L < 0) L = lf.innermost[pc.block];
    if (L < 0) {
      k.diagnostics.push_back(Diagnostic{
          Diagnostic::Severity::Warning, pc.loc, pc.construct,
          fmt::format("loop controls ({}) in block {}, which is not part of any loop; ignored",
                      requestList(pc.controls), k.blocks[pc.block].name)});
      continue;
    }
    LoopInfo& loop = lf.loops[L];
    const bool atHeaderOrLatch = loop.header == pc.block ||
        std::find(loop.latches.begin(), loop.latches.end(), pc.block) != loop.latches.end();
    if (!atHeaderOrLatch)
      k.diagnostics.push_back(Diagnostic{
          Diagnostic::Severity::Note, pc.loc, pc.construct,
          fmt::format("loop controls in block {} apply to loop {}, the innermost loop containing it",
                      k.blocks[pc.block].name, k.blocks[loop.header].name)});
    auto& target = k.blocks[loop.header].loopControls;
    if (seen[L] && target)
      k.diagnostics.push_back(Diagnostic{
          Diagnostic::Severity::Warning, pc.loc, pc.construct,
          fmt::format("loop {} has loop controls from several instructions; later values override "
                      "earlier ones", k.blocks[loop.header].name)});
    if (!target) target = LoopControls{};
    mergeControls(*target, pc.controls);
    if (pc.hasLoopCountHint) loop.tripCountHint = pc.loopCountHint;
    seen[L] = 1;
  }
}

} // namespace spvhls::ir::lower
