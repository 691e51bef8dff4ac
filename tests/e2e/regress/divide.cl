// Integer division in hardware (the divider unit of issue 10): signed and unsigned quotient and
// remainder in a feed-forward pipelined loop (II 1: many divisions in flight) and in the FSM after it.
// Few and narrow dividers: yosys's synthesis time grows fast with them (the unit tests cover all five
// operations at 8, 32 and 64 bits). Divisors are forced non-zero and INT_MIN / -1 is avoided: both are
// errors in the interpreter.
kernel void k(global const int *a, global const int *b, global int *o, global uint *p) {
  int n = 48;
  short acc = 0;
  for (int i = 0; i < n; i++) {
    int x = a[i], y = b[i] | 1;
    if (y == -1) y = 3;
    o[i] = x / y;
    p[i] = (uint)x % (uint)y;
    acc += (short)x;
  }
  o[48] = acc % (short)-7;
}
