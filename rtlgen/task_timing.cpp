// Cycle prediction of kernels with task sequences (see rtlgen/task_timing.h).
//
// The hardware (rtlgen/top_gen_memory.cpp, docs/task-sequences.md), stepped cycle by cycle from the
// kernel's start (cycle 0): an instance that runs one invocation at a time starts one in cycle s when
// it is neither running nor finishing, one is queued and its result FIFO has room; the body's `done`
// comes in s + its cycles (d); the instance finishes in d + 1, queuing the result (counted from d + 2),
// and may start again in d + 2. A served body (Process::served) is one endless pipelined loop whose
// queue ports pop the invocation FIFO (ready while it has an entry) and push the result FIFO (ready
// while it has room); it started with the kernel. The kernel's FSM waits in an async's cycle while the
// invocation FIFO is full, in a get's until a result is counted, in a release's until the instance is
// idle, discarding results meanwhile, and in its last cycle until every instance is idle, discarding
// too. Its pipelined loops reach the queues through ports (PipelineModel::Access::queue) and are
// stepped in lockstep with the instances. Requests made in a cycle take effect at its edge.
#include "rtlgen/task_timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <memory>

#include "rtlgen/pipeline_timing.h"

namespace spvhls::rtl {

namespace {

using ir::OpKind;

// Cycles a wait may last before the model calls it endless: the run the interpreter made finished.
constexpr int64_t kMaxWait = 100'000'000;

// The LoopCall op of block b.
ir::ValueId loopCallOp(const ir::Kernel& k, uint32_t b) {
  for (ir::ValueId v : k.blocks[b].ops)
    if (k.ops[v].kind == OpKind::LoopCall) return v;
  throw InternalError(k.loc, "block " + k.blocks[b].name, "a LoopCall block without its LoopCall");
}

// One task instance, its queues and, for a served body, its loop.
struct Instance {
  std::string name;
  int64_t invDepth = 0, resDepth = 0;
  std::deque<int64_t> queued;    // the invocation FIFO: per entry, the body's cycles (served: 0)
  int64_t results = 0;           // entries of the result FIFO
  bool run = false, fin = false; // one invocation at a time: it runs / it has finished
  int64_t doneAt = 0;            // while it runs: the cycle its body's done comes in
  int64_t inflight = 0;          // served: invocations popped whose results are not pushed
  size_t nextInvocation = 0;     // the next of the run's invocations of this process
  // This cycle's requests: the kernel's (push: the body's cycles), the served loop's.
  std::optional<int64_t> push;
  bool get = false, discard = false, pop = false, finish = false;
  std::vector<std::pair<int64_t, int64_t>> busy; // cycles it may make memory requests in, inclusive
  // A served body: its loop's model, the iterations' predicates (one record per invocation pushed),
  // the cycle its FSM starts the loop in.
  uint32_t serveLoop = 0;
  int64_t serveStart = -1;
  ir::EvalResult served;
  std::unique_ptr<QueueSystem> ownQueues;
  std::unique_ptr<PipelineTiming> timing;
  std::unique_ptr<EndlessLoop> loop;

  bool idle() const { return queued.empty() && !run && !fin && inflight == 0; }
  void markBusy(int64_t c) {
    if (!busy.empty() && busy.back().second + 1 >= c)
      busy.back().second = std::max(busy.back().second, c);
    else
      busy.push_back({c, c});
  }
};

// A served body's ends of its own queues (its Memory::Kind::Queue memories with queueOwn).
class OwnQueues final : public QueueSystem {
public:
  OwnQueues(const ir::Kernel& body, Instance& in) : body_(body), in_(in) {}
  bool ready(uint32_t m) override {
    return body_.memories[m].queueResults ? in_.results < in_.resDepth : !in_.queued.empty();
  }
  void access(uint32_t m) override { (body_.memories[m].queueResults ? in_.finish : in_.pop) = true; }
  void clock() override {} // the instances' clock steps the loop

private:
  const ir::Kernel& body_;
  Instance& in_;
};

// Every task instance, stepped a cycle at a time; the kernel's pipelined loops reach the queues
// through it (QueueSystem: the kernel's Queue memories).
class Tasks final : public QueueSystem {
public:
  Tasks(const ir::Kernel& k, const std::vector<const RtlResult*>& bodies, const ir::EvalResult& profile)
      : k_(k), bodies_(bodies), profile_(profile), inst_(k.processes.size()) {
    for (uint32_t p = 1; p < k.processes.size(); ++p) {
      const ir::Process& pr = k.processes[p];
      Instance& in = inst_[p];
      in.name = pr.name;
      in.invDepth = int64_t(taskQueueDepth(k.channels[pr.invocation].depth));
      in.resDepth = int64_t(taskQueueDepth(k.channels[pr.result].depth));
      if (pr.served) serve(p);
    }
  }

