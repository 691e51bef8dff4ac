#include "rtlgen/loop_gen.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

using ir::OpKind;
using ir::ValueId;
using nl::ExprP;

namespace {

bool isGlobal(OpKind k) {
  return k == OpKind::Const || k == OpKind::LiveIn || k == OpKind::Undef;
}
bool isMem(OpKind k) {
  return k == OpKind::Load || k == OpKind::Store;
}
// Operations that request and wait like a memory access: loads, stores, and inner loops' calls
// (sub-pipelines: the request starts the inner loop, the response is its done with its live-outs).
bool isRequest(OpKind k) {
  return isMem(k) || k == OpKind::LoopCall;
}
bool hasResponse(OpKind k) {
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
  struct SubWires {
    ExprP start, done, busy, accept, inflight; // accept: a reinvocable inner loop's
    std::vector<ExprP> lo;
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

  ExprP valueAt(ValueId v, uint32_t pos) const {
    const ir::Op& op = loop_.ops[v];
    switch (op.kind) {
    case OpKind::Const:
      return nl::lit(op.imm, op.width());
    case OpKind::Undef:
      return nl::lit(0, op.width());
    case OpKind::LiveIn:
      // Reinvocable: each token carries its invocation's live-ins (the latch may hold the next one's).
      if (p_.reinvocable && pos > 0) return stage_.at({v, pos});
      return liQ_[op.index];
    default:
      break;
    }
    if (pos < p_.compPos[v])
      throw InternalError(loop_.ops[v].loc, "loop " + loop_.name,
                          fmt::format(FMT_COMPILE("loop_gen: v{} read at {} before it is formed at {}"), v,
                                      pos, p_.compPos[v]));
    if (pos == p_.compPos[v]) return c_[v];
    if (int(pos) > p_.carriedTo[v]) return counter_.at({v, pos});
    if (p_.rematerialized[v]) {
      std::vector<ExprP> a;
      for (ValueId o : op.operands)
        a.push_back(valueAt(o, pos));
      return opExpr(op, a);
    }
    if (sf() && p_.isCut(pos)) return fifoValue_.at({p_.clusterOf(pos) - 1, v});
    return stage_.at({v, pos});
  }
  // Past the exit, the last token is the one whose condition failed: where the condition travels
  // with the tokens anyway (a predicate reads it), it says so, and no flag of its own is kept.
  bool lastFromCondition(uint32_t pos) const {
    const ValueId c = loop_.continueCond;
    return pos > p_.exitPos && !isGlobal(loop_.ops[c].kind) && !p_.rematerialized[c] &&
           p_.compPos[c] <= pos && int(pos) <= p_.carriedTo[c];
  }
  ExprP lastAt(uint32_t pos) const {
    if (pos == p_.exitPos || lastFromCondition(pos)) return ~valueAt(loop_.continueCond, pos);
    if (sf() && p_.isCut(pos)) return fifoLst_[p_.clusterOf(pos) - 1];
    return lst_[pos];
  }
  ExprP predAt(ValueId op, uint32_t pos) const {
    const ir::Op& o = loop_.ops[op];
    size_t idx = o.kind == OpKind::Load ? 1 : o.kind == OpKind::LoopCall ? o.operands.size() - 1 : 2;
    if (o.operands.size() <= idx || o.operands[idx] == ir::kNone) return nl::one();
    return valueAt(o.operands[idx], pos);
  }

  // The request side is free for op i: its memory port (before any inner loop's), or its inner loop: a
  // reinvocable one once its running invocation's exit is known, another when idle (or done in this
  // very cycle: its pipeline is empty, and a start clears its done).
  ExprP readyOf(ValueId i) const {
    const ir::Op& op = loop_.ops[i];
    if (op.kind == OpKind::LoopCall) {
      const SubWires& w = sub_.at(i);
      return w.accept ? w.accept : ~w.busy | w.done;
    }
    return ports_.at(port(op)).reqReady;
  }

  // The port a load or store uses (ir::portKey), and a port's data width: its memory's.
  uint32_t port(const ir::Op& op) const { return ir::portKey(memories_, op); }
  unsigned portBits(uint32_t key) const { return memories_.at(ir::portMemory(memories_, key)).wordBits; }

  void collectMemories() {
    for (ValueId i = 0; i < loop_.ops.size(); ++i) {
      const ir::Op& op = loop_.ops[i];
      if (!isMem(op.kind)) continue;
      memOps_[port(op)].push_back(i);
      if (op.kind == OpKind::Load) memLoads_[port(op)].push_back(i);
    }
    mems_ = p_.memories;
  }

  bool initOfPhi(size_t k) const {
    for (const ir::LoopPhi& ph : loop_.phis)
      if (ph.initLiveIn == k) return true;
    return false;
  }
  // A live-in read by the body needs a latch; one that only initialises a carry does not.
  bool liveInUsed(size_t k) const {
    for (const ir::Op& op : loop_.ops)
      if (op.kind == OpKind::LiveIn && op.index == k) return true;
    return false;
  }

  bool held(size_t k) const { return k < p_.liveInHeld.size() && p_.liveInHeld[k]; }
  // Only some bits read (e.g. truncated): lint wants the unused ones declared as such.
  bool liveInPartial(size_t k) const {
    bool partial = false;
    for (ValueId v = 0; v < loop_.ops.size(); ++v)
      if (loop_.ops[v].kind == OpKind::LiveIn && loop_.ops[v].index == k) partial |= partial_[v];
    return partial;
  }

  unsigned liveInWidth(size_t k) const {
    for (const ir::Op& op : loop_.ops)
      if (op.kind == OpKind::LiveIn && op.index == k) return op.width();
    for (const ir::LoopPhi& ph : loop_.phis)
      if (ph.initLiveIn == k) return ph.width();
    return 1;
  }

  void ports() {
    b_.input("clk", 1);
    rst_ = b_.input("rst", 1);
    start_ = b_.input("start", 1);
    done_ = b_.output("done", 1, nl::Storage::Reg);
    // A reinvocable loop (an outer pipeline's inner loop) takes its next invocation while the last
    // one drains: nothing is cleared at start, and `accept` says when a start may come (the running
    // invocation's exit is known).
    clr_ = p_.reinvocable ? rst_ : rst_ | start_;
    fifoClear_ = p_.reinvocable ? nl::zero() : start_;
    if (p_.reinvocable) accept_ = b_.output("accept", 1);
    for (size_t k = 0; k < loop_.liveIns.size(); ++k)
      li_.push_back(
          b_.input(fmt::format(FMT_COMPILE("li_{}"), k), liveInWidth(k), held(k) && liveInPartial(k)));
    for (size_t k = 0; k < loop_.liveOuts.size(); ++k)
      lo_.push_back(
          b_.output(fmt::format(FMT_COMPILE("lo_{}"), k), width(loop_.liveOuts[k]), nl::Storage::Reg));
    for (uint32_t m : mems_)
      ports_[m] = nl::addMemoryPort(b_,
                                    {fmt::format(FMT_COMPILE("m{}"), m),
                                     std::binary_search(p_.loadMemories.begin(), p_.loadMemories.end(), m),
                                     false, nl::kPortAddrWidth, portBits(m)},
                                    nl::PortRole::Master);
  }

  // Values crossing into cluster j+1 (stall-free FIFO j).
  std::vector<ValueId> crossing(uint32_t j) const {
    std::vector<ValueId> out;
    for (ValueId v = 0; v < loop_.ops.size(); ++v)
      if (p_.carriedAcross(loop_, v, p_.cuts[j + 1])) out.push_back(v);
    return out;
  }

  void declarations() {
    running_ = b_.reg("running", 1);
    liQ_.resize(loop_.liveIns.size());
    for (size_t k = 0; k < loop_.liveIns.size(); ++k) {
      if (!liveInUsed(k) && !(p_.reinvocable && initOfPhi(k))) continue;
      // Held by the driver until done (LoopPlan::liveInHeld): read where it comes in.
      liQ_[k] = held(k)
                    ? li_[k]
                    : b_.reg(fmt::format(FMT_COMPILE("li_{}_q"), k), liveInWidth(k), "", liveInPartial(k));
    }
    issue_ = b_.wire("issue", 1);
    b_.observe(issue_); // launches, for the measured reinvocation delay
    exitDet_ = b_.wire("exit_det", 1);
    if (!sf()) en_ = b_.wire("en", 1);
    admit_.push_back(issue_);
    if (sf())
      for (uint32_t j = 1; j < p_.cuts.size(); ++j)
        admit_.push_back(b_.wire(fmt::format(FMT_COMPILE("admit_{}"), j), 1));
    for (uint32_t pos = 0; pos < p_.F; ++pos) {
      if (pos == 0)
        valid_.push_back(issue_);
      else if (ownValid(pos))
        valid_.push_back(b_.reg(fmt::format(FMT_COMPILE("vld_p{}"), pos), 1));
      else
        valid_.push_back(admit_[p_.clusterOf(pos)]);
      vk_.push_back(b_.wire(fmt::format(FMT_COMPILE("vk_p{}"), pos), 1));
    }
    c_.resize(loop_.ops.size());
    if (p_.reinvocable) reinvocableDeclarations();
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (isGlobal(op.kind) || op.width() == 0 || onlyCountedNext(v) || onlyCarriedUnit(v)) continue;
      bool partial = partial_[v];
      c_[v] =
          b_.wire(fmt::format(FMT_COMPILE("c{}"), v), op.width(),
                  fmt::format(FMT_COMPILE("{} {}"), ir::opKindName(op.kind), commentName(op.name)), partial);
      for (int pos = int(p_.compPos[v]) + 1; pos <= p_.carriedTo[v] && !p_.rematerialized[v]; ++pos)
        if (staged(uint32_t(pos)))
          stage_[{v, uint32_t(pos)}] =
              b_.reg(fmt::format(FMT_COMPILE("v{}_p{}"), v, pos), op.width(), "", partial);
      for (uint32_t pos : p_.counters[v])
        counter_[{v, pos}] = b_.reg(fmt::format(FMT_COMPILE("iv{}_p{}"), v, pos), op.width(), "", partial);
    }
    for (const auto& [c, sp] : subs_) {
      SubWires& w = sub_[c];
      auto name = [&](std::string_view what) { return fmt::format(FMT_COMPILE("sp{}_{}"), c, what); };
      w.start = b_.wire(name("start"), 1);
      w.done = b_.wire(name("done"), 1);
      // Invocations started and not done (a reinvocable inner loop drains one while it runs the next).
      w.inflight = b_.reg(name("inflight"), log2Ceil(p_.respFifoDepth[c] + 1) + 1);
      w.busy = b_.wire(name("busy"), 1);
      if (sp.plan->reinvocable) w.accept = b_.wire(name("accept"), 1);
      b_.observe(w.start), b_.observe(w.busy); // the inner loop's invocations, for the test bench
      for (size_t k = 0; k < sp.loop->liveOuts.size(); ++k)
        w.lo.push_back(
            b_.wire(name(fmt::format(FMT_COMPILE("lo_{}"), k)), sp.loop->ops[sp.loop->liveOuts[k]].width()));
      for (uint32_t m : sp.plan->memories)
        w.ports[m] =
            loopPortWires(b_, fmt::format(FMT_COMPILE("sp{}_"), c), m, portBits(m),
                          std::binary_search(sp.plan->loadMemories.begin(), sp.plan->loadMemories.end(), m));
      // The response at the capture position, then registers up to the last LoopOut reading it.
      uint32_t last = p_.compPos[c];
      for (ValueId v = 0; v < loop_.ops.size(); ++v)
        if (loop_.ops[v].kind == OpKind::LoopOut && loop_.ops[v].operands[0] == c)
          last = std::max(last, p_.compPos[v]);
      w.data.push_back(nullptr); // respDout_, made with the FIFO
      for (uint32_t pos = p_.compPos[c] + 1; pos <= last; ++pos)
        w.data.push_back(b_.reg(name(fmt::format(FMT_COMPILE("p{}"), pos)), responseWidth(c), "", true));
    }
    // On a port shared with inner loops this body's own requests go first: they are few (one per
    // access per iteration) and an iteration waiting for one holds up its row while an inner loop
    // streams (the other way round, a row's first load waited for a whole inner loop run).
    for (uint32_t m : mems_) {
      bool inner = false;
      for (const auto& [c, w] : sub_)
        inner = inner || w.ports.count(m);
      if (inner && memOps_.count(m) && !memOps_.at(m).empty())
        ownRequest_[m] = b_.wire(fmt::format(FMT_COMPILE("m{}_own_req"), m), 1);
    }
    lst_.resize(p_.F);
    for (uint32_t pos = p_.exitPos + 1; pos < p_.F; ++pos)
      if (staged(pos) && !lastFromCondition(pos))
        lst_[pos] = b_.reg(fmt::format(FMT_COMPILE("lst_p{}"), pos), 1);
    for (size_t k = 0; k < loop_.phis.size(); ++k)
      carry_.push_back(countedPhi(k) ? nullptr
                                     : b_.reg(fmt::format(FMT_COMPILE("carry{}"), k), loop_.phis[k].width()));
    if (!sf()) return;
    // The values each exit FIFO carries, as wires sliced from its output.
    for (uint32_t j = 0; j + 1 < p_.cuts.size(); ++j) {
      fifoLst_.push_back(
          lastFromCondition(p_.cuts[j + 1]) ? nullptr : b_.wire(fmt::format(FMT_COMPILE("f{}_lst"), j), 1));
      for (ValueId v : crossing(j))
        fifoValue_[{j, v}] = b_.wire(fmt::format(FMT_COMPILE("f{}_v{}"), j, v), width(v), "", partial_[v]);
    }
  }

  // Reinvocable: a live-in's value travels with its token from position 0; so do a flag marking an
  // invocation's first token and, up to where its phi is read, each phi's initial value.
  void reinvocableDeclarations() {
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (op.kind != OpKind::LiveIn || op.width() == 0) continue;
      for (int pos = 1; pos <= p_.lastUse[v]; ++pos)
        stage_[{v, uint32_t(pos)}] =
            b_.reg(fmt::format(FMT_COMPILE("v{}_p{}"), v, pos), op.width(), "", partial_[v]);
    }
    uint32_t last = 0; // the last position a phi is read at
    for (ValueId v = 0; v < loop_.ops.size(); ++v)
      if (loop_.ops[v].kind == OpKind::LoopPhi) last = std::max(last, p_.start[v]);
    for (uint32_t pos = 0; pos <= last; ++pos)
      first_.push_back(b_.reg(fmt::format(FMT_COMPILE("first_p{}"), pos), 1));
    for (size_t k = 0; k < loop_.phis.size(); ++k) {
      uint32_t at = 0;
      for (ValueId v = 0; v < loop_.ops.size(); ++v)
        if (loop_.ops[v].kind == OpKind::LoopPhi && loop_.ops[v].index == k) at = std::max(at, p_.start[v]);
      for (uint32_t pos = 1; pos <= at; ++pos)
        init_[{k, pos}] = b_.reg(fmt::format(FMT_COMPILE("init{}_p{}"), k, pos), loop_.phis[k].width());
    }
  }

