// The error checker of the f32 exp/log/sin/cos/tan expansions (ir/lower_math.cpp) and of rsqrt, shared by
// the unit tests (tests/unit/test_math_expansion.cpp, test_math_exact.cpp) and the benchmark that sweeps the
// whole f32 range (tests/bench/bench_math.cpp).
//
// Each expansion is built once with a variable operand and its op list evaluated per input the way
// ir_eval does (Const, Select, the rest through foldConstant). Its result is compared with
//  - the correctly rounded value: glibc's double function (exp, exp2, exp10, log, log2, log10, sin,
//    cos, tan, atan, asin, acos) rounded
//    to float where the double lies farther than 2^-40 (relative, far beyond its error) from an f32
//    rounding boundary, and otherwise libquadmath's __float128 function rounded to float;
//  - glibc's float function called as the golden interpreter calls it (sim/interp_float.cpp: powf(10,
//    x) for exp10), which decides the special values (NaN payloads, infinities, zeros) bit for bit.
// Distances are in ulps along the line of f32 values (neighbouring floats differ by one, both zeros
// are 0), as `spvhls sim` counts them.
#pragma once

#include <quadmath.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "frontend/module.h"
#include "ir/lower_math.h"

namespace spvhls::mathcheck {

using ir::OpKind;
using ir::ValueId;
using ir::lower::MathFn;

inline constexpr MathFn kAllFns[] = {MathFn::Exp,  MathFn::Exp2,  MathFn::Exp10, MathFn::Log,
                                     MathFn::Log2, MathFn::Log10, MathFn::Sin,   MathFn::Cos,
                                     MathFn::Tan,  MathFn::Atan,  MathFn::Asin,  MathFn::Acos};

inline float asFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint32_t asBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline bool isNan(uint32_t b) {
  return (b & 0x7fffffff) > 0x7f800000;
}
// Distance in ulps (NaN: 0 to another NaN, else "infinitely" far).
inline uint64_t ulpDistance(uint32_t a, uint32_t b) {
  if (isNan(a) || isNan(b)) return isNan(a) && isNan(b) ? 0 : UINT64_MAX;
  auto line = [](uint32_t x) { return x & 0x80000000 ? -int64_t(x & 0x7fffffff) : int64_t(x); };
  const int64_t d = line(a) - line(b);
  return uint64_t(d < 0 ? -d : d);
}

// The expansion with a variable operand, as a straight op list.
struct Program {
  std::vector<ir::Op> ops;
  ValueId out = ir::kNone;
  // Ops per kind, for the unit counts (FAdd/FSub, FMul, conversions).
  size_t count(std::initializer_list<OpKind> kinds) const {
    return size_t(std::count_if(ops.begin(), ops.end(), [&](const ir::Op& o) {
      return std::find(kinds.begin(), kinds.end(), o.kind) != kinds.end();
    }));
  }

  explicit Program(MathFn fn)
      : Program(
            [fn](ir::lower::Builder& b, const std::vector<ValueId>& x) { return buildMathF32(b, fn, x[0]); },
            {32}) {}
  // Any expansion of Arg operands of the given widths.
  Program(const std::function<ValueId(ir::lower::Builder&, const std::vector<ValueId>&)>& build,
          const std::vector<uint32_t>& argWidths) {
    ir::lower::Builder b(ops, nullptr);
    std::vector<ValueId> args;
    for (uint32_t w : argWidths) {
      ir::Op arg;
      arg.kind = OpKind::Arg;
      arg.type = ir::Type::bits(w);
      arg.imm = args.size(); // which operand
      args.push_back(b.emit(std::move(arg)));
    }
    out = build(b, args);
    vals_.assign(ops.size(), 0);
    for (size_t v = 0; v < ops.size(); ++v)
      if (ops[v].kind == OpKind::Const) vals_[v] = ops[v].imm;
  }

