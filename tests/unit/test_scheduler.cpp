// Scheduler: operator library, Problem::check(), verify() (one negative test per constraint), MII
// (ResMII / RecMII with the critical cycle), modulo and list scheduling, the loop/block problem
// builders, scheduleKernel's II handling and reports, and a seeded property test comparing the
// algorithms against independent reference computations on random problems.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <tuple>

#include "frontend/diagnostics.h"
#include "loop_builder.h"
#include "scheduler/kernel_schedule.h"
#include "scheduler/schedule.h"

using namespace spvhls;
using namespace spvhls::sched;
using ir::OpKind;
using ir::ValueId;
using spvhls::testing::LoopBuilder;

namespace {

// ---- helpers -----------------------------------------------------------------------------------

// The message of the DiagnosticError `f` throws; fails the test if it throws nothing.
std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const DiagnosticError& e) {
    return e.what();
  }
  FAIL("expected a DiagnosticError");
  return {};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

Problem problem(std::vector<std::pair<std::string, uint32_t>> ops, std::vector<Dependence> deps,
                std::vector<Resource> resources = {}, std::vector<int> opResources = {}) {
  Problem p;
  for (size_t i = 0; i < ops.size(); ++i)
    p.ops.push_back(Operation{ops[i].first, ops[i].second, i < opResources.size() ? opResources[i] : -1});
  p.deps = std::move(deps);
  p.resources = std::move(resources);
  return p;
}

Dependence dep(uint32_t from, uint32_t to, int latency, uint32_t distance = 0) {
  return Dependence{from, to, latency, distance, distance ? Dependence::Kind::LoopCarried : Dependence::Kind::Data};
}

ir::Kernel kernelWith(ir::Loop loop, std::vector<std::string> memories) {
  ir::Kernel k;
  k.name = "k";
  for (auto& m : memories) {
    ir::Memory mem;
    mem.name = m;
    mem.argIndex = uint32_t(k.memories.size());
    k.memories.push_back(mem);
  }
  k.loops.push_back(std::move(loop));
  return k;
}

// for (i = 0; i < n; ++i) c[i] = a[i] + b[i]  (memories a=0, b=1, c=2)
ir::Loop vectorAdd() {
  LoopBuilder b;
  b.loop.name = "for.cond";
  ValueId n = b.liveIn(32, "n");
  ValueId i = b.phi(32, "i");
  ValueId off = b.offset4(i);
  ValueId x = b.load(0, off, 4, "x");
  ValueId y = b.load(1, off, 4, "y");
  ValueId sum = b.add(OpKind::Add, 32, {x, y}, "sum");
  b.store(2, off, sum, 4);
  ValueId inc = b.add(OpKind::Add, 32, {i, b.constant(1, 32)}, "inc");
  b.setNext(i, inc);
  b.loop.continueCond = b.add(OpKind::SLt, 1, {inc, n}, "cmp");
  return b.loop;
}

// prod = prod * a[i]: the recurrence goes through a multiplier (latency mulLatency).
ir::Loop productReduction() {
  LoopBuilder b;
  b.loop.name = "for.prod";
  ValueId n = b.liveIn(32, "n");
  ValueId i = b.phi(32, "i");
  ValueId prod = b.phi(32, "prod");
  ValueId x = b.load(0, b.offset4(i), 4, "x");
  ValueId next = b.add(OpKind::Mul, 32, {prod, x}, "mul");
  b.setNext(prod, next);
  ValueId inc = b.add(OpKind::Add, 32, {i, b.constant(1, 32)}, "inc");
  b.setNext(i, inc);
  b.loop.continueCond = b.add(OpKind::SLt, 1, {inc, n}, "cmp");
  b.loop.liveOuts.push_back(next);
  return b.loop;
}

// h[x[i]] += 1  (memories x=0, h=1)
ir::Loop histogram() {
  LoopBuilder b;
  b.loop.name = "for.hist";
  ValueId n = b.liveIn(32, "n");
  ValueId i = b.phi(32, "i");
  ValueId x = b.load(0, b.offset4(i), 4, "x");
  ValueId hoff = b.offset4(x);
  ValueId old = b.load(1, hoff, 4, "old");
  ValueId bumped = b.add(OpKind::Add, 32, {old, b.constant(1, 32)}, "bumped");
  b.store(1, hoff, bumped, 4);
  ValueId inc = b.add(OpKind::Add, 32, {i, b.constant(1, 32)}, "inc");
  b.setNext(i, inc);
  b.loop.continueCond = b.add(OpKind::SLt, 1, {inc, n}, "cmp");
  return b.loop;
}

