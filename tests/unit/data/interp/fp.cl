// Floating-point differential tests (see fp_common.h); -ffp-contract=off keeps a * b + c unfused.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "fp_common.h"

__kernel void fp32(__global const float* a, __global const float* b, __global const float* c, __global const int* iv,
                   __global const uint* uv, __global const long* lv, __global float* o, __global long* io, int n) {
  for (int i = 0; i < n; ++i) fp32_case(a[i], b[i], c[i], iv[i], uv[i], lv[i], o + i * FP_NF, io + i * FP_NI);
}

__kernel void fp64(__global const double* a, __global const double* b, __global const double* c, __global const int* iv,
                   __global const uint* uv, __global const long* lv, __global double* o, __global long* io, int n) {
  for (int i = 0; i < n; ++i) fp64_case(a[i], b[i], c[i], iv[i], uv[i], lv[i], o + i * FP_NF, io + i * FP_NI);
}

__kernel void fp16(__global const half* a, __global const half* b, __global const half* c, __global const int* iv,
                   __global half* o, __global long* io, int n) {
  for (int i = 0; i < n; ++i) fp16_case(a[i], b[i], c[i], iv[i], o + i * 11, io + i * 6);
}

// Saturating conversions (OpenCL only; the test computes the expected clamps itself).
__kernel void sat(__global const float* a, __global int* s, __global uint* u, int n) {
  for (int i = 0; i < n; ++i) {
    s[i] = convert_int_sat(a[i]);
    u[i] = convert_uint_sat(a[i]);
  }
}

// Out-of-range conversion: undefined in OpenCL, an error in the interpreter.
__kernel void badconv(__global const float* a, __global int* s) { s[0] = (int)a[0]; }

// lgamma is not implemented by the interpreter: the error must name it.
__kernel void unsupported(__global float* a) { a[0] = lgamma(a[0]); }

// Vector float operations, component-wise (checked against scalar host arithmetic).
__kernel void vec4(__global const float4* a, __global const float4* b, __global float4* o, __global int4* io) {
  float4 x = a[0], y = b[0];
  o[0] = x * y + sqrt(fabs(x));
  o[1] = fma(x, y, (float4)(0.5f, -0.5f, 1e-8f, 3.0f));
  o[2] = convert_float4(convert_int4(x * 100.0f)) / y;
  o[3] = fmin(x, y) - floor(y);
  io[0] = isless(x, y) + isnan(x) * 2;
}

// Saturating integer conversions are not implemented: the error must say so.
__kernel void isat(__global const int* a, __global char* c) { c[0] = convert_char_sat(a[0]); }
