// The pipelined integer divider unit: one generated Verilog module per operation (UDiv, SDiv, URem,
// SRem, SMod) and width, named sched::unitModuleName(kind, width) (spvhls_sdiv_32):
//
//   module spvhls_sdiv_32 (input wire clk, input wire en, input wire [31:0] a, input wire [31:0] b,
//                          output wire [31:0] y);
//
// A restoring division with one register stage per quotient bit, after an operand stage that takes
// magnitudes; every stage advances only when `en`. Operands presented with en give y once latency - 1
// enabled edges have passed, where latency = width + 2 as the operator library says (in cycle
// t + latency - 1 with en held): y is combinational out of the last stage (sign fix-up, remainder
// sign, division by zero), so the consumer's register captures it at the end of
// that cycle, as it captures an inline latency-1 operation. Results are exactly ir_eval's: division
// by zero gives 0, INT_MIN / -1 wraps to INT_MIN (remainder 0), SRem takes the dividend's sign and
// SMod the divisor's.
#pragma once

#include <cstdint>
#include <string>

#include "ir/hls_ir.h"
#include "rtlgen/netlist.h"

namespace spvhls::rtl {

bool isDivider(ir::OpKind kind);

// The module as a netlist. Throws InternalError for a kind that is not a divider or a width outside
// 1..64.
nl::Module buildDividerUnit(ir::OpKind kind, uint32_t width);
// Its Verilog text (the printer's).
std::string generateDividerUnit(ir::OpKind kind, uint32_t width);

} // namespace spvhls::rtl
