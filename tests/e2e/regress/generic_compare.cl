// clang-15 compiles `&l == p` (a private l, a generic p pointing to a global) into OpGenericCastToPtr
// of p to the Function storage class, then OpConvertPtrToU and OpIEqual. The interpreter used to fail
// at the cast ("generic pointer points to CrossWorkgroup storage"); the cast keeps the address, as a
// flat address space does, and only an access is checked. Native: r = 0 0 (then r[2], r[3] as below).
long g[2] = {3, 4};
kernel void k(global uint *r) {
  long l = 1;
  long *p = &g[r[0] & 1];
  r[0] = (&l == p);
  r[1] = *p;
  long *q = (r[1] > 3) ? &l : p;
  r[2] = (q == &l) + 2 * (q == p);
  r[3] = *q;
}
