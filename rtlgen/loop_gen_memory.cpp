// A loop module's memory ports: request issue, port sharing with its inner loops, response FIFOs,
// and the inner loops it runs as sub-pipelines (LoopWriter, loop_writer.h).
#include <algorithm>

#include "rtlgen/loop_writer.h"

namespace spvhls::rtl::loopgen {

ExprP LoopWriter::readyOf(ValueId i) const {
  const ir::Op& op = loop_.ops[i];
  if (op.kind == OpKind::LoopCall) {
    const SubWires& w = sub_.at(i);
    return w.accept ? w.accept : ~w.busy | w.done;
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

unsigned LoopWriter::responseWidth(ValueId c) const {
  unsigned w = 0;
  for (ValueId o : subs_.at(c).loop->liveOuts)
    w += subs_.at(c).loop->ops[o].width();
  return std::max(w, 1u);
}

void LoopWriter::subPipelines() {
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
