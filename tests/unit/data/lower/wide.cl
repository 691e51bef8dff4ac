// Vector loads and stores as one wide access (ir/lower_vectors.cpp) next to narrow accesses of the
// same bytes; vload4 / vstore4 are one access where the offset is provably a multiple of 16 bytes,
// else lane by lane.
kernel void wide(global float4* a, global int8* b, global char16* c, global float* f, int n) {
  for (int i = 0; i < n; ++i) {
    float4 x = a[i];
    ((global float*)a)[4 * i + 1] = x.w;
    a[i] = x * 2.0f + a[i];
    int8 y = b[i];
    b[i] = y.s76543210 + (int8)(i);
    c[i] = c[i] ^ (char16)(3);
    float4 v = vload4(i, f);
    vstore4(v + 1.0f, 0, f + 4 * n + 1 + i);
  }
}
