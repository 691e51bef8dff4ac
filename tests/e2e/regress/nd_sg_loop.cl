// Subgroups with a loop of their own (issue 16): the loop over work-items is one pipeline, a
// subgroup's 8 lanes side by side, and the kernel's loop a sub-pipeline of it whose body is built once
// per lane. Its trip count is the same in every lane, so the lanes run it together: the lanes' m
// elements are consecutive (one 256-bit load per iteration), x[c] is one load for all of them, and
// the shuffle inside the loop is wires between the lanes' copies.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#define ROWS 32
__attribute__((intel_reqd_sub_group_size(8)))
kernel void nd_sg_loop(global const int* m, global const int* x, global int* y, int cols) {
  size_t r = get_global_id(0);
  int acc = 0;
  for (int c = 0; c < cols; ++c) {
    int v = m[c * ROWS + r];
    int next = intel_sub_group_shuffle_down(v, v, 1);
    acc += (v - next) * x[c];
  }
  // A pointer walking down the lane's column: a value carried per lane, lane j's lane 0's + 4j in
  // every iteration, so the lanes' loads are again one 256-bit load.
  global const int* p = m + r;
  for (int c = 0; c < cols; ++c) {
    acc ^= *p * (c + 1);
    p += ROWS;
  }
  y[r] = acc + sub_group_reduce_max(acc);
}
