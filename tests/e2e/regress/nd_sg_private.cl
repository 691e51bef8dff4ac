// Private arrays in a kernel with subgroups: each work-item's own array, so each lane gets a slice of
// its RAM (before, the lanes shared one array and read each other's values: issue 16).
__attribute__((intel_reqd_sub_group_size(8)))
kernel void nd_sg_private(global const int* in, global int* out) {
  size_t g = get_global_id(0);
  int x = in[g];
  int priv[4];
  int table[4] = {3, 1, 4, 1};
  priv[0] = x;
  priv[1] = x * 2;
  priv[2] = x * 3;
  priv[3] = x * 5;
  table[x & 3] += x;
  int r = priv[x & 3] + table[(x >> 2) & 3] + sub_group_reduce_add(x);
  out[g] = r;
}
