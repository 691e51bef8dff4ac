// On-chip RAMs read and written by the kernel get a read port and a write port (--ram-ports 2, the
// default), and a read port per load of a loop's iteration (copies, --ram-read-ports): a loop may load
// and store one private array in the same cycle. With one port for all (--ram-ports 1
// --ram-read-ports 1) each access takes the port's cycle of its own.
kernel void ram_ports(global const int* in, global int* out, int n) {
  int t[256];
  for (int i = 0; i < 256; ++i) t[i] = in[i] ^ (i << 4); // stores only
  // A load and a store of t per iteration, at the same index: II 1 (one port: 2).
  for (int i = 0; i < 200; ++i) t[i] = t[i] * 5 + i;
  // Two loads (a read port each) and a store: II 1 (one read port: 2; one port: 3).
  for (int i = 0; i < 255; ++i) t[i] = t[i + 1] - t[i];
  int s = 0;
  for (int i = 0; i < n; ++i) s += t[(i * 7) & 255]; // loads only
  t[n & 255] = s; // the FSM's store and loads, between the loops'
  out[0] = t[0] + t[n & 255];
  for (int i = 0; i < 256; ++i) out[i + 1] = t[i];
  // Two loads of u per iteration, but three of `in`, whose port sets II 3 anyway: u gets no copy.
  int u[64];
  for (int i = 0; i < 64; ++i) u[i] = in[i] * 3;
  for (int i = 0; i < 64; ++i) out[257 + i] = in[i] + in[i + 64] + in[i + 128] + u[i] - u[63 - i];
}
