// Hand-written kernel with an on-chip RAM that dumps its final contents the way spvhls' RAM modules
// do (Verilog `final` + $writememh under +spvhls_dump_memories). After start it writes x + k into
// byte k of the RAM for k = 0..5, then raises done. Used by tests/unit/test_testbench.cpp.

module ram_dump_ram0 (
  input       clk,
  input       we,
  input [2:0] addr,
  input [7:0] d
);
  reg [7:0] ram_mem [0:7];
  integer i;
  initial for (i = 0; i < 8; i = i + 1) ram_mem[i] = 8'h5a;
  always @(posedge clk) if (we) ram_mem[addr] <= d;
`ifndef SYNTHESIS
  final if ($test$plusargs("spvhls_dump_memories")) $writememh("ram_dump_ram0.hex", ram_mem);
`endif
endmodule

module ram_dump (
  input            clk,
  input            rst,
  input            start,
  output reg       busy,
  output reg       done,
  input      [7:0] arg_x
);
  reg [2:0] k;
  reg [7:0] x;
  ram_dump_ram0 u_ram (.clk(clk), .we(busy), .addr(k), .d(x + {5'd0, k}));
  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      busy <= 1'b0;
      k <= 3'd0;
    end else if (start) begin
      busy <= 1'b1;
      k <= 3'd0;
      x <= arg_x;
    end else if (busy) begin
      k <= k + 3'd1;
      if (k == 3'd5) begin
        busy <= 1'b0;
        done <= 1'b1;
      end
    end
  end
endmodule
