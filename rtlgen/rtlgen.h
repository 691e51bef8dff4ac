// Verilog generation: ir::Kernel + its verified KernelSchedule + its checked KernelPlan -> synthesizable
// Verilog modules.
// The interface is documented in docs/hardware-interface.md; the structure in docs/architecture.md.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "ir/ir_eval.h"
#include "rtlgen/netlist.h"
#include "scheduler/kernel_schedule.h"

namespace spvhls::rtl {

enum class ClusterMode { Auto, StallFree, StallEnable };
const char* clusterModeName(ClusterMode m);

struct KernelPlan; // rtlgen/plan.h

// What the cycle model of pipelines without a closed form (rtlgen/pipeline_timing.h) needs of a
// loop's plan: its positions, II, exit position, in-flight limit, whether it takes its next invocation
// while draining; per LoopCall op the inner loop and the positions of its request and of the capture of its
// results; per memory access its port and request position. `bit`: the operation's bit in an
// iteration's record of ir::EvalResult::loopIterationPredicates; `predicated`: it has a predicate
// (else it always happens, in speculated iterations too).
// A stall-free loop's clusters too: their entry positions, exit FIFO depths and recurrence gates.
struct PipelineModel {
  uint32_t F = 1, ii = 1, exitPos = 0, maxConcurrency = 0;
  bool reinvocable = false, stallFree = false;
  std::vector<uint32_t> cuts;
  std::vector<uint64_t> exitFifoDepth;
  struct Gate {
    uint32_t toCluster = 0, distance = 1, countPos = 0;
    bool countAsAdmitted = false;
  };
  std::vector<Gate> gates;
  struct Call {
    uint32_t loop = 0, request = 0, capture = 0, bit = 0;
    bool predicated = true;
  };
  struct Access {
    uint32_t port = 0, request = 0, bit = 0;
    bool predicated = true;
    uint32_t queue = kNoQueue; // a task queue's memory (Memory::Kind::Queue): refused as the queue says
  };
  static constexpr uint32_t kNoQueue = ~0u;
  std::vector<Call> calls;
  std::vector<Access> accesses;
  std::vector<uint32_t> ports; // every port its requests and its inner loops' reach
  std::string unmodelled;      // non-empty: why the model does not describe the loop's timing
};

// What was built for one pipelined loop (for the report).
struct LoopHardware {
  uint32_t loop = 0;
  ClusterMode kind = ClusterMode::StallEnable; // the kind actually built
  std::string kindReason;                      // why (auto's choice, or the user's)
  struct Cluster {
    uint32_t firstStage = 0, lastStage = 0;    // schedule stages (cycles) covered
    uint32_t exitFifoDepth = 0;                // stall-free: exit FIFO depth (= credits)
  };
  std::vector<Cluster> clusters;
  std::vector<std::pair<std::string, uint32_t>> responseFifos; // per load: name, depth
  // Where the iteration's values are held (LoopPlan::valueBits): position registers, exit FIFO entries
  // and induction-variable counters, in bits; the values read from counters (name, positions) and
  // those formed again where they are read instead of being carried.
  uint64_t registerBits = 0, exitFifoBits = 0, counterBits = 0;
  std::vector<std::pair<std::string, std::vector<uint32_t>>> counted;
  std::vector<std::string> formedAgain;
  // Stall-free recurrence gates (LoopPlan::gates): the consumer's cluster admits an iteration only
  // once the iteration `distance` before has passed countPos, early enough for the producer to be
  // done when the consumer reads; `waits`: even at the assumed memory latency.
  struct Gate {
    std::string producer, consumer;
    uint32_t producerPos = 0, toCluster = 0, distance = 1, countPos = 0;
    bool waits = false;
  };
  std::vector<Gate> gates;
  // Operations the library builds on operator units (dividers, floating-point units): the unit
  // module instanced (a unit whose span crosses stall-free cluster cuts delivers through a side FIFO).
  struct UnitUse {
    std::string op, module;
    uint32_t latency = 0;
    uint32_t instance = 0; // index into instances
  };
  std::vector<UnitUse> units;
  // The unit instances built (modulo binding, LoopPlan::instances): module and the operations bound.
  struct UnitInstanceUse {
    std::string module;
    std::vector<std::string> ops;
  };
  std::vector<UnitInstanceUse> instances;
  // Cycles from the loop's start to its done with fixed memory latency (the target's) and no
  // back-pressure: cyclesBase + cyclesPerIteration * iterations, where iterations counts the final
  // (exiting) iteration too.
  int64_t cyclesBase = 0, cyclesPerIteration = 0;
  // MaxConcurrencyINTEL bursts (LoopPlan::predictBurst): each invocation of n iterations takes
  // cyclesBase + cyclesPerIteration + floor((n-1) / burst) * burstPeriod + ((n-1) mod burst) *
  // cyclesPerIteration instead.
  uint32_t burst = 0;
  int64_t burstPeriod = 0;
  bool predictable = true;
  std::string unpredictedWhy; // when not predictable: why, for the report and --check-cycles
  // Cycles from an invocation's last launch to the FSM's cycle after its done (LoopPlan::predictDrain);
  // -1 when not predicted.
  int64_t drainAfterLastLaunch = -1;
  // The loop's cycle model (every loop has one: an outer pipeline steps its inner loops too), for the
  // loops whose cycles have no closed form (predictable false), rtlgen/pipeline_timing.h.
  std::optional<PipelineModel> model;
};

struct RtlResult {
  std::string moduleName;
  std::vector<std::string> argNames; // per kernel argument: the sanitised name in its ports (arg_/mem_<name>)
  // Per kernel memory: an external memory's name in its ports (mem_<name>_*, `ext_<variable>`), or empty.
  std::vector<std::string> externalNames;
  // One file per module: (file name, text); files[0] is the kernel's top module.
  std::vector<std::pair<std::string, std::string>> files;
  // The netlist each file was printed from (same order), for inspection; empty unless asked for.
  std::vector<nl::Module> modules;
  std::vector<LoopHardware> loops;
  std::vector<uint32_t> blockCycles; // per Kernel block: FSM cycles per execution (LoopCall waits excluded)
  std::vector<int> formCycle;        // per Kernel op: the FSM cycle of its block it is formed in
  std::vector<std::string> ramModules; // per kernel memory: its RAM module (on-chip), or empty
  std::vector<uint32_t> ramWordBytes;  // per kernel memory: its RAM's word width in bytes
};

// The cycles one call of a predictable loop with n iterations adds to the kernel (LoopHardware's
// linear form, or its bursts).
int64_t loopCallCycles(const LoopHardware& hw, uint64_t n);

// Predicted kernel cycles (start to done, docs/hardware-interface.md) with fixed memory latency equal
// to the target's and no back-pressure, from a profile of the same run of this kernel's IR
// (ir::evaluateKernel): executions of each block (a LoopCall block's: the loop's calls) and iterations
// of each loop; for loops issuing in bursts each call's iterations; for outer pipelines each
// iteration's inner-loop calls, which the cycle model steps through (rtlgen/pipeline_timing.h).
// nullopt when a loop's timing is not modelled (say why in `why`).
std::optional<uint64_t> predictCycles(const ir::Kernel& k, const RtlResult& r, const ir::EvalResult& profile,
                                      std::string& why);

// A task process's instance, as the kernel's top module connects it: the body's top module and its
// ports (docs/task-sequences.md).
struct TaskInstance {
  std::string module;                   // the body's top module
  std::vector<std::string> argPorts;    // per parameter: arg_<name> (a scalar) or mem_<name> (a pointer)
  std::vector<unsigned> argBits;        // per parameter: its bits in an invocation (a pointer: 64)
  std::vector<std::string> memoryPorts; // per body memory: its port's prefix, empty: the body's own
  std::vector<unsigned> memoryBits;     // per body memory: its port's data width
  unsigned resultBits = 0;              // 0: void (no result port)
  // A served body (a pipelined task's): its own invocation and result queues (body memories); -1: none.
  int invocationQueue = -1, resultQueue = -1;
};

// The depth of a task's invocation or result FIFO for a channel of `depth` entries (a capacity):
// FIFOs are powers of two of at least 2 entries, and holding more than the capacity is allowed.
inline uint64_t taskQueueDepth(uint64_t depth) { return std::bit_ceil(std::max<uint64_t>(2, depth)); }

// How the kernel's top module instances the body of a task process, generated as `bodyRtl`.
TaskInstance taskInstance(const ir::Kernel& body, const RtlResult& bodyRtl);

// Renders the plan (rtlgen/plan.h: planKernel) of `k` scheduled as `s`; it decides nothing itself.
// With keepNetlists the netlists stay in RtlResult::modules (tests inspect them); without, each
// module is dropped once printed, so that a large design never holds all its netlists at once.
// `tasks`: per process of `k`, the instance of a task process's body (generated before, whose files
// the caller adds); `moduleName`: the top module's name (empty: the kernel's, sanitised).
RtlResult generateVerilog(const ir::Kernel& k, const sched::KernelSchedule& s, const KernelPlan& plan,
                          bool keepNetlists = true, const std::vector<TaskInstance>& tasks = {},
                          const std::string& moduleName = "");

// A Verilog-safe identifier from a SPIR-V name.
std::string sanitize(const std::string& name);

} // namespace spvhls::rtl
