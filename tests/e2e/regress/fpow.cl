// OpenCL.std pow of float and half, built as an expansion (ir/lower_math.cpp, buildPowF32: 2^(y log2|x|)
// in double; within 1 ulp of the correctly rounded result, so `spvhls sim` compares the IR evaluator's
// run with the interpreter's glibc within 2 ulps and the RTL with that run bit for bit): the first m
// pairs are special (zeros, infinities, quiet and signalling NaNs, +-1, integers odd and even, negative
// x, subnormals, overflow and underflow), then pseudo-random x of any binade with y chosen so that the
// result spans the float range (half: its range), every fourth y an integer and x negative.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void fpow(global const uint* xs, global const uint* ys, global float* out, global half* hout, int n,
                 int m) {
  uint s = 777u;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    float x = as_float(xs[i % m]), y = as_float(ys[i % m]);
    if (i >= m) {
      uint t = s * 1103515245u + 12345u;
      x = as_float((s >> 1) & 0x7fffffffu);
      // y * log2(x) in about [-160, 160): y = k / e, e the unbiased exponent of x (1 for 0).
      int e = (int)((as_uint(x) >> 23) & 0xff) - 127;
      float k = (float)((int)(t >> 16) % 320 - 160) + (float)(t & 0xffu) * 0x1p-8f;
      y = k / (float)(e == 0 ? 1 : e);
      if ((i & 3) == 0) {
        x = -x;
        y = rint(y);
      }
    }
    // Half: the special pairs converted, then any non-negative half x with y * log2(x) in [-20, 20).
    half hx = (half)x, hy = (half)y;
    if (i >= m) {
      ushort hb = (ushort)(s >> 17);
      int he = (int)((hb >> 10) & 0x1f) - 15;
      hx = as_half(hb);
      hy = (half)(((float)((int)(s & 0xffffu) % 40 - 20) + (float)((s >> 8) & 0xffu) * 0x1p-8f) /
                  (float)(he == 0 ? 1 : he));
      if ((i & 3) == 1) {
        hx = -hx;
        hy = rint(hy);
      }
    }
    out[i] = pow(x, y);
    hout[i] = pow(hx, hy);
  }
}
