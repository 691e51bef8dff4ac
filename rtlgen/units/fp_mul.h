// The pipelined IEEE-754 floating-point multiply unit: one generated Verilog module per format and
// stage count, named by the caller:
//
//   module <name> (input wire clk, input wire en, input wire [W-1:0] a, input wire [W-1:0] b,
//                  output wire [W-1:0] y);   // W = 1 + exp + mant
//
// Every register stage advances only when `en`. Operands presented with en give y once latency - 1
// enabled edges have passed, where latency = stages + 1 (in cycle t + latency - 1 with en held): y
// is combinational out of the last stage, so the consumer's register captures it at the end of that
// cycle, as it captures an inline latency-1 operation (the divider's contract, divider.h).
//
// The phases, with a register between two of them where `stages` allows (more stages: shorter
// paths): unpack and normalize subnormal significands | partial products (formats whose significand
// is wider than a DSP block's 27 bits: f64) | significand product | normalize the product and shift
// it right into the subnormal range | round | pack specials and overflow. The product, unpack and
// normalize cuts come first, then the partial-product cut, then the round cut.
//
// Results are x86-64 SSE's bit for bit (the golden interpreter's host arithmetic): round to nearest
// even, subnormals in and out (no flush to zero), overflow to infinity, zero results signed by the
// xor of the signs. A NaN `a` gives a quieted, else a NaN `b` gives b quieted, else 0 * inf gives
// the default NaN (sign 1, quiet bit only: 0xFFC00000 for f32; f16 0xFE00, what rounding double's
// default NaN to half gives). (The golden interpreter's f16 path, a plain x * y in double, returns b
// when both are NaN as g++ 12 compiles it: the compiler may swap the operands of a commutative *.)
#pragma once

#include <cstdint>
#include <string>

#include "rtlgen/netlist.h"
#include "rtlgen/units/fp_format.h"

namespace spvhls::rtl {

// The largest useful stage count: one register per phase boundary (4, or 5 with partial products).
uint32_t fpMulMaxStages(FpFormat f);
// stages + 1. Throws InternalError for stages outside 1..fpMulMaxStages(f).
uint32_t fpMulLatency(FpFormat f, uint32_t stages);

// The module as a netlist. Throws InternalError for a format with exp outside 2..15, mant 0 or a
// width above 64, or stages outside 1..fpMulMaxStages(f).
nl::Module buildFpMulUnit(const std::string& moduleName, FpFormat f, uint32_t stages);
// Its Verilog text (the printer's).
std::string generateFpMulUnit(const std::string& moduleName, FpFormat f, uint32_t stages);

} // namespace spvhls::rtl
