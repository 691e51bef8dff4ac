// The cycle model of pipelines without a closed form (pipeline_timing.h): each loop's hardware stepped
// as loop_gen.cpp builds it, at the level of its tokens.
#include "rtlgen/pipeline_timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace spvhls::rtl {

using ir::OpKind;

PipelineModel pipelineModel(const ir::Kernel& k, uint32_t l, const LoopPlan& p) {
  const ir::Loop& loop = k.loops[l];
  PipelineModel m;
  m.F = p.F, m.ii = p.ii, m.exitPos = p.exitPos, m.maxConcurrency = p.maxConcurrency;
  m.reinvocable = p.reinvocable, m.stallFree = p.stallFree();
  m.ports = p.memories;
  if (m.stallFree) {
    m.cuts = p.cuts, m.exitFifoDepth = p.exitFifoDepth;
    for (const CarryGate& g : p.gates)
      m.gates.push_back({g.toCluster, g.distance, g.countPos, g.countAsAdmitted});
  }
  // A predicate that is a constant true (a served task's one result push) needs no record.
  auto predicated = [&](ir::ValueId pred) {
    return pred != ir::kNone && !(loop.ops[pred].kind == OpKind::Const && (loop.ops[pred].imm & 1));
  };
  uint32_t bit = 0;
  for (ir::ValueId v = 0; v < loop.ops.size(); ++v) {
    const ir::Op& op = loop.ops[v];
    if (!ir::timedOperation(op)) continue;
    const uint32_t b = bit++;
    if (op.kind != OpKind::LoopCall) {
      const ir::ValueId pred = op.operands[op.kind == OpKind::Load ? 1 : 2];
      m.accesses.push_back(
          {ir::portKey(k.memories, op), p.start[v], b, predicated(pred),
           k.memories[op.memory].kind == ir::Memory::Kind::Queue ? op.memory : PipelineModel::kNoQueue});
      continue;
    }
    m.calls.push_back({op.index, p.start[v], p.compPos[v], b, predicated(op.operands.back())});
  }
  // A stall-free cluster makes its requests and takes its inner loops' results as a token enters it.
  auto cut = [&](uint32_t pos) { return std::binary_search(m.cuts.begin(), m.cuts.end(), pos); };
  for (const PipelineModel::Access& a : m.accesses)
    if (m.stallFree && !cut(a.request) && m.unmodelled.empty())
      m.unmodelled = fmt::format("a memory request at position {} is not at a cluster's entry", a.request);
  for (const PipelineModel::Call& c : m.calls)
    if (m.stallFree && !(cut(c.request) && cut(c.capture)) && m.unmodelled.empty())
      m.unmodelled = "an inner loop's call or results are not at a cluster's entry";
  return m;
}

struct PipelineTiming::State {
  const ir::Kernel& k;
  const RtlResult& r;
  const ir::EvalResult& profile;
  QueueSystem* queues;
  std::vector<size_t> nextCall, nextIteration; // per loop: the profile's cursor
  struct Invocation {
    uint64_t n = 0;        // iterations, the exiting one included
    size_t iterations = 0; // its first iteration's record in loopIterationPredicates
  };
  static constexpr uint64_t kEndless = UINT64_MAX; // a call without a last iteration
  Invocation take(uint32_t l) {
    if (endless == l) return Invocation{kEndless, 0};
    const auto& calls = profile.loopCallIterations.at(l);
    if (nextCall[l] >= calls.size())
      throw ModelError{fmt::format("the model called loop {} more often than the run did (a model error)",
                                   k.loops[l].name)};
    Invocation inv{calls[nextCall[l]++], nextIteration[l]};
    nextIteration[l] += inv.n;
    const std::vector<uint64_t>& record = profile.loopIterationPredicates.at(l);
    if (nextIteration[l] * ir::predicateWords(k.loops[l]) > record.size())
      throw ModelError{
          profile.predicateTraceTruncated ? "the profile's record of predicates was cut short (a long run)"
          : record.empty()
              ? fmt::format("the run did not record loop {}'s predicates (a model error)", k.loops[l].name)
              : fmt::format("the profile lacks loop {}'s predicates (a model error)", k.loops[l].name)};
    return inv;
  }
  uint32_t endless = ~0u; // the loop whose one call never ends (PipelineTiming::endless)
  QueueSystem& queuesOf(uint32_t l) {
    if (!queues)
      throw ModelError{fmt::format("loop {} uses a task queue, and nothing models the tasks (a model error)",
                                   k.loops[l].name)};
    return *queues;
  }
};

