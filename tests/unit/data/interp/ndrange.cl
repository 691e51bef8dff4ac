// ND-range execution: built-in ids, barriers with local memory, deadlocks (test_interp_ndrange.cpp).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

#define NIDS 18
__kernel void ids(__global uint* out) {
  size_t idx = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
  __global uint* o = out + idx * NIDS;
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_id(d);
    o[6 + d] = get_group_id(d);
  }
  o[9] = get_global_size(0) * 10000 + get_global_size(1) * 100 + get_global_size(2);
  o[10] = get_local_size(0) * 10000 + get_local_size(1) * 100 + get_local_size(2);
  o[11] = get_num_groups(0) * 10000 + get_num_groups(1) * 100 + get_num_groups(2);
  o[12] = get_work_dim();
  o[13] = get_sub_group_id();
  o[14] = get_sub_group_size();
  o[15] = get_sub_group_local_id();
  o[16] = get_max_sub_group_size();
  o[17] = get_num_sub_groups() * 1000 + get_local_linear_id();
}

// Tree reduction in local memory: needs every barrier.
__kernel void reduce(__global const int* in, __global int* out) {
  __local int tmp[64];
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

// Reverses each work-group's slice through local memory.
__kernel void reverse(__global const int* in, __global int* out) {
  __local int tmp[64];
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - l];
}

// Only work-item 0 reaches the barrier: a deadlock.
__kernel void divergent(__global int* out) {
  if (get_local_id(0) == 0) barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}

// Local memory does not survive from one work-group to the next: group 1 reads uninitialised memory.
__kernel void stale(__global int* out) {
  __local int tmp[1];
  if (get_group_id(0) == 0 && get_local_id(0) == 0) tmp[0] = 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[0];
}