  uint32_t run(uint32_t x) { return uint32_t(runArgs({x})); }
  uint64_t runArgs(std::initializer_list<uint64_t> args) {
    for (size_t v = 0; v < ops.size(); ++v) {
      const ir::Op& op = ops[v];
      switch (op.kind) {
      case OpKind::Const:
        break;
      case OpKind::Arg:
        vals_[v] = args.begin()[op.imm];
        break;
      case OpKind::Select:
        vals_[v] = (vals_[op.operands[0]] & 1) ? vals_[op.operands[1]] : vals_[op.operands[2]];
        break;
      default: {
        xs_.clear();
        for (ValueId o : op.operands)
          xs_.push_back(vals_[o]);
        const auto r = ir::lower::foldConstant(op.kind, op.width(), xs_, ops[op.operands[0]].width());
        if (!r) throw std::runtime_error(fmt::format("{} does not evaluate", ir::opKindName(op.kind)));
        vals_[v] = *r;
      }
      }
    }
    return vals_[out];
  }

private:
  std::vector<uint64_t> vals_, xs_;
};

// glibc's float function through a pointer, as the interpreter calls it (sim/interp_float.cpp gets
// the operand as a double and narrows it, which quiets a signalling NaN first).
inline float exp10ViaPow(float x) {
  return std::pow(10.0f, x);
}
inline uint32_t glibcF32(MathFn fn, uint32_t x) {
  static float (*volatile const table[])(float) = {::expf, ::exp2f, exp10ViaPow, ::logf,  ::log2f, ::log10f,
                                                   ::sinf, ::cosf,  ::tanf,      ::atanf, ::asinf, ::acosf};
  const double d = asFloat(x); // quiets a signalling NaN, as the interpreter's readF does
  return asBits(table[int(fn)](static_cast<float>(d)));
}

inline double refDouble(MathFn fn, double x) {
  switch (fn) {
  case MathFn::Exp:
    return std::exp(x);
  case MathFn::Exp2:
    return std::exp2(x);
  case MathFn::Exp10:
    return ::exp10(x);
  case MathFn::Log:
    return std::log(x);
  case MathFn::Log2:
    return std::log2(x);
  case MathFn::Log10:
    return std::log10(x);
  case MathFn::Sin:
    return std::sin(x);
  case MathFn::Cos:
    return std::cos(x);
  case MathFn::Tan:
    return std::tan(x);
  case MathFn::Asin:
    return std::asin(x);
  case MathFn::Acos:
    return std::acos(x);
  default:
    return std::atan(x);
  }
}
inline __float128 refQuad(MathFn fn, __float128 x) {
  switch (fn) {
  case MathFn::Exp:
    return expq(x);
  case MathFn::Exp2:
    return exp2q(x);
  case MathFn::Exp10:
    return expq(x * M_LN10q);
  case MathFn::Log:
    return logq(x);
  case MathFn::Log2:
    return log2q(x);
  case MathFn::Log10:
    return log10q(x);
  case MathFn::Sin:
    return sinq(x);
  case MathFn::Cos:
    return cosq(x);
  case MathFn::Tan:
    return tanq(x);
  case MathFn::Asin:
    return asinq(x);
  case MathFn::Acos:
    return acosq(x);
  default:
    return atanq(x);
  }
}

// The correctly rounded f32 result for a finite x in the function's domain (x > 0 for the logs).
inline uint32_t correctlyRounded(MathFn fn, uint32_t x, double& exact) {
  const double v = refDouble(fn, asFloat(x));
  exact = v;
  const float lo = static_cast<float>(v * (1 - 0x1p-40)), hi = static_cast<float>(v * (1 + 0x1p-40));
  if (lo == hi) return asBits(lo);
  return asBits(static_cast<float>(refQuad(fn, asFloat(x)))); // near a boundary: in quad precision
}

// The ulp of the f32 binade holding |v| (subnormal spacing below 2^-126).
inline double ulpOf(double v) {
  const int e = std::ilogb(std::max(std::fabs(v), 0x1p-126));
  return std::ldexp(1.0, e - 23);
}

struct Stats {
  uint64_t inputs = 0, notCorrectlyRounded = 0, specialMismatches = 0;
  uint64_t maxUlps = 0, maxUlpsVsGlibc = 0, differFromGlibc = 0;
  uint64_t glibcMaxUlps = 0, glibcNotCorrectlyRounded = 0; // glibc's own float function, for reference
  uint32_t glibcWorst = 0;
  double maxError = 0; // |result - exact| / ulp, over finite results
  uint32_t worst = 0, worstVsGlibc = 0;
  std::vector<std::string> problems; // the first few
  void merge(const Stats& o) {
    inputs += o.inputs, notCorrectlyRounded += o.notCorrectlyRounded,
        specialMismatches += o.specialMismatches;
    differFromGlibc += o.differFromGlibc, glibcNotCorrectlyRounded += o.glibcNotCorrectlyRounded;
    if (o.glibcMaxUlps > glibcMaxUlps) glibcMaxUlps = o.glibcMaxUlps, glibcWorst = o.glibcWorst;
    if (o.maxUlps > maxUlps) maxUlps = o.maxUlps, worst = o.worst;
    if (o.maxUlpsVsGlibc > maxUlpsVsGlibc) maxUlpsVsGlibc = o.maxUlpsVsGlibc, worstVsGlibc = o.worstVsGlibc;
    maxError = std::max(maxError, o.maxError);
    for (const auto& p : o.problems)
      if (problems.size() < 10) problems.push_back(p);
  }
};

// Scores one result `got` for the operand(s) named by `at`: against glibc's `lib` (bit for bit when
// `special`), else against the correctly rounded value `correct` returns (it sets the exact value).
inline void score(Stats& s, uint32_t at, uint32_t got, uint32_t lib, bool special,
                  const std::function<uint32_t(double&)>& correct, uint32_t bound,
                  const std::function<void(const std::string&)>& problem) {
  if (got != lib) {
    ++s.differFromGlibc;
    const uint64_t d = ulpDistance(got, lib);
    if (d > s.maxUlpsVsGlibc) s.maxUlpsVsGlibc = d, s.worstVsGlibc = at;
  }
  if (special) {
    if (got != lib) ++s.specialMismatches, problem(fmt::format("glibc gives 0x{:08x}", lib));
    return;
  }
  double exact = 0;
  const uint32_t cr = correct(exact);
  const uint64_t d = ulpDistance(got, cr);
  if (d != 0) ++s.notCorrectlyRounded;
  if (const uint64_t g = ulpDistance(lib, cr); g != 0) {
    ++s.glibcNotCorrectlyRounded;
    if (g > s.glibcMaxUlps) s.glibcMaxUlps = g, s.glibcWorst = at;
  }
  if (d > s.maxUlps) s.maxUlps = d, s.worst = at;
  if (d > bound) problem(fmt::format("{} ulp from the correctly rounded 0x{:08x}", d, cr));
  if (std::isfinite(asFloat(got)) && std::isfinite(exact) && exact != 0)
    s.maxError = std::max(s.maxError, std::fabs(double(asFloat(got)) - exact) / ulpOf(exact));
}

// Checks one input. Special operands (NaN, infinities, zeros, negative operands of the logs) must
// give glibc's bits exactly; every other result must be within `bound` ulps of the correctly rounded.
inline void checkOne(Program& p, MathFn fn, uint32_t x, uint32_t bound, Stats& s) {
  ++s.inputs;
  const uint32_t got = p.run(x), lib = glibcF32(fn, x);
  const bool isLog = fn == MathFn::Log || fn == MathFn::Log2 || fn == MathFn::Log10;
  const uint32_t mag = x & 0x7fffffff;
  const bool inverse = fn == MathFn::Asin || fn == MathFn::Acos;
  const bool special =
      mag >= 0x7f800000 || (isLog && (mag == 0 || (x >> 31))) || (inverse && mag > 0x3f800000);
  auto problem = [&](const std::string& what) {
    if (s.problems.size() < 10)
      s.problems.push_back(fmt::format("{}(0x{:08x} = {:a}) = 0x{:08x}: {}", ir::lower::mathFnName(fn), x,
                                       asFloat(x), got, what));
  };
  score(
      s, x, got, lib, special, [&](double& exact) { return correctlyRounded(fn, x, exact); }, bound, problem);
}

// Inputs dense where the function is interesting, and spread over every f32 value: specials, then
// `randomCount` uniform bit patterns and about as many chosen per function (ranges and neighbourhoods).
inline std::vector<uint32_t> inputsFor(MathFn fn, size_t randomCount, uint32_t seed) {
  std::vector<uint32_t> in = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
                              0x7fc12345, 0xffc12345, 0x7f812345, 0xff812345, 0x7f800001, 0x7fffffff,
                              0xffffffff, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
                              0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000};
  std::mt19937 rng(seed);
  auto around = [&](uint32_t centre, uint32_t n) { // n consecutive floats each side (same sign)
    for (uint32_t k = 0; k <= 2 * n; ++k)
      if (int64_t(centre) - n + k >= int64_t(centre & 0x80000000)) in.push_back(centre - n + k);
  };
  auto uniformIn = [&](double lo, double hi, size_t n) { // uniform in value
    std::uniform_real_distribution<double> u(lo, hi);
    for (size_t k = 0; k < n; ++k)
      in.push_back(asBits(static_cast<float>(u(rng))));
  };
  auto logUniform = [&](int e0, int e1, bool bothSigns, size_t n) { // every binade alike
    std::uniform_int_distribution<uint32_t> m(0, 0x7fffff);
    std::uniform_int_distribution<int> e(e0, e1);
    for (size_t k = 0; k < n; ++k) {
      const int ex = e(rng);
      const uint32_t b =
          ex < -126 ? (m(rng) >> std::min(23, -126 - ex)) : (uint32_t(ex + 127) << 23 | m(rng));
      in.push_back(b | (bothSigns && (rng() & 1) ? 0x80000000 : 0));
    }
  };
  const size_t n = randomCount / 4;
  for (int e = -149; e <= 127; ++e)
    in.push_back(asBits(std::ldexp(1.0f, e))), in.push_back(asBits(-std::ldexp(1.0f, e)));
  switch (fn) {
  case MathFn::Exp:
  case MathFn::Exp2:
  case MathFn::Exp10: {
    // Overflow, the last normal and the last nonzero results, from each side.
    const double lo = fn == MathFn::Exp2 ? -151 : fn == MathFn::Exp ? -104 : -46;
    const double hi = fn == MathFn::Exp2 ? 129 : fn == MathFn::Exp ? 89 : 39;
    const double scale = fn == MathFn::Exp2 ? 1 : fn == MathFn::Exp ? std::log(2.0) : std::log10(2.0);
    for (double t : {128.0, -126.0, -149.0, -150.0})
      around(asBits(static_cast<float>(t * scale)), 20000);
    for (int k = -160; k <= 140; ++k)
      in.push_back(asBits(float(k))), in.push_back(asBits(float(k) + 0.5f));
    uniformIn(lo, hi, 2 * n);
    logUniform(-149, 7, true, n); // small operands: results near 1
    around(0x3f800000, 20000), around(0xbf800000, 20000);
    break;
  }
  case MathFn::Sin:
  case MathFn::Cos:
  case MathFn::Tan: {
    // Next to multiples of pi/2 (results near 0 or +-1) up to 2^20, and where the reduction is
    // hardest: the floats nearest multiples of pi/2 all the way up (k * pi/2 for k up to 2^110).
    for (int k = 1; k <= 64; ++k)
      around(asBits(static_cast<float>(k * M_PI / 2)), 300);
    for (int k = 64; k <= (1 << 20); k = k * 5 / 4)
      around(asBits(static_cast<float>(k * M_PI / 2)), 40);
    std::uniform_int_distribution<int> ke(0, 110);
    for (size_t k = 0; k < n / 4; ++k) {
      const __float128 mult = ldexpq(__float128(double(rng() | 1)), ke(rng) - 32) * M_PI_2q;
      in.push_back(asBits(static_cast<float>(mult)));
    }
    around(0x39800000, 20000), around(0xb9800000, 20000); // the 2^-12 threshold
    uniformIn(-10, 10, n + n / 2);
    uniformIn(-1e5, 1e5, n / 2);
    logUniform(-149, 127, true, 2 * n);
    break;
  }
  case MathFn::Asin:
  case MathFn::Acos: {
    around(0x3f800000, 20000), around(0xbf800000, 20000); // +-1, where sqrt(1 - x^2) vanishes
    around(0x3f3504f3, 20000), around(0xbf3504f3, 20000); // 1/sqrt(2), where a and s swap
    around(0x39800000, 20000), around(0xb9800000, 20000); // the 2^-12 threshold
    for (int i = 1; i <= 64; ++i) // where t = min(a, s) / max(a, s) meets the grid points i/64
      around(asBits(float(std::sin(std::atan(i / 64.0)))), 100),
          around(asBits(float(std::cos(std::atan(i / 64.0)))), 100);
    uniformIn(-1, 1, 4 * n);
    logUniform(-149, -1, true, n);
    break;
  }
  case MathFn::Atan: {
    around(0x3f800000, 20000), around(0xbf800000, 20000); // |x| = 1, where 1/x takes over
    around(0x39800000, 20000), around(0xb9800000, 20000); // the 2^-12 threshold
    around(0x4b800000, 2000), around(0x7f7fffff, 2000);   // pi/2 - 1/x rounds to pi/2
    for (int i = 1; i <= 64; ++i)                         // the grid points i/64 and 64/i
      around(asBits(i / 64.0f), 200), around(asBits(64.0f / i), 200);
    uniformIn(-4, 4, 2 * n);
    logUniform(-149, 127, true, 2 * n);
    break;
  }
  default: {
    around(0x3f800000, 100000); // near 1, where the result is near 0
    for (int k = -45; k <= 38; ++k)
      in.push_back(asBits(std::pow(10.0f, float(k))));
    logUniform(-149, 127, false, 2 * n);
    logUniform(-149, -127, false, n / 2); // subnormal operands
    uniformIn(0.5, 2.0, n / 2);
    break;
  }
  }
  for (size_t k = 0; k < randomCount; ++k)
    in.push_back(uint32_t(rng()));
  return in;
}

