// The f32 OpenCL.std exponentials, logarithms, sine and cosine as expansions into HLS IR operations (f64 adds
// and multiplies, conversions, integer logic on the bits), shared by the translator (lower_math.cpp) and the
// unit test that measures their error (tests/unit/test_math_expansion.cpp).
#pragma once

#include <optional>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

enum class MathFn { Exp, Exp2, Exp10, Log, Log2, Log10, Sin, Cos };

// OpenCL.std's name of the function ("exp", ...).
const char* mathFnName(MathFn fn);
// The bound on the expansion's error in ulps of the f32 result against the correctly rounded value
// (measured in docs/floating-point.md).
uint32_t mathMaxUlps(MathFn fn);
// The function an OpenCL.std extended instruction number names, if it is built.
std::optional<MathFn> mathFnOf(uint32_t openclStd);
// Emits fn(x) for x the bits of an f32 value; the result is the f32 result's bits (special cases as
// glibc's expf ... log10f, sinf, cosf give them).
ValueId buildMathF32(Builder& b, MathFn fn, ValueId x);

} // namespace spvhls::ir::lower
