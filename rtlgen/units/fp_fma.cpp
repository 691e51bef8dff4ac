#include "rtlgen/units/fp_fma.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <utility>
#include <vector>

#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_common.h"
#include "rtlgen/verilog_printer.h"

namespace spvhls::rtl {

using nl::ExprP;
using nl::Op;
using namespace fpunit;

namespace {

// The phase boundaries, in pipeline order.
enum Cut : uint32_t { kUnpack, kPartial, kProduct, kAdd, kCount, kNormalize, kRound, kCutCount };

// Significands wider than a DSP block's 27-bit port are multiplied as two partial products, which
// may get a register of their own (as in fp_mul).
bool splitsProduct(FpFormat f) {
  return f.mant + 1 > 27;
}

// The boundaries that get a register, `stages` of them: the product's first (its register goes into
// the DSP blocks), then the wide adder's, the unpack's, the normalizing shifter's, the count's, the
// partial products', and last the one between the rounding adder and the final special-case mux.
std::array<bool, kCutCount> registeredCuts(FpFormat f, uint32_t stages) {
  std::array<bool, kCutCount> r{};
  for (Cut c : {kProduct, kAdd, kUnpack, kNormalize, kCount, kPartial, kRound}) {
    if (stages == 0) break;
    if (c == kPartial && !splitsProduct(f)) continue;
    r[c] = true;
    --stages;
  }
  return r;
}

void checkArgs(const std::string& name, FpFormat f, uint32_t stages) {
  if (f.exp < 2 || f.exp > 15 || f.mant < 2 || f.width() > 64)
    throw InternalError(
        SourceLoc{}, "fp fma unit " + name,
        fmt::format("format exp {} mant {}: not 2..15 / 2.. bits of width <= 64", f.exp, f.mant));
  if (stages < 1 || stages > fpFmaMaxStages(f))
    throw InternalError(SourceLoc{}, "fp fma unit " + name,
                        fmt::format("{} stages: not 1..{}", stages, fpFmaMaxStages(f)));
}

// The values live between two phases; a phase reads its inputs, sets its outputs and clears what
// later phases do not need. Names (register s<rank>_<name>, wire p<phase>_<name>) follow kFields.
//
// The adder works on AW = 3P + 5 bits: a * b (2P bits) sits at bits 2P+2..3; c, before its shift,
// at the top, P + 2 bits above the product's highest bit, so that a c shifted by 0 lies wholly above
// the product (a larger c leaves the product below a quarter of its ulp: the product counts only
// as a sticky bit there, whatever its true position); bits 2..1 are c's guard and round bits below
// the product, bit 0 the OR of c's bits below them.
struct Flow {
  ExprP spec, sv;           // an operand is NaN, infinite or zero, a * b being zero: the result sv
  ExprP sp, sc, sub;        // signs of a * b and of c; effective subtraction
  ExprP etop;               // the biased exponent of adder bit AW - 1
  ExprP sh;                 // c's right shift from the top, clamped
  ExprP siga, sigb, sigc;   // normalized significands
  ExprP plo, phi, prod;     // partial products; the significand product
  ExprP cal;                // c aligned to the product
  ExprP stop, tiny, rsh;    // the count's stop bit; adder top below the normal range; right shift
  ExprP mag, sign;          // |a * b + c| on the adder's bits; the result sign
  ExprP nsh, er;            // normalizing shift; the exponent of a normalized result
  ExprP ef, mant, grd, stk; // the exponent field (0: subnormal), mantissa, guard and sticky bits
  ExprP ovf;                // the normalized result overflows
  ExprP rounded;            // {exponent, mantissa} rounded
};

struct FieldInfo {
  ExprP Flow::*member;
  const char* name;
  const char* what;
};
constexpr FieldInfo kFields[] = {
    {&Flow::spec, "spec", "NaN, infinity or zero product operand"},
    {&Flow::sv, "sv", "the special result"},
    {&Flow::sp, "sp", "sign of a * b"},
    {&Flow::sc, "sc", "sign of c"},
    {&Flow::sub, "sub", "effective subtraction"},
    {&Flow::etop, "etop", "exponent of the adder's top bit"},
    {&Flow::sh, "sh", "alignment shift of c"},
    {&Flow::siga, "siga", "significand of a"},
    {&Flow::sigb, "sigb", "significand of b"},
    {&Flow::sigc, "sigc", "significand of c"},
    {&Flow::plo, "plo", "partial product, low half of b"},
    {&Flow::phi, "phi", "partial product, high half of b"},
    {&Flow::prod, "prod", "significand product"},
    {&Flow::cal, "cal", "aligned c, guard, round, sticky"},
    {&Flow::stop, "stop", "leading-zero count stop bit"},
    {&Flow::tiny, "tiny", "adder top below the normal range"},
    {&Flow::rsh, "rsh", "right shift into the subnormal range"},
    {&Flow::mag, "mag", "magnitude of the sum"},
    {&Flow::sign, "sign", "result sign"},
    {&Flow::nsh, "nsh", "normalizing shift"},
    {&Flow::er, "er", "exponent of the normalized result"},
    {&Flow::ef, "ef", "exponent field"},
    {&Flow::mant, "mant", "mantissa"},
    {&Flow::grd, "grd", "guard bit"},
    {&Flow::stk, "stk", "sticky bit"},
    {&Flow::ovf, "ovf", "overflow"},
    {&Flow::rounded, "rounded", "rounded exponent and mantissa"},
};

class FpFmaBuilder {
public:
  FpFmaBuilder(nl::ModuleBuilder& b, FpFormat f, uint32_t stages)
      : b_(b), f_(f), E(f.exp), M(f.mant), W(f.width()), P(f.mant + 1), AW(3 * P + 5), R0(P + 2),
        cuts_(registeredCuts(f, stages)) {
    // Exponents are X-bit two's complement values, wide enough for the product's (two smallest
    // subnormals to two largest normals), the alignment difference, the adder's top exponent, the
    // right shift below the normal range and the exponent after a left shift by the whole count.
    const int64_t bias = int64_t(ones(E - 1)), eMax = int64_t(ones(E)) - 1, p = P;
    const int64_t epMin = 2 * (2 - p) - bias, epMax = 2 * eMax - bias, ecMin = 2 - p;
    const int64_t topMin = std::min(epMin + p + 3, ecMin), topMax = std::max(epMax + p + 3, eMax);
    const int64_t lo = std::min(epMin + p + 3 - eMax, topMin - int64_t(std::bit_ceil(AW)));
    const int64_t hi = std::max({epMax + p + 3 - ecMin, topMax, 1 - topMin});
    X = E + 2;
    while (-(int64_t(1) << (X - 1)) > lo || (int64_t(1) << (X - 1)) <= hi)
      ++X;
  }

