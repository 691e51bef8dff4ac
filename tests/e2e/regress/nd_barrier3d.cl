// Barriers on a 3-D range of 2x2x2 groups of 4x2x2 work-items: a private array used on both sides of
// a barrier (a slice per work-item), global memory written before a barrier and a neighbour's element
// read after it, and values of 1, 32 and 64 bits kept across two barriers (issue 16).
kernel void nd_barrier3d(global const int* in, global int* mid, global long* out) {
  local int tile[16];
  int priv[3];
  size_t g = get_global_linear_id();
  int l = (int)get_local_linear_id();
  int x = in[g];
  bool odd = (x & 1) != 0;
  long wide = ((long)x << 33) ^ x;
  for (int i = 0; i < 3; ++i) priv[i] = x + i * l;
  tile[l] = x;
  mid[g] = x * 2;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  int n = (int)(get_local_size(0) * get_local_size(1) * get_local_size(2));
  int other = tile[n - 1 - l];
  size_t base = g - (size_t)l;
  int neighbour = mid[base + (size_t)((l + 1) & (n - 1))]; // n: a power of two
  priv[l & 1] += other;
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = neighbour;
  barrier(CLK_LOCAL_MEM_FENCE);
  long r = wide + priv[0] + priv[1] * 3 + priv[2] * 7 + tile[(l + 5) & (n - 1)];
  out[g] = odd ? r : -r;
}
