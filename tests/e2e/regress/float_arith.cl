// Floating point in hardware (issue 12, first slice): f32 and f64 add, subtract, multiply on the
// generated IEEE units, negation, every comparison and classification, on special values (zeros,
// subnormals, infinities, quiet and signalling NaNs, halfway cases) and in a recurrence (RecMII = the
// adder's latency). Built with -ffp-contract=off: no fused multiply-add.
kernel void float_arith(global const float* a, global const float* b, global float* c, global int* flags,
                        global const double* x, global double* y) {
  for (int i = 0; i < 32; ++i) {
    float p = a[i], q = b[i];
    c[3 * i] = p * q;
    c[3 * i + 1] = p + q;
    c[3 * i + 2] = -(p - q);
    flags[i] = (p < q ? 1 : 0) | (p == q ? 2 : 0) | (p != q ? 4 : 0) | (isnan(p) ? 8 : 0) | (p >= q ? 16 : 0) |
               (isinf(q) ? 32 : 0) | (isunordered(p, q) ? 64 : 0) | (p > q ? 128 : 0) | (p <= q ? 256 : 0) |
               (!(p < q) ? 512 : 0) | (!(p >= q) ? 1024 : 0);
  }
  double s = 0, t = 1;
  for (int i = 0; i < 16; ++i) {
    s += x[i] * x[i];
    t = t * x[i] - x[i + 16];
  }
  y[0] = s;
  y[1] = -s;
  y[2] = t;
  y[3] = x[0] < x[1] ? x[2] : x[3];
}
