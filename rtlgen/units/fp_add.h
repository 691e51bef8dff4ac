// The pipelined IEEE-754 floating-point adder/subtractor unit: one generated Verilog module per
// format, operation and stage count, named by the caller:
//
//   module <name> (input wire clk, input wire en, input wire [W-1:0] a, input wire [W-1:0] b,
//                  output wire [W-1:0] y);   // W = 1 + exp + mant; y = a + b (or a - b)
//
// Six phases: unpack (classify, compare magnitudes, swap so that x is the larger, exponent
// difference) | align (shift the smaller significand right, keeping a sticky bit) | add (one adder
// for both effective operations) | count leading zeros (stopped at the subnormal boundary) |
// normalize (shift left, exponent) | round and pack (nearest-even increment, overflow, special
// results). `stages` register ranks (1..fpAddMaxStages()) split them into stages + 1 segments, the
// last of which (round and pack) drives y combinationally, as every unit does; every rank advances
// only when `en`. Operands presented with en give y once latency - 1 = stages enabled edges have
// passed, latency = fpAddLatency(f, stages) = stages + 1 (in cycle t + latency - 1 with en held), so
// that the consumer's register captures y at the end of that cycle, as in rtlgen/units/divider.h.
//
// Results are bit-exact with x86-64 SSE (the golden interpreter's host arithmetic; f16 computed in
// double and rounded once): round to nearest even, subnormals in and out, overflow to infinity, an
// exact zero is +0 unless both addends are -0; a NaN a gives a with its quiet bit set, else a NaN b
// gives b quieted (its own sign also for a - b), else inf - inf gives the default NaN (sign set,
// exponent all ones, quiet bit only).
#pragma once

#include <cstdint>
#include <string>

#include "rtlgen/netlist.h"
#include "rtlgen/units/fp_format.h"

namespace spvhls::rtl {

// The largest useful stage count: one register rank after each phase but the last.
inline constexpr uint32_t fpAddMaxStages() {
  return 5;
}
// Cycles from operands to result in the divider's sense: the stage count plus the final
// combinational segment (the same for every format).
inline constexpr uint32_t fpAddLatency(FpFormat, uint32_t stages) {
  return stages + 1;
}

// The module as a netlist. Throws InternalError for stages outside 1..fpAddMaxStages() or a format
// with exp or mant below 2 or wider than 64 bits.
nl::Module buildFpAddUnit(const std::string& moduleName, FpFormat f, bool subtract, uint32_t stages);
// Its Verilog text (the printer's).
std::string generateFpAddUnit(const std::string& moduleName, FpFormat f, bool subtract, uint32_t stages);

} // namespace spvhls::rtl
