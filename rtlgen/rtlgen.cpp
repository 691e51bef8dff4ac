#include "rtlgen/rtlgen.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "rtlgen/loop_gen.h"
#include "rtlgen/loop_plan.h"
#include "rtlgen/pipeline_timing.h"
#include "rtlgen/plan.h"
#include "rtlgen/ram_gen.h"
#include "rtlgen/top_gen.h"
#include "rtlgen/units/divider.h"
#include "rtlgen/units/fp_add.h"
#include "rtlgen/units/fp_convert.h"
#include "rtlgen/units/fp_div.h"
#include "rtlgen/units/fp_fma.h"
#include "rtlgen/units/fp_mul.h"
#include "rtlgen/units/multiplier.h"
#include "rtlgen/verilog_printer.h"
#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

const char* clusterModeName(ClusterMode m) {
  switch (m) {
  case ClusterMode::Auto: return "auto";
  case ClusterMode::StallFree: return "stall-free";
  case ClusterMode::StallEnable: return "stall-enable";
  }
  return "?";
}

std::string sanitize(const std::string& name) {
  // Verilog-2005 and SystemVerilog keywords, and the names of the module's own ports.
  static const std::set<std::string> reserved = {
      "always", "and", "assign", "automatic", "begin", "buf", "bufif0", "bufif1", "case", "casex", "casez",
      "cell", "cmos", "config", "deassign", "default", "defparam", "design", "disable", "edge", "else",
      "end", "endcase", "endconfig", "endfunction", "endgenerate", "endmodule", "endprimitive", "endspecify",
      "endtable", "endtask", "event", "for", "force", "forever", "fork", "function", "generate", "genvar",
      "highz0", "highz1", "if", "ifnone", "incdir", "include", "initial", "inout", "input", "instance",
      "integer", "join", "large", "liblist", "library", "localparam", "macromodule", "medium", "module",
      "nand", "negedge", "nmos", "nor", "noshowcancelled", "not", "notif0", "notif1", "or", "output",
      "parameter", "pmos", "posedge", "primitive", "pull0", "pull1", "pulldown", "pullup",
      "pulsestyle_ondetect", "pulsestyle_onevent", "rcmos", "real", "realtime", "reg", "release", "repeat",
      "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "scalared", "showcancelled", "signed", "small",
      "specify", "specparam", "strong0", "strong1", "supply0", "supply1", "table", "task", "time", "tran",
      "tranif0", "tranif1", "tri", "tri0", "tri1", "triand", "trior", "trireg", "unsigned", "use", "uwire",
      "vectored", "wait", "wand", "weak0", "weak1", "while", "wire", "wor", "xnor", "xor", "alias",
      "always_comb", "always_ff", "always_latch", "assert", "assume", "before", "bind", "bins", "binsof",
      "bit", "break", "byte", "chandle", "checker", "class", "clocking", "const", "constraint", "context",
      "continue", "cover", "covergroup", "coverpoint", "cross", "deassign", "dist", "do", "endchecker",
      "endclass", "endclocking", "endgroup", "endinterface", "endpackage", "endprogram", "endproperty",
      "endsequence", "enum", "eventually", "expect", "export", "extends", "extern", "final", "first_match",
      "foreach", "forkjoin", "global", "iff", "ignore_bins", "illegal_bins", "implements", "implies",
      "import", "inside", "int", "interconnect", "interface", "intersect", "join_any", "join_none", "let",
      "local", "logic", "longint", "matches", "modport", "nettype", "new", "nexttime", "null", "package",
      "packed", "priority", "program", "property", "protected", "pure", "rand", "randc", "randcase",
      "randsequence", "ref", "reject_on", "restrict", "return", "s_always", "s_eventually", "s_nexttime",
      "s_until", "s_until_with", "sequence", "shortint", "shortreal", "soft", "solve", "static", "string",
      "strong", "struct", "super", "sync_accept_on", "sync_reject_on", "tagged", "this", "throughout",
      "timeprecision", "timeunit", "type", "typedef", "union", "unique", "unique0", "until", "until_with",
      "untyped", "var", "virtual", "void", "wait_order", "weak", "wildcard", "with", "within", "clk", "rst",
      "start", "busy", "done"};
  // Other characters become '_', and runs of '_' one: names go into ports and signals as
  // mem_<name>_req_valid, and Verilator mangles "__" (a name "start" once became mem_start__req_addr).
  // No leading or trailing '_' either, for the same reason.
  std::string s;
  for (char c : name) {
    const char d = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (d != '_' || (!s.empty() && s.back() != '_')) s += d;
  }
  while (!s.empty() && s.back() == '_') s.pop_back();
  if (s.empty()) return "k";
  if (std::isdigit(static_cast<unsigned char>(s[0]))) s = "k_" + s;
  if (reserved.count(s)) s += "_k";
  return s;
}

