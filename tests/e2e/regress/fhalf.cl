// Half precision on the units: arithmetic, divide, square root, comparisons, conversions to and from
// float, double and integers, floor, rint, fmin and fmax (f16 values are computed in double and
// rounded once, as the interpreter does). No native check: the C shim has no half type.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void fhalf(global const half* a, global const half* b, global half* o, global float* of, global int* oi) {
  for (int i = 0; i < 16; ++i) {
    half p = a[i], q = b[i];
    o[6 * i] = p + q;
    o[6 * i + 1] = p * q;
    o[6 * i + 2] = p / q;
    o[6 * i + 3] = sqrt(p);
    o[6 * i + 4] = convert_half((float)p * 3.0f);
    o[6 * i + 5] = (half)(i * 1000 - 7000);
    of[i] = (float)p - (float)q;
    oi[i] = convert_int_sat(p * q) + (p < q ? 1 << 20 : 0);
    o[96 + 4 * i] = floor(p * (half)2.5f);
    o[96 + 4 * i + 1] = rint(p * (half)2.5f);
    o[96 + 4 * i + 2] = fmin(p, q);
    o[96 + 4 * i + 3] = fmax(q, p);
  }
}
