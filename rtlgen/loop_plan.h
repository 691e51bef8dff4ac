// The hardware plan of one pipelined loop, derived from its verified modulo schedule: at which
// pipeline position every value is computed and until where it is needed, where the clusters begin,
// which loop-carried dependences cross a cluster boundary (and so need a counter gate), FIFO depths,
// and the cycle prediction. The Verilog writer (loop_gen.cpp) only renders this plan.
//
// Positions: an iteration is at position p in its p-th pipeline cycle. An operation scheduled at
// start t reads its operands at position t; its result is readable from position t + latency. Loads
// issue their request at t and take their response at t + memLatency ("capture" position).
// The iteration leaves the pipeline after position F-1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/hls_ir.h"
#include "rtlgen/rtlgen.h"
#include "rtlgen/unit_binding.h"
#include "scheduler/kernel_schedule.h"

namespace spvhls::rtl {

// Cluster toCluster admits iteration k + distance only once iteration k has reached countPos in the
// producer's cluster: counted in a register (the admission comes a cycle after it was there at the
// earliest) or, at the cluster's entry, also as it is admitted there (the same cycle). Tokens never
// wait inside a cluster, so it is at fromPos a fixed fromPos - countPos cycles later; countPos is the
// earliest position that still gets it there in time for the consumer's read, `slack` cycles after
// its admission: strictly after the producer's cycle at fromPos (a request after the producer's, a
// carry register written in that cycle), or in that very cycle when the phi takes the value
// forwarded (forwardPos). `waits`: at the assumed memory latency (every token at its scheduled
// position) the gate still holds an admission back, so the cycles have no closed form (the cycle model
// steps them); a gate that does not wait then acts only when the memory is slower.
struct CarryGate {
  uint32_t from = 0, to = 0; // ops: producer (later cluster) and consumer
  uint32_t fromPos = 0;      // position where the producer's effect is complete
  uint32_t toCluster = 0;    // cluster whose admission waits
  uint32_t distance = 1;
  uint32_t countPos = 0;        // position whose passing is counted
  bool countAsAdmitted = false; // also the token admitted at countPos (a cut) this very cycle
  bool waits = false;
  // Cycles from iteration k's count to the earliest admission of iteration k + distance.
  uint64_t lag() const { return uint64_t(countPos) + (countAsAdmitted ? 0 : 1); }
};

struct LoopPlan {
  ClusterMode kind = ClusterMode::StallEnable;
  std::string kindReason;
  uint32_t ii = 1, memLatency = 1;
  uint32_t maxConcurrency = 0;   // 0 = unlimited
  uint32_t F = 1;                // positions 0..F-1
  uint32_t exitPos = 0;          // q: position where continueCond is read
  std::vector<uint32_t> start;   // per op: schedule start
  std::vector<uint32_t> compPos; // per op: position where its combinational value is formed
  // Per op: the unit module it runs on as an instance (empty: built inline); every operation the
  // library builds as an Instance runs on its unit, in both cluster kinds.
  std::vector<std::string> unitModule;
  // Modulo binding (rtlgen/unit_binding.h): the unit instances built, each with the operations that
  // take turns on it, and per op the index of its instance (-1: none).
  std::vector<UnitInstance> instances;
  std::vector<int> instanceOf;
  // Per op (stall-free only, else 0): the depth of the side FIFO of a unit instance whose span (start
  // .. compPos) crosses a cluster boundary. The unit advances every cycle in the cluster A it starts
  // in, so a token's result leaves it compPos - e cycles after the token left A's last position e;
  // it is pushed then (A's exit valid delayed as long) and popped when the token reaches compPos in
  // cluster B, which cannot be earlier: every position takes at least a cycle, an exit FIFO too.
  // Pushes and pops are in token order; squashed tokens never reach e (cuts follow the exit), and
  // units are pure (never predicated), so each token leaving A has one entry. Entries are tokens
  // past e and not yet at compPos: within the credits of clusters A..B-1 (each counts its tokens and
  // its exit FIFO's, the one admitted at cuts[B] included) or at cuts[B]+1 .. compPos (one each), so
  //   sideFifoDepth = max(2, sum(exitFifoDepth[A..B-1]) + compPos - cuts[B])
  // never overflows (checkPlan enforces the bound). 0 where nothing in the pipeline reads the result
  // (only a carry register written as it comes out: carryWhereFormed).
  std::vector<uint64_t> sideFifoDepth;
  std::vector<uint32_t> readyPos;      // per op: start + latency
  std::vector<int> lastUse;            // per op: last position it is read at (-1 = never)
  // Per op: formed again from its operand at every position it is read at past compPos, instead of
  // being carried (an extension or a concatenation with constants, whose operand is carried as far).
  std::vector<bool> rematerialized;
  // Per op: the last position its value is carried to in the pipeline's registers and exit FIFOs
  // (lastUse, or less where counters take over), and the positions past that where it is read from
  // a counter of its own: an induction variable (inductionStep) at position r is its initial value
  // plus the step for every iteration that passed r before (they pass every position in order, one
  // token each; squashed ones are the last). Not in a reinvocable loop, whose next invocation's
  // tokens follow the last one's (dropCounters).
  // A LoopPhi counted at its own position (counters[v] starts with compPos[v]) is read from its
  // counter there, not from a carry register: its next value is not carried back to it.
  std::vector<int> carriedTo;
  std::vector<std::vector<uint32_t>> counters;
  bool phiCounted(ir::ValueId v) const;
  void dropCounters();
  // The bits the loop module holds its values in: a register per value and position it is carried
  // to (stall-free: not at a cut, where it is in the exit FIFO), exit FIFO entries (depth x the
  // values crossing), and counters (loop_gen.cpp builds exactly these; the valid, last and carry
  // registers, FIFO pointers and response FIFOs are not counted).
  // Stall-free tokens wait at a cut in the exit FIFO before it, so no position register is there.
  bool staged(uint32_t pos) const { return !(stallFree() && isCut(pos)); }
  // Value v of `loop` travels in the exit FIFO into the cluster starting at `cut` (stall-free): it
  // is formed before and carried to it; constants, live-ins and rematerialized values never are.
  bool carriedAcross(const ir::Loop& loop, ir::ValueId v, uint32_t cut) const;
  struct ValueBits {
    uint64_t registers = 0, exitFifos = 0, counters = 0;
  };
  ValueBits valueBits(const ir::Loop& loop) const;
  std::vector<uint32_t> cuts;          // cluster entry positions, cuts[0] = 0
  std::vector<uint64_t> exitFifoDepth; // per cluster except the last (stall-free only)
  std::vector<uint64_t> respFifoDepth; // per op (loads and inner loops' calls, else 0)
  std::vector<CarryGate> gates;        // stall-free only
  // Per op: for a LoopPhi that reads the value the iteration ahead produces in this very cycle (in
  // the same cluster, or across clusters where its gate lets it read that early), the position that
  // value is taken from (readyPos of the phi's next); else -1 (the phi reads its carry register).
  std::vector<int> forwardPos;
  // Per phi (stall-free): for a phi whose next value is formed a cycle before it is ready
  // (compPos + 1 = readyPos), the carry register is written as the value is formed, not once its
  // token reaches readyPos: (a) formed at the end of a cluster (readyPos is the next one's entry,
  // where the token may wait in the exit FIFO) and read no later, written from the value at compPos
  // as the token leaves; (b) formed by a unit whose span crosses cuts (a side FIFO) and read only in
  // the cluster the unit starts in, written as the result comes out of the unit, a fixed time after
  // the token entered it. Either way no gate waits for a later cluster.
  std::vector<bool> carryWhereFormed;
  // The memory ports of the loop's module (ir::portKey: a memory's, or one of an on-chip RAM's read
  // and write ports): every port it uses, ascending, and the subset it loads through (only those have
  // responses). The top module connects them without building the loop first.
  std::vector<uint32_t> memories, loadMemories;
  // The ports nothing else drives (set by planKernel: no FSM access, no other loop, no queue; a loop
  // the FSM runs): their request fields need not be zero while no request is offered.
  std::vector<uint32_t> soleDriverOf;
  // Per live-in (set by planKernel): its driver holds it from start until done, so the module reads it
  // where it comes in instead of latching it at start. A loop the FSM runs, fed a kernel argument
  // (latched by the kernel when it starts, before the loop can) or a constant.
  std::vector<bool> liveInHeld;

