// Issue 9: a call to a function that never returns, on a path not taken (r[0] = 5): the kernel must
// compile in bounded time and store r[2] = 7. Expected r = 5 7 7 0.
static void g(global int *r, int v) { r[1] = v; }
static void f(void) { for (;;) ; }
kernel void k(global int *r) {
  if (r[0] == 123) { f(); g(r, 5); }
  r[2] = 7;
}
