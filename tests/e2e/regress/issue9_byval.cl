// Issue 9: a struct passed by value is a copy: the callee's store must not reach the caller's x.
// Expected r = 5 1 0 0.
struct S { int a; };
static int f(struct S s) { s.a = 5; return s.a; }
kernel void k(global int *r) {
  struct S x = {1};
  r[0] = f(x);
  r[1] = x.a;
}
