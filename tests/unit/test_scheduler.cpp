// Scheduler on scheduling problems: operator library, Problem::check(), verify() (one negative test per
// constraint), MII (ResMII / RecMII with the critical cycle), modulo and list scheduling, sinkWires, and
// seeded property tests comparing the algorithms against independent reference computations on random
// problems. Problems built from IR loops, and scheduleKernel: test_scheduler_kernel.cpp.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <random>
#include <set>

#include "frontend/diagnostics.h"
#include "schedule_testing.h"
#include "scheduler/kernel_schedule.h"
#include "scheduler/schedule.h"

using namespace spvhls;
using namespace spvhls::sched;
using namespace spvhls::sched::testing;
using ir::OpKind;

namespace {

Problem problem(std::vector<std::pair<std::string, uint32_t>> ops, std::vector<Dependence> deps,
                std::vector<Resource> resources = {}, std::vector<int> opResources = {}) {
  Problem p;
  for (size_t i = 0; i < ops.size(); ++i)
    p.ops.push_back(Operation{ops[i].first, ops[i].second, i < opResources.size() ? opResources[i] : -1});
  p.deps = std::move(deps);
  p.resources = std::move(resources);
  return p;
}

} // namespace

// ---- operator library ---------------------------------------------------------------------------

TEST_CASE("operator library: latencies and resources of the default and a custom target") {
  OperatorLibrary lib;
  auto op = [](OpKind k, uint8_t width, uint32_t memory = 0) {
    ir::Op o;
    o.kind = k;
    o.type = ir::Type::bits(width);
    o.memory = memory;
    return o;
  };
  for (OpKind k : {OpKind::Const, OpKind::Arg, OpKind::LiveIn, OpKind::LoopPhi, OpKind::Undef, OpKind::ZExt,
                   OpKind::SExt, OpKind::Trunc, OpKind::Phi, OpKind::LoopOut})
    CHECK(lib.latency(op(k, 32)) == 0);
  for (OpKind k : {OpKind::Add, OpKind::Sub, OpKind::Neg, OpKind::Not, OpKind::And, OpKind::Or, OpKind::Xor,
                   OpKind::Shl, OpKind::LShr, OpKind::AShr, OpKind::Eq, OpKind::SGe, OpKind::ULt, OpKind::Select,
                   OpKind::Store, OpKind::LoopCall})
    CHECK(lib.latency(op(k, 32)) == 1);
  CHECK(lib.latency(op(OpKind::Mul, 32)) == 3);
  CHECK(lib.latency(op(OpKind::Mul, 64)) == 5);
  CHECK(lib.latency(op(OpKind::UDiv, 32)) == 34);
  CHECK(lib.latency(op(OpKind::SRem, 16)) == 18);
  CHECK(lib.latency(op(OpKind::Load, 32)) == 5);
  CHECK(lib.resource(op(OpKind::Load, 32, 3)) == 3);
  CHECK(lib.resource(op(OpKind::Store, 0, 1)) == 1);
  CHECK(lib.resource(op(OpKind::Add, 32)) == -1);

  Target t;
  t.memLatency = 10;
  t.mulLatency = 1;
  OperatorLibrary custom(t);
  CHECK(custom.latency(op(OpKind::Load, 8)) == 11);
  CHECK(custom.latency(op(OpKind::Mul, 33)) == 3);
}

