// The generated pipelined conversion units (rtlgen/units/fp_convert.h): module text and register
// ranks, lint and synthesis front-end checks, then a representative set of int -> float, float -> int
// and float -> float units verilated together, each with its own random enable, and compared bit for
// bit with the golden interpreter's conversions. Those are reproduced in the harness from
// sim/interp_float.cpp (Executor::floatInst: OpConvertSToF/UToF, OpConvertFToS/FToU, OpFConvert and
// its roundDirected) line for line, since they are not reachable as functions: the host's SSE, x87
// and libgcc half conversions. Inputs: a list of special values per unit (zeros, subnormals, extremes,
// infinities, NaNs, integer extremes, powers of two and their neighbours, rounding ties at the
// target's precision and at its overflow and underflow thresholds), then a million random ones biased
// to the same hard cases. Float -> int without saturation is compared with the interpreter on
// in-range inputs only (it rejects the others as undefined); the others are checked against the
// result fp_convert.h documents for them.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <set>

#include "fp_unit_harness.h"
#include "frontend/diagnostics.h"
#include "rtlgen/units/fp_convert.h"

using namespace spvhls;
using namespace spvhls::fptest;
using rtl::FpFormat;
using rtl::FpRounding;
namespace nl = rtl::nl;

namespace {

enum class Kind { IntToFp, FpToInt, FpToFp };

struct UnitUnderTest {
  Kind kind;
  uint32_t intBits = 0; // IntToFp, FpToInt
  bool isSigned = false;
  bool saturate = false; // FpToInt
  FpFormat from{}, to{}; // FpToInt: from; IntToFp: to
  FpRounding r = FpRounding::NearestEven;

