// Subgroups as SIMD lanes (issue 16): a subgroup of 8 work-items side by side in one iteration of the
// loop over work-items; a reduction, a scan, shuffles by a lane-dependent index, down by a constant
// delta and by xor, and the subgroup id, each bit-exact with the interpreter.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void nd_sg_ops(global const int* a, global int* b) {
  size_t i = get_global_id(0);
  int x = a[i];
  int s = sub_group_reduce_add(x);
  int y = intel_sub_group_shuffle(x, (get_sub_group_local_id() + 1) & 7);
  int z = intel_sub_group_shuffle_down(x, x, 1);
  int w = intel_sub_group_shuffle_xor(x, 3);
  int m = sub_group_scan_inclusive_max(x);
  // By the lane index itself: each lane its own x (a constant index in each lane's copy, a different
  // one per lane).
  int own = intel_sub_group_shuffle(x, get_sub_group_local_id());
  b[i] = s + y * 3 + z * 5 + w * 7 + m * 11 + (int)get_sub_group_id() * 100 + own * 13;
}
