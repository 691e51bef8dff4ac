// Float sums carried by loops (--fp-reassociate, ir/reassociate.h): a conditional sum and a
// difference in one loop, a double sum in a bottom-tested loop, and a running sum that is also stored
// every iteration (read inside its loop, so never reassociated).
kernel void freduce(global const float* a, global const float* b, global const double* d, global float* out,
                    global double* dout, int n) {
  float pos = 0.0f, neg = 10.0f;
  for (int i = 0; i < n; ++i) {
    float x = a[i] * b[i];
    if (x > 0.0f) pos += x;
    neg -= a[i];
  }
  out[0] = pos;
  out[1] = neg;
  double s = 0.5;
  int j = 0;
  do {
    s += d[j];
    ++j;
  } while (j < n);
  dout[0] = s;
  float run = 0.0f;
  for (int i = 0; i < n; ++i) {
    run += b[i];
    out[2 + i] = run;
  }
}
