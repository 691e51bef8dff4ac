#include "driver/report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

#include <map>

#include "rtlgen/pipeline_timing.h"
#include "rtlgen/ram_gen.h"

namespace spvhls::driver {

using nlohmann::json;

// The cycles one invocation takes at the LoopCountINTEL average (or max) trip count, when the loop's
// cycles are predicted: a top-tested loop runs one iteration more than its trip count.
struct Expected {
  int64_t trips = 0, iterations = 0, cycles = 0;
};
static std::optional<Expected> expectedCycles(const ir::Loop& loop, const rtl::LoopHardware& hw) {
  const auto& c = loop.controls;
  const std::optional<int64_t> trips = c.loopCountAvg ? c.loopCountAvg : c.loopCountMax;
  if (!trips || !hw.predictable) return std::nullopt;
  Expected e;
  e.trips = *trips;
  e.iterations = *trips + (loop.exitsFromHeader ? 1 : 0);
  e.cycles = rtl::loopCallCycles(hw, uint64_t(std::max<int64_t>(e.iterations, 0)));
  return e;
}

// The reinvocation delay (rtl::ReinvocationDelay) as the report says it.
static std::string reinvocationText(const rtl::ReinvocationDelay& d) {
  switch (d.kind) {
  case rtl::ReinvocationDelay::Kind::Once: return "none (the loop runs at most once per kernel run)";
  case rtl::ReinvocationDelay::Kind::Unknown: return "not predicted: " + d.why;
  case rtl::ReinvocationDelay::Kind::Known: break;
  }
  if (!d.caller.empty())
    return fmt::format(
        "{} cycles from the last launch to the next invocation's first when the next call waits "
        "({}); a later call starts when loop {} makes it",
        d.min, d.path, d.caller);
  const std::string range = !d.max          ? fmt::format("at least {} cycles ({})", d.min, d.why)
                            : d.min == *d.max ? fmt::format("{} cycles", d.min)
                                              : fmt::format("{}..{} cycles", d.min, *d.max);
  return fmt::format("{} from the last launch to the next invocation's first: drain {}, then FSM blocks {}",
                     range, d.drain, d.path);
}

static nlohmann::json reinvocationJson(const rtl::ReinvocationDelay& d) {
  const char* kind = d.kind == rtl::ReinvocationDelay::Kind::Once    ? "once"
                     : d.kind == rtl::ReinvocationDelay::Kind::Known ? "known"
                                                                     : "unknown";
  nlohmann::json j = {{"kind", kind}};
  if (d.kind == rtl::ReinvocationDelay::Kind::Known) {
    j["min"] = d.min;
    j["max"] = d.max ? nlohmann::json(*d.max) : nlohmann::json(nullptr);
    j["drain"] = d.drain;
    j["path"] = d.path;
    if (!d.caller.empty()) j["caller"] = d.caller;
  }
  if (!d.why.empty()) j["why"] = d.why;
  return j;
}

static const char* statusName(ir::LoopControlRequest::Status s) {
  switch (s) {
  case ir::LoopControlRequest::Status::Honoured: return "honoured";
  case ir::LoopControlRequest::Status::NotHonouredYet: return "not honoured yet";
  case ir::LoopControlRequest::Status::Ignored: return "ignored";
  }
  return "?";
}

// Where each memory of the kernel lives: a pointer argument's buffer, an on-chip RAM (its module and
// word width) or an external memory port, and the on-chip bytes against the budget.
struct MemoryRow {
  std::string name, kind, where;
  uint64_t bytes = 0;
  uint32_t wordBytes = 0; // on chip
  bool persistent = false;
  uint32_t portBits = 64; // its port's data width (wider when a vector is accessed whole)
  std::vector<std::string> ports; // each port's direction (ir::Memory::ports): read, write, read-write
};

static std::vector<MemoryRow> memoryRows(const Compiled& c, uint64_t& onChipBytes) {
  std::vector<MemoryRow> rows;
  onChipBytes = 0;
  for (size_t m = 0; m < c.kernel.memories.size(); ++m) {
    const ir::Memory& mem = c.kernel.memories[m];
    MemoryRow r{mem.name, ir::memoryKindName(mem.kind), "", mem.sizeBytes, 0, mem.persistent, mem.wordBits,
                {}};
    for (const ir::MemoryPort& p : mem.ports)
      r.ports.emplace_back(ir::portAccessName(p.access));
    if (mem.kind == ir::Memory::Kind::Argument) {
      r.where = fmt::format("port mem_{}", c.rtl.argNames.at(mem.argIndex));
    } else if (mem.boundTo != ir::kNoMemory) {
      r.where = fmt::format("port mem_{} onto the caller's memory (each invocation carries its offset)",
                            c.rtl.externalNames.at(m));
    } else if (mem.kind == ir::Memory::Kind::External) {
      r.where = fmt::format("port mem_{} (external, image {})", c.rtl.externalNames.at(m),
                            externalImageFile(c, uint32_t(m)));
    } else if (mem.ownQueue()) {
      r.where = fmt::format("port mem_{}: the task's {} queue; its loop {} one per iteration", c.rtl.externalNames.at(m),
                            mem.queueResults ? "result" : "invocation", mem.queueResults ? "pushes" : "pops");
    } else if (mem.kind == ir::Memory::Kind::Queue) {
      r.where = fmt::format("the {} FIFO of {}, which pipelined loops push and pop as a port",
                            mem.queueResults ? "result" : "invocation", c.kernel.processes.at(mem.queueProcess).name);
    } else {
      r.wordBytes = c.rtl.ramWordBytes.at(m);
      r.where = fmt::format("RAM {}{}", c.rtl.ramModules.at(m), rtl::ramPortsText(mem));
      onChipBytes += mem.sizeBytes;
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// Per unit module of a loop: instances built, operations bound to them, and how many of those
// operations share their instance with another (modulo binding).
struct UnitCount {
  std::string module;
  uint32_t instances = 0, ops = 0, sharedOps = 0;
};
static std::vector<UnitCount> unitCounts(const rtl::LoopHardware& hw) {
  std::map<std::string, UnitCount> m;
  for (const auto& inst : hw.instances) {
    UnitCount& u = m[inst.module];
    u.module = inst.module;
    u.instances++;
    u.ops += uint32_t(inst.ops.size());
    if (inst.ops.size() > 1) u.sharedOps += uint32_t(inst.ops.size());
  }
  std::vector<UnitCount> out;
  for (auto& [name, u] : m)
    out.push_back(u);
  return out;
}

// Stall-free loops: the side FIFO of each unit whose span crosses clusters (rtl::LoopPlan::sideFifoDepth).
struct SideFifoRow {
  std::string op;
  uint64_t depth = 0;
  uint32_t start = 0, resultPos = 0, fromCluster = 0, toCluster = 0; // clusters counted from 0
};

static std::vector<SideFifoRow> sideFifoRows(const Compiled& c, size_t l) {
  std::vector<SideFifoRow> rows;
  if (l >= c.plan.loops.size()) return rows;
  const rtl::LoopPlan& p = c.plan.loops[l];
  for (size_t i = 0; i < p.sideFifoDepth.size(); ++i)
    if (p.sideFifoDepth[i])
      rows.push_back({c.schedule.loops[l].problem.ops[i].name, p.sideFifoDepth[i], p.start[i], p.compPos[i],
                      p.clusterOf(p.start[i]), p.clusterOf(p.compPos[i])});
  return rows;
}

static std::string opsList(const sched::Problem& p, const std::vector<uint32_t>& ops) {
  std::string s;
  for (uint32_t o : ops) s += (s.empty() ? "" : " -> ") + p.ops[o].name;
  return s;
}

// Timing of one schedule: its longest chain within a cycle and the clock it allows (Fmax estimate:
// the chain plus the register overhead; the control logic and routing beyond the delay table are not
// in it).
struct TimingRow {
  std::string chain;
  double delayNs = 0, fmaxMHz = 0;
  uint32_t chained = 0; // operations whose result is read in the cycle it is formed
};
static TimingRow timingRow(const Compiled& c, const sched::Problem& p, const sched::Schedule& s) {
  TimingRow r;
  const sched::TimingPath t = sched::criticalChain(p, s);
  r.chain = opsList(p, t.ops);
  r.delayNs = t.delayNs;
  r.fmaxMHz = 1000.0 / (t.delayNs + c.target.delays.registerOverheadNs);
  r.chained = t.chainedOps;
  return r;
}
// The FSM's blocks: the row of the longest chain among them.
static TimingRow fsmTimingRow(const Compiled& c) {
  TimingRow worst;
  for (const sched::BlockSchedule& b : c.schedule.blocks) {
    TimingRow r = timingRow(c, b.problem, b.schedule);
    if (r.delayNs > worst.delayNs || worst.chain.empty()) worst = std::move(r);
  }
  return worst;
}
static json timingJson(const Compiled& c, const TimingRow& r) {
  return {{"clock_period_ns", c.target.clockPeriodNs > 0 ? json(c.target.clockPeriodNs) : json(nullptr)},
          {"critical_chain", r.chain},
          {"critical_delay_ns", r.delayNs},
          {"register_overhead_ns", c.target.delays.registerOverheadNs},
          {"estimated_fmax_mhz", r.fmaxMHz},
          {"chained_ops", r.chained}};
}
static std::string timingText(const Compiled& c, const TimingRow& r) {
  return fmt::format("{:.2f} ns of logic in a cycle + {:.2f} ns register overhead: estimated Fmax {:.0f} MHz "
                     "({}; {} operation(s) chained); critical: {}\n",
                     r.delayNs, c.target.delays.registerOverheadNs, r.fmaxMHz,
                     c.target.clockPeriodNs > 0
                         ? fmt::format("clock period {:.3g} ns", c.target.clockPeriodNs)
                         : std::string("no clock period: every result registered"),
                     r.chained, r.chain.empty() ? "-" : r.chain);
}

namespace {
// The task sequences whose queues loop l pushes or pops (its cycles depend on theirs), by name.
std::vector<std::string> queuesOf(const ir::Kernel& k, const rtl::RtlResult& r, size_t l) {
  std::vector<std::string> names;
  if (const auto& m = r.loops.at(l).model)
    for (const rtl::PipelineModel::Access& a : m->accesses)
      if (a.queue != rtl::PipelineModel::kNoQueue) {
        const std::string& name = k.processes.at(k.memories.at(a.queue).queueProcess).name;
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      }
  return names;
}

// An endless loop serving a task's invocations: the cycle of its result push (its last memory access).
int pushCycle(const ir::Loop& loop, const sched::LoopSchedule& ls) {
  int at = 0;
  for (ir::ValueId v = 0; v < loop.ops.size(); ++v)
    if (loop.ops[v].kind == ir::OpKind::Store) at = std::max(at, ls.schedule.start.at(v));
  return at;
}

// The II a served task's loop achieved (0: not served).
uint32_t servedII(const Compiled& t, const ir::Process& p) {
  return p.served && !t.schedule.loops.empty() ? t.schedule.loops[0].schedule.ii : 0;
}

// What a create's Pipelined asks and what the hardware does.
std::string pipelinedText(int32_t p, const std::string& notServed, uint32_t ii) {
  const std::string asked = p == 0 ? "0 (not pipelined)" : p < 0 ? "-1 (the compiler's choice)" : std::to_string(p);
  if (p == 0) return asked + ": one invocation at a time";
  if (ii) return asked + fmt::format(": achieved II {}, a new invocation every {} cycle{} (the body is one pipelined "
                                     "loop over its invocations, 'task.serve' below)",
                                     ii, ii, ii == 1 ? "" : "s");
  return asked + ": not honoured, one invocation at a time: " + notServed;
}

std::string clusterModeText(int32_t m) {
  return m == 0 ? "0 (stall-free)" : m == 1 ? "1 (stall-enable)" : "-1 (the compiler's choice)";
}

// Per body memory of task process p: what it is in the kernel ("a, offset per invocation").
std::string taskMemoryText(const ir::Kernel& k, const ir::Process& p, uint32_t bm) {
  const ir::Memory& mem = k.tasks[p.body].memories[bm];
  if (mem.ownQueue()) return fmt::format("{}: the task's end of its {} queue", mem.name, mem.queueResults ? "result" : "invocation");
  if (p.memoryMap[bm] == ir::kNoMemory) return fmt::format("{}: the task's own", mem.name);
  const ir::Memory& km = k.memories[p.memoryMap[bm]];
  return mem.kind == ir::Memory::Kind::Argument || mem.boundTo != ir::kNoMemory
             ? fmt::format("{}: the kernel's {} from the byte offset each async passes", mem.name, km.name)
             : fmt::format("{}: the kernel's {}", mem.name, km.name);
}

} // namespace

json reportJson(const Compiled& c) {
  const ir::Kernel& k = c.kernel;
  json j;
  j["kernel"] = k.name;
  j["input"] = c.inputPath;
  j["module"] = c.rtl.moduleName;
  j["target"] = {
      {"name", c.target.name},
      {"clock_mhz", c.target.clockMHz},
      {"clock_period_ns", c.target.clockPeriodNs > 0 ? json(c.target.clockPeriodNs) : json(nullptr)},
      {"delay_model", c.target.delays.method},
      {"mem_latency", c.target.memLatency}};
  j["fsm_timing"] = timingJson(c, fsmTimingRow(c));
  if (!k.registerLimit.empty()) j["register_limit"] = k.registerLimit;
  if (k.ndRange) {
    json sizes = json::array();
    for (size_t i = k.args.size() - ir::kNdRangeArgs; i < k.args.size(); ++i)
      sizes.push_back(k.args[i].name);
    j["nd_range"] = {
        {"work_item_loop", k.workItemLoop}, {"size_args", sizes}, {"subgroup_lanes", k.subgroupLanes}};
    if (k.subgroupLanes > 1) {
      j["nd_range"]["lane_accesses"] = {{"joined", k.laneAccessesJoined},
                                        {"per_lane", k.laneAccessesPerLane}};
      json logic = json::array();
      for (const ir::LaneLogic& l : k.laneLogic)
        logic.push_back({{"op", l.op},
                         {"bits", l.bits},
                         {"inputs", l.inputs},
                         {"built", l.combine.empty() ? (l.wired ? "wires" : "crossbar") : "chain"},
                         {"combine", l.combine.empty() ? json(nullptr) : json(l.combine)}});
      j["nd_range"]["lane_logic"] = logic;
    }
    if (!k.barrierLoops.empty())
      j["nd_range"]["barriers"] = {{"stretch_loops", k.barrierLoops},
                                   {"work_groups_in_flight", 1},
                                   {"max_work_group_items", k.maxWorkGroupItems},
                                   {"buffer_bits_per_work_item", k.barrierBufferBits}};
  }
  j["datapath_optimisations"] = {{"shifts_as_wires", k.datapath.shifts},
                                 {"multiplications_by_constants", k.datapath.multiplications},
                                 {"divisions_by_constants", k.datapath.divisions},
                                 {"hoisted_invariants", k.datapath.hoisted},
                                 {"induction_multiplications", k.datapath.inductions},
                                 {"reused_loads", k.datapath.reusedLoads},
                                 {"dropped_stores", k.datapath.droppedStores},
                                 {"merged_values", k.datapath.mergedValues},
                                 {"forwarded_loads", k.datapath.forwardedLoads},
                                 {"known_bits", k.datapath.knownBits},
                                 {"wide_accesses", k.datapath.wideAccesses},
                                 {"widened_accesses", k.datapath.widenedAccesses},
                                 {"folded_constant_additions", k.datapath.foldedAdds}};
  json args = json::array();
  for (const ir::KernelArg& a : k.args)
    args.push_back({{"name", a.name}, {"kind", a.isPointer ? "global pointer" : "scalar"}, {"width", a.width()}});
  j["arguments"] = args;
  uint64_t onChipBytes = 0;
  json mems = json::array();
  for (const MemoryRow& r : memoryRows(c, onChipBytes)) {
    json jm = {{"name", r.name},
               {"kind", r.kind},
               {"bytes", r.bytes},
               {"where", r.where},
               {"persistent", r.persistent},
               {"port_bits", r.portBits},
               {"ports", r.ports}};
    if (r.wordBytes) jm["word_bytes"] = r.wordBytes;
    mems.push_back(jm);
  }
  j["memories"] = mems;
  j["on_chip"] = {{"bytes", onChipBytes}, {"budget", k.onChipBudget}};
  json loops = json::array();
  const std::vector<int> callers = ir::loopCallers(k.loops);
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const ir::Loop& loop = k.loops[l];
    const sched::LoopSchedule& ls = c.schedule.loops[l];
    const rtl::LoopHardware& hw = c.rtl.loops[l];
    json jl;
    jl["name"] = loop.name;
    jl["location"] = loop.loc.str();
    jl["depth"] = loop.depth;
    jl["pipelined"] = ls.pipelined;
    // An outer pipeline's inner loops (sub-pipelines), and the loop whose body runs this one.
    json inner = json::array();
    for (const ir::Op& op : loop.ops)
      if (op.kind == ir::OpKind::LoopCall) inner.push_back(k.loops[op.index].name);
    jl["sub_pipelines"] = inner;
    jl["run_by"] = callers[l] >= 0 ? json(k.loops[size_t(callers[l])].name) : json(nullptr);
    jl["copies"] = loop.copies;
    jl["lanes_masked"] = loop.laneMasked;
    jl["ii"] = {{"achieved", ls.schedule.ii},
                {"requested", ls.requestedII ? json(ls.requestedII) : json(nullptr)},
                {"mii", ls.mii.mii()},
                {"res_mii", ls.mii.resMII},
                {"rec_mii", ls.mii.recMII}};
    jl["limited_by"] = ls.limitingReason;
    jl["schedule"] = {{"method", ls.method},
                      {"ii_proven_minimal", ls.iiProvenMinimal},
                      {"ii_proof", ls.iiProof},
                      {"register_bits", ls.registerBits},
                      {"register_bits_proven_minimal", ls.registersProvenMinimal}};
    if (ls.registerBudget)
      jl["register_budget"] = {{"bits", ls.registerBudget},
                               {"used", ls.registerBits},
                               {"met", ls.registerBudgetMet},
                               {"note", ls.registerBudgetNote}};
    jl["critical_recurrence"] = opsList(ls.problem, ls.mii.criticalCycle);
    jl["timing"] = timingJson(c, timingRow(c, ls.problem, ls.schedule));
    json fr = json::array();
    for (const ir::FpReduction& r : loop.fpReductions)
      fr.push_back(
          {{"phi", r.phi}, {"op", r.op}, {"chain_latency", r.chainLatency}, {"partial_sums", r.partials}});
    jl["float_sums"] = fr;
    jl["critical_resource_ops"] = opsList(ls.problem, ls.mii.criticalResourceOps);
    jl["max_concurrency"] = ls.maxConcurrency ? json(ls.maxConcurrency) : json(nullptr);
    jl["iteration_latency"] = ls.schedule.length;
    jl["stages"] = ls.schedule.stages();
    jl["cluster_kind"] = rtl::clusterModeName(hw.kind);
    jl["cluster_reason"] = hw.kindReason;
    json cl = json::array();
    for (const auto& cc : hw.clusters)
      cl.push_back({{"first_position", cc.firstStage}, {"last_position", cc.lastStage}, {"exit_fifo_depth", cc.exitFifoDepth}});
    jl["clusters"] = cl;
    json rf = json::array();
    for (const auto& [name, depth] : hw.responseFifos) rf.push_back({{"load", name}, {"depth", depth}});
    jl["response_fifos"] = rf;
    json counted = json::array();
    for (const auto& [name, at] : hw.counted)
      counted.push_back({{"value", name}, {"positions", at}});
    jl["values_held"] = {{"register_bits", hw.registerBits},
                         {"exit_fifo_bits", hw.exitFifoBits},
                         {"counter_bits", hw.counterBits},
                         {"counted", counted},
                         {"formed_again", hw.formedAgain}};
    json gates = json::array();
    for (const auto& g : hw.gates)
      gates.push_back({{"producer", g.producer},
                       {"consumer", g.consumer},
                       {"producer_position", g.producerPos},
                       {"cluster", g.toCluster},
                       {"distance", g.distance},
                       {"counted_at", g.countPos},
                       {"waits", g.waits}});
    jl["recurrence_gates"] = gates;
    json sf = json::array();
    for (const SideFifoRow& r : sideFifoRows(c, l))
      sf.push_back({{"op", r.op},
                    {"depth", r.depth},
                    {"start_position", r.start},
                    {"result_position", r.resultPos},
                    {"from_cluster", r.fromCluster},
                    {"to_cluster", r.toCluster}});
    jl["side_fifos"] = sf;
    json un = json::array();
    for (const auto& u : hw.units)
      un.push_back({{"op", u.op},
                    {"module", u.module.empty() ? json(nullptr) : json(u.module)},
                    {"latency", u.latency},
                    {"instance", u.instance}});
    jl["units"] = un;
    json ui = json::array();
    for (const auto& inst : hw.instances)
      ui.push_back({{"module", inst.module}, {"ops", inst.ops}, {"shared", inst.ops.size() > 1}});
    jl["unit_instances"] = ui;
    json ub = json::array();
    for (const UnitCount& u : unitCounts(hw))
      ub.push_back(
          {{"module", u.module}, {"instances", u.instances}, {"ops", u.ops}, {"shared_ops", u.sharedOps}});
    jl["units_built"] = ub;
    json ctl = json::array();
    for (const auto& r : loop.controls.requests)
      ctl.push_back({{"control", r.name}, {"value", r.value}, {"status", statusName(r.status)}, {"note", r.note}});
    jl["loop_controls"] = ctl;
    jl["speculated_iterations"] = ls.speculated;
    if (l < c.reinvocation.size()) jl["reinvocation_delay"] = reinvocationJson(c.reinvocation[l]);
    if (auto e = expectedCycles(loop, hw))
      jl["expected_cycles_per_invocation"] = {
          {"cycles", e->cycles}, {"trip_count", e->trips}, {"iterations", e->iterations}};
    jl["predicted_cycles"] = hw.predictable ? json{{"base", hw.cyclesBase},
                                                   {"per_iteration", hw.cyclesPerIteration},
                                                   {"burst", hw.burst},
                                                   {"burst_period", hw.burstPeriod}}
                                            : json(nullptr);
    if (const std::vector<std::string> tasks = queuesOf(k, c.rtl, l); !tasks.empty())
      jl["waits_for_tasks"] = tasks;
    if (!hw.predictable) {
      const std::string unmodelled = rtl::unmodelledReason(k, c.rtl, uint32_t(l));
      jl["no_closed_form_because"] = hw.unpredictedWhy;
      jl["cycle_model"] = unmodelled.empty();
      if (!unmodelled.empty()) jl["not_predicted_because"] = unmodelled;
    }
    loops.push_back(jl);
  }
  j["loops"] = loops;
  json fns = json::array();
  for (const ir::InlineDecision& d : k.inlining)
    fns.push_back({{"name", d.name},
                   {"location", d.loc.str()},
                   {"shared", d.shared},
                   {"call_sites", d.callSites},
                   {"instructions", d.instructions},
                   {"reason", d.reason}});
  j["functions"] = fns;
  j["inline_policy"] = k.inlinePolicy;
  json apx = json::array();
  for (const ir::Approximation& ap : k.approximations)
    apx.push_back({{"function", ap.function},
                   {"width", ap.width},
                   {"max_ulps", ap.maxUlps},
                   {"reference_ulps", ap.referenceUlps},
                   {"location", ap.loc.str()}});
  j["approximations"] = apx;
  json tr = json::array();
  for (const ir::LoopTransform& t : k.loopTransforms)
    tr.push_back({{"loop", t.loop}, {"location", t.loc.str()}, {"control", t.control}, {"what", t.what}});
  j["loop_transforms"] = tr;
  json blocks = json::array();
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    json jb = {{"name", k.blocks[b].name}, {"cycles", c.rtl.blockCycles[b]}};
    if (!k.blocks[b].notPipelinedReason.empty()) jb["loop_not_pipelined"] = k.blocks[b].notPipelinedReason;
    if (k.blocks[b].loopControls) {
      json ctl = json::array();
      for (const auto& r : k.blocks[b].loopControls->requests)
        ctl.push_back({{"control", r.name}, {"value", r.value}, {"status", statusName(r.status)}, {"note", r.note}});
      jb["loop_controls"] = ctl;
    }
    blocks.push_back(jb);
  }
  j["fsm_blocks"] = blocks;
  json tasks = json::array();
  for (uint32_t p = 1; p < k.processes.size(); ++p) {
    const ir::Process& pr = k.processes[p];
    const ir::Channel &inv = k.channels[pr.invocation], &res = k.channels[pr.result];
    json mems = json::array();
    for (uint32_t bm = 0; bm < pr.memoryMap.size(); ++bm) {
      json m;
      m["name"] = k.tasks[pr.body].memories[bm].name;
      m["kernel_memory"] = pr.memoryMap[bm] == ir::kNoMemory ? json(nullptr) : json(k.memories[pr.memoryMap[bm]].name);
      mems.push_back(m);
    }
    tasks.push_back({{"name", pr.name},
                     {"function", pr.function},
                     {"location", pr.loc.str()},
                     {"module", c.tasks.at(p - 1).rtl.moduleName},
                     {"instances", 1},
                     {"get_capacity", pr.getCapacity},
                     {"async_capacity", pr.asyncCapacity},
                     {"invocation_queue", {{"depth", rtl::taskQueueDepth(inv.depth)}, {"bits", inv.element.width()}}},
                     {"result_queue", {{"depth", rtl::taskQueueDepth(res.depth)}, {"bits", res.element.width()}}},
                     {"pipelined",
                      {{"requested", pr.pipelined},
                       {"overlapping_invocations", pr.served},
                       {"achieved_ii", servedII(c.tasks.at(p - 1), pr)},
                       {"note", pipelinedText(pr.pipelined, pr.notServed, servedII(c.tasks.at(p - 1), pr))}}},
                     {"cluster_mode", pr.clusterMode},
                     {"memories", mems},
                     {"report", reportJson(c.tasks.at(p - 1))}});
  }
  j["task_sequences"] = tasks;
  return j;
}

namespace {
std::string reportBody(const Compiled& c);

std::string tasksText(const Compiled& c) {
  const ir::Kernel& k = c.kernel;
  std::string s;
  for (uint32_t p = 1; p < k.processes.size(); ++p) {
    const ir::Process& pr = k.processes[p];
    const Compiled& t = c.tasks.at(p - 1);
    const ir::Channel &inv = k.channels[pr.invocation], &res = k.channels[pr.result];
    s += fmt::format("\ntask sequence {} ({}): task function {}, one instance: module {}\n", pr.name, pr.loc.str(),
                     pr.function, t.rtl.moduleName);
    s += fmt::format("  capacities:       GetCapacity {}, AsyncCapacity {}\n", pr.getCapacity, pr.asyncCapacity);
    s += fmt::format("  queues:           invocations: depth {} of {} bits; results: depth {} of {} bits{}\n",
                     rtl::taskQueueDepth(inv.depth), inv.element.width(), rtl::taskQueueDepth(res.depth),
                     res.element.width(), pr.resultType.isNone() ? " (completions of a void task)" : "");
    s += fmt::format("  Pipelined:        {}\n", pipelinedText(pr.pipelined, pr.notServed, servedII(t, pr)));
    s += fmt::format("  ClusterMode:      {}\n", clusterModeText(pr.clusterMode));
    for (uint32_t bm = 0; bm < pr.memoryMap.size(); ++bm)
      s += fmt::format("  memory:           {}\n", taskMemoryText(k, pr, bm));
    std::string body = reportBody(t);
    for (size_t at = 0; at < body.size();) { // the task's own report, indented
      const size_t end = body.find('\n', at);
      const std::string line = body.substr(at, end == std::string::npos ? std::string::npos : end - at);
      s += line.empty() ? "\n" : "  | " + line + "\n";
      if (end == std::string::npos) break;
      at = end + 1;
    }
  }
  return s;
}
} // namespace

std::string reportText(const Compiled& c) {
  const ir::Kernel& k = c.kernel;
  std::string s = fmt::format("spvhls report: kernel '{}' from {} -> module {}\n", k.name, c.inputPath, c.rtl.moduleName);
  s += fmt::format("target: {} at {:.4g} MHz, assumed memory latency {} cycles\n", c.target.name,
                   c.target.clockMHz, c.target.memLatency);
  s += "FSM timing: " + timingText(c, fsmTimingRow(c));
  s += reportBody(c);
  s += tasksText(c);
  for (const Diagnostic& w : c.warnings) s += w.str() + "\n";
  return s;
}

namespace {
// Everything about one kernel or task body between the header and the warnings.
std::string reportBody(const Compiled& c) {
  const ir::Kernel& k = c.kernel;
  std::string s;
  if (!k.registerLimit.empty())
    s += k.registerBudgetBits
             ? fmt::format(
                   "register limit: {}: a budget of {} bits (32 per register) for each pipelined loop's "
                   "pipeline registers\n",
                   k.registerLimit, k.registerBudgetBits)
             : fmt::format("register limit: {}: no budget\n", k.registerLimit);
  const std::string perIteration = k.subgroupLanes > 1
                                       ? fmt::format("a subgroup of {} (lanes side by side)", k.subgroupLanes)
                                       : std::string("one");
  if (k.ndRange && k.barrierLoops.empty())
    s += fmt::format(
        "ND-range: work-items stream through loop '{}', {} per iteration, work-groups in order; the "
        "sizes are arguments global_size_0..2, local_size_0..2, work_dim\n",
        k.workItemLoop, perIteration);
  else if (k.ndRange)
    s += fmt::format(
        "ND-range: work-groups run one after another in loop '{}', their work-items {} per "
        "iteration of the loops below; the sizes are arguments global_size_0..2, local_size_0..2, "
        "work_dim\n",
        k.workItemLoop, perIteration);
  if (k.ndRange && k.subgroupLanes > 1)
    s += fmt::format(
        "subgroup lanes: {} memory access(es) made once for the lanes (consecutive elements, lane 0's "
        "aligned to their width, as one wide access; one address under the lanes' predicates as one), "
        "{} once per lane\n",
        k.laneAccessesJoined, k.laneAccessesPerLane);
  if (k.ndRange && k.subgroupLanes > 1)
    for (const ir::LaneLogic& l : k.laneLogic)
      s += l.combine.empty()
               ? fmt::format("  {} ({} bits): {}\n", l.op, l.bits,
                             l.wired ? "wires (a constant lane)"
                                     : fmt::format("a crossbar: {} lanes each choosing 1 of {} values",
                                                   k.subgroupLanes, l.inputs))
               : fmt::format("  {} ({} bits): {}, a chain of {} steps in lane order\n", l.op, l.bits,
                             l.combine, l.inputs - 1);
  if (!k.barrierLoops.empty()) {
    std::string loops;
    for (const std::string& l : k.barrierLoops)
      loops += (loops.empty() ? "'" : ", '") + l + "'";
    s += fmt::format(
        "work-group barriers: the work-items run in {} loops, one per stretch between barriers ({}), each "
        "finishing the work-group before the next starts; one work-group in flight; values and private "
        "arrays kept across a barrier: {} bits per work-item, buffered for up to {} work-items\n",
        k.barrierLoops.size(), loops, k.barrierBufferBits, k.maxWorkGroupItems);
  }
  if (const auto& d = k.datapath; d.shifts + d.multiplications + d.divisions + d.hoisted + d.inductions +
                                  d.reusedLoads + d.droppedStores + d.mergedValues + d.forwardedLoads +
                                  d.knownBits + d.wideAccesses + d.foldedAdds)
    s += fmt::format(
        "datapath optimisations (--datapath-opt): {} shifts by constants as wires, {} multiplications "
        "by constants as shifts and adds, {} divisions or remainders by constants without a divider, {} "
        "loop-invariant values computed before their loop, {} induction-variable multiplications as "
        "additions, {} loads reusing the value an earlier access in their block read or wrote{}, {}{} "
        "loop-body values merged with an equal one (carried values included), {} loads taking the "
        "value the previous iteration stored, {} logic operations, additions or multiplications as wires "
        "or narrower (known bits), {} consecutive loads or stores of a loop body merged into {} wide "
        "accesses, {} additions of a constant to a sum with a constant made one addition\n",
        d.shifts, d.multiplications, d.divisions, d.hoisted, d.inductions, d.reusedLoads,
        k.volatileAccess ? " (none: the kernel has a volatile access)" : "",
        d.droppedStores ? fmt::format("{} stores to private arrays nothing reads dropped, ", d.droppedStores)
                        : "",
        d.mergedValues, d.forwardedLoads, d.knownBits, d.widenedAccesses, d.wideAccesses, d.foldedAdds);
  uint64_t onChipBytes = 0;
  const std::vector<MemoryRow> rows = memoryRows(c, onChipBytes);
  if (!rows.empty()) {
    s += fmt::format("\nmemories (on chip: {} of {} bytes of budget, --on-chip-budget)\n", onChipBytes,
                     k.onChipBudget);
    for (const MemoryRow& r : rows)
      s += fmt::format("  {:<20} {:<14} {:>10} bytes  {}{}{}{}\n", r.name, r.kind,
                       r.kind == std::string("argument") ? "-" : std::to_string(r.bytes), r.where,
                       r.portBits > 64 ? fmt::format(", {}-bit port", r.portBits) : "",
                       r.wordBytes ? fmt::format(", {}-bit words", 8 * r.wordBytes) : "",
                       r.persistent ? ", persistent" : "");
  }
  if (!k.inlining.empty()) {
    size_t shared = 0;
    for (const ir::InlineDecision& d : k.inlining)
      shared += d.shared;
    s += fmt::format("\nfunctions (--inline {}): {} shared as FSM subroutines, {} inlined\n", k.inlinePolicy,
                     shared, k.inlining.size() - shared);
    for (const ir::InlineDecision& d : k.inlining)
      s += fmt::format("  {:<20} {:<8} {:>4} call site(s) {:>7} instructions  {}\n", d.name,
                       d.shared ? "shared" : "inlined", d.callSites, d.instructions, d.reason);
  }
  if (!k.approximations.empty()) {
    s += "\napproximated functions (not bit-exact: the largest error against the correctly rounded result)\n";
    for (const ir::Approximation& ap : k.approximations)
      s += fmt::format("  {:<10} f{:<3} at most {} ulp  {}\n", ap.function, ap.width, ap.maxUlps,
                       ap.loc.str());
  }
  if (!k.loopTransforms.empty()) {
    s += "\nloop transformations (by loop controls, and loop fusion)\n";
    for (const ir::LoopTransform& t : k.loopTransforms)
      s += fmt::format("  loop '{}' ({}): {}: {}\n", t.loop, t.loc.str(), t.control, t.what);
  }
  const std::vector<int> callers = ir::loopCallers(k.loops);
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const ir::Loop& loop = k.loops[l];
    const sched::LoopSchedule& ls = c.schedule.loops[l];
    const rtl::LoopHardware& hw = c.rtl.loops[l];
    s += fmt::format("\nloop '{}' ({}), depth {}\n", loop.name, loop.loc.str(), loop.depth);
    s += fmt::format("  pipelined:        {}\n",
                     ls.pipelined ? "yes" : "no (PipelineEnableINTEL 0: one iteration at a time)");
    for (const ir::Op& op : loop.ops)
      if (op.kind == ir::OpKind::LoopCall)
        s += fmt::format(
            "  sub-pipeline:     loop '{}' runs inside this pipeline, its results expected {} cycles after "
            "the call (the pipeline waits when they come later)\n",
            k.loops[op.index].name, op.imm);
    if (const int by = callers[l]; by >= 0)
      s += fmt::format("  run by:           the pipeline of loop '{}' (a sub-pipeline of it{})\n",
                       k.loops[size_t(by)].name,
                       loop.copies > 1 ? fmt::format("; {} copies, taking its calls in turn", loop.copies)
                                       : "");
    if (k.subgroupLanes > 1 && callers[l] >= 0)
      s += loop.laneMasked
               ? fmt::format("  lanes:            {} side by side, masked: they may leave at different "
                             "iterations or some skip the loop; it runs while some lane does, each lane's "
                             "accesses under its own mask\n",
                             k.subgroupLanes)
               : fmt::format(
                     "  lanes:            {} side by side, together (one trip count for the subgroup)\n",
                     k.subgroupLanes);
    s += fmt::format("  II:               achieved {}, requested {}, MII {} (ResMII {}, RecMII {})\n", ls.schedule.ii,
                     ls.requestedII ? std::to_string(ls.requestedII) : "-", ls.mii.mii(), ls.mii.resMII, ls.mii.recMII);
    s += fmt::format("  limited by:       {}\n", ls.limitingReason);
    s += fmt::format("  schedule:         {} scheduler; II {}; {} register bits{}\n", ls.method,
                     ls.iiProof == "requested" ? "as requested"
                     : ls.iiProvenMinimal      ? "proven minimal (" + ls.iiProof + ")"
                                               : "not proven minimal (" + ls.iiProof + ")",
                     ls.registerBits, ls.registersProvenMinimal ? " (proven minimal at this II)" : "");
    if (ls.registerBudget) s += fmt::format("  register budget:  {}\n", ls.registerBudgetNote);
    for (const ir::FpReduction& r : loop.fpReductions) {
      if (r.partials)
        s += fmt::format(
            "  reassociated:     float sum {} ({}) kept as {} partial sums, added up after the loop "
            "(--fp-reassociate; rounds differently from the source order)\n",
            r.phi, r.op, r.partials);
      else if (r.chainLatency > 1 && ls.mii.recMII >= r.chainLatency && ls.pipelined)
        s += fmt::format(
            "  try:              --fp-reassociate: the float sum {} runs through {} (RecMII {}); {} "
            "partial sums would make that recurrence's RecMII 1 (results then round differently)\n",
            r.phi, r.op, r.chainLatency, r.chainLatency);
    }
    if (ls.maxConcurrency) s += fmt::format("  max concurrency:  {}\n", ls.maxConcurrency);
    if (loop.endless())
      s += "  speculated:       none: the loop never exits (it serves a task's invocations, one per iteration, "
           "and starts one only when one is queued)\n";
    else
      s += fmt::format("  speculated:       {} iteration(s) start before an iteration's exit condition is known "
                       "({})\n",
                       ls.speculated,
                       loop.controls.speculatedIterations
                           ? fmt::format("SpeculatedIterationsINTEL {}", *loop.controls.speculatedIterations)
                           : std::string("chosen by the scheduler; squashed when the loop exits"));
    s += fmt::format("  latency:          {} cycles per iteration, {} stages\n", ls.schedule.length, ls.schedule.stages());
    s += "  timing:           " + timingText(c, timingRow(c, ls.problem, ls.schedule));
    s += fmt::format("  clusters:         {} ({})\n", rtl::clusterModeName(hw.kind), hw.kindReason);
    for (const auto& cc : hw.clusters)
      s += fmt::format("    positions {}..{}{}\n", cc.firstStage, cc.lastStage,
                       cc.exitFifoDepth ? fmt::format(", exit FIFO depth {}", cc.exitFifoDepth) : "");
    for (const auto& g : hw.gates)
      s += fmt::format("    recurrence gate: {} reads {} from {} iteration(s) back, complete at position {}: "
                       "cluster {} (counted from 0) admits an iteration only once that one has passed "
                       "position {}{}\n",
                       g.consumer, g.producer, g.distance, g.producerPos, g.toCluster, g.countPos,
                       g.waits ? " (it waits even at the assumed memory latency)"
                               : " (at the assumed memory latency it never waits)");
    for (const auto& [name, depth] : hw.responseFifos)
      s += name.starts_with("LoopCall")
               ? fmt::format("    inner loop {}: a sub-pipeline; its results wait in a FIFO of depth {}\n",
                             name.substr(9), depth)
               : fmt::format("    load {}: response FIFO depth {}\n", name, depth);
    for (const SideFifoRow& r : sideFifoRows(c, l))
      s += fmt::format(
          "    unit {}: side FIFO depth {} (positions {}..{}, from cluster {} to {}, counted from 0)\n", r.op,
          r.depth, r.start, r.resultPos, r.fromCluster, r.toCluster);
    s += fmt::format("  values held:      {} bits in position registers, {} in exit FIFO entries, {} in "
                     "counters\n",
                     hw.registerBits, hw.exitFifoBits, hw.counterBits);
    for (const auto& [name, at] : hw.counted)
      s += fmt::format("    {} counted at position(s) {}: an induction variable, stepped by each iteration "
                       "passing, instead of carried\n",
                       name, fmt::join(at, ", "));
    if (!hw.formedAgain.empty())
      s += fmt::format("    formed again where read, from an operand carried instead: {}\n",
                       fmt::join(hw.formedAgain, ", "));
    for (const auto& u : hw.units)
      s += fmt::format(
          "  unit:             {}: pipelined instance of {}, latency {}{}\n", u.op, u.module, u.latency,
          hw.instances[u.instance].ops.size() > 1 ? fmt::format(", shares instance {}", u.instance) : "");
    for (const UnitCount& u : unitCounts(hw))
      s +=
          fmt::format("  units built:      {}: {} instance(s) for {} operation(s){}\n", u.module, u.instances,
                      u.ops, u.sharedOps ? fmt::format(", {} of them on shared instances", u.sharedOps) : "");
    if (loop.controls.requests.empty()) s += "  loop controls:    none\n";
    for (const auto& r : loop.controls.requests)
      s += fmt::format("  loop control:     {} {}: {}{}\n", r.name, r.value, statusName(r.status),
                       r.note.empty() ? "" : " (" + r.note + ")");
    if (loop.endless())
      s += fmt::format("  predicted cycles: none (it never ends); an invocation's result is pushed {} cycles after "
                       "its pop (fixed memory latency {}, no back-pressure)\n",
                       pushCycle(loop, ls), c.target.memLatency);
    else if (hw.predictable && hw.burst)
      s += fmt::format(
          "  predicted cycles: {} + {} x floor((n-1) / {}) + {} x ((n-1) mod {}) per call of n "
          "iterations (MaxConcurrencyINTEL {}: bursts of {}; fixed memory latency {}, no back-pressure)\n",
          hw.cyclesBase + hw.cyclesPerIteration, hw.burstPeriod, hw.burst, hw.cyclesPerIteration, hw.burst,
          hw.burst, hw.burst, c.target.memLatency);
    else if (const std::vector<std::string> tasks = queuesOf(k, c.rtl, l); hw.predictable && !tasks.empty())
      s += fmt::format(
          "  predicted cycles: {} + {} x iterations while the queues of {} take every request, else per "
          "run, by stepping the loop with its tasks (`spvhls sim --check-cycles`; a top-tested loop "
          "runs trip count + 1 iterations; fixed memory latency {}, no back-pressure)\n",
          hw.cyclesBase, hw.cyclesPerIteration, fmt::join(tasks, ", "), c.target.memLatency);
    else if (hw.predictable)
      s += fmt::format("  predicted cycles: {} + {} x iterations (a top-tested loop runs trip count + 1 iterations; "
                       "fixed memory latency {}, no back-pressure)\n",
                       hw.cyclesBase, hw.cyclesPerIteration, c.target.memLatency);
    else if (const std::string unmodelled = rtl::unmodelledReason(k, c.rtl, uint32_t(l)); unmodelled.empty())
      s += fmt::format("  predicted cycles: per run, by stepping the hardware cycle by cycle (`spvhls sim "
                       "--check-cycles`; no closed form: {})\n",
                       hw.unpredictedWhy);
    else
      s += fmt::format("  predicted cycles: not predicted ({}; {})\n", hw.unpredictedWhy, unmodelled);
    if (l < c.reinvocation.size()) s += "  reinvocation:     " + reinvocationText(c.reinvocation[l]) + "\n";
    if (auto e = expectedCycles(loop, hw))
      s += fmt::format("  expected cycles:  {} per invocation (LoopCountINTEL {} {}: {} iterations)\n",
                       e->cycles, loop.controls.loopCountAvg ? "avg" : "max", e->trips, e->iterations);
  }
  s += fmt::format("\nFSM: {} blocks\n", k.blocks.size());
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    s += fmt::format("  {:<24} {} cycle(s){}\n", k.blocks[b].name, c.rtl.blockCycles[b],
                     k.blocks[b].loopCall ? fmt::format(" + loop '{}'", k.loops[*k.blocks[b].loopCall].name) : "");
    if (!k.blocks[b].notPipelinedReason.empty())
      s += fmt::format("    loop not pipelined: {}\n", k.blocks[b].notPipelinedReason);
  }
  return s;
}
} // namespace

} // namespace spvhls::driver