// The module of the operator unit an operation runs on (rtlgen/units/). A new unit kind is one more
// case here.
static nl::Module buildUnitModule(const ir::Op& op, const std::string& name,
                                  const sched::OperatorLibrary& lib) {
  if (isDivider(op.kind)) return buildDividerUnit(op.kind, op.width());
  using K = ir::OpKind;
  if (op.kind == K::Mul) return buildMultiplierUnit(op.width(), lib.latency(op) - 1);
  auto format = [](uint64_t w) { return w == 16 ? kF16 : w == 32 ? kF32 : kF64; };
  const FpFormat f = format(op.width());
  const uint32_t latency = lib.latency(op), ranks = latency - 1; // the unit's ranks + 1
  // Where the unit's timing is its own, it must be the library's, which the schedule assumed.
  auto expect = [&](uint32_t unitLatency) {
    if (unitLatency != latency)
      throw InternalError(
          op.loc, "unit " + name,
          fmt::format("the unit takes {} cycles, the operator library says {}", unitLatency, latency));
  };
  switch (op.kind) {
  case K::FAdd:
  case K::FSub:
    return buildFpAddUnit(name, f, op.kind == K::FSub, ranks);
  case K::FMul:
    return buildFpMulUnit(name, f, ranks);
  case K::FFma:
    expect(fpFmaLatency(f, ranks)); // throws when the library asks for more ranks than the unit has
    return buildFpFmaUnit(name, f, ranks);
  case K::FDiv:
    expect(fpDivLatency(f));
    return buildFpDivUnit(name, f);
  case K::FSqrt:
    expect(fpSqrtLatency(f));
    return buildFpSqrtUnit(name, f);
  case K::SIToFP:
  case K::UIToFP:
    expect(fpConvertLatency());
    return buildIntToFpUnit(name, uint32_t(op.imm), op.kind == K::SIToFP, f, FpRounding(op.rounding));
  case K::FPToSI:
  case K::FPToUI: // saturating: the IR's semantics (ir/ops.def)
    expect(fpConvertLatency());
    return buildFpToIntUnit(name, format(op.imm), op.width(), op.kind == K::FPToSI, true);
  case K::FPToFP:
    expect(fpConvertLatency());
    return buildFpToFpUnit(name, format(op.imm), f, FpRounding(op.rounding));
  default:
    break;
  }
  throw InternalError(op.loc, "unit " + name, fmt::format("no generator for a unit of {}", ir::opKindName(op.kind)));
}

TaskInstance taskInstance(const ir::Kernel& body, const RtlResult& bodyRtl) {
  TaskInstance t;
  t.module = bodyRtl.moduleName;
  for (size_t i = 0; i < body.args.size(); ++i) {
    const ir::KernelArg& a = body.args[i];
    t.argPorts.push_back((a.isPointer ? "mem_" : "arg_") + bodyRtl.argNames.at(i));
    t.argBits.push_back(a.isPointer ? 64 : a.width());
  }
  for (size_t m = 0; m < body.memories.size(); ++m) {
    const ir::Memory& mem = body.memories[m];
    t.memoryPorts.push_back(mem.kind == ir::Memory::Kind::Argument ? "mem_" + bodyRtl.argNames.at(mem.argIndex)
                            : mem.isPort()                         ? "mem_" + bodyRtl.externalNames.at(m)
                                                                   : "");
    if (mem.ownQueue()) (mem.queueResults ? t.resultQueue : t.invocationQueue) = int(m);
    t.memoryBits.push_back(mem.wordBits);
  }
  t.resultBits = body.result.width();
  return t;
}

