// Vector loads and stores as one wide memory access (docs/hardware-interface.md): a float4 add whose
// three 16-byte accesses take one slot each of their ports, so the loop reaches II 1 (lane by lane it
// needed four slots per port: II 4). The ports are 128 bits wide.
kernel void vwide(global const float4* a, global const float4* b, global float4* out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = a[i] + b[i];
}
