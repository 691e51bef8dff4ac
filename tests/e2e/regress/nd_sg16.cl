// Subgroups of 16 lanes (--subgroup-size 16; no SubgroupSize in the kernel) on a 2-D range with
// work-groups of 16 x 2: shuffles with data-dependent indices and a run-time delta (multiplexer trees
// across the lanes), broadcasts, all / any, signed and unsigned reductions and scans, and the subgroup
// built-ins (issue 16). nd_sg_ops covers the other shuffles and scans at 8 lanes.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void nd_sg16(global const int* a, global uint* b, global int* c) {
  size_t i = get_global_id(0) + get_global_id(1) * get_global_size(0);
  int x = a[i];
  uint u = (uint)x;
  uint lid = get_sub_group_local_id();
  int r0 = intel_sub_group_shuffle(x, (uint)x & 15); // a data-dependent index
  int r1 = intel_sub_group_shuffle_up(x * 2, x, 3);
  int r2 = intel_sub_group_shuffle_down(x, x + 1, (uint)(a[0] & 3));             // run-time delta
  int r3 = sub_group_broadcast(x, 5);
  int r4 = sub_group_all(x > -900) + 2 * sub_group_any(x > 990);
  int r5 = sub_group_scan_exclusive_min(x);
  uint r6 = sub_group_reduce_max(u) ^ sub_group_scan_exclusive_add(u);
  int r7 = sub_group_reduce_min(x);
  c[i] = r0 + r1 * 3 + r2 * 5 + r3 * 7 + r4 * 11 + r5 * 13 + r7 * 17 + (int)get_num_sub_groups() * 1000 +
         (int)get_sub_group_id() * 100 + (int)get_sub_group_size() * 10000 + (int)lid;
  b[i] = r6;
}
