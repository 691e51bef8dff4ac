// Read-modify-writes of on-chip RAMs: loops whose recurrence runs through a private array, so their
// II is set by the RAM's read latency (one cycle), not by the external memory latency.
kernel void onchip_rmw(global const int* data, global int* out, int n) {
  int h[16];
  for (int b = 0; b < 16; ++b) h[b] = 0;
  // A histogram: the next iteration's load may read the bin this one stores.
  for (int i = 0; i < n; ++i) h[data[i] & 15] += 1;
  // A running sum kept in the array: t[i] reads t[i - 1], stored the iteration before.
  int t[64];
  t[0] = data[0];
  for (int i = 1; i < 64; ++i) t[i] = t[i - 1] + (data[i % n] ^ i);
  for (int b = 0; b < 16; ++b) out[b] = h[b] + t[b * 4 + 3];
}
