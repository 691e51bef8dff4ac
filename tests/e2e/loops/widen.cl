// Unrolling and wide accesses (docs/loop-controls.md "Unrolling, in cycles"): LANES elements per
// iteration, an inner loop fully unrolled, so that the body reads a, b and d and writes c and d at
// LANES consecutive elements each. With LANES 4 each becomes one 16-byte access (d read and written
// in place: its loads and stores each one access, apart by element); with LANES 1 every element is an
// access of its own. n: the elements, a multiple of LANES.
#ifndef LANES
#define LANES 4
#endif
#if defined(ONCHIP)
// On-chip: a private table t written and read LANES consecutive elements per iteration; with LANES 4
// its RAM has 16-byte words and each loop's four accesses to it are one (else the first loop's four
// stores share t's one write port: II 4). n: at most 64, a multiple of LANES.
kernel void widen(global const int* a, global const int* b, global int* c, global int* d, int n) {
  int t[64];
  for (int i = 0; i < n / LANES; ++i) {
#pragma unroll
    for (int k = 0; k < LANES; ++k)
      t[LANES * i + k] = a[LANES * i + k] * 3 + b[LANES * i + k];
  }
  for (int i = 0; i < n / LANES; ++i) {
#pragma unroll
    for (int k = 0; k < LANES; ++k) {
      c[LANES * i + k] = t[LANES * i + k] - k;
      d[LANES * i + k] += t[LANES * i + k] >> 2;
    }
  }
}
#elif defined(PARTIAL)
// The same work as one loop unrolled 4 times (PartialCount 4) whose trip count is a multiple of 4
// (IterationMultiple 4, added by add_controls.py): the copies share the first one's exit test, so
// their accesses share one predicate, and their induction variable steps by 4 in one addition.
kernel void widen(global const int* a, global const int* b, global int* c, global int* d, int n) {
#pragma unroll 4
  for (int i = 0; i < n; ++i) {
    c[i] = a[i] * 3 + b[i];
    d[i] += (i & 3) + 1;
  }
}
#else
kernel void widen(global const int* a, global const int* b, global int* c, global int* d, int n) {
  for (int i = 0; i < n / LANES; ++i) {
#pragma unroll
    for (int k = 0; k < LANES; ++k) {
      c[LANES * i + k] = a[LANES * i + k] * 3 + b[LANES * i + k];
      d[LANES * i + k] += k + 1;
    }
  }
}
#endif
