// C = A x B for N x N integer matrices (N at run time), the i, j, k nest.
kernel void matmul(global const int* A, global const int* B, global int* C, int n) {
#pragma unroll 1
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int acc = 0;
      for (int k = 0; k < n; ++k) acc += A[i * n + k] * B[k * n + j];
      C[i * n + j] = acc;
    }
}
