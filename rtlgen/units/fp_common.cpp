#include "rtlgen/units/fp_common.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

namespace spvhls::rtl::fpunit {

using nl::ExprP;

ExprP partialWire(nl::ModuleBuilder& b, const std::string& n, ExprP v) {
  const ExprP w = b.wire(n, v->width, "", true);
  b.assign(w, std::move(v));
  return w;
}

ExprP wideZero(unsigned w) {
  std::vector<ExprP> parts;
  for (; w > 64; w -= 64)
    parts.push_back(nl::lit(0, 64));
  parts.push_back(nl::lit(0, w));
  return nl::concat(std::move(parts));
}

namespace {

struct Lz {
  ExprP allZero, count;
};

Lz lzcTree(nl::ModuleBuilder& b, const std::vector<ExprP>& bits, unsigned level, unsigned index) {
  if (bits.size() == 2) return {~(bits[0] | bits[1]), ~bits[0]};
  const size_t h = bits.size() / 2;
  const Lz hi = lzcTree(b, {bits.begin(), bits.begin() + std::ptrdiff_t(h)}, level + 1, 2 * index);
  const Lz lo = lzcTree(b, {bits.begin() + std::ptrdiff_t(h), bits.end()}, level + 1, 2 * index + 1);
  const std::string n = fmt::format("lz{}_{}", level, index);
  const ExprP low = nl::mux(hi.allZero, lo.count, hi.count);
  // All-padding subtrees fold to literals (no unused wires).
  const ExprP count = hi.allZero->op == nl::Op::Const && low->op == nl::Op::Const
                          ? nl::lit(hi.allZero->value << low->width | low->value, low->width + 1)
                          : nl::concat({hi.allZero, low});
  return {nameUnlessLeaf(b, n + "_z", hi.allZero & lo.allZero), nameUnlessLeaf(b, n + "_c", count)};
}

} // namespace

ExprP leadingZeros(nl::ModuleBuilder& b, const std::vector<ExprP>& bits) {
  return lzcTree(b, bits, 0, 0).count;
}

FpOperand unpackFp(nl::ModuleBuilder& b, const ExprP& v, const std::string& n, FpFormat f) {
  const unsigned E = f.exp, M = f.mant, W = f.width(), P = M + 1;
  FpOperand o;
  const ExprP ex = nl::slice(v, W - 2, M), fr = nl::slice(v, M - 1, 0);
  const ExprP expZero = b.named(n + "_exp_zero", nl::eq(ex, nl::lit(0, E)));
  const ExprP expMax = nl::eq(ex, nl::lit(ones(E), E)), frZero = nl::eq(fr, nl::lit(0, M));
  o.sign = bit(v, W - 1);
  o.nan = b.named(n + "_nan", expMax & ~frZero);
  o.inf = b.named(n + "_inf", expMax & frZero);
  o.zero = b.named(n + "_zero", expZero & frZero);
  o.mant = fr;
  // A subnormal is 0.f * 2^(1 - bias): shift its leading zeros out (a binary search, one mux level
  // per bit of the count) and take them off its exponent, so that the significand lies in [1, 2).
  ExprP sig = nl::concat({~expZero, fr});
  std::vector<ExprP> lzBits;
  unsigned d = 1;
  while (d * 2 < P)
    d *= 2;
  for (; d >= 1; d /= 2) {
    const ExprP z =
        b.named(fmt::format("{}_lz{}", n, d), nl::eq(nl::slice(sig, P - 1, P - d), nl::lit(0, d)));
    sig = b.named(fmt::format("{}_sig{}", n, d),
                  nl::mux(z, nl::concat({nl::slice(sig, P - 1 - d, 0), nl::lit(0, d)}), sig));
    lzBits.push_back(z);
  }
  o.sig = sig;
  o.lz = nl::concat(lzBits);
  // A subnormal's exponent is that of the smallest normal, 1.
  o.exp = nl::concat({nl::slice(ex, E - 1, 1), bit(ex, 0) | expZero});
  return o;
}

} // namespace spvhls::rtl::fpunit
