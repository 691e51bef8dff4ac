// parallel4.cl without task sequences, for a cycles comparison: the same computation and interface
// (run spec identical to parallel4.run.json except the kernel name), with four plain calls of
// sum_range, one after the other. Plain OpenCL C, no markers: regen.sh compiles it with clang-15 +
// llvm-spirv-15 + spirv-dis directly (make_tasks.py requires marker calls).
__attribute__((noinline)) int sum_range(global const int* a, int lo, int hi) {
  int s = 0;
  for (int i = lo; i < hi; ++i) s += a[i] * 3 - (a[i] >> 2);
  return s;
}

kernel void parallel4_seq(global const int* a, global int* out, int n) {
  int q = n / 4;
  int r0 = sum_range(a, 0, q);
  int r1 = sum_range(a, q, 2 * q);
  int r2 = sum_range(a, 2 * q, 3 * q);
  int r3 = sum_range(a, 3 * q, n);
  out[0] = r0;
  out[1] = r1;
  out[2] = r2;
  out[3] = r3;
  out[4] = r0 + r1 + r2 + r3;
}
