// Core group instructions (OpGroupIAdd ... OpGroupSMax, OpGroupBroadcast, OpGroupAll, OpGroupAny)
// from OpenCL C's sub_group_* (cl_khr_subgroups) and work_group_* built-ins; test_interp_ndrange.cpp
// computes the expected values.

#define NINE(p, T, x, o)                                                                                  \
  o[0] = p##_reduce_add(x); o[1] = p##_reduce_min(x); o[2] = p##_reduce_max(x);                           \
  o[3] = p##_scan_inclusive_add(x); o[4] = p##_scan_inclusive_min(x); o[5] = p##_scan_inclusive_max(x);   \
  o[6] = p##_scan_exclusive_add(x); o[7] = p##_scan_exclusive_min(x); o[8] = p##_scan_exclusive_max(x);

kernel void sg_int(global const int* a, global int* out) {
  size_t g = get_global_id(0);
  global int* o = out + 9 * g;
  NINE(sub_group, int, a[g], o)
}

kernel void sg_uint(global const uint* a, global uint* out) {
  size_t g = get_global_id(0);
  global uint* o = out + 9 * g;
  NINE(sub_group, uint, a[g], o)
}

kernel void sg_long(global const long* a, global long* out) {
  size_t g = get_global_id(0);
  global long* o = out + 9 * g;
  NINE(sub_group, long, a[g], o)
}

kernel void sg_float(global const float* a, global float* out) {
  size_t g = get_global_id(0);
  global float* o = out + 9 * g;
  NINE(sub_group, float, a[g], o)
}

kernel void sg_misc(global const int* a, global int* out) {
  size_t g = get_global_id(0);
  int x = a[g];
  out[3 * g] = sub_group_broadcast(x, 2);
  out[3 * g + 1] = sub_group_any(x > 40);
  out[3 * g + 2] = sub_group_all(x > -40);
}

kernel void wg_int(global const int* a, global int* out) {
  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  global int* o = out + 12 * g;
  int x = a[g];
  NINE(work_group, int, x, o)
  o[9] = work_group_broadcast(x, 1, 1);
  o[10] = work_group_any(x > 40);
  o[11] = work_group_all(x > -40);
}

// A work-group collective that some work-items skip: a deadlock, reported.
kernel void wg_divergent(global const int* a, global int* out) {
  size_t g = get_global_id(0);
  if (a[g] > 0) out[g] = work_group_reduce_add(a[g]);
}
