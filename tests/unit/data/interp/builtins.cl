// OpenCL integer built-ins; 32 results per input triple.
kernel void builtins(global const int* a, global const int* b, global const int* c, global long* out, int n) {
  for (int i = 0; i < n; ++i) {
    int x = a[i], y = b[i], z = c[i];
    uint ux = x, uy = y, uz = z;
    long lx = (long)x << 20 ^ y, ly = (long)y * 65537;
    global long* o = out + 32 * i;
    o[0] = abs(x);
    o[1] = abs_diff(x, y);
    o[2] = add_sat(x, y);
    o[3] = sub_sat(x, y);
    o[4] = hadd(x, y);
    o[5] = rhadd(x, y);
    o[6] = min(x, y);
    o[7] = max(x, y);
    o[8] = clamp(x, min(y, z), max(y, z));
    o[9] = clz(x);
    o[10] = ctz(x);
    o[11] = popcount(x);
    o[12] = rotate(x, y);
    o[13] = mul_hi(x, y);
    o[14] = mad_hi(x, y, z);
    o[15] = mad_sat(x, y, z);
    o[16] = abs(ux);
    o[17] = abs_diff(ux, uy);
    o[18] = add_sat(ux, uy);
    o[19] = sub_sat(ux, uy);
    o[20] = hadd(ux, uy) + rhadd(ux, uz);
    o[21] = min(ux, uy) ^ max(ux, uz);
    o[22] = clamp(ux, min(uy, uz), max(uy, uz));
    o[23] = mul_hi(ux, uy);
    o[24] = mad_hi(ux, uy, uz);
    o[25] = mad_sat(ux, uy, uz);
    o[26] = upsample((short)x, (ushort)y);
    o[27] = upsample((uchar)x, (uchar)y);
    o[28] = mul_hi(lx, ly);
    o[29] = mul_hi((ulong)lx, (ulong)ly);
    o[30] = clz((char)x) + 100 * ctz((short)y) + 10000 * popcount(lx);
    o[31] = rotate((uchar)x, (uchar)y) + 1000 * (long)rotate(lx, ly);
  }
}
