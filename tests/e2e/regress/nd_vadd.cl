// An ND-range kernel (issue 16): one work-item per element, four work-groups, an early return past n.
// The hardware streams the work-items through one pipeline (ir/lower_ndrange.cpp), with no dependence
// between work-items through the buffers.
kernel void nd_vadd(global const int* a, global const int* b, global int* c, int n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  c[i] = a[i] * 3 + b[i] + (int)get_local_id(0) - (int)get_group_id(0);
}
