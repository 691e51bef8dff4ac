// Histograms of bytes into 16 bins: with atomics and with plain increments (two entry points).
kernel void histogram_atomic(global const uchar* data, global uint* bins, int n) {
  for (int i = 0; i < n; ++i) atomic_inc(&bins[data[i] % 16]);
}

kernel void histogram_plain(global const uchar* data, global uint* bins, int n) {
  for (int i = 0; i < n; ++i) bins[data[i] >> 4] += 1;
}
