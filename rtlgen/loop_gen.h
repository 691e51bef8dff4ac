// Builds one pipelined loop (a LoopPlan) as a netlist module.
//
// Ports: clk, rst, start (latches live-ins, initialises carries), done (one-cycle pulse after the
// last iteration left the pipeline; live-outs valid from then on), li_<k> / lo_<k>, and per memory the
// port of docs/hardware-interface.md prefixed m<index>_.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "rtlgen/loop_plan.h"
#include "rtlgen/netlist.h"

namespace spvhls::rtl {

// An inner loop the body runs (a LoopCall): its module is instanced inside this one, its memory
// requests merged onto this module's ports (before this body's own: the inner loop has priority).
struct SubPipeline {
  std::string module;
  const ir::Loop* loop = nullptr;
  const LoopPlan* plan = nullptr;
  // Per memory it loads from: the most responses it (with its own inner loops) can have outstanding,
  // for the tag FIFO that routes the port's in-order responses.
  std::map<uint32_t, uint64_t> outstanding;
};

// A parent of a loop module instance (the top's FSM, an outer pipeline) merges the instance's memory
// requests onto its own port: the wires carrying the instance's requests on memory m, named
// <prefix>m<m>_req_* (and <prefix>m<m>_resp_valid with `response`), and their connection to the
// instance's port m<m>_* with the ready and response given (respValid null: no response port on m).
nl::MemPort loopPortWires(nl::ModuleBuilder& b, const std::string& prefix, uint32_t m, unsigned dataWidth,
                          bool response);
void connectLoopPort(nl::Instance& inst, uint32_t m, const nl::MemPort& q, const nl::ExprP& reqReady,
                     const nl::ExprP& respValid, const nl::ExprP& respData);

// Its memory ports are the plan's (LoopPlan::memories, loadMemories).
// `memories`: the kernel's, whose wordBits are the ports' data widths. `subs`: per LoopCall op of
// the body, the inner loop it runs.
nl::Module generateLoopModule(const ir::Loop& loop, const LoopPlan& plan,
                              const std::vector<ir::Memory>& memories, const std::string& moduleName,
                              const std::map<ir::ValueId, SubPipeline>& subs = {});

} // namespace spvhls::rtl
