// Three asyncs, then three gets, on one sequence with GetCapacity 1 and AsyncCapacity 2: one
// result is stored and two finished task threads wait for room, 1 + 2 = 3 outstanding, which fits.
// Each task thread reads its own 16 elements of a; out is written after the gets.
// (The length is a parameter so that clang -O2 keeps the loop: with a constant 16 it unrolls it
// fully, and `#pragma nounroll` makes llvm-spirv-15 emit an OpLoopMerge the reader rejects.)
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__weigh(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__weigh(int h, global const int* a, int base, int w, int len);
int ts_get__weigh(int h);
void ts_release(int h);

__attribute__((noinline)) int weigh(global const int* a, int base, int w, int len) {
  int s = 0;
  for (int i = 0; i < len; ++i) s += a[base + i] * (w + i);
  return s;
}

kernel void capacity_small(global const int* a, global int* out) {
  int h = ts_create__weigh(1, 0, 1, 2);
  ts_async__weigh(h, a, 0, 1, 16);
  ts_async__weigh(h, a, 16, 2, 16);
  ts_async__weigh(h, a, 32, 3, 16);
  int r0 = ts_get__weigh(h);
  int r1 = ts_get__weigh(h);
  int r2 = ts_get__weigh(h);
  ts_release(h);
  out[0] = r0;
  out[1] = r1;
  out[2] = r2;
}
