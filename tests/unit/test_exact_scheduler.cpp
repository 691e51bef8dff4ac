// The exact modulo scheduler (ILP through CBC), the minimum-II search and its proofs, blocking
// resources, register bits and the JSON problem format of `spvhls schedule`.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <random>

#include "frontend/diagnostics.h"
#include "scheduler/problem_json.h"
#include "scheduler/schedule.h"
#include "tests/unit/schedule_testing.h"

using namespace spvhls;
using namespace spvhls::sched;
using namespace spvhls::sched::testing;

namespace {

// Small random loop bodies: forward data dependences, recurrences, a memory port shared by loads and
// stores, blocking units (non-pipelined dividers), values of 1..64 bits.
Problem randomProblem(std::mt19937& rng, int maxOps) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Problem p;
  p.resources.push_back(Resource{"mem", uint32_t(pick(1, 2))});
  p.resources.push_back(Resource{"div", 1});
  const int n = pick(2, maxOps);
  const uint32_t lats[] = {0, 1, 1, 1, 2, 3, 5};
  for (int i = 0; i < n; ++i) {
    Operation op{fmt::format("op{}", i), lats[pick(0, 6)], -1};
    const int kind = pick(0, 9);
    if (kind < 3)
      op.resource = 0, op.latency = kind == 0 ? 1 : 5; // a store or a load
    else if (kind == 3)
      op.resource = 1, op.latency = uint32_t(pick(2, 6)), op.blocking = uint32_t(pick(1, 3));
    op.bits = pick(0, 3) ? uint32_t(pick(1, 64)) : 0;
    p.ops.push_back(op);
  }
  const int density = std::max(2, 30 / n);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (pick(0, 99) < 5 * density) p.deps.push_back(dep(i, j, int(p.ops[i].latency)));
      if (pick(0, 99) < density)
        p.deps.push_back(dep(i, j, -int(p.ops[j].latency), 0, Dependence::Kind::PhiOrder));
      if (pick(0, 99) < 2 * density) p.deps.push_back(dep(j, i, int(p.ops[j].latency), uint32_t(pick(1, 2))));
      if (pick(0, 99) < density) p.deps.push_back(dep(j, i, 1, 1, Dependence::Kind::Memory));
    }
  return p;
}

// Operations on one port (limit 1) in a chain closed by a recurrence, the shape where the MII often has
// no schedule: the recurrence fixes their distances, and distances that are multiples of II collide
// in one MRT slot.
Problem tightProblem(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Problem p;
  p.resources.push_back(Resource{"mem", 1});
  const int n = pick(2, 5);
  int total = 0;
  for (int i = 0; i < n; ++i) {
    p.ops.push_back(Operation{fmt::format("m{}", i), uint32_t(pick(1, 4)), 0, 1, 32});
    if (i) p.deps.push_back(dep(i - 1, i, int(p.ops[i - 1].latency))), total += int(p.ops[i - 1].latency);
  }
  // Close the chain: the first operation of the next iteration at most `slack` cycles late.
  const int slack = pick(0, 2);
  p.deps.push_back(dep(n - 1, 0, std::max(0, n - total + slack) + int(p.ops[n - 1].latency) - 1, 1));
  p.ops.push_back(Operation{"f", 1, -1, 1, 16}); // a free operation reading the chain
  p.deps.push_back(dep(uint32_t(pick(0, n - 1)), uint32_t(n), 1));
  return p;
}

} // namespace

