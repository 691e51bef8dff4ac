// Loop transformations by loop controls (ir/lower_loop_transform.cpp). test_lower.cpp adds the
// controls OpenCL C cannot spell (PeelCount, LoopCoalesceINTEL) to the OpLoopMerge that
// `#pragma unroll 1` makes llvm-spirv write.

// Full unrolling of a constant trip count with a data-dependent break: every copy exits to the same
// block, the sum and the index are read after the loop.
kernel void full_brk(global const int* a, global int* out) {
  int s = 0;
  int i;
#pragma unroll
  for (i = 0; i < 5; i++) {
    if (a[i] < 0) break;
    s += a[i] * (i + 1);
  }
  out[0] = s;
  out[1] = i;
}

// Partial unrolling of a run-time trip count with a break and values live after the loop.
kernel void partial_brk(global const int* a, global int* out, int n) {
  int s = 0;
  int i;
#pragma unroll 3
  for (i = 0; i < n; i++) {
    if (a[i] == 7) break;
    s = s * 3 + a[i];
  }
  out[0] = s;
  out[1] = i;
}

// A do-while unrolled by 2, and a nest whose inner constant loop (with an if) is fully unrolled so
// that the outer loop is pipelined.
kernel void dowhile2(global int* a, int n) {
  int i = 0;
#pragma unroll 2
  do {
    a[i] = a[i] * 2 + i;
    i++;
  } while (i < n);
}
kernel void nest_inner(global const int* a, global int* out, int rows) {
  for (int y = 0; y < rows; y++) {
    int s = 0;
#pragma unroll
    for (int t = 0; t < 4; t++) {
      int v = a[y * 4 + t];
      if (t & 1) s -= v;
      else s += v;
    }
    out[y] = s;
  }
}

// Peeling and coalescing (controls added by the test): an imperfect nest with run-time bounds, a
// triangular inner loop and values carried by the outer loop.
kernel void nest_coalesce(global const int* a, global int* out, int rows, int cols) {
  int total = 0;
#pragma unroll 1
  for (int y = 0; y < rows; y++) {
    int s = y;
    for (int x = 0; x < cols + y; x++) s += a[(y * 7 + x) & 63];
    out[y] = s;
    total += s;
  }
  out[rows] = total;
}

// The unrolling hints MinIterations, MaxIterations and IterationMultiple (controls added by the test).
kernel void hinted(global int* a, int n) {
#pragma unroll 1
  for (int i = 0; i < n; i++) a[i] = a[i] * 3 + i;
}

// A data-dependent inner trip count (coalesced by the test): the bound and start are loaded before
// the inner loop.
kernel void ragged(global const int* len, global const int* start, global const int* val, global int* out,
                   int rows) {
#pragma unroll 1
  for (int y = 0; y < rows; ++y) {
    int acc = 0;
    const int s = start[y], n = len[y];
    for (int x = 0; x < n; ++x) acc += val[s + x];
    out[y] = acc;
  }
}
