// A triangular nest: row y sums its first y + 1 elements (iterations independent across rows).
kernel void triangle(global const int* in, global int* out, int n) {
#pragma unroll 1
  for (int y = 0; y < n; ++y) {
    int acc = 0;
    for (int x = 0; x <= y; ++x) acc += in[y * n + x];
    out[y] = acc;
  }
}
