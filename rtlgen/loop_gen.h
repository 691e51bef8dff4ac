// Builds one pipelined loop (a LoopPlan) as a netlist module.
//
// Ports: clk, rst, start (latches live-ins, initialises carries), done (one-cycle pulse after the
// last iteration left the pipeline; live-outs valid from then on), li_<k> / lo_<k>, and per memory the
// port of docs/hardware-interface.md prefixed m<index>_.
#pragma once

#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "rtlgen/loop_plan.h"
#include "rtlgen/netlist.h"

namespace spvhls::rtl {

// Its memory ports are the plan's (LoopPlan::memories, loadMemories).
// `memories`: the kernel's, whose wordBits are the ports' data widths.
nl::Module generateLoopModule(const ir::Loop& loop, const LoopPlan& plan,
                              const std::vector<ir::Memory>& memories, const std::string& moduleName);

} // namespace spvhls::rtl
