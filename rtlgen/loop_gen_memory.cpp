// A loop module's memory ports: request issue, port sharing with its inner loops, response FIFOs,
// and the inner loops it runs as sub-pipelines (LoopWriter, loop_writer.h).
#include <algorithm>

#include "rtlgen/loop_writer.h"

namespace spvhls::rtl::loopgen {

ExprP LoopWriter::readyOf(ValueId i) const {
  const ir::Op& op = loop_.ops[i];
  if (op.kind == OpKind::LoopCall) { // the copy the call goes to
    const SubWires& w = sub_.at(i);
    auto ready = [](const SubCopy& cp) { return cp.accept ? cp.accept : ~cp.busy | cp.done; };
    if (w.copies.size() == 1) return ready(w.copies[0]);
    std::vector<ExprP> any;
    for (size_t j = 0; j < w.copies.size(); ++j)
      any.push_back(nl::eq(w.dispatch, nl::lit(j, w.dispatch->width)) & ready(w.copies[j]));
    return nl::any(any);
  }
  return ports_.at(port(op)).reqReady;
}

void LoopWriter::collectMemories() {
  for (ValueId i = 0; i < loop_.ops.size(); ++i) {
    const ir::Op& op = loop_.ops[i];
    if (!isMem(op.kind)) continue;
    memOps_[port(op)].push_back(i);
    if (op.kind == OpKind::Load) memLoads_[port(op)].push_back(i);
  }
  mems_ = p_.memories;
}

void LoopWriter::ports() {
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

unsigned LoopWriter::responseWidth(ValueId c) const { // one copy's live-outs, end to end
  unsigned w = 0;
  for (ValueId o : subs_.at(c).loop->liveOuts)
    w += subs_.at(c).loop->ops[o].width();
  return std::max(w, 1u);
}

void LoopWriter::subPipelines() {
  for (const auto& [c, sp] : subs_) {
    SubWires& w = sub_.at(c);
    const size_t copies = w.copies.size();
    fire_[c] = b_.named(fmt::format(FMT_COMPILE("fire{}"), c), fire(c));
    b_.assign(w.start, fire_[c]);
    if (copies == 1) {
      const SubCopy& cp = w.copies[0];
      counter(cp.inflight, fire_[c], cp.done, rst_);
      b_.assign(cp.busy, nl::ne(cp.inflight, nl::lit(0, cp.inflight->width)));
      auto out = resultFifo(c, cp, fmt::format(FMT_COMPILE("rf{}"), c), capture(c));
      respDout_[c] = out.dout;
      respNonempty_[c] = out.nonempty;
    } else {
      // The calls go to the copies in turn, and their results are taken in the same turn.
      const ExprP take = b_.named(fmt::format(FMT_COMPILE("take{}"), c), capture(c));
      auto turn = [&](const ExprP& reg, const ExprP& step) {
        const unsigned width = reg->width;
        nl::Register& r = b_.drive(reg);
        r.reset = rst_;
        r.resetValue = nl::lit(0, width);
        r.updates = {{step, nl::mux(nl::eq(reg, nl::lit(copies - 1, width)), nl::lit(0, width),
                                    nl::add(reg, nl::lit(1, width)))}};
      };
      turn(w.dispatch, fire_[c]);
      turn(w.collect, take);
      auto mine = [](const ExprP& reg, size_t j) { return nl::eq(reg, nl::lit(j, reg->width)); };
      std::vector<ExprP> busy;
      std::vector<std::pair<ExprP, ExprP>> douts, nonempties;
      for (size_t j = 0; j < copies; ++j) {
        const SubCopy& cp = w.copies[j];
        b_.assign(cp.start, fire_[c] & mine(w.dispatch, j));
        counter(cp.inflight, cp.start, cp.done, rst_);
        b_.assign(cp.busy, nl::ne(cp.inflight, nl::lit(0, cp.inflight->width)));
        busy.push_back(cp.busy);
        auto out = resultFifo(c, cp, fmt::format(FMT_COMPILE("rf{}_{}"), c, j), take & mine(w.collect, j));
        douts.emplace_back(mine(w.collect, j), out.dout);
        nonempties.emplace_back(mine(w.collect, j), out.nonempty);
      }
      b_.assign(w.busy, nl::any(busy));
      respDout_[c] = nl::priorityMux(douts, douts[0].second);
      respNonempty_[c] = nl::priorityMux(nonempties, nl::zero());
    }
    w.data[0] = respDout_[c];
    for (size_t k = 1; k < w.data.size(); ++k)
      b_.drive(w.data[k]).updates = {{adv(), w.data[k - 1]}};
    const ir::Op& call = loop_.ops[c];
    for (size_t j = 0; j < copies; ++j) {
      const SubCopy& cp = w.copies[j];
      nl::Instance inst{sp.module,
                        copies == 1 ? fmt::format(FMT_COMPILE("u_sub{}"), c)
                                    : fmt::format(FMT_COMPILE("u_sub{}_{}"), c, j),
                        {}};
      auto& conn = inst.connections;
      conn = {{"clk", nl::ref("clk", 1)}, {"rst", rst_}, {"start", cp.start}, {"done", cp.done}};
      if (cp.accept) conn.emplace_back("accept", cp.accept);
      for (size_t k = 0; k < sp.loop->liveIns.size(); ++k)
        conn.emplace_back(fmt::format(FMT_COMPILE("li_{}"), k), valueAt(call.operands[k], p_.start[c]));
      for (size_t k = 0; k < cp.lo.size(); ++k)
        conn.emplace_back(fmt::format(FMT_COMPILE("lo_{}"), k), cp.lo[k]);
      for (const auto& [m, q] : w.ports) // after this body's own requests (copies access no memory)
        connectLoopPort(inst, m, q, innerReady(m), q.respValid, ports_.at(m).respData);
      b_.instance(std::move(inst));
    }
  }
}

nl::ModuleBuilder::FifoOut LoopWriter::resultFifo(ValueId c, const SubCopy& cp, std::string prefix,
                                                  const ExprP& pop) {
  std::vector<ExprP> parts(cp.lo.rbegin(), cp.lo.rend());
  ExprP din = parts.empty() ? nl::zero() : nl::concat(parts);
  nl::Fifo f{std::move(prefix), din->width, p_.respFifoDepth[c], true, cp.done, din, pop, start_};
  f.doutUnread = cp.lo.empty(); // no live-outs: only that the call is done matters
  return b_.fifo(f);
}

ExprP LoopWriter::innerGrant(uint32_t m) const {
  auto it = ownRequest_.find(m);
  return it == ownRequest_.end() ? nl::one() : ~it->second;
}

nl::MemPort LoopWriter::granted(const nl::MemPort& q, uint32_t m) const {
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

ExprP LoopWriter::fire(ValueId i) const {
  uint32_t t = p_.start[i];
  if (sf()) return admit_[p_.clusterOf(t)] & predAt(i, t);
  return t == 0 ? vk_[t] & predAt(i, t) : nl::all({vk_[t], predAt(i, t), en_});
}

ExprP LoopWriter::capture(ValueId i) const {
  uint32_t c = p_.compPos[i];
  if (sf()) return admit_[p_.clusterOf(c)] & predAt(i, c);
  return nl::all({vk_[c], predAt(i, c), en_});
}

void LoopWriter::memoryLogic() {
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
      if (auto it = w.ports.find(m); it != w.ports.end()) merged.push_back(inner[c] = granted(it->second, m));
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
        readers.push_back({q.reqValid & ~q.reqWrite, ir::kNone, q.respValid, subs_.at(c).outstanding.at(m)});
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

void LoopWriter::respFifo(ValueId i, const ExprP& push, const nl::MemPort& port) {
  unsigned w = width(i);
  auto out = b_.fifo({fmt::format(FMT_COMPILE("rf{}"), i), w, p_.respFifoDepth[i], true, push,
                      nl::resize(port.respData, w), capture(i), fifoClear_});
  respDout_[i] = out.dout;
  respNonempty_[i] = out.nonempty;
}

} // namespace spvhls::rtl::loopgen
