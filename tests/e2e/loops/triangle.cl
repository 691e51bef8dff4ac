// A triangular nest (the inner trip count is the outer index) with a break out of the inner loop
// that depends on the data; LoopCoalesceINTEL 0 (all levels) on the outer loop, PeelCount 1 on it too.
kernel void triangle(global const int* in, global int* out, int n) {
#pragma unroll 1
  for (int y = 0; y < n; ++y) {
    int acc = 0;
    for (int x = 0; x <= y; ++x) {
      int v = in[y * n + x];
      if (v > 900) break;
      acc += v;
    }
    out[y] = acc;
  }
}
