// Subgroup lanes' memory accesses joined (issue 16): consecutive elements from a lane 0 aligned to
// their width become one wide access (ints, shorts, longs, a block read, a store), one address under
// the lanes' predicates one access; the others stay one per lane (lane 0 one element past an aligned
// address, elements two apart, an unaligned block read, stores under lane-dependent predicates).
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void nd_sg_wide(global const int* a, global const short* h, global const long* d, global int* b,
                       global int* c) {
  size_t i = get_global_id(0), g = get_group_id(0);
  int x = a[i];       // joined: 256 bits
  short s = h[i];     // joined: 128 bits
  long l = d[i];      // joined: 512 bits
  int y = a[i + 1];   // per lane
  int w = a[2 * i];   // per lane
  uint u = intel_sub_group_block_read((global const uint*)a + g * 32 + 8); // joined
  uint v = intel_sub_group_block_read((global const uint*)a + g * 32 + 1); // per lane
  int r = x + s * 3 + (int)(l >> 7) * 5 + y * 7 + w * 11 + (int)u * 13 + (int)v * 17 + sub_group_reduce_add(x);
  b[i] = r;                                                              // joined
  if (get_sub_group_local_id() == 5) c[get_sub_group_id() + g * 4] = r; // one store, lane 5's r
  if (r & 1) c[64 + i] = x;                                              // per lane
}
