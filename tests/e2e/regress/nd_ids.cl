// Every work-item built-in of an OpenCL kernel, written per work-item, on a 3-D range of 2 x 2 x 2
// work-groups (ND-range kernels in hardware, issue 16).
kernel void nd_ids(global uint* out) {
  size_t g = get_global_linear_id();
  global uint* o = out + g * 16;
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_id(d) | (get_group_id(d) << 8);
    o[6 + d] = get_global_size(d) | (get_local_size(d) << 8) | (get_num_groups(d) << 16);
    o[9 + d] = get_enqueued_local_size(d) + get_global_offset(d);
  }
  o[12] = get_work_dim();
  o[13] = get_local_linear_id();
  o[14] = g;
}
