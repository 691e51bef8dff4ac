// A float4 loop with 128-bit ports and a private float4 table: an on-chip RAM of 16-byte words.
kernel void vquad(global const float4* a, global float4* out, int n) {
  float4 t[4];
  for (int k = 0; k < 4; ++k)
    t[k] = a[k];
  for (int i = 0; i < n; ++i)
    out[i] = a[i] + t[i & 3];
}
