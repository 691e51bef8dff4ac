// Null pointers that are cast, selected, stored and compared but never dereferenced. A pointer that
// may be null or point into a memory is an address, so null stays distinct from the memory's first
// element (the hardware compared `q == 0` false for `q = c ? g : 0`; csmith --globals seed 7003 met
// `OpBitcast` of a null pointer as "does not point into a known buffer"), a program-scope pointer that
// only ever holds null, and tables mixing null and addresses (initialised and stored).
int g[2] = {1, 2};
int *gp;
int *gt[3] = {g, 0, g + 1};
kernel void k(global uint *r) {
  int *p = 0;
  int *q = r[0] > 100 ? g : 0; // r[0] = 5: null
  int *t[2] = {0, g};
  gp = 0;
  r[0] = ((char *)p == (char *)g) + 2 * (q == 0) + 4 * (gt[1] == 0) + 8 * (gt[0] == 0) + 16 * (t[0] == 0);
  r[1] = (ulong)(char *)p;
  gt[2] = (r[1] == 0) ? 0 : g;
  t[1] = q;
  r[2] = (gp != 0) + 2 * (gt[2] == 0) + 4 * (t[1] == 0) + 8 * (*gt[0] == 1);
  r[3] = (gp == 0) * 2 + (gp == (int *)p) * 4;
}
