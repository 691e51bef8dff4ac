// One task sequence of a void task, invoked n / 16 times (4 for the run spec's n = 64) in a loop,
// then as many void gets in a second loop. Each task thread writes its own 16 elements of b; the
// kernel does not touch b. GetCapacity 4 + AsyncCapacity 4 >= 4 outstanding asyncs.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__scale(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__scale(int h, global const int* a, global int* b, int base, int len);
void ts_get__scale(int h);
void ts_release(int h);

__attribute__((noinline)) void scale(global const int* a, global int* b, int base, int len) {
  for (int i = 0; i < len; ++i) b[base + i] = a[base + i] * 5 + 1;
}

kernel void reuse(global const int* a, global int* b, int n) {
  int h = ts_create__scale(-1, -1, 4, 4);
  int m = n / 16;
  for (int j = 0; j < m; ++j) ts_async__scale(h, a, b, 16 * j, 16);
  for (int j = 0; j < m; ++j) ts_get__scale(h);
  ts_release(h);
}