TEST_CASE(
    "blocking: verify counts every cycle a unit is held, modulo II; ResMII and both schedulers honour it") {
  Problem p;
  p.resources.push_back(Resource{"div", 1});
  p.ops.push_back(Operation{"a", 4, 0, 3, 32});
  p.ops.push_back(Operation{"b", 4, 0, 2, 32});
  CHECK(computeMII(p).resMII == 5);
  Schedule s{5, {0, 2}, 6};
  CHECK(contains(errorOf([&] { verify(p, s); }), "holds 3 cycles"));
  s.start = {0, 3};
  s.length = 7;
  verify(p, s);
  std::optional<Schedule> h = moduloSchedule(p, 5);
  REQUIRE(h);
  CHECK(!moduloSchedule(p, 4));
  ExactResult e = exactModuloSchedule(p, 5);
  CHECK(e.status == ExactResult::Status::Optimal);
  REQUIRE(e.schedule);
  CHECK(exactModuloSchedule(p, 4).status == ExactResult::Status::Infeasible);
  // A blocking time above II wraps: one unit held 7 cycles at II 4 needs a second unit.
  Problem w;
  w.resources.push_back(Resource{"div", 1});
  w.ops.push_back(Operation{"d", 7, 0, 7, 0});
  CHECK(computeMII(w).resMII == 7);
  w.resources[0].limit = 2;
  CHECK(computeMII(w).resMII == 4);
  CHECK(exactModuloSchedule(w, 4).schedule);
  CHECK(moduloSchedule(w, 4));
  // The list scheduler (II 0) keeps them apart in time.
  Problem seq = p;
  Schedule ls = listSchedule(seq);
  CHECK(std::abs(ls.start[0] - ls.start[1]) >= 2);
}

TEST_CASE("registerBits: bits times the cycles from ready to the last reader, II * distance included") {
  Problem p;
  p.ops.push_back(Operation{"x", 1, -1, 1, 32});
  p.ops.push_back(Operation{"y", 1, -1, 1, 8});
  p.ops.push_back(Operation{"z", 0, -1, 1, 0});
  p.deps.push_back(dep(0, 1, 1));                              // x ready at 1, read at 4: 3 cycles
  p.deps.push_back(dep(0, 2, 1));                              // read at 6: 5 cycles (the last)
  p.deps.push_back(dep(1, 0, 1, 1));                           // y ready at 5, read by x at 0 + 2*1
  p.deps.push_back(dep(1, 2, 1, 0, Dependence::Kind::Memory)); // order only: no register
  Schedule s{2, {0, 4, 6}, 6};
  CHECK(registerBits(p, s) == 32 * 5); // y's reader (x, next iteration) starts at 2 < 5: nothing held
  s.ii = 9;                            // now y is held until 0 + 9 = 9: 4 cycles of 8 bits
  CHECK(registerBits(p, s) == 32 * 5 + 8 * 4);
}

TEST_CASE(
    "exact scheduler: agrees with brute force on tiny problems (feasibility and fewest register bits)") {
  std::mt19937 rng(7);
  int compared = 0, infeasible = 0;
  for (int iter = 0; iter < 60; ++iter) {
    Problem p = randomProblem(rng, 4);
    for (Operation& op : p.ops)
      op.latency = std::min<uint32_t>(op.latency, 3);
    for (Dependence& d : p.deps)
      if (d.kind == Dependence::Kind::Data || d.kind == Dependence::Kind::LoopCarried)
        d.latency = int(p.ops[d.from].latency);
      else if (d.kind == Dependence::Kind::PhiOrder)
        d.latency = -int(p.ops[d.to].latency);
    const uint32_t mii = computeMII(p).mii();
    for (uint32_t ii = mii > 1 ? mii - 1 : mii; ii <= mii + 1; ++ii) {
      if (exactHorizon(p, ii) > 20) continue; // keep the brute force small
      INFO("problem " << iter << " at II " << ii);
      std::optional<uint64_t> ref = bruteForce(p, ii);
      ExactResult e = exactModuloSchedule(p, ii);
      REQUIRE(e.status != ExactResult::Status::Unknown);
      CHECK(bool(e.schedule) == bool(ref));
      CHECK((e.status == ExactResult::Status::Infeasible) == !ref);
      if (ref && e.schedule) {
        CHECK(e.status == ExactResult::Status::Optimal);
        CHECK(registerBits(p, *e.schedule) == *ref);
      }
      ++compared;
      infeasible += !ref;
    }
  }
  MESSAGE(compared << " (problem, II) pairs compared with brute force, " << infeasible << " infeasible");
  CHECK(compared >= 60);
  CHECK(infeasible >= 10);
}