TEST_CASE("operator library: units say how each operation is built and when its result is on a wire") {
  OperatorLibrary lib;
  auto unit = [&](OpKind k, uint8_t width, uint32_t memory = 0) {
    ir::Op o;
    o.kind = k;
    o.type = ir::Type::bits(width);
    o.memory = memory;
    return lib.unit(o);
  };
  // Wires: no latency, no logic, formed where they start in both contexts.
  Unit w = unit(OpKind::ZExt, 64);
  CHECK(w.build == UnitBuild::Wire);
  CHECK(w.formOffset(false) == 0);
  CHECK(w.formOffset(true) == 0);
  // Inline: formed at start (a single cycle) in both contexts, chainable.
  CHECK(unit(OpKind::Add, 32).build == UnitBuild::Inline);
  CHECK(unit(OpKind::Add, 32).formOffset(false) == 0);
  CHECK(unit(OpKind::Add, 32).formOffset(true) == 0);
  CHECK(unit(OpKind::Add, 32).chainable);
  // The multiplier: a pipelined instance, its result out of its last stage in both contexts.
  Unit mul = unit(OpKind::Mul, 32);
  CHECK(mul.build == UnitBuild::Instance);
  CHECK(mul.module == "spvhls_mul_32");
  CHECK(mul.ii == 1);
  CHECK(!mul.chainable);
  CHECK(mul.formOffset(false) == 2);
  CHECK(mul.formOffset(true) == 2);
  // Dividers: width + 2, pipelined, and the generated unit that implements them named.
  Unit div = unit(OpKind::SDiv, 32);
  CHECK(div.latency == 34);
  CHECK(div.ii == 1);
  CHECK(div.module == "spvhls_sdiv_32");
  CHECK(unit(OpKind::URem, 8).module == "spvhls_urem_8");
  CHECK(div.formOffset(true) == 33);
  // Memory ports: the load's response arrives memLatency after the request and is registered there
  // (without a clock period every result is).
  Unit load = unit(OpKind::Load, 32, 2);
  CHECK(load.build == UnitBuild::MemoryPort);
  CHECK(load.resource == 2);
  CHECK(load.resourceLimit == lib.memoryPortLimit());
  CHECK(!load.queued);
  CHECK(load.resultDelayNs == 0);
  CHECK(load.formOffset(false) == 4);
  CHECK(load.formOffset(true) == 4);
  {
    // Under a clock too short for an add behind the response FIFO's head, the pipeline registers the
    // response as it arrives; with a loose one it reads the head.
    ir::Op o;
    o.kind = OpKind::Load;
    o.type = ir::Type::bits(32);
    Target t = targetNamed("generic-6lut-300mhz");
    t.clockPeriodNs = 3.33;
    Unit tight = OperatorLibrary(t).unit(o);
    CHECK(!tight.queued);
    CHECK(tight.resultDelayNs == 0);
    CHECK(tight.formOffset(false) == 4);
    t.clockPeriodNs = 10;
    const Unit loose = OperatorLibrary(t).unit(o);
    CHECK(loose.queued);
    CHECK(loose.resultDelayNs > 0);
    CHECK(loose.formOffset(false) == 5);
    CHECK(loose.formOffset(true) == 4);
  }
  Unit store = unit(OpKind::Store, 0, 1);
  CHECK(store.resource == 1);
  CHECK(store.formOffset(true) == 0);
  CHECK(unit(OpKind::LoopCall, 0).build == UnitBuild::Fsm);
  // Delays grow with the carry chain; wires have none.
  CHECK(unit(OpKind::Add, 64).delayNs > unit(OpKind::Add, 8).delayNs);
  CHECK(w.delayNs == 0.0);
  // The scheduling problem takes latency and resource from the units.
  ir::Loop loop;
  loop.name = "l";
  ir::Op i = [] { ir::Op o; o.kind = OpKind::LoopPhi; o.type = ir::Type::bits(32); return o; }();
  loop.ops.push_back(i);
  ir::Op d = [] { ir::Op o; o.kind = OpKind::UDiv; o.type = ir::Type::bits(16); o.operands = {0, 0}; return o; }();
  loop.ops.push_back(d);
  ir::Op c = [] { ir::Op o; o.kind = OpKind::ULt; o.type = ir::Type::bits(1); o.operands = {0, 0}; return o; }();
  loop.ops.push_back(c);
  loop.phis = {{"i", 0, 0, ir::Type::bits(32)}};
  loop.continueCond = 2;
  Problem p = buildLoopProblem(loop, lib);
  REQUIRE(p.ops.size() == 3);
  CHECK(p.ops[1].latency == lib.unit(loop.ops[1]).latency);
  CHECK(p.ops[1].latency == 18);
}

// ---- check() and verify() --------------------------------------------------------------------------

