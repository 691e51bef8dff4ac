// A private array of pointers into two different variables: the hardware keeps a stored pointer as
// its offset in one memory, so `spvhls compile` must refuse it, naming the memories (exit 1); the
// interpreter must still agree with the native build. Expected r = 2 7 0 0.
int a = 1, b = 2;
kernel void k(global int *r) {
  int *t[2] = {&a, &b};
  r[0] = *t[r[0] & 1];
}
