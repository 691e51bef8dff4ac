// Datapath optimisations (ir/lower_datapath.cpp): multiplications, divisions, remainders and shifts by
// constants, signed and unsigned, 32 and 64 bits, in pipelined loops and in the FSM after them. None
// may need a divider (check_example.py --no-module), and the recurrence h = h * 3 + x of the first
// loop is a shifted subtraction and an add (II 2) instead of a multiplier and an add (II 4). Compiled
// at -O0, so clang leaves every operation as the source writes it.
kernel void k(global const int *a, global int *o, global uint *p, global long *q) {
  int h = 1;
  for (int i = 0; i < 64; i++)
    h = h * 3 + a[i];
  for (int i = 0; i < 64; i++) {
    int x = a[i];
    uint u = (uint)x;
    o[i] = (x / 7 + x % 10) ^ ((x / 16 - x % 8) << 8) ^ (x >> 3) ^ (x << 5) ^ (int)(u >> 29) ^
           (x * -5 + x * 1000);
    p[i] = (u / 1000 + u % 641) ^ (u / 7 + u % 12 + u / 0x80000001u);
    long y = (long)x * 100003;
    q[i] = y / 8 + y % 64 + y * 9 - (y >> 40);
  }
  o[64] = h;
  o[65] = h / 3 - h % 5;
  p[64] = (uint)h / 6 + (uint)h % 100;
}
