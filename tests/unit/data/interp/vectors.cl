// Vector values: arithmetic, swizzles, vector compares and selects, any/all, bitcasts that reshape.
kernel void vectors(global const int4* a, global const int4* b, global int4* out, global long2* wide, int n) {
  for (int i = 0; i < n; ++i) {
    int4 x = a[i], y = b[i];
    out[4 * i] = x + y * 2 - (x >> 3);
    out[4 * i + 1] = x.wzyx ^ y.xxyy;
    int4 gt = x > y;
    out[4 * i + 2] = gt ? x : y; // vector select
    out[4 * i + 3] = (int4)(any(gt), all(gt), x.s1 + y.s2, (int)convert_char(x.s3));
    wide[i] = as_long2(x) + as_long2(y.zwxy);
  }
}
