#include "rtlgen/units/fp_add.h"

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

// Register ranks per stage count (index stages - 1): bit k set = a rank after phase k (0 unpack,
// 1 align, 2 add, 3 leading zeros, 4 normalize, 5 round: never followed by one). Fewer stages merge
// neighbouring phases so that the segments stay about even (each phase is a few LUT levels: a
// comparator or adder carry chain, or a log-depth shifter or count).
constexpr std::array<uint8_t, 5> kCuts = {
    0b000100, // unpack align add | lzc normalize round
    0b001010, // unpack align | add lzc | normalize round
    0b010101, // unpack | align add | lzc normalize | round
    0b011011, // unpack | align | add lzc | normalize | round
    0b011111, // one phase per segment
};

// The values live between two phases; a phase reads its inputs, sets its outputs and clears what
// later phases do not need. Names (register s<rank>_<name>, wire p<phase>_<name>) follow kFields.
struct Flow {
  ExprP spec, sv;      // the result is special (NaN or infinity operand): sv, {sign, NaN, payload}
  ExprP sx, zs, sub;   // sign of the larger operand; sign of an exact zero; effective subtraction
  ExprP ex, mx, my, d; // x's exponent (subnormal: 1); x's and y's significands; shift, clamped
  ExprP yal;           // y aligned to x with guard, round and sticky bits
  ExprP s;             // |x| +- |y| with a carry bit on top
  ExprP lz, zero, sg;  // normalization shift; s is zero; result sign
  ExprP em1, n;        // result exponent - 1 (the hidden bit adds the 1); normalized significand
};

struct FieldInfo {
  ExprP Flow::*member;
  const char* name;
  const char* what;
};
constexpr FieldInfo kFields[] = {
    {&Flow::spec, "spec", "NaN or infinity operand"},
    {&Flow::sv, "sv", "the special result: sign, NaN, payload"},
    {&Flow::sx, "sx", "sign of the larger operand"},
    {&Flow::zs, "zs", "sign of an exact zero"},
    {&Flow::sub, "sub", "effective subtraction"},
    {&Flow::ex, "ex", "exponent of the larger operand"},
    {&Flow::mx, "mx", "significand of the larger operand"},
    {&Flow::my, "my", "significand of the smaller operand"},
    {&Flow::d, "d", "alignment shift"},
    {&Flow::yal, "yal", "aligned smaller significand, guard, round, sticky"},
    {&Flow::s, "s", "significand sum with carry"},
    {&Flow::lz, "lz", "normalization shift"},
    {&Flow::zero, "zero", "exact zero"},
    {&Flow::sg, "sg", "result sign"},
    {&Flow::em1, "em1", "result exponent - 1"},
    {&Flow::n, "n", "normalized significand, guard, round, sticky"},
};

class FpAddBuilder {
public:
  FpAddBuilder(nl::ModuleBuilder& b, FpFormat f, bool subtract, uint32_t stages)
      : b_(b), E(f.exp), M(f.mant), W(f.width()), P(f.mant + 1), subtract_(subtract),
        cuts_(kCuts[stages - 1]) {}

  void build() {
    b_.input("clk", 1);
    en_ = b_.input("en", 1);
    const ExprP a = b_.input("a", W), bIn = b_.input("b", W);
    const ExprP y = b_.output("y", W);
    Flow v;
    unpack(v, a, bIn);
    boundary(v, 0);
    align(v);
    boundary(v, 1);
    addSignificands(v);
    boundary(v, 2);
    countLeadingZeros(v);
    boundary(v, 3);
    normalize(v);
    boundary(v, 4);
    b_.assign(y, roundAndPack(v));
  }

private:
  nl::ModuleBuilder& b_;
  const unsigned E, M, W, P; // P: significand bits with the hidden one
  const bool subtract_;
  const uint8_t cuts_;
  ExprP en_;
  uint32_t rank_ = 0;

  ExprP gt(ExprP a, ExprP b) { return nl::binary(Op::Gt, std::move(a), std::move(b)); }
  ExprP isZero(const ExprP& v) { return nl::eq(v, nl::lit(0, v->width)); }
  // Names a value unless it is a literal or a signal already.
  ExprP name(const std::string& n, ExprP e) { return nameUnlessLeaf(b_, n, std::move(e)); }

  // After phase `phase`: every live value crosses a register rank (advancing with en) when the split
  // puts one here, else it becomes a named wire.
  void boundary(Flow& v, uint32_t phase) {
    const bool cut = (cuts_ >> phase) & 1;
    if (cut) ++rank_;
    for (const FieldInfo& fi : kFields) {
      ExprP& e = v.*fi.member;
      if (!e) continue;
      if (cut) {
        const ExprP r = b_.reg(fmt::format("s{}_{}", rank_, fi.name), e->width, fi.what);
        b_.drive(r).updates = {{en_, e}};
        e = r;
      } else {
        e = name(fmt::format("p{}_{}", phase, fi.name), e);
      }
    }
  }

