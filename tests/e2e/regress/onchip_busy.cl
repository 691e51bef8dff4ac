// A kernel that works on a program-scope array for well over 100000 cycles before it touches a port:
// the test bench's deadlock watchdog must count on-chip RAM accesses as progress (it reported
// "deadlock: no progress for 100000 cycles" for the AES program, issue 11).
global uint acc[64];

kernel void k(global uint *r) {
  for (int i = 0; i < 64; i++) acc[i] = (uint)i;
  for (uint i = 0; i < 60000u; i++) acc[i & 63] = acc[(i * 5u + 1u) & 63] * 3u + i;
  uint sum = 0;
  for (int i = 0; i < 64; i++) sum = sum * 31u + acc[i];
  r[0] = sum;
}
