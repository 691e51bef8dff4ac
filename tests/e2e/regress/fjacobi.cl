// 1-D Jacobi iterations in double: a[i] = (b[i-1] + b[i] + b[i+1]) / 3 written as * (1/3.0).
#define N 40
kernel void fjacobi(global double* a, global double* b) {
  for (int t = 0; t < 6; ++t) {
    for (int i = 1; i < N - 1; ++i) b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
    for (int i = 1; i < N - 1; ++i) a[i] = 0.33333 * (b[i - 1] + b[i] + b[i + 1]);
  }
}