  // Reinvocable: the staging of live-ins, first flags and initial values (first_p0: set by start,
  // cleared by the invocation's first issue).
  void reinvocableLogic() {
    for (ValueId v = 0; v < loop_.ops.size(); ++v)
      if (loop_.ops[v].kind == OpKind::LiveIn)
        for (int pos = 1; pos <= p_.lastUse[v]; ++pos)
          b_.drive(stage_.at({v, uint32_t(pos)})).updates = {{adv(), valueAt(v, uint32_t(pos - 1))}};
    nl::Register& f0 = b_.drive(first_[0]);
    f0.reset = rst_;
    f0.resetValue = nl::zero();
    f0.updates = {{start_, nl::one()}, {issue_, nl::zero()}};
    for (size_t pos = 1; pos < first_.size(); ++pos)
      b_.drive(first_[pos]).updates = {{adv(), first_[pos - 1] & valid_[pos - 1]}};
    for (auto& [key, r] : init_)
      b_.drive(r).updates = {{adv(), initAt(key.first, key.second - 1)}};
    b_.assign(accept_, ~running_);
  }
  ExprP initAt(size_t phi, uint32_t pos) const {
    return pos == 0 ? liQ_[loop_.phis[phi].initLiveIn] : init_.at({phi, pos});
  }

