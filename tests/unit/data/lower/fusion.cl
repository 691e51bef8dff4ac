// Loop fusion (ir/lower_loop_fusion.cpp): adjacent loops with the same trip count, fused or not, and
// why. test_loop_transforms.cpp checks which are fused and runs each against the interpreter.

// Fused: the second loop reads b[i], written by the first in the same iteration; sums and indices of
// both loops are read after them.
kernel void same_elem(global const int* a, global int* b, global int* out, int n) {
  int s = 0, t = 0, i, j;
  for (i = 0; i < n; ++i) {
    b[i] = a[i] * 3 + 1;
    s += a[i];
  }
  for (j = 0; j < n; ++j) t = t * 5 + b[j];
  out[0] = s;
  out[1] = t;
  out[2] = i + j;
}

// Not fused: the second loop reads b[i + 1], which the first writes one iteration later.
kernel void next_elem(global const int* a, global int* b, global int* out, int n) {
  for (int i = 0; i < n; ++i) b[i] = a[i] + 1;
  int t = 0;
  for (int i = 0; i < n; ++i) t += b[i + 1] * (i + 1);
  out[0] = t;
}

// Not fused: the second loop reads the first loop's sum.
kernel void reads_sum(global const int* a, global int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += a[i];
  for (int i = 0; i < n; ++i) out[i] = a[i] - s;
}

// Not fused: the trip counts differ (n and m).
kernel void other_count(global const int* a, global int* b, global int* c, int n, int m) {
  for (int i = 0; i < n; ++i) b[i] = a[i];
  for (int i = 0; i < m; ++i) c[i] = a[i] * 2;
}

// Three loops fused into one; a store between the last two keeps those apart.
kernel void three(global const int* a, global int* b, global int* c, global int* d, global int* out, int n) {
  for (int i = 0; i < n; ++i) b[i] = a[i] + 1;
  for (int i = 0; i < n; ++i) c[i] = a[i] * 2;
  for (int i = 0; i < n; ++i) d[i] = a[i] - 3;
  out[0] = 1;
  for (int i = 0; i < n; ++i) out[i + 1] = a[i] ^ 5;
}

// Not fused: the second loop breaks out early.
kernel void breaks(global const int* a, global int* b, global int* out, int n) {
  for (int i = 0; i < n; ++i) b[i] = a[i];
  int i;
  for (i = 0; i < n; ++i)
    if (a[i] < 0) break;
  out[0] = i;
}

// Inside an outer loop: the two inner loops of each row are fused; the row loop stays.
kernel void rows(global const int* a, global int* b, global int* c, int n, int cols) {
  for (int r = 0; r < n; ++r) {
    for (int k = 0; k < cols; ++k) b[r * cols + k] = a[r * cols + k] * 7;
    for (int k = 0; k < cols; ++k) c[r * cols + k] = a[r * cols + k] + r;
  }
}

// Three loops at -O2 whose last one's sum leaves through an exit phi that the guards reach too
// (scripts/fuzz_fusion.py seed 1005): extracting it once wrote the phi through a reference that
// adding the loop's live-out op had left dangling (an internal error after loop extraction).
kernel void exit_phi(global int* a, global int* b, global int* c, global int* d, global int* out, int n,
                     int m) {
  int s0 = 1;
  for (int i = 1; i < m; ++i) { c[i] = c[i + 1] * 1 + i; if (c[i] > 0) c[3] = i; }
  int s1 = -1;
  for (int i = 0; i < n; ++i) { c[i] = d[i] * 3 + i; }
  int s2 = 3;
  for (int i = 0; i < n; ++i) { if (c[i + 1] > 0) d[3] = i; s2 += c[i + 1] ^ i; s2 += d[i] ^ i; }
  out[4] = s0;
  out[5] = s1;
  out[6] = s2;
}

// Not fused: the loops offset b by different arguments (two leaves that look alike are not the same
// element); fused: the same argument in both.
kernel void arg_offset(global int* b, global int* out, int n, int k1, int k2) {
  global int* p = b + k1;
  global int* q = b + k2;
  for (int i = 0; i < n; ++i) p[i] = i * 3;
  for (int i = 0; i < n; ++i) out[i] = q[i] + 1;
}

kernel void arg_offset_same(global int* b, global int* out, int n, int k1) {
  global int* p = b + k1;
  for (int i = 0; i < n; ++i) p[i] = i * 3;
  for (int i = 0; i < n; ++i) out[i] = p[i] + 1;
}

// Fused at -O0 too: both bounds are n - 1, computed in each header every iteration.
kernel void bound_expr(global const int* a, global int* b, global int* c, int n) {
  for (int i = 0; i < n - 1; ++i) b[i] = a[i] + a[i + 1];
  for (int i = 0; i < n - 1; ++i) c[i] = a[i] * 2;
}
