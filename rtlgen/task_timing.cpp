// Cycle prediction of kernels with task sequences (see rtlgen/task_timing.h).
//
// The hardware (rtlgen/top_gen.cpp, docs/task-sequences.md), cycle by cycle: an async in cycle c
// pushes into the invocation FIFO (counted from c + 1) unless it is full; an instance starts an
// invocation in cycle s when it is free, one is counted in the FIFO and the result FIFO has room (its
// count below its depth); the body's `done` comes in cycle d = s + its cycles; its result is pushed in
// d + 1 (counted from d + 2) and the instance is free again in d + 2. A get in cycle c pops a counted
// result, else waits; a release waits until the instance is idle, discarding results meanwhile; the
// kernel's last cycle waits until every instance is idle, discarding as well.
#include "rtlgen/task_timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "rtlgen/pipeline_timing.h"

namespace spvhls::rtl {

namespace {

using ir::OpKind;

// Count of the times in a sorted list that are below `t`.
int64_t below(const std::vector<int64_t>& times, int64_t t) {
  return std::lower_bound(times.begin(), times.end(), t) - times.begin();
}

class Instance {
public:
  Instance(uint64_t invDepth, uint64_t resDepth) : invDepth_(int64_t(invDepth)), resDepth_(int64_t(resDepth)) {}

  // The first cycle at or after c in which an async finds room, or nullopt (it never would).
  std::optional<int64_t> asyncRoom(int64_t c) {
    schedule();
    while (below(pushes_, c) - below(starts_, c) >= invDepth_) {
      // The kernel waits; only a start makes room.
      const auto next = std::lower_bound(starts_.begin(), starts_.end(), c);
      if (next == starts_.end()) return std::nullopt;
      c = *next + 1;
    }
    return c;
  }
  void push(int64_t c, int64_t cycles) {
    pushes_.push_back(c);
    cycles_.push_back(cycles);
    schedule();
  }
  // The cycle a get at c pops its result in, or nullopt (no result will come).
  std::optional<int64_t> get(int64_t c) {
    schedule();
    const size_t index = removed_.size(); // the oldest result not removed
    if (index >= visible_.size()) return std::nullopt;
    c = std::max(c, visible_[index]);
    removed_.push_back(c + 1); // uncounted from the next cycle
    schedule();
    return c;
  }
  // The first cycle at or after c in which the instance is idle, discarding results from c on: the
  // FIFO is cleared in every waiting cycle, so nothing pushed from c on is ever counted.
  std::optional<int64_t> drain(int64_t c) {
    schedule();
    while (visible_.size() > removed_.size() && visible_.back() > c) visible_.pop_back(); // pushed in c
    while (removed_.size() < visible_.size()) removed_.push_back(c + 1);
    discardFrom_ = c;
    schedule();
    discardFrom_ = -1;
    if (starts_.size() < pushes_.size()) return std::nullopt;
    return std::max({c, freeAt_, pushes_.empty() ? int64_t(0) : pushes_.back() + 1});
  }

  // The cycles each started invocation may issue memory requests in: [start + 1, done].
  std::vector<std::pair<int64_t, int64_t>> busy() const {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t i = 0; i < starts_.size(); ++i) out.push_back({starts_[i] + 1, starts_[i] + cycles_[i]});
    return out;
  }

private:
  int64_t invDepth_, resDepth_;
  std::vector<int64_t> pushes_, cycles_, starts_; // per invocation, in order (starts: those known)
  // Per result that entered the result FIFO: the first cycle it is counted / no longer counted
  // (removed_: those popped or cleared, oldest first; both sorted).
  std::vector<int64_t> visible_, removed_;
  int64_t freeAt_ = 0;      // the instance can start an invocation from here
  int64_t discardFrom_ = -1; // a release or the kernel's end waits from here, clearing the results

  // Starts every queued invocation whose start cycle is already determined: a later get can only
  // make room later than what is known.
  void schedule() {
    while (starts_.size() < pushes_.size()) {
      const size_t i = starts_.size();
      int64_t s = std::max(pushes_[i] + 1, freeAt_);
      const bool cleared = discardFrom_ >= 0 && s > discardFrom_;
      // Room in the result FIFO: every earlier result is counted by s (freeAt_ is past them all).
      const int64_t need = int64_t(visible_.size()) - resDepth_ + 1; // removals needed by s
      if (need > 0 && !cleared) {
        if (int64_t(removed_.size()) < need) {
          if (discardFrom_ < 0) return; // waits for a get not made yet
          s = std::max(s, discardFrom_ + 1);
        } else {
          s = std::max(s, removed_[size_t(need - 1)]);
        }
      }
      starts_.push_back(s);
      const int64_t done = s + cycles_[i];
      freeAt_ = done + 2;
      if (!(discardFrom_ >= 0 && done + 1 >= discardFrom_)) visible_.push_back(done + 2); // else cleared as pushed
    }
  }
};

} // namespace