namespace {

using State = PipelineTiming::State;
using Ports = std::vector<uint32_t>; // memory ports (ir::portKey)

bool contains(const Ports& ports, uint32_t port) {
  return std::find(ports.begin(), ports.end(), port) != ports.end();
}

// One loop's hardware as the pipeline that calls it sees it: its registered done and accept outputs,
// and one clock edge with the start input of that cycle. `refused`: the ports whose requests the
// loops around it take in that cycle (they go first), so that its own wait.
class Unit {
public:
  virtual ~Unit() = default;
  virtual bool done() const = 0;
  virtual bool reinvocable() const = 0;
  virtual bool accepting() const = 0; // a reinvocable loop's `accept`
  virtual void clock(bool start, const Ports& refused) = 0;
};

std::unique_ptr<Unit> makeUnit(State& s, uint32_t l);

// What both kinds share: the invocations and their tokens' predicates, and the inner loops (the
// sub-pipelines of loop_gen_memory.cpp: per copy a busy count and a result FIFO that bypasses when
// empty; several copies take the calls, and give the results, in turn).
class LoopUnit : public Unit {
public:
  LoopUnit(State& s, uint32_t l)
      : s_(s), l_(l), m_(*s.r.loops[l].model), words_(ir::predicateWords(s.k.loops[l])) {
    subs_.resize(m_.calls.size());
    for (size_t c = 0; c < m_.calls.size(); ++c) {
      Sub& sub = subs_[c];
      for (uint32_t j = 0; j < s.k.loops[m_.calls[c].loop].copies; ++j)
        sub.copies.push_back(makeUnit(s, m_.calls[c].loop));
      sub.busy.assign(sub.copies.size(), 0);
      sub.results.assign(sub.copies.size(), 0);
      sub.done.assign(sub.copies.size(), false);
      const Ports& theirs = s.r.loops[m_.calls[c].loop].model->ports;
      for (size_t d = 0; d < c; ++d)
        if (std::any_of(theirs.begin(), theirs.end(), [&](uint32_t port) {
              return contains(s.r.loops[m_.calls[d].loop].model->ports, port);
            }))
          sharing_.emplace_back(d, c);
      innerPorts_.insert(innerPorts_.end(), theirs.begin(), theirs.end());
    }
    subReady_.resize(m_.calls.size());
  }
  bool done() const override { return done_; }
  bool reinvocable() const override { return m_.reinvocable; }
  bool accepting() const override { return !running_; }

protected:
  struct Token {
    uint64_t k = 0; // its iteration in its invocation
    size_t inv = 0; // its invocation (invs_)
  };
  static constexpr uint64_t kMaxStall = 100'000'000;

