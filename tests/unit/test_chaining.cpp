// Chaining within a clock cycle: the Timing dependences (addChainBreaks), verify()'s timing check, the
// longest chain of a schedule, and both schedulers on random problems with delays, against brute force.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <random>

#include "scheduler/problem_json.h"
#include "scheduler/schedule.h"
#include "tests/unit/schedule_testing.h"

using namespace spvhls;
using namespace spvhls::sched;
using namespace spvhls::sched::testing;

namespace {

Operation op(const char* name, uint32_t latency, double delay, int resource = -1) {
  Operation o{name, latency, resource, 1, 32};
  o.delayNs = delay;
  return o;
}

size_t timingDeps(const Problem& p) {
  return size_t(std::count_if(p.deps.begin(), p.deps.end(),
                              [](const Dependence& d) { return d.kind == Dependence::Kind::Timing; }));
}

// Random loop bodies whose operations chain: latency 0 with a delay (single-cycle logic), latency 1..3
// (registered units), a port; data dependences forward, recurrences through carry registers (a
// latency-0 value reaches the next iteration with latency 1, as the builders make it).
Problem randomChainProblem(std::mt19937& rng, int maxOps, double budget) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Problem p;
  p.resources.push_back(Resource{"mem", 1});
  p.clockPeriodNs = budget;
  const int n = pick(2, maxOps);
  for (int i = 0; i < n; ++i) {
    const int kind = pick(0, 9);
    Operation o = op("", kind < 6 ? 0 : uint32_t(kind - 5) % 3 + 1, 0.5 * pick(0, 6), kind == 9 ? 0 : -1);
    o.name = fmt::format("op{}", i);
    p.ops.push_back(o);
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (pick(0, 99) < 45) p.deps.push_back(dep(i, j, int(p.ops[i].latency)));
      // Recurrences: through a carry register, or (latency 0) forwarded on a wire to the next iteration.
      if (pick(0, 99) < 10)
        p.deps.push_back(
            dep(j, i, pick(0, 1) ? std::max(1, int(p.ops[j].latency)) : int(p.ops[j].latency), 1));
    }
  return p;
}

} // namespace

TEST_CASE("addChainBreaks: a cycle's chain stays within the period; the first operation past it moves") {
  Problem p;
  p.clockPeriodNs = 2.5;
  for (const char* n : {"a", "b", "c", "d"})
    p.ops.push_back(op(n, 0, 1.0));
  for (uint32_t i = 0; i + 1 < 4; ++i)
    p.deps.push_back(dep(i, i + 1, 0));
  addChainBreaks(p);
  // a->c (3 ns) and b->d (3 ns) break; a->d follows through c.
  CHECK(timingDeps(p) == 2);
  Schedule s = listSchedule(p);
  verify(p, s);
  CHECK(s.start == std::vector<int>{0, 0, 1, 1});
  const TimingPath t = criticalChain(p, s);
  CHECK(t.delayNs == doctest::Approx(2.0));
  CHECK(t.ops.size() == 2);

  // Everything in one cycle is a timing violation naming the chain; without a period it is not.
  Problem bare = p;
  bare.deps.resize(3);
  Schedule flat{0, {0, 0, 0, 0}, 1};
  const std::string e = errorOf([&] { verify(bare, flat); });
  CHECK(contains(e, "timing: the chain 'a' (start 0) -> 'b' (start 0) -> 'c' (start 0) takes 3.000 ns"));
  bare.clockPeriodNs = 0;
  verify(bare, flat);
  CHECK(criticalChain(bare, flat).delayNs == doctest::Approx(4.0));
}

TEST_CASE("timing: an operation over the period alone bounds the clock; nothing may chain to it") {
  Problem p;
  p.clockPeriodNs = 2.0;
  p.ops = {op("slow", 1, 3.0), op("mul", 3, 3.0), op("x", 0, 0.5)};
  p.deps = {dep(2, 1, 0), dep(0, 2, 1)};
  Schedule alone{0, {0, 1, 1}, 4};
  // x (0.5 ns) on a wire into mul (3 ns before its first register): 3.5 ns.
  CHECK(contains(errorOf([&] { verify(p, alone); }), "'x' (start 1) -> 'mul' (start 1) takes 3.500 ns"));
  addChainBreaks(p);
  CHECK(timingDeps(p) == 1);
  Schedule s = listSchedule(p);
  verify(p, s);
  CHECK(s.start[1] == s.start[2] + 1);
  CHECK(criticalChain(p, s).delayNs == doctest::Approx(3.0)); // the slow operations alone
}

