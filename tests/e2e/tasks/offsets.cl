// Pointer arithmetic in the caller: one task sequence of the void task scale_into, invoked 4 times
// with src = a + 16*j and dst = b + 16*j (GetCapacity 4, AsyncCapacity 4, all gets after all asyncs),
// and, concurrently, a second task sequence of add_halves on c with lo = c and hi = c + len, two
// pointer parameters into the same buffer (the task writes c[0..len) and reads c[len..2*len)).
// Each scale_into thread writes its own 16 elements of b; nobody else touches b or c until the gets.
// Run spec: len = 16 (a and b hold 64 elements, c 32).
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__scale_into(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__scale_into(int h, global const int* src, global int* dst, int len, int k);
void ts_get__scale_into(int h);
int ts_create__add_halves(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__add_halves(int h, global int* lo, global const int* hi, int len);
void ts_get__add_halves(int h);
void ts_release(int h);

__attribute__((noinline)) void scale_into(global const int* src, global int* dst, int len, int k) {
  for (int i = 0; i < len; ++i) dst[i] = src[i] * k + i;
}

__attribute__((noinline)) void add_halves(global int* lo, global const int* hi, int len) {
  for (int i = 0; i < len; ++i) lo[i] += hi[i] * 3;
}

kernel void offsets(global const int* a, global int* b, global int* c, int len) {
  int h = ts_create__scale_into(-1, -1, 4, 4);
  int g = ts_create__add_halves(-1, -1, 1, 1);
  for (int j = 0; j < 4; ++j) ts_async__scale_into(h, a + 16 * j, b + 16 * j, len, 2 * j - 3);
  ts_async__add_halves(g, c, c + len, len);
  for (int j = 0; j < 4; ++j) ts_get__scale_into(h);
  ts_get__add_halves(g);
  ts_release(h);
  ts_release(g);
}
