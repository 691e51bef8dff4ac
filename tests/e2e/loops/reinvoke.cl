// MaxReinvocationDelayINTEL (added by add_controls.py) on an inner loop that the FSM starts once per
// row. Its exit condition is slow (known 7 cycles into an iteration), so launches run past the last
// iteration and are squashed. The delay from an invocation's last launch to the next one's first is
// the pipeline's drain plus the FSM's blocks back to the loop: a loose bound is honoured, a bound of 1
// cannot be met (a warning that says why), and spvhls sim measures the delay against both.
// With -DOUTER (and PipelineEnableINTEL 1 on loop 0, the row loop) the row loop is one pipeline whose
// inner loop takes its next invocation while the last one drains: a delay shorter than the drain.
kernel void reinvoke(global const int* a, global int* b, int rows, int n) {
#ifdef OUTER
#pragma unroll 1
#endif
  for (int r = 0; r < rows; ++r) {
#pragma unroll 1
    for (int i = 0; i * i * 3 < n; ++i) b[r * 8 + i] = a[r * 8 + i] + i;
  }
}
