// A kernel that computes on a program-scope array (on-chip RAM) for over 100000 cycles without
// any traffic on its memory port (issue 11: the cpu program ran 500000 cycles before writing its
// result). The test bench's watchdog took that for a deadlock ("no progress for 100000 cycles").
// The watchdog now counts any change of the design's state (registers, RAMs) as progress.
global uint state[64];

kernel void k(global uint *r) {
  uint seed = r[0];
  for (int i = 0; i < 64; i++) state[i] = seed + (uint)i;
  for (int i = 0; i < 30000; i++) {
    uint j = (uint)i & 63u;
    state[j] = state[j] * 1664525u + 1013904223u;
  }
  uint sum = 0;
  for (int i = 0; i < 64; i++) sum = (sum ^ state[i]) * 16777619u;
  r[1] = sum;
}
