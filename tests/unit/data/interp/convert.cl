// Saturating integer conversions and explicit rounding modes (test_interp_convert.cpp computes the
// same results on the host). llvm-spirv emits OpSatConvertSToU/UToS, OpSConvert/OpUConvert with
// SaturatedConversion, and FPRoundingMode decorations on OpConvert*ToF / OpFConvert / OpConvertFTo*.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void convert(global const long* l, global const ulong* ul, global const double* d, global const float* f,
                    global const int* i, global const uint* u, int n, global float* of, global double* od,
                    global int* oi, global uint* ou, global uchar* ouc, global short* os, global char* oc,
                    global ushort* oh) {
  for (int k = 0; k < n; ++k) {
    global float* F = of + k * 16;
    F[0] = convert_float_rte(l[k]);
    F[1] = convert_float_rtz(l[k]);
    F[2] = convert_float_rtp(l[k]);
    F[3] = convert_float_rtn(l[k]);
    F[4] = convert_float_rtz(ul[k]);
    F[5] = convert_float_rtp(ul[k]);
    F[6] = convert_float_rtn(ul[k]);
    F[7] = convert_float_rte(d[k]);
    F[8] = convert_float_rtz(d[k]);
    F[9] = convert_float_rtp(d[k]);
    F[10] = convert_float_rtn(d[k]);
    F[11] = convert_float_rtz(i[k]);
    F[12] = convert_float_rtp(u[k]);
    F[13] = convert_float_rtn(i[k]);
    global double* D = od + k * 4;
    D[0] = convert_double_rtz(l[k]);
    D[1] = convert_double_rtp(l[k]);
    D[2] = convert_double_rtn(ul[k]);
    D[3] = convert_double_rtz(ul[k]);
    global int* I = oi + k * 8;
    I[0] = convert_int_sat_rte(f[k]);
    I[1] = convert_int_sat(f[k]); // rtz
    I[2] = convert_int_sat_rtp(f[k]);
    I[3] = convert_int_sat_rtn(f[k]);
    I[4] = convert_int_sat_rte(d[k]);
    I[5] = convert_int_sat_rtp(d[k]);
    I[6] = convert_int_sat_rtn(d[k]);
    I[7] = (int)convert_long_sat_rtp(d[k]);
    global uint* U = ou + k * 4;
    U[0] = convert_uint_sat(l[k]);
    U[1] = convert_uint_sat(i[k]);
    U[2] = convert_uint_sat_rtn(f[k]);
    U[3] = convert_uint_sat(ul[k]);
    global uchar* UC = ouc + k * 4;
    UC[0] = convert_uchar_sat(i[k]);
    UC[1] = convert_uchar_sat(u[k]);
    UC[2] = convert_uchar_sat(l[k]);
    UC[3] = convert_uchar_sat(oc[0] - 100); // a char promoted to int, saturated back
    global short* S = os + k * 2;
    S[0] = convert_short_sat(l[k]);
    S[1] = convert_short_sat(u[k]);
    global char* C = oc + 1 + k * 2;
    C[0] = convert_char_sat(u[k]);
    C[1] = convert_char_sat(ul[k]);
    global ushort* H = oh + k * 4;
    H[0] = as_ushort(convert_half_rtz(f[k]));
    H[1] = as_ushort(convert_half_rtp(f[k]));
    H[2] = as_ushort(convert_half_rtn(d[k]));
    H[3] = as_ushort(convert_half_rtz(i[k]));
  }
}
