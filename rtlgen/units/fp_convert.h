// The pipelined IEEE-754 conversion units: integer -> float, float -> integer and float -> float, one
// generated Verilog module per conversion, named by the caller:
//
//   module <name> (input wire clk, input wire en, input wire [IN-1:0] a, output wire [OUT-1:0] y);
//
// Each has two register ranks (s1_*, s2_*), both advancing only when `en`, and three segments:
//   int -> float:   absolute value | leading-zero normalization, rounding decision | round and pack
//   float -> int:   unpack, classify | shift the significand into place | negate, clamp
//   float -> float: unpack, normalize a subnormal (widening) | shift into the target's subnormal
//                   range, rounding decision, special values | round and pack
// Operands presented with en give y once latency - 1 = 2 enabled edges have passed, latency =
// fpConvertLatency() = 3 (in cycle t + 2 with en held): y is combinational out of the last rank, so
// the consumer's register captures it at the end of that cycle, as with the other units (divider.h).
//
// Results are the golden interpreter's (sim/interp_float.cpp) bit for bit, which are IEEE-754's:
// - int -> float: correctly rounded in the given mode (SPIR-V FPRoundingMode; the default of
//   OpConvertSToF/UToF is NearestEven), 0 gives +0; magnitudes beyond the largest finite value give
//   infinity, or the largest finite value where the mode rounds toward zero (f16 targets only).
// - float -> int: truncation toward zero (OpenCL's default). With `saturate` (convert_<int>_sat):
//   results clamp to the integer range and NaN gives 0. Without it, in-range inputs (trunc(x)
//   representable) give trunc(x); for the others, which the interpreter rejects as undefined, the
//   unit gives 0 when |x| >= 2^intBits, x is infinite or NaN, and else the low intBits bits of
//   trunc(x)'s two's complement (it wraps: f32 3e9 -> s32 gives 3000000000 - 2^32, -2.5 -> u32 gives
//   2^32 - 2).
// - float -> float: widening is exact (subnormal sources become normal); narrowing rounds once in the
//   given mode, with subnormal results and overflow to infinity or, where the mode rounds toward
//   zero, the largest finite value. Zeros and infinities keep their sign. A NaN keeps its sign and
//   the top bits of its payload (truncated, or padded with zeros) and gets its quiet bit set: x86's
//   cvtss2sd / cvtsd2ss and the libgcc half conversions.
#pragma once

#include <cstdint>
#include <string>

#include "rtlgen/netlist.h"
#include "rtlgen/units/fp_format.h"

namespace spvhls::rtl {

// SPIR-V FPRoundingMode RTE, RTZ, RTP, RTN, in that order.
enum class FpRounding { NearestEven, TowardZero, TowardPositive, TowardNegative };

// "rte", "rtz", "rtp", "rtn" (module names, messages).
const char* fpRoundingName(FpRounding r);

// Cycles from operand to result in the divider's sense, the same for every conversion: two register
// ranks plus the final combinational segment.
inline constexpr uint32_t fpConvertLatency() {
  return 3;
}

// The modules as netlists. Integers are 8, 16, 32 or 64 bits; formats have exp 2..15, mant >= 1 and
// a width of at most 64 (kF16, kF32, kF64). Throws InternalError for anything else, and for a
// float -> float conversion between equal formats.
nl::Module buildIntToFpUnit(const std::string& moduleName, uint32_t intBits, bool isSigned, FpFormat f,
                            FpRounding r);
nl::Module buildFpToIntUnit(const std::string& moduleName, FpFormat f, uint32_t intBits, bool isSigned,
                            bool saturate);
nl::Module buildFpToFpUnit(const std::string& moduleName, FpFormat from, FpFormat to, FpRounding r);

// Their Verilog text (the printer's).
std::string generateIntToFpUnit(const std::string& moduleName, uint32_t intBits, bool isSigned, FpFormat f,
                                FpRounding r);
std::string generateFpToIntUnit(const std::string& moduleName, FpFormat f, uint32_t intBits, bool isSigned,
                                bool saturate);
std::string generateFpToFpUnit(const std::string& moduleName, FpFormat from, FpFormat to, FpRounding r);

} // namespace spvhls::rtl