TEST_CASE(
    "exact scheduler: 200 random problems - the proven minimum II, never above the heuristic's, verified") {
  std::mt19937 rng(20261127);
  int provenAtMII = 0, provenAboveMII = 0, heuristicMissed = 0;
  uint64_t heuristicBits = 0, exactBits = 0;
  double seconds = 0;
  for (int iter = 0; iter < 200; ++iter) {
    Problem p = iter % 4 == 3 ? tightProblem(rng) : randomProblem(rng, 16);
    INFO("problem " << iter);
    const MIIResult m = computeMII(p);
    MinIIOptions exact;
    exact.kind = SchedulerKind::Exact;
    exact.exact.timeLimitSeconds = 2; // only the register minimisation ever needs that long
    const auto begin = std::chrono::steady_clock::now();
    MinIIResult r = scheduleMinII(p, m, exact);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    REQUIRE(r.schedule);
    verify(p, *r.schedule);
    CHECK(r.iiProvenMinimal);
    CHECK(r.schedule->ii >= m.mii());
    if (r.schedule->ii > m.mii()) {
      ++provenAboveMII;
      CHECK(contains(r.proof, "infeasible"));
    } else {
      ++provenAtMII;
    }
    MinIIOptions heuristic;
    heuristic.kind = SchedulerKind::Heuristic;
    MinIIResult h = scheduleMinII(p, m, heuristic);
    REQUIRE(h.schedule);
    CHECK(r.schedule->ii <= h.schedule->ii);
    heuristicMissed += h.schedule->ii > r.schedule->ii;
    if (h.schedule->ii == r.schedule->ii && r.registersProvenMinimal) {
      CHECK(registerBits(p, *r.schedule) <= registerBits(p, *h.schedule));
      heuristicBits += registerBits(p, *h.schedule);
      exactBits += registerBits(p, *r.schedule);
    }
    // Auto: the heuristic, then the exact method below the heuristic's II: the same II.
    MinIIResult a = scheduleMinII(p, m, MinIIOptions{});
    REQUIRE(a.schedule);
    CHECK(a.schedule->ii == r.schedule->ii);
    CHECK(a.iiProvenMinimal);
  }
  MESSAGE(fmt::format(
      "200 problems: II proven minimal on all ({} at the MII, {} above it); the heuristic missed the "
      "minimum on {}; register bits {} (exact) vs {} (heuristic) where both have the same II; "
      "{:.2f} s in the exact search",
      provenAtMII, provenAboveMII, heuristicMissed, exactBits, heuristicBits, seconds));
  CHECK(provenAboveMII >= 5); // the generator makes problems whose MII is not achievable
  CHECK(exactBits < heuristicBits);
}

