// Program-scope variables (issue 11): a constant S-box, a global table the kernel updates (its
// contents persist from run to run), zero-initialised globals, an array of structs, a counter
// updated through a pointer parameter, and a kernel-scope local array. Globals are read and written
// both in pipelined loops and in the FSM; `spvhls sim` compares every one of them with the
// interpreter, and r gets a checksum for the native check.
constant uchar sbox[16] = {14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7};
global uint table[8] = {0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d, 17, 42, 4096, 65535};
global uint zeros[6];
global int counter;
struct point { int x; short y; uchar tag; };
global struct point pts[4] = {{1, -2, 3}, {4, -5, 6}, {7, -8, 9}, {10, -11, 12}};

static void bump(global int *c, int by) { *c += by; }

static uint mix(uint v) {
  uint out = 0;
  for (int i = 0; i < 8; i++) out |= (uint)sbox[(v >> (4 * i)) & 15] << (4 * i);
  return out;
}

kernel void k(global uint *r) {
  local uint scratch[8];
  for (int i = 0; i < 8; i++) {
    scratch[i] = mix(table[i] ^ r[i & 3]);
    bump(&counter, i);
  }
  for (int i = 0; i < 8; i++) table[i] = scratch[(i + 3) & 7] + (uint)i;
  for (int i = 0; i < 4; i++) {
    pts[i].x += (int)scratch[i] & 255;
    pts[i].y -= (short)i;
    pts[i].tag ^= sbox[i];
    zeros[i + 1] = (uint)pts[i].x * 3u;
  }
  uint sum = (uint)counter;
  for (int i = 0; i < 8; i++) sum = sum * 31u + table[i];
  for (int i = 0; i < 6; i++) sum = sum * 31u + zeros[i];
  for (int i = 0; i < 4; i++) sum = sum * 31u + (uint)pts[i].x + (uint)pts[i].y + pts[i].tag;
  r[0] = sum;
  r[1] = table[5];
  r[2] = (uint)counter;
  r[3] = zeros[4];
}
