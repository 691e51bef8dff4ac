// Scheduling a whole kernel: every pipelined loop gets a modulo schedule, every CFG block a sequential
// schedule. The result is verified before it is returned.
#pragma once

#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "scheduler/schedule.h"

namespace spvhls::sched {

struct ScheduleOptions {
  Target target;
  // The method finding each loop's II (its maxIISearch: extra IIs tried above the MII before giving
  // up on a loop without a requested II).
  MinIIOptions minII;
  // Per loop (empty = all false): true for loops built as stall-free clusters. Their Control
  // dependences become continueCond -> memory operation with latency(continueCond) + 1 and distance
  // 0: an iteration's exit is known before any of its memory requests, so squashing stays inside the
  // first cluster.
  std::vector<bool> exitBeforeMemory;
};

// Problem for one loop. Operation i is Loop::ops[i] (1:1). Dependences:
//  * Data: operand -> user, latency of the operand.
//  * LoopCarried: phi.next -> LoopPhi op, latency of next, distance 1.
//  * PhiOrder: LoopPhi op -> producer of phi.next with latency -latency(next): a phi is read no later
//    than its next value is produced, so one carry register per phi suffices in hardware.
//  * Memory: between two accesses to the same memory, at least one a store: earlier -> later and
//    later -> earlier (latency 1), each at the shortest iteration distance at which their offsets may
//    meet (ir::memoryOrder: the address analysis, and the loop controls that say the memory has no
//    loop-carried dependence or a larger distance); without either, program order within the
//    iteration and later -> earlier at distance 1. A LoopCall (an
//    inner loop run by the body) counts as an access of every memory its loop reads or writes; what
//    follows it waits for its results (latency = its result offset).
//  * Control: continueCond -> every memory operation (latency of continueCond, distance 1): iteration
//    i+1 issues no memory request before iteration i's continueCond is known, so no memory request is
//    ever issued speculatively and iterations launched past the exit can be squashed without effect.
//    (Distance 1, not 0: a loop whose condition reads memory, `while (p[i]) ...`, must stay schedulable.)
//    With exitBeforeMemory (stall-free clusters, see ScheduleOptions) instead latency(continueCond) + 1
//    and distance 0; a DiagnosticError if continueCond itself depends on a memory access.
//    With exitBeforeMemory also: the next value of every phi whose recurrence stays clear of memory
//    (no access, inner loop or its result in it, through other carried values neither) -> every
//    memory operation, latency(next) + 1, distance 0 (Control): the value is ready in the first
//    stall-free cluster, so the next iteration reads it there without a recurrence gate.
// Resources: one per memory port (ir::portKey: an on-chip RAM may have a read and a write port), limit
// Target::requestsPerPortPerCycle. Here one per memory, named "mem<i>"; the overload below takes the
// ports and their names from Kernel::memories.
Problem buildLoopProblem(const ir::Loop& loop, const OperatorLibrary& lib, bool exitBeforeMemory = false);
Problem buildLoopProblem(const ir::Kernel& k, uint32_t loop, const OperatorLibrary& lib,
                         bool exitBeforeMemory = false);

// Problem for one CFG block: operations are the block's ops in order, plus one final node for the
// terminator (index ops.size()), which depends on the branch condition, on every value that a
// successor's phis read from this block, and on every store (latency 1). The terminator node has
// latency 1 (the FSM leaves the block at the end of its cycle), so a block lasts at least one cycle.
// Memory operations on one memory (at least one a store) and LoopCalls or Calls keep their program order
// (latency 1), as in loops.
Problem buildBlockProblem(const ir::Kernel& k, uint32_t block, const OperatorLibrary& lib);

struct LoopSchedule {
  uint32_t loop = 0;            // index into Kernel::loops
  Problem problem;
  Schedule schedule;
  MIIResult mii;
  uint32_t requestedII = 0;     // 0 = none requested
  bool pipelined = true;        // false for PipelineEnableINTEL 0: iterations do not overlap
  uint32_t maxConcurrency = 0;  // 0 = unlimited; 1 when not pipelined
  // Why II is not lower, for the report: the critical recurrence or resource with its operations.
  std::string limitingReason;
  // Iterations started after one iteration and before its exit condition is known (its result
  // position over the II, rounded up, less one); bounded by SpeculatedIterationsINTEL when given.
  uint32_t speculated = 0;
  // How the II was found and whether it is proven minimal (scheduleMinII), for the report. A
  // requested II is what the user asked, so it is not compared with smaller ones.
  std::string method; // "heuristic" or "exact"
  bool iiProvenMinimal = false;
  std::string iiProof;
  uint64_t registerBits = 0; // sched::registerBits of the schedule
  bool registersProvenMinimal = false;
  // Under a register budget (SPV_INTEL_maximum_registers, Kernel::registerBudgetBits; 0: none): whether
  // the schedule meets it, and what it cost (or why it cannot be met), for the report.
  uint64_t registerBudget = 0;
  bool registerBudgetMet = true;
  std::string registerBudgetNote;
};

struct BlockSchedule {
  uint32_t block = 0;
  Problem problem;
  Schedule schedule;            // length = cycles the FSM spends in the block (>= 1)
};

struct KernelSchedule {
  std::vector<LoopSchedule> loops;   // one per Kernel::loops, same order
  std::vector<BlockSchedule> blocks; // one per Kernel::blocks, same order
};

// Schedules and verifies. An II requested by InitiationIntervalINTEL that cannot be met throws a
// DiagnosticError at the loop naming the critical recurrence or resource and the smallest II that works.
KernelSchedule scheduleKernel(const ir::Kernel& k, const ScheduleOptions& opts);

} // namespace spvhls::sched
