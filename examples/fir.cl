// 8-tap FIR filter, y[i] = sum_k c[k] * x[i + k] for i < n (x holds n + 7 samples).
// Written for one pipelined loop at II 1: the tap loop is unrolled by hand, the coefficients are read
// once before the loop, and the window x[i..i+7] is kept in a shift register so that each iteration
// loads only one new sample (one load on port x and one store on port y per iteration).
kernel void fir(global const int* x, global const int* c, global int* y, int n) {
  const int c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
  const int c4 = c[4], c5 = c[5], c6 = c[6], c7 = c[7];
  int x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6];
  for (int i = 0; i < n; ++i) {
    const int x7 = x[i + 7];
    int acc = c0 * x0;
    acc += c1 * x1;
    acc += c2 * x2;
    acc += c3 * x3;
    acc += c4 * x4;
    acc += c5 * x5;
    acc += c6 * x6;
    acc += c7 * x7;
    y[i] = acc;
    x0 = x1;
    x1 = x2;
    x2 = x3;
    x3 = x4;
    x4 = x5;
    x5 = x6;
    x6 = x7;
  }
}
