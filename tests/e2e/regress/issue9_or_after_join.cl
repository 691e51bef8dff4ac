// Issue 9: `a || b` after an if/join with both false must be 0. Expected r = 0 7 0 0.
kernel void k(global int *r) {
  if (r[3] == 9) r[2] = 1;
  int a = 0; int b = 0;
  r[0] = a || b;
}
