// A recurrence through ten dependent 32-bit adds and xors (issue 15): II 10 when every operation
// takes a cycle; chained within a cycle (--clock-period), II 5 at 5 ns and II 1 at 20 ns.
// controls: 0=InitiationIntervalINTEL 5
kernel void chain10(global const uint* a, global uint* out, uint n) {
  uint acc = 0;
#pragma unroll 1
  for (uint i = 0; i < n; ++i) {
    uint x = acc + a[i];
    x = x ^ 0x9e3779b9u;
    x = x + 0x7f4a7c15u;
    x = x ^ 0x2545f491u;
    x = x + 0x85ebca6bu;
    x = x ^ 0xc2b2ae35u;
    x = x + 0x27d4eb2fu;
    x = x ^ 0x165667b1u;
    x = x + 0xd3a2646cu;
    acc = x ^ 0xfd7046c5u;
  }
  out[0] = acc;
}
