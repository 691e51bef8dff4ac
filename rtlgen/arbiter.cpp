// Memory arbitration between the kernel and its task processes (see rtlgen/arbiter.h).
#include "rtlgen/arbiter.h"

#include <fmt/format.h>

#include <algorithm>

#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

using nl::ExprP;

namespace {
constexpr uint64_t kSkidDepth = 2; // per task requester: requests waiting while others have the port
constexpr uint64_t kTagDepth = 32; // reads in flight on the port; more wait (the port is not ready)
} // namespace

std::vector<ExprP> arbitrateMemory(nl::ModuleBuilder& b, const std::string& prefix, const nl::MemPort& memory,
                                   const nl::MemPort& kernelSide, const std::vector<PortRequester>& tasks) {
  const unsigned A = memory.addrWidth, S = memory.sizeWidth(), W = memory.dataWidth;
  const auto n = static_cast<unsigned>(tasks.size());
  const unsigned idW = std::max(1u, log2Ceil(n + 1)); // 0: the kernel, i + 1: task requester i

  // Who issued each read, in order.
  nl::Fifo tag;
  tag.prefix = prefix + "_tag";
  tag.width = idW;
  tag.depth = kTagDepth;
  const ExprP tagFull = b.named(prefix + "_tag_full", tag.full());
  const ExprP ready = b.named(prefix + "_ready", memory.reqReady & ~tagFull);

  // Task requests wait in their skid FIFOs: {write, addr + base, size, wdata}.
  std::vector<nl::ModuleBuilder::FifoOut> heads;
  std::vector<ExprP> drained;
  const ExprP rr = n > 1 ? b.reg(prefix + "_rr", idW, "the task requester whose turn it is") : nullptr;
  std::vector<ExprP> pops(n);
  for (unsigned i = 0; i < n; ++i) {
    const nl::MemPort& t = tasks[i].port;
    nl::Fifo f;
    f.prefix = fmt::format("{}_t{}", prefix, i);
    f.width = 1 + A + S + W;
    f.depth = kSkidDepth;
    f.bypass = true; // an uncontended request goes on in the cycle it is made: no added latency
    const ExprP full = f.full();
    b.assign(t.reqReady, ~full);
    ExprP addr = nl::resize(t.reqAddr, A);
    if (tasks[i].base) addr = nl::add(addr, nl::resize(tasks[i].base, A));
    f.push = t.reqValid & ~full;
    f.din = nl::concat({t.reqWrite, addr, nl::resize(t.reqSize, S), nl::resize(t.reqWdata, W)});
    pops[i] = b.wire(fmt::format("{}_t{}_take", prefix, i), 1);
    f.pop = pops[i];
    f.clear = nl::zero();
    // Drained: nothing stored (a register). A request made in this cycle is not counted: it is the
    // requester's newest, after whatever it is releasing (and counting it would close a loop through
    // a pipelined requester's stall-enable).
    const ExprP stored = f.count();
    heads.push_back(b.fifo(f));
    drained.push_back(b.named(fmt::format("{}_t{}_drained", prefix, i), nl::eq(stored, nl::lit(0, stored->width))));
  }

  // The kernel first; of the task heads, the one whose turn it is, else the lowest waiting.
  const bool kernel = kernelSide.reqValid != nullptr; // the kernel itself may not use the memory
  const ExprP kernelValid = kernel ? kernelSide.reqValid : nl::zero();
  std::vector<ExprP> chosen(n);
  for (unsigned i = 0; i < n; ++i) {
    std::vector<ExprP> before; // a waiting head with priority over i
    for (unsigned j = 0; j < n; ++j)
      if (j != i) before.push_back(heads[j].nonempty & (rr ? nl::eq(rr, nl::lit(j + 1, idW)) : nl::zero()));
    ExprP lower = nl::zero();
    for (unsigned j = 0; j < i; ++j) lower = lower | heads[j].nonempty;
    const ExprP turn = rr ? nl::eq(rr, nl::lit(i + 1, idW)) : nl::one();
    chosen[i] = b.named(fmt::format("{}_t{}_chosen", prefix, i),
                        heads[i].nonempty & (turn | (~nl::any(before) & ~lower)));
  }
  const ExprP anyTask = nl::any(chosen);
  for (unsigned i = 0; i < n; ++i) b.assign(pops[i], chosen[i] & ~kernelValid & ready);
  if (rr) {
    nl::Register& r = b.drive(rr);
    r.reset = nl::ref("rst", 1);
    r.resetValue = nl::lit(1, idW);
    // After a task request goes, the turn passes to the next requester.
    std::vector<std::pair<ExprP, ExprP>> next;
    for (unsigned i = 0; i < n; ++i) next.emplace_back(pops[i], nl::lit(i + 1 < n ? i + 2 : 1, idW));
    r.updates = {{nl::any(pops), nl::priorityMux(next, rr)}};
  }

  // The request on the port: the kernel's, or the chosen head's fields.
  auto field = [&](unsigned hi, unsigned lo, const ExprP& own) {
    std::vector<std::pair<ExprP, ExprP>> arms;
    if (kernel) arms.emplace_back(kernelValid, own);
    for (unsigned i = 0; i < n; ++i) arms.emplace_back(chosen[i], nl::slice(heads[i].dout, hi, lo));
    return nl::priorityMux(arms, nl::lit(0, hi - lo + 1));
  };
  const unsigned wdLo = 0, szLo = W, adLo = W + S, wrLo = W + S + A;
  b.assign(memory.reqValid, (kernelValid | anyTask) & ~tagFull);
  b.assign(memory.reqWrite, field(wrLo, wrLo, kernelSide.reqWrite));
  b.assign(memory.reqAddr, field(wrLo - 1, adLo, kernelSide.reqAddr));
  b.assign(memory.reqSize, field(adLo - 1, szLo, kernelSide.reqSize));
  b.assign(memory.reqWdata, field(szLo - 1, wdLo, kernelSide.reqWdata));
  if (kernel) b.assign(kernelSide.reqReady, ready);

  // Reads remember their requester; responses go back in order.
  std::vector<std::pair<ExprP, ExprP>> ids;
  for (unsigned i = 0; i < n; ++i) ids.emplace_back(chosen[i], nl::lit(i + 1, idW));
  const ExprP accepted = memory.reqValid & memory.reqReady;
  tag.push = accepted & ~memory.reqWrite;
  tag.din = nl::mux(kernelValid, nl::lit(0, idW), nl::priorityMux(ids, nl::lit(0, idW)));
  tag.pop = memory.respValid;
  tag.clear = nl::zero();
  const nl::ModuleBuilder::FifoOut who = b.fifo(tag);
  if (kernel && kernelSide.respValid) {
    b.assign(kernelSide.respValid, memory.respValid & nl::eq(who.dout, nl::lit(0, idW)));
    b.assign(kernelSide.respData, memory.respData);
  }
  for (unsigned i = 0; i < n; ++i) {
    const nl::MemPort& t = tasks[i].port;
    if (!t.respValid) continue;
    b.assign(t.respValid, memory.respValid & nl::eq(who.dout, nl::lit(i + 1, idW)));
    b.assign(t.respData, nl::resize(memory.respData, t.dataWidth));
  }
  return drained;
}

} // namespace spvhls::rtl
