// Subgroup block reads and writes at 16 lanes (issue 16): four components of 16-bit elements
// (cl_intel_subgroups_short, lane i's component k at Ptr[i + 16k]) and two of 32-bit ones, around a
// reduction and a shuffle; each component one wide access (the pointers are multiples of 64 elements).
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION cl_intel_subgroups_short : enable
__attribute__((intel_reqd_sub_group_size(16)))
kernel void nd_sg_block16(global const ushort* a, global uint* b) {
  size_t base = (get_group_id(0) * get_local_size(0) + get_sub_group_id() * 16) * 4;
  ushort4 v = intel_sub_group_block_read_us4(a + base);
  uint s = sub_group_reduce_add((uint)v.x + v.w);
  uint t = intel_sub_group_shuffle_xor((uint)v.y, 5u);
  uint2 w = (uint2)(v.z * 3u + s, t ^ (uint)v.w << 16);
  intel_sub_group_block_write2(b + base / 2, w);
  intel_sub_group_block_write_us4((global ushort*)b + 1024 + base, v.wzyx);
}
