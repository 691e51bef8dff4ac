// Floating-point subgroup reductions and scans as SIMD lanes (issue 16): float sums, products and maxima,
// double sums and half minima over a subgroup of 8, each a chain of IEEE units (or fmin/fmax logic)
// in lane order, every step rounded as the interpreter's; NaNs, infinities and signed zeros included.
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void nd_sg_float(global const float* a, global const double* d, global const half* h,
                        global float* o, global double* od, global half* oh) {
  size_t i = get_global_id(0);
  float x = a[i];
  o[3 * i + 0] = sub_group_reduce_add(x);
  o[3 * i + 1] = sub_group_non_uniform_scan_inclusive_mul(x);
  o[3 * i + 2] = sub_group_scan_exclusive_max(x);
  od[i] = sub_group_scan_exclusive_add(d[i]);
  oh[i] = sub_group_scan_inclusive_min(h[i]);
}
