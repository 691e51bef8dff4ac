// OpenCL.std exp, log10 and cos of half in hardware (ir/lower_math.cpp, buildMathF16): the float
// expansion on the widened operand rounded to half, bit-exact with the interpreter (glibc's float
// function rounded to half) for every half. Operands: special values (zeros, subnormals, min/max
// normal, infinities, quiet and signalling NaNs, overflow and underflow thresholds of exp), then
// pseudo-random bit patterns.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void fhalfmath(global const ushort* bits, global half* out, int n, int m) {
  uint s = 4242u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    ushort b = (ushort)(s >> 16);
    if (i < m)
      b = bits[i];
    half x = as_half(b);
    out[3 * i] = exp(x);
    out[3 * i + 1] = log10(x);
    out[3 * i + 2] = cos(x);
  }
}
