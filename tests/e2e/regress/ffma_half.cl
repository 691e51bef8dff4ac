// OpenCL.std fma and mad on the half-precision fused multiply-add unit (rtlgen/units/fp_fma.h), with
// the data of ffma.cl's float part in half (ffma_h*.bin: every triple of 13 special values, 256
// random bit patterns, 256 finite triples in +-[0.25, 2) from r0 on, which feed two loop-carried
// recurrences). The interpreter computes half fma in double, rounding to half once (fmaHalf). No
// native check: the C shim has no half type.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void ffma_half(global const half* a, global const half* b, global const half* c, global half* o, int n,
                      int r0) {
  for (int i = 0; i < n; ++i) {
    half x = a[i], y = b[i], z = c[i];
    o[3 * i] = fma(x, y, z);
    o[3 * i + 1] = mad(y, z, x);
    o[3 * i + 2] = fma(x, (half)3.0f, -z);
  }
  half acc = c[r0], acc2 = (half)1.0f;
  for (int i = r0; i < n; ++i) {
    acc = fma(a[i], b[i], acc);
    acc2 = mad(acc2, c[i], a[i]);
  }
  o[3 * n] = acc;
  o[3 * n + 1] = acc2;
}