  // A counter register: cleared by `clear` (default: reset and loop start), +1 on `up` without
  // `down`, -1 the reverse.
  void counter(const ExprP& r, const ExprP& up, const ExprP& down, ExprP clear = nullptr) {
    nl::Register& reg = b_.drive(r);
    reg.reset = clear ? clear : clr_;
    reg.resetValue = nl::lit(0, r->width);
    ExprP one = nl::lit(1, r->width);
    reg.updates = {{up & ~down, nl::add(r, one)}, {~up & down, nl::sub(r, one)}};
  }

  // ---- control: issue, enables, admission, kill -----------------------------------------------
  void controlLogic() {
    const uint32_t q = p_.exitPos;
    b_.assign(exitDet_, valid_[q] & lastAt(q));
    for (uint32_t pos = 0; pos < p_.F; ++pos)
      b_.assign(vk_[pos], pos < q ? valid_[pos] & ~exitDet_ : valid_[pos]);

    std::vector<ExprP> issueTerms = {running_};
    if (p_.maxConcurrency > 0) {
      unsigned w = log2Ceil(p_.maxConcurrency + 1) + 1;
      ExprP inflight = b_.reg("inflight", w);
      issueTerms.push_back(nl::lt(inflight, nl::lit(p_.maxConcurrency, w)));
      counter(inflight, issue_, vk_[p_.F - 1] & adv());
    }
    if (!sf()) {
      // One enable freezes every position: a token that cannot do its memory operation stalls all.
      std::vector<ExprP> stalls;
      issueTerms.push_back(en_);
      for (ValueId i = 0; i < loop_.ops.size(); ++i) {
        const ir::Op& op = loop_.ops[i];
        if (!isRequest(op.kind)) continue;
        uint32_t t = p_.start[i];
        ExprP ready = readyOf(i);
        if (t == 0)
          issueTerms.push_back(~predAt(i, 0) | ready);
        else
          stalls.push_back(nl::all({vk_[t], predAt(i, t), ~ready}));
        if (hasResponse(op.kind))
          stalls.push_back(nl::all({vk_[p_.compPos[i]], predAt(i, p_.compPos[i]), ~respNonempty_.at(i)}));
      }
      b_.assign(en_, ~nl::any(stalls));
      if (p_.ii > 1) {
        unsigned w = log2Ceil(p_.ii);
        ExprP slot = b_.reg("slot", w);
        nl::Register& r = b_.drive(slot);
        r.reset = clr_;
        r.resetValue = nl::lit(0, w);
        r.updates = {
            {en_, nl::mux(nl::eq(slot, nl::lit(p_.ii - 1, w)), nl::lit(0, w), nl::add(slot, nl::lit(1, w)))}};
        issueTerms.push_back(nl::eq(slot, nl::lit(0, w)));
      }
      b_.assign(issue_, nl::all(issueTerms));
    } else {
      admission(nl::all(issueTerms));
    }
    nl::Register& run = b_.drive(running_);
    run.reset = rst_;
    run.resetValue = nl::zero();
    // Reinvocable: the exit token may sit at q while the pipeline stalls; the invocation ends (and
    // `accept` lets the next start) when it moves on, or the next start would be undone meanwhile.
    run.updates = {{start_, nl::one()}, {p_.reinvocable ? exitDet_ & adv() : exitDet_, nl::zero()}};
    // Valid bits and the last-iteration flag move with the tokens.
    for (uint32_t pos = 1; pos < p_.F; ++pos) {
      if (!ownValid(pos)) continue;
      nl::Register& r = b_.drive(valid_[pos]);
      r.reset = clr_;
      r.resetValue = nl::zero();
      r.updates = {{adv(), vk_[pos - 1]}};
    }
    for (uint32_t pos = q + 1; pos < p_.F; ++pos)
      if (lst_[pos]) b_.drive(lst_[pos]).updates = {{adv(), lastAt(pos - 1)}};
    for (size_t k = 0; k < loop_.liveIns.size(); ++k)
      if (liQ_[k] && !held(k)) b_.drive(liQ_[k]).updates = {{start_, li_[k]}};
  }

