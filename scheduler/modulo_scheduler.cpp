// Iterative modulo scheduling (B. R. Rau, "Iterative Modulo Scheduling", MICRO-27, 1994).
//
// Operations are placed one at a time, highest "height" first (the longest latency - II * distance
// path to the end of the iteration). Each goes to the first cycle in [Estart, min(Estart + II - 1,
// Lstart)] whose modulo reservation table (MRT) slot has a free unit, where Estart and Lstart are the
// bounds the already placed predecessors and successors impose. If no slot is free it is forced into
// one and the operations in the way (resource holders and successors whose dependences it now
// violates) are unscheduled again. A budget bounds the
// total number of placements; running out means "no schedule found at this II".
#include <boost/graph/bellman_ford_shortest_paths.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "scheduler/schedule.h"

namespace spvhls::sched {
namespace {

// height[v] = max over paths v -> ... -> end of the sum of (latency - ii * distance), where the last
// operation on the path contributes its own latency. Longest paths are shortest paths of the negated
// weights on the reversed graph from a virtual end vertex; no positive cycle exists at this II.
std::vector<int64_t> heights(const Problem& p, uint32_t ii) {
  const size_t n = p.ops.size(), end = n;
  struct EdgeProps {
    int64_t weight;
  };
  std::vector<std::pair<size_t, size_t>> edges;
  std::vector<EdgeProps> props;
  for (const Dependence& d : p.deps) {
    edges.emplace_back(d.to, d.from);
    props.push_back({-(int64_t(d.latency) - int64_t(ii) * d.distance)});
  }
  for (size_t v = 0; v < n; ++v) {
    edges.emplace_back(end, v);
    props.push_back({-int64_t(p.ops[v].latency)});
  }
  using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, EdgeProps>;
  Graph g(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), props.begin(), n + 1);
  std::vector<int64_t> dist(n + 1, std::numeric_limits<int64_t>::max());
  std::vector<size_t> pred(n + 1);
  bool ok = boost::bellman_ford_shortest_paths(g, n + 1,
                                               boost::weight_map(boost::get(&EdgeProps::weight, g))
                                                   .distance_map(dist.data())
                                                   .predecessor_map(pred.data())
                                                   .root_vertex(end));
  if (!ok)
    throw InternalError(SourceLoc{}, "modulo scheduler",
                        fmt::format("positive cycle at II {} after the feasibility check", ii));
  std::vector<int64_t> h(n);
  for (size_t v = 0; v < n; ++v) h[v] = -dist[v];
  return h;
}

class ModuloScheduler {
public:
  ModuloScheduler(const Problem& p, uint32_t ii) : p_(p), ii_(ii), in_(p.ops.size()), out_(p.ops.size()) {
    for (uint32_t d = 0; d < p.deps.size(); ++d) {
      if (p.deps[d].from == p.deps[d].to) continue; // II * distance >= latency: checked up front
      in_[p.deps[d].to].push_back(d);
      out_[p.deps[d].from].push_back(d);
    }
    mrt_.resize(p.resources.size(), std::vector<std::vector<uint32_t>>(ii));
  }

  std::optional<std::vector<int64_t>> run() {
    const size_t n = p_.ops.size();
    std::vector<int64_t> height = heights(p_, ii_);
    start_.assign(n, kUnscheduled);
    std::vector<int64_t> previous(n, kUnscheduled);
    size_t unscheduled = n;
    int64_t budget = 32 * int64_t(n) + 64;

    while (unscheduled > 0) {
      if (budget-- == 0) return std::nullopt;
      uint32_t op = 0;
      bool found = false;
      for (uint32_t v = 0; v < n; ++v)
        if (start_[v] == kUnscheduled && (!found || height[v] > height[op])) op = v, found = true;

      int64_t estart = 0;
      for (uint32_t d : in_[op]) {
        const Dependence& dep = p_.deps[d];
        if (start_[dep.from] != kUnscheduled)
          estart = std::max(estart, start_[dep.from] + dep.latency - int64_t(ii_) * dep.distance);
      }
      // Latest start the placed successors allow (upper bounds come from negative latencies and
      // distances). Taking a free slot beyond it would only push the successors, and through their
      // own upper bounds possibly this operation again, later and later; evicting a resource holder
      // instead lets the schedule settle.
      int64_t lstart = std::numeric_limits<int64_t>::max();
      for (uint32_t d : out_[op]) {
        const Dependence& dep = p_.deps[d];
        if (start_[dep.to] != kUnscheduled)
          lstart = std::min(lstart, start_[dep.to] + int64_t(ii_) * dep.distance - dep.latency);
      }
      int64_t last = estart + ii_ - 1;
      if (lstart >= estart) last = std::min(last, lstart);
      int64_t t = kUnscheduled;
      for (int64_t c = estart; c <= last; ++c)
        if (slotFree(op, c)) { t = c; break; }
      if (t == kUnscheduled) // forced: make progress past the previous attempt to avoid cycling
        t = (previous[op] == kUnscheduled || estart > previous[op]) ? estart : previous[op] + 1;

      unscheduled += evictConflicts(op, t);
      place(op, t);
      previous[op] = t;
      --unscheduled;
    }
    return start_;
  }

private:
  static constexpr int64_t kUnscheduled = std::numeric_limits<int64_t>::min();

