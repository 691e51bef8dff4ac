// A kernel top module's memory ports (shared by its FSM, loops and tasks), on-chip RAMs, and the task
// sequence instances with their invocation and result queues (TopWriter, top_writer.h).
#include "rtlgen/top_writer.h"

namespace spvhls::rtl::topgen {

unsigned TopWriter::fsmLoadWidth(uint32_t m) const {
  unsigned w = 0;
  for (const ir::Op& op : k_.ops)
    if (op.kind == OpKind::Load && port(op) == m) w = std::max<unsigned>(w, op.width());
  return w;
}

void TopWriter::memories() {
  for (uint32_t m = 0; m < k_.memories.size(); ++m) {
    if (k_.memories[m].kind == ir::Memory::Kind::Queue && !k_.memories[m].queueOwn) {
      queuePort(m);
      continue;
    }
    if (k_.memories[m].onChip()) localRam(m);
    if (!ports_[m].reqValid)
      throw InternalError(
          k_.loc, "kernel " + k_.name,
          fmt::format(FMT_COMPILE("top_gen: global memory {} belongs to no pointer argument"), m));
    if (!shareWithTasks(m)) continue; // only tasks use it
    memoryPort(m);
    for (size_t p = 1; p < k_.memories[m].ports.size(); ++p)
      memoryPort(k_.memories[m].ports[p].key);
  }
}

void TopWriter::memoryPort(uint32_t key) {
  const nl::MemPort& port = ports_[key];
  std::vector<nl::MemRequest> reqs;
  uint64_t loadsPerBlock = 1;
  std::vector<ExprP> pops;
  for (uint32_t b = 0; b < k_.blocks.size(); ++b) {
    uint64_t n = 0;
    for (ValueId v : k_.blocks[b].ops) {
      const ir::Op& op = k_.ops[v];
      if ((op.kind != OpKind::Load && op.kind != OpKind::Store) || this->port(op) != key) continue;
      int t = start(v);
      bool store = op.kind == OpKind::Store;
      if (!store) {
        ++n;
        pops.push_back(at(b, formCycle(v)));
      }
      reqs.push_back({busy_ & at(b, t), store, value(op.operands[0], b, t),
                      nl::lit(op.size, port.sizeWidth()), store ? value(op.operands[1], b, t) : nullptr});
    }
    loadsPerBlock = std::max(loadsPerBlock, n);
  }
  // Loops driving this port (their outputs are all-zero while idle, so OR-ing is a mux).
  std::vector<nl::MemPort> merged;
  std::vector<ExprP> active;
  for (size_t l = 0; l < in_.plan->loops.size(); ++l)
    if (auto it = loopPorts_.find({l, key}); it != loopPorts_.end()) {
      merged.push_back(it->second);
      active.push_back(loopStarted_[l]);
    }
  nl::driveRequests(b_, port, reqs, fsmEn_, merged);
  if (unsigned w = fsmLoadWidth(key)) {
    ExprP loopActive = b_.named(fmt::format(FMT_COMPILE("mem{}_loop_active"), key), nl::any(active));
    fsmResp_[key] = b_.fifo({fmt::format(FMT_COMPILE("frf{}"), key), w, roundUpPow2(loadsPerBlock + 1), true,
                             port.respValid & ~loopActive, nl::resize(port.respData, w),
                             nl::all({busy_, fsmEn_, nl::any(pops)}), nl::zero()});
  }
}

void TopWriter::taskWires() {
  task_.resize(k_.processes.size());
  std::vector<ExprP> idle;
  for (uint32_t p = 1; p < k_.processes.size(); ++p) {
    const ir::Process& pr = k_.processes[p];
    const TaskInstance& ti = in_.tasks.at(p);
    TaskHw& t = task_[p];
    auto name = [&](const char* what) { return fmt::format(FMT_COMPILE("tk{}_{}"), p, what); };
    const unsigned argW = k_.channels[pr.invocation].element.width();
    const unsigned resW = k_.channels[pr.result].element.width();
    t.push = b_.wire(name("push"), 1);
    t.args = b_.wire(name("args"), argW);
    t.get = b_.wire(name("get"), 1);
    t.discard = b_.wire(name("discard"), 1);
    t.finish = b_.wire(name("finish"), 1);
    t.start = b_.wire(name("start"), 1);
    t.done = b_.wire(name("done"), 1, "", pr.served); // a served body never finishes
    if (pr.served) {
      t.run = b_.wire(name("run"), 1, "invocations are in flight");
      t.fin = b_.wire(name("fin"), 1);
      t.pop = b_.wire(name("pop"), 1);
      t.value = b_.wire(name("value"), resW);
      t.inflight = b_.reg(name("inflight"), 16, "invocations popped, results not yet pushed");
    } else {
      t.run = b_.reg(name("run"), 1, "an invocation runs");
      t.fin = b_.reg(name("fin"), 1, "it has finished; its requests leave the arbiters");
      t.pop = t.start;
      t.value = ti.resultBits ? b_.wire(name("value"), ti.resultBits) : nl::lit(1, 1);
    }
    nl::Fifo inv{name("inv"), argW,      taskQueueDepth(k_.channels[pr.invocation].depth),
                 false,       t.push,    t.args,
                 t.pop,       nl::zero()};
    nl::Fifo res{name("res"), resW,     taskQueueDepth(k_.channels[pr.result].depth),
                 false,       t.finish, nl::resize(t.value, resW),
                 t.get,       t.discard};
    res.doutUnread = pr.resultType.isNone();
    inv.doutUnread = ti.argBits.empty() && !pr.served; // no arguments: an invocation is a token
    t.invokeFull = b_.named(name("inv_full"), inv.full());
    t.resultFull = b_.named(name("res_full"), res.full());
    const ExprP queued = inv.count(), results = res.count();
    t.invoke = b_.fifo(std::move(inv));
    t.result = b_.fifo(std::move(res));
    t.idle = b_.named(name("idle"), pr.served ? ~t.invoke.nonempty & nl::eq(t.inflight, nl::lit(0, 16))
                                              : ~t.run & ~t.fin & ~t.invoke.nonempty);
    // The test bench names the state of each instance when a simulation stops without done.
    b_.observe(t.run);
    b_.observe(t.fin);
    b_.observe(b_.named(name("queued"), queued));
    b_.observe(b_.named(name("results"), results));
    idle.push_back(t.idle);
    unsigned at = 0;
    for (size_t i = 0; i < ti.argBits.size(); ++i) {
      ExprP bits = nl::slice(t.invoke.dout, at + ti.argBits[i] - 1, at);
      at += ti.argBits[i];
      if (pr.argMemory.at(i) == ir::kNoMemory) {
        t.base.push_back(bits); // a scalar: the body latches it at start
        continue;
      }
      ExprP r =
          b_.reg(fmt::format(FMT_COMPILE("tk{}_base{}"), p, i), 64, "the pointer argument's byte offset");
      b_.drive(r).updates = {{t.start, bits}};
      t.base.push_back(r);
    }
    for (uint32_t bm = 0; bm < pr.memoryMap.size(); ++bm)
      if (pr.memoryMap[bm] != ir::kNoMemory)
        t.ports[bm] = nl::addMemoryPort(b_,
                                        {fmt::format(FMT_COMPILE("tk{}_m{}"), p, bm), true, true,
                                         nl::kPortAddrWidth, ti.memoryBits.at(bm)},
                                        nl::PortRole::Internal);
    if (pr.served) {
      t.servedInvoke = queueWires(fmt::format(FMT_COMPILE("tk{}_q{}"), p, ti.invocationQueue),
                                  ti.memoryBits.at(uint32_t(ti.invocationQueue)));
      t.servedResult = queueWires(fmt::format(FMT_COMPILE("tk{}_q{}"), p, ti.resultQueue),
                                  ti.memoryBits.at(uint32_t(ti.resultQueue)));
    }
  }
  if (!idle.empty()) tasksIdle_ = b_.named("tasks_idle", nl::all(idle));
  for (uint32_t m = 0; m < k_.memories.size(); ++m) {
    const ir::Memory& mem = k_.memories[m];
    if (mem.kind != ir::Memory::Kind::Queue || mem.queueOwn) continue;
    ports_[m] = queueWires(fmt::format(FMT_COMPILE("q{}"), m), mem.wordBits);
    (mem.queueResults ? task_.at(mem.queueProcess).resultQueue : task_.at(mem.queueProcess).invokeQueue) =
        ports_[m];
  }
}

nl::MemPort TopWriter::queueWires(const std::string& prefix, unsigned dataWidth) {
  nl::MemPort q;
  q.dataWidth = dataWidth;
  auto wire = [&](const char* f, unsigned w, bool unread) {
    return b_.wire(fmt::format(FMT_COMPILE("{}_{}"), prefix, f), w, "", unread);
  };
  q.reqValid = wire("req_valid", 1, false);
  q.reqReady = wire("req_ready", 1, false);
  q.reqWrite = wire("req_write", 1, false);
  q.reqAddr = wire("req_addr", q.addrWidth, true);
  q.reqSize = wire("req_size", q.sizeWidth(), true);
  q.reqWdata = wire("req_wdata", q.dataWidth, true);
  q.respValid = wire("resp_valid", 1, true);
  q.respData = wire("resp_data", q.dataWidth, true);
  return q;
}

bool TopWriter::shareWithTasks(uint32_t m) {
  std::vector<PortRequester> reqs;
  std::vector<uint32_t> owner;
  for (uint32_t p = 1; p < task_.size(); ++p)
    for (const auto& [bm, port] : task_[p].ports) {
      if (k_.processes[p].memoryMap[bm] != m) continue;
      const ir::Memory& mem = k_.tasks[k_.processes[p].body].memories[bm];
      ExprP base = mem.kind == ir::Memory::Kind::Argument ? task_[p].base.at(mem.argIndex) : nullptr;
      reqs.push_back({port, base});
      owner.push_back(p);
    }
  if (reqs.empty()) return true;
  bool used = false;
  for (const ir::Op& op : k_.ops)
    used = used || ((op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory == m);
  for (const auto& [key, lp] : loopPorts_)
    used = used || key.second == m;
  const nl::MemPort real = ports_[m];
  nl::MemPort kernelSide;
  if (used)
    kernelSide = nl::addMemoryPort(
        b_, {fmt::format(FMT_COMPILE("km{}"), m), true, true, real.addrWidth, real.dataWidth},
        nl::PortRole::Internal);
  ports_[m] = kernelSide;
  const std::vector<ExprP> drained =
      arbitrateMemory(b_, fmt::format(FMT_COMPILE("arb{}"), m), real, kernelSide, reqs);
  for (size_t i = 0; i < owner.size(); ++i)
    task_[owner[i]].drained.push_back(drained[i]);
  return used;
}

void TopWriter::tasks() {
  for (uint32_t p = 1; p < task_.size(); ++p) {
    TaskHw& t = task_[p];
    const TaskInstance& ti = in_.tasks.at(p);
    if (k_.processes[p].served) {
      servedTask(p);
      continue;
    }
    b_.assign(t.finish, t.fin & nl::all(t.drained));
    b_.assign(t.start, nl::all({~t.run, ~t.fin, t.invoke.nonempty, ~t.resultFull}));
    nl::Register& run = b_.drive(t.run);
    run.reset = rst_;
    run.resetValue = nl::zero();
    run.updates = {{t.start, nl::one()}, {t.done, nl::zero()}};
    nl::Register& fin = b_.drive(t.fin);
    fin.reset = rst_;
    fin.resetValue = nl::zero();
    fin.updates = {{t.done, nl::one()}, {t.finish, nl::zero()}};
    nl::Instance inst{ti.module, fmt::format(FMT_COMPILE("u_task{}"), p), {}};
    auto& c = inst.connections;
    c = {{"clk", nl::ref("clk", 1)},
         {"rst", rst_},
         {"start", t.start},
         {"done", t.done},
         {"busy", b_.wire(fmt::format(FMT_COMPILE("tk{}_busy"), p), 1, "", true)}};
    for (size_t i = 0; i < ti.argPorts.size(); ++i)
      if (k_.processes[p].argMemory[i] == ir::kNoMemory) c.emplace_back(ti.argPorts[i], t.base[i]);
    connectPorts(inst, p);
    if (ti.resultBits) c.emplace_back("result", t.value);
    b_.instance(std::move(inst));
  }
}

void TopWriter::connectPorts(nl::Instance& inst, uint32_t p) {
  const TaskHw& t = task_[p];
  const TaskInstance& ti = in_.tasks.at(p);
  auto connect = [&](const std::string& pre, const nl::MemPort& port) {
    for (auto [field, e] : {std::pair{"req_valid", port.reqValid},
                            {"req_ready", port.reqReady},
                            {"req_write", port.reqWrite},
                            {"req_addr", port.reqAddr},
                            {"req_size", port.reqSize},
                            {"req_wdata", port.reqWdata},
                            {"resp_valid", port.respValid},
                            {"resp_data", port.respData}})
      inst.connections.emplace_back(fmt::format(FMT_COMPILE("{}_{}"), pre, field), e);
  };
  for (const auto& [bm, port] : t.ports)
    connect(ti.memoryPorts.at(bm), port);
  if (t.servedInvoke) connect(ti.memoryPorts.at(uint32_t(ti.invocationQueue)), *t.servedInvoke);
  if (t.servedResult) connect(ti.memoryPorts.at(uint32_t(ti.resultQueue)), *t.servedResult);
}

void TopWriter::servedTask(uint32_t p) {
  TaskHw& t = task_[p];
  const TaskInstance& ti = in_.tasks.at(p);
  auto name = [&](const char* what) { return fmt::format(FMT_COMPILE("tk{}_{}"), p, what); };
  ExprP up = b_.reg(name("up"), 1, "the body has been started");
  nl::Register& r = b_.drive(up);
  r.reset = rst_;
  r.resetValue = nl::zero();
  r.updates = {{nl::one(), nl::one()}};
  b_.assign(t.start, ~up);
  b_.assign(t.pop, popPort(name("invq"), *t.servedInvoke, t.invoke));
  const nl::MemPort& res = *t.servedResult;
  b_.assign(t.finish, pushPort(res, b_.named(name("res_ready"), ~t.resultFull & nl::all(t.drained))));
  b_.assign(t.value, nl::resize(res.reqWdata, t.value->width));
  nl::Register& n = b_.drive(t.inflight);
  n.reset = rst_;
  n.resetValue = nl::lit(0, 16);
  const ExprP one = nl::lit(1, 16);
  n.updates = {{t.pop & ~t.finish, nl::add(t.inflight, one)}, {~t.pop & t.finish, nl::sub(t.inflight, one)}};
  b_.assign(t.run, nl::ne(t.inflight, nl::lit(0, 16)));
  b_.assign(t.fin, nl::zero());
  nl::Instance inst{ti.module, fmt::format(FMT_COMPILE("u_task{}"), p), {}};
  inst.connections = {{"clk", nl::ref("clk", 1)},
                      {"rst", rst_},
                      {"start", t.start},
                      {"done", t.done},
                      {"busy", b_.wire(name("busy"), 1, "", true)}};
  connectPorts(inst, p);
  b_.instance(std::move(inst));
}

ExprP TopWriter::pushPort(const nl::MemPort& q, const ExprP& ready) {
  b_.assign(q.reqReady, ready);
  b_.assign(q.respValid, nl::zero());
  b_.assign(q.respData, nl::lit(0, q.dataWidth));
  return q.reqValid & q.reqWrite & ready;
}

ExprP TopWriter::popPort(const std::string& prefix, const nl::MemPort& q,
                         const nl::ModuleBuilder::FifoOut& fifo) {
  b_.assign(q.reqReady, fifo.nonempty);
  ExprP valid = b_.reg(prefix + "_answer", 1, "a pop is answered");
  ExprP data = b_.reg(prefix + "_popped", q.dataWidth);
  nl::Register& rv = b_.drive(valid);
  rv.reset = rst_;
  rv.resetValue = nl::zero();
  const ExprP pop = b_.named(prefix + "_pop", q.reqValid & ~q.reqWrite & fifo.nonempty);
  rv.updates = {{nl::one(), pop}};
  b_.drive(data).updates = {{pop, nl::resize(fifo.dout, q.dataWidth)}};
  b_.assign(q.respValid, valid);
  b_.assign(q.respData, data);
  return pop;
}

void TopWriter::queuePort(uint32_t m) {
  std::vector<nl::MemPort> merged;
  for (size_t l = 0; l < in_.plan->loops.size(); ++l)
    if (auto it = loopPorts_.find({l, m}); it != loopPorts_.end()) merged.push_back(it->second);
  const nl::MemPort& q = ports_[m];
  nl::driveRequests(b_, q, {}, nullptr, merged);
  const ir::Memory& mem = k_.memories[m];
  TaskHw& t = task_.at(mem.queueProcess);
  if (mem.queueResults)
    t.loopPop = popPort(fmt::format(FMT_COMPILE("q{}"), m), q, t.result);
  else
    t.loopPush = pushPort(q, ~t.invokeFull);
}

void TopWriter::localRam(uint32_t m) {
  // Responses are as wide as the port; accesses narrower than it read only the low bits, and an
  // array that is only written (its loads folded away) reads no response at all.
  nl::MemPort p =
      nl::addMemoryPort(b_, portSpec(fmt::format(FMT_COMPILE("lmem{}"), m), m), nl::PortRole::Internal);
  ports_[m] = p;
  nl::Instance inst{in_.ramModuleNames.at(m), fmt::format(FMT_COMPILE("u_lmem{}"), m), {}};
  inst.connections = {{"clk", nl::ref("clk", 1)},  {"rst", rst_},
                      {"req_valid", p.reqValid},   {"req_ready", p.reqReady},
                      {"req_write", p.reqWrite},   {"req_addr", p.reqAddr},
                      {"req_size", p.reqSize},     {"req_wdata", p.reqWdata},
                      {"resp_valid", p.respValid}, {"resp_data", p.respData}};
  // Its further ports (rtlgen/ram_gen.h): a write port, more read ports.
  const ir::Memory& mem = k_.memories[m];
  for (size_t i = 1; i < mem.ports.size(); ++i) {
    const std::string pre = ramPortPrefix(mem, i);
    nl::MemPortSpec spec = portSpec(fmt::format(FMT_COMPILE("lmem{}{}"), m, pre), m);
    spec.response = mem.ports[i].access != ir::PortAccess::Write;
    const nl::MemPort q = nl::addMemoryPort(b_, spec, nl::PortRole::Internal);
    ports_[mem.ports[i].key] = q;
    for (auto [field, e] : {std::pair{"req_valid", q.reqValid},
                            {"req_ready", q.reqReady},
                            {"req_write", q.reqWrite},
                            {"req_addr", q.reqAddr},
                            {"req_size", q.reqSize},
                            {"req_wdata", q.reqWdata},
                            {"resp_valid", q.respValid},
                            {"resp_data", q.respData}})
      if (e) inst.connections.emplace_back(pre + "_" + field, e);
  }
  b_.instance(std::move(inst));
}

} // namespace spvhls::rtl::topgen
