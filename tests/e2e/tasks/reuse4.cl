// reuse.cl with four task objects instead of one: the same work, each object invoked once. Four
// instances of the task's datapath where reuse.cl has one (the area comparison in scripts/bench_tasks.py
// and the e2e.tasks.area test); the same kernel name and run spec as reuse.cl.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__scale(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__scale(int h, global const int* a, global int* b, int base, int len);
void ts_get__scale(int h);
void ts_release(int h);

__attribute__((noinline)) void scale(global const int* a, global int* b, int base, int len) {
  for (int i = 0; i < len; ++i) b[base + i] = a[base + i] * 5 + 1;
}

kernel void reuse(global const int* a, global int* b, int n) {
  int h0 = ts_create__scale(-1, -1, 1, 1);
  int h1 = ts_create__scale(-1, -1, 1, 1);
  int h2 = ts_create__scale(-1, -1, 1, 1);
  int h3 = ts_create__scale(-1, -1, 1, 1);
  int q = n / 4;
  ts_async__scale(h0, a, b, 0, q);
  ts_async__scale(h1, a, b, q, q);
  ts_async__scale(h2, a, b, 2 * q, q);
  ts_async__scale(h3, a, b, 3 * q, q);
  ts_get__scale(h0);
  ts_get__scale(h1);
  ts_get__scale(h2);
  ts_get__scale(h3);
  ts_release(h0);
  ts_release(h1);
  ts_release(h2);
  ts_release(h3);
}
