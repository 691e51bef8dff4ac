// Subgroup block reads and writes of two components (lane i's component k at Ptr[i + 8k]) around a
// reduction (issue 16); each component one 256-bit access (the pointer is a multiple of 16 elements).
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void nd_sg_block(global const uint* a, global uint* b) {
  size_t base = get_group_id(0) * get_local_size(0) * 2 + get_sub_group_id() * 16;
  uint2 v = intel_sub_group_block_read2(a + base);
  uint s = sub_group_reduce_add(v.x);
  v.y += s + get_sub_group_local_id();
  intel_sub_group_block_write2(b + base, v.yx);
}
