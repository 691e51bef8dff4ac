// csmith finding (campaign --globals, seed 7016): a load that never happens (the step `s += r[1]` of a
// loop whose condition is the constant 0) kept its memory port on the loop module, whose req_ready
// input nothing read (verilator -Wall: UNUSEDSIGNAL). The load's value is now undefined, its port gone.
int g = 5;
int h[4] = {1, 2, 3, 4};
kernel void k(global uint *r) {
  int s = 0;
  for (int i = 0; i < 4; i++) {
    if (0) s += h[i] + g;
    s += i;
  }
  for (; 0; s += r[1])
    ;
  r[0] = s;
}
