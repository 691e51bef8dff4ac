// A loop whose exit condition is slow (two multiplies before the compare: known 7 cycles after the
// iteration starts). SpeculatedIterationsINTEL 0 (added by add_controls.py) makes each iteration wait
// for the previous one's exit condition (II 7); 2 allows two iterations to start before it is known
// (II 3); without the control the scheduler speculates as far as it needs for II 1. The cube, not
// i * i * 3: a multiplication by a constant becomes shifts and adds (one cycle, not three).
kernel void speculate(global const int* a, global int* b, int n) {
#pragma unroll 1
  for (int i = 0; i * i * i < n; ++i) b[i] = a[i] + i;
}
