// A work-group reduction: each work-group sums its 16 elements in local memory, halving the active
// work-items at every step; the barriers sit in a loop whose trip count every work-item shares
// (work-group barriers in hardware, issue 16).
__attribute__((reqd_work_group_size(16, 1, 1)))
kernel void nd_wgsum(global const int* in, global int* out, global int* scaled, int k) {
  local int tmp[16];
  int lid = get_local_id(0);
  int x = in[get_global_id(0)] * k;
  tmp[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // x and lid live across the barriers; every work-item reads the group's sum.
  scaled[get_global_id(0)] = x - tmp[0] + lid;
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
