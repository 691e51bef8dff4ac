// Issue 11: pointer arithmetic may leave an object and come back; only an access outside the object
// is an error. encode() is the QMF filter-state shift of the ADPCM codec (CHStone adpcm.c, shortened
// to 8 taps): after the copy loop `tqmf_ptr1` points one element before the array and is never
// dereferenced (clang emits OpInBoundsPtrAccessChain for the decrements). The kernel also walks the
// buffer backwards with a pointer that ends one before it, and forms one past the end of r and two
// before it, moving each back in.
static int encode(int *tqmf, int xin1, int xin2) {
  int *tqmf_ptr = tqmf, *tqmf_ptr1;
  int xa = 0;
  for (int i = 0; i < 7; i++) xa += *tqmf_ptr++ * (2 * i + 1); // tqmf_ptr ends at tqmf + 7
  xa += *tqmf_ptr * 15;
  tqmf_ptr1 = tqmf_ptr - 2;
  for (int i = 0; i < 6; i++) *tqmf_ptr-- = *tqmf_ptr1--; // tqmf_ptr1 ends at tqmf - 1
  *tqmf_ptr-- = xin1;
  *tqmf_ptr = xin2;
  return xa;
}

kernel void k(global uint *r) {
  int tqmf[8];
  for (int i = 0; i < 8; i++) tqmf[i] = 0;
  uint acc = 0;
  for (int n = 0; n < 6; n++) acc = acc * 31u + (uint)encode(tqmf, (int)r[0] + n, (int)r[1] * n);
  // A pointer walking backwards ends one element before the buffer.
  global uint *p = r + 1;
  uint sum = 0;
  for (int i = 0; i < 2; i++) sum += *p--;
  global uint *end = r + 4, *before = r - 2;
  r[2] = acc;
  r[3] = sum + end[-3] + before[3] * 100u; // r[1] + r[0] + r[1] + 100 * r[1]
}
