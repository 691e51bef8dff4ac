// Hand-written kernel with a 128-bit memory port and a RAM of 128-bit words (docs/hardware-interface.md,
// wide ports), to test the harness's VlWide ports, its 5-bit req_size and wide RAM images and dumps
// (tests/unit/test_testbench.cpp). After start: reads the 16 bytes at 0 of `a`, writes them with their
// 64-bit halves swapped at 16, reads the 4 bytes at 36 and writes them at 0 (a narrow access on the
// wide port); meanwhile the RAM's word 1 becomes its word 0 with the halves swapped. Then done.
module wide_ram0 (
  input       clk,
  input       we
);
  reg [127:0] ram_mem [0:1];
  initial begin
    ram_mem[0] = 128'h0;
    ram_mem[1] = 128'h0;
`ifndef SYNTHESIS
    if ($test$plusargs("spvhls_load_wide_ram0")) $readmemh("wide_ram0.init.hex", ram_mem);
`endif
  end
  always @(posedge clk) if (we) ram_mem[1] <= {ram_mem[0][63:0], ram_mem[0][127:64]};
`ifndef SYNTHESIS
  final if ($test$plusargs("spvhls_dump_memories")) $writememh("wide_ram0.hex", ram_mem);
`endif
endmodule

module wide (
  input              clk,
  input              rst,
  input              start,
  output reg         busy,
  output reg         done,
  output             mem_a_req_valid,
  input              mem_a_req_ready,
  output             mem_a_req_write,
  output     [63:0]  mem_a_req_addr,
  output     [4:0]   mem_a_req_size,
  output     [127:0] mem_a_req_wdata,
  input              mem_a_resp_valid,
  input      [127:0] mem_a_resp_data
);
  localparam IDLE = 3'd0, RD16 = 3'd1, WAIT16 = 3'd2, WR16 = 3'd3, RD4 = 3'd4, WAIT4 = 3'd5, WR4 = 3'd6;
  reg [2:0] state;
  reg [127:0] d;
  wide_ram0 u_ram (.clk(clk), .we(state == RD16));
  assign mem_a_req_valid = state == RD16 || state == WR16 || state == RD4 || state == WR4;
  assign mem_a_req_write = state == WR16 || state == WR4;
  assign mem_a_req_addr = state == RD16 ? 64'd0 : state == WR16 ? 64'd16 : state == RD4 ? 64'd36 : 64'd0;
  assign mem_a_req_size = state == RD16 || state == WR16 ? 5'd16 : 5'd4;
  // The narrow write's bytes above its size are not written: fill them with ones.
  assign mem_a_req_wdata = state == WR16 ? {d[63:0], d[127:64]} : {{96{1'b1}}, d[31:0]};
  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      busy <= 1'b0;
      state <= IDLE;
    end else begin
      case (state)
        IDLE: if (start) begin busy <= 1'b1; state <= RD16; end
        RD16: if (mem_a_req_ready) state <= WAIT16;
        WAIT16: if (mem_a_resp_valid) begin d <= mem_a_resp_data; state <= WR16; end
        WR16: if (mem_a_req_ready) state <= RD4;
        RD4: if (mem_a_req_ready) state <= WAIT4;
        WAIT4: if (mem_a_resp_valid) begin d <= mem_a_resp_data; state <= WR4; end
        WR4: if (mem_a_req_ready) begin busy <= 1'b0; done <= 1'b1; state <= IDLE; end
        default: state <= IDLE;
      endcase
    end
  end
endmodule