  bool last(const Token& t) const { return t.k + 1 == invs_[t.inv].n; }
  // Whether the token's iteration does the operation (the profile's record of its predicate).
  template <class Op> bool pred(const Token& t, const Op& op) const {
    if (!op.predicated) return true;
    const State::Invocation& inv = invs_[t.inv];
    if (t.k >= inv.n)
      throw ModelError{fmt::format("a predicated operation of a speculated iteration of loop {} decides its "
                                   "timing, and the run did not compute that predicate",
                                   s_.k.loops[l_].name)};
    const std::vector<uint64_t>& record = s_.profile.loopIterationPredicates[l_];
    const size_t at = (inv.iterations + t.k) * words_ + op.bit / 64;
    if (at >= record.size())
      throw ModelError{
          fmt::format("the profile lacks the predicates of iteration {} of loop {} (a model error)", t.k,
                      s_.k.loops[l_].name)};
    return (record[at] >> (op.bit % 64)) & 1;
  }
  Token fresh() const { return Token{next_, inv_}; }
  // Whether access a's request is refused in this cycle: its port taken by the loops around this
  // one, or a task queue without room or result.
  bool refusedAt(const PipelineModel::Access& a, const Ports& refused) const {
    return contains(refused, a.port) ||
           (a.queue != PipelineModel::kNoQueue && !s_.queuesOf(l_).ready(a.queue));
  }
  // A request made in this cycle: a task queue's push or pop.
  void made(const PipelineModel::Access& a) const {
    if (a.queue != PipelineModel::kNoQueue) s_.queuesOf(l_).access(a.queue);
  }
  // The inner loops' outputs in this cycle, before anything reads them: whether call c can be made
  // (subReady_), and whether its next results are there to take.
  void sampleSubs() {
    for (size_t c = 0; c < m_.calls.size(); ++c) {
      Sub& sub = subs_[c];
      for (size_t j = 0; j < sub.copies.size(); ++j)
        sub.done[j] = sub.copies[j]->done();
      const Unit& next = *sub.copies[sub.dispatch];
      subReady_[c] =
          next.reinvocable() ? next.accepting() : sub.busy[sub.dispatch] == 0 || sub.done[sub.dispatch];
    }
  }
  bool resultsThere(size_t c) const {
    const Sub& sub = subs_[c];
    return sub.results[sub.collect] > 0 || sub.done[sub.collect];
  }
  void clearResults() {
    for (Sub& sub : subs_)
      std::fill(sub.results.begin(), sub.results.end(), 0);
  }
  // The inner loops' clock edge: call c started (fires[c]) and its results taken (captures[c]); this
  // body's own requests `fired` on a port go before theirs.
  void clockSubs(const std::vector<bool>& fires, const std::vector<bool>& captures, const Ports& refused,
                 const Ports& fired) {
    Ports inner = refused;
    inner.insert(inner.end(), fired.begin(), fired.end());
    auto busy = [&](size_t c) {
      const std::vector<int64_t>& b = subs_[c].busy;
      return std::any_of(b.begin(), b.end(), [](int64_t n) { return n > 0; });
    };
    for (size_t c = 0; c < m_.calls.size(); ++c) {
      Sub& sub = subs_[c];
      for (size_t j = 0; j < sub.copies.size(); ++j) {
        const bool start = fires[c] && j == sub.dispatch, take = captures[c] && j == sub.collect;
        sub.copies[j]->clock(start, inner);
        sub.busy[j] += int64_t(start) - int64_t(sub.done[j]);
        sub.results[j] += int64_t(sub.done[j]) - int64_t(take);
      }
      if (fires[c]) sub.dispatch = (sub.dispatch + 1) % sub.copies.size();
      if (captures[c]) sub.collect = (sub.collect + 1) % sub.copies.size();
    }
    // Inner loops on one port never run at once (the scheduler orders their calls): their requests
    // would meet there, which nothing arbitrates.
    for (auto [c, d] : sharing_)
      if (busy(c) && busy(d))
        throw InternalError(s_.k.loops[l_].loc, "loop " + s_.k.loops[l_].name,
                            fmt::format("inner loops {} and {} share a memory port and run at once",
                                        s_.k.loops[m_.calls[c].loop].name,
                                        s_.k.loops[m_.calls[d].loop].name));
  }
  void startInvocation() {
    running_ = true;
    invs_.push_back(s_.take(l_));
    inv_ = invs_.size() - 1;
    next_ = 0;
  }
  void countStall(bool stalled) {
    stalledFor_ = stalled ? stalledFor_ + 1 : 0;
    if (stalledFor_ > kMaxStall)
      throw ModelError{
          fmt::format("loop {} stalls for good in the model (a model error)", s_.k.loops[l_].name)};
  }

