// The microarchitecture plan: the stage between scheduling and Verilog generation. From the IR, its
// verified schedule and the operator library it decides everything structural about the hardware:
// per pipelined loop the LoopPlan (positions, cluster cuts, FIFO depths, recurrence gates, the cycle
// prediction), and for the kernel FSM the cycle every operation's result is formed in and the length
// of every block. generateVerilog only renders a plan; checkPlan() verifies one independently.
//
// Stages (driver/pipeline.cpp): lower -> chooseClusterKinds -> scheduleKernel -> planKernel ->
// (auto only: avoidGates -> scheduleKernel -> planKernel) -> generateVerilog.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/diagnostics.h"
#include "ir/hls_ir.h"
#include "rtlgen/loop_plan.h"
#include "scheduler/kernel_schedule.h"

namespace spvhls::rtl {

// The cluster kind of one loop, chosen before scheduling, and why.
struct LoopKind {
  ClusterMode kind = ClusterMode::StallEnable;
  std::string reason;
};

struct ClusterChoice {
  std::vector<LoopKind> loops;      // per Kernel::loops
  std::vector<Diagnostic> warnings; // requests that could not be honoured
};

// chooseClusterKind for every loop; `requestedBy` names where a request comes from.
ClusterChoice chooseClusterKinds(const ir::Kernel& k, ClusterMode requested, std::string_view requestedBy);

// Per loop: true for stall-free loops (ScheduleOptions::exitBeforeMemory).
std::vector<bool> exitBeforeMemory(const std::vector<LoopKind>& kinds);

// The kernel FSM's timing. A block's cycle c is the c-th cycle the FSM spends in it.
struct FsmPlan {
  std::vector<int> formCycle;        // per Kernel op: cycle of its block its result is formed in
  std::vector<uint32_t> blockCycles; // per block: cycles per execution (LoopCall waits excluded)
  // Per Kernel op: the unit module it runs on as an instance (empty: inline). The FSM's single enable
  // advances every unit, so every operation the library builds as an instance is one.
  std::vector<std::string> unitModule;
};

struct KernelPlan {
  sched::Target target;        // the target the kernel was scheduled for
  std::vector<LoopPlan> loops; // per Kernel::loops
  FsmPlan fsm;
};

// Plans every loop in its kind and the FSM; the result has passed checkPlan(). shareUnits: loops bind
// operations to shared unit instances where the II leaves room (planLoop).
KernelPlan planKernel(const ir::Kernel& k, const sched::KernelSchedule& s, const sched::OperatorLibrary& lib,
                      const std::vector<LoopKind>& kinds, bool shareUnits = true);

// Auto's second look: a stall-free loop whose plan needs recurrence gates (a later cluster produces
// what an earlier one reads) is as fast or faster as one stall-enable cluster, and smaller (no gate
// counters, no exit FIFOs): faster when a gate waits even at the assumed memory latency, as fast
// when none does. Changes those loops' kinds; returns whether any changed (then reschedule).
bool avoidGates(const KernelPlan& plan, std::vector<LoopKind>& kinds);

// Independent check of a plan against the IR, the schedule and the library: positions follow the
// library's timing, stall-free loops cut at every memory request and response after the exit is
// known, exit FIFOs cover their credit round trip, response FIFOs their outstanding reads, unit
// instances run on their units, operations sharing an instance never meet at their start positions,
// side FIFOs (spans across clusters) cover their results in flight,
// every recurrence crossing a cluster boundary has a gate, and FSM form cycles and block lengths match.
// Throws InternalError (a compiler bug) naming the loop or block and the violated rule.
void checkPlan(const ir::Kernel& k, const sched::KernelSchedule& s, const sched::OperatorLibrary& lib,
               const KernelPlan& plan);

} // namespace spvhls::rtl
