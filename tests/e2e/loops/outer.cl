// An outer loop pipelined around its inner loop (docs/loop-controls.md "Outer loops"): each row
// first computes a scale with two 32-bit divisions (about 70 cycles), then runs an inner loop of n
// iterations. In the FSM (the default) a row's divisions and its inner loop run one after the other;
// as one pipeline, the next row's divisions overlap this row's inner loop, as far as
// MaxConcurrencyINTEL lets rows overlap.
kernel void outer(global const int* a, global const int* d, global int* b, int rows, int n) {
#pragma unroll 1
  for (int r = 0; r < rows; ++r) {
    int q = a[r * n] / (d[r] | 1);
    q = q / ((d[r] >> 4) | 1) + 1;
    for (int i = 0; i < n; ++i) b[r * n + i] = a[r * n + i] * q + i;
  }
}
