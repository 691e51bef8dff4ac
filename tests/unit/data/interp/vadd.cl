// Vector add over a grid-stride loop (one work-item: get_global_id = 0, get_global_size = 1).
kernel void vadd(global const int* a, global const int* b, global int* c, int n) {
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) c[i] = a[i] + b[i];
}
