// Program-scope variables with initializers (CrossWorkgroup and constant), a pointer-valued
// initializer, structs with padding in global memory, and floating-point data moved without arithmetic.
typedef struct { short a; int b; char c[3]; } CS;
typedef struct { char c; int i; long l; } S;

global int counter = 5;
global long table[4] = {1, 2, 3, 4};
constant CS cs = {-2, 100000, {1, 2, 3}};
global int* global gp = &counter;
constant float fc[2] = {1.5f, -0.0f};

kernel void globals(global long* out, int n) {
  counter += n;
  table[n & 3] *= 10;
  *gp += 1;
  out[0] = counter;
  for (int i = 0; i < 4; ++i) out[1 + i] = table[i];
  out[5] = cs.a;
  out[6] = cs.b;
  out[7] = cs.c[2];
}

kernel void structs(global S* s, global long* out, int n) {
  for (int i = 0; i < n; ++i) {
    out[i] = s[i].c + s[i].i * 10L + s[i].l * 100;
    s[i].c = (char)i;
  }
}

kernel void floatcopy(global const float* in, global float* out, global double* d, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[n - 1 - i];
  out[n] = fc[0];
  out[n + 1] = fc[1];
  d[0] = 2.25;
}

// A private struct copied whole into a buffer: the copy includes padding bytes never written.
kernel void structcopy(global S* out, int n) {
  S s;
  s.c = 1;
  s.i = n;
  s.l = -3;
  out[1] = s;
}
