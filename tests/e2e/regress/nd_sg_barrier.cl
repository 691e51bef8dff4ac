// Subgroups and work-group barriers together (issue 16): each subgroup of 8 lanes reduces its values
// with a subgroup reduction, its first lane writes the partial sum to local memory, and after a barrier
// every work-item adds the partial sums of the group's four subgroups and a shuffled neighbour's value
// kept across the barrier.
__attribute__((intel_reqd_sub_group_size(8))) __attribute__((reqd_work_group_size(32, 1, 1)))
kernel void nd_sg_barrier(global const int* in, global int* out) {
  local int partial[8];
  size_t g = get_global_id(0);
  int x = in[g];
  int s = sub_group_reduce_add(x);
  int y = intel_sub_group_shuffle_xor(x, 1u);
  if (get_sub_group_local_id() == 0) partial[get_sub_group_id()] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  int total = partial[0] + partial[1] + partial[2] + partial[3]; // 4 subgroups of 8
  out[g] = total * 3 + y - (int)get_sub_group_id();
}
