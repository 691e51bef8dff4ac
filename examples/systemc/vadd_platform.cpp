// A SystemC platform around the vadd kernel (examples/vadd.cl): the worked example of docs/systemc.md.
// `spvhls compile` writes vadd.v, vadd_loop0.v, the wrapper vadd_sc.h and spvhls_tlm.h; this file
// puts the kernel on a clock, binds its three memory ports (a, b, c) to TLM-2.0 memories with a read
// latency of 3 to 9 cycles, runs c[i] = a[i] + b[i] for n = 64 and checks c.
#include <cstdio>
#include <cstring>

#include "vadd_sc.h"

int sc_main(int, char**) {
  constexpr int n = 64;
  sc_core::sc_clock clk("clk", 10, sc_core::SC_NS);
  sc_core::sc_signal<bool> rst("rst"), start("start"), busy("busy"), done("done");
  sc_core::sc_signal<uint32_t> arg_n("arg_n");
  vadd_sc kernel("kernel");
  kernel.clk(clk);
  kernel.rst(rst);
  kernel.start(start);
  kernel.busy(busy);
  kernel.done(done);
  kernel.arg_n(arg_n);

  // The buffers: byte addresses from 0 in each memory.
  spvhls::Memory a("a", 4 * n), b("b", 4 * n), c("c", 4 * n);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = 1000 * i - 7, y = 3 - i * i;
    std::memcpy(&a.bytes[4 * i], &x, 4);
    std::memcpy(&b.bytes[4 * i], &y, 4);
  }
  a.setLatency(3, 9, 1);
  b.setLatency(3, 9, 2);
  kernel.mem_a.socket.bind(a.socket);
  kernel.mem_b.socket.bind(b.socket);
  kernel.mem_c.socket.bind(c.socket);
  kernel.mem_c.setBackPressure(0.7, 3); // c's port is ready 70% of the cycles

  rst.write(true);
  sc_core::sc_start(40, sc_core::SC_NS);
  rst.write(false);
  arg_n.write(n);
  start.write(true);
  sc_core::sc_start(10, sc_core::SC_NS);
  start.write(false);
  while (!done.read() && sc_core::sc_time_stamp() < sc_core::sc_time(1, sc_core::SC_MS))
    sc_core::sc_start(10, sc_core::SC_NS);
  if (!done.read()) {
    std::printf("vadd: no done by %s\n", sc_core::sc_time_stamp().to_string().c_str());
    return 1;
  }
  int wrong = 0;
  for (int32_t i = 0; i < n; ++i) {
    int32_t got;
    std::memcpy(&got, &c.bytes[4 * i], 4);
    if (got != (1000 * i - 7) + (3 - i * i)) ++wrong;
  }
  std::printf("vadd: %d of %d sums correct, done at %s\n", n - wrong, n, sc_core::sc_time_stamp().to_string().c_str());
  return wrong == 0 ? 0 : 1;
}
