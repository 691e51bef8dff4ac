// Pipelined loop 'for.cond': II 1, 8 positions, 1 cluster(s) (stall-enable).
module vadd_loop0 (
  input wire clk,
  input wire rst,
  input wire start,
  output reg done,
  input wire [31:0] li_0,
  input wire [31:0] li_1,
  output wire m0_req_valid,
  input wire m0_req_ready,
  output wire m0_req_write,
  output wire [63:0] m0_req_addr,
  output wire [3:0] m0_req_size,
  output wire [63:0] m0_req_wdata,
  input wire m0_resp_valid,
  /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] m0_resp_data /* verilator lint_on UNUSEDSIGNAL */,
  output wire m1_req_valid,
  input wire m1_req_ready,
  output wire m1_req_write,
  output wire [63:0] m1_req_addr,
  output wire [3:0] m1_req_size,
  output wire [63:0] m1_req_wdata,
  input wire m1_resp_valid,
  /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] m1_resp_data /* verilator lint_on UNUSEDSIGNAL */,
  output wire m2_req_valid,
  input wire m2_req_ready,
  output wire m2_req_write,
  output wire [63:0] m2_req_addr,
  output wire [3:0] m2_req_size,
  output wire [63:0] m2_req_wdata
);
  reg running;
  wire issue /*verilator public_flat_rd*/;
  wire exit_det;
  wire en;
  wire vk_p0;
  reg vld_p1;
  wire vk_p1;
  reg vld_p2;
  wire vk_p2;
  reg vld_p3;
  wire vk_p3;
  reg vld_p4;
  wire vk_p4;
  reg vld_p5;
  wire vk_p5;
  reg vld_p6;
  wire vk_p6;
  reg vld_p7;
  wire vk_p7;
  wire [31:0] c0; // LoopPhi i
  reg [31:0] v0_p1;
  reg [31:0] iv0_p0;
  reg [31:0] iv0_p7;
  wire c2; // SLt cmp
  reg v2_p1;
  reg v2_p2;
  reg v2_p3;
  reg v2_p4;
  reg v2_p5;
  reg v2_p6;
  reg v2_p7;
  wire [61:0] c4; // SExt 
  wire [63:0] c5; // Concat 
  wire [31:0] c6; // Load 
  reg [31:0] v6_p6;
  wire [31:0] c7; // Load 
  reg [31:0] v7_p6;
  wire [31:0] c8; // Add add
  reg [31:0] v8_p7;
  wire fire6;
  wire [31:0] rf6_dout;
  wire rf6_nonempty;
  wire fire7;
  wire [31:0] rf7_dout;
  wire rf7_nonempty;
  wire fire9;
  wire leave_last;
  reg [31:0] rf6_mem [0:7];
  reg [2:0] rf6_rd;
  reg [2:0] rf6_wr;
  reg [3:0] rf6_count;
  reg [31:0] rf7_mem [0:7];
  reg [2:0] rf7_rd;
  reg [2:0] rf7_wr;
  reg [3:0] rf7_count;
  assign fire6 = vk_p1 & v2_p1 & en;
  assign m0_req_valid = fire6;
  assign m0_req_write = 1'h0;
  assign m0_req_addr = c5;
  assign m0_req_size = 4'h4;
  assign m0_req_wdata = 64'h0;
  assign fire7 = vk_p1 & v2_p1 & en;
  assign m1_req_valid = fire7;
  assign m1_req_write = 1'h0;
  assign m1_req_addr = c5;
  assign m1_req_size = 4'h4;
  assign m1_req_wdata = 64'h0;
  assign fire9 = vk_p7 & v2_p7 & en;
  assign m2_req_valid = fire9;
  assign m2_req_write = fire9;
  assign m2_req_addr = {{{30{iv0_p7[31]}}, iv0_p7}, 2'h0};
  assign m2_req_size = 4'h4;
  assign m2_req_wdata = {32'h0, v8_p7};
  assign exit_det = vld_p1 & ~v2_p1;
  assign vk_p0 = issue & ~exit_det;
  assign vk_p1 = vld_p1;
  assign vk_p2 = vld_p2;
  assign vk_p3 = vld_p3;
  assign vk_p4 = vld_p4;
  assign vk_p5 = vld_p5;
  assign vk_p6 = vld_p6;
  assign vk_p7 = vld_p7;
  assign en = ~((vk_p1 & v2_p1 & ~m0_req_ready) | (vk_p5 & v2_p5 & ~rf6_nonempty) | (vk_p1 & v2_p1 & ~m1_req_ready) | (vk_p5 & v2_p5 & ~rf7_nonempty) | (vk_p7 & v2_p7 & ~m2_req_ready));
  assign issue = running & en;
  assign c0 = iv0_p0;
  assign c2 = $signed(c0) < $signed(li_1);
  assign c4 = {{30{v0_p1[31]}}, v0_p1};
  assign c5 = {c4, 2'h0};
  assign c6 = rf6_dout;
  assign c7 = rf7_dout;
  assign c8 = v6_p6 + v7_p6;
  assign leave_last = vk_p7 & ~v2_p7 & en;
  always @(posedge clk)
    if (rst) running <= 1'h0;
    else if (start) running <= 1'h1;
    else if (exit_det) running <= 1'h0;
  always @(posedge clk)
    if (rst | start) vld_p1 <= 1'h0;
    else if (en) vld_p1 <= vk_p0;
  always @(posedge clk)
    if (rst | start) vld_p2 <= 1'h0;
    else if (en) vld_p2 <= vk_p1;
  always @(posedge clk)
    if (rst | start) vld_p3 <= 1'h0;
    else if (en) vld_p3 <= vk_p2;
  always @(posedge clk)
    if (rst | start) vld_p4 <= 1'h0;
    else if (en) vld_p4 <= vk_p3;
  always @(posedge clk)
    if (rst | start) vld_p5 <= 1'h0;
    else if (en) vld_p5 <= vk_p4;
  always @(posedge clk)
    if (rst | start) vld_p6 <= 1'h0;
    else if (en) vld_p6 <= vk_p5;
  always @(posedge clk)
    if (rst | start) vld_p7 <= 1'h0;
    else if (en) vld_p7 <= vk_p6;
  always @(posedge clk)
    if (start) iv0_p0 <= li_0;
    else if (vk_p0 & en) iv0_p0 <= iv0_p0 + 32'h1;
  always @(posedge clk)
    if (start) iv0_p7 <= li_0;
    else if (vk_p7 & en) iv0_p7 <= iv0_p7 + 32'h1;
  always @(posedge clk)
    if (rst | start) done <= 1'h0;
    else done <= leave_last;
  always @(posedge clk) if (en) begin
    v0_p1 <= c0;
    v2_p1 <= c2;
    v2_p2 <= v2_p1;
    v2_p3 <= v2_p2;
    v2_p4 <= v2_p3;
    v2_p5 <= v2_p4;
    v2_p6 <= v2_p5;
    v2_p7 <= v2_p6;
    v6_p6 <= c6;
    v7_p6 <= c7;
    v8_p7 <= c8;
  end
  wire rf6_pop = vk_p5 & v2_p5 & en;
  wire [31:0] rf6_din = m0_resp_data[31:0];
  assign rf6_dout = (rf6_count != 4'h0) ? rf6_mem[rf6_rd] : rf6_din;
  assign rf6_nonempty = (rf6_count != 4'h0) || m0_resp_valid;
  always @(posedge clk) begin
    if (rst || start) begin
      rf6_rd <= 3'h0;
      rf6_wr <= 3'h0;
      rf6_count <= 4'h0;
    end else begin
      if ((m0_resp_valid && !(rf6_pop && !(rf6_count != 4'h0)))) begin
        rf6_mem[rf6_wr] <= rf6_din;
        rf6_wr <= rf6_wr + 3'h1;
      end
      if ((rf6_pop && (rf6_count != 4'h0))) rf6_rd <= rf6_rd + 3'h1;
      if ((m0_resp_valid && !(rf6_pop && !(rf6_count != 4'h0))) && !(rf6_pop && (rf6_count != 4'h0))) rf6_count <= rf6_count + 4'h1;
      if (!(m0_resp_valid && !(rf6_pop && !(rf6_count != 4'h0))) && (rf6_pop && (rf6_count != 4'h0))) rf6_count <= rf6_count - 4'h1;
    end
  end
  wire rf7_pop = vk_p5 & v2_p5 & en;
  wire [31:0] rf7_din = m1_resp_data[31:0];
  assign rf7_dout = (rf7_count != 4'h0) ? rf7_mem[rf7_rd] : rf7_din;
  assign rf7_nonempty = (rf7_count != 4'h0) || m1_resp_valid;
  always @(posedge clk) begin
    if (rst || start) begin
      rf7_rd <= 3'h0;
      rf7_wr <= 3'h0;
      rf7_count <= 4'h0;
    end else begin
      if ((m1_resp_valid && !(rf7_pop && !(rf7_count != 4'h0)))) begin
        rf7_mem[rf7_wr] <= rf7_din;
        rf7_wr <= rf7_wr + 3'h1;
      end
      if ((rf7_pop && (rf7_count != 4'h0))) rf7_rd <= rf7_rd + 3'h1;
      if ((m1_resp_valid && !(rf7_pop && !(rf7_count != 4'h0))) && !(rf7_pop && (rf7_count != 4'h0))) rf7_count <= rf7_count + 4'h1;
      if (!(m1_resp_valid && !(rf7_pop && !(rf7_count != 4'h0))) && (rf7_pop && (rf7_count != 4'h0))) rf7_count <= rf7_count - 4'h1;
    end
  end
`ifndef SYNTHESIS
  always @(posedge clk) begin
    if (!rst && (m0_resp_valid && !(rf6_pop && !(rf6_count != 4'h0))) && !(rf6_pop && (rf6_count != 4'h0)) && rf6_count == 4'h8) begin
      $error("FIFO rf6 overflow");
      $stop;
    end
    if (!rst && rf6_pop && !rf6_nonempty) begin
      $error("FIFO rf6 underflow");
      $stop;
    end
    if (!rst && (m1_resp_valid && !(rf7_pop && !(rf7_count != 4'h0))) && !(rf7_pop && (rf7_count != 4'h0)) && rf7_count == 4'h8) begin
      $error("FIFO rf7 overflow");
      $stop;
    end
    if (!rst && rf7_pop && !rf7_nonempty) begin
      $error("FIFO rf7 underflow");
      $stop;
    end
  end
`endif
endmodule
