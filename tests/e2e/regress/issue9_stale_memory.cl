// Issue 9: a private array written only on a path not taken must not leave stale contents that a
// later array (sharing storage) reads. Expected r = 5 7 312 0.
kernel void k(global uint *r) {
  int a[4]; int b[4]; int c[4]; int z = 0;
  if (z) { a[0] = 1; r[3] = a[0]; }
  for (int i = 0; i < 4; i++) c[i] = r[i];
  b[0] = 100; b[1] = 200;
  uint s = 0;
  for (int i = 0; i < 2; i++) s += c[i];
  r[2] = s + b[0] + b[1];
}