  std::string intName() const { return fmt::format("{}{}", isSigned ? "s" : "u", intBits); }
  std::string module() const {
    switch (kind) {
    case Kind::IntToFp:
      return fmt::format("cvt_{}_{}_{}", intName(), rtl::fpName(to), rtl::fpRoundingName(r));
    case Kind::FpToInt:
      return fmt::format("cvt_{}_{}{}", rtl::fpName(from), intName(), saturate ? "_sat" : "");
    default:
      return fmt::format("cvt_{}_{}_{}", rtl::fpName(from), rtl::fpName(to), rtl::fpRoundingName(r));
    }
  }
  uint32_t inWidth() const { return kind == Kind::IntToFp ? intBits : from.width(); }
  uint32_t outWidth() const { return kind == Kind::FpToInt ? intBits : to.width(); }
  nl::Module build() const {
    switch (kind) {
    case Kind::IntToFp:
      return rtl::buildIntToFpUnit(module(), intBits, isSigned, to, r);
    case Kind::FpToInt:
      return rtl::buildFpToIntUnit(module(), from, intBits, isSigned, saturate);
    default:
      return rtl::buildFpToFpUnit(module(), from, to, r);
    }
  }
  std::string generate() const {
    switch (kind) {
    case Kind::IntToFp:
      return rtl::generateIntToFpUnit(module(), intBits, isSigned, to, r);
    case Kind::FpToInt:
      return rtl::generateFpToIntUnit(module(), from, intBits, isSigned, saturate);
    default:
      return rtl::generateFpToFpUnit(module(), from, to, r);
    }
  }
};

UnitUnderTest intToFp(uint32_t bits, bool sgn, FpFormat f, FpRounding r) {
  return {Kind::IntToFp, bits, sgn, false, {}, f, r};
}
UnitUnderTest fpToInt(FpFormat f, uint32_t bits, bool sgn, bool sat) {
  return {Kind::FpToInt, bits, sgn, sat, f, {}, FpRounding::TowardZero};
}
UnitUnderTest fpToFp(FpFormat from, FpFormat to, FpRounding r) {
  return {Kind::FpToFp, 0, false, false, from, to, r};
}

constexpr FpRounding kModes[] = {FpRounding::NearestEven, FpRounding::TowardZero, FpRounding::TowardPositive,
                                 FpRounding::TowardNegative};

std::vector<UnitUnderTest> allUnits() {
  using rtl::kF16, rtl::kF32, rtl::kF64;
  const FpRounding rte = FpRounding::NearestEven, rtz = FpRounding::TowardZero,
                   rtp = FpRounding::TowardPositive, rtn = FpRounding::TowardNegative;
  std::vector<UnitUnderTest> u;
  for (FpFormat f : {kF32, kF64})
    for (uint32_t bits : {32u, 64u})
      for (bool sgn : {true, false})
        u.push_back(intToFp(bits, sgn, f, rte));
  for (FpRounding r : {rtz, rtp, rtn})
    u.push_back(intToFp(32, true, kF32, r));
  // Directed u64 and s64 (the interpreter's long double path), and f16 targets (overflow).
  u.push_back(intToFp(64, false, kF32, rtz));
  u.push_back(intToFp(64, false, kF32, rtp));
  u.push_back(intToFp(64, true, kF32, rtp));
  u.push_back(intToFp(64, true, kF64, rtn));
  u.push_back(intToFp(16, false, kF16, rte));
  u.push_back(intToFp(16, true, kF16, rtn));
  u.push_back(intToFp(8, true, kF16, rte));
  u.push_back(intToFp(32, true, kF16, rtp));
  u.push_back(intToFp(64, false, kF16, rtz));
  u.push_back(intToFp(8, false, kF32, rte));
  u.push_back(intToFp(16, true, kF64, rte));
  for (FpFormat f : {kF32, kF64})
    for (auto [bits, sgn] : {std::pair{32u, true}, {32u, false}, {64u, true}})
      for (bool sat : {false, true})
        u.push_back(fpToInt(f, bits, sgn, sat));
  u.push_back(fpToInt(kF16, 16, true, true));
  u.push_back(fpToInt(kF16, 8, false, true));
  u.push_back(fpToInt(kF16, 64, true, false));
  u.push_back(fpToInt(kF16, 32, false, true));
  u.push_back(fpToInt(kF64, 64, false, true));
  u.push_back(fpToInt(kF32, 64, false, false));
  u.push_back(fpToInt(kF32, 8, true, true));
  u.push_back(fpToInt(kF64, 16, false, false));
  for (auto [from, to] : {std::pair{kF64, kF32}, {kF32, kF16}, {kF64, kF16}})
    for (FpRounding r : kModes)
      u.push_back(fpToFp(from, to, r));
  u.push_back(fpToFp(kF16, kF32, rte));
  u.push_back(fpToFp(kF32, kF64, rte));
  u.push_back(fpToFp(kF16, kF64, rtz));
  return u;
}

// Every unit as the wrapper cvt_tb sees it: one operand.
std::vector<WrappedUnit> wrapped(const std::vector<UnitUnderTest>& all) {
  std::vector<WrappedUnit> out;
  for (const UnitUnderTest& u : all)
    out.push_back({u.module(), u.generate(), u.inWidth(), u.outWidth(), false});
  return out;
}

// The harness's own part (see the file comment): kHarnessIncludes, fptest::kRingCommon (Rng, ones,
// mantissa), kHarness (the reference, the inputs and the hooks of fptest::kRingMain), then the unit
// table and kRingMain. Entries the interpreter leaves undefined hold the documented result instead,
// checked on their own and not counted for the latency fit.
const char* kHarnessIncludes = R"(
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

)";

