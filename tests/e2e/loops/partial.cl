// PartialCount: `#pragma unroll COUNT` on a loop whose trip count is known only at run time (and not a
// multiple of COUNT in the test): each iteration runs COUNT copies of the body, each with its exit test.
#ifndef COUNT
#define COUNT 1
#endif
#define STR(x) #x
#define UNROLL(n) _Pragma(STR(unroll n))
kernel void partial(global const int* a, global const int* b, global int* c, int n) {
  int carry = 1;
  UNROLL(COUNT)
  for (int i = 0; i < n; ++i) {
    carry = carry * 5 + a[i];
    c[i] = carry ^ b[i];
  }
}
