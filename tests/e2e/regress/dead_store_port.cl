// csmith finding (campaign --globals, seeds 5006 5026 5031 5042 5045): a store that never happens (the
// latch `--g` of a loop whose condition is the constant 0) kept its memory port on the loop module,
// whose req_ready input nothing read (verilator -Wall: UNUSEDSIGNAL). The store is now dropped.
int g = 5;
kernel void k(global uint *r) {
  for (; 0; --g)
    ;
  for (; 0; --r[1])
    ;
  r[0] = g;
}
