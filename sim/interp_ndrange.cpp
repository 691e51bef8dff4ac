// Golden interpreter: ND-range execution.
//
// Work-groups run one after another (in order of increasing group id, dimension 0 fastest). Inside a
// work-group every work-item runs until it stops: at an OpControlBarrier, at a subgroup instruction
// or at the kernel's end. A subgroup instruction is executed when all work-items of the subgroup have
// stopped at it; the work-group passes a barrier when all its work-items have stopped at the same
// barrier. Anything else (some work-items at a barrier or subgroup instruction, others elsewhere or
// finished) is a deadlock in OpenCL and reported as an error naming the instruction. Between such
// points the work-items of a group run sequentially, which is one of the schedules OpenCL allows.
#include <fmt/format.h>

#include "sim/interp_exec.h"

namespace spvhls::sim::interp {

namespace {

std::string idText(const std::array<uint64_t, 3>& v, uint32_t dims) {
  if (dims == 1) return fmt::format("{}", v[0]);
  if (dims == 2) return fmt::format("({}, {})", v[0], v[1]);
  return fmt::format("({}, {}, {})", v[0], v[1], v[2]);
}

std::string stateText(Executor& ex, const Program& p, const WorkItem& wi, Executor::Status st) {
  if (st == Executor::Status::Finished) return "has finished";
  return fmt::format("is at {} ({})", constructName(p, ex.stoppedAt(wi).src), p.mv.locOf(ex.stoppedAt(wi).src).str());
}

class GroupRunner {
public:
  GroupRunner(Program& p, Executor& ex, const NDRange& nd) : p_(p), ex_(ex), nd_(nd) {}

  void run(const std::array<uint64_t, 3>& group, uint32_t fn, const std::vector<std::vector<uint64_t>>& args) {
    const auto& ls = nd_.localSize;
    const uint64_t n = nd_.localLinearSize();
    items_.assign(n, WorkItem{});
    status_.assign(n, Executor::Status::Finished);
    group_ = group;
    ex_.resetWorkgroupMemory();
    for (uint64_t k = 0; k < n; ++k) {
      WorkItem& wi = items_[k];
      wi.localId = {k % ls[0], k / ls[0] % ls[1], k / (ls[0] * ls[1])};
      for (int d = 0; d < 3; ++d) {
        wi.groupId[d] = group[d];
        wi.globalId[d] = group[d] * ls[d] + wi.localId[d] + nd_.globalOffset[d];
      }
      ex_.start(wi, fn, args);
    }
    for (;;) {
      const uint64_t m = nd_.subgroupMaxSize();
      for (uint64_t first = 0; first < n; first += m) runSubgroup(first, std::min(n, first + m));
      if (status_[0] == Executor::Status::Finished) {
        for (uint64_t k = 1; k < n; ++k)
          if (status_[k] != Executor::Status::Finished) deadlock(k, 0);
        return;
      }
      const DInst& barrier = ex_.stoppedAt(items_[0]);
      for (uint64_t k = 1; k < n; ++k)
        if (status_[k] != Executor::Status::Barrier || &ex_.stoppedAt(items_[k]) != &barrier) deadlock(0, k);
      // A work-group collective (OpGroupIAdd ... at Workgroup scope) stops every work-item like a
      // barrier; it is executed once all are there.
      if (barrier.op != X::Barrier) {
        std::vector<WorkItem*> all;
        for (WorkItem& wi : items_) all.push_back(&wi);
        ex_.workgroup(all);
      }
    }
  }

private:
  Program& p_;
  Executor& ex_;
  const NDRange& nd_;
  std::vector<WorkItem> items_;
  std::vector<Executor::Status> status_;
  std::array<uint64_t, 3> group_{};

  // Runs work-items [first, last) (one subgroup) to a barrier or their end, executing the subgroup
  // instructions they meet together.
  void runSubgroup(uint64_t first, uint64_t last) {
    for (;;) {
      for (uint64_t k = first; k < last; ++k) status_[k] = ex_.run(items_[k]);
      if (status_[first] != Executor::Status::Subgroup) {
        for (uint64_t k = first + 1; k < last; ++k)
          if (status_[k] == Executor::Status::Subgroup) deadlock(k, first);
        return;
      }
      const DInst& at = ex_.stoppedAt(items_[first]);
      std::vector<WorkItem*> sg;
      for (uint64_t k = first; k < last; ++k) {
        const bool there = status_[k] == Executor::Status::Subgroup && &ex_.stoppedAt(items_[k]) == &at;
        // Legal in SPIR-V, but the interpreter runs a subgroup's invocations together only where all
        // of them arrive.
        if (!there && isGroupOp(at.op) && (at.c & kNonUniform))
          failAt(p_, at.src,
                 fmt::format("reached by work-item {} but not by work-item {} of its subgroup: a non-uniform group "
                             "instruction in divergent control flow is not supported by the interpreter yet",
                             idText(items_[first].globalId, nd_.dims), idText(items_[k].globalId, nd_.dims)));
        if (!there) deadlock(first, k);
        sg.push_back(&items_[k]);
      }
      ex_.subgroup(sg, nd_.subgroupMaxSize());
    }
  }

  // Work-item `stopped` waits at an instruction that work-item `other` does not reach.
  [[noreturn]] void deadlock(uint64_t stopped, uint64_t other) const {
    const WorkItem& a = items_[stopped];
    const DInst& at = ex_.stoppedAt(a);
    bool isBarrier = status_[stopped] == Executor::Status::Barrier && at.op == X::Barrier;
    const bool workgroupScope = status_[stopped] == Executor::Status::Barrier;
    failAt(p_, at.src,
           fmt::format("deadlock: {} reached by work-item {} (local id {}) of work-group {} but not by work-item {} "
                       "(local id {}), which {}; every work-item of the {} must execute it",
                       isBarrier ? "barrier" : workgroupScope ? "work-group instruction" : "subgroup instruction",
                       idText(a.globalId, nd_.dims),
                       idText(a.localId, nd_.dims), idText(group_, nd_.dims), idText(items_[other].globalId, nd_.dims),
                       idText(items_[other].localId, nd_.dims), stateText(ex_, p_, items_[other], status_[other]),
                       workgroupScope ? "work-group" : "subgroup"));
  }
};

} // namespace

void runNDRange(Program& p, Executor& ex, const NDRange& nd, uint32_t fn, const std::vector<std::vector<uint64_t>>& args) {
  std::array<uint64_t, 3> groups{};
  for (int d = 0; d < 3; ++d) groups[d] = nd.globalSize[d] / nd.localSize[d];
  GroupRunner runner(p, ex, nd);
  for (uint64_t z = 0; z < groups[2]; ++z)
    for (uint64_t y = 0; y < groups[1]; ++y)
      for (uint64_t x = 0; x < groups[0]; ++x) runner.run({x, y, z}, fn, args);
}

} // namespace spvhls::sim::interp
