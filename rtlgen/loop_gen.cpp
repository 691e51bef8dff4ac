#include "rtlgen/loop_gen.h"

#include <algorithm>
#include <set>

#include "rtlgen/loop_writer.h"

namespace spvhls::rtl {

namespace loopgen {

ExprP LoopWriter::valueAt(ValueId v, uint32_t pos) const {
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
                        fmt::format(FMT_COMPILE("loop_gen: v{} read at {} before it is formed at {}"), v, pos,
                                    p_.compPos[v]));
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

bool LoopWriter::lastFromCondition(uint32_t pos) const {
  const ValueId c = loop_.continueCond;
  return pos > p_.exitPos && !isGlobal(loop_.ops[c].kind) && !p_.rematerialized[c] && p_.compPos[c] <= pos &&
         int(pos) <= p_.carriedTo[c];
}

ExprP LoopWriter::lastAt(uint32_t pos) const {
  if (pos == p_.exitPos || lastFromCondition(pos)) return ~valueAt(loop_.continueCond, pos);
  if (sf() && p_.isCut(pos)) return fifoLst_[p_.clusterOf(pos) - 1];
  return lst_[pos];
}

ExprP LoopWriter::predAt(ValueId op, uint32_t pos) const {
  const ir::Op& o = loop_.ops[op];
  size_t idx = o.kind == OpKind::Load ? 1 : o.kind == OpKind::LoopCall ? o.operands.size() - 1 : 2;
  if (o.operands.size() <= idx || o.operands[idx] == ir::kNone) return nl::one();
  return valueAt(o.operands[idx], pos);
}

bool LoopWriter::initOfPhi(size_t k) const {
  for (const ir::LoopPhi& ph : loop_.phis)
    if (ph.initLiveIn == k) return true;
  return false;
}

bool LoopWriter::liveInUsed(size_t k) const {
  for (const ir::Op& op : loop_.ops)
    if (op.kind == OpKind::LiveIn && op.index == k) return true;
  return false;
}

bool LoopWriter::liveInPartial(size_t k) const {
  bool partial = false;
  for (ValueId v = 0; v < loop_.ops.size(); ++v)
    if (loop_.ops[v].kind == OpKind::LiveIn && loop_.ops[v].index == k) partial |= partial_[v];
  return partial;
}

unsigned LoopWriter::liveInWidth(size_t k) const {
  for (const ir::Op& op : loop_.ops)
    if (op.kind == OpKind::LiveIn && op.index == k) return op.width();
  for (const ir::LoopPhi& ph : loop_.phis)
    if (ph.initLiveIn == k) return ph.width();
  return 1;
}

std::vector<ValueId> LoopWriter::crossing(uint32_t j) const {
  std::vector<ValueId> out;
  for (ValueId v = 0; v < loop_.ops.size(); ++v)
    if (p_.carriedAcross(loop_, v, p_.cuts[j + 1])) out.push_back(v);
  return out;
}

void LoopWriter::declarations() {
  running_ = b_.reg("running", 1);
  liQ_.resize(loop_.liveIns.size());
  for (size_t k = 0; k < loop_.liveIns.size(); ++k) {
    if (!liveInUsed(k) && !(p_.reinvocable && initOfPhi(k))) continue;
    // Held by the driver until done (LoopPlan::liveInHeld): read where it comes in.
    liQ_[k] = held(k) ? li_[k]
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
    const uint32_t copies = sp.loop->copies;
    w.start = b_.wire(name("start"), 1);
    if (copies > 1) {
      w.busy = b_.wire(name("busy"), 1);
      w.dispatch = b_.reg(name("dispatch"), log2Ceil(copies));
      w.collect = b_.reg(name("collect"), log2Ceil(copies));
    }
    for (uint32_t j = 0; j < copies; ++j) {
      SubCopy& cp = w.copies.emplace_back();
      auto copyName = [&](std::string_view what) {
        return copies == 1 ? name(what) : fmt::format(FMT_COMPILE("sp{}_{}_{}"), c, j, what);
      };
      cp.start = copies == 1 ? w.start : b_.wire(copyName("start"), 1);
      cp.done = b_.wire(copyName("done"), 1);
      // Invocations started and not done (a reinvocable inner loop drains one while it runs the next).
      cp.inflight = b_.reg(copyName("inflight"), log2Ceil(p_.respFifoDepth[c] + 1) + 1);
      cp.busy = b_.wire(copyName("busy"), 1);
      if (copies == 1) w.busy = cp.busy;
      if (sp.plan->reinvocable) cp.accept = b_.wire(copyName("accept"), 1);
      // The inner loop's calls, and whether one could start (a waiting call did), for the test bench.
      if (copies == 1) {
        b_.observe(w.start), b_.observe(w.busy);
        b_.observe(cp.accept ? cp.accept : cp.done);
      }
      for (size_t k = 0; k < sp.loop->liveOuts.size(); ++k)
        cp.lo.push_back(b_.wire(copyName(fmt::format(FMT_COMPILE("lo_{}"), k)),
                                sp.loop->ops[sp.loop->liveOuts[k]].width()));
    }
    if (copies > 1) b_.observe(w.start), b_.observe(w.busy);
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

void LoopWriter::reinvocableDeclarations() {
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

void LoopWriter::reinvocableLogic() {
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

ExprP LoopWriter::initAt(size_t phi, uint32_t pos) const {
  return pos == 0 ? liQ_[loop_.phis[phi].initLiveIn] : init_.at({phi, pos});
}

void LoopWriter::counter(const ExprP& r, const ExprP& up, const ExprP& down, ExprP clear) {
  nl::Register& reg = b_.drive(r);
  reg.reset = clear ? clear : clr_;
  reg.resetValue = nl::lit(0, r->width);
  ExprP one = nl::lit(1, r->width);
  reg.updates = {{up & ~down, nl::add(r, one)}, {~up & down, nl::sub(r, one)}};
}

void LoopWriter::controlLogic() {
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
      if (p_.reinvocable) { // a start into an empty pipeline restarts the slots, as in any other loop
        std::vector<ExprP> held(valid_.begin() + 1, valid_.end());
        r.reset = rst_ | (start_ & ~nl::any(held));
      }
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

void LoopWriter::admission(const ExprP& issueCond) {
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

void LoopWriter::countUp(const ExprP& r, const ExprP& when) {
  nl::Register& reg = b_.drive(r);
  reg.reset = clr_;
  reg.resetValue = nl::lit(0, r->width);
  reg.updates = {{when, nl::add(r, nl::lit(1, r->width))}};
}

void LoopWriter::datapath() {
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
        lo += w.copies[0].lo[k]->width;
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

void LoopWriter::unit(const UnitInstance& inst) {
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

void LoopWriter::sideFifo(ValueId v, const ExprP& y) {
  auto out = b_.fifo({fmt::format(FMT_COMPILE("sf{}"), v), width(v), p_.sideFifoDepth[v], true,
                      unitResultValid(v), y, vk_[p_.compPos[v]], fifoClear_});
  b_.assign(c_[v], out.dout);
}

ExprP LoopWriter::unitResultValid(ValueId v) {
  const uint32_t from = p_.clusterOf(p_.start[v]), e = p_.cuts[from + 1] - 1;
  return exitValidDelayed(from, p_.compPos[v] - e);
}

ExprP LoopWriter::exitValidDelayed(uint32_t j, uint32_t d) {
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

bool LoopWriter::onlyCountedNext(ValueId v) const {
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

bool LoopWriter::countedPhi(size_t k) const {
  for (ValueId v = 0; v < loop_.ops.size(); ++v)
    if (loop_.ops[v].kind == OpKind::LoopPhi && loop_.ops[v].index == k && p_.phiCounted(v)) return true;
  return false;
}

ExprP LoopWriter::phiRead(ValueId v) const {
  const ir::Op& op = loop_.ops[v];
  if (p_.phiCounted(v)) return counter_.at({v, p_.compPos[v]});
  // Reinvocable: an invocation's first token reads the initial value it carries.
  if (p_.reinvocable) {
    const uint32_t s = p_.start[v];
    return nl::mux(first_[s], initAt(op.index, s), phiReadCarried(v));
  }
  return phiReadCarried(v);
}

ExprP LoopWriter::phiReadCarried(ValueId v) const {
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

void LoopWriter::carries() {
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
    if (p_.carryWhereFormed[k] && p_.unitSpan(ph.next)) {
      // As the unit's result comes out (LoopPlan::carryWhereFormed).
      b_.drive(carry_[k]).updates = {{start_, li_[ph.initLiveIn]},
                                     {unitResultValid(ph.next), unitOut_.at(ph.next)}};
      continue;
    }
    if (p_.carryWhereFormed[k]) rn = p_.compPos[ph.next]; // written as it leaves the cluster it is formed in
    if (p_.reinvocable)                        // the first token takes its initial value (phiRead)
      b_.drive(carry_[k]).updates = {{vk_[rn] & adv(), valueAt(ph.next, rn)}};
    else
      b_.drive(carry_[k]).updates = {{start_, li_[ph.initLiveIn]}, {vk_[rn] & adv(), valueAt(ph.next, rn)}};
  }
}

void LoopWriter::sink() {
  uint32_t last = p_.F - 1;
  ExprP leaveLast = b_.named("leave_last", nl::all({vk_[last], lastAt(last), adv()}));
  nl::Register& d = b_.drive(done_);
  d.reset = clr_;
  d.resetValue = nl::zero();
  d.updates = {{nl::one(), leaveLast}};
  for (size_t k = 0; k < loop_.liveOuts.size(); ++k)
    b_.drive(lo_[k]).updates = {{leaveLast, valueAt(loop_.liveOuts[k], last)}};
}

} // namespace loopgen

nl::Module generateLoopModule(const ir::Loop& loop, const LoopPlan& plan,
                              const std::vector<ir::Memory>& memories, const std::string& moduleName,
                              const std::map<ir::ValueId, SubPipeline>& subs) {
  return loopgen::LoopWriter(loop, plan, memories, moduleName, subs).run();
}

} // namespace spvhls::rtl
