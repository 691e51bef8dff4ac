// OpenCL.std roundings to an integral value and fmin / fmax / fdim as integer logic on the IEEE bits
// (ir/lower_float.cpp), float and double, over specials (zeros, halves, 2^23 / 2^52 boundaries,
// infinities, quiet and signalling NaNs with payloads, subnormals) and random bit patterns.
kernel void fround(global const float* a, global const float* b, global float* out, global const double* d,
                   global const double* e, global double* dout, int n, int m) {
  for (int i = 0; i < n; ++i) {
    float x = a[i], y = b[i];
    global float* o = out + 10 * i;
    o[0] = floor(x);
    o[1] = ceil(x);
    o[2] = trunc(x);
    o[3] = round(x);
    o[4] = rint(x);
    o[5] = fmin(x, y);
    o[6] = fmax(x, y);
    o[7] = fdim(x, y);
    o[8] = fmin(y, x);
    o[9] = fmax(a[i ^ 1], x);
  }
  for (int i = 0; i < m; ++i) {
    double x = d[i], y = e[i];
    global double* o = dout + 8 * i;
    o[0] = floor(x);
    o[1] = ceil(x);
    o[2] = trunc(x);
    o[3] = round(x);
    o[4] = rint(x);
    o[5] = fmin(x, y);
    o[6] = fmax(y, x);
    o[7] = fdim(x, y);
  }
}
