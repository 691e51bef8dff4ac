// Names that must become legal, distinct Verilog names without "__" (Verilator mangles it): a kernel
// named like a keyword, arguments named like the harness's own ports or keywords, and names with
// leading, trailing and doubled underscores (issue 11: a pointer named `start` became mem_start__req_addr).
kernel void module(global uint *start, global uint *_x, uint done, global uint *wire__, global uint *a__b) {
  for (uint i = 0; i < 4; i++) {
    start[i] = start[i] + done;
    _x[i] = start[i] * 3u;
    wire__[i] = _x[i] ^ a__b[i];
  }
}
