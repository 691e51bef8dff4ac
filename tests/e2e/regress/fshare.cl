// Modulo binding (rtlgen/unit_binding.h): the float recurrence s = s * 0.5f + g sets II 9 (the
// multiplier's 4 cycles and the adder's 5), and the body's chained multiplies and adds start at
// different positions, so they take turns on shared unit instances. Stall-enable: as many instances as
// the fullest II slot holds operations: two multipliers for six multiplies (x * y and y * 3.0f start
// together) and two adders for three adds (g + x and the recurrence's add start together). Stall-free:
// only operations of one cluster whose starts lie less than II apart share (four multipliers). Built
// with -ffp-contract=off: no fused multiply-add.
kernel void fshare(global const float* a, global const float* b, global float* o, global float* r) {
  float s = 0.0f;
  for (int i = 0; i < 48; ++i) {
    float x = a[i], y = b[i];
    float d = x * y;
    float e = d * d;
    float f = e * x;
    float g = f * y;
    float k = y * 3.0f;
    float h = g + x;
    o[i] = h + k;
    s = s * 0.5f + g;
  }
  r[0] = s;
}