  int64_t now() const { return now_; }
  void advanceTo(int64_t c) {
    if (c < now_)
      throw ModelError{fmt::format("the kernel went back from cycle {} to {} (a model error)", now_, c)};
    while (now_ < c)
      clock();
  }
  Instance& operator[](uint32_t p) { return inst_.at(p); }
  bool allIdle() const {
    return std::all_of(inst_.begin() + 1, inst_.end(), [](const Instance& in) { return in.idle(); });
  }

  // The kernel's side.
  bool canPush(uint32_t p) const { return int64_t(inst_[p].queued.size()) < inst_[p].invDepth; }
  bool canGet(uint32_t p) const { return inst_[p].results > 0; }
  void push(uint32_t p) { inst_[p].push = nextInvocation(p); }

  bool ready(uint32_t m) override {
    const ir::Memory& mem = k_.memories.at(m);
    return mem.queueResults ? canGet(mem.queueProcess) : canPush(mem.queueProcess);
  }
  void access(uint32_t m) override {
    const ir::Memory& mem = k_.memories.at(m);
    if (mem.queueResults)
      inst_[mem.queueProcess].get = true;
    else
      push(mem.queueProcess);
  }

  // The edge of the current cycle: the served loops' requests of this cycle, then every register.
  void clock() override {
    for (Instance& in : inst_)
      if (in.loop && now_ >= in.serveStart) in.loop->clock(now_ == in.serveStart);
    for (size_t p = 1; p < inst_.size(); ++p) {
      Instance& in = inst_[p];
      const bool served = bool(in.loop);
      const bool start = !served && !in.run && !in.fin && !in.queued.empty() && in.results < in.resDepth;
      const bool done = in.run && now_ == in.doneAt;
      const bool finish = served ? in.finish : in.fin;
      if (start) {
        in.run = true;
        in.doneAt = now_ + in.queued.front();
        in.busy.push_back({now_ + 1, in.doneAt});
      }
      if (start || in.pop) in.queued.pop_front();
      if (in.push) in.queued.push_back(*in.push);
      if (done) in.run = false, in.fin = true;
      if (!served && in.fin && !done) in.fin = false; // finished: the result is queued
      in.results = in.discard ? 0 : in.results + int64_t(finish) - int64_t(in.get);
      if (served) {
        if (in.inflight > 0 || in.pop) in.markBusy(now_);
        in.inflight += int64_t(in.pop) - int64_t(in.finish);
      }
      in.push.reset();
      in.get = in.discard = in.pop = in.finish = false;
    }
    ++now_;
  }

private:
  const ir::Kernel& k_;
  const std::vector<const RtlResult*>& bodies_;
  const ir::EvalResult& profile_;
  std::vector<Instance> inst_;
  int64_t now_ = 0;

  // The next invocation of process p the run made: the body's cycles (a served body's iteration
  // predicates are recorded for its loop instead).
  int64_t nextInvocation(uint32_t p) {
    Instance& in = inst_[p];
    const ir::Process& pr = k_.processes[p];
    const std::vector<uint32_t>* order =
        p < profile_.processInvocations.size() ? &profile_.processInvocations[p] : nullptr;
    if (!order || in.nextInvocation >= order->size())
      throw ModelError{fmt::format("{} is invoked more often than the run did (a model error)", pr.name)};
    const ir::EvalResult& inv = profile_.invocations.at((*order)[in.nextInvocation++]);
    const ir::Kernel& body = k_.tasks[pr.body];
    if (pr.served) {
      const std::vector<uint64_t>& words = inv.loopIterationPredicates.at(in.serveLoop);
      if (words.size() != ir::predicateWords(body.loops[in.serveLoop]))
        throw ModelError{
            fmt::format("the run did not record the predicates of {}'s invocation (a model error)", pr.name)};
      auto& record = in.served.loopIterationPredicates[in.serveLoop];
      record.insert(record.end(), words.begin(), words.end());
      return 0;
    }
    std::string why;
    const auto cycles = predictCycles(body, *bodies_.at(p), inv, why);
    if (!cycles) throw ModelError{fmt::format("{}'s cycles are not predicted: {}", pr.name, why)};
    return int64_t(*cycles);
  }