TEST_CASE("JSON problems: the format, references by name or index, round trip, and clear errors") {
  const std::string text = R"({
    "name": "mac",
    "resources": [{"name": "mem", "limit": 1}],
    "types": [
      {"name": "load", "latency": 5, "resource": "mem"},
      {"name": "store", "latency": 1, "resource": "mem"},
      {"name": "add", "latency": 1},
      {"name": "div", "latency": 8, "blocking": 4, "limit": 2}
    ],
    "operations": [
      {"name": "i", "type": "add", "bits": 32},
      {"name": "x", "type": "load", "bits": 32},
      {"name": "d", "type": "div", "bits": 16, "latency": 9},
      {"name": "s", "type": "store"}
    ],
    "dependences": [
      {"from": "i", "to": "i", "distance": 1},
      {"from": "i", "to": 1},
      {"from": "x", "to": "d"},
      {"from": "d", "to": "s", "delay": 2},
      {"from": "s", "to": "x", "distance": 1, "kind": "order"}
    ]
  })";
  ProblemFile pf = problemFromJson(text, "p.json");
  const Problem& p = pf.problem;
  CHECK(pf.name == "mac");
  REQUIRE(p.ops.size() == 4);
  REQUIRE(p.resources.size() == 2);
  CHECK(p.ops[1].resource == 0);
  CHECK(p.ops[3].resource == 0);
  CHECK(p.ops[2].resource == 1);
  CHECK(p.resources[1].limit == 2);
  CHECK(p.ops[2].latency == 9);
  CHECK(p.ops[2].blocking == 4);
  CHECK(p.ops[2].bits == 16);
  REQUIRE(p.deps.size() == 5);
  CHECK(p.deps[0].kind == Dependence::Kind::LoopCarried);
  CHECK(p.deps[1].latency == 1);
  CHECK(p.deps[2].latency == 5);
  CHECK(p.deps[3].latency == 2);
  CHECK(!p.deps[4].carriesValue());

  // Round trip through the writer (which names operations by index).
  Problem q = problemFromJson(problemToJson(p, "mac"), "q.json").problem;
  REQUIRE(q.ops.size() == p.ops.size());
  for (size_t i = 0; i < p.ops.size(); ++i) {
    CHECK(q.ops[i].latency == p.ops[i].latency);
    CHECK(q.ops[i].blocking == p.ops[i].blocking);
    CHECK(q.ops[i].bits == p.ops[i].bits);
    CHECK((q.ops[i].resource >= 0) == (p.ops[i].resource >= 0));
  }
  REQUIRE(q.deps.size() == p.deps.size());
  for (size_t d = 0; d < p.deps.size(); ++d) {
    CHECK(q.deps[d].latency == p.deps[d].latency);
    CHECK(q.deps[d].distance == p.deps[d].distance);
    CHECK(q.deps[d].carriesValue() == p.deps[d].carriesValue());
  }
  // Repeated names (SPIR-V names need not be unique) get the operation's index.
  Problem dup = p;
  dup.ops[3].name = "x";
  CHECK(contains(problemToJson(dup, "dup"), "\"x #3\""));
  problemFromJson(problemToJson(dup, "dup"), "dup.json");
  dup.resources.push_back(Resource{"mem", 1}); // two memories may share a name as well
  dup.ops[0].resource = 2;
  CHECK(contains(problemToJson(dup, "dup"), "\"mem #2\""));
  CHECK(problemFromJson(problemToJson(dup, "dup"), "dup.json").problem.resources.size() == 3);

  auto err = [](const std::string& t) { return errorOf([&] { problemFromJson(t, "bad.json"); }); };
  CHECK(contains(err("{\"types\": [}"), "bad.json:1:"));
  CHECK(contains(err("{\"types\": [{\"name\": \"a\", \"latency\": 1}], \"operations\": [{\"name\": \"o\", "
                     "\"type\": \"b\"}]}"),
                 "operations[0].type: unknown type 'b'"));
  CHECK(contains(
      err("{\"types\": [{\"name\": \"a\", \"latency\": 1}], \"operations\": [{\"name\": \"o\", \"type\": "
          "\"a\"}, {\"name\": \"o\", \"type\": \"a\"}]}"),
      "defined twice"));
  CHECK(contains(err("{\"types\": [], \"operations\": [], \"frob\": 1}"), "unknown member \"frob\""));
  CHECK(contains(err("{\"types\": [], \"operations\": [], \"clock_period_ns\": 0}"), "above 0"));
  CHECK(contains(err("{\"types\": [{\"name\": \"a\", \"latency\": -1}], \"operations\": []}"),
                 "types[0].latency"));
  CHECK(contains(
      err("{\"types\": [{\"name\": \"a\", \"latency\": 1}], \"operations\": [{\"name\": \"o\", \"type\": "
          "\"a\"}], \"dependences\": [{\"from\": \"o\", \"to\": 3}]}"),
      "dependences[0].to: expected an operation's name or index 0..0"));
  CHECK(contains(
      err("{\"types\": [{\"name\": \"a\", \"latency\": 1}], \"operations\": [{\"name\": \"o\", \"type\": "
          "\"a\"}], \"dependences\": [{\"from\": \"o\", \"to\": \"o\"}]}"),
      "can never be scheduled"));
}
