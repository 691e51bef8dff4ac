// Chaining within a clock cycle: the Timing dependences that keep every chain within the cycle's
// delay (addChainBreaks), and the longest chain of a schedule (criticalChain, for Fmax estimates).
#include <fmt/format.h>

#include <algorithm>

#include "scheduler/schedule.h"

namespace spvhls::sched {
namespace {

// Distance-0 value dependences whose producer has latency 0 (the edges a chain can follow), per
// producer, and an order of the operations in which every such producer comes first.
struct ChainGraph {
  std::vector<std::vector<uint32_t>> succ;
  std::vector<uint32_t> order;
};

ChainGraph chainGraph(const Problem& p) {
  ChainGraph g;
  const size_t n = p.ops.size();
  g.succ.resize(n);
  std::vector<uint32_t> indegree(n, 0);
  for (const Dependence& d : p.deps)
    if (d.carriesValue() && d.distance == 0 && p.ops[d.from].latency == 0 && d.from != d.to) {
      g.succ[d.from].push_back(d.to);
      ++indegree[d.to];
    }
  for (uint32_t v = 0; v < n; ++v)
    if (indegree[v] == 0) g.order.push_back(v);
  for (size_t k = 0; k < g.order.size(); ++k)
    for (uint32_t w : g.succ[g.order[k]])
      if (--indegree[w] == 0) g.order.push_back(w);
  // A cycle of latency-0 distance-0 value dependences is a combinational loop: check() reports
  // positive-latency cycles only, so it is reported here.
  if (g.order.size() != n)
    throw DiagnosticError(SourceLoc{}, "scheduling problem",
                          "a cycle of distance-0 value dependences through latency-0 operations (a "
                          "combinational loop)");
  return g;
}

} // namespace

void addChainBreaks(Problem& p) {
  if (p.clockPeriodNs <= 0) return;
  const ChainGraph g = chainGraph(p); // the distance-0 edges, in topological order
  const size_t n = p.ops.size();
  // Edges a chain can follow across iterations: a value of latency 0 read, d iterations later, in the
  // very cycle it is formed (dependence delay 0, so start(to) + II * d == start(from) can hold).
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> carried(n);
  for (const Dependence& d : p.deps)
    if (d.carriesValue() && d.distance > 0 && d.latency <= 0 && p.ops[d.from].latency == 0)
      carried[d.from].emplace_back(d.to, d.distance);
  // A chain spanning more iterations than this within one cycle would need as many phis in a row.
  constexpr uint32_t kMaxDistance = 64;
  std::vector<Dependence> breaks;
  for (uint32_t u = 0; u < n; ++u) {
    const Operation& root = p.ops[u];
    const bool queued = root.latency > 0 && root.resultDelayNs > 0;
    if (!queued && (root.latency != 0 || root.delayNs <= 0)) continue;
    // reach[D][v]: the longest chain from u to v through D iterations (< 0: none), in order of D and,
    // within one D, topologically; past the period a chain goes no further (v gets the break). A
    // queued result's chain starts at its readers, in the cycle it is readable (start + latency).
    std::vector<std::vector<double>> reach(1, std::vector<double>(n, -1.0));
    auto extend = [&](uint32_t v, uint32_t dist, double at) {
      if (dist > kMaxDistance) return;
      if (reach.size() <= dist) reach.resize(dist + 1, std::vector<double>(n, -1.0));
      reach[dist][v] = std::max(reach[dist][v], at + p.ops[v].delayNs);
    };
    if (!queued)
      reach[0][u] = root.delayNs;
    else
      for (const Dependence& d : p.deps)
        if (d.from == u && d.to != u && d.carriesValue()) extend(d.to, d.distance, root.resultDelayNs);
    for (uint32_t dist = 0; dist < reach.size(); ++dist) {
      for (uint32_t x : g.order) {
        const double at = reach[dist][x];
        if (at < 0) continue;
        if ((x != u || dist > 0) && at > p.clockPeriodNs) {
          breaks.push_back(Dependence{u, x, int(root.latency) + 1, dist, Dependence::Kind::Timing});
          continue;
        }
        for (uint32_t v : g.succ[x])
          reach[dist][v] = std::max(reach[dist][v], at + p.ops[v].delayNs);
        for (const auto& [v, d] : carried[x])
          extend(v, dist + d, at);
      }
    }
  }
  p.deps.insert(p.deps.end(), breaks.begin(), breaks.end());
}

TimingPath criticalChain(const Problem& p, const Schedule& s) {
  const size_t n = p.ops.size();
  // Chains follow value dependences read in the cycle they are formed: distance 0 at the same start,
  // or forwarded (start(to) + II * distance == start(from)). Ops in order of decreasing start (a
  // forwarded value goes to an earlier position), topological within a start.
  const ChainGraph g = chainGraph(p);
  std::vector<uint32_t> order(g.order);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return s.start[a] > s.start[b]; });
  // A queued result read where it is readable starts a chain with its resultDelayNs (its readers
  // start later than it, so they are visited first: out() does not depend on the order there).
  std::vector<std::vector<uint32_t>> preds(n);
  std::vector<bool> chained(n, false);
  for (const Dependence& d : p.deps)
    if (d.carriesValue() && p.ops[d.from].onWire() && d.from != d.to &&
        int64_t(s.start[d.to]) + int64_t(s.ii) * d.distance == s.start[d.from] + p.ops[d.from].latency) {
      preds[d.to].push_back(d.from);
      chained[d.from] = chained[d.from] || p.ops[d.from].delayNs > 0 || p.ops[d.from].latency > 0;
    }
  std::vector<double> end(n, 0.0);
  auto out = [&](uint32_t u) { return p.ops[u].latency > 0 ? p.ops[u].resultDelayNs : end[u]; };
  std::vector<int> via(n, -1);
  TimingPath best;
  best.chainedOps = uint32_t(std::count(chained.begin(), chained.end(), true));
  int last = -1;
  for (uint32_t v : order) {
    double arrive = 0;
    for (uint32_t u : preds[v])
      if (out(u) > arrive) arrive = out(u), via[v] = int(u);
    end[v] = arrive + p.ops[v].delayNs;
    if (last < 0 || end[v] > best.delayNs) best.delayNs = end[v], last = int(v);
  }
  for (int v = last; v >= 0; v = via[size_t(v)])
    best.ops.push_back(uint32_t(v));
  std::reverse(best.ops.begin(), best.ops.end());
  return best;
}

} // namespace spvhls::sched
