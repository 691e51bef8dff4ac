// Switches on a 32-bit value (cases with fall-through, negative case) and on a 64-bit value.
kernel void sw(global const int* in, global int* out, int n) {
  for (int i = 0; i < n; ++i) {
    int v = in[i], r;
    switch (v % 8) {
    case 0: r = v * 2; break;
    case 1:
    case 2: r = v - 100; break;
    case -3: r = 7; break;
    case 5: v += 1000; // fall through
    case 6: r = v ^ 0x55; break;
    default: r = 0; break;
    }
    long lv = (long)(v % 4) << 33;
    switch (lv) {
    case 0x200000000L: r += 1; break;
    case -0x200000000L: r += 2; break;
    default: break;
    }
    out[i] = r;
  }
}
