// Loops with several exit targets (issue 13), pipelined: each `break` runs its own code after the loop
// (a block of its own outside the loop), and a `return` leaves the kernel from inside the last loop.
// The loop's block in the FSM switches on the exit the last iteration took. scan runs twice (inlined:
// two loops), the data chosen so that each takes a different break.
int scan(global const int* a, global int* out, int n, int slot) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] > 950) {
      out[slot] = i;
      break;
    }
    if (a[i] < -950) {
      out[slot + 1] = i;
      s = -s;
      break;
    }
    s += a[i];
  }
  return s;
}

kernel void multi_exit(global int* a, global int* out, int n) {
  const int s = scan(a, out, n, 1) + scan(a + n, out, n, 3);
  out[0] = s;
  for (int j = 0; j < 2 * n; j++) {
    if ((a[j] & 63) == 7) return;
    a[j] = a[j] * 3 + s;
  }
  out[5] = 1;
}