  void build() {
    b_.input("clk", 1);
    en_ = b_.input("en", 1);
    const ExprP a = b_.input("a", W), bIn = b_.input("b", W), c = b_.input("c", W);
    const ExprP y = b_.output("y", W);
    Flow v;
    unpack(v, a, bIn, c);
    boundary(v, kUnpack);
    if (splitsProduct(f_)) {
      partialProducts(v);
      alignAndLimits(v);
      boundary(v, kPartial);
      v.prod = nl::add(nl::concat({v.phi, nl::lit(0, (P + 1) / 2)}), nl::resize(v.plo, 2 * P));
      v.plo = v.phi = nullptr;
    } else {
      alignAndLimits(v);
      v.prod = nl::binary(Op::Mul, nl::resize(v.siga, 2 * P), nl::resize(v.sigb, 2 * P));
      v.siga = v.sigb = nullptr;
    }
    boundary(v, kProduct);
    addAligned(v);
    boundary(v, kAdd);
    countLeadingZeros(v);
    boundary(v, kCount);
    normalize(v);
    boundary(v, kNormalize);
    round(v);
    boundary(v, kRound);
    const ExprP infinity = nl::lit(ones(E) << M, W - 1);
    b_.assign(y, nl::mux(v.spec, v.sv, nl::concat({v.sign, nl::mux(v.ovf, infinity, v.rounded)})));
  }

private:
  nl::ModuleBuilder& b_;
  const FpFormat f_;
  const unsigned E, M, W, P; // P: significand bits with the hidden one
  const unsigned AW, R0;     // adder bits; the normalizing shifter's room for right shifts
  unsigned X = 0;            // exponent bits
  const std::array<bool, kCutCount> cuts_;
  ExprP en_;
  uint32_t rank_ = 0;

