// The smallest II and how sure we are of it: the heuristic (iterative modulo scheduling), the exact
// method (an ILP per II), or the heuristic with the exact method where it misses the MII.
//
// The exact search asks only "is there a schedule at this II?" (ExactOptions::Objective::Any), which
// CBC answers far faster than an optimisation; the register bits are minimised once, at the II found.
#include <fmt/format.h>

#include <algorithm>

#include "scheduler/schedule.h"

namespace spvhls::sched {
namespace {

ExactOptions feasibilityOnly(const ExactOptions& o) {
  ExactOptions f = o;
  f.objective = ExactOptions::Objective::Any;
  return f;
}

// At an II known to be feasible (`found`, and the heuristic's schedule there if any): the schedule
// with the fewest register bits the exact method finds within its time limit, or the better of the
// two at hand.
void minimiseRegisters(const Problem& p, uint32_t ii, Schedule found, const char* foundBy,
                       const MinIIOptions& opts, MinIIResult& r) {
  r.schedule = std::move(found);
  r.method = foundBy;
  if (opts.exact.timeLimitSeconds <= 0) return; // Auto's budget is spent
  // Exact: the heuristic's schedule at this II competes too (unless it is the one found).
  if (opts.kind == SchedulerKind::Exact && r.method != "heuristic")
    if (std::optional<Schedule> h = moduloSchedule(p, ii);
        h && registerBits(p, *h) < registerBits(p, *r.schedule))
      r.schedule = std::move(h), r.method = "heuristic";
  ExactResult e = exactModuloSchedule(p, ii, opts.exact);
  r.exactSeconds += e.seconds;
  if (e.schedule && registerBits(p, *e.schedule) <= registerBits(p, *r.schedule))
    r.schedule = std::move(e.schedule), r.method = "exact";
  r.registersProvenMinimal = e.status == ExactResult::Status::Optimal && r.method == "exact";
}

} // namespace

const char* schedulerKindName(SchedulerKind k) {
  switch (k) {
  case SchedulerKind::Heuristic:
    return "heuristic";
  case SchedulerKind::Exact:
    return "exact";
  case SchedulerKind::Auto:
    return "auto";
  }
  return "?";
}

MinIIResult scheduleAtII(const Problem& p, uint32_t ii, const MinIIOptions& opts) {
  MinIIResult r;
  if (opts.kind != SchedulerKind::Exact) {
    if ((r.schedule = moduloSchedule(p, ii))) r.method = "heuristic";
    if (r.schedule || opts.kind == SchedulerKind::Heuristic) return r;
  }
  ExactResult e = exactModuloSchedule(p, ii, feasibilityOnly(opts.exact));
  r.exactSeconds = e.seconds;
  r.proof = exactStatusName(e.status);
  std::optional<Schedule> s = std::move(e.schedule);
  const char* by = "exact";
  if (!s && e.status == ExactResult::Status::Unknown)
    s = moduloSchedule(p, ii), by = "heuristic"; // timed out
  if (s) minimiseRegisters(p, ii, std::move(*s), by, opts, r);
  return r;
}

MinIIResult scheduleMinII(const Problem& p, const MIIResult& mii, const MinIIOptions& opts) {
  const uint32_t from = mii.mii();
  const uint64_t last = uint64_t(from) + opts.maxIISearch;
  MinIIResult r;
  std::optional<Schedule> heuristic;
  uint64_t heuristicII = last + 1;
  if (opts.kind != SchedulerKind::Exact) {
    for (uint64_t ii = from; ii <= last && !heuristic; ++ii)
      if ((heuristic = moduloSchedule(p, uint32_t(ii)))) heuristicII = ii;
    if (opts.kind == SchedulerKind::Heuristic || (heuristic && heuristicII == from)) {
      r.schedule = std::move(heuristic);
      r.method = "heuristic";
      r.iiProvenMinimal = heuristicII == from;
      r.proof = r.iiProvenMinimal ? fmt::format("II = MII {}", from)
                                  : fmt::format("not proven: the heuristic found none at II {}..{} (MII {})",
                                                from, heuristicII - 1, from);
      return r;
    }
  }
  // The exact method from the MII up to (not including) the heuristic's II. Every II it proves
  // infeasible raises the proven lower bound; a time-out leaves it where it is. Auto gives the whole
  // search one time limit (a compile stays quick); Exact gives one to every solve.
  auto remaining = [&] { return opts.exact.timeLimitSeconds - r.exactSeconds; };
  auto budgeted = [&] {
    MinIIOptions b = opts;
    if (opts.kind == SchedulerKind::Auto) b.exact.timeLimitSeconds = std::max(0.0, remaining());
    return b;
  };
  uint64_t provenBelow = from; // every II below this is proven infeasible
  std::vector<uint64_t> timedOut;
  auto proof = [&](uint64_t ii) {
    r.iiProvenMinimal = provenBelow == ii;
    r.proof = !r.iiProvenMinimal
                  ? fmt::format("not proven: the exact method timed out at II {}", fmt::join(timedOut, ", "))
              : ii == from ? fmt::format("II = MII {}", from)
                           : fmt::format("exact: II {}..{} infeasible (MII {})", from, ii - 1, from);
  };
  for (uint64_t ii = from; ii < heuristicII && ii <= last; ++ii) {
    if (opts.kind == SchedulerKind::Auto && remaining() <= 0) {
      timedOut.push_back(ii);
      continue;
    }
    ExactResult e = exactModuloSchedule(p, uint32_t(ii), feasibilityOnly(budgeted().exact));
    r.exactSeconds += e.seconds;
    if (e.status == ExactResult::Status::Infeasible) {
      if (provenBelow == ii) provenBelow = ii + 1;
      continue;
    }
    std::optional<Schedule> s = std::move(e.schedule);
    const char* by = "exact";
    if (!s && opts.kind == SchedulerKind::Exact)
      s = moduloSchedule(p, uint32_t(ii)), by = "heuristic"; // timed out
    if (!s) {
      timedOut.push_back(ii);
      continue;
    }
    minimiseRegisters(p, uint32_t(ii), std::move(*s), by, budgeted(), r);
    proof(ii);
    return r;
  }
  if (heuristic) {
    minimiseRegisters(p, uint32_t(heuristicII), std::move(*heuristic), "heuristic", budgeted(), r);
    proof(heuristicII);
  }
  return r;
}

} // namespace spvhls::sched