namespace {

// Responses loop `l` (with its inner loops) can have outstanding on memory port m (ir::portKey): each
// load's response FIFO bounds its reads in flight.
uint64_t outstandingReads(const ir::Kernel& k, const KernelPlan& kp, uint32_t l, uint32_t m) {
  uint64_t n = 0;
  const ir::Loop& loop = k.loops[l];
  for (size_t v = 0; v < loop.ops.size(); ++v) {
    const ir::Op& op = loop.ops[v];
    if (op.kind == ir::OpKind::Load && ir::portKey(k.memories, op) == m) n += kp.loops[l].respFifoDepth[v];
    if (op.kind == ir::OpKind::LoopCall) n += outstandingReads(k, kp, op.index, m);
  }
  return n;
}

// The inner loops loop `l` runs, by LoopCall op.
std::map<ir::ValueId, SubPipeline> subPipelinesOf(const ir::Kernel& k, const KernelPlan& kp, uint32_t l,
                                                  const std::vector<std::string>& moduleNames) {
  std::map<ir::ValueId, SubPipeline> subs;
  const ir::Loop& loop = k.loops[l];
  for (ir::ValueId v = 0; v < loop.ops.size(); ++v) {
    const ir::Op& op = loop.ops[v];
    if (op.kind != ir::OpKind::LoopCall) continue;
    SubPipeline sp{moduleNames.at(op.index), &k.loops[op.index], &kp.loops[op.index], {}};
    for (uint32_t m : sp.plan->loadMemories)
      sp.outstanding[m] = outstandingReads(k, kp, op.index, m);
    subs[v] = sp;
  }
  return subs;
}

} // namespace

