// Problem::check() (are the inputs schedulable at all?) and verify() (is a solution correct?).
// verify() is deliberately written from the constraint definitions alone and shares no code with the
// algorithms, so that a bug in an algorithm cannot hide itself.
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

#include "scheduler/schedule.h"

namespace spvhls::sched {
namespace {

DiagnosticError problemError(std::string message) {
  return DiagnosticError(SourceLoc{}, "scheduling problem", std::move(message));
}

DiagnosticError verifyError(std::string message) {
  return DiagnosticError(SourceLoc{}, "schedule verification", std::move(message));
}

} // namespace

void Problem::check() const {
  for (size_t i = 0; i < ops.size(); ++i) {
    int r = ops[i].resource;
    if (r < -1 || r >= int(resources.size()))
      throw problemError(fmt::format("operation {} '{}' uses resource {}, expected -1 or 0..{}", i,
                                     ops[i].name, r, int(resources.size()) - 1));
  }
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].resource >= 0 && ops[i].blocking == 0)
      throw problemError(
          fmt::format("operation {} '{}' holds its resource for 0 cycles, expected >= 1", i, ops[i].name));
  for (size_t r = 0; r < resources.size(); ++r)
    if (resources[r].limit == 0)
      throw problemError(fmt::format("resource {} '{}' has limit 0, expected >= 1", r, resources[r].name));
  for (size_t d = 0; d < deps.size(); ++d)
    if (deps[d].from >= ops.size() || deps[d].to >= ops.size())
      throw problemError(fmt::format("dependence {} goes from operation {} to {}, expected indices below {}",
                                     d, deps[d].from, deps[d].to, ops.size()));

  // Only a cycle made of distance-0 dependences can have total distance 0; such cycles live inside
  // one strongly connected component of the distance-0 subgraph (or are a self-loop).
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Graph g(ops.size());
  bool selfLoop = false;
  for (const Dependence& d : deps) {
    if (d.distance != 0) continue;
    boost::add_edge(d.from, d.to, g);
    selfLoop |= d.from == d.to;
  }
  std::vector<int> component(ops.size());
  size_t components = ops.empty() ? 0 : boost::strong_components(g, component.data());
  if (components == ops.size() && !selfLoop) return;

  std::vector<uint32_t> cycle = findPositiveCycle(*this, 0, /*zeroDistanceOnly=*/true);
  if (cycle.empty()) return; // zero-distance cycles exist, but none has positive latency
  std::string path;
  int latency = 0;
  for (uint32_t d : cycle) {
    path += fmt::format("{} -> ", ops[deps[d].from].name);
    latency += deps[d].latency;
  }
  path += ops[deps[cycle.front()].from].name;
  throw problemError(fmt::format("dependence cycle {} has total distance 0 and total latency {}, "
                                 "expected distance > 0 or latency <= 0: it can never be scheduled",
                                 path, latency));
}

uint32_t Schedule::stages() const {
  if (ii == 0) return 1;
  uint32_t len = length > 0 ? uint32_t(length) : 1;
  return (len + ii - 1) / ii;
}

