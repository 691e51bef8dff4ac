// Issue 9: `a && b` after an if/join must still be 1. Expected r = 1 7 0 0.
kernel void k(global int *r) {
  if (r[3] == 9) r[2] = 1;
  int a = 5; int b = 7;
  r[0] = a && b;
}
