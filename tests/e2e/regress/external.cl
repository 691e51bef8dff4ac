// Arrays past the on-chip budget (issue 11): a 320 KB global with an initializer and a 280 KB private
// array become external memories (ports of the top module) under the default 256 KiB budget, next to
// small on-chip arrays; a pointer selects between an on-chip and an external array (accesses dispatch
// on the tag), and a struct global mixes access widths. `spvhls sim` loads each external memory with
// its initial image and compares the global's final contents with the interpreter's.
#define BIG 81920
global uint big[BIG] = {11, 22, 33, 44};
global uint small[16] = {5, 6, 7};
struct rec { uint a; ushort b; uchar c; };
global struct rec recs[4];
constant uchar perm[8] = {3, 1, 4, 0, 6, 2, 7, 5};

kernel void k(global uint *r) {
  uint tmp[70000];
  uint seed = r[0];
  for (int i = 0; i < 64; i++) {
    uint at = (seed + (uint)i * 1237u) % BIG;
    big[at] += (uint)i * 3u + big[(at + 1) % BIG];
    tmp[(at * 7u) % 70000u] = big[at] ^ (uint)i;
    small[i & 15] += big[i];
  }
  uint sum = 0;
  for (int i = 0; i < 64; i++) {
    uint at = (seed + (uint)i * 1237u) % BIG;
    sum = sum * 33u + tmp[(at * 7u) % 70000u];
  }
  for (int i = 0; i < 4; i++) {
    recs[i].a = small[perm[i]] + sum;
    recs[i].b = (ushort)(small[perm[i + 4]] * 3u);
    recs[i].c = perm[7 - i];
  }
  // One pointer, two memories: the on-chip table or the external one.
  global uint *p = (r[1] & 1) ? big : small;
  uint acc = 0;
  for (int i = 0; i < 8; i++) acc += p[i * 2] + (uint)recs[i & 3].b;
  r[0] = sum;
  r[1] = acc;
  r[2] = big[0] + big[BIG - 1] + recs[2].c;
}