  ExprP isZero(const ExprP& v) { return nl::eq(v, wideZero(v->width)); }
  ExprP ge(ExprP a, ExprP b) { return nl::binary(Op::Ge, std::move(a), std::move(b)); }
  ExprP lit(int64_t v) { return nl::lit(uint64_t(v) & ones(X), X); } // an exponent constant
  // Names a value unless it is a literal or a signal already.
  ExprP name(const std::string& n, ExprP e) { return nameUnlessLeaf(b_, n, std::move(e)); }

  // After phase `phase`: every live value crosses a register rank (advancing with en) when the split
  // puts one here, else it becomes a named wire.
  void boundary(Flow& v, Cut phase) {
    const bool cut = cuts_[phase];
    if (cut) ++rank_;
    for (const FieldInfo& fi : kFields) {
      ExprP& e = v.*fi.member;
      if (!e) continue;
      if (cut) {
        const ExprP r = b_.reg(fmt::format("s{}_{}", rank_, fi.name), e->width, fi.what);
        b_.drive(r).updates = {{en_, e}};
        e = r;
      } else {
        e = name(fmt::format("p{}_{}", unsigned(phase), fi.name), e);
      }
    }
  }

  // Classes and the special result (computed once, carried alongside the datapath); the exponent of
  // the adder's top bit and c's alignment shift.
  void unpack(Flow& v, const ExprP& a, const ExprP& bIn, const ExprP& c) {
    const FpOperand A = unpackFp(b_, a, "a", f_), B = unpackFp(b_, bIn, "b", f_),
                    C = unpackFp(b_, c, "c", f_);
    v.sp = name("sp", nl::binary(Op::Xor, A.sign, B.sign));
    v.sc = C.sign;
    v.sub = name("sub", nl::binary(Op::Xor, v.sp, C.sign));
    // NaN operands first, the first of a, b, c quieted (the interpreter's rule, fp_fma.h); then the
    // invalid cases; then an infinite a * b or c; then a zero a * b, which leaves c, or a zero that is
    // -0 only when both addends are.
    auto quieted = [&](const FpOperand& o) {
      return nl::concat({o.sign, nl::lit(ones(E), E), quietMant(o, f_)});
    };
    std::vector<std::pair<ExprP, ExprP>> arms = {
        {A.nan, quieted(A)}, {B.nan, quieted(B)}, {C.nan, quieted(C)}};
    const ExprP prodInf = A.inf | B.inf;
    const ExprP defaultNaN = nl::lit((ones(E + 1) << M) | (uint64_t(1) << (M - 1)), W);
    arms.push_back({(A.inf & B.zero) | (A.zero & B.inf) | (prodInf & C.inf & v.sub), defaultNaN});
    arms.push_back({prodInf, nl::concat({v.sp, nl::lit(ones(E) << M, W - 1)})});
    arms.push_back({C.inf | ~C.zero, c});
    v.sv = b_.named("special_val", nl::priorityMux(arms, nl::concat({v.sp & C.sign, nl::lit(0, W - 1)})));
    v.spec = b_.named("special", nl::any({A.nan, B.nan, C.nan, prodInf, C.inf, A.zero, B.zero}));

    // a * b's significand product lies in [1, 4) times 2^(ep - bias); adder bit AW - 1 has exponent
    // ep + P + 3. A c above that (dlt < 0) takes the top itself, unshifted.
    const ExprP ep = b_.named("exp_prod", nl::sub(nl::sub(nl::add(nl::resize(A.exp, X), nl::resize(B.exp, X)),
                                                          nl::add(nl::resize(A.lz, X), nl::resize(B.lz, X))),
                                                  lit(int64_t(ones(E - 1)))));
    const ExprP ecn = b_.named("exp_c", nl::sub(nl::resize(C.exp, X), nl::resize(C.lz, X)));
    const ExprP top = b_.named("exp_top", nl::add(ep, lit(P + 3)));
    const ExprP dlt = b_.named("exp_diff", nl::sub(top, ecn));
    const ExprP cBig = b_.named("c_big", ~C.zero & bit(dlt, X - 1));
    v.etop = nl::mux(cBig, ecn, top);
    // Shifting c by AW or more leaves it all in the sticky bit, as AW does.
    const unsigned sw = bitsFor(AW);
    v.sh = nl::mux(cBig, nl::lit(0, sw), nl::mux(ge(dlt, lit(AW)), nl::lit(AW, sw), nl::resize(dlt, sw)));
    v.siga = A.sig;
    v.sigb = B.sig;
    v.sigc = C.sig;
  }

