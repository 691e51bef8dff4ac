// cl_intel_subgroups built-ins -> SPV_INTEL_subgroups (test_interp_ndrange.cpp).
__kernel void shuffles(__global const int* in, __global int* out, __global const uint* sel) {
  size_t g = get_global_id(0);
  int x = in[g];
  uint s = sel[g];
  out[g * 4 + 0] = intel_sub_group_shuffle(x, s);
  out[g * 4 + 1] = intel_sub_group_shuffle_down(x, x + 1000, s);
  out[g * 4 + 2] = intel_sub_group_shuffle_up(x - 1000, x, s);
  out[g * 4 + 3] = intel_sub_group_shuffle_xor(x, s);
}

__kernel void blocks(__global uint* in, __global uint* out) {
  size_t grp = get_group_id(0) * get_local_size(0);
  uint2 v = intel_sub_group_block_read2(in + grp * 2 + get_sub_group_id() * get_max_sub_group_size() * 2);
  intel_sub_group_block_write2(out + grp * 2 + get_sub_group_id() * get_max_sub_group_size() * 2, v * 10 + get_sub_group_local_id());
}

// Errors: a block read whose pointer differs between invocations, and a shuffle in divergent code.
__kernel void blockbad(__global uint* in, __global uint* out) {
  out[get_global_id(0)] = intel_sub_group_block_read(in + get_local_id(0));
}

__kernel void sgdiverge(__global int* out) {
  int x = (int)get_global_id(0);
  if (get_sub_group_local_id() < 2) x = intel_sub_group_shuffle(x, 0);
  out[get_global_id(0)] = x;
}