  // Stall-free clusters: admission of a token into cluster j by its credit counter, the II spacing,
  // the responses and request ports it needs, port priority, and carry gates.
  void admission(const ExprP& issueCond) {
    const uint32_t nc = uint32_t(p_.cuts.size());
    // Exit FIFOs: lst in bit 0 (unless the condition crosses too), then the crossing values upwards.
    for (uint32_t j = 0; j + 1 < nc; ++j) {
      std::vector<ValueId> xs = crossing(j);
      uint32_t c = p_.cuts[j + 1];
      std::vector<ExprP> parts;
      if (fifoLst_[j]) parts.push_back(lastAt(c - 1));
      for (ValueId v : xs)
        parts.push_back(valueAt(v, c - 1));
      std::reverse(parts.begin(), parts.end());
      ExprP din = nl::concat(parts);
      nl::Fifo f{fmt::format(FMT_COMPILE("f{}"), j),
                 din->width,
                 p_.exitFifoDepth[j],
                 false,
                 vk_[c - 1],
                 din,
                 admit_[j + 1],
                 start_};
      nl::ModuleBuilder::FifoOut out = b_.fifo(f);
      ExprP dout = out.dout;
      fifoNonempty_.push_back(out.nonempty);
      unsigned lo = 0;
      if (fifoLst_[j]) b_.assign(fifoLst_[j], nl::slice(dout, 0, 0)), lo = 1;
      for (ValueId v : xs) {
        b_.assign(fifoValue_.at({j, v}), nl::slice(dout, lo + width(v) - 1, lo));
        lo += width(v);
      }
      // Credits: tokens in cluster j plus its FIFO never exceed the FIFO depth.
      unsigned cw = log2Ceil(p_.exitFifoDepth[j]) + 1;
      credits_.push_back(b_.reg(fmt::format(FMT_COMPILE("cred{}"), j), cw));
      counter(credits_.back(), clusterIn(j), admit_[j + 1]);
    }
    // Carry-gate counters.
    std::map<uint32_t, ExprP> admitted;
    std::vector<ExprP> passed;
    for (size_t g = 0; g < p_.gates.size(); ++g) {
      passed.push_back(b_.reg(fmt::format(FMT_COMPILE("gate{}_passed"), g), 32));
      countUp(passed.back(), vk_[p_.gates[g].countPos]);
      uint32_t j = p_.gates[g].toCluster;
      if (!admitted.count(j)) {
        admitted[j] = b_.reg(fmt::format(FMT_COMPILE("adm{}_count"), j), 32);
        countUp(admitted[j], clusterIn(j));
      }
    }
    // Admission per cluster.
    for (uint32_t j = 0; j < nc; ++j) {
      uint32_t c = p_.cuts[j];
      std::vector<ExprP> conds = {j == 0 ? issueCond : fifoNonempty_[j - 1]};
      if (j + 1 < nc) {
        unsigned cw = log2Ceil(p_.exitFifoDepth[j]) + 1;
        conds.push_back(nl::lt(credits_[j], nl::lit(p_.exitFifoDepth[j], cw)));
      }
      if (p_.ii > 1) {
        unsigned w = log2Ceil(p_.ii);
        ExprP since = b_.reg(fmt::format(FMT_COMPILE("since{}"), j), w), last = nl::lit(p_.ii - 1, w);
        nl::Register& r = b_.drive(since);
        r.reset = clr_;
        r.resetValue = last;
        r.updates = {{clusterIn(j), nl::lit(0, w)}, {nl::ne(since, last), nl::add(since, nl::lit(1, w))}};
        conds.push_back(nl::eq(since, last));
      }
      for (ValueId i = 0; i < loop_.ops.size(); ++i) {
        const ir::Op& op = loop_.ops[i];
        if (!isRequest(op.kind)) continue;
        if (hasResponse(op.kind) && p_.compPos[i] == c) conds.push_back(~predAt(i, c) | respNonempty_.at(i));
        if (p_.start[i] == c) {
          std::vector<ExprP> free = {readyOf(i)};
          // A later cluster (older iteration) using the same port has priority.
          if (isMem(op.kind))
            for (ValueId o : memOps_.at(port(op)))
              if (p_.start[o] > c)
                free.push_back(~(admit_[p_.clusterOf(p_.start[o])] & predAt(o, p_.start[o])));
          conds.push_back(~predAt(i, c) | nl::all(free));
        }
      }
      for (size_t g = 0; g < p_.gates.size(); ++g) {
        const CarryGate& gate = p_.gates[g];
        if (gate.toCluster != j) continue;
        ExprP have = nl::add(passed[g], nl::lit(gate.distance, 32));
        if (gate.countAsAdmitted) have = nl::add(have, nl::resize(vk_[gate.countPos], 32));
        conds.push_back(nl::binary(nl::Op::Gt, have, admitted.at(j)));
      }
      b_.assign(admit_[j], nl::all(conds));
    }
  }

