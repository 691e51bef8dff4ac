// A tiled matrix multiply on a 2-D range: each work-group loads a 4x4 tile of A and of B into local
// memory, waits at a barrier, accumulates, and waits again before the next tile (issue 16).
#define T 4
kernel void nd_tiled_mm(global const int* a, global const int* b, global int* c, int n) {
  local int ta[T][T], tb[T][T];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  int acc = 0;
  for (int t = 0; t < n / T; ++t) {
    ta[ly][lx] = a[row * n + t * T + lx];
    tb[ly][lx] = b[(t * T + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; ++k) acc += ta[ly][k] * tb[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
