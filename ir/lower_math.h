// The f32 OpenCL.std exponentials, logarithms, sine, cosine, tangent, arctangent, arcsine, arccosine and
// pow as expansions into HLS IR operations (f64 adds, multiplies, divides and square roots, conversions,
// integer logic on the bits), shared by the translator (lower_math.cpp) and the unit tests that measure
// their error (tests/unit/test_math_expansion.cpp, test_math_pow.cpp).
#pragma once

#include <optional>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

// Pow and Atan2 take two operands (buildMath2F32); the others one (buildMathF32).
enum class MathFn { Exp, Exp2, Exp10, Log, Log2, Log10, Sin, Cos, Tan, Atan, Asin, Acos, Pow, Atan2 };

// OpenCL.std's name of the function ("exp", ...).
const char* mathFnName(MathFn fn);
// The bound on the expansion's error in ulps of the f32 result against the correctly rounded value
// (measured in docs/floating-point.md).
uint32_t mathMaxUlps(MathFn fn);
// How far glibc 2.36's float function (the interpreter's) is from the correctly rounded value: 1 ulp,
// 2 for log10f (glibc's documented x86-64 bounds, which the sweep in tests/bench/bench_math.cpp meets).
uint32_t glibcMaxUlps(MathFn fn);
// The function an OpenCL.std extended instruction number names, if it is built.
std::optional<MathFn> mathFnOf(uint32_t openclStd);
// Emits fn(x) for x the bits of an f32 value; the result is the f32 result's bits (special cases as
// glibc's expf ... log10f, sinf, cosf, tanf, atanf give them).
ValueId buildMathF32(Builder& b, MathFn fn, ValueId x);
// fn(x) for x the bits of a half: the f32 expansion of the widened value rounded once to half. Its
// error is 2^-13 of a half ulp before that rounding, so the result is the correctly rounded half or
// its neighbour (kMathF16MaxUlps), and for every half it is what the interpreter computes (glibc's
// float function rounded to half): tests/unit/test_math_expansion.cpp checks all 65,536.
inline constexpr uint32_t kMathF16MaxUlps = 1;
ValueId buildMathF16(Builder& b, MathFn fn, ValueId x);
// pow(x, y) on f32 bits: within 1 ulp of the correctly rounded result, special cases as glibc's powf
// gives them for quiet NaNs (the interpreter's operands reach powf through double).
ValueId buildPowF32(Builder& b, ValueId x, ValueId y);
// atan2(y, x) on f32 bits (y first, as OpenCL.std orders them): within 1 ulp of the correctly rounded
// result, special cases as glibc's atan2f gives them.
ValueId buildAtan2F32(Builder& b, ValueId y, ValueId x);
// pow or atan2 of f32 bits.
ValueId buildMath2F32(Builder& b, MathFn fn, ValueId x, ValueId y);
// pow or atan2 on half bits: the float expansion on the widened operands rounded to half. Unlike the
// one-operand functions, not checked on every operand pair, so recorded as an approximation
// (kMathF16MaxUlps).
ValueId buildMath2F16(Builder& b, MathFn fn, ValueId x, ValueId y);

// An op of `kind` with a `width`-bit result (imm: a conversion's operand width, else 0), folded when
// every operand is a constant.
ValueId emitFolded(Builder& b, OpKind kind, uint32_t width, const std::vector<ValueId>& operands,
                   uint64_t imm);

// OpenCL.std rsqrt and fmod (ir/lower_math_exact.cpp). rsqrt of half and float: correctly rounded,
// bit-exact with the interpreter; of double: within kRsqrtF64MaxUlps of the correctly rounded result.
// fmod of half and float: exact, glibc's special values.
inline constexpr uint32_t kRsqrtF64MaxUlps = 1;
ValueId buildRsqrt(Builder& b, ValueId x);
ValueId buildFmod(Builder& b, ValueId x, ValueId y);

} // namespace spvhls::ir::lower
