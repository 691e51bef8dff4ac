// Pipelined loop 'for.cond': II 1, 5 positions, 2 cluster(s) (stall-free).
module lut_loop0 (
  input wire clk,
  input wire rst,
  input wire start,
  output reg done,
  input wire [31:0] li_0,
  output wire m3_req_valid,
  input wire m3_req_ready,
  output wire m3_req_write,
  output wire [63:0] m3_req_addr,
  output wire [3:0] m3_req_size,
  output wire [63:0] m3_req_wdata
);
  reg running;
  wire issue /*verilator public_flat_rd*/;
  wire exit_det;
  wire admit_1;
  wire vk_p0;
  reg vld_p1;
  wire vk_p1;
  reg vld_p2;
  wire vk_p2;
  reg vld_p3;
  wire vk_p3;
  wire vk_p4;
  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read
  wire [31:0] c0; // LoopPhi k
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read
  reg [31:0] iv0_p0;
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read
  reg [31:0] iv0_p4;
  /* verilator lint_on UNUSEDSIGNAL */
  wire c2; // SLt cmp
  reg v2_p1;
  reg v2_p2;
  reg v2_p3;
  wire [31:0] c3; // Mul mul
  reg [31:0] v3_p3;
  wire [29:0] c5; // Extract 
  wire [31:0] c6; // Concat 
  wire [31:0] c7; // Sub mul1
  reg [31:0] v7_p1;
  reg [31:0] v7_p2;
  reg [31:0] v7_p3;
  wire [31:0] c8; // Sub sub
  wire [61:0] c9; // SExt 
  wire [63:0] c10; // Concat 
  wire f0_v2;
  wire [31:0] f0_v8;
  wire fire11;
  wire [32:0] f0_dout;
  wire f0_nonempty;
  reg [3:0] cred0;
  wire leave_last;
  reg [32:0] f0_mem [0:5];
  reg [2:0] f0_rd;
  reg [2:0] f0_wr;
  reg [3:0] f0_count;
  assign fire11 = admit_1 & f0_v2;
  assign m3_req_valid = fire11;
  assign m3_req_write = fire11;
  assign m3_req_addr = c10;
  assign m3_req_size = 4'h4;
  assign m3_req_wdata = {32'h0, f0_v8};
  assign exit_det = vld_p1 & ~v2_p1;
  assign vk_p0 = issue & ~exit_det;
  assign vk_p1 = vld_p1;
  assign vk_p2 = vld_p2;
  assign vk_p3 = vld_p3;
  assign vk_p4 = admit_1;
  assign f0_v2 = f0_dout[0];
  assign f0_v8 = f0_dout[32:1];
  assign issue = running & (cred0 < 4'h6);
  assign admit_1 = f0_nonempty & (~f0_v2 | m3_req_ready);
  assign c0 = iv0_p0;
  assign c2 = $signed(c0) < $signed(32'h10);
  assign c5 = c0[29:0];
  assign c6 = {c5, 2'h0};
  assign c7 = c6 - c0;
  assign c8 = v3_p3 - v7_p3;
  assign c9 = {{30{iv0_p4[31]}}, iv0_p4};
  assign c10 = {c9, 2'h0};
  assign leave_last = vk_p4 & ~f0_v2;
  spvhls_mul_32 u_unit3 (
    .clk(clk),
    .en(1'h1),
    .a(c0),
    .b(c0),
    .y(c3)
  );
  always @(posedge clk)
    if (rst | start) cred0 <= 4'h0;
    else if (issue & ~admit_1) cred0 <= cred0 + 4'h1;
    else if (~issue & admit_1) cred0 <= cred0 - 4'h1;
  always @(posedge clk)
    if (rst) running <= 1'h0;
    else if (start) running <= 1'h1;
    else if (exit_det) running <= 1'h0;
  always @(posedge clk)
    if (rst | start) vld_p1 <= 1'h0;
    else vld_p1 <= vk_p0;
  always @(posedge clk)
    if (rst | start) vld_p2 <= 1'h0;
    else vld_p2 <= vk_p1;
  always @(posedge clk)
    if (rst | start) vld_p3 <= 1'h0;
    else vld_p3 <= vk_p2;
  always @(posedge clk)
    if (start) iv0_p0 <= li_0;
    else if (vk_p0) iv0_p0 <= iv0_p0 + 32'h1;
  always @(posedge clk)
    if (start) iv0_p4 <= li_0;
    else if (vk_p4) iv0_p4 <= iv0_p4 + 32'h1;
  always @(posedge clk)
    if (rst | start) done <= 1'h0;
    else done <= leave_last;
  always @(posedge clk) begin
    v2_p1 <= c2;
    v2_p2 <= v2_p1;
    v2_p3 <= v2_p2;
    v3_p3 <= c3;
    v7_p1 <= c7;
    v7_p2 <= v7_p1;
    v7_p3 <= v7_p2;
  end
  wire [32:0] f0_din = {c8, v2_p3};
  assign f0_dout = f0_mem[f0_rd];
  assign f0_nonempty = (f0_count != 4'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f0_rd <= 3'h0;
      f0_wr <= 3'h0;
      f0_count <= 4'h0;
    end else begin
      if (vk_p3) begin
        f0_mem[f0_wr] <= f0_din;
        f0_wr <= (f0_wr == 3'h5) ? 3'h0 : f0_wr + 3'h1;
      end
      if (admit_1) f0_rd <= (f0_rd == 3'h5) ? 3'h0 : f0_rd + 3'h1;
      if (vk_p3 && !admit_1) f0_count <= f0_count + 4'h1;
      if (!vk_p3 && admit_1) f0_count <= f0_count - 4'h1;
    end
  end
`ifndef SYNTHESIS
  always @(posedge clk) begin
    if (!rst && vk_p3 && !admit_1 && f0_count == 4'h6) begin
      $error("FIFO f0 overflow");
      $stop;
    end
    if (!rst && admit_1 && !f0_nonempty) begin
      $error("FIFO f0 underflow");
      $stop;
    end
  end
`endif
endmodule
