// Shared by fp.cl and test_interp_float.cpp: the floating-point test cases (see fp_body.h).
#ifdef __OPENCL_VERSION__
#define GLOBAL __global
#else
#define GLOBAL
#endif

#define FP_NF 28 // float outputs per case
#define FP_NI 20 // integer outputs per case

#define FT float
#define FP_CASE fp32_case
#include "fp_body.h"
#undef FT
#undef FP_CASE

#define FT double
#define FP_CASE fp64_case
#include "fp_body.h"
#undef FT
#undef FP_CASE

// Half precision: the operations that are correctly rounded (no libm functions for half on the host).
static void fp16_case(half a, half b, half c, int iv, GLOBAL half* o, GLOBAL long* io) {
  o[0] = a + b;
  o[1] = a - b;
  o[2] = a * b;
  o[3] = a / b;
  o[4] = -a;
  o[5] = fma(a, b, c);
  o[6] = sqrt(a);
  o[7] = a * b + c;
  o[8] = (half)iv;
  o[9] = (half)((float)a * 3.0f); // float -> half rounding
  o[10] = (half)((double)a / 3.0);
  io[0] = a < b;
  io[1] = a == b;
  io[2] = !(a >= b);
  io[3] = isnan(a) ? 1 : 0;
  io[4] = isinf(a) ? 1 : 0;
  io[5] = (a > (half)-1000.0f && a < (half)1000.0f) ? (int)a : -7;
}
