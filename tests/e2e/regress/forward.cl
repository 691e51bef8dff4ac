// Store-to-load forwarding across iterations (ir/lower_forward.cpp): each loop reads what the
// iteration before stored, and takes it from a register instead of the memory.
kernel void forward(global const int* x, global int* y, global int* z, global float* f, int n) {
  // A prefix sum in the output buffer: y[i] reads y[i - 1], stored the iteration before.
  y[0] = x[0];
  for (int i = 1; i < n; ++i) y[i] = y[i - 1] + x[i];
  // A predicated store: after an iteration that did not store, the load reads the memory.
  for (int i = 1; i < n; ++i)
    if (x[i] & 1) z[i] = z[i - 1] * 3 + x[i];
  // A first-order filter in floating point, running down the buffer.
  for (int i = n - 2; i >= 0; --i) f[i] = 0.5f * f[i + 1] + (float)x[i];
}
