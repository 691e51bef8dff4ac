// A 5-point stencil over the interior of an R x C grid (sizes at run time): iterations independent.
kernel void stencil2d(global const int* in, global int* out, int rows, int cols) {
#pragma unroll 1
  for (int y = 1; y < rows - 1; ++y)
    for (int x = 1; x < cols - 1; ++x) {
      const int c = y * cols + x;
      out[c] = 4 * in[c] - in[c - 1] - in[c + 1] - in[c - cols] - in[c + cols];
    }
}
