// Vectors lane by lane (ir/lower_vectors.cpp): float4 arithmetic and math, swizzles and shuffles,
// construction from halves, dynamic lane access, vload/vstore, vector compares with select, any/all,
// conversions and bit casts between vector shapes, dot, and a double2 sum carried by a loop.
kernel void fvec(global const float4* a, global const float* b, global float4* out, global int4* iout,
                 global uint* bits, global double2* dout, global float* dots, int n) {
  double2 acc = (double2)(0.25, -0.5);
  for (int i = 0; i < n; ++i) {
    float4 x = a[i];
    float4 y = vload4(i, b);
    float4 s = x * y + (float4)(1.0f, -2.0f, 0.5f, 4.0f);
    float4 t = (float4)(s.hi, x.lo) - fabs(y.wzyx);
    float4 u = x > y ? s : t; // a vector compare: lanes select
    u.y = sqrt(fabs(u.y));
    out[i] = u;
    vstore4(s.xxyy / (y + 4.0f), i, (global float*)(out + n));
    int4 k = convert_int4(s * 10.0f);
    k.w = any(x < 0.0f) ? -k.w : all(y > -3.0f);
    iout[i] = k;
    uchar4 c = as_uchar4(as_uint(x.z));
    bits[i] = as_uint((uchar4)(c.w, c.z, c.y, c.x)) ^ as_uint(s[i & 3]);
    dots[i] = dot(x, y);
    acc += convert_double2(s.lo);
  }
  dout[0] = acc;
}