  State& s_;
  uint32_t l_;
  const PipelineModel& m_;
  size_t words_;
  struct Sub { // an inner loop's copies, the one the next call goes to, the one the next results come from
    std::vector<std::unique_ptr<Unit>> copies;
    std::vector<int64_t> busy, results; // per copy: its calls not done, results not taken
    std::vector<bool> done;             // per copy: its done in this cycle
    size_t dispatch = 0, collect = 0;
  };
  std::vector<Sub> subs_; // per call
  std::vector<bool> subReady_;
  Ports innerPorts_;                               // the ports its inner loops request
  std::vector<std::pair<size_t, size_t>> sharing_; // calls whose inner loops share a port
  std::vector<State::Invocation> invs_;
  size_t inv_ = 0;
  uint64_t next_ = 0, inflight_ = 0, stalledFor_ = 0;
  bool running_ = false, done_ = false;
};

// A stall-enable loop (loop_gen.cpp's controlLogic): tokens at positions 1..F-1 in registers,
// position 0 being the issue itself; one enable moves them all.
class StallEnableUnit final : public LoopUnit {
public:
  StallEnableUnit(State& s, uint32_t l) : LoopUnit(s, l), tok_(m_.F) {}

  void clock(bool start, const Ports& refused) override {
    const size_t nc = m_.calls.size();
    const uint32_t F = m_.F, q = m_.exitPos;
    sampleSubs();
    bool exitDet = q > 0 && tok_[q] && last(*tok_[q]);
    auto vk = [&](uint32_t p) { return tok_[p].has_value() && !(p < q && exitDet); }; // p >= 1
    bool stall = false;
    for (size_t c = 0; c < nc; ++c) {
      const PipelineModel::Call& call = m_.calls[c];
      if (call.request > 0 && vk(call.request) && !subReady_[c] && pred(*tok_[call.request], call))
        stall = true;
      if (vk(call.capture) && !resultsThere(c) && pred(*tok_[call.capture], call)) stall = true;
    }
    for (const PipelineModel::Access& a : m_.accesses)
      if (a.request > 0 && vk(a.request) && refusedAt(a, refused) && pred(*tok_[a.request], a)) stall = true;
    const bool en = !stall;
    countStall(stall);
    std::optional<Token> issued;
    if (running_ && en && slot_ == 0 && (m_.maxConcurrency == 0 || inflight_ < m_.maxConcurrency)) {
      issued = fresh();
      for (size_t c = 0; c < nc && issued; ++c)
        if (m_.calls[c].request == 0 && !subReady_[c] && pred(*issued, m_.calls[c])) issued.reset();
      for (const PipelineModel::Access& a : m_.accesses)
        if (issued && a.request == 0 && refusedAt(a, refused) && pred(*issued, a)) issued.reset();
    }
    const bool issue = issued.has_value();
    if (q == 0) exitDet = issue && last(*issued);
    const bool vk0 = issue && !(q > 0 && exitDet);
    auto at = [&](uint32_t p) -> const Token& { return p == 0 ? *issued : *tok_[p]; };
    auto valid = [&](uint32_t p) { return p == 0 ? vk0 : vk(p); };
    std::vector<bool> fires(nc), captures(nc);
    for (size_t c = 0; c < nc; ++c) {
      const PipelineModel::Call& call = m_.calls[c];
      fires[c] = en && valid(call.request) && pred(at(call.request), call);
      captures[c] = en && valid(call.capture) && pred(at(call.capture), call);
    }
    Ports fired; // on the ports its inner loops use: only those matter
    if (en)
      for (const PipelineModel::Access& a : m_.accesses)
        if ((contains(innerPorts_, a.port) || a.queue != PipelineModel::kNoQueue) && valid(a.request) &&
            pred(at(a.request), a)) {
          fired.push_back(a.port);
          made(a);
        }
    clockSubs(fires, captures, refused, fired);
    const bool leaving = valid(F - 1) && en;
    const bool leaveLast = leaving && last(at(F - 1));
    const bool empty =
        std::none_of(tok_.begin() + 1, tok_.end(), [](const auto& t) { return t.has_value(); });
    // The registers, as the edge updates them.
    const bool clear = start && !m_.reinvocable;
    done_ = !clear && leaveLast;
    if (m_.maxConcurrency > 0) inflight_ = clear ? 0 : inflight_ + uint64_t(issue) - uint64_t(leaving);
    if (clear || (start && empty)) // a reinvocable loop's slot restarts on a start into an empty pipeline
      slot_ = 0;
    else if (en)
      slot_ = slot_ + 1 == m_.ii ? 0 : slot_ + 1;
    if (clear) {
      std::fill(tok_.begin(), tok_.end(), std::nullopt);
      clearResults();
    } else if (en) {
      for (uint32_t p = F - 1; p >= 1; --p)
        tok_[p] = valid(p - 1) ? std::optional<Token>(at(p - 1)) : std::nullopt;
    }
    if (issue) ++next_;
    if (start)
      startInvocation();
    else if (exitDet && (en || !m_.reinvocable))
      running_ = false;
  }

private:
  std::vector<std::optional<Token>> tok_; // per position; [0] unused (the issue)
  uint32_t slot_ = 0;
};

// A stall-free loop (loop_gen.cpp's admission): tokens move on every cycle inside a cluster and wait
// only in the exit FIFOs between clusters; a cluster admits the FIFO's head when its conditions hold.
class StallFreeUnit final : public LoopUnit {
public:
  StallFreeUnit(State& s, uint32_t l) : LoopUnit(s, l), tok_(m_.F) {
    const size_t nc = m_.cuts.size();
    fifos_.resize(nc);
    credits_.assign(nc, 0);
    since_.assign(nc, m_.ii - 1);
    passed_.assign(m_.gates.size(), 0);
    admitted_.assign(nc, 0);
    clusterOf_.resize(m_.F);
    for (uint32_t p = 0, j = 0; p < m_.F; ++p) {
      while (j + 1 < nc && m_.cuts[j + 1] <= p)
        ++j;
      clusterOf_[p] = j;
    }
  }

