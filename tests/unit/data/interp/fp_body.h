// One floating-point test case, written once and compiled both as OpenCL C (fp.cl -> SPIR-V, run by
// the interpreter) and as C++ (test_interp_float.cpp, run natively). Included by fp_common.h with FT
// (the float type) and FP_CASE (the function name) defined. Integer conversions are guarded so that
// neither side has undefined behaviour.
static void FP_CASE(FT a, FT b, FT c, int iv, uint uv, long lv, GLOBAL FT* o, GLOBAL long* io) {
  o[0] = a + b;
  o[1] = a - b;
  o[2] = a * b;
  o[3] = a / b;
  o[4] = fmod(a, b);
  o[5] = -a;
  o[6] = fma(a, b, c);
  o[7] = mad(a, b, c);
  o[8] = fabs(a);
  o[9] = sqrt(a);
  o[10] = fmin(a, b);
  o[11] = fmax(a, b);
  o[12] = floor(a);
  o[13] = ceil(a);
  o[14] = trunc(a);
  o[15] = round(a);
  o[16] = rint(a);
  o[17] = exp(a);
  o[18] = log(a);
  o[19] = pow(a, b);
  o[20] = sin(a);
  o[21] = cos(a);
  o[22] = copysign(a, b);
  o[23] = a * b + c; // two roundings: compiled with -ffp-contract=off
  o[24] = (FT)iv;
  o[25] = (FT)uv;
  o[26] = (FT)lv;
  o[27] = a < b ? a : b;
  io[0] = a == b;
  io[1] = a != b;
  io[2] = a < b;
  io[3] = a > b;
  io[4] = a <= b;
  io[5] = a >= b;
  io[6] = !(a < b);  // unordered greater-or-equal
  io[7] = !(a >= b); // unordered less-than
  io[8] = !(a == b); // unordered not-equal
  io[9] = isnan(a) ? 1 : 0;
  io[10] = isinf(a) ? 1 : 0;
  io[11] = isfinite(a) ? 1 : 0;
  io[12] = isnormal(a) ? 1 : 0;
  io[13] = signbit(a) ? 1 : 0;
  io[14] = (a >= (FT)-2147483648.0 && a < (FT)2147483648.0) ? (int)a : -7;
  io[15] = (a > (FT)-1.0 && a < (FT)4294967296.0) ? (long)(uint)a : -7;
  io[16] = (a >= (FT)-9223372036854775808.0 && a < (FT)9223372036854775808.0) ? (long)a : -7;
  io[17] = (a > (FT)-1.0 && a < (FT)256.0) ? (long)(uchar)a : -7;
  io[18] = (a >= (FT)-32768.0 && a < (FT)32768.0) ? (long)(short)a : -7;
  io[19] = (long)(a > b) + (long)(a < b) * 2 + (long)isunordered(a, b) * 4;
}
