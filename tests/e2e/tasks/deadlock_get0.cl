// Expected to fail: a task sequence created with GetCapacity 0, then an async and a get. The task
// thread can never store its result, so the get never returns: `spvhls run` reports a deadlock.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__twice(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__twice(int h, int x);
int ts_get__twice(int h);
void ts_release(int h);

__attribute__((noinline)) int twice(int x) { return 2 * x + 1; }

kernel void deadlock_get0(global const int* a, global int* out) {
  int h = ts_create__twice(-1, -1, 0, 1);
  ts_async__twice(h, a[0]);
  out[0] = ts_get__twice(h);
  ts_release(h);
}
