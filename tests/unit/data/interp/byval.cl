// Structs passed by value: clang passes their address with FuncParamAttr ByVal, and the callee must
// work on its own copy (test_interp.cpp).
struct S { int a; };
static int f(struct S s) { s.a = 5; return s.a; }
kernel void simple(global int *r) { struct S x = {1}; r[0] = f(x); r[1] = x.a; }

struct A { int n; int v[4]; };
static int sumAndClobber(struct A a) {
  int s = 0;
  for (int i = 0; i < 4; ++i) {
    s += a.v[i];
    a.v[i] = -1;
  }
  a.n = 99;
  return s + a.n;
}
kernel void arrayMember(global int *r) {
  struct A x = {7, {1, 2, 3, 4}};
  r[0] = sumAndClobber(x);
  r[1] = x.v[0] + x.v[3];
  r[2] = x.n;
}

// The same struct passed on twice: each call copies the caller's (modified) copy.
static int inner(struct A a) { a.v[0] += 100; return a.v[0]; }
static void outer(global int *r, struct A a) {
  a.v[0] += 10;
  r[0] = inner(a);
  r[1] = inner(a);
  r[2] = a.v[0];
}
kernel void nested(global int *r) {
  struct A x = {0, {1, 2, 3, 4}};
  outer(r, x);
  r[3] = x.v[0];
}
