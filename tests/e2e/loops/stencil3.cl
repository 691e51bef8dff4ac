// A 3-tap stencil over the rows of a 2-D grid whose size is known at run time. -DFULL: `#pragma
// unroll` on the tap loop (Unroll: fully unrolled, so the column loop becomes innermost and is
// pipelined); otherwise `#pragma unroll 1` (PartialCount 1: the tap loop is pipelined on its own and
// runs 3 iterations per call, the issue 13 example).
#ifdef FULL
#define TAPS _Pragma("unroll")
#else
#define TAPS _Pragma("unroll 1")
#endif
kernel void stencil3(global const int* in, global int* out, int rows, int cols) {
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      int s = 0;
      TAPS
      for (int t = 0; t < 3; ++t) s += in[y * (cols + 2) + x + t] * (t + 1);
      out[y * cols + x] = s;
    }
}
