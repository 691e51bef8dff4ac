// A 2-D 5-point stencil in float over a 16 x 16 grid (interior points), two sweeps through a private
// copy.
#define W 16
kernel void fstencil(global const float* in, global float* out) {
  float tmp[W * W];
  for (int i = 0; i < W * W; ++i) tmp[i] = in[i];
  for (int sweep = 0; sweep < 2; ++sweep)
    for (int y = 1; y < W - 1; ++y)
      for (int x = 1; x < W - 1; ++x)
        out[y * W + x] = 0.2f * (tmp[y * W + x] + tmp[(y - 1) * W + x] + tmp[(y + 1) * W + x] + tmp[y * W + x - 1] +
                                 tmp[y * W + x + 1]);
}
