// Integer matrix multiply, n at run time (issue 15's datapath optimisations): in the innermost loop
// i * n is invariant (computed before the loop, a live-in) and k * n an induction variable's product
// (a carried sum stepped by n): no multiplier left for the addresses, 4 cycles less latency.
kernel void mm(global const int *a, global const int *b, global int *c, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int s = 0;
      for (int k = 0; k < n; k++)
        s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
