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

// The OpGroupNonUniform* forms (cl_khr_subgroup_non_uniform_arithmetic, _vote, cl_khr_subgroup_ballot)
// in uniform control flow.
kernel void sg_nonuniform(global const int* a, global int* out) {
  size_t g = get_global_id(0);
  int x = a[g];
  global int* o = out + 8 * g;
  o[0] = sub_group_non_uniform_reduce_add(x);
  o[1] = sub_group_non_uniform_scan_inclusive_mul(x);
  o[2] = sub_group_non_uniform_reduce_and(x);
  o[3] = sub_group_non_uniform_scan_exclusive_xor(x);
  o[4] = sub_group_elect();
  o[5] = sub_group_non_uniform_broadcast(x, 1);
  o[6] = sub_group_broadcast_first(x);
  o[7] = sub_group_non_uniform_all_equal(x) + 2 * sub_group_non_uniform_reduce_logical_or(x > 5);
}

// In divergent control flow: not supported by the interpreter yet, and it says so.
kernel void sg_divergent(global const int* a, global int* out) {
  size_t g = get_global_id(0);
  if (a[g] > 0) out[g] = sub_group_non_uniform_reduce_add(a[g]);
}
