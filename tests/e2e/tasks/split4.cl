// Four loops in parallel, as the vendor's task-sequence tutorials do it: four task objects of one
// function, each summing its own buffer (so no memory is shared and the cycles are predicted), all
// four asyncs first, then the four gets. The kernel's cycles are about one task's plus a small
// constant; split4_seq.cl is the same computation with plain calls, one loop after the other.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__weigh(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__weigh(int h, global const int* a, int n);
int ts_get__weigh(int h);
void ts_release(int h);

__attribute__((noinline)) int weigh(global const int* a, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * 3 - (a[i] >> 2);
  return s;
}

kernel void split4(global const int* a0, global const int* a1, global const int* a2, global const int* a3,
                   global int* out, int n) {
  int h0 = ts_create__weigh(-1, -1, 1, 1);
  int h1 = ts_create__weigh(-1, -1, 1, 1);
  int h2 = ts_create__weigh(-1, -1, 1, 1);
  int h3 = ts_create__weigh(-1, -1, 1, 1);
  ts_async__weigh(h0, a0, n);
  ts_async__weigh(h1, a1, n);
  ts_async__weigh(h2, a2, n);
  ts_async__weigh(h3, a3, n);
  out[0] = ts_get__weigh(h0);
  out[1] = ts_get__weigh(h1);
  out[2] = ts_get__weigh(h2);
  out[3] = ts_get__weigh(h3);
  ts_release(h0);
  ts_release(h1);
  ts_release(h2);
  ts_release(h3);
}
