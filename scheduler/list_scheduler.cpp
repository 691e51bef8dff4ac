// Sequential (list) scheduling of an acyclic problem, e.g. one CFG block: operations whose
// predecessors are all placed become ready; the ready operation with the earliest possible start goes
// first (ties: the longer path to the end, then program order) into the first cycle with a free unit.
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "scheduler/schedule.h"

namespace spvhls::sched {

Schedule listSchedule(const Problem& p) {
  p.check();
  const size_t n = p.ops.size();
  for (const Dependence& d : p.deps)
    if (d.distance != 0)
      throw DiagnosticError(SourceLoc{}, "list scheduler",
                            fmt::format("dependence '{}' -> '{}' has distance {}, expected 0 in an acyclic problem",
                                        p.ops[d.from].name, p.ops[d.to].name, d.distance));

  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Graph g(n);
  for (const Dependence& d : p.deps) boost::add_edge(d.from, d.to, g);
  std::vector<size_t> reverseTopo;
  try {
    boost::topological_sort(g, std::back_inserter(reverseTopo));
  } catch (const boost::not_a_dag&) {
    // Name the operations of one cycle: a strongly connected component with more than one member,
    // or an operation with a dependence on itself.
    std::vector<int> comp(n);
    boost::strong_components(g, comp.data());
    std::vector<size_t> size(n, 0);
    for (size_t v = 0; v < n; ++v) ++size[comp[v]];
    int bad = -1;
    for (const Dependence& d : p.deps)
      if (d.from == d.to || size[comp[d.from]] > 1) bad = comp[d.from];
    std::string names;
    for (size_t v = 0; v < n; ++v)
      if (comp[v] == bad) names += fmt::format("{}'{}'", names.empty() ? "" : ", ", p.ops[v].name);
    throw DiagnosticError(SourceLoc{}, "list scheduler",
                          fmt::format("the dependences form a cycle through {}, expected an acyclic problem", names));
  }

  std::vector<std::vector<uint32_t>> in(n), out(n);
  for (uint32_t d = 0; d < p.deps.size(); ++d) {
    in[p.deps[d].to].push_back(d);
    out[p.deps[d].from].push_back(d);
  }
  // Longest latency path from each operation to the end (including its own latency): the priority.
  std::vector<int64_t> height(n, 0);
  for (size_t v : reverseTopo) {
    height[v] = p.ops[v].latency;
    for (uint32_t d : out[v]) height[v] = std::max(height[v], p.deps[d].latency + height[p.deps[d].to]);
  }

  std::vector<size_t> waitingFor(n);
  std::vector<int64_t> earliest(n, 0);
  std::vector<uint32_t> ready;
  for (size_t v = 0; v < n; ++v)
    if ((waitingFor[v] = in[v].size()) == 0) ready.push_back(uint32_t(v));
  std::map<std::pair<int, int64_t>, uint32_t> used; // (resource, cycle) -> uses
  Schedule s;
  s.ii = 0;
  s.start.assign(n, 0);
  s.length = 1;
  while (!ready.empty()) {
    auto best = std::min_element(ready.begin(), ready.end(), [&](uint32_t a, uint32_t b) {
      if (earliest[a] != earliest[b]) return earliest[a] < earliest[b];
      if (height[a] != height[b]) return height[a] > height[b];
      return a < b;
    });
    uint32_t v = *best;
    ready.erase(best);
    int64_t t = earliest[v];
    if (int res = p.ops[v].resource; res >= 0) {
      auto fits = [&](int64_t c) {
        for (uint32_t b = 0; b < p.ops[v].blocking; ++b)
          if (used[{res, c + b}] >= p.resources[res].limit) return false;
        return true;
      };
      while (!fits(t))
        ++t;
      for (uint32_t b = 0; b < p.ops[v].blocking; ++b)
        ++used[{res, t + b}];
    }
    s.start[v] = int(t);
    s.length = std::max<int>(s.length, int(t) + int(p.ops[v].latency));
    for (uint32_t d : out[v]) {
      uint32_t w = p.deps[d].to;
      earliest[w] = std::max(earliest[w], t + p.deps[d].latency);
      if (--waitingFor[w] == 0) ready.push_back(w);
    }
  }
  try {
    verify(p, s);
  } catch (const DiagnosticError& e) {
    throw InternalError(SourceLoc{}, "list scheduler", fmt::format("the schedule fails verification: {}", e.what()));
  }
  return s;
}

} // namespace spvhls::sched