  uint32_t clusterOf(uint32_t pos) const;
  // Stall-free: v runs on a unit from one cluster into a later one (its result through a side FIFO,
  // unless nothing in the pipeline reads it: sideFifoDepth 0, the unit's output only writes a carry).
  bool unitSpan(ir::ValueId v) const {
    return stallFree() && !unitModule[v].empty() && clusterOf(start[v]) != clusterOf(compPos[v]);
  }
  // Stall-free: a bound on the iterations between admission and the last position at once (each
  // cluster's credits, its tokens at least II apart in the last). A memory order between iterations
  // further apart holds without a gate: the earlier has left before the later is admitted.
  uint64_t inFlightBound() const;
  bool isCut(uint32_t pos) const;
  bool stallFree() const { return kind == ClusterMode::StallFree; }
  // Cycles of the loop as the FSM sees them: from the cycle the loop is started to the cycle its done
  // is seen, minus one (the FSM's own cycle), = base + period * iterations.
  int64_t predictBase = 0, predictPeriod = 0;
  // Under MaxConcurrencyINTEL M below ceil(F / II): iterations issue in bursts of M, II apart, each
  // burst predictBurstPeriod (stall-enable ceil(F / II) * II, stall-free F) after the previous one, so
  // an invocation of n iterations takes F + 1 + floor((n-1) / M) * burstPeriod + ((n-1) mod M) * II
  // cycles (0: no bursts, the linear form above).
  uint32_t predictBurst = 0;
  int64_t predictBurstPeriod = 0;
  bool predictable = true;
  bool subPipelines = false; // it runs inner loops (LoopCalls): no closed form, for that reason
  // An outer pipeline's inner loop that takes its next invocation while the last one drains (set by
  // planKernel: stall-enable, no gates, no inner loops of its own, no concurrency limit (its counter
  // restarts with the loop), no control removing a carried
  // memory dependence, which the next invocation's first iterations then rely on as on any later
  // iteration's). Its module clears nothing at start and says when it accepts one (loop_gen.h).
  bool reinvocable = false;
  // Cycles from an invocation's last launch (the loop's `issue`, speculated launches that the exit
  // squashes included) to the FSM's cycle after its done, under the same conditions; -1 when not
  // predicted (bursts, or predictable false).
  int64_t predictDrain = -1;
};

// Chooses the cluster kind for a loop before scheduling. Auto picks stall-free unless a loop-carried
// dependence runs through a memory access (a memory recurrence, a carried value or exit condition
// computed from a load): those serialise across clusters and are cheaper in one stall-enable cluster.
// A forced stall-free request for a loop whose exit condition depends on a load cannot be built
// (iterations would be launched before it is known whether they exist): it becomes stall-enable, and
// `reason` says so. `requestedBy` names where a request comes from, for the reason.
// allLoops: the kernel's loops, for the memories of the inner loops `loop` runs (without them such
// a loop is stall-enable under auto).
// The step of an induction variable: a LoopPhi whose next value is itself plus or minus a constant
// (two's complement, modulo its width).
std::optional<uint64_t> inductionStep(const ir::Loop& loop, ir::ValueId v);

ClusterMode chooseClusterKind(const ir::Loop& loop, ClusterMode requested, std::string& reason,
                              std::string_view requestedBy = "--cluster",
                              const std::vector<ir::Loop>* allLoops = nullptr);

// shareUnits: bind operations of one unit module to shared instances where the II leaves room
// (--share-units; off: one instance per operation).
// allLoops: the kernel's loops, for the memories of the inner loops `loop` runs (their ports are
// the outer module's). memories: the kernel's, for their ports' keys (ir::portKey; null: a port per
// memory).
LoopPlan planLoop(const ir::Loop& loop, const sched::LoopSchedule& ls, const sched::OperatorLibrary& lib,
                  ClusterMode kind, std::string kindReason, bool shareUnits = true,
                  const std::vector<ir::Loop>* allLoops = nullptr,
                  const std::vector<ir::Memory>* memories = nullptr);

} // namespace spvhls::rtl