RtlResult generateVerilog(const ir::Kernel& k, const sched::KernelSchedule& s, const KernelPlan& kp,
                          bool keepNetlists, const std::vector<TaskInstance>& tasks, const std::string& moduleName) {
  if (kp.loops.size() != k.loops.size() || kp.fsm.blockCycles.size() != k.blocks.size())
    throw InternalError(k.loc, "kernel " + k.name, "generateVerilog: the plan is not this kernel's");
  if (!k.tasks.empty() && tasks.size() != k.processes.size())
    throw InternalError(k.loc, "kernel " + k.name, "generateVerilog: no instance for every task process");
  RtlResult r;
  r.moduleName = moduleName.empty() ? sanitize(k.name) : moduleName;
  TopInputs in;
  in.tasks = tasks;
  in.moduleName = r.moduleName;
  in.plan = &kp;
  std::set<std::string> used;
  for (size_t i = 0; i < k.args.size(); ++i) {
    std::string n = sanitize(k.args[i].name.empty() ? fmt::format("arg{}", i) : k.args[i].name);
    while (used.count(n)) n += fmt::format("_{}", i);
    used.insert(n);
    in.argNames.push_back(n);
  }
  r.argNames = in.argNames;
  for (const ir::Memory& mem : k.memories) {
    std::string n;
    if (mem.kind == ir::Memory::Kind::External || mem.ownQueue()) {
      n = sanitize("ext_" + mem.name);
      for (int i = 1; used.count(n); ++i)
        n = sanitize(fmt::format("ext_{}_{}", mem.name, i));
      used.insert(n);
    }
    in.externalNames.push_back(n);
  }
  r.externalNames = in.externalNames;
  // Each module is printed as soon as it is built and its netlist dropped (unless kept). The top
  // goes first: it reads the loops' ports from the plan, and its netlist is the largest, best built
  // while no other module's text is held yet.
  const sched::OperatorLibrary lib(kp.target); // for the report: which operations are unit operations
  std::vector<std::pair<std::string, std::string>> loopFiles, ramFiles;
  std::vector<nl::Module> topModule, loopModules, ramModules, unitModules;
  auto print = [&](nl::Module&& m, std::vector<std::pair<std::string, std::string>>& files,
                   std::vector<nl::Module>& kept) {
    files.emplace_back(m.name + ".v", printVerilog(m));
    if (keepNetlists) kept.push_back(std::move(m));
  };
  for (size_t l = 0; l < k.loops.size(); ++l)
    in.loopModuleNames.push_back(fmt::format("{}_loop{}", r.moduleName, l));
  for (size_t m = 0; m < k.memories.size(); ++m)
    in.ramModuleNames.push_back(k.memories[m].onChip() ? fmt::format("{}_ram{}", r.moduleName, m) : "");
  r.blockCycles = kp.fsm.blockCycles;
  r.formCycle = kp.fsm.formCycle;
  r.ramModules = in.ramModuleNames;
  r.ramWordBytes = ramWordBytes(k);
  print(generateTopModule(k, s, in), r.files, topModule);
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const ir::Loop& loop = k.loops[l];
    const LoopPlan& plan = kp.loops[l];
    print(generateLoopModule(loop, plan, k.memories, in.loopModuleNames[l],
                             subPipelinesOf(k, kp, uint32_t(l), in.loopModuleNames)),
          loopFiles, loopModules);
    LoopHardware hw;
    hw.loop = uint32_t(l);
    hw.kind = plan.kind;
    hw.kindReason = plan.kindReason;
    if (!plan.gates.empty())
      hw.kindReason += fmt::format("; {} recurrence gate(s): a later cluster produces a value an earlier one "
                                   "reads, so admission waits for it",
                                   plan.gates.size());
    for (size_t j = 0; j < plan.cuts.size(); ++j) {
      LoopHardware::Cluster c;
      c.firstStage = plan.cuts[j];
      c.lastStage = j + 1 < plan.cuts.size() ? plan.cuts[j + 1] - 1 : plan.F - 1;
      c.exitFifoDepth = j < plan.exitFifoDepth.size() ? uint32_t(plan.exitFifoDepth[j]) : 0;
      hw.clusters.push_back(c);
    }
    for (size_t i = 0; i < loop.ops.size(); ++i)
      if (lib.unit(loop.ops[i]).build == sched::UnitBuild::Instance)
        hw.units.push_back({s.loops[l].problem.ops[i].name, plan.unitModule[i],
                            s.loops[l].problem.ops[i].latency, uint32_t(plan.instanceOf[i])});
    for (const UnitInstance& inst : plan.instances) {
      LoopHardware::UnitInstanceUse& use = hw.instances.emplace_back();
      use.module = inst.module;
      for (uint32_t v : inst.ops)
        use.ops.push_back(s.loops[l].problem.ops[v].name);
    }
    for (const CarryGate& g : plan.gates)
      hw.gates.push_back({s.loops[l].problem.ops[g.from].name, s.loops[l].problem.ops[g.to].name, g.fromPos,
                          g.toCluster, g.distance, g.countPos, g.waits});
    for (size_t i = 0; i < loop.ops.size(); ++i)
      if (plan.respFifoDepth[i])
        hw.responseFifos.emplace_back(s.loops[l].problem.ops[i].name, uint32_t(plan.respFifoDepth[i]));
    const LoopPlan::ValueBits bits = plan.valueBits(loop);
    hw.registerBits = bits.registers, hw.exitFifoBits = bits.exitFifos, hw.counterBits = bits.counters;
    for (size_t i = 0; i < loop.ops.size(); ++i) {
      if (!plan.counters[i].empty())
        hw.counted.emplace_back(s.loops[l].problem.ops[i].name, plan.counters[i]);
      if (plan.rematerialized[i]) hw.formedAgain.push_back(s.loops[l].problem.ops[i].name);
    }
    hw.cyclesBase = plan.predictBase;
    hw.cyclesPerIteration = plan.predictPeriod;
    hw.predictable = plan.predictable;
    if (!plan.predictable)
      hw.unpredictedWhy =
          plan.subPipelines
              ? "it runs inner loops as sub-pipelines: the outer pipeline waits for each call, whose "
                "cycles depend on its trip count and on the calls before it"
              : "a recurrence gate between stall-free clusters holds iterations back even at the "
                "assumed memory latency";
    hw.burst = plan.predictBurst;
    hw.burstPeriod = plan.predictBurstPeriod;
    hw.drainAfterLastLaunch = plan.predictDrain;
    hw.model = pipelineModel(k, uint32_t(l), plan);
    r.loops.push_back(hw);
  }
  const std::vector<uint32_t> narrowest = ramNarrowestBytes(k);
  for (size_t m = 0; m < k.memories.size(); ++m)
    if (k.memories[m].onChip())
      print(buildRamModule(k.memories[m], r.ramWordBytes[m], in.ramModuleNames[m], narrowest[m]), ramFiles,
            ramModules);
  for (auto& f : ramFiles) r.files.push_back(std::move(f));
  for (auto& f : loopFiles) r.files.push_back(std::move(f));
  // Operator units: one module each, however many instances use it.
  std::map<std::string, const ir::Op*> units;
  for (size_t v = 0; v < k.ops.size(); ++v)
    if (!kp.fsm.unitModule[v].empty()) units.emplace(kp.fsm.unitModule[v], &k.ops[v]);
  for (size_t l = 0; l < k.loops.size(); ++l)
    for (size_t v = 0; v < k.loops[l].ops.size(); ++v)
      if (!kp.loops[l].unitModule[v].empty()) units.emplace(kp.loops[l].unitModule[v], &k.loops[l].ops[v]);
  for (const auto& [name, op] : units) {
    nl::Module m = buildUnitModule(*op, name, sched::OperatorLibrary(kp.target));
    if (m.name != name)
      throw InternalError(op->loc, "unit " + name, "the unit's generator names its module " + m.name);
    print(std::move(m), r.files, unitModules);
  }
  for (auto* group : {&topModule, &ramModules, &loopModules, &unitModules})
    for (auto& m : *group) r.modules.push_back(std::move(m));
  return r;
}

