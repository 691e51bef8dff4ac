// A private array per work-item on a 2-D range (work-groups of 1 x 8, an early return): the
// work-items in flight share one RAM for it, so the loop over work-items keeps its dependences
// through it, and none through b, updated in place (ND-range kernels in hardware, issue 16).
kernel void nd_private(global const int* a, global int* b, int n) {
  size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0);
  if (g >= n) return;
  int t[4];
  for (int i = 0; i < 4; ++i) t[i] = a[g * 4 + i] * (i + 1);
  int s = 0;
  for (int i = 0; i < 4; ++i) s = s * 3 + t[(i + (int)g) & 3];
  b[g] = s + b[g]; // in place: each work-item its own element
}
