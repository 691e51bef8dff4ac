int ts_create__fill(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__fill(int h, global int* b, int i, int v);
void ts_get__fill(int h);
void ts_release(int h);

__attribute__((noinline)) void fill(global int* b, int i, int v) { b[i] = v * 3 + i; }

kernel void fuse_get(global const int* a, global int* b, global int* out, int n) {
  int h = ts_create__fill(-1, -1, 16, 16);
  for (int i = 0; i < n; ++i) ts_async__fill(h, b, i, a[i]);
  for (int i = 0; i < n; ++i) ts_get__fill(h);
  for (int i = 0; i < n; ++i) out[i] = b[n - 1 - i];
  ts_release(h);
}
