// Expected to fail: a task sequence created with AsyncCapacity 0, then an async. No async can ever
// start a task thread, so `spvhls run` reports a deadlock at the OpTaskSequenceAsyncINTEL.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__twice(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__twice(int h, int x);
int ts_get__twice(int h);
void ts_release(int h);

__attribute__((noinline)) int twice(int x) { return 2 * x + 1; }

kernel void deadlock_async0(global const int* a, global int* out) {
  int h = ts_create__twice(-1, -1, 1, 0);
  ts_async__twice(h, a[0]);
  out[0] = ts_get__twice(h);
  ts_release(h);
}