std::set<std::tuple<uint32_t, uint32_t, int, uint32_t, Dependence::Kind>> depSet(const Problem& p) {
  std::set<std::tuple<uint32_t, uint32_t, int, uint32_t, Dependence::Kind>> s;
  for (const auto& d : p.deps) s.insert({d.from, d.to, d.latency, d.distance, d.kind});
  return s;
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

// ---- problem builders ---------------------------------------------------------------------------------

TEST_CASE("buildLoopProblem: data, carried, phi-order, memory and control dependences") {
  ir::Loop loop = histogram();
  OperatorLibrary lib;
  Problem p = buildLoopProblem(loop, lib);
  REQUIRE(p.ops.size() == loop.ops.size());
  CHECK(p.resources.size() == 2);
  CHECK(p.resources[1].name == "mem1");

  auto find = [&](const std::string& name) {
    for (uint32_t i = 0; i < loop.ops.size(); ++i)
      if (loop.ops[i].name == name) return i;
    FAIL("no op " << name);
    return 0u;
  };
  uint32_t i = find("i"), inc = find("inc"), x = find("x"), old = find("old"), bumped = find("bumped"),
           cmp = find("cmp");
  uint32_t store = 0;
  for (uint32_t v = 0; v < loop.ops.size(); ++v)
    if (loop.ops[v].kind == OpKind::Store) store = v;
  CHECK(p.ops[old].name == "%old = Load");
  CHECK(p.ops[old].latency == 5);
  CHECK(p.ops[store].resource == 1);
  CHECK(p.ops[store].name == fmt::format("Store #{}", store));
  // Register cost: a value's width; constants and invariants are held once (no pipeline registers).
  CHECK(p.ops[old].bits == loop.ops[old].width());
  CHECK(p.ops[old].bits > 0);
  CHECK(p.ops[store].bits == 0);
  for (uint32_t v = 0; v < loop.ops.size(); ++v)
    if (loop.ops[v].kind == OpKind::Const || loop.ops[v].kind == OpKind::LiveIn) CHECK(p.ops[v].bits == 0);

  auto deps = depSet(p);
  using K = Dependence::Kind;
  CHECK(deps.count({i, inc, 0, 0, K::Data}));
  CHECK(deps.count({old, bumped, 5, 0, K::Data}));
  CHECK(deps.count({bumped, store, 1, 0, K::Data}));
  CHECK(deps.count({inc, i, 1, 1, K::LoopCarried}));
  CHECK(deps.count({i, inc, -1, 0, K::PhiOrder}));
  CHECK(deps.count({old, store, 1, 0, K::Memory}));
  CHECK(deps.count({store, old, 1, 1, K::Memory}));
  for (uint32_t m : {x, old, store}) CHECK(deps.count({cmp, m, 1, 1, K::Control}));
  // x is only loaded: no memory dependences on it.
  size_t memoryDeps = 0;
  for (const auto& d : p.deps) memoryDeps += d.kind == K::Memory;
  CHECK(memoryDeps == 2);
  size_t total = 0;
  for (const auto& o : loop.ops)
    for (ValueId v : o.operands) total += v != ir::kNone;
  CHECK(p.deps.size() == total + 1 /*carried*/ + 1 /*phi order*/ + 2 /*memory*/ + 3 /*control*/);

  // Loop controls set the carried distance through a memory.
  auto carried = [&](const ir::Loop& l) {
    for (const auto& d : buildLoopProblem(l, lib).deps)
      if (d.kind == K::Memory && d.distance > 0) return int(d.distance);
    return 0;
  };
  ir::Loop l2 = loop;
  l2.controls.memoryDependenceDistance = {{1, 0}};
  CHECK(carried(l2) == 0);
  l2.controls.memoryDependenceDistance = {{0, 0}, {1, 3}};
  CHECK(carried(l2) == 3);
  l2.controls.memoryDependenceDistance = {};
  l2.controls.dependencyLengthAll = 2;
  CHECK(carried(l2) == 2);
  l2.controls.dependencyLengthAll = 0;
  CHECK(carried(l2) == 0);
  l2.controls.memoryDependenceDistance = {{1, 4}};
  CHECK(carried(l2) == 4);

  // Malformed IR is reported, not crashed on.
  ir::Loop bad = loop;
  bad.ops[inc].operands[0] = 999;
  CHECK(contains(errorOf([&] { buildLoopProblem(bad, lib); }), "internal compiler error"));
  CHECK_THROWS_AS(buildLoopProblem(bad, lib), InternalError); // the driver exits 3 for these
  ir::Kernel k = kernelWith(loop, {"x"});
  CHECK(contains(errorOf([&] { buildLoopProblem(k, 0, lib); }), "uses memory 1, but there are 1 memories"));
}

TEST_CASE("buildBlockProblem and block schedules: terminator after condition, phi values and stores") {
  // entry: n = arg; v = a[0]; s = v + n; a[0] = s; c = s < n; br c, b1, b2.  b1: p = phi(s from entry).
  ir::Kernel k;
  k.name = "k";
  k.memories.push_back(ir::Memory{});
  k.memories[0].name = "a";
  auto add = [&](OpKind kind, uint8_t width, std::vector<ValueId> operands, uint32_t block, std::string name = "") {
    ir::Op op;
    op.kind = kind;
    op.type = ir::Type::bits(width);
    op.operands = std::move(operands);
    op.block = block;
    op.name = std::move(name);
    k.ops.push_back(op);
    k.blocks[block].ops.push_back(ValueId(k.ops.size() - 1));
    return ValueId(k.ops.size() - 1);
  };
  k.blocks.resize(3);
  k.blocks[0].name = "entry";
  ValueId n = add(OpKind::Arg, 32, {}, 0, "n");
  ValueId zero = add(OpKind::Const, 64, {}, 0);
  ValueId v = add(OpKind::Load, 32, {zero, ir::kNone}, 0, "v");
  k.ops[v].size = 4;
  ValueId s = add(OpKind::Add, 32, {v, n}, 0, "s");
  ValueId st = add(OpKind::Store, 0, {zero, s, ir::kNone}, 0);
  k.ops[st].size = 4;
  ValueId c = add(OpKind::SLt, 1, {s, n}, 0, "c");
  k.blocks[0].term = ir::Terminator{ir::Terminator::Kind::CondBranch, c, {1, 2}, {}, {}};
  ValueId phi = add(OpKind::Phi, 32, {s}, 1, "p");
  k.ops[phi].phiBlocks = {0};
  k.blocks[1].term.kind = ir::Terminator::Kind::Return;
  k.blocks[2].term.kind = ir::Terminator::Kind::Return;

  OperatorLibrary lib;
  Problem p = buildBlockProblem(k, 0, lib);
  REQUIRE(p.ops.size() == 7);
  const uint32_t term = 6;
  CHECK(p.ops[term].name == "terminator CondBranch");
  auto deps = depSet(p);
  using K = Dependence::Kind;
  CHECK(deps.count({2, 3, 5, 0, K::Data}));   // v -> s
  CHECK(deps.count({2, 4, 1, 0, K::Memory})); // load before store
  CHECK(deps.count({5, term, 1, 0, K::Data}));  // condition
  CHECK(deps.count({3, term, 1, 0, K::Data}));  // the value b1's phi reads
  CHECK(deps.count({4, term, 1, 0, K::Control})); // the store
  CHECK(p.resources.size() == 1);

  // The phi block: no incoming edges for the phi, and a Return after nothing.
  Problem p1 = buildBlockProblem(k, 1, lib);
  CHECK(p1.deps.empty());

  KernelSchedule ks = scheduleKernel(k, ScheduleOptions{});
  REQUIRE(ks.blocks.size() == 3);
  const Schedule& s0 = ks.blocks[0].schedule;
  CHECK(s0.start[3] == s0.start[2] + 5);
  CHECK(s0.start[term] >= s0.start[4] + 1);
  CHECK(s0.length == s0.start[term] + 1);
  CHECK(ks.blocks[1].schedule.length == 1);
}

// ---- scheduleKernel: II selection and reports ----------------------------------------------------------

TEST_CASE("scheduleKernel: vector add, product reduction and histogram MIIs") {
  ScheduleOptions opts;
  KernelSchedule va = scheduleKernel(kernelWith(vectorAdd(), {"a", "b", "c"}), opts);
  REQUIRE(va.loops.size() == 1);
  const LoopSchedule& l = va.loops[0];
  CHECK(l.mii.resMII == 1);
  CHECK(l.mii.recMII == 1);
  CHECK(l.schedule.ii == 1);
  CHECK(l.pipelined);
  CHECK(l.maxConcurrency == 0);
  CHECK(contains(l.limitingReason, "recurrence: LoopPhi %i -> Add %inc (lat 1) -> %i, distance 1: RecMII 1"));
  CHECK(contains(l.limitingReason, "resource: memory port 'a': 1 access (Load %x) at 1 per cycle: ResMII 1"));
  verify(l.problem, l.schedule);

  KernelSchedule pr = scheduleKernel(kernelWith(productReduction(), {"a"}), opts);
  CHECK(pr.loops[0].mii.recMII == opts.target.mulLatency);
  CHECK(pr.loops[0].schedule.ii == opts.target.mulLatency);
  CHECK(contains(pr.loops[0].limitingReason, "LoopPhi %prod -> Mul %mul (lat 3) -> %prod, distance 1: RecMII 3"));

  // Load h (memLatency + 1) -> Add (1) -> Store h, then store -> next iteration's load (1).
  KernelSchedule h = scheduleKernel(kernelWith(histogram(), {"x", "h"}), opts);
  const LoopSchedule& hl = h.loops[0];
  CHECK(hl.mii.recMII == (opts.target.memLatency + 1) + 1 + 1);
  CHECK(hl.mii.resMII == 2);
  CHECK(hl.schedule.ii == hl.mii.recMII);
  CHECK(contains(hl.limitingReason, "Load %old (lat 5) -> Add %bumped (lat 1) -> Store #"));
  verify(hl.problem, hl.schedule);

  // A slower memory raises the histogram's recurrence accordingly.
  ScheduleOptions slow;
  slow.target.memLatency = 9;
  CHECK(scheduleKernel(kernelWith(histogram(), {"x", "h"}), slow).loops[0].schedule.ii == 12);

  // With "no loop-carried dependence through h" only the port limits II.
  ir::Loop free = histogram();
  free.controls.memoryDependenceDistance = {{1, 0}};
  const LoopSchedule fl = scheduleKernel(kernelWith(free, {"x", "h"}), opts).loops[0];
  CHECK(fl.mii.recMII == 1);
  CHECK(fl.schedule.ii == 2);
  CHECK(contains(fl.limitingReason, "resource: memory port 'h': 2 accesses (Load %old, Store #"));
  CHECK(contains(fl.limitingReason, "at 1 per cycle: ResMII 2"));
}

TEST_CASE("scheduleKernel: requested II below the MII is an error naming the recurrence or resource") {
  ir::Loop loop = histogram();
  loop.controls.ii = 1;
  loop.loc = SourceLoc{"hist.spvasm", 0, 12, 3, true};
  std::string e = errorOf([&] { scheduleKernel(kernelWith(loop, {"x", "h"}), ScheduleOptions{}); });
  CHECK(contains(e, "hist.spvasm:12:3: error: loop for.hist: InitiationIntervalINTEL 1 cannot be met: recurrence "));
  CHECK(contains(e, "needs II >= 7 (latency 7 over distance 1)"));
  CHECK(contains(e, "the smallest II that works is 7. Remove the request or use II 7"));

  ir::Loop free = histogram();
  free.controls.memoryDependenceDistance = {{1, 0}};
  free.controls.ii = 1;
  std::string e2 = errorOf([&] { scheduleKernel(kernelWith(free, {"x", "h"}), ScheduleOptions{}); });
  CHECK(contains(e2, "memory port 'h' has 2 accesses per iteration (Load %old, Store #"));
  CHECK(contains(e2, "the smallest II that works is 2"));

  ir::Loop zero = vectorAdd();
  zero.controls.ii = 0;
  CHECK(contains(errorOf([&] { scheduleKernel(kernelWith(zero, {"a", "b", "c"}), ScheduleOptions{}); }),
                 "InitiationIntervalINTEL 0 is not a valid II"));
}

TEST_CASE("scheduleKernel: requested II above the MII is honoured exactly; pipelining disabled") {
  ir::Loop loop = vectorAdd();
  loop.controls.ii = 4;
  loop.controls.maxConcurrency = 2;
  const LoopSchedule l = scheduleKernel(kernelWith(loop, {"a", "b", "c"}), ScheduleOptions{}).loops[0];
  CHECK(l.schedule.ii == 4);
  CHECK(l.requestedII == 4);
  CHECK(l.maxConcurrency == 2);
  CHECK(contains(l.limitingReason, "requested II 4 (InitiationIntervalINTEL); MII 1"));
  verify(l.problem, l.schedule);

  ir::Loop hist = histogram();
  hist.controls.ii = 7;
  CHECK(scheduleKernel(kernelWith(hist, {"x", "h"}), ScheduleOptions{}).loops[0].schedule.ii == 7);

  ir::Loop off = histogram();
  off.controls.pipelineEnable = false;
  off.controls.ii = 1; // meaningless without pipelining: ignored, not an error
  const LoopSchedule o = scheduleKernel(kernelWith(off, {"x", "h"}), ScheduleOptions{}).loops[0];
  CHECK(!o.pipelined);
  CHECK(o.maxConcurrency == 1);
  CHECK(o.schedule.ii == 7);
  CHECK(contains(o.limitingReason, "not pipelined (PipelineEnableINTEL 0)"));
}

TEST_CASE("scheduleKernel: exit condition and memory requests (default and exitBeforeMemory)") {
  // while (p[i] != 0) ++i: the exit condition reads memory. By default the next iteration's load
  // waits for this iteration's condition: Load (5) -> Ne (1) -> next Load gives RecMII 6.
  LoopBuilder b;
  b.loop.name = "while.cond";
  ValueId i = b.phi(32, "i");
  ValueId v = b.load(0, b.offset4(i), 4, "v");
  ValueId cmp = b.add(OpKind::Ne, 1, {v, b.constant(0, 32)}, "cmp");
  ValueId inc = b.add(OpKind::Add, 32, {i, b.constant(1, 32)}, "inc");
  b.setNext(i, inc);
  b.loop.continueCond = cmp;
  const LoopSchedule w = scheduleKernel(kernelWith(b.loop, {"p"}), ScheduleOptions{}).loops[0];
  CHECK(w.mii.recMII == 6);
  CHECK(w.schedule.ii == 6);
  CHECK(contains(w.limitingReason, "recurrence: Load %v (lat 5) -> Ne %cmp (lat 1) -> %v, distance 1: RecMII 6"));
  CHECK(w.schedule.start[v] + int(w.schedule.ii) >= w.schedule.start[cmp] + 1);

  // A stall-free loop cannot have that: named error.
  ScheduleOptions sf;
  sf.exitBeforeMemory = {true};
  std::string e = errorOf([&] { scheduleKernel(kernelWith(b.loop, {"p"}), sf); });
  CHECK(contains(e, "loop while.cond: the exit condition Ne %cmp depends on Load %v"));

  // Vector add, stall-free: every memory request starts after the iteration's exit is known, and
  // after the counter's next value is ready (the next iteration reads it in the first cluster).
  ir::Loop va = vectorAdd();
  const LoopSchedule s = scheduleKernel(kernelWith(va, {"a", "b", "c"}), sf).loops[0];
  uint32_t cond = va.continueCond;
  REQUIRE(va.phis.size() == 1);
  const ValueId next = va.phis[0].next;
  size_t fromCond = 0, fromNext = 0;
  for (const auto& d : s.problem.deps)
    if (d.kind == Dependence::Kind::Control) {
      fromCond += d.from == cond, fromNext += d.from == next;
      CHECK((d.from == cond || d.from == next));
      CHECK(d.latency == 2);
      CHECK(d.distance == 0);
    }
  CHECK(fromCond == 3);
  CHECK(fromNext == 3);
  // A running sum of loaded values (and a value computed from it) stays in a later cluster: no such order.
  LoopBuilder r;
  ValueId j = r.phi(32, "j"), sum = r.phi(32, "sum"), last = r.phi(32, "last");
  ValueId x = r.load(0, r.offset4(j), 4, "x");
  ValueId jn = r.add(OpKind::Add, 32, {j, r.constant(1, 32)}, "jn");
  r.setNext(j, jn);
  r.setNext(sum, r.add(OpKind::Add, 32, {sum, x}, "sumn"));
  r.setNext(last, r.add(OpKind::Xor, 32, {sum, j}, "lastn"));
  r.loop.continueCond = r.add(OpKind::SLt, 1, {jn, r.constant(100, 32)}, "more");
  const LoopSchedule rs = scheduleKernel(kernelWith(r.loop, {"a"}), sf).loops[0];
  for (const auto& d : rs.problem.deps)
    if (d.kind == Dependence::Kind::Control) CHECK((d.from == r.loop.continueCond || d.from == jn));
  for (uint32_t m = 0; m < va.ops.size(); ++m)
    if (va.ops[m].kind == OpKind::Load || va.ops[m].kind == OpKind::Store)
      CHECK(s.schedule.start[m] > s.schedule.start[cond] + 1); // after the exit position start + latency
  CHECK(s.schedule.ii == 1);
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
