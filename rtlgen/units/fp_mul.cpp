#include "rtlgen/units/fp_mul.h"

#include <array>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_common.h"
#include "rtlgen/verilog_printer.h"

namespace spvhls::rtl {

using nl::ExprP;
using namespace fpunit;

namespace {

// The phase boundaries, in pipeline order.
enum Cut : uint32_t { kUnpack, kPartial, kProduct, kNormalize, kRound, kCutCount };

// Significands wider than a DSP block's 27-bit port are multiplied as two partial products, which
// may get a register of their own.
bool splitsProduct(FpFormat f) {
  return f.mant + 1 > 27;
}

// The boundaries that get a register, `stages` of them: the multiplier is the longest path, so the
// cuts around it come first, then the one between the right shift and the rounding adder, then the
// one between the partial products, then the one before the final special-case mux.
std::array<bool, kCutCount> registeredCuts(FpFormat f, uint32_t stages) {
  std::array<bool, kCutCount> r{};
  for (Cut c : {kProduct, kUnpack, kNormalize, kPartial, kRound}) {
    if (stages == 0) break;
    if (c == kPartial && !splitsProduct(f)) continue;
    r[c] = true;
    --stages;
  }
  return r;
}

void checkArgs(const std::string& name, FpFormat f, uint32_t stages) {
  if (f.exp < 2 || f.exp > 15 || f.mant < 1 || f.width() > 64)
    throw InternalError(
        SourceLoc{}, "fp multiply unit " + name,
        fmt::format("format exp {} mant {}: not 2..15 / 1.. bits of width <= 64", f.exp, f.mant));
  if (stages < 1 || stages > fpMulMaxStages(f))
    throw InternalError(SourceLoc{}, "fp multiply unit " + name,
                        fmt::format("{} stages: not 1..{}", stages, fpMulMaxStages(f)));
}

} // namespace

uint32_t fpMulMaxStages(FpFormat f) {
  return splitsProduct(f) ? 5 : 4;
}

uint32_t fpMulLatency(FpFormat f, uint32_t stages) {
  checkArgs(fpName(f), f, stages);
  return stages + 1;
}

nl::Module buildFpMulUnit(const std::string& name, FpFormat f, uint32_t stages) {
  checkArgs(name, f, stages);
  const unsigned E = f.exp, M = f.mant, W = f.width(), P = M + 1;
  const uint64_t expOnes = (uint64_t(1) << E) - 1, bias = expOnes >> 1;
  // Exponents are X-bit two's complement values, wide enough for every product's biased exponent:
  // from two smallest subnormals (each 1 - (P - 1) after normalization) to two largest normals.
  const int64_t eMin = 2 * (2 - int64_t(P)) - int64_t(bias),
                eMax = 2 * int64_t(expOnes - 1) - int64_t(bias) + 1;
  unsigned X = E + 2;
  while (-(int64_t(1) << (X - 1)) > eMin || (int64_t(1) << (X - 1)) <= eMax)
    ++X;

  nl::ModuleBuilder b(name,
                      fmt::format("Pipelined {} multiply unit, {} register stages, latency {} (generated "
                                  "by spvhls; rtlgen/units/fp_mul.h).",
                                  fpName(f), stages, stages + 1));
  b.input("clk", 1);
  const ExprP en = b.input("en", 1), a = b.input("a", W), bIn = b.input("b", W);
  const ExprP y = b.output("y", W);
  const std::array<bool, kCutCount> cuts = registeredCuts(f, stages);
  uint32_t stage = 0;
  // The values live across boundary c become registers of the next stage (<name><stage>) when c is
  // registered; else they stay wires and the two phases merge.
  auto cross = [&](Cut c, std::vector<std::pair<const char*, ExprP*>> live) {
    if (!cuts[c]) return;
    ++stage;
    for (auto& [n, v] : live) {
      const ExprP r = b.reg(fmt::format("{}{}", n, stage), (*v)->width);
      b.drive(r).updates = {{en, *v}};
      *v = r;
    }
  };

  // ---- unpack: classes, and significands normalized so that the hidden bit is set -------------
  struct Operand {
    ExprP nan, inf, zero, quieted, sig, lz, exp;
  };
  auto unpack = [&](const ExprP& v, const std::string& n) {
    const FpOperand u = unpackFp(b, v, n, f);
    // Quieted in place: a NaN result keeps the operand's sign and payload.
    const ExprP quieted = v | nl::lit(uint64_t(1) << (M - 1), W);
    return Operand{u.nan, u.inf, u.zero, quieted, u.sig, nl::resize(u.lz, X), nl::resize(u.exp, X)};
  };
  const Operand A = unpack(a, "a"), B = unpack(bIn, "b");
  ExprP sign = b.named("sign", nl::binary(nl::Op::Xor, bit(a, W - 1), bit(bIn, W - 1)));
  // The result when an operand is NaN, infinite or zero: x86's NaN rules (the first NaN operand,
  // quieted; 0 * inf gives the default NaN), else a signed infinity or zero.
  ExprP special = b.named("special", nl::any({A.nan, B.nan, A.inf, B.inf, A.zero, B.zero}));
  const ExprP defaultNaN = nl::lit((((uint64_t(1) << (E + 1)) - 1) << M) | (uint64_t(1) << (M - 1)), W);
  const ExprP infinity = nl::lit(expOnes << M, W - 1);
  ExprP specialVal =
      b.named("special_val", nl::priorityMux({{A.nan, A.quieted},
                                              {B.nan, B.quieted},
                                              {(A.inf & B.zero) | (A.zero & B.inf), defaultNaN},
                                              {A.inf | B.inf, nl::concat({sign, infinity})}},
                                             nl::concat({sign, nl::lit(0, W - 1)})));
  // The product's biased exponent before normalization.
  ExprP expSum =
      b.named("exp", nl::sub(nl::sub(nl::add(A.exp, B.exp), nl::add(A.lz, B.lz)), nl::lit(bias, X)));
  ExprP sigA = A.sig, sigB = B.sig;
  cross(kUnpack, {{"sign", &sign},
                  {"special", &special},
                  {"special_val", &specialVal},
                  {"exp", &expSum},
                  {"sig_a", &sigA},
                  {"sig_b", &sigB}});

  // ---- significand product, 2P bits in [1, 4) --------------------------------------------------
  ExprP prod;
  if (splitsProduct(f)) {
    // a * b = a * b_hi * 2^k + a * b_lo: each partial product fits a column of DSP blocks.
    const unsigned k = (P + 1) / 2;
    ExprP lo = nl::binary(nl::Op::Mul, nl::resize(sigA, P + k), nl::resize(nl::slice(sigB, k - 1, 0), P + k));
    ExprP hi = nl::binary(nl::Op::Mul, nl::resize(sigA, 2 * P - k),
                          nl::resize(nl::slice(sigB, P - 1, k), 2 * P - k));
    cross(kPartial, {{"sign", &sign},
                     {"special", &special},
                     {"special_val", &specialVal},
                     {"exp", &expSum},
                     {"prod_lo", &lo},
                     {"prod_hi", &hi}});
    prod = nl::add(nl::concat({hi, nl::lit(0, k)}), nl::resize(lo, 2 * P));
  } else {
    prod = nl::binary(nl::Op::Mul, nl::resize(sigA, 2 * P), nl::resize(sigB, 2 * P));
  }
  prod = b.named("prod", prod);
  cross(kProduct, {{"sign", &sign},
                   {"special", &special},
                   {"special_val", &specialVal},
                   {"exp", &expSum},
                   {"prod", &prod}});

  // ---- normalize: one bit left or not, then right into the subnormal range ---------------------
  const ExprP top = bit(prod, 2 * P - 1);
  const ExprP norm =
      b.named("norm", nl::mux(top, prod, nl::concat({nl::slice(prod, 2 * P - 2, 0), nl::lit(0, 1)})));
  const ExprP expN = b.named("exp_n", nl::add(expSum, nl::resize(top, X)));
  const ExprP negative = bit(expN, X - 1);
  // A biased exponent <= 0 is below the normal range: the significand moves 1 - exp places right
  // (capped: P + 1 places already leave only sticky bits) and the exponent field is 0.
  const ExprP tiny = b.named("tiny", negative | nl::eq(expN, nl::lit(0, X)));
  ExprP overflow = b.named("overflow", ~negative & nl::binary(nl::Op::Ge, expN, nl::lit(expOnes, X)));
  const unsigned SW = bitsFor(P + 1);
  const ExprP belowNormal = partialWire(b, "below_normal", nl::sub(nl::lit(1, X), expN));
  const ExprP shift = b.named("shift", nl::mux(tiny,
                                               nl::mux(nl::lt(belowNormal, nl::lit(P + 1, X)),
                                                       nl::resize(belowNormal, SW), nl::lit(P + 1, SW)),
                                               nl::lit(0, SW)));
  // {norm, P + 1 zeros} >> shift: the top bit is the hidden one (unused), then the stored mantissa,
  // the guard bit and the bits whose OR is the sticky bit; none is lost.
  const ExprP shifted =
      partialWire(b, "shifted", nl::binary(nl::Op::Shr, nl::concat({norm, nl::lit(0, P + 1)}), shift));
  ExprP mant = b.named("mant", nl::slice(shifted, 3 * P - 1, 2 * P + 1));
  ExprP guard = bit(shifted, 2 * P);
  ExprP sticky = b.named("sticky", nl::ne(nl::slice(shifted, 2 * P - 1, 0), wideZero(2 * P)));
  ExprP expField = b.named("exp_field", nl::mux(tiny, nl::lit(0, E), nl::slice(expN, E - 1, 0)));
  cross(kNormalize, {{"sign", &sign},
                     {"special", &special},
                     {"special_val", &specialVal},
                     {"overflow", &overflow},
                     {"exp_field", &expField},
                     {"mant", &mant},
                     {"guard", &guard},
                     {"sticky", &sticky}});

  // ---- round to nearest even -------------------------------------------------------------------
  // A carry out of the mantissa increments the exponent field: a subnormal rounds up to the smallest
  // normal, the largest finite magnitude to infinity.
  const ExprP up = guard & (sticky | bit(mant, 0));
  ExprP rounded = b.named("rounded", nl::add(nl::concat({expField, mant}), nl::resize(up, W - 1)));
  cross(kRound, {{"sign", &sign},
                 {"special", &special},
                 {"special_val", &specialVal},
                 {"overflow", &overflow},
                 {"rounded", &rounded}});

  // ---- pack ------------------------------------------------------------------------------------
  b.assign(y, nl::mux(special, specialVal, nl::concat({sign, nl::mux(overflow, infinity, rounded)})));
  return b.take();
}

std::string generateFpMulUnit(const std::string& moduleName, FpFormat f, uint32_t stages) {
  return printVerilog(buildFpMulUnit(moduleName, f, stages));
}

} // namespace spvhls::rtl