const char* kHarness = R"(
// ---- the golden interpreter's conversions (sim/interp_float.cpp, interp_program.h, interp_intmath.h)
using half = _Float16;
template <typename T>
T fromBits(uint64_t v) {
  T x;
  std::memcpy(&x, &v, sizeof(T));
  return x;
}
template <typename T>
uint64_t toBits(T x) {
  uint64_t v = 0;
  std::memcpy(&v, &x, sizeof(T));
  return v;
}
double readF(uint64_t v, unsigned w) {
  switch (w) {
  case 16: return static_cast<double>(fromBits<half>(v));
  case 32: return static_cast<double>(fromBits<float>(v));
  default: return fromBits<double>(v);
  }
}
uint64_t writeF(double d, unsigned w) {
  switch (w) {
  case 16: return toBits(static_cast<half>(d));
  case 32: return toBits(static_cast<float>(d));
  default: return toBits(d);
  }
}
uint64_t widthMask(unsigned w) { return ~uint64_t(0) >> (64 - w); }
int64_t sext(uint64_t v, unsigned w) { return static_cast<int64_t>(v << (64 - w)) >> (64 - w); }
int64_t smin(unsigned w) { return w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1)); }
int64_t smax(unsigned w) { return w == 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1; }
enum Rounding : uint32_t { kDefault = 0, kRTE = 1, kRTZ = 2, kRTP = 3, kRTN = 4 };
uint64_t stepBits(uint64_t bits, unsigned w, bool up) {
  const uint64_t sign = uint64_t(1) << (w - 1);
  if ((bits & ~sign) == 0) return up ? 1 : sign | 1;
  return (((bits & sign) == 0) == up) ? bits + 1 : bits - 1;
}
uint64_t roundDirected(long double x, unsigned w, uint32_t mode) {
  uint64_t bits = w == 64 ? toBits(static_cast<double>(x)) : w == 32 ? toBits(static_cast<float>(x)) : writeF(static_cast<double>(x), 16);
  long double r = readF(bits, w);
  if (std::isnan(r) || r == x || mode == kDefault || mode == kRTE) return bits;
  bool tooFar = mode == kRTZ ? std::fabs(r) > std::fabs(x) : mode == kRTP ? r < x : r > x;
  if (!tooFar) return bits;
  bool up = mode == kRTZ ? r < 0 : mode == kRTP;
  return stepBits(bits, w, up);
}
// OpConvertSToF / OpConvertUToF: v a w2-bit integer, w the float width, c the rounding (0: default).
uint64_t convertToF(bool sToF, uint64_t v, unsigned w2, unsigned w, uint32_t c) {
  if (c > kRTE) {
    long double x = sToF ? static_cast<long double>(sext(v, w2)) : static_cast<long double>(v);
    return roundDirected(x, w, c);
  } else if (sToF) {
    int64_t s = sext(v, w2);
    return w == 32 ? toBits(static_cast<float>(s)) : w == 64 ? toBits(static_cast<double>(s)) : writeF(static_cast<double>(s), 16);
  }
  return w == 32 ? toBits(static_cast<float>(v)) : w == 64 ? toBits(static_cast<double>(v)) : writeF(static_cast<double>(v), 16);
}
// OpConvertFToS / OpConvertFToU rounding toward zero (c = 0): false where the interpreter fails.
bool convertFToI(bool fToS, uint64_t a, unsigned w2, unsigned w, bool sat, uint64_t& d) {
  double v = readF(a, w2);
  double t = std::trunc(v);
  bool sgn = fToS;
  double lo = sgn ? -std::ldexp(1.0, w - 1) : 0.0, hi = std::ldexp(1.0, sgn ? w - 1 : w);
  uint64_t bits;
  if (std::isnan(v) || t < lo || t >= hi) {
    if (!sat) return false;
    if (std::isnan(v)) bits = 0;
    else if (sgn) bits = static_cast<uint64_t>(t < lo ? smin(w) : smax(w));
    else bits = t < lo ? 0 : widthMask(w);
  } else if (sgn) {
    bits = static_cast<uint64_t>(static_cast<int64_t>(t));
  } else {
    bits = t >= 0x1p63 ? static_cast<uint64_t>(t - 0x1p63) | (uint64_t(1) << 63) : static_cast<uint64_t>(t);
  }
  d = bits & widthMask(w);
  return true;
}
// OpFConvert.
uint64_t convertF(uint64_t a, unsigned w2, unsigned w, uint32_t c) { return roundDirected(readF(a, w2), w, c); }

// ---- input generation -------------------------------------------------------------------------
struct Format {
  int e, m;
  int w() const { return 1 + e + m; }
  int64_t bias() const { return int64_t(ones(e - 1)); }
  int64_t emax() const { return int64_t(ones(e)) - 1; }
  uint64_t pack(uint64_t s, int64_t ex, uint64_t man) const {
    ex = ex < 0 ? 0 : ex > emax() + 1 ? emax() + 1 : ex;
    return (s << (e + m)) | ((uint64_t(ex) & ones(e)) << m) | (man & ones(m));
  }
};
Format formatOf(int w) { return w == 16 ? Format{5, 10} : w == 32 ? Format{8, 23} : Format{11, 52}; }

