// The subgroup lanes benchmark's kernel (scripts/bench_subgroups.py): per work-item a few rounds of
// arithmetic mixed across the subgroup by shuffles, one load and one store. Built at S = 1, 8 and 16
// lanes (--subgroup-size).
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void lanes(global const uint* a, global uint* b) {
  size_t i = get_global_id(0);
  uint x = a[i];
  const uint last = get_max_sub_group_size() - 1, lane = get_sub_group_local_id();
  x = x * 2654435761u + (x >> 7);
  x ^= intel_sub_group_shuffle(x, (lane ^ 1) & last);
  x = x * 2654435761u + (x >> 9);
  x ^= intel_sub_group_shuffle(x, (lane + 3) & last);
  x = x * 2654435761u + (x >> 11);
  x ^= intel_sub_group_shuffle(x, x & last);
  b[i] = x + sub_group_reduce_add(x);
}
