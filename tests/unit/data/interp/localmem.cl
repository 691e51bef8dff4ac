// Local (Workgroup) memory declared in the kernel, with a barrier.
kernel void localmem(global const int* in, global int* out, int n) {
  local int tmp[64];
  for (int i = 0; i < n; ++i) tmp[i] = in[i] * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
}
