// Private to the golden interpreter: execution state and the executor.
//
// All per-work-item state (call frames, value slots, its own memory objects, ids) lives in WorkItem,
// so that ND-range execution can interleave work-items: Executor::run() returns at OpControlBarrier
// and before subgroup instructions, and can be resumed (interp_ndrange.cpp schedules work-items).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/interp.h"
#include "sim/interp_program.h"

namespace spvhls::sim::interp {

struct NDRange {
  uint32_t dims = 1;
  std::array<uint64_t, 3> globalSize{1, 1, 1}, localSize{1, 1, 1}, globalOffset{0, 0, 0};
  uint32_t subgroupSize = 8; // requested maximum; see Executor::subgroupMaxSize()

  uint64_t localLinearSize() const { return localSize[0] * localSize[1] * localSize[2]; }
  // Subgroups split the work-group in linear local id order.
  uint64_t subgroupMaxSize() const { return std::min<uint64_t>(subgroupSize, localLinearSize()); }
};

struct Frame {
  uint32_t fn = 0;      // index into Program::functions
  uint32_t pc = 0;      // next instruction, saved while a callee runs
  size_t base = 0;      // first value slot in WorkItem::values
  uint32_t retDst = 0;  // caller slot that receives the return value
  uint32_t objMark = 0; // WorkItem::objTop at entry: Function variables above it die on return
  uint64_t bytesMark = 0; // WorkItem::liveBytes at entry
};

struct WorkItem {
  std::array<uint64_t, 3> globalId{}, localId{}, groupId{};
  std::vector<Frame> frames;
  std::vector<uint64_t> values;
  std::vector<MemObject> objects; // object index Program::sharedObjects + i
  uint32_t objTop = 0;            // objects[0, objTop) are live
  uint64_t liveBytes = 0;         // bytes of the live Function variables (InterpOptions::maxMemoryBytes)
  std::vector<uint64_t> phiTemp;
  bool finished = false;
  // Task threads (SPV_INTEL_task_sequence) are invocations of their own: nesting depth (0 for the
  // ND-range's work-items), and the object numbers of their Function variables start at objBase so
  // that a pointer into the caller's Function memory is caught rather than aliased.
  uint32_t taskDepth = 0, objBase = 0;
  std::vector<uint64_t> result; // a task thread's return value
};

// The registers of each work-item's current frame: how a subgroup or work-group instruction reads
// and writes them all at once.
inline std::vector<uint64_t*> registersOf(const std::vector<WorkItem*>& items) {
  std::vector<uint64_t*> regs;
  for (WorkItem* wi : items)
    regs.push_back(wi->values.data() + wi->frames.back().base);
  return regs;
}

// A task sequence object (interp_task.cpp). Results live in `stored` (the spec's data structure D,
// at most GetCapacity entries); task threads that finished while D was full wait in `waiting` and
// still count against AsyncCapacity.
struct TaskSequence {
  uint32_t fn = 0;        // Program::functions index
  uint32_t createSrc = 0; // the OpTaskSequenceCreateINTEL (diagnostics)
  uint32_t getCapacity = 0, asyncCapacity = 0;
  std::deque<std::vector<uint64_t>> stored, waiting;
  uint64_t asyncs = 0, gets = 0;
  bool released = false;
};

// Whether Executor can provide the value of a BuiltIn decoration.
bool isSupportedBuiltIn(uint32_t builtIn);

class Executor {
public:
  Executor(Program& p, const RunSpec& spec, const InterpOptions& opts, const NDRange& nd);

  // Shared memory objects: index 0 null, then what Program::globals and the buffers say.
  std::vector<MemObject> shared;

  // Prepares a work-item with the given ids to call `fn` with `args` (slot values per parameter).
  void start(WorkItem& wi, uint32_t fn, const std::vector<std::vector<uint64_t>>& args);

  // Barrier: stopped after an OpControlBarrier. Subgroup: stopped after a subgroup instruction whose
  // result is still to be computed by subgroup() together with the rest of the subgroup.
  enum class Status { Finished, Barrier, Subgroup };
  // Executes a Workgroup-scope group instruction at which every work-item of the work-group stopped
  // (Status::Barrier), in local order (interp_subgroup.cpp).
  void workgroup(const std::vector<WorkItem*>& items);
  Status run(WorkItem& wi);

  // The instruction a stopped work-item stopped at (the barrier or the subgroup instruction).
  const DInst& stoppedAt(const WorkItem& wi) const;
  // Executes the subgroup instruction all of `items` (in SubgroupLocalInvocationId order) stopped
  // at (interp_subgroup.cpp).
  void subgroup(const std::vector<WorkItem*>& items, uint64_t maxSize); // maxSize: SubgroupMaxSize
  // Re-initialises the Workgroup-storage variables for the next work-group.
  void resetWorkgroupMemory();

  uint64_t instructions = 0;
  std::vector<uint64_t> blockCounts, edgeCounts; // by global block / edge number

private:
  Program& p_;
  const RunSpec& spec_;
  InterpOptions opts_;
  NDRange nd_;

  uint64_t builtInValue(const WorkItem& wi, uint32_t builtIn, uint32_t component, uint32_t where) const;
  MemObject* objectAt(WorkItem& wi, uint64_t addr);
  // The object `addr` points into, checking that [offset, offset + size) is inside it.
  MemObject& access(WorkItem& wi, uint64_t addr, uint64_t size, const DInst& in, const char* what, bool write);
  void checkDefined(const MemObject& o, uint64_t off, uint64_t size, const DInst& in) const;
  void markDefined(MemObject& o, uint64_t off, uint64_t size) const;
  uint32_t allocate(WorkItem& wi, const DInst& in, uint64_t size, ObjectInfo info);
  std::string describe(const MemObject& o) const;
  [[noreturn]] void fail(const DInst& in, const std::string& msg) const;
  void atomic(WorkItem& wi, const DInst& in, uint64_t* r);
  void copyMemory(WorkItem& wi, const DInst& in, const uint64_t* r);
  void copyByValArguments(WorkItem& from, WorkItem& wi, const DInst& in, const DFunction& callee, uint64_t* cr);
  bool extInst(const DInst& in, uint64_t* r) const;
  bool floatInst(const DInst& in, uint64_t* r) const; // interp_float.cpp
  void block2d(const std::vector<WorkItem*>& items, uint64_t maxSize);  // SPV_INTEL_2d_block_io, interp_block2d.cpp
  // The core group instructions over a subgroup's or work-group's items (interp_subgroup.cpp).
  void collective(const DInst& in, const std::vector<WorkItem*>& items);

  // SPV_INTEL_task_sequence (interp_task.cpp). Async runs the task thread to completion at once.
  std::vector<TaskSequence> sequences_; // handle = index + 1
  TaskSequence& sequence(const DInst& in, uint64_t handle);
  void taskCreate(const DInst& in, uint64_t* r);
  void taskAsync(WorkItem& wi, const DInst& in, const uint64_t* r);
  void taskGet(const DInst& in, uint64_t* r);
  void taskRelease(const DInst& in, const uint64_t* r);
};

} // namespace spvhls::sim::interp

namespace spvhls::sim::interp {

// Runs every work-group of the ND-range, one after another, calling `fn` with `args` in each
// work-item (interp_ndrange.cpp).
void runNDRange(Program& p, Executor& ex, const NDRange& nd, uint32_t fn, const std::vector<std::vector<uint64_t>>& args);

} // namespace spvhls::sim::interp
