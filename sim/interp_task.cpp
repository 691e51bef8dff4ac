// Golden interpreter: SPV_INTEL_task_sequence.
//
// Execution model (one of the schedules the extension allows): OpTaskSequenceAsyncINTEL runs its task
// thread to completion at once, as an invocation of its own (ids 0, sizes 1, a subgroup of one, its
// own Function and Private memory). The finished thread stores its result in the sequence's data structure D if D
// holds fewer than GetCapacity results, else it waits — and keeps counting against AsyncCapacity —
// until an OpTaskSequenceGetINTEL makes room. Results come out in async order.
//
// The capacities are taken as the guarantees the spec gives and nothing more, so a program that
// relies on more buffering than it asked for is reported as a deadlock: an async when AsyncCapacity
// task threads are waiting for room in D (only a get, which the blocked caller cannot reach, would
// make room), and a get when no task thread has a result to give. Races between a task thread and
// its caller (undefined without the extension's acquire/release points) are not detected.
#include <fmt/format.h>

#include "sim/interp_exec.h"

namespace spvhls::sim::interp {

namespace {
// Where a sequence was created, for the deadlock diagnostics.
std::string createdAt(const Program& p, const TaskSequence& s) {
  return fmt::format("created at {}", p.mv.locOf(s.createSrc).str());
}
} // namespace

TaskSequence& Executor::sequence(const DInst& in, uint64_t handle) {
  if (handle == 0 || handle > sequences_.size())
    fail(in, "the Sequence operand is not a task sequence created by OpTaskSequenceCreateINTEL (undefined or null)");
  TaskSequence& s = sequences_[handle - 1];
  if (s.released)
    fail(in, fmt::format("the task sequence created at {} ({}) was already released by OpTaskSequenceReleaseINTEL",
                         constructName(p_, s.createSrc), p_.mv.locOf(s.createSrc).str()));
  return s;
}

void Executor::taskCreate(const DInst& in, uint64_t* r) {
  TaskSequence s;
  s.fn = in.a;
  s.createSrc = in.src;
  s.getCapacity = in.b;
  s.asyncCapacity = in.c;
  sequences_.push_back(std::move(s));
  r[in.dst] = sequences_.size();
}

void Executor::taskAsync(WorkItem& wi, const DInst& in, const uint64_t* r) {
  TaskSequence& s = sequence(in, r[in.a]);
  if (s.waiting.size() >= s.asyncCapacity) {
    const std::string created = createdAt(p_, s);
    if (s.asyncCapacity == 0)
      fail(in, fmt::format("deadlock: the task sequence ({}) has AsyncCapacity 0, so this async can never start a task "
                           "thread; use an AsyncCapacity of at least 1",
                           created));
    fail(in, fmt::format("deadlock: this async blocks forever. The task sequence ({}) is full: {} results wait to be "
                         "retrieved (GetCapacity = {}) and {} finished task threads wait for room, all that "
                         "AsyncCapacity = {} allows. Only an OpTaskSequenceGetINTEL would make room, and the caller is "
                         "blocked here. Get results before this async, or raise the capacities: with {} asyncs "
                         "outstanding, GetCapacity + AsyncCapacity must be at least {}",
                         created, s.stored.size(), s.getCapacity, s.waiting.size(), s.asyncCapacity, s.asyncs - s.gets,
                         s.asyncs - s.gets + 1));
  }
  const DFunction& fn = p_.functions[s.fn];
  if (fn.params.size() != in.n)
    fail(in, fmt::format("{} arguments passed to the task function, which takes {}", in.n, fn.params.size()));
  if (wi.taskDepth >= kMaxTaskDepth)
    fail(in, fmt::format("task threads nested more than {} deep (recursive task sequences?)", kMaxTaskDepth));

  std::vector<std::vector<uint64_t>> args;
  const uint32_t* x = p_.functions[wi.frames.back().fn].extra.data() + in.b;
  for (uint32_t k = 0; k < in.n; ++k) {
    if (x[2 * k + 1] != fn.params[k].second)
      fail(in, fmt::format("argument {} does not have the type of parameter {} of the task function", k + 1, k));
    args.emplace_back(r + x[2 * k], r + x[2 * k] + x[2 * k + 1]);
  }
  // The task may create sequences of its own, which moves `s`.
  const size_t seqIndex = &s - sequences_.data();
  WorkItem task;
  task.taskDepth = wi.taskDepth + 1;
  task.objBase = task.taskDepth * kTaskObjects;
  start(task, s.fn, args);
  if (!fn.byVal.empty()) copyByValArguments(wi, task, in, fn, task.values.data());
  for (;;) {
    Status st = run(task);
    if (st == Status::Finished) break;
    // A task thread is a work-group of one: its subgroup has one invocation, and a barrier passes.
    if (st == Status::Subgroup) subgroup({&task}, 1);
  }
  TaskSequence& seq = sequences_[seqIndex];
  ++seq.asyncs;
  (seq.stored.size() < seq.getCapacity ? seq.stored : seq.waiting).push_back(std::move(task.result));
}

void Executor::taskGet(const DInst& in, uint64_t* r) {
  TaskSequence& s = sequence(in, r[in.a]);
  if (s.stored.empty()) {
    const std::string created = createdAt(p_, s);
    if (!s.waiting.empty())
      fail(in, fmt::format("deadlock: the task sequence ({}) has GetCapacity 0, so its {} finished task threads can "
                           "never store their results; use a GetCapacity of at least 1",
                           created, s.waiting.size()));
    fail(in, fmt::format("deadlock: this get blocks forever: the task sequence ({}) has no outstanding task thread "
                         "({} asyncs, all {} results already retrieved)",
                         created, s.asyncs, s.gets));
  }
  std::vector<uint64_t>& v = s.stored.front();
  for (uint32_t i = 0; i < in.n && i < v.size(); ++i) r[in.dst + i] = v[i];
  s.stored.pop_front();
  ++s.gets;
  if (!s.waiting.empty()) { // the oldest waiting thread stores its result in the room made
    s.stored.push_back(std::move(s.waiting.front()));
    s.waiting.pop_front();
  }
}

// Outstanding results are discarded, as a SYCL task_sequence does when it is destroyed.
void Executor::taskRelease(const DInst& in, const uint64_t* r) { sequence(in, r[in.a]).released = true; }

} // namespace spvhls::sim::interp
