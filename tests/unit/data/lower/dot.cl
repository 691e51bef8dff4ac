// A reduction: the sum is carried by the loop and read after it (a live-out).
kernel void dot(global const int* a, global const int* b, global int* out, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) sum += a[i] * b[i];
  out[0] = sum;
}
