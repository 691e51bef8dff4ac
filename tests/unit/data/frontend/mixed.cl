// Exercises the readers: floats (32/64/16-bit), 64-bit and negative constants, OpenCL.std calls,
// a switch, a struct, vectors, a private array and a loop.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef struct { int a; char b; long c; } S;
__kernel void mixed(__global float* f, __global long* l, __global S* s, __global double* d,
                    __global half* h, int k) {
  int tbl[4] = {3, -7, 11, 0x7fffffff};
  float x = f[0] * 1.5f + sqrt(f[1]) - 0.1f;
  switch (k) {
  case 0: l[0] = 0x123456789abcLL; break;
  case -1: l[0] = -5; break;
  case 100000: l[0] = tbl[k & 3]; break;
  default: l[0] = (long)x;
  }
  for (int i = 0; i < k; ++i) s[i].c += s[i].a * s[i].b;
  float4 v = (float4)(1.0f, 2.0f, x, -0.0f);
  f[2] = dot(v, v) + INFINITY;
  d[0] = d[1] * 3.141592653589793 + fmax(d[2], 1e-300);
  h[0] = h[1] * (half)0.5;
}