TEST_CASE("check: bad indices, bad resources and zero-distance cycles") {
  CHECK(contains(errorOf([] { problem({{"a", 1}}, {dep(0, 3, 1)}).check(); }), "dependence 0 goes from operation 0 to 3"));
  CHECK(contains(errorOf([] { problem({{"a", 1}}, {}, {}, {2}).check(); }), "uses resource 2"));
  CHECK(contains(errorOf([] { problem({{"a", 1}}, {}, {Resource{"m", 0}}, {0}).check(); }), "limit 0"));

  // a -> b -> c -> a with distance 0 and latency 2: impossible; the error names the ops on the cycle.
  Problem cyc = problem({{"a", 1}, {"b", 1}, {"x", 1}, {"c", 0}}, {dep(0, 1, 1), dep(1, 3, 1), dep(3, 0, 0), dep(0, 2, 1)});
  std::string e = errorOf([&] { cyc.check(); });
  CHECK(contains(e, "total distance 0"));
  CHECK(contains(e, "a -> "));
  CHECK(contains(e, "b -> "));
  CHECK(contains(e, "c -> "));
  CHECK(!contains(e, "x ->"));
  CHECK(contains(e, "latency 2"));
  CHECK(contains(errorOf([] { problem({{"s", 1}}, {dep(0, 0, 1)}).check(); }), "s -> s"));

  // Zero-distance cycles with latency <= 0 (e.g. PhiOrder) and cycles with a distance are fine.
  problem({{"phi", 0}, {"add", 1}}, {dep(0, 1, 0), dep(1, 0, -1)}).check();
  problem({{"phi", 0}, {"add", 1}}, {dep(0, 1, 0), dep(1, 0, 1, 1)}).check();
}

TEST_CASE("verify: accepts a correct schedule and rejects each violated constraint") {
  // phi -> add (data), add -> phi (carried, distance 1), two ops on port "m" with limit 1.
  Problem p = problem({{"phi", 0}, {"add", 1}, {"ld1", 3}, {"ld2", 3}},
                      {dep(0, 1, 0), dep(1, 0, 1, 1), dep(2, 3, 1)}, {Resource{"m", 1}}, {-1, -1, 0, 0});
  Schedule ok{2, {0, 0, 0, 1}, 4};
  verify(p, ok);
  CHECK(ok.stages() == 2);

  CHECK(contains(errorOf([&] { verify(p, Schedule{2, {0, 0, 1, 1}, 4}); }), "precedence: 'ld1' (start 1) -> 'ld2' (start 1)"));
  // add at 1 (ready at 2), next phi at 0 + II 1 = 1: the carried value is late.
  CHECK(contains(errorOf([&] { verify(p, Schedule{1, {0, 1, 0, 1}, 4}); }), "distance: 'add' (start 1) -> 'phi' (start 0)"));
  // ld1 at 0 and ld2 at 2: both in slot 0 modulo II 2.
  std::string res = errorOf([&] { verify(p, Schedule{2, {0, 0, 0, 2}, 5}); });
  CHECK(contains(res, "resource modulo II: 'm' is used 2 times in slot 0"));
  CHECK(contains(res, "'ld1' (start 0), 'ld2' (start 2)"));
  CHECK(contains(errorOf([&] { verify(p, Schedule{2, {-1, 0, 0, 1}, 4}); }), "negative start: 'phi' starts at -1"));
  CHECK(contains(errorOf([&] { verify(p, Schedule{2, {0, 0, 0, 1}, 5}); }), "length: schedule length is 5, expected"));
  CHECK(contains(errorOf([&] { verify(p, Schedule{2, {0, 0, 0}, 4}); }), "3 start times for 4 operations"));

  // Sequential schedules: resources per cycle, and no loop-carried dependences.
  Problem seq = problem({{"ld1", 3}, {"ld2", 3}}, {}, {Resource{"m", 1}}, {0, 0});
  verify(seq, Schedule{0, {0, 1}, 4});
  CHECK(contains(errorOf([&] { verify(seq, Schedule{0, {2, 2}, 5}); }), "resource: 'm' is used 2 times in cycle 2"));
  CHECK(contains(errorOf([&] { verify(p, Schedule{0, {0, 0, 0, 1}, 4}); }), "sequential schedule (II 0)"));
  // A schedule lasts at least one cycle.
  CHECK(contains(errorOf([] { verify(problem({{"c", 0}}, {}), Schedule{1, {0}, 0}); }), "expected max(1, max(start + latency)) = 1"));
}

// ---- MII ------------------------------------------------------------------------------------------

