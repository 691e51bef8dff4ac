// Subgroups with loops whose lanes part ways (issue 16): trip counts that differ between the lanes, a
// loop only some lanes run (and leave by a break), a nest of loops inside the loop over work-items,
// a private array filled by a loop, and a block read and a broadcast inside a loop. Each such loop
// runs while some lane does; a lane's accesses happen only while it runs, and its results are those
// of the iteration it left in.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void nd_sg_diverge(global const uint* a, global const int* b, global int* out, int n) {
  size_t gid = get_global_id(0);
  int priv[4];
  for (int i = 0; i < 4; ++i) priv[i] = b[gid * 4 + i];
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    uint v = intel_sub_group_block_read(a + (gid - get_sub_group_local_id()) * n + i * 8);
    for (int j = 0; j <= (int)(gid % 3); ++j)
      acc += priv[j & 3] * (int)v + j;
    acc ^= sub_group_broadcast(acc, i & 7);
  }
  if (gid & 1) {
    for (int c = 0; c < n * 4; ++c) {
      if (b[c] > 60) break;
      acc ^= b[c] << 1;
      out[gid] = c; // stored only while this lane runs
    }
    out[gid] += acc;
  } else {
    out[gid] = acc;
  }
}
