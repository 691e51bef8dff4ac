// OpenCL.std asin and acos of float, built as expansions (ir/lower_math.cpp: sqrt((1 - a)(1 + a)), one
// divide and atan's table and polynomial; within 1 ulp of the correctly rounded result, so `spvhls sim`
// compares the IR evaluator's run with the interpreter's glibc within 2 ulps and the RTL with that run
// bit for bit): special values (zeros, +-1, infinities, quiet and signalling NaNs, subnormals, just
// outside [-1, 1]), values next to +-1, 1/sqrt(2) and 2^-12, then pseudo-random values in [-1, 1] and
// bit patterns.
kernel void finv(global const uint* bits, global float* out, int n, int m) {
  uint s = 4321u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint b = bits[i % m];
    if (i >= m) // every other one uniform in [-1, 1), the others any bit pattern
      b = (i & 1) ? s : as_uint((float)((int)(s >> 8) - 8388608) * 0x1p-23f);
    float x = as_float(b);
    out[2 * i] = asin(x);
    out[2 * i + 1] = acos(x);
  }
}
