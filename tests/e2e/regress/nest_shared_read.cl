// Two inner loops that only read one buffer, in an outer pipeline (--outer-loops pipelined). With no
// memory dependence between them, a row's second loop and the next row's first were free to run at
// once, and their requests met on the buffer's port, which nothing arbitrates between inner loops:
// the kernel never finished. Inner loops on one port now never overlap (scheduler/problem_builder.cpp).
kernel void nest_shared_read(global const int* a, global int* out, int rows) {
  for (int r = 0; r < rows; ++r) {
    int s = 0;
    for (int i = 0; i < (r & 7) + 1; ++i)
      s += a[(r + i) & 63];
    int t = 0;
    for (int i = 0; i < 3; ++i)
      t ^= a[(2 * r + i) & 63] * (i + 1);
    out[r] = s + t;
  }
}
