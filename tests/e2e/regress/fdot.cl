// A float dot product: the accumulation is a recurrence through the adder (RecMII = its latency).
kernel void fdot(global const float* a, global const float* b, global float* out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  out[0] = s;
}
