// OpenCL.std exp, exp2, exp10 on float, built as expansions (ir/lower_math.cpp; within 1 ulp of the
// correctly rounded result, so `spvhls sim` compares the IR evaluator's run with the interpreter's
// glibc within 1 ulp and the RTL with that run bit for bit): special values (zeros, infinities, quiet
// and signalling NaNs, subnormals), the overflow, subnormal and underflow thresholds, integers, values
// next to 0, then pseudo-random bit patterns and values.
kernel void fexp(global const uint* bits, global float* out, int n, int m) {
  uint s = 12345u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint b = bits[i];
    if (i >= m) // every other one uniform in [-128, 128), the others any bit pattern
      b = (i & 1) ? s : as_uint((float)((int)(s >> 8) - 8388608) * 0x1p-16f);
    float x = as_float(b);
    global float* o = out + 3 * i;
    o[0] = exp(x);
    o[1] = exp2(x);
    o[2] = exp10(x);
  }
}