// The fp add test's list: both signs of zero, subnormals, min normal and neighbours, max normal, 1
// and neighbours, half-ulps, infinity, quiet and signalling NaNs with payloads.
void floatSpecials(const Format& f, std::vector<uint64_t>& out) {
  const int m = f.m;
  const int64_t emax = f.emax(), bias = f.bias();
  const uint64_t mo = ones(m), q = 1ull << (m - 1);
  const uint64_t mags[] = {
      0, 1, 2, 3, mo, mo - 1, f.pack(0, 1, 0), f.pack(0, 1, 1), f.pack(0, 2, 0),
      f.pack(0, emax - 1, mo), f.pack(0, emax - 1, mo - 1), f.pack(0, emax - 1, 0),
      f.pack(0, bias, 0), f.pack(0, bias, 1), f.pack(0, bias - 1, mo), f.pack(0, bias, mo),
      f.pack(0, bias, q), f.pack(0, bias + 1, 0), f.pack(0, bias + 1, q), f.pack(0, bias - 1, 0),
      f.pack(0, bias - 1, q), f.pack(0, bias + 1, q >> 1), f.pack(0, bias - m - 1, 0),
      f.pack(0, emax, 0), f.pack(0, emax, q), f.pack(0, emax, q | 5), f.pack(0, emax, 1),
      f.pack(0, emax, (q >> 1) | 3), f.pack(0, emax, mo), f.pack(0, emax, q - 1)};
  for (uint64_t v : mags) {
    out.push_back(v);
    out.push_back(v | (1ull << (f.w() - 1)));
  }
}

// v (a double exact in the source format, if it is) and its neighbours, both signs.
void addAround(const Format& src, double v, std::vector<uint64_t>& out) {
  uint64_t b;
  if (src.w() == 64) b = toBits(v);
  else if (src.w() == 32) {
    if (double(float(v)) != v) return;
    b = toBits(float(v));
  } else {
    if (double(half(v)) != v) return;
    b = toBits(half(v));
  }
  for (uint64_t s : {0ull, 1ull << (src.w() - 1)}) {
    out.push_back(b | s);
    out.push_back((b + 1) | s);
    if (b) out.push_back((b - 1) | s);
  }
}

struct UnitDesc {
  int kind; // 0 int -> float, 1 float -> int, 2 float -> float
  int intBits;
  bool sgn, sat;
  int fromW, toW; // float widths; int -> float: toW, float -> int: fromW
  uint32_t mode;  // kRTE.. (int -> float, float -> float)
  int latency;
  const char* name;
};

std::vector<uint64_t> specials(const UnitDesc& u) {
  std::vector<uint64_t> out;
  if (u.kind == 0) {
    const int T = u.intBits, P = formatOf(u.toW).m + 1;
    const uint64_t mask = ones(T);
    auto add = [&](uint64_t v) {
      out.push_back(v & mask);
      out.push_back((0 - v) & mask);
    };
    add(0);
    add(ones(T - 1));
    add(1ull << (T - 1));
    for (int k = 0; k < T; ++k)
      for (int d = -1; d <= 1; ++d)
        add((1ull << k) + uint64_t(int64_t(d)));
    // Below, at and above the halfway points at every shift: even and odd kept bits, and a carry into
    // the next power of two; the f16 overflow threshold is among them.
    for (int s = 1; s <= T - P; ++s)
      for (uint64_t m : {uint64_t(1) << (P - 1), (uint64_t(1) << (P - 1)) + 1, ones(P)})
        for (int d = -1; d <= 1; ++d)
          add((m << s) + (1ull << (s - 1)) + uint64_t(int64_t(d)));
    return out;
  }
  const Format src = formatOf(u.fromW);
  floatSpecials(src, out);
  if (u.kind == 1) {
    // Integer range limits: powers of two up to 2^T and halves.
    for (int k : {0, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, u.intBits - 1, u.intBits, u.intBits + 1})
      addAround(src, std::ldexp(1.0, k), out);
    for (double v : {0.5, 1.5, 2.5, 0.25, 0.75, 3.0, 1e-30, 1e30})
      addAround(src, v, out);
    return out;
  }
  // The target's rounding thresholds: overflow (max finite, its half-ulp tie with infinity), the
  // smallest normal and the subnormal boundary, the smallest subnormal and the ties around it, and ties
  // after 1.
  const Format to = formatOf(u.toW);
  const int bias = int(to.bias()), m = to.m;
  const double maxF = (2 - std::ldexp(1.0, -m)) * std::ldexp(1.0, bias), halfUlpMax = std::ldexp(1.0, bias - m - 1);
  const double minN = std::ldexp(1.0, 1 - bias), minS = std::ldexp(1.0, 1 - bias - m);
  for (double v : {maxF, maxF + halfUlpMax, maxF + 2 * halfUlpMax, minN, minN - minS / 2, minN - minS, minS,
                   minS / 2, minS / 4, 1.5 * minS, 2.5 * minS, 3 * minS, 1 + std::ldexp(1.0, -m - 1),
                   1 + 3 * std::ldexp(1.0, -m - 1), 2 - std::ldexp(1.0, -m - 1)})
    addAround(src, v, out);
  return out;
}

