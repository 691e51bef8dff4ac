// Functions called from several places: with --inline never (or auto, when large enough) each is one
// shared unit that the kernel's FSM calls as a subroutine.
static uint mix(uint x, uint k) {
  uint h = x ^ k;
  for (int i = 0; i < 4; ++i) h = h * 0x9e3779b1u + (h >> 7);
  return h;
}
static uint twice(uint a) { return mix(a, 1u) + mix(a, 2u); }
static void note(__global uint* out, int i, uint v) { out[i] = v; } // a pointer parameter: inlined
static int pick(int c, int a, int b) { return c ? a : b; }           // small, called twice
static void bump(void) {}
static ulong seven(void) { return 7; } // returns a constant (the csmith campaign's func_1)
// A result no call reads and a parameter the function never reads: neither may keep values (and
// their registers) alive (the csmith campaign's lint failures).
global uint sink;
static uint keep(uint x, uint unused) {
  sink += x;
  return x * 3u;
}

kernel void shared_fn(__global uint* out, uint seed) {
  uint a = mix(seed, 3u);
  uint b = twice(a);
  bump();
  keep(a, b * 7u);
  keep(b, a ^ 5u);
  uint c = a > b ? mix(b, a) : twice(b);
  note(out, 0, a);
  note(out, 1, b);
  note(out, 2, c);
  out[3] = pick(a & 1, 5, 7) + pick(b & 1, 11, 13) + (uint)seven() * (uint)seven();
  for (int i = 4; i < 8; ++i) out[i] = mix(out[i - 1], (uint)i);
}
