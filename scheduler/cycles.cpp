// Positive-cycle detection on the dependence graph, shared by Problem::check() (zero-distance cycles),
// computeMII() (the integer RecMII confirmation) and the modulo scheduler (feasibility at an II).
//
// A dependence from -> to with latency l and distance d at initiation interval II requires
// start[to] >= start[from] + l - II * d. The constraints are satisfiable iff no cycle has a positive
// total of (l - II * d). We negate the weights and ask Boost's Bellman-Ford for a negative cycle,
// starting from a virtual source connected to every operation so that every cycle is reachable.
#include <boost/graph/bellman_ford_shortest_paths.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "scheduler/schedule.h"

namespace spvhls::sched {
namespace {

constexpr uint32_t kSourceEdge = ~0u;

struct EdgeProps {
  int64_t weight = 0;          // -(latency - ii * distance)
  uint32_t dep = kSourceEdge;  // index into Problem::deps
};
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, EdgeProps>;

// Remembers, per vertex, the dependence of its last relaxation (the predecessor edge) and the last
// vertex relaxed overall: with a negative cycle, Bellman-Ford still relaxes in its final pass, and
// walking back |V| predecessor edges from a vertex relaxed then lands on the cycle.
struct RecordRelaxations : boost::default_bellman_visitor {
  std::vector<uint32_t>* predDep = nullptr;
  size_t* lastRelaxed = nullptr;
  template <class Edge, class G> void edge_relaxed(Edge e, const G& g) {
    (*predDep)[boost::target(e, g)] = g[e].dep;
    *lastRelaxed = boost::target(e, g);
  }
};

} // namespace

std::vector<uint32_t> findPositiveCycle(const Problem& p, uint32_t ii, bool zeroDistanceOnly) {
  const size_t n = p.ops.size();
  const size_t source = n;
  std::vector<std::pair<size_t, size_t>> edges;
  std::vector<EdgeProps> props;
  for (uint32_t d = 0; d < p.deps.size(); ++d) {
    const Dependence& dep = p.deps[d];
    if (zeroDistanceOnly && dep.distance != 0) continue;
    int64_t w = int64_t(dep.latency) - int64_t(ii) * int64_t(dep.distance);
    edges.emplace_back(dep.from, dep.to);
    props.push_back(EdgeProps{-w, d});
  }
  for (size_t v = 0; v < n; ++v) {
    edges.emplace_back(source, v);
    props.push_back(EdgeProps{0, kSourceEdge});
  }
  Graph g(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), props.begin(), n + 1);

  std::vector<int64_t> dist(n + 1, std::numeric_limits<int64_t>::max());
  std::vector<size_t> pred(n + 1);
  std::vector<uint32_t> predDep(n + 1, kSourceEdge);
  size_t lastRelaxed = source;
  RecordRelaxations vis;
  vis.predDep = &predDep;
  vis.lastRelaxed = &lastRelaxed;
  bool noNegativeCycle = boost::bellman_ford_shortest_paths(
      g, n + 1,
      boost::weight_map(boost::get(&EdgeProps::weight, g))
          .distance_map(dist.data())
          .predecessor_map(pred.data())
          .root_vertex(source)
          .visitor(vis));
  if (noNegativeCycle) return {};

  auto internal = [&](const char* what) {
    return InternalError(SourceLoc{}, "scheduler", fmt::format("positive-cycle recovery failed: {}", what));
  };
  size_t v = lastRelaxed;
  for (size_t i = 0; i <= n; ++i) {
    if (predDep[v] == kSourceEdge) throw internal("predecessor chain reached the source");
    v = p.deps[predDep[v]].from;
  }
  std::vector<uint32_t> cycle;
  size_t u = v;
  do {
    if (predDep[u] == kSourceEdge || cycle.size() > n) throw internal("predecessor chain is not a cycle");
    cycle.push_back(predDep[u]);
    u = p.deps[predDep[u]].from;
  } while (u != v);
  std::reverse(cycle.begin(), cycle.end());

  int64_t total = 0;
  for (uint32_t d : cycle) total += int64_t(p.deps[d].latency) - int64_t(ii) * int64_t(p.deps[d].distance);
  if (total <= 0) throw internal("the recovered cycle is not positive");
  return cycle;
}

std::vector<uint64_t> unitCyclesHeld(const Problem& p) {
  std::vector<uint64_t> held(p.resources.size(), 0);
  for (const Operation& op : p.ops)
    if (op.resource >= 0) held[op.resource] += op.blocking;
  return held;
}

bool provablyInfeasible(const Problem& p, uint32_t ii) {
  const std::vector<uint64_t> held = unitCyclesHeld(p);
  for (size_t r = 0; r < held.size(); ++r)
    if (held[r] > uint64_t(p.resources[r].limit) * ii) return true;
  return !findPositiveCycle(p, ii).empty();
}

} // namespace spvhls::sched