// Random kept bits, then bit k set and nothing below (an exact tie when k is the guard position), or
// one less or one more.
uint64_t tieAt(Rng& r, int k, int m) {
  uint64_t v = (r.next() & ~ones(k + 1)) | (1ull << k);
  v += r.below(3) - 1;
  return v & ones(m);
}

uint64_t randomInt(Rng& r, const UnitDesc& u) {
  const int T = u.intBits, P = formatOf(u.toW).m + 1;
  uint64_t v;
  switch (r.below(4)) {
  case 0: v = r.next(); break;
  case 1: { // any magnitude
    const int len = 1 + int(r.below(T));
    v = (1ull << (len - 1)) | mantissa(r, len - 1);
    break;
  }
  case 2: // ties (and neighbours) at the rounding position
    if (T > P) {
      const int len = P + 1 + int(r.below(T - P));
      v = tieAt(r, len - P - 1, len - 1) | (1ull << (len - 1));
      break;
    }
    v = r.next();
    break;
  default: v = (1ull << r.below(T)) + r.below(9) - 4; break; // around powers of two
  }
  if (r.next() & 1) v = 0 - v;
  return v & ones(T);
}

uint64_t randomFloat(Rng& r, const UnitDesc& u, const std::vector<uint64_t>& sp) {
  const Format f = formatOf(u.fromW);
  const uint64_t s = r.next() & 1;
  switch (r.below(10)) {
  case 0: return r.next() & ones(f.w());
  case 1: return sp[r.below(sp.size())];
  case 2: return f.pack(s, int64_t(r.below(2)), mantissa(r, f.m)); // subnormals
  default: break;
  }
  if (u.kind == 1) {
    // |x| from 1/4 to 2^T; without saturation mostly in range (non-negative for unsigned).
    const int64_t e = f.bias() - 2 + int64_t(r.below(uint64_t(u.intBits + 3)));
    const bool neg = u.sat || u.sgn ? s != 0 : r.below(8) == 0;
    return f.pack(neg, std::min(e, f.emax()), mantissa(r, f.m));
  }
  // A target exponent from below the subnormal range to above the overflow threshold; a tie at the
  // target's precision half of the time.
  const Format to = formatOf(u.toW);
  if (to.e > f.e) return f.pack(s, int64_t(r.below(uint64_t(f.emax()) + 2)), mantissa(r, f.m)); // widening
  const int64_t eo = int64_t(r.below(uint64_t(to.emax() + to.m + 6))) - (to.m + 3);
  const int guardPos = f.m - to.m - 1 + int(eo < 1 ? 1 - eo : 0);
  const uint64_t man = guardPos >= 0 && guardPos < f.m && (r.next() & 1) ? tieAt(r, guardPos, f.m) : mantissa(r, f.m);
  return f.pack(s, std::max<int64_t>(eo - to.bias() + f.bias(), 1), man);
}

// The interpreter's result; false where it is undefined (float -> int out of range, not saturating).
bool reference(const UnitDesc& u, uint64_t a, uint64_t& y) {
  switch (u.kind) {
  case 0: y = convertToF(u.sgn, a, unsigned(u.intBits), unsigned(u.toW), u.mode); return true;
  case 1: return convertFToI(u.sgn, a, unsigned(u.fromW), unsigned(u.intBits), u.sat, y);
  default: y = convertF(a, unsigned(u.fromW), unsigned(u.toW), u.mode); return true;
  }
}

// What the unit documents for an input the interpreter rejects (float -> int without saturation):
// 0 when |x| >= 2^T, x is infinite or NaN, else the low T bits of trunc(x)'s two's complement.
uint64_t undefinedResult(const UnitDesc& u, uint64_t a) {
  const double v = readF(a, unsigned(u.fromW)), t = std::trunc(std::fabs(v));
  if (std::isnan(v) || t >= std::ldexp(1.0, u.intBits)) return 0;
  const uint64_t mag = t >= 0x1p63 ? static_cast<uint64_t>(t - 0x1p63) | (1ull << 63) : static_cast<uint64_t>(t);
  return (std::signbit(v) ? 0 - mag : mag) & ones(u.intBits);
}

