// Dot product: the accumulator is a loop-carried dependence through the adder, so the II equals
// the adder's recurrence bound (RecMII).
kernel void dot(global const int* a, global const int* b, global int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  out[0] = s;
}
