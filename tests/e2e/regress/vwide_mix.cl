// Vectors accessed whole next to scalar accesses of the same bytes (the accesses overlap by byte
// ranges: a narrow store into a wide element just read, a wide load seeing it, a narrow load of a wide
// store, a narrow read-modify-write of the next iteration's element): int8 (32-byte accesses), double2
// and char16 (16), float2 (8), a private float4 table (an on-chip RAM of 16-byte words); a vload4 at
// an address of unknown alignment stays lane by lane, a vstore4 at a multiple of 16 bytes is whole.
kernel void vwide_mix(global int8* iv, global int* is, global double2* dv, global char16* cv,
                      global float* f, global float2* f2, global float4* fo, int n) {
  float4 tab[4];
  for (int k = 0; k < 4; ++k)
    tab[k] = vload4(20 + k, f);
  for (int i = 0; i < n; ++i) {
    int8 x = iv[i];
    ((global int*)iv)[8 * i + 5] = x.s1 - x.s6;
    int8 y = iv[i];
    iv[i] = y * 3 + x.s0;
    is[i] = ((global int*)iv)[8 * i + 2] + y.s5;

    double2 d = dv[i];
    dv[i] = (double2)(-d.y, d.x);
    ((global long*)dv)[2 * ((i + 1) & (n - 1)) + 1] ^= as_long(d.x);

    char16 c = cv[i];
    cv[i] = c.sfedcba9876543210 + (char)i;
    ((global char*)cv)[16 * i + (i & 15)] ^= (char)0x5a;

    float2 g = f2[i];
    f2[i] = -g.yx;

    float4 v = vload4(0, f + i);
    vstore4(-v, 16 + i, f);
    fo[i] = v + tab[i & 3];
    tab[(i + 1) & 3] = v;
  }
}
