// Stall-free clusters around unit instances whose span crosses cluster boundaries (side FIFOs,
// rtl::LoopPlan::sideFifoDepth). Feed-forward, one access per memory: no recurrence gate, so the
// cycles stay predicted in both cluster kinds. The divide starts at the loads' response and ends past
// tbl's request and response (its address is loaded) and the stores of w and flags: several cuts.
// Inside if/else: a predicated load feeding a multiply, and float operations whose results only
// predicated stores use (tokens on the other path still pass every side FIFO). The integer divider
// spans the same cuts. Built with -ffp-contract=off: no fused multiply-add.
kernel void fspan(global const float* a, global const float* b, global const int* idx, global const float* tbl,
                  global const float* c, global float* o, global float* w, global float* r, global float* s,
                  global int* qo, global int* flags) {
  for (int i = 0; i < 40; ++i) {
    float p = a[i], q = b[i];
    int j = idx[i];
    float t = tbl[j & 15];
    w[i] = p + q;
    flags[i] = p < q;
    float e = 1.5f;
    if (p > 0.0f) e = c[i];
    o[i] = (p / q) * t + e;
    if (q < p) {
      r[i] = e * p - q;
    } else {
      float root = sqrt(fabs(q)); // a float first: the native shim's sqrt is double's
      s[i] = root * t;
    }
    qo[i] = j / (i + 1);
  }
}