  void clock(bool start, const Ports& refused) override {
    const size_t nc = m_.cuts.size(), ncalls = m_.calls.size();
    const uint32_t F = m_.F, q = m_.exitPos;
    sampleSubs();
    // Admissions, the last cluster first: an older iteration's request goes before a younger's on a
    // port (and a gate may count the token a later cluster admits in this cycle).
    std::vector<std::optional<Token>> in(nc); // the token each cluster admits
    for (size_t j = nc; j-- > 0;) {
      std::optional<Token> t;
      if (j == 0) {
        if (running_ && (m_.maxConcurrency == 0 || inflight_ < m_.maxConcurrency)) t = fresh();
      } else if (!fifos_[j - 1].empty()) {
        t = fifos_[j - 1].front();
      }
      if (!t) continue;
      if (j + 1 < nc && credits_[j] >= m_.exitFifoDepth[j]) continue;
      if (m_.ii > 1 && since_[j] != m_.ii - 1) continue;
      const uint32_t c = m_.cuts[j];
      bool ok = true;
      for (size_t i = 0; i < ncalls && ok; ++i) {
        const PipelineModel::Call& call = m_.calls[i];
        if (call.capture == c && !resultsThere(i) && pred(*t, call)) ok = false;
        if (call.request == c && !subReady_[i] && pred(*t, call)) ok = false;
      }
      for (const PipelineModel::Access& a : m_.accesses) {
        if (!ok || a.request != c) continue;
        bool taken = refusedAt(a, refused);
        for (const PipelineModel::Access& o : m_.accesses)
          if (o.port == a.port && o.request > c && in[clusterOf_[o.request]] &&
              pred(*in[clusterOf_[o.request]], o))
            taken = true;
        if (taken && pred(*t, a)) ok = false;
      }
      for (size_t g = 0; g < m_.gates.size() && ok; ++g) {
        const PipelineModel::Gate& gate = m_.gates[g];
        if (gate.toCluster != j) continue;
        uint64_t have = passed_[g] + gate.distance;
        if (gate.countAsAdmitted && valid(in, gate.countPos, false)) ++have;
        if (!(have > admitted_[j])) ok = false;
      }
      if (ok) in[j] = t;
    }
    const std::optional<Token>& atQ = q == m_.cuts[clusterOf_[q]] ? in[clusterOf_[q]] : tok_[q];
    const bool exitDet = atQ && last(*atQ);
    auto vk = [&](uint32_t p) { return valid(in, p, exitDet && p < q); };
    auto at = [&](uint32_t p) -> const Token& { return isCut(p) ? *in[clusterOf_[p]] : *tok_[p]; };
    countStall(!std::any_of(in.begin(), in.end(), [](const auto& t) { return t.has_value(); }) && !empty());
    std::vector<bool> fires(ncalls), captures(ncalls);
    for (size_t i = 0; i < ncalls; ++i) {
      const PipelineModel::Call& call = m_.calls[i];
      const auto& a = in[clusterOf_[call.request]];
      const auto& b = in[clusterOf_[call.capture]];
      fires[i] = a && pred(*a, call);
      captures[i] = b && pred(*b, call);
    }
    Ports fired; // on the ports its inner loops use: only those matter
    for (const PipelineModel::Access& a : m_.accesses)
      if (const auto& t = in[clusterOf_[a.request]];
          (contains(innerPorts_, a.port) || a.queue != PipelineModel::kNoQueue) && t && pred(*t, a)) {
        fired.push_back(a.port);
        made(a);
      }
    clockSubs(fires, captures, refused, fired);
    const bool leaving = vk(F - 1);
    const bool leaveLast = leaving && last(at(F - 1));
    // The registers, as the edge updates them.
    const bool clear = start; // a stall-free loop is never reinvocable
    done_ = !clear && leaveLast;
    std::vector<std::optional<Token>> next(F);
    for (uint32_t p = 1; p < F; ++p)
      if (!isCut(p) && vk(p - 1)) next[p] = at(p - 1);
    for (size_t j = 0; j + 1 < nc; ++j) {
      if (in[j + 1]) fifos_[j].pop_front();
      if (vk(m_.cuts[j + 1] - 1)) fifos_[j].push_back(at(m_.cuts[j + 1] - 1));
      credits_[j] += uint64_t(bool(in[j])) - uint64_t(bool(in[j + 1]));
    }
    for (size_t j = 0; j < nc; ++j) {
      if (in[j])
        since_[j] = 0;
      else if (since_[j] != m_.ii - 1)
        ++since_[j];
      admitted_[j] += bool(in[j]);
    }
    for (size_t g = 0; g < m_.gates.size(); ++g)
      passed_[g] += vk(m_.gates[g].countPos);
    if (m_.maxConcurrency > 0) inflight_ = inflight_ + uint64_t(bool(in[0])) - uint64_t(leaving);
    tok_ = std::move(next);
    if (in[0]) ++next_;
    if (clear) {
      std::fill(tok_.begin(), tok_.end(), std::nullopt);
      for (auto& f : fifos_)
        f.clear();
      std::fill(credits_.begin(), credits_.end(), 0);
      std::fill(since_.begin(), since_.end(), m_.ii - 1);
      std::fill(passed_.begin(), passed_.end(), 0);
      std::fill(admitted_.begin(), admitted_.end(), 0);
      clearResults();
      inflight_ = 0;
    }
    if (start)
      startInvocation();
    else if (exitDet)
      running_ = false;
  }

private:
  bool isCut(uint32_t p) const { return m_.cuts[clusterOf_[p]] == p; }
  // A token at position p in this cycle (at a cluster's entry: the one admitted), not killed.
  bool valid(const std::vector<std::optional<Token>>& in, uint32_t p, bool killed) const {
    return !killed && (isCut(p) ? in[clusterOf_[p]].has_value() : tok_[p].has_value());
  }
  bool empty() const {
    return std::none_of(tok_.begin(), tok_.end(), [](const auto& t) { return t.has_value(); }) &&
           std::all_of(fifos_.begin(), fifos_.end(), [](const auto& f) { return f.empty(); });
  }

