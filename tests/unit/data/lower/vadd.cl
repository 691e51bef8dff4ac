// One loop: c[i] = a[i] + b[i].
kernel void vadd(global const int* a, global const int* b, global int* c, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}
