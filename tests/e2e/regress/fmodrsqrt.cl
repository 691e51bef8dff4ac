// OpenCL.std rsqrt (float, half, double) and fmod (half) in hardware (ir/lower_math_exact.cpp):
// rsqrt on the sqrt and divide units of double (half: of float) rounded once, correctly rounded and
// bit-exact with the interpreter for float and half, within 1 ulp for double (two roundings); fmod as
// an unrolled long division, exact. Float fmod is left out: yosys needs over 20 minutes for its
// 900-stage pipeline on this machine (it was simulated bit-exact in both cluster kinds; the unit test
// covers it, docs/floating-point.md). Operands: pairs of special values (zeros, subnormals, min/max
// normal, infinities, NaNs) from `bits`, then pseudo-random bit patterns and pairs of near exponents.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void fmodrsqrt(global const uint* bits, global float* of, global half* oh, global double* od, int n,
                      int m) {
  uint s = 12345u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint bx = s, by = (i & 1) ? s * 747796405u + 2891336453u : ((s ^ (s >> 7)) & 0x83ffffffu) | (s >> 1 & 0x3e000000u);
    if (i < m) { // the special pairs, then random bits (every other y with an exponent near x's)
      bx = bits[2 * i];
      by = bits[2 * i + 1];
    }
    float x = as_float(bx), y = as_float(by);
    of[i] = rsqrt(x);
    half hx = as_half((ushort)(bx >> 16)), hy = as_half((ushort)by);
    oh[2 * i] = rsqrt(hx);
    oh[2 * i + 1] = fmod(hx, hy);
    od[i] = rsqrt(as_double(((ulong)bx << 32) | by));
  }
}
