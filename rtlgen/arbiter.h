// Sharing one memory port between the kernel and its task processes (SPV_INTEL_task_sequence).
//
// The kernel's side (its FSM and pipelined loops, already merged into one request) has priority: it
// is ready whenever the memory is, so its timing is what it would be alone. Each task requester
// pushes its requests into a skid FIFO of its own (ready = room there, a register: no combinational
// path between requesters, so requesters that issue on several ports together cannot lock each
// other); the FIFO heads take, in turn, the cycles the kernel leaves free. The FIFOs pass a request
// through in the cycle it is made when nobody else wants the port: alone, a task sees the memory's
// own timing. A tag FIFO remembers who
// issued each read, in order, and routes each response back.
#pragma once

#include <string>
#include <vector>

#include "rtlgen/netlist.h"

namespace spvhls::rtl {

struct PortRequester {
  nl::MemPort port; // its wires (requests in, responses out), as wide as its own accesses
  nl::ExprP base;   // added to its addresses (a task's pointer argument); null: none
};

// Drives `memory` (the real port: a top-level port or a RAM's) from `kernelSide` (no reqValid: the
// kernel does not use it) and `tasks`.
// Returns per task requester a signal that is high while none of its requests wait in the arbiter
// (a task has finished its memory work once its requests left: its release point).
std::vector<nl::ExprP> arbitrateMemory(nl::ModuleBuilder& b, const std::string& prefix, const nl::MemPort& memory,
                                       const nl::MemPort& kernelSide, const std::vector<PortRequester>& tasks);

} // namespace spvhls::rtl