void verify(const Problem& p, const Schedule& s) {
  const auto& ops = p.ops;
  if (s.start.size() != ops.size())
    throw verifyError(fmt::format("size: schedule has {} start times for {} operations", s.start.size(),
                                  ops.size()));
  for (size_t i = 0; i < ops.size(); ++i)
    if (s.start[i] < 0)
      throw verifyError(fmt::format("negative start: '{}' starts at {}, expected >= 0", ops[i].name, s.start[i]));

  for (const Dependence& d : p.deps) {
    if (d.from >= ops.size() || d.to >= ops.size())
      throw verifyError(fmt::format("dependence {} -> {} names an operation outside 0..{}", d.from, d.to,
                                    int(ops.size()) - 1));
    if (s.ii == 0 && d.distance != 0)
      throw verifyError(fmt::format("distance: sequential schedule (II 0) for a problem with a distance-{} "
                                    "dependence '{}' -> '{}'",
                                    d.distance, ops[d.from].name, ops[d.to].name));
    int64_t lhs = int64_t(s.start[d.to]) + int64_t(s.ii) * d.distance;
    int64_t rhs = int64_t(s.start[d.from]) + d.latency;
    if (lhs >= rhs) continue;
    if (d.distance == 0)
      throw verifyError(fmt::format("precedence: '{}' (start {}) -> '{}' (start {}) needs latency {}: {} < {}",
                                    ops[d.from].name, s.start[d.from], ops[d.to].name, s.start[d.to],
                                    d.latency, s.start[d.to], rhs));
    throw verifyError(fmt::format("distance: '{}' (start {}) -> '{}' (start {}) with latency {} at distance {} "
                                  "and II {}: {} + {}*{} = {} < {}",
                                  ops[d.from].name, s.start[d.from], ops[d.to].name, s.start[d.to], d.latency,
                                  d.distance, s.ii, s.start[d.to], s.ii, d.distance, lhs, rhs));
  }

  // Resource use per cycle (ii == 0) or per modulo slot (ii > 0).
  std::map<std::pair<int, int64_t>, std::vector<size_t>> users;
  for (size_t i = 0; i < ops.size(); ++i) {
    int r = ops[i].resource;
    if (r < 0) continue;
    if (r >= int(p.resources.size()))
      throw verifyError(fmt::format("resource: '{}' uses resource {} of {}", ops[i].name, r, p.resources.size()));
    if (ops[i].blocking == 0)
      throw verifyError(
          fmt::format("resource: '{}' holds resource {} for 0 cycles, expected >= 1", ops[i].name, r));
    for (uint32_t b = 0; b < ops[i].blocking; ++b) {
      int64_t cycle = int64_t(s.start[i]) + b;
      users[{r, s.ii == 0 ? cycle : cycle % int64_t(s.ii)}].push_back(i);
    }
  }
  for (const auto& [key, list] : users) {
    const Resource& res = p.resources[key.first];
    if (list.size() <= res.limit) continue;
    std::string names;
    for (size_t i : list)
      names += fmt::format("{}'{}' (start {}{})", names.empty() ? "" : ", ", ops[i].name, s.start[i],
                           ops[i].blocking > 1 ? fmt::format(", holds {} cycles", ops[i].blocking) : "");
    if (s.ii == 0)
      throw verifyError(fmt::format("resource: '{}' is used {} times in cycle {}, limit {}: {}", res.name,
                                    list.size(), key.second, res.limit, names));
    throw verifyError(fmt::format("resource modulo II: '{}' is used {} times in slot {} (start mod II {}), "
                                  "limit {}: {}",
                                  res.name, list.size(), key.second, s.ii, res.limit, names));
  }

  // Timing: along every chain (values read on a wire in the cycle they are formed: the producer has
  // latency 0 and the reader starts then, in its iteration, or a queued result is read where it is
  // readable, behind its resultDelayNs) the delays sum to at most the period. An
  // operation over the period on its own is allowed (it bounds the clock), nothing chained to it.
  if (p.clockPeriodNs > 0) {
    std::vector<std::vector<size_t>> onWire(ops.size());
    for (const Dependence& d : p.deps)
      if (d.carriesValue() && ops[d.from].onWire() && d.from != d.to &&
          int64_t(s.start[d.to]) + int64_t(s.ii) * d.distance == s.start[d.from] + ops[d.from].latency)
        onWire[d.to].push_back(d.from);
    std::vector<double> arrival(ops.size(), 0.0);
    std::vector<int> state(ops.size(), 0); // 0 new, 1 on the stack, 2 done
    std::vector<size_t> from(ops.size(), SIZE_MAX);
    auto finish = [&](auto&& self, size_t v) -> double {
      if (state[v] == 1)
        throw verifyError(fmt::format("timing: '{}' (start {}) reads its own value on a wire: a "
                                      "combinational loop",
                                      ops[v].name, s.start[v]));
      if (state[v] == 0) {
        state[v] = 1;
        for (size_t u : onWire[v])
          if (double e = ops[u].latency > 0 ? ops[u].resultDelayNs : self(self, u); e > arrival[v])
            arrival[v] = e, from[v] = u;
        state[v] = 2;
      }
      return arrival[v] + ops[v].delayNs;
    };
    for (size_t v = 0; v < ops.size(); ++v) {
      const double end = finish(finish, v);
      if (arrival[v] <= 0 || end <= p.clockPeriodNs + 1e-9) continue;
      std::string chain = fmt::format("'{}' (start {})", ops[v].name, s.start[v]);
      for (size_t u = from[v]; u != SIZE_MAX; u = from[u])
        chain = fmt::format("'{}' (start {}) -> ", ops[u].name, s.start[u]) + chain;
      throw verifyError(fmt::format("timing: the chain {} takes {:.3f} ns, over the cycle's {:.3f} ns", chain,
                                    end, p.clockPeriodNs));
    }
  }

  int64_t expected = 1; // a schedule lasts at least one cycle
  for (size_t i = 0; i < ops.size(); ++i) expected = std::max(expected, int64_t(s.start[i]) + ops[i].latency);
  if (s.length != expected)
    throw verifyError(fmt::format("length: schedule length is {}, expected max(1, max(start + latency)) = {}",
                                  s.length, expected));
}

uint64_t registerBits(const Problem& p, const Schedule& s) {
  std::vector<int64_t> lastRead(p.ops.size(), std::numeric_limits<int64_t>::min());
  for (const Dependence& d : p.deps)
    if (d.carriesValue())
      lastRead[d.from] = std::max(lastRead[d.from], int64_t(s.start[d.to]) + int64_t(s.ii) * d.distance);
  uint64_t bits = 0;
  for (size_t v = 0; v < p.ops.size(); ++v) {
    const int64_t ready = int64_t(s.start[v]) + p.ops[v].latency;
    if (lastRead[v] > ready) bits += uint64_t(p.ops[v].bits) * uint64_t(lastRead[v] - ready);
  }
  return bits;
}

} // namespace spvhls::sched