struct Entry {
  uint64_t a, y;
  bool check; // false: undefined in the interpreter; y is then the unit's documented result
};

struct State {
  Rng rng;
  std::vector<uint64_t> sp;
  uint64_t issued = 0, edges = 0, checks = 0, mismatches = 0, verified = 0, compared = 0, skipped = 0, undefinedMismatches = 0,
           randomCompared = 0;
  uint32_t misfit = 0; // bit L: latency L disagreed with y at least once
  Entry ring[16];
};

constexpr uint64_t kSeed = 0xc0de0000ull, kEnableSeed = 20260201;

void start(State& s, const UnitDesc& u) { s.sp = specials(u); }

void issue(State& s, const UnitDesc& u, bool en, uint64_t& a, uint64_t&) {
  const int inW = u.kind == 0 ? u.intBits : u.fromW;
  if (!en) a = s.rng.next() & ones(inW);
  else if (s.issued < s.sp.size()) a = s.sp[s.issued];
  else a = u.kind == 0 ? randomInt(s.rng, u) : randomFloat(s.rng, u, s.sp);
  if (en) {
    Entry& e = s.ring[s.issued++ % 16];
    e.a = a;
    e.check = reference(u, a, e.y);
    if (!e.check) e.y = undefinedResult(u, a);
  }
}

bool check(State& s, const UnitDesc& u, uint64_t y, int64_t j, uint64_t randomOps, FILE* report) {
  if (j < 0) return false;
  // y is checked every cycle (it must hold while en is low); each input is counted once.
  const Entry& e = s.ring[j % 16];
  if (!e.check && e.y != y && ++s.undefinedMismatches <= 5)
    std::fprintf(report, "undefined-case mismatch %s: a %llx: y %llx, documented %llx\n", u.name,
                 (unsigned long long)e.a, (unsigned long long)y, (unsigned long long)e.y);
  if (e.check) {
    ++s.checks;
    if (e.y != y && ++s.mismatches <= 10)
      std::fprintf(report, "mismatch %s: a %llx: y %llx, expected %llx\n", u.name, (unsigned long long)e.a,
                   (unsigned long long)y, (unsigned long long)e.y);
  }
  if (uint64_t(j) + 1 > s.verified) {
    s.verified = uint64_t(j) + 1;
    if (!e.check) ++s.skipped;
    else {
      ++s.compared;
      if (uint64_t(j) >= s.sp.size()) ++s.randomCompared;
    }
  }
  return !(s.verified < s.sp.size() || s.randomCompared < randomOps);
}

bool summary(const State& s, const UnitDesc& u, FILE* report) {
  std::fprintf(report, "unit %s compared %llu specials %llu random %llu skipped %llu checks %llu mismatches %llu "
               "undefined-mismatches %llu latencies",
               u.name, (unsigned long long)s.compared, (unsigned long long)s.sp.size(),
               (unsigned long long)s.randomCompared, (unsigned long long)s.skipped, (unsigned long long)s.checks,
               (unsigned long long)s.mismatches, (unsigned long long)s.undefinedMismatches);
  return s.mismatches || s.undefinedMismatches;
}

} // namespace
)";

} // namespace

TEST_CASE("conversion units: module text, latency and register ranks") {
  CHECK(rtl::fpConvertLatency() == 3);
  for (const UnitUnderTest& u : allUnits()) {
    CAPTURE(u.module());
    const std::string text = u.generate();
    CHECK(text.find("module " + u.module() + " (") != std::string::npos);
    CHECK(text.find(fmt::format("latency {}", rtl::fpConvertLatency())) != std::string::npos);
    // Two ranks s1_*, s2_*, each advancing with en.
    const nl::Module m = u.build();
    std::set<uint32_t> ranks;
    for (const nl::Register& r : m.registers) {
      ranks.insert(uint32_t(std::stoul(r.name.substr(1, r.name.find('_') - 1))));
      REQUIRE(r.updates.size() == 1);
      CHECK(r.updates[0].enable->name() == "en");
    }
    CHECK(ranks == std::set<uint32_t>{1, 2});
  }
  CHECK_THROWS_AS(rtl::generateIntToFpUnit("x", 12, true, rtl::kF32, FpRounding::NearestEven), InternalError);
  CHECK_THROWS_AS(rtl::generateIntToFpUnit("x", 32, true, FpFormat{1, 10}, FpRounding::NearestEven),
                  InternalError);
  CHECK_THROWS_AS(rtl::generateFpToIntUnit("x", FpFormat{11, 53}, 32, true, false), InternalError);
  CHECK_THROWS_AS(rtl::generateFpToIntUnit("x", rtl::kF32, 128, true, false), InternalError);
  CHECK_THROWS_AS(rtl::generateFpToFpUnit("x", rtl::kF32, rtl::kF32, FpRounding::NearestEven), InternalError);
}