std::optional<uint64_t> predictTaskCycles(const ir::Kernel& k, const KernelPlan& plan, const RtlResult& r,
                                          const std::vector<const RtlResult*>& bodies, const ir::EvalResult& profile,
                                          std::string& why) {
  if (profile.traceTruncated) {
    why = fmt::format("the run is longer than the {} events the IR evaluator traces for the prediction",
                      ir::kMaxTraceEvents);
    return std::nullopt;
  }
  for (const ir::Process& p : k.processes)
    if (p.served) {
      why = fmt::format("{} is pipelined (its invocations overlap in one loop); the predictor does not model that",
                        p.name);
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

  std::vector<Instance> inst;
  inst.emplace_back(0, 0);
  for (uint32_t p = 1; p < k.processes.size(); ++p)
    inst.emplace_back(taskQueueDepth(k.channels[k.processes[p].invocation].depth),
                      taskQueueDepth(k.channels[k.processes[p].result].depth));
  std::vector<size_t> nextCall(k.loops.size(), 0);
  std::unique_ptr<PipelineTiming> pipelines; // loops without a closed form, made when one is called
  const std::vector<int> functionOf = ir::functionOfBlocks(k);
  auto stuck = [&](const ir::Op& op) {
    why = fmt::format("{} of {} would wait forever", ir::opKindName(op.kind), k.processes[op.index].name);
    return std::nullopt;
  };

  int64_t start = 1;      // the current block's first cycle
  int64_t stall = 0;      // cycles the current block has waited so far
  uint32_t block = ~0u;
  auto finishBlock = [&]() -> std::optional<int64_t> { // the cycle after the current block
    if (block == ~0u) return start;
    int64_t end = start + int64_t(r.blockCycles[block]) + stall;
    if (const auto& call = k.blocks[block].loopCall) {
      const LoopHardware& hw = r.loops[*call];
      const auto& calls = profile.loopCallIterations.at(*call);
      for (const ir::Op& op : k.loops[*call].ops)
        if ((op.kind == OpKind::Load || op.kind == OpKind::Store) &&
            k.memories[op.memory].kind == ir::Memory::Kind::Queue) {
          why = fmt::format("loop {} pushes or pops the queues of {}, which makes its cycles depend on the task's; "
                            "the predictor does not model that",
                            k.loops[*call].name, k.processes[k.memories[op.memory].queueProcess].name);
          return std::nullopt;
        }
      if (!hw.predictable) { // no closed form: stepped through the run
        if (!pipelines) pipelines = std::make_unique<PipelineTiming>(k, r, profile);
        const std::optional<int64_t> cycles = pipelines->callCycles(*call, why);
        if (!cycles) return std::nullopt;
        end += *cycles;
      } else if (nextCall[*call] >= calls.size()) {
        why = fmt::format("loop {} is called more often than the run did", k.loops[*call].name);
        return std::nullopt;
      } else {
        end += loopCallCycles(hw, calls[nextCall[*call]++]);
      }
    }
    for (uint32_t m = 0; m < k.memories.size(); ++m)
      if (kernelUses[m][block] && !instancesOf[m].empty()) kernelBusy[m].push_back({start, end - 1});
    if (k.blocks[block].term.kind == ir::Terminator::Kind::Return && functionOf[block] < 0) {
      int64_t last = end - 1; // its last cycle waits until every instance is idle
      for (uint32_t p = 1; p < inst.size(); ++p) {
        const auto idle = inst[p].drain(last);
        if (!idle) {
          why = fmt::format("the kernel's end would wait forever for {}", k.processes[p].name);
          return std::nullopt;
        }
        last = std::max(last, *idle);
      }
      end = last + 1;
    }
    return end;
  };
  for (const ir::EvalResult::TraceEvent& e : profile.trace) {
    if (e.op == ir::kNone) {
      const auto next = finishBlock();
      if (!next) return std::nullopt;
      start = *next;
      stall = 0;
      block = e.block;
      continue;
    }
    const ir::Op& op = k.ops[e.op];
    Instance& in = inst.at(op.index);
    const int64_t at = start + plan.fsm.formCycle[e.op] + stall;
    std::optional<int64_t> done;
    if (op.kind == OpKind::TaskAsync) {
      const ir::Process& p = k.processes[op.index];
      const ir::EvalResult& inv = profile.invocations.at(e.invocation);
      std::string bodyWhy;
      const auto cycles = predictCycles(k.tasks[p.body], *bodies.at(op.index), inv, bodyWhy);
      if (!cycles) {
        why = fmt::format("{}'s cycles are not predicted: {}", p.name, bodyWhy);
        return std::nullopt;
      }
      done = in.asyncRoom(at);
      if (done) in.push(*done, int64_t(*cycles));
    } else if (op.kind == OpKind::TaskGet) {
      done = in.get(at);
    } else {
      done = in.drain(at);
    }
    if (!done) return stuck(op);
    stall += *done - at;
  }
  const auto end = finishBlock();
  if (!end) return std::nullopt;
  for (uint32_t m = 0; m < k.memories.size(); ++m) {
    std::vector<std::pair<std::string, std::vector<std::pair<int64_t, int64_t>>>> users;
    if (!kernelBusy[m].empty()) users.push_back({"the kernel", kernelBusy[m]});
    for (uint32_t p : instancesOf[m]) users.push_back({k.processes[p].name, inst[p].busy()});
    for (size_t a = 0; a < users.size(); ++a)
      for (size_t b = a + 1; b < users.size(); ++b)
        for (const auto& x : users[a].second)
          for (const auto& y : users[b].second)
            if (x.first <= y.second && y.first <= x.second) {
              why = fmt::format("memory {} is used by {} and {} at the same time (from cycle {}), whose requests "
                                "the arbiter interleaves; the predictor does not model that",
                                k.memories[m].name, users[a].first, users[b].first, std::max(x.first, y.first));
              return std::nullopt;
            }
  }
  return uint64_t(*end);
}

} // namespace spvhls::rtl
