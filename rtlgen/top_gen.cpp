// The kernel's top module: argument latches, the FSM that runs the CFG blocks by their sequential
// schedules, the pipelined loop instances it starts, and the memory ports they share.
//
// FSM timing: `start` in cycle 0; the entry block's cycle 0 is cycle 1. A block takes blockCycles
// cycles (its schedule, terminator in the last); operations fire in their scheduled cycle and every
// result is held in a register. The FSM stalls (one enable) while a request is not accepted, a read
// response has not arrived, or a started loop has not signalled done. `done` is seen the cycle after
// the returning block's last cycle.
#include "rtlgen/top_gen.h"

#include "rtlgen/top_writer.h"

namespace spvhls::rtl {

namespace topgen {

void TopWriter::computeBlockCycles() {
  uint32_t maxLen = 1;
  for (uint32_t len : in_.plan->fsm.blockCycles)
    maxLen = std::max(maxLen, len);
  blkW_ = std::max(1u, log2Ceil(k_.blocks.size()));
  cycW_ = std::max(1u, log2Ceil(maxLen));
}

ExprP TopWriter::at(uint32_t b, int cyc) {
  ExprP& e = at_[{b, cyc}];
  if (!e) e = nl::eq(blk_, nl::lit(b, blkW_)) & nl::eq(cyc_, nl::lit(uint64_t(cyc), cycW_));
  return e;
}

ExprP TopWriter::loopOut(ValueId v) const {
  const ir::Op& op = k_.ops[v];
  return nl::ref(fmt::format(FMT_COMPILE("lp{}_lo_{}"), k_.ops[op.operands[0]].index, op.index), op.width());
}

ExprP TopWriter::regOf(ValueId v) {
  if (!reg_[v]) {
    const ir::Op& op = k_.ops[v];
    reg_[v] =
        b_.reg(fmt::format(FMT_COMPILE("r{}"), v), op.width(),
               fmt::format(FMT_COMPILE("{} {}"), ir::opKindName(op.kind), commentName(op.name)), partial_[v]);
  }
  return reg_[v];
}

ExprP TopWriter::value(ValueId v, uint32_t block, int cyc) {
  const ir::Op& op = k_.ops[v];
  switch (op.kind) {
  case OpKind::Const:
    return nl::lit(op.imm, op.width());
  case OpKind::Undef:
    return nl::lit(0, op.width());
  case OpKind::Arg:
    return argQ_.at(op.index);
  case OpKind::LoopOut: // the loop's own register, written when it is done, held until it next is
    return loopOut(v);
  default:
    break;
  }
  // Zero-latency operations are also visible combinationally in the cycle they are formed.
  if (op.block == block && lat(v) == 0 && formCycle(v) == cyc && wire_[v]) return wire_[v];
  return regOf(v);
}

void TopWriter::ports() {
  b_.input("clk", 1);
  rst_ = b_.input("rst", 1);
  start_ = b_.input("start", 1);
  busy_ = b_.output("busy", 1, nl::Storage::Reg);
  done_ = b_.output("done", 1, nl::Storage::Reg);
  // A task body returns its value on `result`, valid from `done` until the next start.
  if (!k_.result.isNone()) result_ = b_.output("result", k_.result.width(), nl::Storage::Reg);
  ports_.resize(ir::portCount(k_.memories));
  args_.resize(k_.args.size());
  for (size_t i = 0; i < k_.args.size(); ++i) {
    const ir::KernelArg& a = k_.args[i];
    if (a.isPointer)
      ports_.at(a.memory) =
          nl::addMemoryPort(b_, portSpec("mem_" + argName(uint32_t(i)), a.memory), nl::PortRole::Master);
    else // an argument the kernel does not read (an ND-range size it has no use for) stays a port
      args_[i] = b_.input("arg_" + argName(uint32_t(i)), a.width(), !argUsed(uint32_t(i)));
  }
  for (size_t m = 0; m < k_.memories.size(); ++m)
    if (k_.memories[m].kind == ir::Memory::Kind::External || k_.memories[m].ownQueue())
      ports_[m] = nl::addMemoryPort(b_, portSpec("mem_" + in_.externalNames.at(m), m), nl::PortRole::Master);
}

nl::MemPortSpec TopWriter::portSpec(std::string prefix, uint32_t m) const {
  return {std::move(prefix), true, true, nl::kPortAddrWidth, k_.memories.at(m).wordBits};
}

bool TopWriter::argUsed(uint32_t i) const {
  for (const ir::Op& op : k_.ops)
    if (op.kind == OpKind::Arg && op.index == i) return true;
  return false;
}

bool TopWriter::argPartial(uint32_t i) const {
  for (ValueId v = 0; v < k_.ops.size(); ++v)
    if (k_.ops[v].kind == OpKind::Arg && k_.ops[v].index == i && partial_[v]) return true;
  return false;
}

void TopWriter::declarations() {
  blk_ = b_.reg("blk", blkW_);
  cyc_ = b_.reg("cyc", cycW_);
  b_.observe(blk_); // where the FSM is when a simulation stops without done
  b_.observe(cyc_);
  fsmEn_ = b_.wire("fsm_en", 1);
  argQ_.resize(k_.args.size());
  for (size_t i = 0; i < k_.args.size(); ++i)
    if (!k_.args[i].isPointer && argUsed(uint32_t(i))) {
      argQ_[i] = b_.reg(fmt::format(FMT_COMPILE("arg_{}_q"), argName(uint32_t(i))), k_.args[i].width(), "",
                        argPartial(uint32_t(i)));
      b_.drive(argQ_[i]).updates = {{start_ & ~busy_, args_[i]}};
    }
  for (ValueId v = 0; v < k_.ops.size(); ++v) {
    const ir::Op& op = k_.ops[v];
    if (op.width() == 0 || leaf(op.kind)) continue;
    if (op.kind == OpKind::Phi) regOf(v);
    if (op.kind != OpKind::Phi && op.kind != OpKind::LoopOut && op.kind != OpKind::Load &&
        op.kind != OpKind::Call && op.kind != OpKind::Param && op.kind != OpKind::TaskGet)
      wire_[v] = b_.wire(fmt::format(FMT_COMPILE("w{}"), v), op.width(),
                         fmt::format(FMT_COMPILE("{} {}"), ir::opKindName(op.kind), commentName(op.name)),
                         partial_[v]);
  }
}

void TopWriter::fsm() {
  std::vector<ExprP> stalls;
  // Per task process: the FSM's asyncs (when, arguments), gets and releases.
  std::vector<std::vector<std::pair<ExprP, ExprP>>> asyncs(k_.processes.size());
  std::vector<std::vector<ExprP>> gets(k_.processes.size()), releases(k_.processes.size());
  auto upd = [&](ValueId v, ExprP when, ExprP value) {
    regUpdates_.push_back({v, {busy_ & fsmEn_ & when, std::move(value)}});
  };
  forEachOp([&](uint32_t b, ValueId v, const ir::Op& op) {
    int t = start(v), f = formCycle(v);
    switch (op.kind) {
    case OpKind::Phi:
      break; // written on the incoming edge
    case OpKind::Load: {
      stalls.push_back(at(b, t) & ~ports_[port(op)].reqReady);
      const auto& resp = fsmResp_.at(port(op));
      stalls.push_back(at(b, f) & ~resp.nonempty);
      upd(v, at(b, f), nl::resize(resp.dout, op.width()));
      break;
    }
    case OpKind::Store:
      stalls.push_back(at(b, t) & ~ports_[port(op)].reqReady);
      break;
    case OpKind::LoopCall:
      stalls.push_back(at(b, t) & ~loopDone_.at(op.index));
      break;
    case OpKind::Call:
    case OpKind::Param:
      break; // written by the FSM's jumps (callJump, returnJump)
    case OpKind::TaskAsync: {
      std::vector<ExprP> parts; // the first argument lowest
      for (auto o = op.operands.rbegin(); o != op.operands.rend(); ++o)
        parts.push_back(value(*o, b, t));
      stalls.push_back(at(b, t) & task_[op.index].invokeFull);
      asyncs[op.index].emplace_back(at(b, t), parts.empty() ? nl::lit(0, 1) : nl::concat(parts));
      break;
    }
    case OpKind::TaskGet:
      stalls.push_back(at(b, t) & ~task_[op.index].result.nonempty);
      gets[op.index].push_back(at(b, t));
      if (op.width()) upd(v, at(b, t), nl::resize(task_[op.index].result.dout, op.width()));
      break;
    case OpKind::TaskRelease:
      stalls.push_back(at(b, t) & ~task_[op.index].idle);
      releases[op.index].push_back(at(b, t));
      break;
    case OpKind::LoopOut:
      break; // read from the loop (loopOut)
    default: {
      if (op.width() == 0 || leaf(op.kind)) break;
      std::vector<ExprP> a;
      const std::string& unit = in_.plan->fsm.unitModule[v];
      // A unit instance takes its operands at start and advances with the FSM; an inline
      // expression reads them, held in registers, in the cycle it is formed.
      for (ValueId o : op.operands)
        a.push_back(value(o, b, unit.empty() ? f : start(v)));
      if (unit.empty())
        b_.assign(wire_[v], opExpr(op, a));
      else
        b_.instance(unitInstance(unit, fmt::format(FMT_COMPILE("u_unit{}"), v), fsmEn_, a, wire_[v]));
      upd(v, at(b, f), wire_[v]);
    }
    }
  });
  // The kernel is done when its tasks are: their stores have all been accepted. Results nobody
  // will get are discarded meanwhile (a task waiting for room would never finish).
  std::vector<ExprP> returning;
  if (tasksIdle_)
    for (uint32_t b = 0; b < k_.blocks.size(); ++b)
      if (k_.blocks[b].term.kind == ir::Terminator::Kind::Return && functionOf_[b] < 0) {
        returning.push_back(at(b, int(in_.plan->fsm.blockCycles[b]) - 1));
        stalls.push_back(returning.back() & ~tasksIdle_);
      }
  b_.assign(fsmEn_, ~nl::any(stalls));
  for (size_t p = 1; p < task_.size(); ++p) {
    TaskHw& t = task_[p];
    std::vector<ExprP> when;
    for (const auto& [w, a] : asyncs[p])
      when.push_back(w);
    std::vector<ExprP> pushes = {nl::all({busy_, fsmEn_, nl::any(when)})},
                       pops = {nl::all({busy_, fsmEn_, nl::any(gets[p])})};
    // Pipelined loops reach the queues through their ports (Memory::Kind::Queue): a store pushes, a
    // load pops; the FSM waits while a loop runs, so the two never meet.
    if (t.invokeQueue) {
      const nl::MemPort& q = *t.invokeQueue;
      pushes.push_back(t.loopPush);
      asyncs[p].emplace_back(q.reqValid & q.reqWrite, nl::slice(q.reqWdata, t.args->width - 1, 0));
    }
    if (t.resultQueue) pops.push_back(t.loopPop);
    b_.assign(t.push, nl::any(pushes));
    b_.assign(t.args, nl::priorityMux(asyncs[p], nl::lit(0, t.args->width)));
    b_.assign(t.get, nl::any(pops));
    // A release discards results while it waits for the task to be idle, so that the task's last
    // invocations find room for theirs and finish.
    std::vector<ExprP> discard = releases[p];
    discard.insert(discard.end(), returning.begin(), returning.end());
    b_.assign(t.discard, busy_ & nl::any(discard));
  }
  // Control: advance within the block, or take the terminator in its last cycle.
  nl::Stmt cases;
  cases.kind = nl::Stmt::Kind::Case;
  cases.expr = blk_;
  for (uint32_t b = 0; b < k_.blocks.size(); ++b) {
    int last = int(in_.plan->fsm.blockCycles[b]) - 1;
    ExprP lastCyc = nl::lit(uint64_t(last), cycW_);
    cases.cases.emplace_back(
        nl::lit(b, blkW_),
        nl::only(nl::ifStmt(nl::ne(cyc_, lastCyc), {nl::assignStmt("cyc", nl::add(cyc_, nl::lit(1, cycW_)))},
                            terminator(b, last))));
  }
  cases.orElse = {nl::assignStmt("busy", nl::zero())};
  std::vector<nl::Stmt> reset = {nl::assignStmt("busy", nl::zero()), nl::assignStmt("blk", nl::lit(0, blkW_)),
                                 nl::assignStmt("cyc", nl::lit(0, cycW_))};
  std::vector<nl::Stmt> begin = reset;
  begin[0] = nl::assignStmt("busy", nl::one());
  // Moved, not copied out of initializer lists: the case tree is the whole FSM.
  std::vector<nl::Stmt> body = nl::only(nl::assignStmt("done", nl::zero()));
  body.push_back(nl::ifStmt(rst_, std::move(reset),
                            nl::only(nl::ifStmt(~busy_, nl::only(nl::ifStmt(start_, std::move(begin))),
                                                nl::only(nl::ifStmt(fsmEn_, nl::only(std::move(cases))))))));
  b_.process(std::move(body));
}

std::vector<nl::Stmt> TopWriter::jump(uint32_t from, uint32_t to, int cyc) {
  std::vector<nl::Stmt> s = {nl::assignStmt("blk", nl::lit(to, blkW_)),
                             nl::assignStmt("cyc", nl::lit(0, cycW_))};
  for (ValueId v : k_.blocks[to].ops) {
    const ir::Op& op = k_.ops[v];
    if (op.kind != OpKind::Phi) continue;
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (op.phiBlocks[i] == from)
        s.push_back(nl::assignStmt(std::string(regOf(v)->name()), value(op.operands[i], from, cyc)));
  }
  return s;
}

void TopWriter::findFunctions() {
  sites_.assign(k_.functions.size(), {});
  for (ValueId v = 0; v < k_.ops.size(); ++v)
    if (k_.ops[v].kind == OpKind::Call) sites_[k_.ops[v].index].push_back(v);
  functionOf_ = ir::functionOfBlocks(k_);
  siteReg_.assign(k_.functions.size(), nullptr);
  for (size_t f = 0; f < k_.functions.size(); ++f)
    if (sites_[f].size() > 1)
      siteReg_[f] =
          b_.reg(fmt::format(FMT_COMPILE("fn{}_site"), f), std::max(1u, log2Ceil(sites_[f].size())),
                 fmt::format(FMT_COMPILE("the call of {} to return to"), commentName(k_.functions[f].name)));
  // A phi on the edge out of the call's own block takes the result as the function returns
  // (returnJump); any other reader needs it in the call's register.
  for (const ir::Op& op : k_.ops)
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (const ValueId o = op.operands[i]; o != ir::kNone && k_.ops[o].kind == OpKind::Call &&
                                            !(op.kind == OpKind::Phi && op.phiBlocks[i] == k_.ops[o].block))
        callRead_.insert(o);
  for (const ir::BasicBlock& bb : k_.blocks)
    if (bb.term.cond != ir::kNone && k_.ops[bb.term.cond].kind == OpKind::Call)
      callRead_.insert(bb.term.cond);
}

std::vector<nl::Stmt> TopWriter::callJump(uint32_t b, ValueId call, int cyc) {
  const ir::Op& op = k_.ops[call];
  const ir::Function& fn = k_.functions[op.index];
  std::vector<nl::Stmt> s = {nl::assignStmt("blk", nl::lit(fn.entry, blkW_)),
                             nl::assignStmt("cyc", nl::lit(0, cycW_))};
  for (ValueId p : k_.blocks[fn.entry].ops)
    if (k_.ops[p].kind == OpKind::Param)
      s.push_back(
          nl::assignStmt(std::string(regOf(p)->name()), value(op.operands.at(k_.ops[p].index), b, cyc)));
  if (ExprP site = siteReg_[op.index]) {
    const auto& sites = sites_[op.index];
    const auto i = uint64_t(std::find(sites.begin(), sites.end(), call) - sites.begin());
    s.push_back(nl::assignStmt(std::string(site->name()), nl::lit(i, site->width)));
  }
  return s;
}

std::vector<nl::Stmt> TopWriter::returnJump(uint32_t b, uint32_t f, int cyc) {
  const ir::Terminator& t = k_.blocks[b].term;
  auto back = [&](ValueId call) {
    const uint32_t cb = k_.ops[call].block, to = k_.blocks[cb].term.targets[0];
    ExprP result = t.cond != ir::kNone ? value(t.cond, b, cyc) : nullptr;
    std::vector<nl::Stmt> s = {nl::assignStmt("blk", nl::lit(to, blkW_)),
                               nl::assignStmt("cyc", nl::lit(0, cycW_))};
    if (result && callRead_.count(call))
      s.push_back(nl::assignStmt(std::string(regOf(call)->name()), result));
    for (ValueId v : k_.blocks[to].ops) {
      const ir::Op& phi = k_.ops[v];
      if (phi.kind != OpKind::Phi) continue;
      for (size_t i = 0; i < phi.operands.size(); ++i)
        if (phi.phiBlocks[i] == cb) {
          const ValueId o = phi.operands[i];
          const OpKind ok = k_.ops[o].kind;
          ExprP x = o == call ? result : leaf(ok) || ok == OpKind::LoopOut ? value(o, cb, 0) : regOf(o);
          s.push_back(nl::assignStmt(std::string(regOf(v)->name()), x));
        }
    }
    return s;
  };
  const auto& sites = sites_[f];
  if (!siteReg_[f]) return back(sites.at(0));
  nl::Stmt sw;
  sw.kind = nl::Stmt::Kind::Case;
  sw.expr = siteReg_[f];
  for (size_t i = 0; i + 1 < sites.size(); ++i)
    sw.cases.emplace_back(nl::lit(i, siteReg_[f]->width), back(sites[i]));
  sw.orElse = back(sites.back());
  return nl::only(std::move(sw));
}

std::vector<nl::Stmt> TopWriter::terminator(uint32_t b, int cyc) {
  const ir::Terminator& t = k_.blocks[b].term;
  using TK = ir::Terminator::Kind;
  const auto& ops = k_.blocks[b].ops;
  if (!ops.empty() && k_.ops[ops.back()].kind == OpKind::Call) return callJump(b, ops.back(), cyc);
  if (t.kind == TK::Return && functionOf_[b] >= 0) return returnJump(b, uint32_t(functionOf_[b]), cyc);
  switch (t.kind) {
  case TK::Branch:
    return jump(b, t.targets[0], cyc);
  case TK::CondBranch:
    return nl::only(
        nl::ifStmt(value(t.cond, b, cyc), jump(b, t.targets[0], cyc), jump(b, t.targets[1], cyc)));
  case TK::Switch: {
    nl::Stmt s;
    s.kind = nl::Stmt::Kind::Case;
    s.expr = value(t.cond, b, cyc);
    unsigned w = k_.ops[t.cond].width();
    for (size_t i = 1; i < t.targets.size(); ++i)
      s.cases.emplace_back(nl::lit(t.caseValues[i - 1], w), jump(b, t.targets[i], cyc));
    s.orElse = jump(b, t.targets[0], cyc);
    return nl::only(std::move(s));
  }
  case TK::Return:
  case TK::Unreachable: {
    std::vector<nl::Stmt> s = {nl::assignStmt("busy", nl::zero()), nl::assignStmt("done", nl::one())};
    if (result_ && t.cond != ir::kNone) s.push_back(nl::assignStmt("result", value(t.cond, b, cyc)));
    return s;
  }
  }
  return {};
}

void TopWriter::registers() {
  for (auto& [v, u] : regUpdates_)
    if (reg_[v]) b_.drive(reg_[v]).updates = {u};
}

ValueId TopWriter::loopCall(size_t l) const {
  ValueId call = ir::kNone;
  for (ValueId v = 0; v < k_.ops.size(); ++v)
    if (k_.ops[v].kind == OpKind::LoopCall && k_.ops[v].index == l) call = v;
  return call;
}

void TopWriter::loopWires() {
  loopStarted_.resize(k_.loops.size());
  loopStart_.resize(k_.loops.size());
  loopDone_.resize(k_.loops.size());
  for (size_t l = 0; l < k_.loops.size(); ++l) {
    if (loopCall(l) == ir::kNone) continue;
    // lp<l>_started: the loop runs (from its start until its done); it owns the ports it uses meanwhile.
    loopStarted_[l] = b_.reg(fmt::format(FMT_COMPILE("lp{}_started"), l), 1);
    b_.observe(loopStarted_[l]);
    loopStart_[l] = b_.wire(fmt::format(FMT_COMPILE("lp{}_start"), l), 1);
    b_.observe(loopStart_[l]); // invocations, for the measured reinvocation delay
    loopDone_[l] = b_.wire(fmt::format(FMT_COMPILE("lp{}_done"), l), 1);
    // An on-chip RAM's port is made later (localRam): the widths from the memory.
    for (uint32_t m : in_.plan->loops[l].memories)
      loopPorts_[{l, m}] = loopPortWires(b_, fmt::format(FMT_COMPILE("lp{}_"), l), m,
                                         k_.memories[ir::portMemory(k_.memories, m)].wordBits, false);
  }
}

void TopWriter::loops() {
  for (size_t l = 0; l < k_.loops.size(); ++l) {
    const ir::Loop& loop = k_.loops[l];
    ValueId call = loopCall(l);
    if (call == ir::kNone) continue;
    uint32_t b = k_.ops[call].block;
    int t = start(call);
    b_.assign(loopStart_[l], nl::all({busy_, at(b, t), ~loopStarted_[l]}));
    nl::Register& r = b_.drive(loopStarted_[l]);
    r.reset = rst_;
    r.resetValue = nl::zero();
    r.updates = {{loopStart_[l], nl::one()}, {loopDone_[l], nl::zero()}};
    nl::Instance inst{in_.loopModuleNames[l], fmt::format(FMT_COMPILE("u_loop{}"), l), {}};
    auto& c = inst.connections;
    c = {{"clk", nl::ref("clk", 1)}, {"rst", rst_}, {"start", loopStart_[l]}, {"done", loopDone_[l]}};
    for (size_t i = 0; i < loop.liveIns.size(); ++i)
      c.emplace_back(fmt::format(FMT_COMPILE("li_{}"), i), value(loop.liveIns[i], b, t));
    for (size_t i = 0; i < loop.liveOuts.size(); ++i) {
      bool partial = false; // the kernel reads some bits only (loopOut: no register of its own between)
      for (ValueId v = 0; v < k_.ops.size(); ++v)
        if (k_.ops[v].kind == OpKind::LoopOut && k_.ops[v].operands[0] == call && k_.ops[v].index == i)
          partial = partial || partial_[v];
      c.emplace_back(fmt::format(FMT_COMPILE("lo_{}"), i),
                     b_.wire(fmt::format(FMT_COMPILE("lp{}_lo_{}"), l, i), loop.ops[loop.liveOuts[i]].width(),
                             "", partial));
    }
    for (uint32_t m : in_.plan->loops[l].memories) {
      const nl::MemPort& pm = ports_[m];
      const auto& lms = in_.plan->loops[l].loadMemories;
      const bool loads = std::find(lms.begin(), lms.end(), m) != lms.end();
      connectLoopPort(inst, m, loopPorts_.at({l, m}), pm.reqReady,
                      loads ? pm.respValid & loopStarted_[l] : nullptr, pm.respData);
    }
    b_.instance(std::move(inst));
  }
}

} // namespace topgen

nl::Module generateTopModule(const ir::Kernel& k, const sched::KernelSchedule& s, const TopInputs& in) {
  // An initialised array lives in the RAM's configuration-time contents, so it must never be written
  // (a second run of the kernel would see the first run's writes) unless its contents persist on
  // purpose (a global). Lowering stores the initial contents of arrays the kernel writes instead, so
  // this is a check of the compiler.
  auto rejectWritesToInitialised = [&](const std::vector<ir::Op>& ops) {
    for (const ir::Op& op : ops) {
      if (op.kind != ir::OpKind::Store) continue;
      const ir::Memory& mem = k.memories[op.memory];
      if (mem.kind != ir::Memory::Kind::Argument && !mem.init.empty() && !mem.persistent)
        throw InternalError(op.loc, "array '" + mem.name + "'",
                            "the kernel writes an array whose contents are configuration-time initialised");
    }
  };
  rejectWritesToInitialised(k.ops);
  for (const ir::Loop& loop : k.loops)
    rejectWritesToInitialised(loop.ops);
  return topgen::TopWriter(k, s, in).run();
}

} // namespace spvhls::rtl