// rsqrt (tests/unit/test_math_exact.cpp, tests/bench/bench_math.cpp).
template <typename T, typename B> inline T fromBits(B b) {
  T t;
  std::memcpy(&t, &b, sizeof(T));
  return t;
}
template <typename B, typename T> inline B toBits(T t) {
  B b = 0;
  std::memcpy(&b, &t, sizeof(T));
  return b;
}
// Format traits by width: a value's bits as __float128 and back (one rounding).
inline __float128 toQuad(uint64_t b, uint32_t w) {
  return w == 16   ? __float128(double(fromBits<_Float16>(uint16_t(b))))
         : w == 32 ? __float128(fromBits<float>(uint32_t(b)))
                   : __float128(fromBits<double>(b));
}
inline uint64_t fromQuad(__float128 q, uint32_t w) {
  return w == 16   ? toBits<uint16_t>(_Float16(double(q))) // q exact in double where it matters (below)
         : w == 32 ? toBits<uint32_t>(float(q))
                   : toBits<uint64_t>(double(q));
}
inline uint64_t magMask(uint32_t w) {
  return (uint64_t(1) << (w - 1)) - 1;
}

// The correctly rounded 1/sqrt(x) for a positive finite x: a candidate from quad precision, then the
// neighbouring midpoints m tested exactly (m has at most 54 significant bits, so m^2 is exact in 113,
// and one fmaq gives the sign of m^2 * x - 1).
inline uint64_t rsqrtCorrect(uint64_t x, uint32_t w) {
  const __float128 q = toQuad(x, w);
  uint64_t y = fromQuad(1 / sqrtq(q), w);
  for (int pass = 0; pass < 2; ++pass) {
    const __float128 yq = toQuad(y, w), up = toQuad(y + 1, w), down = toQuad(y - 1, w);
    if (fmaq((yq + up) / 2 * ((yq + up) / 2), q, -1) < 0)
      ++y;
    else if (fmaq((yq + down) / 2 * ((yq + down) / 2), q, -1) > 0)
      --y;
  }
  return y;
}
// OpenCL.std rsqrt's op list (ir/lower_math_exact.cpp) on a w-bit operand.
inline Program rsqrtProgram(uint32_t w) {
  return Program(
      [](ir::lower::Builder& b, const std::vector<ValueId>& x) { return ir::lower::buildRsqrt(b, x[0]); },
      {w});
}
// A kernel k(T x[, T y], __global T* out) on w-bit floats, in SPIR-V text: `body` stores its results
// (it may use %x, %y, %out, %T, %pT, %ocl and the %ulong constants %ulong_0 .. %ulong_<consts - 1>).
inline std::string mathKernelText(uint32_t w, bool withY, size_t consts, const std::string& body) {
  std::string text = fmt::format(R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Float16
OpCapability Float64
%ocl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%ulong = OpTypeInt 64 0
%T = OpTypeFloat {}
%pT = OpTypePointer CrossWorkgroup %T
%fnty = OpTypeFunction %void %T {}%pT
)",
                                 w, withY ? "%T " : "");
  for (size_t i = 0; i < consts; ++i)
    text += fmt::format("%ulong_{0} = OpConstant %ulong {0}\n", i);
  text += "%k = OpFunction %void None %fnty\n%x = OpFunctionParameter %T\n";
  if (withY) text += "%y = OpFunctionParameter %T\n";
  return text + "%out = OpFunctionParameter %pT\n%entry = OpLabel\n" + body + "OpReturn\nOpFunctionEnd\n";
}
// A module of SPIR-V text and its validated view.
struct LoadedModule {
  std::unique_ptr<spirv::Module> module;
  std::unique_ptr<spirv::ModuleView> view;
  explicit LoadedModule(const std::string& text)
      : module(std::make_unique<spirv::Module>(spirv::readText(text, "math.spvasm"))),
        view(std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*module))) {}
};

} // namespace spvhls::mathcheck