TEST_CASE("MII: reduction through a 3-cycle adder, resources, acyclic problems") {
  // sum = phi; add = sum + x (latency 3); add -> sum at distance 1.
  Problem red = problem({{"x", 0}, {"sum", 0}, {"add", 3}}, {dep(0, 2, 0), dep(1, 2, 0), dep(2, 1, 3, 1)});
  MIIResult m = computeMII(red);
  CHECK(m.recMII == 3);
  CHECK(m.resMII == 1);
  CHECK(m.mii() == 3);
  CHECK(m.criticalCycle == std::vector<uint32_t>{1, 2}); // starts after the carried edge: sum -> add
  REQUIRE(m.criticalCycleDeps.size() == 2);
  CHECK(red.deps[m.criticalCycleDeps[0]].from == 1);
  CHECK(red.deps[m.criticalCycleDeps[1]].distance == 1);

  // Latency 5 over distance 2 -> ceil(2.5) = 3; a second, weaker recurrence (latency 2 / distance 1).
  Problem two = problem({{"a", 2}, {"b", 3}, {"c", 2}}, {dep(0, 1, 2), dep(1, 0, 3, 2), dep(2, 2, 2, 1)});
  MIIResult m2 = computeMII(two);
  CHECK(m2.recMII == 3);
  CHECK(m2.criticalCycle.size() == 2);

  // 5 uses at 2 per cycle -> 3; 1 use on another port.
  Problem res = problem({{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}, {"e", 1}, {"f", 1}}, {},
                        {Resource{"p", 2}, Resource{"q", 1}}, {0, 0, 0, 0, 0, 1});
  MIIResult m3 = computeMII(res);
  CHECK(m3.resMII == 3);
  CHECK(m3.recMII == 1);
  CHECK(m3.criticalResource == 0);
  CHECK(m3.criticalResourceOps == std::vector<uint32_t>{0, 1, 2, 3, 4});
  CHECK(m3.criticalCycle.empty());

  MIIResult none = computeMII(problem({{"a", 1}}, {}));
  CHECK(none.mii() == 1);
  CHECK(none.criticalResource == -1);
  CHECK(none.criticalCycle.empty());
}

// ---- modulo and list scheduling ----------------------------------------------------------------------

TEST_CASE("modulo schedule: at the MII, not below the RecMII, with negative and backward edges") {
  Problem red = problem({{"x", 0}, {"sum", 0}, {"add", 3}}, {dep(0, 2, 0), dep(1, 2, 0), dep(2, 1, 3, 1)});
  CHECK(!moduloSchedule(red, 2));
  auto s = moduloSchedule(red, 3);
  REQUIRE(s);
  verify(red, *s);
  CHECK(s->ii == 3);
  CHECK(*std::min_element(s->start.begin(), s->start.end()) == 0);

  // PhiOrder: phi -> next with latency -lat(next) forces next to finish no earlier than the phi is
  // read; a backward edge forces an early op below a later one.
  Problem po = problem({{"phi", 0}, {"a", 1}, {"b", 2}, {"c", 1}},
                       {dep(0, 1, 0), dep(1, 2, 1), dep(2, 3, 2), dep(3, 0, 1, 1), dep(0, 3, -1), dep(3, 1, 1, 2)});
  MIIResult m = computeMII(po);
  CHECK(m.recMII == 4);
  auto s2 = moduloSchedule(po, m.mii());
  REQUIRE(s2);
  verify(po, *s2);
  CHECK(s2->start[3] + 1 >= s2->start[0]);

  // Three accesses to one port at limit 1 need II 3, and land in distinct slots.
  Problem ports = problem({{"l1", 5}, {"l2", 5}, {"s", 1}}, {dep(0, 2, 5), dep(1, 2, 5)}, {Resource{"m", 1}}, {0, 0, 0});
  CHECK(!moduloSchedule(ports, 2));
  auto s3 = moduloSchedule(ports, 3);
  REQUIRE(s3);
  std::set<int> slots;
  for (int t : s3->start) slots.insert(t % 3);
  CHECK(slots.size() == 3);
  CHECK(contains(errorOf([&] { moduloSchedule(ports, 0); }), "II 0"));
}

