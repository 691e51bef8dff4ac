// Scheduling a whole kernel: the II of every pipelined loop (with the user's InitiationIntervalINTEL
// request checked against the MII), its modulo schedule, and a list schedule for every CFG block.
#include <fmt/format.h>

#include <algorithm>

#include "scheduler/kernel_schedule.h"

namespace spvhls::sched {
namespace {

// "LoopPhi %sum -> Add %add (lat 1) -> %sum": the critical recurrence, with its totals.
struct Recurrence {
  std::string path;
  int64_t latency = 0;
  uint64_t distance = 0;
};

Recurrence describeRecurrence(const ir::Loop& loop, const Problem& p, const MIIResult& m) {
  Recurrence r;
  const auto& cyc = m.criticalCycle;
  for (size_t k = 0; k < cyc.size(); ++k) {
    const Dependence& d = p.deps[m.criticalCycleDeps[k]];
    r.path += opLabel(loop.ops[cyc[k]], cyc[k]);
    if (d.latency != 0) r.path += fmt::format(" (lat {})", d.latency);
    r.path += " -> ";
    r.latency += d.latency;
    r.distance += d.distance;
  }
  if (!cyc.empty()) r.path += valueName(loop.ops[cyc[0]], cyc[0]);
  return r;
}

std::string resourceUsers(const ir::Loop& loop, const MIIResult& m) {
  std::string s;
  for (uint32_t op : m.criticalResourceOps) s += (s.empty() ? "" : ", ") + opLabel(loop.ops[op], op);
  return s;
}

// What would give the critical resource more ports, when it is an on-chip RAM's (empty otherwise).
std::string portAdvice(const ir::Kernel& k, const MIIResult& m) {
  if (m.criticalResource < 0) return "";
  const auto key = static_cast<uint32_t>(m.criticalResource);
  const uint32_t mem = ir::portMemory(k.memories, key);
  if (mem >= k.memories.size() || !k.memories[mem].onChip()) return "";
  uint32_t reads = 0;
  ir::PortAccess access = ir::PortAccess::ReadWrite;
  for (const ir::MemoryPort& port : k.memories[mem].ports) {
    reads += port.access == ir::PortAccess::Read;
    if (port.key == key) access = port.access;
  }
  if (access == ir::PortAccess::ReadWrite)
    return " (one port for loads and stores: --ram-ports 2 gives the RAM a read port and a write port, "
           "unless a task process shares it)";
  if (access == ir::PortAccess::Read)
    return fmt::format(" ({} read port(s), each a copy of the RAM: --ram-read-ports N allows up to N, within "
                       "the on-chip budget)",
                       reads);
  return "";
}

// What sets the MII, for LoopSchedule::limitingReason.
std::string miiReason(const ir::Kernel& k, const ir::Loop& loop, const Problem& p, const MIIResult& m) {
  std::vector<std::string> parts;
  if (!m.criticalCycle.empty() && m.recMII >= m.resMII) {
    Recurrence r = describeRecurrence(loop, p, m);
    parts.push_back(fmt::format("recurrence: {}, distance {}: RecMII {}", r.path, r.distance, m.recMII));
  }
  if (m.criticalResource >= 0 && m.resMII >= m.recMII) {
    const Resource& res = p.resources[m.criticalResource];
    size_t uses = m.criticalResourceOps.size();
    parts.push_back(fmt::format("resource: memory port '{}': {} access{} ({}) at {} per cycle: ResMII {}{}",
                                res.name, uses, uses == 1 ? "" : "es", resourceUsers(loop, m), res.limit,
                                m.resMII, uses > 1 ? portAdvice(k, m) : ""));
  }
  if (parts.empty()) return "none: no recurrence and no shared resource; II 1 is the minimum";
  return fmt::format("{}", fmt::join(parts, "; "));
}

// Why II `ii` is impossible, naming the recurrence or resource behind the MII.
std::string whyNot(const ir::Kernel& k, const ir::Loop& loop, const Problem& p, const MIIResult& m,
                   uint32_t ii) {
  if (m.recMII > ii && !m.criticalCycle.empty()) {
    Recurrence r = describeRecurrence(loop, p, m);
    return fmt::format("recurrence {} needs II >= {} (latency {} over distance {})", r.path, m.recMII, r.latency,
                       r.distance);
  }
  if (m.resMII > ii && m.criticalResource >= 0) {
    const Resource& res = p.resources[m.criticalResource];
    return fmt::format(
        "memory port '{}' has {} accesses per iteration ({}) at {} per cycle, which needs II >= {}{}",
        res.name, m.criticalResourceOps.size(), resourceUsers(loop, m), res.limit, m.resMII,
        portAdvice(k, m));
  }
  return fmt::format("the modulo scheduler found no schedule at II {} (MII {})", ii, m.mii());
}

// IIs above the one found that a register budget may take, when the II is the compiler's choice.
constexpr uint32_t kBudgetExtraIIs = 4;

// SPV_INTEL_maximum_registers: the loop's pipeline register bits within `budget`. First the fewest bits
// at the II found (the exact method: values placed next to their readers, which may lengthen the
// iteration), then, unless the II was requested, at the next IIs (a larger II lets operations that
// compete for a port sit closer). When nothing meets the budget the II stays, with the fewest bits
// found at it.
void meetRegisterBudget(LoopSchedule& ls, std::optional<Schedule>& s, uint64_t budget,
                        const ScheduleOptions& opts) {
  ls.registerBudget = budget;
  const uint64_t before = registerBits(ls.problem, *s);
  if (before <= budget) {
    ls.registerBudgetNote = fmt::format("{} of {} bits, as scheduled", before, budget);
    return;
  }
  const uint32_t ii0 = s->ii;
  const int length0 = s->length;
  ExactOptions eo = opts.minII.exact;
  eo.objective = ExactOptions::Objective::Registers;
  const uint32_t lastII = ls.requestedII || !ls.pipelined ? ii0 : ii0 + kBudgetExtraIIs;
  std::optional<Schedule> atII0;
  bool atII0Proven = false;
  std::string tried;
  for (uint32_t ii = ii0; ii <= lastII; ++ii) {
    ExactResult r = exactModuloSchedule(ls.problem, ii, eo);
    if (!r.schedule) {
      tried += fmt::format("{}II {}: {}", tried.empty() ? "" : ", ", ii, exactStatusName(r.status));
      continue;
    }
    const uint64_t bits = registerBits(ls.problem, *r.schedule);
    const bool proven = r.status == ExactResult::Status::Optimal;
    tried +=
        fmt::format("{}II {}: {} bits{}", tried.empty() ? "" : ", ", ii, bits, proven ? " (fewest)" : "");
    if (ii == ii0) {
      atII0 = r.schedule;
      atII0Proven = proven;
    }
    if (bits > budget) continue;
    const std::string cost =
        ii > ii0 ? fmt::format("II {} instead of {}", ii, ii0)
        : r.schedule->length != length0
            ? fmt::format("the iteration's latency {} cycles instead of {}", r.schedule->length, length0)
            : std::string("the same II and latency");
    ls.registerBudgetNote =
        fmt::format("{} of {} bits: met by the schedule with the fewest register bits (was {}); cost: {}",
                    bits, budget, before, cost);
    if (ii > ii0) {
      ls.limitingReason =
          fmt::format("the register budget ({} bits: {}); {}", budget, tried, ls.limitingReason);
      ls.iiProvenMinimal = false;
      ls.iiProof = "raised to meet the register budget";
    }
    s = std::move(r.schedule);
    ls.method = "exact";
    ls.registersProvenMinimal = proven;
    return;
  }
  ls.registerBudgetMet = false;
  if (atII0 && registerBits(ls.problem, *atII0) < before) {
    s = std::move(atII0);
    ls.method = "exact";
    ls.registersProvenMinimal = atII0Proven;
  }
  ls.registerBudgetNote = fmt::format(
      "cannot be met: {} bits against a budget of {} ({}); {}", registerBits(ls.problem, *s), budget, tried,
      ls.requestedII ? "the II is requested (InitiationIntervalINTEL), so it stays"
                     : "a larger budget (MaximumRegistersINTEL) or fewer live values would");
}

LoopSchedule scheduleLoop(const ir::Kernel& k, uint32_t index, const OperatorLibrary& lib,
                          const ScheduleOptions& opts) {
  const ir::Loop& loop = k.loops[index];
  const std::string construct = "loop " + loop.name;
  LoopSchedule ls;
  ls.loop = index;
  const bool exitBeforeMemory = index < opts.exitBeforeMemory.size() && opts.exitBeforeMemory[index];
  ls.problem = buildLoopProblem(k, index, lib, exitBeforeMemory);
  try {
    ls.mii = computeMII(ls.problem);
  } catch (const DiagnosticError& e) {
    // The builders only create schedulable dependence graphs from valid IR: this is a compiler bug.
    throw InternalError(loop.loc, construct, e.what());
  }
  const ir::LoopControls& c = loop.controls;
  const uint32_t mii = ls.mii.mii();
  const std::string reason = miiReason(k, loop, ls.problem, ls.mii);
  ls.pipelined = c.pipelineEnable.value_or(true);
  ls.maxConcurrency = ls.pipelined ? c.maxConcurrency.value_or(0) : 1;
  ls.requestedII = c.ii.value_or(0);
  if (c.ii && *c.ii == 0)
    throw DiagnosticError(loop.loc, construct, "InitiationIntervalINTEL 0 is not a valid II, expected >= 1");

  std::optional<Schedule> s;
  if (ls.pipelined && ls.requestedII) {
    const uint32_t req = ls.requestedII;
    // The II a pipelined task asks for with its create's Pipelined operand (ir/lower_task_serve.cpp).
    const bool task = std::any_of(c.requests.begin(), c.requests.end(),
                                  [](const ir::LoopControlRequest& r) { return r.name == "Pipelined (task sequence)"; });
    const char* control = task ? "Pipelined" : "InitiationIntervalINTEL";
    if (req >= mii) {
      MinIIResult at = scheduleAtII(ls.problem, req, opts.minII);
      s = std::move(at.schedule);
      ls.method = at.method;
      ls.registersProvenMinimal = at.registersProvenMinimal;
      ls.iiProof = "requested";
    }
    if (!s) {
      std::optional<Schedule> best = scheduleMinII(ls.problem, ls.mii, opts.minII).schedule;
      std::string smallest =
          !best  ? fmt::format("no II up to {} works", uint64_t(mii) + opts.minII.maxIISearch)
          : task ? fmt::format("the smallest II that works is {}. Use Pipelined {} (or -1, the compiler's "
                               "choice) on the "
                               "task sequence's create",
                               best->ii, best->ii)
                 : fmt::format("the smallest II that works is {}. Remove the request or use II {}", best->ii,
                               best->ii);
      // Without a clock period every operation takes a cycle; chaining may be what the request needs.
      const std::string chaining =
          opts.target.clockPeriodNs > 0
              ? fmt::format(" (operations chained for a {} ns clock; a longer period chains more)",
                            opts.target.clockPeriodNs)
              : " (every operation takes a cycle: give a clock period, --clock-period NS or --fmax MHZ, to "
                "chain operations within a cycle)";
      throw DiagnosticError(loop.loc, construct,
                            fmt::format("{} {} cannot be met: {}; {}{}", control, req,
                                        whyNot(k, loop, ls.problem, ls.mii, req), smallest, chaining));
    }
    ls.limitingReason = req == mii ? fmt::format("requested II {} ({}) equals the MII: {}", req, control, reason)
                                   : fmt::format("requested II {} ({}); MII {}: {}", req, control, mii, reason);
  } else {
    MinIIResult found = scheduleMinII(ls.problem, ls.mii, opts.minII);
    s = std::move(found.schedule);
    if (!s)
      throw DiagnosticError(loop.loc, construct,
                            fmt::format("no modulo schedule found for II {}..{} (MII {}: {})", mii,
                                        uint64_t(mii) + opts.minII.maxIISearch, mii, reason));
    ls.method = found.method;
    ls.iiProvenMinimal = found.iiProvenMinimal;
    ls.iiProof = found.proof;
    ls.registersProvenMinimal = found.registersProvenMinimal;
    ls.limitingReason =
        s->ii == mii ? reason
        : found.iiProvenMinimal
            ? fmt::format(
                  "no modulo schedule exists at II {}..{} (proven by the exact scheduler); MII {}: {}", mii,
                  s->ii - 1, mii, reason)
            : fmt::format("scheduler: no modulo schedule found at II {}..{} ({}); II {} is the smallest "
                          "found (MII {}: "
                          "{})",
                          mii, s->ii - 1, found.proof, s->ii, mii, reason);
    if (!ls.pipelined)
      ls.limitingReason = fmt::format("not pipelined (PipelineEnableINTEL 0): an iteration starts when the "
                                      "previous one has finished{}; schedule II {}: {}",
                                      ls.requestedII ? ", InitiationIntervalINTEL ignored" : "", s->ii,
                                      ls.limitingReason);
  }
  // Wires formed next to their readers where the pipeline then carries fewer bits. Not the values
  // the loop's control and its next iteration read where they are ready (the exit condition, the
  // carried values), nor the live-outs.
  std::vector<uint8_t> movable(loop.ops.size(), 0);
  for (size_t v = 0; v < loop.ops.size(); ++v) {
    const ir::OpKind kind = loop.ops[v].kind;
    movable[v] = kind == ir::OpKind::ZExt || kind == ir::OpKind::SExt || kind == ir::OpKind::Trunc ||
                 kind == ir::OpKind::Extract || kind == ir::OpKind::Concat;
  }
  if (loop.continueCond != ir::kNone) movable[loop.continueCond] = 0;
  for (const ir::LoopPhi& phi : loop.phis)
    movable[phi.next] = 0;
  for (ir::ValueId v : loop.liveOuts)
    movable[v] = 0;
  sinkWires(ls.problem, *s, movable);
  if (k.registerBudgetBits) {
    meetRegisterBudget(ls, s, k.registerBudgetBits, opts);
    sinkWires(ls.problem, *s, movable);
  }
  try {
    verify(ls.problem, *s);
  } catch (const DiagnosticError& e) {
    throw InternalError(loop.loc, construct, e.what());
  }
  ls.schedule = std::move(*s);
  ls.registerBits = registerBits(ls.problem, ls.schedule);
  if (loop.continueCond != ir::kNone) {
    const int64_t known = ls.schedule.start[loop.continueCond] + ls.problem.ops[loop.continueCond].latency;
    const int64_t ii = ls.schedule.ii;
    ls.speculated = uint32_t(std::max<int64_t>(0, (known + ii - 1) / ii - 1));
  }
  return ls;
}

// The algorithms' errors name operations but carry no source location: they get the loop's, so that
// every scheduling error names the loop and where it is.
std::vector<Diagnostic> atLoop(const DiagnosticError& e, const ir::Loop& loop) {
  std::vector<Diagnostic> diags = e.diagnostics();
  for (Diagnostic& d : diags) {
    if (!d.loc.str().empty()) continue;
    if (!d.construct.empty()) d.message += " (in the " + d.construct + ")";
    d.loc = loop.loc;
    d.construct = "loop " + loop.name;
  }
  return diags;
}

} // namespace

KernelSchedule scheduleKernel(const ir::Kernel& k, const ScheduleOptions& opts) {
  // The back end starts here: reject what the IR can say but the hardware cannot build yet.
  ir::checkHardwareSupport(k);
  OperatorLibrary lib(opts.target);
  KernelSchedule ks;
  for (uint32_t l = 0; l < k.loops.size(); ++l) {
    try {
      ks.loops.push_back(scheduleLoop(k, l, lib, opts));
    } catch (const InternalError& e) {
      throw InternalError(atLoop(e, k.loops[l]));
    } catch (const DiagnosticError& e) {
      throw DiagnosticError(atLoop(e, k.loops[l]));
    }
  }
  for (uint32_t b = 0; b < k.blocks.size(); ++b) {
    BlockSchedule bs;
    bs.block = b;
    bs.problem = buildBlockProblem(k, b, lib);
    try {
      bs.schedule = listSchedule(bs.problem);
      verify(bs.problem, bs.schedule);
    } catch (const DiagnosticError& e) {
      throw InternalError(k.blocks[b].term.loc, "block " + k.blocks[b].name, e.what());
    }
    ks.blocks.push_back(std::move(bs));
  }
  return ks;
}

} // namespace spvhls::sched
