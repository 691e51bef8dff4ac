// Conversions with an explicit rounding mode (FPRoundingMode RTE, RTZ, RTP, RTN): integers to float
// and double, double to float, float and double to half on the conversion units in that mode; float
// and double to integers rounded to an integral value first (rint, ceil, floor), then converted.
// Inputs: halfway and just-off-halfway values, values beyond half's range and in its subnormals,
// infinities, NaN, zeros of both signs. No native check: the C shim has no rounding-mode built-ins.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void fconvmode(global const int* si, global const ulong* ul, global const float* f, global const double* d,
                      global float* of, global double* od, global half* oh, global int* oi, global uint* ou) {
  for (int i = 0; i < 16; ++i) {
    of[8 * i] = convert_float_rtz(si[i]);
    of[8 * i + 1] = convert_float_rtp(si[i]);
    of[8 * i + 2] = convert_float_rtn(ul[i]);
    of[8 * i + 3] = convert_float_rtp(ul[i]);
    of[8 * i + 4] = convert_float_rtz(d[i]);
    of[8 * i + 5] = convert_float_rtp(d[i]);
    of[8 * i + 6] = convert_float_rtn(d[i]);
    of[8 * i + 7] = convert_float_rte(d[i]);
    od[2 * i] = convert_double_rtz(ul[i]);
    od[2 * i + 1] = convert_double_rtn((long)ul[i]);
    oh[4 * i] = convert_half_rtz(f[i]);
    oh[4 * i + 1] = convert_half_rtp(f[i]);
    oh[4 * i + 2] = convert_half_rtn(d[i]);
    oh[4 * i + 3] = convert_half_rte(f[i]);
    oi[4 * i] = convert_int_sat_rte(f[i]);
    oi[4 * i + 1] = convert_int_sat_rtp(d[i]);
    oi[4 * i + 2] = convert_int_sat_rtn(f[i]);
    oi[4 * i + 3] = convert_int_sat_rte(d[i]);
    ou[2 * i] = convert_uint_sat_rtn(f[i]);
    ou[2 * i + 1] = convert_uint_sat_rtp(d[i]);
  }
}