  // Classify, order by magnitude (x the larger, so that x - y is never negative) and compute the
  // special result (NaN and infinity rules of x86 SSE) once, carried alongside the datapath.
  void unpack(Flow& v, const ExprP& a, const ExprP& bIn) {
    const ExprP sa = bit(a, W - 1), sbIn = bit(bIn, W - 1);
    const ExprP sb = name("sb", subtract_ ? ~sbIn : sbIn); // b's sign as an addend
    const ExprP ea = nl::slice(a, W - 2, M), eb = nl::slice(bIn, W - 2, M);
    const ExprP ma = nl::slice(a, M - 1, 0), mb = nl::slice(bIn, M - 1, 0);
    const ExprP expOnes = nl::lit(ones(E), E);
    const ExprP aMax = b_.named("a_maxexp", nl::eq(ea, expOnes)),
                bMax = b_.named("b_maxexp", nl::eq(eb, expOnes));
    const ExprP aNaN = b_.named("a_nan", aMax & ~isZero(ma)), bNaN = b_.named("b_nan", bMax & ~isZero(mb));
    // Every special result has exponent all ones, so that only {sign, NaN (the quiet bit), the rest of
    // the mantissa} travel down the pipeline: a NaN operand quieted, else infinity.
    const ExprP payload0 = nl::lit(0, M - 1);
    v.sv = nl::priorityMux({{aNaN, nl::concat({sa, nl::one(), nl::slice(a, M - 2, 0)})},
                            // b's own sign, as SSE returns it for a - b too
                            {bNaN, nl::concat({sbIn, nl::one(), nl::slice(bIn, M - 2, 0)})},
                            {aMax & bMax & nl::ne(sa, sb), nl::concat({nl::one(), nl::one(), payload0})},
                            {aMax, nl::concat({sa, nl::zero(), payload0})}},
                           nl::concat({sb, nl::zero(), payload0})); // a finite, b infinite
    v.spec = aMax | bMax;

    // Subnormals have exponent 1 and no hidden one.
    auto effExp = [&](const ExprP& x, const ExprP& e) {
      return nl::concat({nl::slice(x, W - 2, M + 1), bit(x, M) | isZero(e)});
    };
    const ExprP eaEff = b_.named("a_exp", effExp(a, ea)), ebEff = b_.named("b_exp", effExp(bIn, eb));
    const ExprP sigA = nl::concat({~isZero(ea), ma}), sigB = nl::concat({~isZero(eb), mb});
    const ExprP swap = b_.named("swap", nl::lt(nl::slice(a, W - 2, 0), nl::slice(bIn, W - 2, 0)));
    // Both differences in parallel with the comparison; the swap only selects.
    const ExprP d = b_.named("expdiff", nl::mux(swap, nl::sub(ebEff, eaEff), nl::sub(eaEff, ebEff)));
    // Shifting y by more than P + 3 leaves only sticky bits, as a shift by P + 3 does.
    const unsigned maxShift = P + 3, dw = bitsFor(maxShift);
    if (ones(E) - 3 > maxShift) // the largest difference: 2^E - 2 minus 1
      v.d = nl::mux(gt(d, nl::lit(maxShift, E)), nl::lit(maxShift, dw), nl::resize(d, dw));
    else
      v.d = nl::resize(d, dw);
    v.ex = nl::mux(swap, ebEff, eaEff);
    v.mx = nl::mux(swap, sigB, sigA);
    v.my = nl::mux(swap, sigA, sigB);
    v.sx = nl::mux(swap, sb, sa);
    v.sub = nl::binary(Op::Xor, sa, sb);
    v.zs = sa & sb; // x - x = +0 when rounding to nearest; -0 + -0 = -0
  }

  // y's significand followed by P + 3 zeros, shifted right by d <= P + 3, loses no bit: the top P + 3
  // bits are y aligned to x's {significand, guard, round, sticky}; the rest ORs into the sticky bit.
  void align(Flow& v) {
    const ExprP wide = nl::concat({v.my, nl::lit(0, P + 3)});
    const ExprP sh = b_.named("align_sh", nl::binary(Op::Shr, wide, v.d));
    v.yal = nl::concat({nl::slice(sh, 2 * P + 2, P + 1), bit(sh, P) | ~isZero(nl::slice(sh, P - 1, 0))});
    v.my = v.d = nullptr;
  }