  // a * b = a * b_hi * 2^k + a * b_lo: each partial product fits a column of DSP blocks.
  void partialProducts(Flow& v) {
    const unsigned k = (P + 1) / 2;
    v.plo = nl::binary(Op::Mul, nl::resize(v.siga, P + k), nl::resize(nl::slice(v.sigb, k - 1, 0), P + k));
    v.phi = nl::binary(Op::Mul, nl::resize(v.siga, 2 * P - k),
                       nl::resize(nl::slice(v.sigb, P - 1, k), 2 * P - k));
    v.siga = v.sigb = nullptr;
  }

  // In parallel with the product: c aligned, and what the adder's top exponent says about the
  // normalization (a stop bit that keeps the left shift from going below exponent 1; a right shift
  // when the top is already below it).
  void alignAndLimits(Flow& v) {
    // {c, AW zeros} >> sh loses no bit: the top AW - 1 bits are adder bits AW-1..1, the rest ORs into
    // the sticky bit 0.
    const ExprP sh = b_.named("c_shifted", nl::binary(Op::Shr, nl::concat({v.sigc, wideZero(AW)}), v.sh));
    v.cal = nl::concat({nl::slice(sh, AW + P - 1, P + 1), ~isZero(nl::slice(sh, P, 0))});
    v.tiny = bit(v.etop, X - 1) | nl::eq(v.etop, lit(0));
    // A one at adder bit AW - etop: a count reaching it leaves the exponent at 1, the subnormals'.
    // (etop - 1 beyond the adder, or negative, shifts it out.)
    v.stop = nl::binary(Op::Shr, nl::concat({nl::one(), wideZero(AW - 1)}), nl::sub(v.etop, lit(1)));
    // Moving right by 1 - etop puts adder bit AW - 1 at exponent 1; R0 places already leave only
    // sticky bits.
    const ExprP below = b_.named("below_normal", nl::sub(lit(1), v.etop));
    const unsigned rw = bitsFor(R0);
    v.rsh = nl::mux(nl::lt(below, lit(R0)), nl::resize(below, rw), nl::lit(R0, rw));
    v.sigc = v.sh = nullptr;
  }

  // One adder for both effective operations, {p, 1} + {c ^ sub, sub}, whose low bit drops (sub is the
  // two's complement's carry-in) and whose carry says p >= c; c - p in parallel for when it is not.
  void addAligned(Flow& v) {
    const ExprP p = nl::concat({nl::lit(0, P + 2), v.prod, nl::lit(0, 3)});
    const ExprP t = b_.wire("sum_t", AW + 2, "", true); // its low bit is only the carry-in's
    b_.assign(
        t, nl::add(nl::concat({nl::lit(0, 1), p, nl::one()}),
                   nl::concat({nl::lit(0, 1), nl::binary(Op::Xor, v.cal, nl::replicate(v.sub, AW)), v.sub})));
    const ExprP cGreater = b_.named("c_greater", v.sub & ~bit(t, AW + 1));
    v.mag = nl::mux(cGreater, nl::sub(v.cal, p), nl::slice(t, AW, 1));
    // x - x is +0 when rounding to nearest.
    const ExprP exactZero = b_.named("exact_zero", v.sub & nl::eq(p, v.cal));
    v.sign = ~exactZero & nl::mux(cGreater, v.sc, v.sp);
    v.prod = v.cal = v.sub = v.sp = v.sc = nullptr;
  }

