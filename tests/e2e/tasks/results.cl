// A loop-free task returning a long, invoked twice on one sequence (GetCapacity 2, AsyncCapacity 2,
// not pipelined, stall-enable clusters); the results are stored after both gets.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__mix(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__mix(int h, int x, int y);
long ts_get__mix(int h);
void ts_release(int h);

__attribute__((noinline)) long mix(int x, int y) {
  long p = (long)x * (long)y;
  long q = (long)(x - 3 * y);
  return (p << 4) ^ (q + 12345) ^ ((long)y >> 1);
}

kernel void results(global const int* a, global long* out) {
  int h = ts_create__mix(0, 1, 2, 2);
  ts_async__mix(h, a[0], a[1]);
  ts_async__mix(h, a[2], a[3]);
  long r0 = ts_get__mix(h);
  long r1 = ts_get__mix(h);
  ts_release(h);
  out[0] = r0;
  out[1] = r1;
  out[2] = r0 - r1;
}
