// Issue 9: a private array of pointers to a program-scope variable. Expected r = 1 7 0 0.
// The hardware does not support program-scope variables yet: `spvhls compile` must say so (exit 1),
// while the interpreter must agree with the native build.
int g = 1;
kernel void k(global int *r) {
  int *t[4] = {&g, &g, &g, &g};
  r[0] = *t[r[1] & 3];
}