TEST_CASE("list schedule: ASAP with per-cycle resources") {
  // Three loads on one port feed an add chain.
  Problem p = problem({{"l1", 5}, {"l2", 5}, {"l3", 5}, {"a1", 1}, {"a2", 1}},
                      {dep(0, 3, 5), dep(1, 3, 5), dep(3, 4, 1), dep(2, 4, 5)}, {Resource{"m", 1}}, {0, 0, 0, -1, -1});
  Schedule s = listSchedule(p);
  verify(p, s);
  CHECK(s.ii == 0);
  std::set<int> loadCycles{s.start[0], s.start[1], s.start[2]};
  CHECK(loadCycles == std::set<int>{0, 1, 2});
  CHECK(s.start[3] == 6);                   // after l1 and l2 (issued in cycles 0 and 1)
  CHECK(s.start[4] == std::max(7, s.start[2] + 5));
  CHECK(s.length == s.start[4] + 1);
  CHECK(contains(errorOf([] { listSchedule(problem({{"a", 1}, {"b", 1}}, {dep(0, 1, 1), dep(1, 0, -5)})); }),
                 "form a cycle through 'a', 'b'"));
  CHECK(contains(errorOf([] { listSchedule(problem({{"a", 1}}, {dep(0, 0, 1, 1)})); }), "distance 1"));
  CHECK(listSchedule(problem({{"c", 0}}, {})).length == 1);
}

// ---- property test ---------------------------------------------------------------------------------------

namespace {

constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min() / 4;

// Reference: does some cycle have a positive total of latency - ii * distance? (Floyd-Warshall on the
// longest-path closure; only deps accepted by `use` count.)
bool refPositiveCycle(const Problem& p, int64_t ii, bool zeroDistanceOnly) {
  size_t n = p.ops.size();
  std::vector<std::vector<int64_t>> d(n, std::vector<int64_t>(n, kNegInf));
  for (const auto& e : p.deps) {
    if (zeroDistanceOnly && e.distance) continue;
    d[e.from][e.to] = std::max(d[e.from][e.to], int64_t(e.latency) - ii * e.distance);
  }
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        if (d[i][k] > kNegInf && d[k][j] > kNegInf) d[i][j] = std::max(d[i][j], std::min<int64_t>(d[i][k] + d[k][j], 1 << 30));
  for (size_t i = 0; i < n; ++i)
    if (d[i][i] > 0) return true;
  return false;
}

// Loop-shaped problems (what buildLoopProblem produces): distance-0 dependences go forward in index
// order, possibly with a negative latency (like PhiOrder); recurrences go backward with distance >= 1.
// With `upperBounds`, also backward distance-0 dependences with negative latency ("at most L cycles
// later"), which can form distance-0 cycles: valid if their latency is <= 0, rejected otherwise.
Problem randomProblem(std::mt19937& rng, int maxOps, bool upperBounds) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Problem p;
  int resources = pick(0, 2);
  for (int r = 0; r < resources; ++r) p.resources.push_back(Resource{fmt::format("r{}", r), uint32_t(pick(1, 2))});
  int n = pick(2, maxOps);
  const uint32_t lats[] = {0, 1, 1, 1, 2, 3, 5};
  for (int i = 0; i < n; ++i) {
    int res = resources && pick(0, 9) < 4 ? pick(0, resources - 1) : -1;
    p.ops.push_back(Operation{fmt::format("op{}", i), lats[pick(0, 6)], res});
  }
  int density = std::max(2, 40 / n); // keep the expected number of dependences per operation small
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (pick(0, 99) < 5 * density) p.deps.push_back(dep(i, j, int(p.ops[i].latency)));
      if (pick(0, 99) < density) p.deps.push_back(dep(i, j, -int(p.ops[j].latency)));       // PhiOrder-like
      if (pick(0, 99) < 2 * density) p.deps.push_back(dep(j, i, pick(0, 4), uint32_t(pick(1, 3)))); // recurrence
      if (upperBounds && pick(0, 99) < density) p.deps.push_back(dep(j, i, -pick(0, 6)));
    }
  if (pick(0, 4) == 0) p.deps.push_back(dep(pick(0, n - 1), pick(0, n - 1), pick(1, 4), uint32_t(pick(1, 2))));
  return p;
}

