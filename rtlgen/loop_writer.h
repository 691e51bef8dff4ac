// The writer of one pipelined loop module (loop_gen.h): its state, and the steps run() takes.
// Internal to rtlgen: loop_gen.cpp builds the control, datapath and carries; loop_gen_memory.cpp
// the memory ports, response FIFOs and inner loops (sub-pipelines).
#pragma once

#include <fmt/compile.h>
#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "rtlgen/loop_gen.h"
#include "rtlgen/verilog_util.h"

namespace spvhls::rtl::loopgen {

using ir::OpKind;
using ir::ValueId;
using nl::ExprP;

inline bool isGlobal(OpKind k) {
  return k == OpKind::Const || k == OpKind::LiveIn || k == OpKind::Undef;
}
inline bool isMem(OpKind k) {
  return k == OpKind::Load || k == OpKind::Store;
}
// Operations that request and wait like a memory access: loads, stores, and inner loops' calls
// (sub-pipelines: the request starts the inner loop, the response is its done with its live-outs).
inline bool isRequest(OpKind k) {
  return isMem(k) || k == OpKind::LoopCall;
}
inline bool hasResponse(OpKind k) {
  return k == OpKind::Load || k == OpKind::LoopCall;
}

class LoopWriter {
public:
  LoopWriter(const ir::Loop& loop, const LoopPlan& plan, const std::vector<ir::Memory>& memories,
             const std::string& name, const std::map<ValueId, SubPipeline>& subs)
      : loop_(loop), p_(plan), memories_(memories), subs_(subs), partial_(partiallyUsed(loop.ops)),
        b_(name, fmt::format(FMT_COMPILE("Pipelined loop '{}': II {}, {} positions, {} cluster(s) ({})."),
                             commentName(loop.name), plan.ii, plan.F, plan.cuts.size(),
                             clusterModeName(plan.kind))) {}

  nl::Module run() {
    collectMemories();
    ports();
    declarations();
    subPipelines();
    memoryLogic(); // first: the control reads its response FIFOs
    controlLogic();
    if (p_.reinvocable) reinvocableLogic();
    datapath();
    carries();
    sink();
    return b_.take();
  }

private:
  const ir::Loop& loop_;
  const LoopPlan& p_;
  const std::vector<ir::Memory>& memories_; // the kernel's: each port's key and data width
  const std::map<ValueId, SubPipeline>& subs_;
  const std::vector<bool> partial_; // per op: only some bits are read
  nl::ModuleBuilder b_;
  std::vector<uint32_t> mems_;
  std::map<uint32_t, std::vector<ValueId>> memOps_, memLoads_;
  std::map<uint32_t, nl::MemPort> ports_;
  ExprP rst_, start_, done_, running_, issue_, exitDet_, en_;
  ExprP clr_, fifoClear_, accept_; // what clears the pipeline's state, its FIFOs; reinvocable: accept
  // Reinvocable: per position the token's first-iteration flag, and per phi its init value staged
  // with the token up to where the phi is read (positions 0..start).
  std::vector<ExprP> first_;
  std::map<std::pair<size_t, uint32_t>, ExprP> init_;
  std::vector<ExprP> li_, liQ_, lo_;                        // per live-in / live-out
  std::vector<ExprP> valid_, vk_, lst_;                     // per position (lst_: registered last flags only)
  std::vector<ExprP> admit_;                                // per cluster (stall-free); admit_[0] = issue
  std::vector<ExprP> c_, carry_;                            // per op / per phi
  std::map<std::pair<ValueId, uint32_t>, ExprP> stage_;     // v<v>_p<pos>
  std::map<std::pair<ValueId, uint32_t>, ExprP> counter_;   // iv<v>_p<pos> (LoopPlan::counters)
  std::map<std::pair<uint32_t, ValueId>, ExprP> fifoValue_; // f<j>_v<v>
  std::vector<ExprP> fifoLst_, fifoNonempty_, credits_;     // per exit FIFO
  std::map<ValueId, ExprP> fire_, respDout_, respNonempty_;
  std::map<uint32_t, std::vector<ExprP>> exitDelay_; // per cluster: its exit valid delayed 1, 2, ... cycles
  std::map<ValueId, ExprP> unitOut_;                 // a unit's output, for its ops with a side FIFO
  // Inner loops run by the body (LoopCall ops): the wires to each instance.
  // One copy of an inner loop (ir::Loop::copies: the calls go to the copies in turn).
  struct SubCopy {
    ExprP start, done, busy, accept, inflight; // accept: a reinvocable inner loop's
    std::vector<ExprP> lo;
  };
  struct SubWires {
    ExprP start, busy; // any copy: a call made, a call running (watched by the test bench)
    std::vector<SubCopy> copies;
    ExprP dispatch, collect; // several copies: the one the next call goes to, the next results come from
    std::map<uint32_t, nl::MemPort> ports;
    std::vector<ExprP> data; // its response (live-outs end to end) at the capture position and after
  };
  std::map<ValueId, SubWires> sub_;
  std::map<uint32_t, ExprP> ownRequest_; // per memory shared with inner loops: this body requests it

  unsigned width(ValueId v) const { return loop_.ops[v].width(); }
  bool sf() const { return p_.stallFree(); }
  // A position whose valid bit is a register of its own (else it is issue or a cluster's admission).
  bool ownValid(uint32_t pos) const { return pos > 0 && !(sf() && p_.isCut(pos)); }
  bool staged(uint32_t pos) const { return p_.staged(pos); }
  ExprP adv() const { return sf() ? nl::one() : en_; }
  ExprP clusterIn(uint32_t j) const { return admit_[j]; }

