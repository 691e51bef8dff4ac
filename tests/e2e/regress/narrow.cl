// Known bits (ir/lower_bits.cpp): bytes packed into a word and selected out of it are wires; products
// of bytes are 16-bit multipliers (unsigned and signed), sums of bytes narrow adders.
kernel void narrow(global const uchar* a, global const char* c, global uint* packed, global int* prod,
                   global uint* sel, int n) {
  for (int i = 0; i < n; i++) {
    uint w = (uint)a[4 * i] << 24 | (uint)a[4 * i + 1] << 16 | (uint)a[4 * i + 2] << 8 | a[4 * i + 3];
    packed[i] = w ^ ((w >> 8) & 0xff);
    prod[i] = (uint)a[i] * a[i + 1] + c[i] * c[i + 1] + (c[i] + c[i + 2]);
    sel[i] = ((w >> 16) & 0xff) * 3 + (w & 0xffff) + (c[i] & 0x7f);
  }
}
