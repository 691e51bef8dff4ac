// Copies whose length is known only at run time (issue 11): clang turns __builtin_memcpy with a
// variable length into OpCopyMemorySized, which becomes a loop of byte loads and stores (pipelined),
// from a global struct's members into a private array, into the result buffer, and through a pointer
// that selects between two globals (the copy's stores dispatch on the tag).
struct s { uint a[6]; uchar b[5]; };
global struct s gs = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11}};
global uint ga[8], gb[8];

kernel void k(global uint *r) {
  uint n = r[0] * 4u; // 20 bytes
  uint buf[8] = {0};
  __builtin_memcpy(buf, gs.a, n);
  __builtin_memcpy((global uchar *)r + 8, gs.b, r[1] & 3u);
  global uint *dp = (r[1] & 1) ? ga : gb;
  __builtin_memcpy(dp + 1, buf, n - 4u);
  __builtin_memcpy(gb, gs.a, 0u * n); // nothing
  uint s = 0;
  for (int i = 0; i < 8; i++) s = s * 7u + buf[i] + ga[i] * 3u + gb[i];
  r[0] = s;
}
