// Builds a kernel's top module: FSM over the CFG blocks, loop instances, shared memory ports.
#pragma once

#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "rtlgen/netlist.h"
#include "rtlgen/plan.h"
#include "rtlgen/rtlgen.h"
#include "scheduler/kernel_schedule.h"

namespace spvhls::rtl {

struct TopInputs {
  std::string moduleName;
  std::vector<std::string> argNames;             // sanitised, unique, per kernel argument
  const KernelPlan* plan = nullptr; // FSM form cycles and block lengths, the loops' memory ports
  std::vector<std::string> loopModuleNames;
  std::vector<std::string> ramModuleNames; // per memory: RAM module name (Local memories only)
  std::vector<std::string> externalNames;  // per memory: port name of an external memory, or empty
  std::vector<TaskInstance> tasks;         // per process (processes[0], the kernel's: unused)
};

// Builds the top module.
nl::Module generateTopModule(const ir::Kernel& k, const sched::KernelSchedule& s, const TopInputs& in);

} // namespace spvhls::rtl