TEST_CASE("timing: a value forwarded to the next iteration on a wire chains across iterations") {
  // phi reads next's value II cycles later in next's iteration: with next of latency 0 and the
  // carried dependence of latency 0, at start(phi) + II == start(next) the value goes on a wire.
  Problem p;
  p.clockPeriodNs = 2.0;
  p.ops = {op("phi", 0, 0.0), op("f", 0, 1.5), op("next", 0, 1.0)};
  p.deps = {dep(0, 1, 0), dep(1, 2, 1), dep(2, 0, 0, 1)};
  Schedule fwd{1, {0, 0, 1}, 1};
  fwd.length = 1;
  // next (start 1, iteration i) -> phi (start 0, iteration i + 1, the same cycle) -> f: 2.5 ns.
  CHECK(contains(errorOf([&] { verify(p, fwd); }), "'next' (start 1) -> 'phi' (start 0) -> 'f' (start 0)"));
  const TimingPath t = criticalChain(p, fwd);
  CHECK(t.delayNs == doctest::Approx(2.5));
  CHECK(t.ops == std::vector<uint32_t>{2, 0, 1});
  // The breaks follow chains across iterations: next -> f at distance 1 (2.5 ns) must not share a
  // cycle, so every schedule the schedulers find passes.
  Problem broken = p;
  addChainBreaks(broken);
  CHECK(std::any_of(broken.deps.begin(), broken.deps.end(), [](const Dependence& d) {
    return d.kind == Dependence::Kind::Timing && d.from == 2 && d.to == 1 && d.distance == 1;
  }));
  // II 1 would put next and the following iteration's f in one cycle: the break makes it infeasible.
  CHECK(computeMII(broken).mii() == 2);
  CHECK(exactModuloSchedule(broken, 1).status == ExactResult::Status::Infeasible);
  for (uint32_t ii = 2; ii <= 3; ++ii) {
    std::optional<Schedule> h = moduloSchedule(broken, ii);
    REQUIRE(h);
    verify(broken, *h);
    ExactResult e = exactModuloSchedule(broken, ii);
    REQUIRE(e.schedule);
    verify(broken, *e.schedule);
  }
  // Through the carry register (latency 1) it is not forwarded: II 2.
  p.deps[2].latency = 1;
  Schedule reg{2, {0, 0, 1}, 1};
  verify(p, reg);
}

TEST_CASE("chaining on random problems: both schedulers pass verify, and the breaks are exact") {
  std::mt19937 rng(20261127);
  int feasibleBoth = 0, compared = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const double budget = 0.5 * std::uniform_int_distribution<int>(2, 8)(rng);
    Problem bare = randomChainProblem(rng, trial < 100 ? 4 : 12, budget);
    Problem p = bare;
    addChainBreaks(p);
    p.check();
    const MIIResult mii = computeMII(p);
    for (uint32_t ii = mii.mii(); ii <= mii.mii() + 1; ++ii) {
      std::optional<Schedule> h = moduloSchedule(p, ii);
      if (h) verify(p, *h); // the timing check included
      ExactResult e = exactModuloSchedule(p, ii);
      REQUIRE(e.status != ExactResult::Status::Unknown);
      if (e.schedule) verify(p, *e.schedule);
      if (h) CHECK(e.schedule);
      if (p.ops.size() <= 4) {
        // Brute force without the Timing dependences, filtered by verify()'s timing check alone, finds a
        // schedule exactly when the scheduler with them does, with the same fewest register bits: the
        // breaks forbid no schedule that meets the period and admit none that misses it.
        const std::optional<uint64_t> ref = bruteForce(bare, ii, exactHorizon(p, ii));
        CHECK(ref.has_value() == e.schedule.has_value());
        if (ref && e.schedule && e.status == ExactResult::Status::Optimal)
          CHECK(registerBits(p, *e.schedule) == *ref);
        ++compared;
      }
      feasibleBoth += h && e.schedule;
    }
  }
  CHECK(compared > 150);
  CHECK(feasibleBoth > 100);
}

TEST_CASE("JSON problems: clock_period_ns, delay_ns per type or operation, timing dependences") {
  const std::string text = R"({
    "clock_period_ns": 2.5,
    "types": [{"name": "logic", "latency": 0, "delay_ns": 1.0}],
    "operations": [{"name": "a", "type": "logic"}, {"name": "b", "type": "logic"},
                   {"name": "c", "type": "logic", "delay_ns": 0.25}, {"name": "d", "type": "logic"}],
    "dependences": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "d"}]
  })";
  ProblemFile f = problemFromJson(text, "chain.json");
  CHECK(f.problem.clockPeriodNs == doctest::Approx(2.5));
  CHECK(f.problem.ops[2].delayNs == doctest::Approx(0.25));
  CHECK(timingDeps(f.problem) == 1); // a -> d (3.25 ns); a -> c is 2.25
  ProblemFile again = problemFromJson(problemToJson(f.problem, "chain"), "again.json");
  CHECK(again.problem.clockPeriodNs == doctest::Approx(2.5));
  CHECK(timingDeps(again.problem) == 2); // the one written back as "timing", and found again
  CHECK(listSchedule(again.problem).start == listSchedule(f.problem).start);
  CHECK(contains(errorOf([] { problemFromJson(R"({"clock_period_ns": -1, "operations": []})", "x.json"); }),
                 "clock_period_ns: expected nanoseconds"));
  CHECK(contains(errorOf([] {
                   problemFromJson(R"({"types": [{"name": "t", "latency": 0}], "operations": [{"name": "a",
                     "type": "t", "delay_ns": "fast"}]})",
                                   "x.json");
                 }),
                 "delay_ns: expected nanoseconds"));
}
