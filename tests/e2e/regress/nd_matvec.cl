// A matrix-vector product, a work-item per row: the kernel's own loop runs inside the loop over
// work-items (ND-range kernels in hardware, issue 16).
kernel void nd_matvec(global const int* m, global const int* x, global int* y, int cols) {
  size_t r = get_global_id(0);
  int acc = 0;
  for (int c = 0; c < cols; ++c) acc += m[r * cols + c] * x[c];
  y[r] = acc;
}
