// Issue 9: a private array of pointers to a program-scope variable. Expected r = 1 7 0 0.
// Issue 11: the hardware keeps the pointers as offsets into g (it was refused before).
int g = 1;
kernel void k(global int *r) {
  int *t[4] = {&g, &g, &g, &g};
  r[0] = *t[r[1] & 3];
}
