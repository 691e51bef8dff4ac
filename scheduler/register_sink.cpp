// Fewer pipeline register bits after scheduling: an operation of no logic and no latency (an
// extension, a bit selection, a concatenation) may be formed anywhere between its operands and its
// readers. Formed late, next to its readers, the pipeline carries its operands instead of its result,
// which pays when the result is wider (a 32-bit index sign-extended and shifted into a 64-bit
// address is carried as its 32 bits). Neither the II, the length nor any resource use changes.
#include <algorithm>
#include <limits>

#include "scheduler/schedule.h"

namespace spvhls::sched {

uint64_t sinkWires(const Problem& p, Schedule& s, const std::vector<uint8_t>& movable) {
  const size_t n = p.ops.size();
  const int64_t ii = s.ii;
  std::vector<std::vector<const Dependence*>> out(n), in(n);
  for (const Dependence& d : p.deps) {
    out[d.from].push_back(&d);
    in[d.to].push_back(&d);
  }
  // When `v`'s value is last read, leaving out the reads by `skip`.
  auto lastRead = [&](size_t v, size_t skip) {
    int64_t last = std::numeric_limits<int64_t>::min();
    for (const Dependence* d : out[v])
      if (d->carriesValue() && d->to != skip)
        last = std::max(last, int64_t(s.start[d->to]) + ii * d->distance);
    return last;
  };
  // Register bits of `v`'s value when it is ready at `ready` and last read at `last`.
  auto held = [&](size_t v, int64_t ready, int64_t last) {
    return last > ready ? uint64_t(p.ops[v].bits) * uint64_t(last - ready) : 0;
  };
  const uint64_t before = registerBits(p, s);
  // Readers first, so that a chain of such operations moves as a whole.
  for (size_t v = n; v-- > 0;) {
    if (v >= movable.size() || !movable[v] || p.ops[v].latency != 0 || p.ops[v].resource >= 0) continue;
    int64_t latest = std::numeric_limits<int64_t>::max();
    for (const Dependence* d : out[v])
      latest = std::min(latest, int64_t(s.start[d->to]) + ii * d->distance - d->latency);
    latest = std::min<int64_t>(latest, s.length - 1); // within the schedule: no longer pipeline
    if (latest <= s.start[v]) continue;
    const int64_t own = lastRead(v, n);
    // Cost at start t: v's own register bits plus its operands' (each read by v at t + II·distance).
    auto cost = [&](int64_t t) {
      uint64_t bits = held(v, t, own);
      for (const Dependence* d : in[v])
        if (d->carriesValue())
          bits += held(d->from, int64_t(s.start[d->from]) + p.ops[d->from].latency,
                       std::max(lastRead(d->from, v), t + ii * d->distance));
      return bits;
    };
    // The cost is piecewise linear in t: its minimum is at an end or where an operand's last read is.
    std::vector<int64_t> candidates = {latest};
    for (const Dependence* d : in[v])
      if (d->carriesValue()) candidates.push_back(lastRead(d->from, v) - ii * d->distance);
    int64_t best = s.start[v];
    uint64_t bestCost = cost(best);
    for (int64_t t : candidates)
      if (t > s.start[v] && t <= latest && cost(t) < bestCost) best = t, bestCost = cost(t);
    s.start[v] = int(best);
  }
  const uint64_t after = registerBits(p, s);
  return before - after;
}

} // namespace spvhls::sched
