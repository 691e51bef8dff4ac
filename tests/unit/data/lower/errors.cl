// Kernels lowering must reject, each with a diagnostic naming the construct (and some it rejected
// once: floats, program-scope variables, vectors).
kernel void twomem(global int* a, global int* b, int n) {
  global int* p = n > 0 ? a : b;   // one pointer into two buffers
  p[0] = 1;
}
kernel void floats(global float* a, int n) {
  for (int i = 0; i < n; i++) a[i] = a[i] + 1.0f;
}
global int counter = 0; // a program-scope variable
kernel void globalvar(global int* a) { a[0] = counter; }
kernel void localptr(local int* l, global int* a) { a[0] = l[0]; }
kernel void vectors(global int4* a) { a[0] = a[1] + a[2]; }
kernel void workitem(global int* a) { a[get_global_id(0)] = 1; }