// MII against the references: ResMII by counting, RecMII feasible and RecMII - 1 infeasible, and the
// critical cycle is a chain of dependences that is positive at RecMII - 1. Returns whether a
// recurrence was reported.
bool checkMII(const Problem& p, const MIIResult& m) {
  uint32_t resMII = 1;
  for (size_t r = 0; r < p.resources.size(); ++r) {
    uint32_t uses = 0;
    for (const auto& o : p.ops) uses += o.resource == int(r);
    resMII = std::max(resMII, (uses + p.resources[r].limit - 1) / p.resources[r].limit);
  }
  CHECK(m.resMII == resMII);
  CHECK(!refPositiveCycle(p, m.recMII, false));
  if (m.recMII > 1) CHECK(refPositiveCycle(p, m.recMII - 1, false));
  if (m.criticalCycle.empty()) {
    CHECK(m.recMII == 1);
    return false;
  }
  REQUIRE(m.criticalCycleDeps.size() == m.criticalCycle.size());
  int64_t w = 0;
  for (size_t k = 0; k < m.criticalCycle.size(); ++k) {
    const Dependence& d = p.deps[m.criticalCycleDeps[k]];
    CHECK(d.from == m.criticalCycle[k]);
    CHECK(d.to == m.criticalCycle[(k + 1) % m.criticalCycle.size()]);
    w += d.latency - int64_t(m.recMII - 1) * d.distance;
  }
  CHECK(w > 0);
  return true;
}

} // namespace

TEST_CASE("property: random loop-shaped problems - exact MII, schedules at or near it that verify") {
  std::mt19937 rng(20240607);
  int problems = 0, atMII = 0, cyclic = 0;
  for (int iter = 0; iter < 500; ++iter) {
    Problem p = randomProblem(rng, 24, false);
    INFO("problem " << iter);
    ++problems;
    MIIResult m = computeMII(p);
    cyclic += checkMII(p, m);

    // Below the MII there is no schedule; from the MII up one is found soon, and it verifies.
    if (m.mii() > 1) CHECK(!moduloSchedule(p, m.mii() - 1));
    std::optional<Schedule> s;
    for (uint32_t ii = m.mii(); ii <= m.mii() + 8 && !s; ++ii) s = moduloSchedule(p, ii);
    REQUIRE(s);
    verify(p, *s);
    CHECK(s->ii >= m.mii());
    CHECK(*std::min_element(s->start.begin(), s->start.end()) == 0);
    atMII += s->ii == m.mii();

    // The acyclic part as a block: the list schedule verifies, is no shorter than the critical path,
    // and without resources is exactly the critical path (ASAP).
    Problem dag = p;
    std::erase_if(dag.deps, [](const Dependence& d) { return d.distance > 0; });
    Schedule ls = listSchedule(dag);
    verify(dag, ls);
    std::vector<int64_t> asap(dag.ops.size(), 0);
    int64_t critical = 1;
    for (size_t v = 0; v < dag.ops.size(); ++v) { // distance-0 deps go forward: index order is topological
      for (const auto& d : dag.deps)
        if (d.to == v) asap[v] = std::max(asap[v], asap[d.from] + d.latency);
      critical = std::max(critical, asap[v] + dag.ops[v].latency);
    }
    CHECK(ls.length >= critical);
    for (auto& o : dag.ops) o.resource = -1;
    CHECK(listSchedule(dag).length == critical);
  }
  MESSAGE(problems << " problems, " << cyclic << " with a recurrence, " << atMII << " scheduled at the MII");
  CHECK(cyclic * 4 >= problems);     // the generator does produce recurrences
  CHECK(atMII * 10 >= problems * 9); // the scheduler reaches the MII on at least 90% of them
}

TEST_CASE("property: random problems with distance-0 upper bounds - check, MII, never a wrong schedule") {
  // Such problems need not have a schedule at any II (two operations forced into the same cycle on
  // one single-unit resource), so the scheduler may answer "none"; it must never answer wrongly.
  std::mt19937 rng(7);
  int valid = 0, rejected = 0, found = 0;
  for (int iter = 0; iter < 300; ++iter) {
    Problem p = randomProblem(rng, 16, true);
    INFO("problem " << iter);
    if (refPositiveCycle(p, 0, true)) {
      std::string e = errorOf([&] { p.check(); });
      CHECK(contains(e, "total distance 0"));
      ++rejected;
      continue;
    }
    ++valid;
    MIIResult m = computeMII(p);
    checkMII(p, m);
    for (uint32_t ii = m.mii(); ii <= m.mii() + 4; ++ii)
      if (auto s = moduloSchedule(p, ii)) {
        verify(p, *s);
        CHECK(s->ii == ii);
        ++found;
        break;
      }
  }
  MESSAGE(valid << " valid, " << rejected << " rejected, " << found << " scheduled");
  CHECK(rejected >= 10);
  CHECK(valid >= 100);
  CHECK(found * 10 >= valid * 7);
}