  // The left shift that normalizes the magnitude, stopped at exponent 1, or the right shift into the
  // subnormal range: one left shift of {R0 zeros, mag}, by R0 + count or by R0 - rsh.
  void countLeadingZeros(Flow& v) {
    const ExprP in = b_.named("lz_in", v.mag | v.stop);
    std::vector<ExprP> bits;
    for (unsigned i = AW; i-- > 0;)
      bits.push_back(bit(in, i));
    // Padding ones below: the count never passes AW (an all-zero sum is an exact zero, all-zero out).
    while (!std::has_single_bit(bits.size()))
      bits.push_back(nl::one());
    const ExprP lz = b_.named("lz", leadingZeros(b_, bits));
    const unsigned tw = bitsFor(R0 + (uint64_t(1) << lz->width));
    v.nsh = nl::mux(v.tiny, nl::sub(nl::lit(R0, tw), nl::resize(v.rsh, tw)),
                    nl::add(nl::lit(R0, tw), nl::resize(lz, tw)));
    v.er = nl::sub(v.etop, nl::resize(lz, X));
    v.stop = v.tiny = v.rsh = v.etop = nullptr;
  }

  // The hidden bit lands on top unless the result is subnormal (exponent field 0); below the
  // mantissa come the guard bit and the bits whose OR is the sticky bit, none lost.
  void normalize(Flow& v) {
    const unsigned n = AW + R0;
    const ExprP sl = b_.named("norm_sh", nl::binary(Op::Shl, nl::concat({wideZero(R0), v.mag}), v.nsh));
    const ExprP hidden = bit(sl, n - 1);
    v.mant = nl::slice(sl, n - 2, n - P);
    v.grd = bit(sl, n - P - 1);
    v.stk = ~isZero(nl::slice(sl, n - P - 2, 0));
    const ExprP& er = v.er;
    v.ef = nl::mux(hidden, nl::slice(er, E - 1, 0), nl::lit(0, E));
    v.ovf = hidden & ~bit(er, X - 1) & ge(er, lit(int64_t(ones(E))));
    v.mag = v.nsh = v.er = nullptr;
  }

  // Nearest-even increment of {exponent field, mantissa} as one number: a carry out of the mantissa
  // bumps the exponent, a subnormal to the smallest normal, the largest finite value to infinity.
  void round(Flow& v) {
    const ExprP up = b_.named("round_up", v.grd & (v.stk | bit(v.mant, 0)));
    v.rounded = nl::add(nl::concat({v.ef, v.mant}), nl::resize(up, W - 1));
    v.ef = v.mant = v.grd = v.stk = nullptr;
  }
};

} // namespace

uint32_t fpFmaMaxStages(FpFormat f) {
  return splitsProduct(f) ? 7 : 6;
}

uint32_t fpFmaLatency(FpFormat f, uint32_t stages) {
  checkArgs(fpName(f), f, stages);
  return stages + 1;
}

nl::Module buildFpFmaUnit(const std::string& name, FpFormat f, uint32_t stages) {
  checkArgs(name, f, stages);
  nl::ModuleBuilder b(name,
                      fmt::format("Pipelined {} fused multiply-add unit, {} register stages, latency {} "
                                  "(generated by spvhls; rtlgen/units/fp_fma.h).",
                                  fpName(f), stages, stages + 1));
  FpFmaBuilder(b, f, stages).build();
  return b.take();
}

std::string generateFpFmaUnit(const std::string& moduleName, FpFormat f, uint32_t stages) {
  return printVerilog(buildFpFmaUnit(moduleName, f, stages));
}

} // namespace spvhls::rtl