// One lint and one synthesis front-end run over a wrapper holding every unit (a run per unit would
// cost a minute); -Wall warnings are reported per module all the same.
TEST_CASE("conversion units are lint-clean and synthesizable") {
  const std::string dir = tempDir("test_fp_convert", "lint");
  const std::string files = writeWrapper(wrapped(allUnits()), dir, "cvt_tb");
  const std::string log = dir + "/lint.log";
  int rc = run("verilator --lint-only -Wall --top-module cvt_tb " + files, log);
  INFO(slurp(log));
  CHECK(rc == 0);
  CHECK(slurp(log).empty());
  const std::string ylog = dir + "/yosys.log";
  rc = run("yosys -q -p 'read_verilog " + files + "; hierarchy -top cvt_tb; proc; check -assert'", ylog);
  INFO(slurp(ylog));
  CHECK(rc == 0);
}

TEST_CASE("pipelined conversion units match the interpreter bit for bit with a random enable") {
  const std::vector<UnitUnderTest> all = allUnits();
  const std::string dir = tempDir("test_fp_convert", "sim");
  const std::vector<WrappedUnit> units = wrapped(all);
  const std::string files = writeWrapper(units, dir, "cvt_tb");
  std::string table;
  for (const UnitUnderTest& u : all) {
    const int kind = u.kind == Kind::IntToFp ? 0 : u.kind == Kind::FpToInt ? 1 : 2;
    table += fmt::format("  {{{}, {}, {}, {}, {}, {}, {}, {}, \"{}\"}},\n", kind, u.intBits, u.isSigned,
                         u.saturate, u.kind == Kind::IntToFp ? 0 : u.from.width(),
                         u.kind == Kind::FpToInt ? 0 : u.to.width(), uint32_t(u.r) + 1,
                         rtl::fpConvertLatency(), u.module());
  }
  std::ofstream(dir + "/harness.cpp") << "#include \"Vcvt_tb.h\"\n"
                                      << kHarnessIncludes << kRingCommon << kHarness << "namespace {\n"
                                      << "const UnitDesc kUnits[] = {\n"
                                      << table << "};\nconstexpr int kNumUnits = " << all.size() << ";\n"
                                      << accessors(units, "cvt_tb") << "} // namespace\n"
                                      << kRingMain;
  const uint64_t randomOps = 1000000;
  const std::string text = runRingHarness(dir, "cvt_tb", files, "vcvt", randomOps);
  using Values = std::map<std::string, uint64_t>;
  const size_t seen = forEachRingUnitLine<UnitUnderTest>(
      text, all, [&](const UnitUnderTest& u, Values& v, const std::vector<uint32_t>& fits) {
        const uint64_t compared = v["compared"], specials = v["specials"], random = v["random"],
                       skipped = v["skipped"];
        MESSAGE(
            fmt::format("{}: {} inputs compared ({} special values, {} random), {} undefined in the "
                        "interpreter (checked against the documented result), {} cycle checks, {} mismatches",
                        u.module(), compared, specials, random, skipped, v["checks"], v["mismatches"]));
        CHECK(v["mismatches"] == 0);
        // Inputs the interpreter rejects give what fp_convert.h documents.
        CHECK(v["undefined-mismatches"] == 0);
        CHECK(random >= randomOps);
        // Every special value is compared unless the interpreter leaves it undefined.
        CHECK(compared + skipped >= specials + random);
        if (!(u.kind == Kind::FpToInt && !u.saturate)) CHECK(skipped == 0);
        // The latency the unit shows is fpConvertLatency(), and no other fits.
        CHECK(fits == std::vector<uint32_t>{rtl::fpConvertLatency()});
      });
  CHECK(seen == all.size());
}
