// One task sequence of a straight-line task (no loop), invoked n times in a kernel loop, the n
// results retrieved in a second loop (GetCapacity 16, AsyncCapacity 16 >= n). The Pipelined operand
// of the create is the macro PIPE, so the kernel is compiled three times (see regen.sh):
//   pipelined_0.spvasm (-D PIPE=0), pipelined_1.spvasm (-D PIPE=1), pipelined_m1.spvasm (-D PIPE=-1),
//   pipelined_4.spvasm (-D PIPE=4),
// each with its run spec pipelined_{0,1,m1,4}.run.json (identical). Run spec: n = 16.
// Markers (rewritten by make_tasks.py, see the top of that script):
#ifndef PIPE
#error "compile with -D PIPE=<Pipelined operand of the create>, e.g. make_tasks.py -D PIPE=0"
#endif
int ts_create__poly(int pipelined, int cluster, uint getcap, uint asynccap);
void ts_async__poly(int h, int x);
int ts_get__poly(int h);
void ts_release(int h);

__attribute__((noinline)) int poly(int x) {
  int x2 = x * x;
  int p = ((3 * x + 7) * x - 11) * x + 5;
  return p + x2 * (x2 - 13) + (x >> 2);
}

kernel void pipelined(global const int* a, global int* out, int n) {
  int h = ts_create__poly(PIPE, -1, 16, 16);
  for (int i = 0; i < n; ++i) ts_async__poly(h, a[i]);
  for (int i = 0; i < n; ++i) out[i] = ts_get__poly(h);
  ts_release(h);
}
