// An inner loop whose load and store of x[r * (m - 1) + j] never meet within one invocation, while
// consecutive invocations share an element (invocation r's last iteration stores what invocation r + 1's
// first loads): with the outer loop pipelined, the next invocation must not follow the last one as a
// later iteration would (reinvocation), the analysis holding within one invocation only.
kernel void memdep_nest(global int* x, global int* y, int rows, int m) {
  for (int r = 0; r < rows; ++r) {
    for (int j = 0; j < m; ++j)
      x[r * (m - 1) + j] = x[r * (m - 1) + j] * 2 + r;
    y[r] = r * 3;
  }
}
