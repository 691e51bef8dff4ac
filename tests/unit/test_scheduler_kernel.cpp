// Scheduler on IR loops (built with LoopBuilder): the loop and block problem builders' data, carried,
// phi-order, memory and control dependences, and scheduleKernel's II handling (the MII, requested IIs
// below and above it, pipelining disabled), exit conditions and memory requests, and its reports.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <set>
#include <tuple>

#include "frontend/diagnostics.h"
#include "loop_builder.h"
#include "schedule_testing.h"
#include "scheduler/kernel_schedule.h"
#include "scheduler/schedule.h"

using namespace spvhls;
using namespace spvhls::sched;
using namespace spvhls::sched::testing;
using ir::OpKind;
using ir::ValueId;
using spvhls::testing::LoopBuilder;

namespace {

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
  for (const auto& d : p.deps)
    s.insert({d.from, d.to, d.latency, d.distance, d.kind});
  return s;
}

} // namespace

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
  for (uint32_t m : {x, old, store})
    CHECK(deps.count({cmp, m, 1, 1, K::Control}));
  // x is only loaded: no memory dependences on it.
  size_t memoryDeps = 0;
  for (const auto& d : p.deps)
    memoryDeps += d.kind == K::Memory;
  CHECK(memoryDeps == 2);
  size_t total = 0;
  for (const auto& o : loop.ops)
    for (ValueId v : o.operands)
      total += v != ir::kNone;
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
  auto add = [&](OpKind kind, uint8_t width, std::vector<ValueId> operands, uint32_t block,
                 std::string name = "") {
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
  CHECK(deps.count({2, 3, 5, 0, K::Data}));       // v -> s
  CHECK(deps.count({2, 4, 1, 0, K::Memory}));     // load before store
  CHECK(deps.count({5, term, 1, 0, K::Data}));    // condition
  CHECK(deps.count({3, term, 1, 0, K::Data}));    // the value b1's phi reads
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
  CHECK(contains(pr.loops[0].limitingReason,
                 "LoopPhi %prod -> Mul %mul (lat 3) -> %prod, distance 1: RecMII 3"));

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
  CHECK(contains(
      e, "hist.spvasm:12:3: error: loop for.hist: InitiationIntervalINTEL 1 cannot be met: recurrence "));
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
  CHECK(contains(errorOf([&] {
                   scheduleKernel(kernelWith(zero, {"a", "b", "c"}), ScheduleOptions{});
                 }),
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
  CHECK(contains(w.limitingReason,
                 "recurrence: Load %v (lat 5) -> Ne %cmp (lat 1) -> %v, distance 1: RecMII 6"));
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
