// 64-bit and mixed-width integer arithmetic; 24 results per input pair.
kernel void math64(global const long* a, global const long* b, global long* out, int n) {
  for (int i = 0; i < n; ++i) {
    long x = a[i], y = b[i];
    ulong ux = x, uy = y;
    global long* o = out + 24 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = y != 0 && !(y == -1 && x == LONG_MIN) ? x / y : 0;
    o[4] = y != 0 && !(y == -1 && x == LONG_MIN) ? x % y : 0;
    o[5] = uy != 0 ? ux / uy : 0;
    o[6] = uy != 0 ? ux % uy : 0;
    o[7] = x >> (y & 63);
    o[8] = ux >> (y & 63);
    o[9] = x << (y & 63);
    o[10] = x & y;
    o[11] = x | y;
    o[12] = x ^ y;
    o[13] = ~x;
    o[14] = -x;
    o[15] = (x < y) + 2 * (ux < uy) + 4 * (x == y) + 8 * (x >= y) + 16 * (ux >= uy);
    o[16] = (int)x;
    o[17] = (short)x;
    o[18] = (uchar)x;
    o[19] = (ulong)(uint)x;
    o[20] = (int)x * (int)y;
    o[21] = (uint)x / ((uint)y | 1u);
    o[22] = (short)x / (short)((short)y | 1);
    o[23] = (char)x % (char)((char)y | 1);
  }
}
