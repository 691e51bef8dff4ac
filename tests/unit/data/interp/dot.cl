// Dot product of 32-bit vectors accumulated in 64 bits.
kernel void dot(global const int* a, global const int* b, global long* out, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i) s += (long)a[i] * b[i];
  out[0] = s;
}
