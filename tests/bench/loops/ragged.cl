// A data-dependent inner trip count: row y has len[y] elements (a CSR-style ragged array).
kernel void ragged(global const int* len, global const int* start, global const int* val, global int* out, int rows) {
#pragma unroll 1
  for (int y = 0; y < rows; ++y) {
    int acc = 0;
    const int s = start[y], n = len[y];
    for (int x = 0; x < n; ++x) acc += val[s + x];
    out[y] = acc;
  }
}