  // A served body: started with the kernel (cycle 0), its FSM's blocks lead to the loop's call.
  void serve(uint32_t p) {
    const ir::Process& pr = k_.processes[p];
    const ir::Kernel& body = k_.tasks[pr.body];
    const RtlResult& r = *bodies_.at(p);
    Instance& in = inst_[p];
    int64_t cycle = 1; // the entry block's first cycle
    uint32_t b = 0;
    for (size_t steps = 0; !body.blocks[b].loopCall; ++steps) {
      const ir::Terminator& t = body.blocks[b].term;
      if (t.kind != ir::Terminator::Kind::Branch || steps > body.blocks.size())
        throw ModelError{fmt::format("{}'s body branches before its loop (a model error)", pr.name)};
      cycle += r.blockCycles[b];
      b = t.targets[0];
    }
    in.serveLoop = *body.blocks[b].loopCall;
    in.serveStart = cycle + r.formCycle.at(loopCallOp(body, b));
    in.served.loopIterationPredicates.assign(body.loops.size(), {});
    in.ownQueues = std::make_unique<OwnQueues>(body, in);
    in.timing = std::make_unique<PipelineTiming>(body, r, in.served, in.ownQueues.get());
    in.loop = in.timing->endless(in.serveLoop);
  }
};

// A memory that two users (the kernel, instances) use in overlapping cycles: the arbiter interleaves
// their requests, which the prediction does not model. Empty when there is none.
std::string sharedMemory(const ir::Kernel& k,
                         const std::vector<std::vector<std::pair<int64_t, int64_t>>>& kernelBusy,
                         const std::vector<std::vector<uint32_t>>& instancesOf, Tasks& tasks) {
  for (uint32_t m = 0; m < k.memories.size(); ++m) {
    std::vector<std::pair<std::string, std::vector<std::pair<int64_t, int64_t>>>> users;
    if (!kernelBusy[m].empty()) users.push_back({"the kernel", kernelBusy[m]});
    for (uint32_t p : instancesOf[m])
      users.push_back({k.processes[p].name, tasks[p].busy});
    for (size_t a = 0; a < users.size(); ++a)
      for (size_t b = a + 1; b < users.size(); ++b)
        for (const auto& x : users[a].second)
          for (const auto& y : users[b].second)
            if (x.first <= y.second && y.first <= x.second)
              return fmt::format(
                  "memory {} is used by {} and {} at the same time (from cycle {}), whose requests "
                  "the arbiter interleaves; the predictor does not model that",
                  k.memories[m].name, users[a].first, users[b].first, std::max(x.first, y.first));
  }
  return "";
}

} // namespace

std::optional<uint64_t> predictTaskCycles(const ir::Kernel& k, const RtlResult& r,
                                          const std::vector<const RtlResult*>& bodies,
                                          const ir::EvalResult& profile, std::string& why) {
  if (profile.traceTruncated) {
    why = fmt::format("the run is longer than the {} events the IR evaluator traces for the prediction",
                      ir::kMaxTraceEvents);
    return std::nullopt;
  }
  // Who uses each memory: the kernel (in which blocks, counting a loop's in its LoopCall block) and
  // which instances. Where two of them use one at the same time, the arbiter interleaves their
  // requests, which the prediction does not model: it holds when each memory has one user at a time.
  std::vector<std::vector<uint8_t>> kernelUses(k.memories.size(), std::vector<uint8_t>(k.blocks.size(), 0));
  std::vector<std::vector<uint32_t>> instancesOf(k.memories.size());
  for (const ir::Op& op : k.ops)
    if (op.kind == OpKind::Load || op.kind == OpKind::Store) kernelUses[op.memory][op.block] = 1;
  for (uint32_t b = 0; b < k.blocks.size(); ++b)
    if (const auto& call = k.blocks[b].loopCall)
      for (const ir::Op& op : k.loops[*call].ops)
        if (op.kind == OpKind::Load || op.kind == OpKind::Store) kernelUses[op.memory][b] = 1;
  for (uint32_t p = 1; p < k.processes.size(); ++p)
    for (uint32_t m : k.processes[p].memoryMap) {
      if (m == ir::kNoMemory) continue;
      if (std::find(instancesOf[m].begin(), instancesOf[m].end(), p) != instancesOf[m].end()) {
        // Two of its pointers (or a pointer and a global) reach one memory: two requesters, which the
        // arbiter interleaves where the task's own schedule has two ports.
        why = fmt::format("{} reaches memory {} through two of its memories, whose requests the arbiter "
                          "interleaves; the predictor does not model that",
                          k.processes[p].name, k.memories[m].name);
        return std::nullopt;
      }
      instancesOf[m].push_back(p);
    }
  std::vector<std::vector<std::pair<int64_t, int64_t>>> kernelBusy(k.memories.size()); // cycles, inclusive

  try {
    Tasks tasks(k, bodies, profile);
    std::vector<size_t> nextCall(k.loops.size(), 0);
    std::unique_ptr<PipelineTiming> pipelines; // loops stepped through the run, made when one is called
    const std::vector<int> functionOf = ir::functionOfBlocks(k);

    // The FSM waits in one cycle for every task operation of that cycle at once, then makes them.
    auto waitFor = [&](const std::vector<ir::ValueId>& ops) {
      auto ready = [&] {
        return std::all_of(ops.begin(), ops.end(), [&](ir::ValueId v) {
          const ir::Op& op = k.ops[v];
          switch (op.kind) {
          case OpKind::TaskAsync:
            return tasks.canPush(op.index);
          case OpKind::TaskGet:
            return tasks.canGet(op.index);
          default:
            return tasks[op.index].idle();
          }
        });
      };
      auto discard = [&] { // a release discards results while it waits, and as it goes on
        for (ir::ValueId v : ops)
          if (k.ops[v].kind == OpKind::TaskRelease) tasks[k.ops[v].index].discard = true;
      };
      for (int64_t waited = 0; !ready(); ++waited) {
        if (waited > kMaxWait)
          throw ModelError{fmt::format("{} of {} would wait forever", ir::opKindName(k.ops[ops[0]].kind),
                                       k.processes[k.ops[ops[0]].index].name)};
        discard();
        tasks.clock();
      }
      discard();
      for (ir::ValueId v : ops) {
        const ir::Op& op = k.ops[v];
        if (op.kind == OpKind::TaskAsync) tasks.push(op.index);
        if (op.kind == OpKind::TaskGet) tasks[op.index].get = true;
      }
    };

    int64_t start = 1; // the current block's first cycle
    uint32_t block = ~0u;
    std::vector<ir::ValueId> taskOps;     // the current block's, in the order the run made them
    auto finishBlock = [&]() -> int64_t { // the cycle after the current block
      if (block == ~0u) return start;
      int64_t stall = 0; // cycles the block has waited so far
      std::stable_sort(taskOps.begin(), taskOps.end(),
                       [&](ir::ValueId a, ir::ValueId b) { return r.formCycle[a] < r.formCycle[b]; });
      for (size_t i = 0; i < taskOps.size();) {
        size_t j = i;
        std::vector<ir::ValueId> group;
        for (; j < taskOps.size() && r.formCycle[taskOps[j]] == r.formCycle[taskOps[i]]; ++j)
          group.push_back(taskOps[j]);
        const int64_t at = start + r.formCycle[taskOps[i]] + stall;
        tasks.advanceTo(at);
        waitFor(group);
        stall += tasks.now() - at;
        i = j;
      }
      taskOps.clear();
      int64_t end = start + int64_t(r.blockCycles[block]) + stall;
      if (const auto& call = k.blocks[block].loopCall) {
        const LoopHardware& hw = r.loops[*call];
        const auto& calls = profile.loopCallIterations.at(*call);
        if (!hw.predictable || usesQueues(r, *call)) { // stepped through the run, with the tasks
          if (!pipelines) pipelines = std::make_unique<PipelineTiming>(k, r, profile, &tasks);
          if (usesQueues(r, *call)) tasks.advanceTo(start + r.formCycle[loopCallOp(k, block)] + stall);
          const std::optional<int64_t> cycles = pipelines->callCycles(*call, why);
          if (!cycles) throw ModelError{why};
          end += *cycles;
        } else if (nextCall[*call] >= calls.size()) {
          throw ModelError{fmt::format("loop {} is called more often than the run did", k.loops[*call].name)};
        } else {
          end += loopCallCycles(hw, calls[nextCall[*call]++]);
        }
      }
      for (uint32_t m = 0; m < k.memories.size(); ++m)
        if (kernelUses[m][block] && !instancesOf[m].empty()) kernelBusy[m].push_back({start, end - 1});
      if (k.blocks[block].term.kind == ir::Terminator::Kind::Return && functionOf[block] < 0) {
        // Its last cycle waits until every instance is idle, discarding every result meanwhile.
        tasks.advanceTo(end - 1);
        auto discardAll = [&] {
          for (uint32_t p = 1; p < k.processes.size(); ++p)
            tasks[p].discard = true;
        };
        for (int64_t waited = 0; !tasks.allIdle(); ++waited) {
          if (waited > kMaxWait) throw ModelError{"the kernel's end would wait forever for its tasks"};
          discardAll();
          tasks.clock();
        }
        discardAll();
        end = tasks.now() + 1;
      }
      return end;
    };
    for (const ir::EvalResult::TraceEvent& e : profile.trace) {
      if (e.op != ir::kNone) {
        taskOps.push_back(e.op);
        continue;
      }
      start = finishBlock();
      block = e.block;
    }
    const int64_t end = finishBlock();
    tasks.advanceTo(end); // the instances' busy cycles up to the end
    if (std::string shared = sharedMemory(k, kernelBusy, instancesOf, tasks); !shared.empty()) {
      why = shared;
      return std::nullopt;
    }
    return uint64_t(end);
  } catch (const ModelError& e) {
    why = e.why;
    return std::nullopt;
  }
}

} // namespace spvhls::rtl
