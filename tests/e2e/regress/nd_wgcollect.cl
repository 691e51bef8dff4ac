// Work-group collectives on a 2-D range of 2x2 groups of 4x2 work-items: reductions, scans, a
// broadcast, all and any, of int, uint and float, one of them in a loop (issue 16).
kernel void nd_wgcollect(global const int* in, global const float* f, global int* out, global float* fout) {
  size_t g = get_global_linear_id();
  int x = in[g];
  uint u = (uint)x * 2654435761u;
  float y = f[g];
  int sum = work_group_reduce_add(x);
  int incl = work_group_scan_inclusive_add(x);
  int exmin = work_group_scan_exclusive_min(x);
  uint umax = work_group_reduce_max(u);
  uint exumin = work_group_scan_exclusive_min(u);
  int b = work_group_broadcast(x, 1, 1);
  int all = work_group_all(x > -900);
  int any = work_group_any(x > 900);
  float fs = work_group_reduce_add(y);
  float fi = work_group_scan_inclusive_max(y);
  float fe = work_group_scan_exclusive_min(y);
  int rounds = 0;
  for (int i = 0; i < 3; ++i) rounds += work_group_reduce_max(x + i * (int)get_local_id(0));
  out[8 * g + 0] = sum;
  out[8 * g + 1] = incl;
  out[8 * g + 2] = exmin;
  out[8 * g + 3] = (int)umax;
  out[8 * g + 4] = (int)exumin;
  out[8 * g + 5] = b;
  out[8 * g + 6] = all + 2 * any;
  out[8 * g + 7] = rounds;
  fout[3 * g + 0] = fs;
  fout[3 * g + 1] = fi;
  fout[3 * g + 2] = fe;
}
