// An async and its get in one iteration of a pipelined loop: the get waits for the task the async
// started, so the two must not be issued together (a stalled stage would hold back the async; this hung
// before the scheduler ordered a task's queue accesses across its two queues). Found by fuzz_tasks.py.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__t0(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__t0(int h, global const int*, int);
int ts_get__t0(int h);
void ts_release(int h);

__attribute__((noinline)) int t0(global const int* p0, int x) {
  return p0[3] * x + 1;
}

kernel void roundtrip(global const int* in0, global long* res, int c0) {
  int h0 = ts_create__t0(0, 0, 3u, 2u);
  for (int j = 0; j < c0; ++j) {
    ts_async__t0(h0, in0, j);
    res[1 + j] = (long)ts_get__t0(h0) - j;
  }
  ts_release(h0);
}
