// A pointer made from an integer: the interpreter follows it (its addresses are numbers), the hardware
// has no memory to send it to, so `spvhls compile` must refuse it naming the construct (exit 1); the
// interpreter must still agree with the native build. Expected r = 3 7 0 0.
int a[4] = {1, 2, 3, 4};
kernel void k(global int *r) {
  ulong x = (ulong)&a[1];
  int *p = (int *)(x + 4);
  r[0] = *p;
}