  std::vector<std::optional<Token>> tok_; // per position inside a cluster (not at its entry)
  std::vector<std::deque<Token>> fifos_;  // per cluster: its exit FIFO
  std::vector<uint64_t> credits_, since_, passed_, admitted_;
  std::vector<uint32_t> clusterOf_;
};

std::unique_ptr<Unit> makeUnit(State& s, uint32_t l) {
  const LoopHardware& hw = s.r.loops.at(l);
  if (!hw.model) throw InternalError(s.k.loops[l].loc, "loop " + s.k.loops[l].name, "no cycle model");
  // Only its own: the loops it runs are made, and check theirs, as it is.
  if (!hw.model->unmodelled.empty())
    throw ModelError{fmt::format("loop {}: {}", s.k.loops[l].name, hw.model->unmodelled)};
  if (hw.model->stallFree) return std::make_unique<StallFreeUnit>(s, l);
  return std::make_unique<StallEnableUnit>(s, l);
}

} // namespace

std::string unmodelledReason(const ir::Kernel& k, const RtlResult& r, uint32_t l) {
  const std::optional<PipelineModel>& m = r.loops.at(l).model;
  if (!m) return fmt::format("loop {}: no cycle model", k.loops[l].name);
  if (!m->unmodelled.empty()) return fmt::format("loop {}: {}", k.loops[l].name, m->unmodelled);
  for (const PipelineModel::Call& c : m->calls)
    if (std::string why = unmodelledReason(k, r, c.loop); !why.empty()) return why;
  return "";
}

