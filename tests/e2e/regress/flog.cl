// OpenCL.std log, log2, log10 on float, built as expansions (ir/lower_math.cpp; within 1 ulp of the
// correctly rounded result, so `spvhls sim` compares the IR evaluator's run with the interpreter's
// glibc within 1 ulp and the RTL with that run bit for bit): special values (zeros, infinities, quiet
// and signalling NaNs, subnormals, negative operands), powers of two and ten, values next to 1, then
// pseudo-random bit patterns and positive floats.
kernel void flog(global const uint* bits, global float* out, int n, int m) {
  uint s = 12345u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint b = bits[i];
    if (i >= m) // every other one any positive float (every binade alike), the others any bit pattern
      b = (i & 1) ? s : s >> 1;
    float x = as_float(b);
    global float* o = out + 3 * i;
    o[0] = log(x);
    o[1] = log2(x);
    o[2] = log10(x);
  }
}
