// The pipelined IEEE-754 floating-point divide and square root units: one generated Verilog module
// per format and operation, named by the caller:
//
//   module <name> (input wire clk, input wire en, input wire [W-1:0] a, input wire [W-1:0] b,
//                  output wire [W-1:0] y);   // W = 1 + exp + mant; y = a / b
//   module <name> (input wire clk, input wire en, input wire [W-1:0] a,
//                  output wire [W-1:0] y);   // y = sqrt(a)
//
// Both are radix-2 restoring digit recurrences with one register rank per result bit, so that a new
// operation can enter every cycle and each rank is one subtractor of about mant + 3 bits and a mux,
// as in the integer divider (rtlgen/units/divider.h). Every rank advances only when `en`. Operands
// presented with en give y once latency - 1 enabled edges have passed (in cycle t + latency - 1 with
// en held): y is combinational out of the last rank, as in every unit, so the consumer's register
// captures it at the end of that cycle. P = mant + 1 (significand bits with the hidden one):
//
//   divide: unpack (classify, normalize subnormal significands, exponent difference) | P + 2 ranks,
//   one quotient bit each (the quotient of two significands in [1, 2) lies in (1/2, 2): P + 2 bits
//   give P significant bits and a guard bit either way) | normalize (one bit left or not, shift
//   right into the subnormal range with a sticky bit) | round to nearest even and pack, driving y.
//   latency = P + 5: f16 16, f32 29, f64 58.
//
//   square root: unpack (classify, normalize a subnormal significand, halve the exponent; an odd
//   exponent doubles the radicand so that the root lies in [1, 2)) | P ranks, one root bit after the
//   hidden one each (mant bits and a guard bit) | round and pack, driving y. latency = P + 2: f16
//   13, f32 26, f64 55. (The root of a P-bit radicand is never exactly halfway between two P-bit
//   values, and never subnormal or overflowing in these formats, so rounding needs no sticky bit and
//   no range checks.)
//
// Results are x86-64 SSE's bit for bit (divss/divsd/sqrtss/sqrtsd; f16 the golden interpreter's:
// computed in double and rounded once, which is exact for both operations): round to nearest even,
// subnormals in and out, overflow to infinity. Divide: a NaN `a` gives a quieted, else a NaN `b`
// gives b quieted, else 0 / 0 and inf / inf give the default NaN (sign 1, quiet bit only: 0xFFC00000
// for f32, 0xFE00 for f16), x / 0 and inf / x give a signed infinity, 0 / x and x / inf a signed
// zero. Square root: a NaN gives itself quieted, -0 gives -0, +inf gives +inf, any other negative
// operand (-inf too) the default NaN.
#pragma once

#include <cstdint>
#include <string>

#include "rtlgen/netlist.h"
#include "rtlgen/units/fp_format.h"

namespace spvhls::rtl {

// mant + 6 and mant + 3. Throw InternalError for a format the builders reject.
uint32_t fpDivLatency(FpFormat f);
uint32_t fpSqrtLatency(FpFormat f);

// The modules as netlists. Throw InternalError for a format with exp outside 2..15, mant below 2 or
// a width above 64; the square root also for a format whose bias is too small for the root of its
// smallest subnormal to be normal (none of f16, f32, f64).
nl::Module buildFpDivUnit(const std::string& moduleName, FpFormat f);
nl::Module buildFpSqrtUnit(const std::string& moduleName, FpFormat f);
// Their Verilog text (the printer's).
std::string generateFpDivUnit(const std::string& moduleName, FpFormat f);
std::string generateFpSqrtUnit(const std::string& moduleName, FpFormat f);

} // namespace spvhls::rtl
