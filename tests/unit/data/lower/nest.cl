// A loop nest (matrix-vector product): the inner loop is pipelined, the outer one stays in the CFG.
kernel void matvec(global const int* m, global const int* x, global int* y, int rows, int cols) {
  for (int r = 0; r < rows; r++) {
    int acc = 0;
    for (int c = 0; c < cols; c++) acc += m[r * cols + c] * x[c];
    y[r] = acc;
  }
}
