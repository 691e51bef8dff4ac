// Results nobody gets. One sequence takes four asyncs and is released without a get: the release
// waits for the four task threads (their stores stay) and discards their completions; with
// GetCapacity 1 the later threads find room only because the release discards while it waits.
// A second sequence is never released nor retrieved: the kernel's end waits for it the same way.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__put(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__put(int h, global int* b, int i, int v);
void ts_release(int h);

__attribute__((noinline)) void put(global int* b, int i, int v) { b[i] = v * 7 - i; }

kernel void discard(global const int* a, global int* b, global int* c, global int* d, int n) {
  int h = ts_create__put(-1, -1, 1, 4);
  for (int i = 0; i < n; ++i) ts_async__put(h, b, i, a[i]);
  ts_release(h);
  for (int i = 0; i < n; ++i) c[i] = b[i] + 1;
  int h2 = ts_create__put(-1, -1, 1, 4);
  for (int i = 0; i < n; ++i) ts_async__put(h2, d, i, c[i]);
}
