// An imperfect nest with bounds known only at run time: a running sum per row, code before and after
// the inner loop. With LoopCoalesceINTEL 2 on the row loop (added by add_controls.py; the loop carries
// `#pragma unroll 1` so that llvm-spirv writes an OpLoopMerge for it) the nest is one pipelined loop.
kernel void coalesce(global const int* in, global int* out, global int* rowsum, int rows, int cols) {
#pragma unroll 1
  for (int y = 0; y < rows; ++y) {
    int acc = y;
    for (int x = 0; x < cols; ++x) {
      acc += in[y * cols + x];
      out[y * cols + x] = acc;
    }
    rowsum[y] = acc;
  }
}
