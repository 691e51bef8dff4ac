// The pipelined IEEE-754 fused multiply-add unit, y = a * b + c rounded once: one generated Verilog
// module per format and stage count, named by the caller:
//
//   module <name> (input wire clk, input wire en, input wire [W-1:0] a, input wire [W-1:0] b,
//                  input wire [W-1:0] c, output wire [W-1:0] y);   // W = 1 + exp + mant
//
// Every register stage advances only when `en`. Operands presented with en give y once latency - 1
// enabled edges have passed, where latency = stages + 1 (in cycle t + latency - 1 with en held): y
// is combinational out of the last stage, so the consumer's register captures it at the end of that
// cycle, as it captures an inline latency-1 operation (the divider's contract, divider.h).
//
// The phases, with a register between two of them where `stages` allows (more stages: shorter
// paths): unpack (classes, normalized significands, exponents, the special result) | partial
// products (f64 only, as in fp_mul.h) | significand product, and c shifted right against it in
// parallel (keeping a sticky bit) | one wide add or subtract giving the magnitude and sign | leading
// zero count (stopped at the subnormal boundary) | normalize (one shifter: left after cancellation,
// right into the subnormal range) | round | pack. The cuts come in the order product, add, unpack,
// normalize, count, partial products, round.
//
// Results are the golden interpreter's (sim/interp_float.cpp, on x86-64) bit for bit: a * b + c
// exact, then rounded once to nearest even; subnormals in and out, overflow to infinity. An exact
// zero sum of nonzero a * b and c is +0; 0 * x + 0 is -0 only when both addends are -0; a tiny
// result that rounds to zero keeps its sign. 0 * inf, and inf - inf between a * b and c, give the
// default NaN (sign set, quiet bit only: f16 0xFE00, f32 0xFFC00000), unless an operand is a NaN.
// A NaN operand comes back quieted (its sign and payload kept); when several are NaN, the first of
// a, b, c, for every format. The interpreter pins that order explicitly (arith in
// sim/interp_float.cpp), as it does for the two-operand operations: left to std::fma or to fmaHalf's
// double arithmetic, the choice would depend on how g++ orders the operands of a * b and of + c.
#pragma once

#include <cstdint>
#include <string>

#include "rtlgen/netlist.h"
#include "rtlgen/units/fp_format.h"

namespace spvhls::rtl {

// The largest useful stage count: one register per phase boundary (6, or 7 with partial products).
uint32_t fpFmaMaxStages(FpFormat f);
// stages + 1. Throws InternalError for stages outside 1..fpFmaMaxStages(f).
uint32_t fpFmaLatency(FpFormat f, uint32_t stages);

// The module as a netlist. Throws InternalError for a format with exp outside 2..15, mant below 2 or
// a width above 64, or stages outside 1..fpFmaMaxStages(f).
nl::Module buildFpFmaUnit(const std::string& moduleName, FpFormat f, uint32_t stages);
// Its Verilog text (the printer's).
std::string generateFpFmaUnit(const std::string& moduleName, FpFormat f, uint32_t stages);

} // namespace spvhls::rtl