// An infeasible-at-every-II problem: a and b must start together but share a single-unit resource.
TEST_CASE("modulo schedule: no II works when zero-distance bounds collide on a resource") {
  Problem p = problem({{"a", 1}, {"b", 1}}, {dep(0, 1, 0), dep(1, 0, 0)}, {Resource{"m", 1}}, {0, 0});
  MIIResult m = computeMII(p);
  CHECK(m.mii() == 2);
  for (uint32_t ii = 1; ii <= 20; ++ii) CHECK(!moduloSchedule(p, ii));
}

TEST_CASE("sinkWires: a widening wire moves next to its reader, a narrowing one stays") {
  // op0 (32 bits, 1 cycle) -> op1 = a 64-bit extension of it (a wire) -> op2 at cycle 5; op3 = 8 bits
  // of op0 (a wire) -> op4 at cycle 5.
  Problem p = problem({{"x", 1}, {"wide", 0}, {"use", 1}, {"narrow", 0}, {"use8", 1}},
                      {dep(0, 1, 1), dep(1, 2, 0), dep(0, 3, 1), dep(3, 4, 0)});
  p.ops[0].bits = 32, p.ops[1].bits = 64, p.ops[2].bits = 0, p.ops[3].bits = 8, p.ops[4].bits = 0;
  Schedule s{1, {0, 1, 5, 1, 5}, 6};
  verify(p, s);
  // Before: op1 held 4 cycles (256 bits), op3 4 cycles (32). After: op0 held to cycle 5 (128), op3 as before.
  CHECK(registerBits(p, s) == 256 + 32);
  CHECK(sinkWires(p, s, {0, 1, 0, 1, 0}) == 256 + 32 - (128 + 32));
  CHECK(s.start == std::vector<int>{0, 5, 5, 1, 5});
  verify(p, s);
  // Not marked movable: stays.
  Schedule t{1, {0, 1, 5, 1, 5}, 6};
  CHECK(sinkWires(p, t, {0, 0, 0, 0, 0}) == 0);
  CHECK(t.start[1] == 1);
}

TEST_CASE("property: sinkWires keeps random schedules valid, their II and length, and never adds bits") {
  std::mt19937 rng(20261128);
  uint64_t saved = 0;
  for (int iter = 0; iter < 300; ++iter) {
    Problem p = randomProblem(rng, 20, false);
    INFO("problem " << iter);
    std::vector<uint8_t> movable(p.ops.size(), 0);
    for (size_t v = 0; v < p.ops.size(); ++v) {
      p.ops[v].bits = std::uniform_int_distribution<uint32_t>(0, 64)(rng);
      movable[v] = std::uniform_int_distribution<int>(0, 1)(rng);
    }
    const MIIResult m = computeMII(p);
    std::optional<Schedule> s;
    for (uint32_t ii = m.mii(); ii <= m.mii() + 8 && !s; ++ii)
      s = moduloSchedule(p, ii);
    REQUIRE(s);
    const Schedule before = *s;
    const uint64_t bits = registerBits(p, *s);
    const uint64_t gain = sinkWires(p, *s, movable);
    verify(p, *s);
    CHECK(registerBits(p, *s) == bits - gain);
    CHECK(s->ii == before.ii);
    CHECK(s->length == before.length);
    for (size_t v = 0; v < p.ops.size(); ++v)
      if (s->start[v] != before.start[v]) {
        CHECK(movable[v]);
        CHECK(p.ops[v].latency == 0);
        CHECK(p.ops[v].resource < 0);
        CHECK(s->start[v] > before.start[v]);
      }
    saved += gain;
  }
  CHECK(saved > 0); // the generator does give it something to do
}
