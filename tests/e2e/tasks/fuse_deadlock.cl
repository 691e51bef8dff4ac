int ts_create__twice(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__twice(int h, int x);
int ts_get__twice(int h);
void ts_release(int h);

__attribute__((noinline)) int twice(int x) { return 2 * x + 1; }

kernel void fuse_deadlock(global const int* a, global int* out, int n) {
  int h = ts_create__twice(-1, -1, 16, 16);
  for (int i = 0; i < n; ++i) ts_async__twice(h, a[i]);
  for (int i = 0; i < n; ++i)
    if (i < n / 2) {
      out[2 * i] = ts_get__twice(h);
      out[2 * i + 1] = ts_get__twice(h);
    }
  ts_release(h);
}