  void countUp(const ExprP& r, const ExprP& when) {
    nl::Register& reg = b_.drive(r);
    reg.reset = clr_;
    reg.resetValue = nl::lit(0, r->width);
    reg.updates = {{when, nl::add(r, nl::lit(1, r->width))}};
  }

  // ---- datapath -------------------------------------------------------------------------------
  void datapath() {
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const ir::Op& op = loop_.ops[v];
      if (!c_[v]) {
        if (onlyCarriedUnit(v) && p_.instances[size_t(p_.instanceOf[v])].ops.front() == v)
          unit(p_.instances[size_t(p_.instanceOf[v])]);
        continue;
      }
      uint32_t t = p_.start[v];
      ExprP e;
      switch (op.kind) {
      case OpKind::Load:
        e = respDout_.at(v);
        break;
      case OpKind::LoopPhi:
        e = phiRead(v);
        break;
      case OpKind::LoopOut: {
        const ValueId c = op.operands[0];
        const SubWires& w = sub_.at(c);
        unsigned lo = 0;
        for (uint32_t k = 0; k < op.index; ++k)
          lo += w.lo[k]->width;
        e = nl::slice(w.data.at(p_.compPos[v] - p_.compPos[c]), lo + op.width() - 1, lo);
        break;
      }
      default: {
        if (p_.instanceOf[v] >= 0) {
          const UnitInstance& inst = p_.instances[size_t(p_.instanceOf[v])];
          if (inst.ops.front() == v) unit(inst);
          break;
        }
        std::vector<ExprP> a;
        for (ValueId o : op.operands)
          a.push_back(valueAt(o, t));
        e = opExpr(op, a);
      }
      }
      if (e) b_.assign(c_[v], e);
      for (int pos = int(p_.compPos[v]) + 1; pos <= p_.carriedTo[v] && !p_.rematerialized[v]; ++pos)
        if (staged(uint32_t(pos)))
          b_.drive(stage_.at({v, uint32_t(pos)})).updates = {{adv(), valueAt(v, uint32_t(pos - 1))}};
    }
  }

  // A unit instance: operands in at start, advancing with the pipeline, its output at compPos (across
  // clusters: through its side FIFO). A shared instance takes the operands of the operation whose
  // start holds a valid token (at most one does: LoopPlan::instances), and its output is each
  // operation's result in the cycle that operation's token reaches compPos.
  void unit(const UnitInstance& inst) {
    const ValueId first = inst.ops.front(), last = inst.ops.back();
    std::vector<ExprP> a;
    for (size_t k = 0; k < loop_.ops[first].operands.size(); ++k) {
      std::vector<std::pair<ExprP, ExprP>> arms;
      for (ValueId o : inst.ops)
        if (o != last) arms.emplace_back(valid_[p_.start[o]], valueAt(loop_.ops[o].operands[k], p_.start[o]));
      a.push_back(nl::priorityMux(arms, valueAt(loop_.ops[last].operands[k], p_.start[last])));
    }
    const bool direct = inst.ops.size() == 1 && !p_.unitSpan(first);
    ExprP y = direct ? c_[first] : b_.wire(fmt::format(FMT_COMPILE("u{}_y"), first), width(first));
    b_.instance(unitInstance(inst.module, fmt::format(FMT_COMPILE("u_unit{}"), first), adv(), a, y));
    for (ValueId o : inst.ops) {
      if (p_.unitSpan(o)) unitOut_[o] = y;
      if (p_.sideFifoDepth[o])
        sideFifo(o, y);
      else if (!direct && c_[o])
        b_.assign(c_[o], y);
    }
  }

  // Stall-free, a unit whose span crosses clusters (the argument: LoopPlan::sideFifoDepth). Its
  // first cluster runs free, so the result of the token that left that cluster's last position e
  // comes out of the unit compPos - e cycles later: it is pushed then and popped when the token
  // reaches compPos, never earlier. First-word fall-through: the token may arrive in the very cycle.
  void sideFifo(ValueId v, const ExprP& y) {
    const uint32_t from = p_.clusterOf(p_.start[v]), e = p_.cuts[from + 1] - 1, cp = p_.compPos[v];
    auto out = b_.fifo({fmt::format(FMT_COMPILE("sf{}"), v), width(v), p_.sideFifoDepth[v], true,
                        exitValidDelayed(from, cp - e), y, vk_[cp], fifoClear_});
    b_.assign(c_[v], out.dout);
  }

  // vk of cluster j's last position, `d` >= 1 cycles ago (a register chain shared by its units).
  ExprP exitValidDelayed(uint32_t j, uint32_t d) {
    std::vector<ExprP>& chain = exitDelay_[j];
    while (chain.size() < d) {
      ExprP r = b_.reg(fmt::format(FMT_COMPILE("xv{}_d{}"), j, chain.size() + 1), 1);
      nl::Register& reg = b_.drive(r);
      reg.reset = clr_;
      reg.resetValue = nl::zero();
      reg.updates = {{nl::one(), chain.empty() ? vk_[p_.cuts[j + 1] - 1] : chain.back()}};
      chain.push_back(r);
    }
    return chain[d - 1];
  }

  // A unit's result that only writes a carry register as it comes out (LoopPlan::carryWhereFormed):
  // nothing in the pipeline reads it, so it has no side FIFO and no value of its own.
  bool onlyCarriedUnit(ValueId v) const { return p_.unitSpan(v) && !p_.sideFifoDepth[v]; }

  // The next value of a phi counted where it is read, and read by nothing else: not built.
  bool onlyCountedNext(ValueId v) const {
    bool next = false;
    for (ValueId u = 0; u < loop_.ops.size(); ++u) {
      const ir::Op& op = loop_.ops[u];
      if (std::find(op.operands.begin(), op.operands.end(), v) != op.operands.end()) return false;
      if (op.kind == OpKind::LoopPhi && loop_.phis[op.index].next == v) {
        if (!p_.phiCounted(u)) return false;
        next = true;
      }
    }
    return next && loop_.continueCond != v && p_.instanceOf[v] < 0 &&
           std::find(loop_.liveOuts.begin(), loop_.liveOuts.end(), v) == loop_.liveOuts.end();
  }

  // Phi k is read only where it is counted (LoopPlan::phiCounted): no carry register.
  bool countedPhi(size_t k) const {
    for (ValueId v = 0; v < loop_.ops.size(); ++v)
      if (loop_.ops[v].kind == OpKind::LoopPhi && loop_.ops[v].index == k && p_.phiCounted(v)) return true;
    return false;
  }

  ExprP phiRead(ValueId v) const {
    const ir::Op& op = loop_.ops[v];
    if (p_.phiCounted(v)) return counter_.at({v, p_.compPos[v]});
    // Reinvocable: an invocation's first token reads the initial value it carries.
    if (p_.reinvocable) {
      const uint32_t s = p_.start[v];
      return nl::mux(first_[s], initAt(op.index, s), phiReadCarried(v));
    }
    return phiReadCarried(v);
  }
  ExprP phiReadCarried(ValueId v) const {
    const ir::Op& op = loop_.ops[v];
    const ir::LoopPhi& ph = loop_.phis[op.index];
    // Forward the value the previous iteration is producing in this very cycle (the plan decides).
    if (p_.forwardPos[v] >= 0) {
      uint32_t rn = uint32_t(p_.forwardPos[v]);
      // Raw valid, not vk: a squashed producer implies a squashed reader, and the exit detection may
      // itself depend on this phi.
      return nl::mux(valid_[rn], valueAt(ph.next, rn), carry_[op.index]);
    }
    return carry_[op.index];
  }

  void carries() {
    // An induction variable's counters: its initial value at start, a step per token leaving.
    for (const auto& [key, reg] : counter_) {
      const ir::Op& op = loop_.ops[key.first];
      const uint64_t step = *inductionStep(loop_, key.first);
      b_.drive(reg).updates = {{start_, li_[loop_.phis[op.index].initLiveIn]},
                               {vk_[key.second] & adv(), nl::add(reg, nl::lit(step, op.width()))}};
    }
    for (size_t k = 0; k < loop_.phis.size(); ++k) {
      if (!carry_[k]) continue;
      const ir::LoopPhi& ph = loop_.phis[k];
      uint32_t rn = p_.readyPos[ph.next];
      bool whereFormed = false;
      for (ValueId v = 0; v < loop_.ops.size(); ++v)
        whereFormed |=
            loop_.ops[v].kind == OpKind::LoopPhi && loop_.ops[v].index == k && p_.carryWhereFormed[v];
      if (whereFormed && p_.unitSpan(ph.next)) {
        // As the unit's result comes out (LoopPlan::carryWhereFormed): when it is pushed into its side FIFO.
        const uint32_t from = p_.clusterOf(p_.start[ph.next]), e = p_.cuts[from + 1] - 1;
        b_.drive(carry_[k]).updates = {
            {start_, li_[ph.initLiveIn]},
            {exitValidDelayed(from, p_.compPos[ph.next] - e), unitOut_.at(ph.next)}};
        continue;
      }
      if (whereFormed) rn = p_.compPos[ph.next]; // written as it leaves the cluster it is formed in
      if (p_.reinvocable) // the first token takes its initial value (phiRead)
        b_.drive(carry_[k]).updates = {{vk_[rn] & adv(), valueAt(ph.next, rn)}};
      else
        b_.drive(carry_[k]).updates = {{start_, li_[ph.initLiveIn]}, {vk_[rn] & adv(), valueAt(ph.next, rn)}};
    }
  }

  // ---- inner loops (sub-pipelines) ------------------------------------------------------------------
  unsigned responseWidth(ValueId c) const {
    unsigned w = 0;
    for (ValueId o : subs_.at(c).loop->liveOuts)
      w += subs_.at(c).loop->ops[o].width();
    return std::max(w, 1u);
  }

  // Each inner loop: its instance, started by the call's request (while it is idle), its done and
  // live-outs pushed into the call's response FIFO, popped at the capture position as a load's.
  void subPipelines() {
    for (const auto& [c, sp] : subs_) {
      SubWires& w = sub_.at(c);
      const ir::Op& call = loop_.ops[c];
      const uint32_t t = p_.start[c];
      fire_[c] = b_.named(fmt::format(FMT_COMPILE("fire{}"), c), fire(c));
      b_.assign(w.start, fire_[c]);
      counter(w.inflight, fire_[c], w.done, rst_);
      b_.assign(w.busy, nl::ne(w.inflight, nl::lit(0, w.inflight->width)));
      std::vector<ExprP> parts(w.lo.rbegin(), w.lo.rend());
      ExprP din = parts.empty() ? nl::zero() : nl::concat(parts);
      nl::Fifo f{fmt::format(FMT_COMPILE("rf{}"), c),
                 din->width,
                 p_.respFifoDepth[c],
                 true,
                 w.done,
                 din,
                 capture(c),
                 start_};
      f.doutUnread = w.lo.empty(); // no live-outs: only that the call is done matters
      auto out = b_.fifo(f);
      respDout_[c] = out.dout;
      respNonempty_[c] = out.nonempty;
      w.data[0] = out.dout;
      for (size_t k = 1; k < w.data.size(); ++k)
        b_.drive(w.data[k]).updates = {{adv(), w.data[k - 1]}};
      nl::Instance inst{sp.module, fmt::format(FMT_COMPILE("u_sub{}"), c), {}};
      auto& conn = inst.connections;
      conn = {{"clk", nl::ref("clk", 1)}, {"rst", rst_}, {"start", w.start}, {"done", w.done}};
      if (w.accept) conn.emplace_back("accept", w.accept);
      for (size_t k = 0; k < sp.loop->liveIns.size(); ++k)
        conn.emplace_back(fmt::format(FMT_COMPILE("li_{}"), k), valueAt(call.operands[k], t));
      for (size_t k = 0; k < w.lo.size(); ++k)
        conn.emplace_back(fmt::format(FMT_COMPILE("lo_{}"), k), w.lo[k]);
      for (const auto& [m, q] : w.ports) // after this body's own requests
        connectLoopPort(inst, m, q, innerReady(m), q.respValid, ports_.at(m).respData);
      b_.instance(std::move(inst));
    }
  }

  // ---- memory ports -----------------------------------------------------------------------------
  // An inner loop's request is accepted when the port is ready and this body does not request it.
  ExprP innerGrant(uint32_t m) const {
    auto it = ownRequest_.find(m);
    return it == ownRequest_.end() ? nl::one() : ~it->second;
  }
  ExprP innerReady(uint32_t m) const { return ports_.at(m).reqReady & innerGrant(m); }
  // An inner loop's request side as it reaches the port: all-zero while not granted.
  nl::MemPort granted(const nl::MemPort& q, uint32_t m) const {
    if (!ownRequest_.count(m)) return q;
    const ExprP g = innerGrant(m);
    nl::MemPort r = q;
    r.reqValid = q.reqValid & g;
    r.reqWrite = q.reqWrite & g;
    r.reqAddr = q.reqAddr & nl::replicate(g, q.reqAddr->width);
    r.reqSize = q.reqSize & nl::replicate(g, q.reqSize->width);
    r.reqWdata = q.reqWdata & nl::replicate(g, q.reqWdata->width);
    return r;
  }

  ExprP fire(ValueId i) const {
    uint32_t t = p_.start[i];
    if (sf()) return admit_[p_.clusterOf(t)] & predAt(i, t);
    return t == 0 ? vk_[t] & predAt(i, t) : nl::all({vk_[t], predAt(i, t), en_});
  }
  ExprP capture(ValueId i) const {
    uint32_t c = p_.compPos[i];
    if (sf()) return admit_[p_.clusterOf(c)] & predAt(i, c);
    return nl::all({vk_[c], predAt(i, c), en_});
  }

  void memoryLogic() {
    for (uint32_t m : mems_) {
      const nl::MemPort& port = ports_.at(m);
      std::vector<nl::MemRequest> reqs;
      for (ValueId i : memOps_[m]) {
        const ir::Op& op = loop_.ops[i];
        uint32_t t = p_.start[i];
        fire_[i] = b_.named(fmt::format(FMT_COMPILE("fire{}"), i), fire(i));
        bool store = op.kind == OpKind::Store;
        reqs.push_back({fire_[i], store, valueAt(op.operands[0], t), nl::lit(op.size, port.sizeWidth()),
                        store ? valueAt(op.operands[1], t) : nullptr});
      }
      if (auto it = ownRequest_.find(m); it != ownRequest_.end()) {
        std::vector<ExprP> own;
        for (const nl::MemRequest& r : reqs)
          own.push_back(r.when);
        b_.assign(it->second, nl::any(own));
      }
      // Inner loops on this port: idle or not granted, their requests reach it all-zero, so OR-ing
      // them with this body's is a mux.
      std::map<ValueId, nl::MemPort> inner; // per inner loop on this port: its granted request side
      std::vector<nl::MemPort> merged;
      for (const auto& [c, w] : sub_)
        if (auto it = w.ports.find(m); it != w.ports.end())
          merged.push_back(inner[c] = granted(it->second, m));
      const bool sole = std::binary_search(p_.soleDriverOf.begin(), p_.soleDriverOf.end(), m);
      nl::driveRequests(b_, port, reqs, nullptr, merged, !sole);
      // Who receives each response: this body's loads and the inner loops that load from the port.
      // With several, a tag FIFO records the order of the accepted reads (the port answers in order).
      struct Reader {
        ExprP request;   // a read accepted in this cycle, given the port is ready
        ValueId load;    // this body's load, or kNone
        ExprP respValid; // an inner loop's response valid input
        uint64_t outstanding;
      };
      std::vector<Reader> readers;
      for (ValueId i : memLoads_[m])
        readers.push_back({fire_.at(i), i, nullptr, p_.respFifoDepth[i]});
      for (const auto& [c, q] : inner)
        if (q.respValid)
          readers.push_back(
              {q.reqValid & ~q.reqWrite, ir::kNone, q.respValid, subs_.at(c).outstanding.at(m)});
      auto deliver = [&](const Reader& r, const ExprP& valid) {
        if (r.load != ir::kNone)
          respFifo(r.load, valid, port);
        else
          b_.assign(r.respValid, valid);
      };
      if (readers.empty()) continue;
      if (readers.size() == 1) {
        deliver(readers[0], port.respValid);
        continue;
      }
      unsigned tw = std::max(1u, log2Ceil(readers.size()));
      uint64_t depth = 0;
      for (const Reader& r : readers)
        depth += r.outstanding;
      std::vector<std::pair<ExprP, ExprP>> tags;
      std::vector<ExprP> requests;
      for (size_t k = readers.size(); k-- > 0;) { // the last has priority, as in the request muxes
        tags.emplace_back(readers[k].request, nl::lit(k, tw));
        requests.push_back(readers[k].request);
      }
      ExprP tag = b_.fifo({fmt::format(FMT_COMPILE("tag{}"), m), tw, roundUpPow2(depth), false,
                           port.reqReady & nl::any(requests), nl::priorityMux(tags, nl::lit(0, tw)),
                           port.respValid, fifoClear_})
                      .dout;
      for (size_t k = 0; k < readers.size(); ++k)
        deliver(readers[k], port.respValid & nl::eq(tag, nl::lit(k, tw)));
    }
  }

  void respFifo(ValueId i, const ExprP& push, const nl::MemPort& port) {
    unsigned w = width(i);
    auto out = b_.fifo({fmt::format(FMT_COMPILE("rf{}"), i), w, p_.respFifoDepth[i], true, push,
                        nl::resize(port.respData, w), capture(i), fifoClear_});
    respDout_[i] = out.dout;
    respNonempty_[i] = out.nonempty;
  }

  // ---- sink ----------------------------------------------------------------------------------
  void sink() {
    uint32_t last = p_.F - 1;
    ExprP leaveLast = b_.named("leave_last", nl::all({vk_[last], lastAt(last), adv()}));
    nl::Register& d = b_.drive(done_);
    d.reset = clr_;
    d.resetValue = nl::zero();
    d.updates = {{nl::one(), leaveLast}};
    for (size_t k = 0; k < loop_.liveOuts.size(); ++k)
      b_.drive(lo_[k]).updates = {{leaveLast, valueAt(loop_.liveOuts[k], last)}};
  }
};

} // namespace

nl::Module generateLoopModule(const ir::Loop& loop, const LoopPlan& plan,
                              const std::vector<ir::Memory>& memories, const std::string& moduleName,
                              const std::map<ValueId, SubPipeline>& subs) {
  return LoopWriter(loop, plan, memories, moduleName, subs).run();
}

} // namespace spvhls::rtl
