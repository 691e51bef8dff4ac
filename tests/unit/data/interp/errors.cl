// Kernels with undefined behaviour or unsupported constructs; each must be reported as an error.
kernel void divzero(global const int* a, global int* out, int d) { out[0] = a[0] / d; }
kernel void divoverflow(global const int* a, global int* out, int d) { out[0] = a[0] % d; }
kernel void oob_write(global int* out, int n) { for (int i = 0; i <= n; ++i) out[i] = i; }
kernel void oob_read(global const int* a, global int* out, int n) { out[0] = a[n]; }
kernel void negative_index(global int* out, int n) { out[n] = 1; }
kernel void uninit(global int* out, int n) {
  int x;
  if (n > 5) x = 1;
  out[0] = x;
}
kernel void uninit_local(global int* out, int n) {
  local int tmp[4];
  tmp[0] = n;
  out[0] = tmp[n];
}
kernel void forever(global int* out, int n) {
  while (out[0] == 0) out[1] += n;
}
kernel void floatop(global float* out, float f) { out[0] = out[0] + f; }
kernel void clampbad(global int* out, int lo, int hi) { out[0] = clamp(out[0], lo, hi); }
kernel void misaligned(global int* out, int off) { *(global int*)((global char*)out + off) = 1; }
kernel void nullptr(global int* out, int n) {
  global int* p = n > 100 ? out : 0;
  *p = n;
}