  std::vector<uint32_t>& slot(int res, int64_t t) { return mrt_[res][size_t(t % ii_)]; }
  // The first MRT slot where `op` started at t would exceed its resource's limit (it holds a unit
  // for `blocking` cycles, which wrap modulo II), or -1 if it fits.
  int64_t overfullSlot(uint32_t op, int64_t t) {
    const Operation& o = p_.ops[op];
    if (o.resource < 0) return -1;
    for (uint32_t b = 0; b < o.blocking; ++b) {
      const int64_t c = t + b;
      uint32_t need = 0; // how often op occupies c's slot
      for (uint32_t b2 = 0; b2 < o.blocking; ++b2)
        need += (t + b2) % ii_ == c % ii_;
      if (slot(o.resource, c).size() + need > p_.resources[o.resource].limit) return c;
    }
    return -1;
  }
  bool slotFree(uint32_t op, int64_t t) { return overfullSlot(op, t) < 0; }
  void place(uint32_t op, int64_t t) {
    start_[op] = t;
    if (p_.ops[op].resource >= 0)
      for (uint32_t b = 0; b < p_.ops[op].blocking; ++b)
        slot(p_.ops[op].resource, t + b).push_back(op);
  }
  void unplace(uint32_t op) {
    if (int res = p_.ops[op].resource; res >= 0) {
      for (uint32_t b = 0; b < p_.ops[op].blocking; ++b) {
        auto& s = slot(res, start_[op] + b);
        s.erase(std::find(s.begin(), s.end(), op));
      }
    }
    start_[op] = kUnscheduled;
  }

  // Unschedules what conflicts with `op` at cycle t (resource holders in its MRT slots, successors it
  // now starts too late for); returns how many operations it unscheduled.
  size_t evictConflicts(uint32_t op, int64_t t) {
    size_t evicted = 0;
    if (int res = p_.ops[op].resource; res >= 0) {
      // Terminates: the up-front check (units held per iteration <= limit * II) lets op fit alone.
      for (int64_t c; (c = overfullSlot(op, t)) >= 0;) {
        if (slot(res, c).empty())
          throw InternalError(SourceLoc{}, "modulo scheduler",
                              fmt::format("'{}' does not fit an empty slot", p_.ops[op].name));
        unplace(slot(res, c).front());
        ++evicted;
      }
    }
    for (uint32_t d : out_[op]) {
      const Dependence& dep = p_.deps[d];
      if (start_[dep.to] != kUnscheduled && start_[dep.to] + int64_t(ii_) * dep.distance < t + dep.latency) {
        unplace(dep.to);
        ++evicted;
      }
    }
    // Placed predecessors need no check: t >= Estart satisfies all of them.
    return evicted;
  }

  const Problem& p_;
  uint32_t ii_;
  std::vector<std::vector<uint32_t>> in_, out_;      // dependence indices per operation
  std::vector<std::vector<std::vector<uint32_t>>> mrt_; // [resource][slot] -> operations
  std::vector<int64_t> start_;
};

} // namespace

std::optional<Schedule> moduloSchedule(const Problem& p, uint32_t ii) {
  if (ii == 0)
    throw InternalError(SourceLoc{}, "modulo scheduler", "asked for a modulo schedule at II 0");
  p.check();
  if (provablyInfeasible(p, ii)) return std::nullopt;

  std::optional<std::vector<int64_t>> start = ModuloScheduler(p, ii).run();
  if (!start) return std::nullopt;

  int64_t first = start->empty() ? 0 : *std::min_element(start->begin(), start->end());
  Schedule s;
  s.ii = ii;
  s.length = 1;
  for (size_t i = 0; i < start->size(); ++i) {
    int64_t t = (*start)[i] - first; // shifting every start keeps dependences and MRT slots intact
    if (t > std::numeric_limits<int>::max() / 2)
      throw InternalError(SourceLoc{}, "modulo scheduler", "start time overflow");
    s.start.push_back(int(t));
    s.length = std::max<int>(s.length, int(t) + int(p.ops[i].latency));
  }
  try {
    verify(p, s);
  } catch (const DiagnosticError& e) {
    throw InternalError(SourceLoc{}, "modulo scheduler",
                        fmt::format("the schedule at II {} fails verification: {}", ii, e.what()));
  }
  return s;
}

} // namespace spvhls::sched