int64_t loopCallCycles(const LoopHardware& hw, uint64_t n) {
  if (!hw.burst) return hw.cyclesBase + hw.cyclesPerIteration * int64_t(n);
  n = std::max<uint64_t>(n, 1); // every call runs its first iteration
  return hw.cyclesBase + hw.cyclesPerIteration + int64_t((n - 1) / hw.burst) * hw.burstPeriod +
         int64_t((n - 1) % hw.burst) * hw.cyclesPerIteration;
}

std::optional<uint64_t> predictCycles(const ir::Kernel& k, const RtlResult& r, const ir::EvalResult& profile,
                                      std::string& why) {
  const std::vector<uint64_t>& blockCounts = profile.blockCounts;
  const std::vector<uint64_t>& loopIterations = profile.loopIterations;
  const std::vector<std::vector<uint64_t>>& callIterations = profile.loopCallIterations;
  if (blockCounts.size() != k.blocks.size() || loopIterations.size() != k.loops.size())
    throw InternalError(k.loc, "kernel " + k.name, "predictCycles: the profile is not this kernel's");
  if (!k.tasks.empty()) // their waits are not in the block counts: rtl::predictTaskCycles replays them
    throw InternalError(k.loc, "kernel " + k.name, "predictCycles: a kernel with task sequences");
  uint64_t total = 1; // the start cycle
  std::unique_ptr<PipelineTiming> pipelines; // outer pipelines' cycle model, made when one is called
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    const ir::BasicBlock& bb = k.blocks[b];
    const uint64_t execs = blockCounts[b];
    if (bb.loopCall) {
      const LoopHardware& hw = r.loops[*bb.loopCall];
      if (!hw.predictable) { // no closed form: stepped through the run
        if (!pipelines) pipelines = std::make_unique<PipelineTiming>(k, r, profile);
        for (size_t call = 0; call < callIterations.at(*bb.loopCall).size(); ++call) {
          const std::optional<int64_t> cycles = pipelines->callCycles(*bb.loopCall, why);
          if (!cycles) return std::nullopt; // `why` names the loop
          total += uint64_t(*cycles);
        }
      } else if (hw.burst) {
        if (*bb.loopCall >= callIterations.size()) {
          why =
              fmt::format("loop {} issues in bursts (MaxConcurrencyINTEL): the prediction needs each call's "
                          "iterations",
                          k.loops[*bb.loopCall].name);
          return std::nullopt;
        }
        for (uint64_t n : callIterations[*bb.loopCall])
          total += uint64_t(loopCallCycles(hw, n));
      } else {
        total += uint64_t(int64_t(execs) * hw.cyclesBase +
                          hw.cyclesPerIteration * int64_t(loopIterations[*bb.loopCall]));
      }
    }
    total += execs * r.blockCycles[b];
  }
  return total;
}

} // namespace spvhls::rtl
