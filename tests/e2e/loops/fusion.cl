// Loop fusion: two adjacent loops with the same trip count, fused by default into one loop whose
// iteration runs both bodies (one pipeline fill and drain instead of two, and the loops' memories
// used side by side). NoFusionINTEL on the second loop (added by add_controls.py) keeps them apart.
// The second loop reads b[i], which the first wrote in the same iteration: legal to fuse, since
// iteration i of the fused loop runs the first body before the second.
kernel void fusion(global const int* a, global int* b, global const int* c, global int* d,
                   global int* e, int n) {
#pragma unroll 1
  for (int i = 0; i < n; ++i) b[i] = a[i] * 3 + 1;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    d[i] = c[i] - 2 * i;
    e[i] = b[i] ^ c[i];
  }
}
