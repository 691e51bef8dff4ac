// split4.cl without task sequences, for the cycles and area comparison: the same computation and
// interface (the kernel has the same name, so split4.run.json runs both) with plain calls, inlined:
// four loops one after the other, each result stored between them, so they are not fused. Plain
// OpenCL C: regen.sh compiles it without make_tasks.py.
__attribute__((noinline)) int weigh(global const int* a, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * 3 - (a[i] >> 2);
  return s;
}

kernel void split4(global const int* a0, global const int* a1, global const int* a2, global const int* a3,
                       global int* out, int n) {
  out[0] = weigh(a0, n);
  out[1] = weigh(a1, n);
  out[2] = weigh(a2, n);
  out[3] = weigh(a3, n);
}
