// Four task sequences of one task function, one per quarter of a[0..n), then four gets.
// Task threads only read a; the kernel writes out only after the gets. Run spec: n = 64.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__sum_range(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__sum_range(int h, global const int* a, int lo, int hi);
int ts_get__sum_range(int h);
void ts_release(int h);

__attribute__((noinline)) int sum_range(global const int* a, int lo, int hi) {
  int s = 0;
  for (int i = lo; i < hi; ++i) s += a[i] * 3 - (a[i] >> 2);
  return s;
}

kernel void parallel4(global const int* a, global int* out, int n) {
  int q = n / 4;
  int h0 = ts_create__sum_range(-1, -1, 1, 1);
  int h1 = ts_create__sum_range(-1, -1, 1, 1);
  int h2 = ts_create__sum_range(-1, -1, 1, 1);
  int h3 = ts_create__sum_range(-1, -1, 1, 1);
  ts_async__sum_range(h0, a, 0, q);
  ts_async__sum_range(h1, a, q, 2 * q);
  ts_async__sum_range(h2, a, 2 * q, 3 * q);
  ts_async__sum_range(h3, a, 3 * q, n);
  int r0 = ts_get__sum_range(h0);
  int r1 = ts_get__sum_range(h1);
  int r2 = ts_get__sum_range(h2);
  int r3 = ts_get__sum_range(h3);
  ts_release(h0);
  ts_release(h1);
  ts_release(h2);
  ts_release(h3);
  out[0] = r0;
  out[1] = r1;
  out[2] = r2;
  out[3] = r3;
  out[4] = r0 + r1 + r2 + r3;
}
