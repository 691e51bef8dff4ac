// MaxInterleavingINTEL on an outer pipeline's inner loop (docs/loop-controls.md "Outer loops as
// pipelines"): each row runs 16 steps of a recurrence through a multiply (II 5, no memory access), so
// one call at a time leaves the row pipeline waiting; with N = 2 the inner loop is built twice and two
// rows' calls run at once. The outer loop asks for a pipeline (PipelineEnableINTEL 1).
// The variants add the controls (tests/e2e/CMakeLists.txt): interleave_1 "0=PipelineEnableINTEL 1,
// 1=MaxInterleavingINTEL 1", interleave_2 the same with 2.
kernel void interleave(global const int* x, global int* out, int rows) {
#pragma unroll 1
  for (int r = 0; r < rows; ++r) {
    int s = x[r];
#pragma unroll 1
    for (int j = 0; j < 16; ++j)
      s = s * 5 + (s >> 3) + j;
    out[r] = s;
  }
}