  // s = x +- y (never negative: x is the larger) with one adder: {x, 1} + {y ^ sub, sub} drops its
  // low bit, so that sub becomes the carry-in of the two's complement.
  void addSignificands(Flow& v) {
    const unsigned n = P + 4;
    const ExprP x = nl::concat({nl::lit(0, 1), v.mx, nl::lit(0, 3)});
    const ExprP yv = nl::binary(Op::Xor, nl::concat({nl::lit(0, 1), v.yal}), nl::replicate(v.sub, n));
    const ExprP t = b_.wire("sum_t", n + 1, "", true); // its low bit is only the carry-in's
    b_.assign(t, nl::add(nl::concat({x, nl::one()}), nl::concat({yv, v.sub})));
    v.s = nl::slice(t, n, 1);
    v.mx = v.yal = v.sub = nullptr;
  }

  // The shift that normalizes s, but never below exponent 1: a one ORed in ex places below the carry
  // bit stops the count there (a subnormal result keeps exponent field 0).
  void countLeadingZeros(Flow& v) {
    const unsigned n = P + 4;
    const ExprP stop = nl::binary(Op::Shr, nl::lit(1ull << (n - 1), n), v.ex);
    const ExprP in = b_.named("lz_in", v.s | stop);
    std::vector<ExprP> bits;
    for (unsigned i = n; i-- > 0;)
      bits.push_back(bit(in, i));
    // Padding ones below: the count never passes n (an all-zero s is flagged on its own).
    while (!std::has_single_bit(bits.size()))
      bits.push_back(nl::one());
    v.lz = leadingZeros(b_, bits);
    v.zero = isZero(v.s);
    v.sg = nl::mux(v.zero, v.zs, v.sx);
    v.sx = v.zs = nullptr;
  }

  // s << lz puts the leading one at the carry position (or stops at exponent 1); the bit shifted out
  // of the P + 3 kept below the carry (nonzero only for lz = 0) joins the sticky bit. The result
  // exponent is ex + 1 - lz.
  void normalize(Flow& v) {
    const unsigned n = P + 4, k = std::max<unsigned>(E, v.lz->width);
    const ExprP sl = b_.named("norm_sh", nl::binary(Op::Shl, v.s, v.lz));
    v.n = nl::concat({nl::slice(sl, n - 1, 2), bit(sl, 1) | bit(sl, 0)});
    v.em1 = nl::resize(nl::sub(nl::resize(v.ex, k), nl::resize(v.lz, k)), E);
    v.s = v.lz = v.ex = nullptr;
  }

  // Nearest-even increment of {em1, significand} as one number: the hidden bit adds into the
  // exponent (field 0 stays 0 for a subnormal) and a carry out of the significand bumps it, up to
  // infinity.
  ExprP roundAndPack(Flow& v) {
    const ExprP& n = v.n; // {hidden, mantissa, guard, round, sticky}
    const ExprP inc = b_.named("round_up", bit(n, 2) & (bit(n, 1) | bit(n, 0) | bit(n, 3)));
    const ExprP packed =
        b_.named("rounded", nl::add(nl::concat({nl::lit(0, 1), v.em1, nl::slice(n, P + 1, 3)}),
                                    nl::concat({nl::lit(0, E), bit(n, P + 2), nl::lit(0, M - 1), inc})));
    const ExprP overflow = bit(packed, W - 1) | nl::eq(nl::slice(packed, W - 2, M), nl::lit(ones(E), E));
    const ExprP special = nl::concat({bit(v.sv, M), nl::lit(ones(E), E), nl::slice(v.sv, M - 1, 0)});
    return nl::priorityMux({{v.spec, special},
                            {v.zero, nl::concat({v.sg, nl::lit(0, W - 1)})},
                            {overflow, nl::concat({v.sg, nl::lit(ones(E), E), nl::lit(0, M)})}},
                           nl::concat({v.sg, nl::slice(packed, W - 2, 0)}));
  }
};

} // namespace

nl::Module buildFpAddUnit(const std::string& moduleName, FpFormat f, bool subtract, uint32_t stages) {
  if (stages < 1 || stages > fpAddMaxStages())
    throw InternalError(SourceLoc{}, "fp add unit " + moduleName,
                        fmt::format("{} register stages (1..{})", stages, fpAddMaxStages()));
  if (f.exp < 2 || f.mant < 2 || f.width() > 64)
    throw InternalError(
        SourceLoc{}, "fp add unit " + moduleName,
        fmt::format("format exp {} mant {} (exp, mant >= 2, at most 64 bits)", f.exp, f.mant));
  nl::ModuleBuilder b(
      moduleName, fmt::format("Pipelined {} {} unit, {} register stages, latency {} (generated by spvhls; "
                              "rtlgen/units/fp_add.h).",
                              fpName(f), subtract ? "sub" : "add", stages, fpAddLatency(f, stages)));
  FpAddBuilder(b, f, subtract, stages).build();
  return b.take();
}

std::string generateFpAddUnit(const std::string& moduleName, FpFormat f, bool subtract, uint32_t stages) {
  return printVerilog(buildFpAddUnit(moduleName, f, subtract, stages));
}

} // namespace spvhls::rtl