  ExprP valueAt(ValueId v, uint32_t pos) const;
  // Past the exit, the last token is the one whose condition failed: where the condition travels
  // with the tokens anyway (a predicate reads it), it says so, and no flag of its own is kept.
  bool lastFromCondition(uint32_t pos) const;
  ExprP lastAt(uint32_t pos) const;
  ExprP predAt(ValueId op, uint32_t pos) const;

  // The request side is free for op i: its memory port (before any inner loop's), or its inner loop: a
  // reinvocable one once its running invocation's exit is known, another when idle (or done in this
  // very cycle: its pipeline is empty, and a start clears its done).
  ExprP readyOf(ValueId i) const;

  // The port a load or store uses (ir::portKey), and a port's data width: its memory's.
  uint32_t port(const ir::Op& op) const { return ir::portKey(memories_, op); }
  unsigned portBits(uint32_t key) const { return memories_.at(ir::portMemory(memories_, key)).wordBits; }

  void collectMemories();

  bool initOfPhi(size_t k) const;
  // A live-in read by the body needs a latch; one that only initialises a carry does not.
  bool liveInUsed(size_t k) const;

  bool held(size_t k) const { return k < p_.liveInHeld.size() && p_.liveInHeld[k]; }
  // Only some bits read (e.g. truncated): lint wants the unused ones declared as such.
  bool liveInPartial(size_t k) const;

  unsigned liveInWidth(size_t k) const;

  void ports();

  // Values crossing into cluster j+1 (stall-free FIFO j).
  std::vector<ValueId> crossing(uint32_t j) const;

  void declarations();

  // Reinvocable: a live-in's value travels with its token from position 0; so do a flag marking an
  // invocation's first token and, up to where its phi is read, each phi's initial value.
  void reinvocableDeclarations();

  // Reinvocable: the staging of live-ins, first flags and initial values (first_p0: set by start,
  // cleared by the invocation's first issue).
  void reinvocableLogic();
  ExprP initAt(size_t phi, uint32_t pos) const;

  // A counter register: cleared by `clear` (default: reset and loop start), +1 on `up` without
  // `down`, -1 the reverse.
  void counter(const ExprP& r, const ExprP& up, const ExprP& down, ExprP clear = nullptr);

  // ---- control: issue, enables, admission, kill -----------------------------------------------
  void controlLogic();

  // Stall-free clusters: admission of a token into cluster j by its credit counter, the II spacing,
  // the responses and request ports it needs, port priority, and carry gates.
  void admission(const ExprP& issueCond);

  void countUp(const ExprP& r, const ExprP& when);

  // ---- datapath -------------------------------------------------------------------------------
  void datapath();

  // A unit instance: operands in at start, advancing with the pipeline, its output at compPos (across
  // clusters: through its side FIFO). A shared instance takes the operands of the operation whose
  // start holds a valid token (at most one does: LoopPlan::instances), and its output is each
  // operation's result in the cycle that operation's token reaches compPos.
  void unit(const UnitInstance& inst);

  // Stall-free, a unit whose span crosses clusters (the argument: LoopPlan::sideFifoDepth). Its
  // first cluster runs free, so the result of the token that left that cluster's last position e
  // comes out of the unit compPos - e cycles later: it is pushed then and popped when the token
  // reaches compPos, never earlier. First-word fall-through: the token may arrive in the very cycle.
  void sideFifo(ValueId v, const ExprP& y);

  // vk of cluster j's last position, `d` >= 1 cycles ago (a register chain shared by its units).
  ExprP exitValidDelayed(uint32_t j, uint32_t d);
  // Stall-free, v on a unit whose span crosses clusters: its token's result comes out of the unit now
  // (the token left the first cluster's last position e, compPos - e cycles ago).
  ExprP unitResultValid(ValueId v);

  // A unit's result that only writes a carry register as it comes out (LoopPlan::carryWhereFormed):
  // nothing in the pipeline reads it, so it has no side FIFO and no value of its own.
  bool onlyCarriedUnit(ValueId v) const { return p_.unitSpan(v) && !p_.sideFifoDepth[v]; }

  // The next value of a phi counted where it is read, and read by nothing else: not built.
  bool onlyCountedNext(ValueId v) const;

  // Phi k is read only where it is counted (LoopPlan::phiCounted): no carry register.
  bool countedPhi(size_t k) const;

  ExprP phiRead(ValueId v) const;
  ExprP phiReadCarried(ValueId v) const;

  void carries();

  // ---- inner loops (sub-pipelines) ------------------------------------------------------------------
  unsigned responseWidth(ValueId c) const;

  // Each inner loop: its instance, started by the call's request (while it is idle), its done and
  // live-outs pushed into the call's response FIFO, popped at the capture position as a load's.
  void subPipelines();

  // ---- memory ports -----------------------------------------------------------------------------
  // An inner loop's request is accepted when the port is ready and this body does not request it.
  ExprP innerGrant(uint32_t m) const;
  ExprP innerReady(uint32_t m) const { return ports_.at(m).reqReady & innerGrant(m); }
  // One copy's result FIFO (bypassing when empty): its live-outs when its done comes.
  nl::ModuleBuilder::FifoOut resultFifo(ValueId c, const SubCopy& cp, std::string prefix, const ExprP& pop);
  // An inner loop's request side as it reaches the port: all-zero while not granted.
  nl::MemPort granted(const nl::MemPort& q, uint32_t m) const;

  ExprP fire(ValueId i) const;
  ExprP capture(ValueId i) const;

  void memoryLogic();

  void respFifo(ValueId i, const ExprP& push, const nl::MemPort& port);

  // ---- sink ----------------------------------------------------------------------------------
  void sink();
};

} // namespace spvhls::rtl::loopgen
