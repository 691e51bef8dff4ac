// OpenCL.std fma and mad on the fused multiply-add units (rtlgen/units/fp_fma.h), float and double:
// every triple of 13 special values (zeros of both signs, 1, -1, 0.5, 1 + ulp, the smallest
// subnormal, the largest finite value, infinities, quiet and signalling NaNs with payloads, a negative
// NaN), then 256 random bit patterns, then 256 finite triples in +-[0.25, 2) (from r0 on), which also
// feed two loop-carried recurrences, acc = fma(a[i], b[i], acc) and acc2 = mad(acc2, c[i], a[i]).
// mad rounds once, as fma (the interpreter's choice). The half version is ffma_half.cl (no native
// check there: the C shim has no half type).
kernel void ffma(global const float* a, global const float* b, global const float* c, global float* o,
                 global const double* d, global const double* e, global const double* f, global double* p,
                 int n, int r0) {
  for (int i = 0; i < n; ++i) {
    float x = a[i], y = b[i], z = c[i];
    o[3 * i] = fma(x, y, z);
    o[3 * i + 1] = mad(y, z, x);
    o[3 * i + 2] = fma(x, 3.0f, -z);
  }
  float acc = c[r0], acc2 = 1.0f;
  for (int i = r0; i < n; ++i) {
    acc = fma(a[i], b[i], acc);
    acc2 = mad(acc2, c[i], a[i]);
  }
  o[3 * n] = acc;
  o[3 * n + 1] = acc2;
  for (int i = 0; i < n; ++i) {
    double x = d[i], y = e[i], z = f[i];
    p[3 * i] = fma(x, y, z);
    p[3 * i + 1] = mad(z, x, y);
    p[3 * i + 2] = fma(-x, y, 0.1);
  }
  double dacc = f[r0], dacc2 = 1.0;
  for (int i = r0; i < n; ++i) {
    dacc = fma(d[i], e[i], dacc);
    dacc2 = mad(dacc2, f[i], d[i]);
  }
  p[3 * n] = dacc;
  p[3 * n + 1] = dacc2;
}
