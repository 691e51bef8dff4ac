// Minimum initiation interval: MII = max(ResMII, RecMII).
//
// ResMII: a resource held for `held` unit-cycles per iteration (each use holds one unit for its
// operation's blocking time) with `limit` units needs II >= ceil(held / limit).
// RecMII: the smallest integer II at which no dependence cycle has a positive total of
// latency - II * distance. Howard's maximum cycle ratio (latency / distance) gives a fast estimate;
// the answer is then confirmed exactly with integer positive-cycle checks (the ratio is floating point,
// Boost caps Howard's iterations, and a zero-distance cycle has no finite ratio at all).
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/howard_cycle_ratio.hpp>

#include <algorithm>
#include <cmath>

#include "scheduler/schedule.h"

namespace spvhls::sched {
namespace {

// Maximum of latency / distance over all cycles, or 1 if Howard has no finite answer.
uint32_t howardEstimate(const Problem& p) {
  struct EdgeProps {
    double latency = 0, distance = 0;
  };
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, EdgeProps>;
  Graph g(p.ops.size());
  for (const Dependence& d : p.deps) boost::add_edge(d.from, d.to, EdgeProps{double(d.latency), double(d.distance)}, g);
  double ratio = boost::maximum_cycle_ratio(g, boost::get(boost::vertex_index, g),
                                            boost::get(&EdgeProps::latency, g), boost::get(&EdgeProps::distance, g));
  if (!std::isfinite(ratio) || ratio < 1) return 1;
  if (ratio > 1e9) return uint32_t(1e9);
  return uint32_t(std::ceil(ratio - 1e-6));
}

uint32_t exactRecMII(const Problem& p) {
  // At II = 1 + (sum of positive latencies) every cycle with distance >= 1 is non-positive, and
  // check() has excluded positive cycles of distance 0, so that II is always feasible.
  int64_t upper = 1;
  for (const Dependence& d : p.deps) upper += std::max(0, d.latency);
  auto feasible = [&](int64_t ii) { return findPositiveCycle(p, uint32_t(ii)).empty(); };

  int64_t guess = std::clamp<int64_t>(howardEstimate(p), 1, upper);
  int64_t lo, hi; // smallest feasible II is in [lo, hi] and hi is feasible
  if (feasible(guess)) {
    if (guess == 1 || !feasible(guess - 1)) return uint32_t(guess);
    lo = 1, hi = guess - 1;
  } else {
    lo = guess + 1, hi = upper;
  }
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (feasible(mid)) hi = mid;
    else lo = mid + 1;
  }
  return uint32_t(hi);
}

} // namespace

MIIResult computeMII(const Problem& p) {
  p.check();
  MIIResult r;

  std::vector<std::vector<uint32_t>> users(p.resources.size());
  const std::vector<uint64_t> held = unitCyclesHeld(p);
  for (uint32_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].resource >= 0) users[p.ops[i].resource].push_back(i);
  uint32_t best = 0;
  for (size_t res = 0; res < users.size(); ++res) {
    if (users[res].empty()) continue;
    uint32_t need = uint32_t((held[res] + p.resources[res].limit - 1) / p.resources[res].limit);
    if (need > best) {
      best = need;
      r.criticalResource = int(res);
      r.criticalResourceOps = users[res];
    }
  }
  r.resMII = std::max(1u, best);

  r.recMII = exactRecMII(p);
  // A cycle that is positive at RecMII - 1 is one that forces RecMII (for RecMII 1: any cycle with
  // positive latency, which the report names even though it does not raise II above 1).
  r.criticalCycleDeps = findPositiveCycle(p, r.recMII - 1);
  auto& cyc = r.criticalCycleDeps;
  // Start right after a loop-carried edge, so the cycle reads like the source: phi -> ... -> next.
  auto carried = std::find_if(cyc.begin(), cyc.end(), [&](uint32_t d) { return p.deps[d].distance > 0; });
  if (carried != cyc.end()) std::rotate(cyc.begin(), carried + 1, cyc.end());
  for (uint32_t d : cyc) r.criticalCycle.push_back(p.deps[d].from);
  return r;
}

} // namespace spvhls::sched
