// Float matrix multiply C = A * B (12 x 12), the inner product accumulated in a register.
#define N 12
kernel void fmatmul(global const float* a, global const float* b, global float* c) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int k = 0; k < N; ++k) s += a[i * N + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}
