__kernel void vadd(__global const int* a, __global const int* b, __global int* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
