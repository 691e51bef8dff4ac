// Verilog generation: ir::Kernel + its verified KernelSchedule -> one synthesizable Verilog module.
// The interface is documented in docs/hardware-interface.md; the structure in docs/architecture.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "scheduler/kernel_schedule.h"

namespace spvhls::rtl {

enum class ClusterMode { Auto, StallFree, StallEnable };
const char* clusterModeName(ClusterMode m);

struct RtlOptions {
  ClusterMode clusterMode = ClusterMode::Auto;
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
  // Cycles from the loop's start to its done with fixed memory latency (the target's) and no
  // back-pressure: cyclesBase + cyclesPerIteration * iterations, where iterations counts the final
  // (exiting) iteration too.
  uint64_t cyclesBase = 0, cyclesPerIteration = 0;
};

struct RtlResult {
  std::string moduleName;
  std::string verilog;
  std::vector<LoopHardware> loops;
  // Kernel cycle prediction (start to done) with fixed memory latency and no back-pressure, when the
  // FSM's path is determined by the loop trip counts alone: base + sum over loops of their cycles.
  bool cyclesPredictable = false;
  uint64_t fsmCycles = 0; // FSM cycles outside loops on that path
};

RtlResult generateVerilog(const ir::Kernel& k, const sched::KernelSchedule& s, const RtlOptions& o);

// A Verilog-safe identifier from a SPIR-V name.
std::string sanitize(const std::string& name);

} // namespace spvhls::rtl
