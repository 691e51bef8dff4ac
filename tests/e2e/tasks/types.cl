// Task parameters and results of several types: fmix takes float, uchar, short, long and int and
// returns a float; widen takes char and ushort and returns a ulong. One task sequence each, n
// asyncs in a loop (GetCapacity 8, AsyncCapacity 8 >= n), then n gets stored to a float and a ulong
// buffer. The tasks read nothing from memory. Run spec: n = 8.
// Markers (rewritten by make_tasks.py, see the top of that script):
int ts_create__fmix(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__fmix(int h, float x, uchar c, short s, long l, int flag);
float ts_get__fmix(int h);
int ts_create__widen(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__widen(int h, char c, ushort u);
ulong ts_get__widen(int h);
void ts_release(int h);

__attribute__((noinline)) float fmix(float x, uchar c, short s, long l, int flag) {
  float r = x * 1.5f + (float)c - (float)s;
  if (flag) r += (float)(l >> 3);
  return r * 0.25f;
}

__attribute__((noinline)) ulong widen(char c, ushort u) {
  ulong r = (ulong)(long)c * 0x10001UL + ((ulong)u << 20);
  return r ^ (r >> 7);
}

kernel void types(global const float* x, global const uchar* c, global const short* s, global const long* l,
                  global const char* cc, global const ushort* us, global float* fout, global ulong* uout, int n) {
  int hf = ts_create__fmix(-1, -1, 8, 8);
  int hw = ts_create__widen(-1, -1, 8, 8);
  for (int i = 0; i < n; ++i) {
    ts_async__fmix(hf, x[i], c[i], s[i], l[i], i & 1);
    ts_async__widen(hw, cc[i], us[i]);
  }
  for (int i = 0; i < n; ++i) {
    fout[i] = ts_get__fmix(hf);
    uout[i] = ts_get__widen(hw);
  }
  ts_release(hf);
  ts_release(hw);
}
