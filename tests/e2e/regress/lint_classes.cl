// Verilog that passes `verilator -Wall` (found by the csmith campaign's lint step): unsigned comparisons
// fixed by the operand range, a live-in only partially used in a loop, and a loop storing a constant.
kernel void k(global uint *r) {
  uint x = r[0];
  uint t = r[2];
  r[3] = (x >= 0u) + (x <= 0xffffffffu) * 2u + (x < 0u) * 4u + (0xffffffffu < x) * 8u;
  for (int i = 0; i < 3; i++) r[i] = (uchar)t + (uint)i;
  for (int i = 0; i < (int)(x & 7u); i++) r[0] = 1u;
}
