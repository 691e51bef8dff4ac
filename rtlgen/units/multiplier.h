// The pipelined integer multiplier unit: one generated Verilog module per width, named
// sched::unitModuleName(Mul, width) (spvhls_mul_32):
//
//   module spvhls_mul_32 (input wire clk, input wire en, input wire [31:0] a, input wire [31:0] b,
//                         output wire [31:0] y);
//
// y = a * b modulo 2^width (the IR's Mul). The product is split into partial products of `a` and a
// slice of `b` each, registered in the first rank, then summed by a tree of additions, one level per
// rank; the last level is combinational out of the last rank (the contract of every unit, divider.h):
// operands presented with en give y once latency - 1 enabled edges have passed. With `ranks` register
// ranks (latency - 1 as the operator library says) the tree has `ranks` levels, so 2^ranks partial
// products: each stage holds a slice multiply or one addition, not the whole multiplier, which keeps a
// multiply from setting the clock (docs/scheduling.md "Chaining").
#pragma once

#include <cstdint>

#include "rtlgen/netlist.h"

namespace spvhls::rtl {

// Throws InternalError for a width outside 1..64 or no rank.
nl::Module buildMultiplierUnit(uint32_t width, uint32_t ranks);

} // namespace spvhls::rtl
