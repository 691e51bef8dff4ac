// Netlist pieces shared by the floating-point operator units (fp_add, fp_mul, fp_div, fp_convert):
// bit helpers, and an operand's unpacking into classes and a normalized significand.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "rtlgen/netlist.h"
#include "rtlgen/units/fp_format.h"

namespace spvhls::rtl::fpunit {

inline uint64_t ones(unsigned w) {
  return w >= 64 ? ~0ull : (1ull << w) - 1;
}

// Bits to hold v (at least 1).
inline unsigned bitsFor(uint64_t v) {
  return std::max(1u, unsigned(std::bit_width(v)));
}

inline nl::ExprP bit(const nl::ExprP& v, unsigned i) {
  return nl::slice(v, i, i);
}

// A wire of which some readers take only a slice (declared so that lint accepts the unused bits).
nl::ExprP partialWire(nl::ModuleBuilder& b, const std::string& n, nl::ExprP v);

// e as a named wire, unless it is a literal or a reference already (no wire for those).
inline nl::ExprP nameUnlessLeaf(nl::ModuleBuilder& b, const std::string& n, nl::ExprP e) {
  return e->op == nl::Op::Const || e->op == nl::Op::Ref ? e : b.named(n, std::move(e));
}

// A zero of any width (literals stop at 64 bits).
nl::ExprP wideZero(unsigned w);

// The leading zeros of `bits` (most significant first, a power of two of them; pad with ones) as a
// tree of named wires lz<level>_<index>_z / _c: each node takes the upper half's count unless that
// half is all zero. Returns the count (log2(bits) + 1 bits: all zero counts bits.size()).
nl::ExprP leadingZeros(nl::ModuleBuilder& b, const std::vector<nl::ExprP>& bits);

// An operand's classes and its significand normalized so that the hidden bit is set. Named wires:
// <n>_exp_zero, <n>_nan, <n>_inf, <n>_zero, then <n>_lz<d> and <n>_sig<d> per normalization level.
struct FpOperand {
  nl::ExprP sign, nan, inf, zero;
  nl::ExprP mant; // the stored mantissa
  nl::ExprP sig;  // P bits, top bit set unless the operand is zero
  nl::ExprP lz;   // the left shift that normalized a subnormal's significand
  nl::ExprP exp;  // the biased exponent field, 1 for a subnormal
};
FpOperand unpackFp(nl::ModuleBuilder& b, const nl::ExprP& v, const std::string& n, FpFormat f);

// A NaN operand's stored mantissa with the quiet bit set (x86 returns NaNs quieted).
inline nl::ExprP quietMant(const FpOperand& o, FpFormat f) {
  return o.mant | nl::lit(uint64_t(1) << (f.mant - 1), f.mant);
}

} // namespace spvhls::rtl::fpunit
