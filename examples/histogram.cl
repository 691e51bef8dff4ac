// Histogram in global memory: hist[bin] += 1 is a load-modify-store whose next load may hit the same
// address, a memory recurrence that bounds the II. bins must be a power of two.
kernel void histogram(global const int* data, global int* hist, int n, int bins) {
  for (int i = 0; i < n; ++i)
    hist[data[i] & (bins - 1)] += 1;
}
