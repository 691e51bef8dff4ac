// Program-scope state written by a task: `acc` (no initializer, so zeros) and `hist` (initialized),
// and a `constant` table the task reads. One task sequence of a void task, invoked twice
// (async, get, async, get), so only one task thread at a time touches acc and hist; the kernel reads
// them only after the second get and copies them into out[0..16) and out[16..24).
// Globals persist from run to run: the run spec runs the kernel once (from the initializers), and the
// expected values are those of a first run. Run spec: n = 64, m = 16.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__accumulate(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__accumulate(int h, global const int* a, int lo, int hi);
void ts_get__accumulate(int h);
void ts_release(int h);

global int acc[16];
global int hist[8] = {1, 2, 3, 4, 5, 6, 7, 8};
constant int tbl[8] = {3, -1, 4, 1, -5, 9, 2, -6};

__attribute__((noinline)) void accumulate(global const int* a, int lo, int hi) {
  for (int i = lo; i < hi; ++i) {
    int v = a[i];
    acc[i & 15] += v * tbl[i & 7];
    hist[v & 7] += 1;
  }
}

kernel void globals(global const int* a, global int* out, int n, int m) {
  int h = ts_create__accumulate(-1, -1, 1, 1);
  ts_async__accumulate(h, a, 0, n / 2);
  ts_get__accumulate(h);
  ts_async__accumulate(h, a, n / 2, n);
  ts_get__accumulate(h);
  ts_release(h);
  // m (16) is a parameter so that clang -O2 keeps the copy loop.
  for (int i = 0; i < m; ++i) {
    out[i] = acc[i & 15];
    if (i < 8) out[16 + i] = hist[i];
  }
}
