// OpenCL.std sin, cos, tan and atan on float, built as expansions (ir/lower_math.cpp: for the first
// three an exact integer reduction by 64/pi for every float, a 128-entry table and short polynomials in
// double, tan = sin / cos; atan by a 65-entry table and two divides; within 1 ulp of the correctly
// rounded result): special values (zeros, infinities, NaNs, subnormals, the 2^-12 threshold
// below which sin(x) = tan(x) = atan(x) = x and cos(x) = 1), floats next to multiples of pi/2 small and huge, then
// pseudo-random bit patterns and values. `spvhls sim` compares the IR evaluator's run with the
// interpreter's glibc within 1 ulp and the RTL with that run bit for bit.
kernel void ftrig(global const uint* bits, global float* out, int n, int m) {
  uint s = 777u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint b = bits[i];
    if (i >= m) // every other one uniform in [-64, 64), the others any bit pattern
      b = (i & 1) ? s : as_uint((float)((int)(s >> 8) - 8388608) * 0x1p-17f);
    float x = as_float(b);
    out[4 * i] = sin(x);
    out[4 * i + 1] = cos(x);
    out[4 * i + 2] = tan(x);
    out[4 * i + 3] = atan(x);
  }
}
