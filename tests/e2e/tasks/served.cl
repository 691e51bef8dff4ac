// Pipelined tasks (Pipelined -1: the compiler's choice) whose bodies are one loop serving their
// invocations (docs/task-sequences.md), touching memory the way overlapping invocations can get wrong:
//   mac:  two pointer parameters into one buffer (a): invocation i reads a[i + 1], which invocation
//         i + 1 writes; the kernel reads a after the gets (the release / acquire of the extension);
//   bump: a read-modify-write of a program-scope array, whose value each invocation returns.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__mac(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__mac(int h, global int* acc, global const int* src, int i, int k);
void ts_get__mac(int h);
int ts_create__bump(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__bump(int h, int x);
int ts_get__bump(int h);
void ts_release(int h);

global int hist[8];

__attribute__((noinline)) void mac(global int* acc, global const int* src, int i, int k) {
  acc[i] = src[i + 1] * k + (acc[i] >> 1);
}

__attribute__((noinline)) int bump(int x) {
  int b = x & 7;
  hist[b] += 1;
  return hist[b] * 1000 + x;
}

kernel void served(global int* a, global const int* w, global int* out, global int* out2, int n) {
  int h = ts_create__mac(-1, -1, 16, 16);
  int g = ts_create__bump(-1, -1, 16, 16);
  for (int i = 0; i < n; ++i) ts_async__mac(h, a, a, i, w[i]);
  for (int i = 0; i < n; ++i) ts_get__mac(h);
  for (int i = 0; i < n; ++i) out[i] = a[i] + 1;
  for (int i = 0; i < n; ++i) ts_async__bump(g, w[i]);
  for (int i = 0; i < n; ++i) out2[i] = ts_get__bump(g);
  ts_release(h);
  ts_release(g);
}