bool usesQueues(const RtlResult& r, uint32_t l) {
  const std::optional<PipelineModel>& m = r.loops.at(l).model;
  return m && std::any_of(m->accesses.begin(), m->accesses.end(),
                          [](const PipelineModel::Access& a) { return a.queue != PipelineModel::kNoQueue; });
}

std::vector<bool> predicateProfile(const ir::Kernel& k, const RtlResult& r) {
  std::vector<bool> record(k.loops.size(), false);
  std::vector<uint32_t> work;
  for (uint32_t l = 0; l < r.loops.size(); ++l)
    if (!r.loops[l].predictable || usesQueues(r, l)) work.push_back(l);
  while (!work.empty()) {
    const uint32_t l = work.back();
    work.pop_back();
    if (record[l]) continue;
    record[l] = true;
    if (r.loops[l].model)
      for (const PipelineModel::Call& c : r.loops[l].model->calls)
        work.push_back(c.loop);
  }
  return record;
}

PipelineTiming::PipelineTiming(const ir::Kernel& k, const RtlResult& r, const ir::EvalResult& profile,
                               QueueSystem* queues)
    : s_(std::make_unique<State>(State{k, r, profile, queues, std::vector<size_t>(k.loops.size(), 0),
                                       std::vector<size_t>(k.loops.size(), 0)})) {}

PipelineTiming::~PipelineTiming() = default;

std::optional<int64_t> PipelineTiming::callCycles(uint32_t l, std::string& why) {
  try {
    std::unique_ptr<Unit> u = makeUnit(*s_, l);
    // A loop using task queues is clocked with them: each cycle's requests, then the queues' edge.
    QueueSystem* queues = usesQueues(s_->r, l) ? &s_->queuesOf(l) : nullptr;
    auto cycle = [&](bool start) {
      u->clock(start, {});
      if (queues) queues->clock();
    };
    cycle(true);
    int64_t cycles = 1;
    for (; !u->done(); ++cycles)
      cycle(false);
    return cycles;
  } catch (const ModelError& e) {
    why = e.why;
    return std::nullopt;
  }
}

namespace {

class Endless final : public EndlessLoop {
public:
  explicit Endless(std::unique_ptr<Unit> u) : u_(std::move(u)) {}
  void clock(bool start) override { u_->clock(start, {}); }

private:
  std::unique_ptr<Unit> u_;
};

} // namespace

std::unique_ptr<EndlessLoop> PipelineTiming::endless(uint32_t l) {
  s_->endless = l;
  return std::make_unique<Endless>(makeUnit(*s_, l));
}

} // namespace spvhls::rtl
