// Pipelined loop 'for.cond2': II 1, 11 positions, 6 cluster(s) (stall-free).
module lut_loop1 (
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
  output wire m2_req_valid,
  input wire m2_req_ready,
  output wire m2_req_write,
  output wire [63:0] m2_req_addr,
  output wire [3:0] m2_req_size,
  output wire [63:0] m2_req_wdata,
  input wire m2_resp_valid,
  /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] m2_resp_data /* verilator lint_on UNUSEDSIGNAL */
);
  reg running;
  wire issue /*verilator public_flat_rd*/;
  wire exit_det;
  wire admit_1;
  wire admit_2;
  wire admit_3;
  wire admit_4;
  wire admit_5;
  wire vk_p0;
  reg vld_p1;
  wire vk_p1;
  wire vk_p2;
  reg vld_p3;
  wire vk_p3;
  reg vld_p4;
  wire vk_p4;
  reg vld_p5;
  wire vk_p5;
  wire vk_p6;
  wire vk_p7;
  wire vk_p8;
  reg vld_p9;
  wire vk_p9;
  wire vk_p10;
  wire [31:0] c0; // LoopPhi i
  reg [31:0] iv0_p0;
  reg [31:0] iv0_p2;
  reg [31:0] iv0_p10;
  wire c2; // SLt cmp3
  reg v2_p1;
  reg v2_p3;
  reg v2_p4;
  reg v2_p5;
  reg v2_p9;
  wire [61:0] c4; // SExt 
  wire [63:0] c5; // Concat 
  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read
  wire [31:0] c6; // Load 
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read
  reg [31:0] v6_p9;
  /* verilator lint_on UNUSEDSIGNAL */
  wire [3:0] c7; // Extract 
  wire [31:0] c9; // Concat and
  wire [61:0] c10; // SExt 
  wire [63:0] c11; // Concat 
  wire [31:0] c12; // Load 
  reg [31:0] v12_p9;
  wire [31:0] c13; // Add add
  wire f0_v2;
  wire f1_v2;
  wire f2_v2;
  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read
  wire [31:0] f2_v6;
  /* verilator lint_on UNUSEDSIGNAL */
  wire f3_v2;
  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read
  wire [31:0] f3_v6;
  /* verilator lint_on UNUSEDSIGNAL */
  wire f4_v2;
  wire [31:0] f4_v13;
  wire fire6;
  wire [31:0] rf6_dout;
  wire rf6_nonempty;
  wire fire14;
  wire fire12;
  wire [31:0] rf12_dout;
  wire rf12_nonempty;
  wire f0_dout;
  wire f0_nonempty;
  reg [2:0] cred0;
  wire f1_dout;
  wire f1_nonempty;
  reg [4:0] cred1;
  wire [32:0] f2_dout;
  wire f2_nonempty;
  reg [2:0] cred2;
  wire [32:0] f3_dout;
  wire f3_nonempty;
  reg [2:0] cred3;
  wire [32:0] f4_dout;
  wire f4_nonempty;
  reg [2:0] cred4;
  wire leave_last;
  reg [31:0] rf6_mem [0:15];
  reg [3:0] rf6_rd;
  reg [3:0] rf6_wr;
  reg [4:0] rf6_count;
  reg [31:0] rf12_mem [0:3];
  reg [1:0] rf12_rd;
  reg [1:0] rf12_wr;
  reg [2:0] rf12_count;
  reg f0_mem [0:3];
  reg [1:0] f0_rd;
  reg [1:0] f0_wr;
  reg [2:0] f0_count;
  reg f1_mem [0:15];
  reg [3:0] f1_rd;
  reg [3:0] f1_wr;
  reg [4:0] f1_count;
  reg [32:0] f2_mem [0:2];
  reg [1:0] f2_rd;
  reg [1:0] f2_wr;
  reg [2:0] f2_count;
  reg [32:0] f3_mem [0:2];
  reg [1:0] f3_rd;
  reg [1:0] f3_wr;
  reg [2:0] f3_count;
  reg [32:0] f4_mem [0:3];
  reg [1:0] f4_rd;
  reg [1:0] f4_wr;
  reg [2:0] f4_count;
  assign fire6 = admit_1 & f0_v2;
  assign m0_req_valid = fire6;
  assign m0_req_write = 1'h0;
  assign m0_req_addr = c5;
  assign m0_req_size = 4'h4;
  assign m0_req_wdata = 64'h0;
  assign fire14 = admit_5 & f4_v2;
  assign m1_req_valid = fire14;
  assign m1_req_write = fire14;
  assign m1_req_addr = {{{30{iv0_p10[31]}}, iv0_p10}, 2'h0};
  assign m1_req_size = 4'h4;
  assign m1_req_wdata = {32'h0, f4_v13};
  assign fire12 = admit_3 & f2_v2;
  assign m2_req_valid = fire12;
  assign m2_req_write = 1'h0;
  assign m2_req_addr = c11;
  assign m2_req_size = 4'h4;
  assign m2_req_wdata = 64'h0;
  assign exit_det = vld_p1 & ~v2_p1;
  assign vk_p0 = issue & ~exit_det;
  assign vk_p1 = vld_p1;
  assign vk_p2 = admit_1;
  assign vk_p3 = vld_p3;
  assign vk_p4 = vld_p4;
  assign vk_p5 = vld_p5;
  assign vk_p6 = admit_2;
  assign vk_p7 = admit_3;
  assign vk_p8 = admit_4;
  assign vk_p9 = vld_p9;
  assign vk_p10 = admit_5;
  assign f0_v2 = f0_dout;
  assign f1_v2 = f1_dout;
  assign f2_v2 = f2_dout[0];
  assign f2_v6 = f2_dout[32:1];
  assign f3_v2 = f3_dout[0];
  assign f3_v6 = f3_dout[32:1];
  assign f4_v2 = f4_dout[0];
  assign f4_v13 = f4_dout[32:1];
  assign issue = running & (cred0 < 3'h4);
  assign admit_1 = f0_nonempty & (cred1 < 5'h10) & (~f0_v2 | m0_req_ready);
  assign admit_2 = f1_nonempty & (cred2 < 3'h3) & (~f1_v2 | rf6_nonempty);
  assign admit_3 = f2_nonempty & (cred3 < 3'h3) & (~f2_v2 | m2_req_ready);
  assign admit_4 = f3_nonempty & (cred4 < 3'h4) & (~f3_v2 | rf12_nonempty);
  assign admit_5 = f4_nonempty & (~f4_v2 | m1_req_ready);
  assign c0 = iv0_p0;
  assign c2 = $signed(c0) < $signed(li_1);
  assign c4 = {{30{iv0_p2[31]}}, iv0_p2};
  assign c5 = {c4, 2'h0};
  assign c6 = rf6_dout;
  assign c7 = f2_v6[3:0];
  assign c9 = {28'h0, c7};
  assign c10 = {{30{c9[31]}}, c9};
  assign c11 = {c10, 2'h0};
  assign c12 = rf12_dout;
  assign c13 = v12_p9 + v6_p9;
  assign leave_last = vk_p10 & ~f4_v2;
  always @(posedge clk)
    if (rst | start) cred0 <= 3'h0;
    else if (issue & ~admit_1) cred0 <= cred0 + 3'h1;
    else if (~issue & admit_1) cred0 <= cred0 - 3'h1;
  always @(posedge clk)
    if (rst | start) cred1 <= 5'h0;
    else if (admit_1 & ~admit_2) cred1 <= cred1 + 5'h1;
    else if (~admit_1 & admit_2) cred1 <= cred1 - 5'h1;
  always @(posedge clk)
    if (rst | start) cred2 <= 3'h0;
    else if (admit_2 & ~admit_3) cred2 <= cred2 + 3'h1;
    else if (~admit_2 & admit_3) cred2 <= cred2 - 3'h1;
  always @(posedge clk)
    if (rst | start) cred3 <= 3'h0;
    else if (admit_3 & ~admit_4) cred3 <= cred3 + 3'h1;
    else if (~admit_3 & admit_4) cred3 <= cred3 - 3'h1;
  always @(posedge clk)
    if (rst | start) cred4 <= 3'h0;
    else if (admit_4 & ~admit_5) cred4 <= cred4 + 3'h1;
    else if (~admit_4 & admit_5) cred4 <= cred4 - 3'h1;
  always @(posedge clk)
    if (rst) running <= 1'h0;
    else if (start) running <= 1'h1;
    else if (exit_det) running <= 1'h0;
  always @(posedge clk)
    if (rst | start) vld_p1 <= 1'h0;
    else vld_p1 <= vk_p0;
  always @(posedge clk)
    if (rst | start) vld_p3 <= 1'h0;
    else vld_p3 <= vk_p2;
  always @(posedge clk)
    if (rst | start) vld_p4 <= 1'h0;
    else vld_p4 <= vk_p3;
  always @(posedge clk)
    if (rst | start) vld_p5 <= 1'h0;
    else vld_p5 <= vk_p4;
  always @(posedge clk)
    if (rst | start) vld_p9 <= 1'h0;
    else vld_p9 <= vk_p8;
  always @(posedge clk)
    if (start) iv0_p0 <= li_0;
    else if (vk_p0) iv0_p0 <= iv0_p0 + 32'h1;
  always @(posedge clk)
    if (start) iv0_p2 <= li_0;
    else if (vk_p2) iv0_p2 <= iv0_p2 + 32'h1;
  always @(posedge clk)
    if (start) iv0_p10 <= li_0;
    else if (vk_p10) iv0_p10 <= iv0_p10 + 32'h1;
  always @(posedge clk)
    if (rst | start) done <= 1'h0;
    else done <= leave_last;
  always @(posedge clk) begin
    v2_p1 <= c2;
    v2_p3 <= f0_v2;
    v2_p4 <= v2_p3;
    v2_p5 <= v2_p4;
    v2_p9 <= f3_v2;
    v6_p9 <= f3_v6;
    v12_p9 <= c12;
  end
  wire rf6_pop = admit_2 & f1_v2;
  wire [31:0] rf6_din = m0_resp_data[31:0];
  assign rf6_dout = (rf6_count != 5'h0) ? rf6_mem[rf6_rd] : rf6_din;
  assign rf6_nonempty = (rf6_count != 5'h0) || m0_resp_valid;
  always @(posedge clk) begin
    if (rst || start) begin
      rf6_rd <= 4'h0;
      rf6_wr <= 4'h0;
      rf6_count <= 5'h0;
    end else begin
      if ((m0_resp_valid && !(rf6_pop && !(rf6_count != 5'h0)))) begin
        rf6_mem[rf6_wr] <= rf6_din;
        rf6_wr <= rf6_wr + 4'h1;
      end
      if ((rf6_pop && (rf6_count != 5'h0))) rf6_rd <= rf6_rd + 4'h1;
      if ((m0_resp_valid && !(rf6_pop && !(rf6_count != 5'h0))) && !(rf6_pop && (rf6_count != 5'h0))) rf6_count <= rf6_count + 5'h1;
      if (!(m0_resp_valid && !(rf6_pop && !(rf6_count != 5'h0))) && (rf6_pop && (rf6_count != 5'h0))) rf6_count <= rf6_count - 5'h1;
    end
  end
  wire rf12_pop = admit_4 & f3_v2;
  wire [31:0] rf12_din = m2_resp_data[31:0];
  assign rf12_dout = (rf12_count != 3'h0) ? rf12_mem[rf12_rd] : rf12_din;
  assign rf12_nonempty = (rf12_count != 3'h0) || m2_resp_valid;
  always @(posedge clk) begin
    if (rst || start) begin
      rf12_rd <= 2'h0;
      rf12_wr <= 2'h0;
      rf12_count <= 3'h0;
    end else begin
      if ((m2_resp_valid && !(rf12_pop && !(rf12_count != 3'h0)))) begin
        rf12_mem[rf12_wr] <= rf12_din;
        rf12_wr <= rf12_wr + 2'h1;
      end
      if ((rf12_pop && (rf12_count != 3'h0))) rf12_rd <= rf12_rd + 2'h1;
      if ((m2_resp_valid && !(rf12_pop && !(rf12_count != 3'h0))) && !(rf12_pop && (rf12_count != 3'h0))) rf12_count <= rf12_count + 3'h1;
      if (!(m2_resp_valid && !(rf12_pop && !(rf12_count != 3'h0))) && (rf12_pop && (rf12_count != 3'h0))) rf12_count <= rf12_count - 3'h1;
    end
  end
  assign f0_dout = f0_mem[f0_rd];
  assign f0_nonempty = (f0_count != 3'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f0_rd <= 2'h0;
      f0_wr <= 2'h0;
      f0_count <= 3'h0;
    end else begin
      if (vk_p1) begin
        f0_mem[f0_wr] <= v2_p1;
        f0_wr <= f0_wr + 2'h1;
      end
      if (admit_1) f0_rd <= f0_rd + 2'h1;
      if (vk_p1 && !admit_1) f0_count <= f0_count + 3'h1;
      if (!vk_p1 && admit_1) f0_count <= f0_count - 3'h1;
    end
  end
  assign f1_dout = f1_mem[f1_rd];
  assign f1_nonempty = (f1_count != 5'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f1_rd <= 4'h0;
      f1_wr <= 4'h0;
      f1_count <= 5'h0;
    end else begin
      if (vk_p5) begin
        f1_mem[f1_wr] <= v2_p5;
        f1_wr <= f1_wr + 4'h1;
      end
      if (admit_2) f1_rd <= f1_rd + 4'h1;
      if (vk_p5 && !admit_2) f1_count <= f1_count + 5'h1;
      if (!vk_p5 && admit_2) f1_count <= f1_count - 5'h1;
    end
  end
  wire [32:0] f2_din = {c6, f1_v2};
  assign f2_dout = f2_mem[f2_rd];
  assign f2_nonempty = (f2_count != 3'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f2_rd <= 2'h0;
      f2_wr <= 2'h0;
      f2_count <= 3'h0;
    end else begin
      if (vk_p6) begin
        f2_mem[f2_wr] <= f2_din;
        f2_wr <= (f2_wr == 2'h2) ? 2'h0 : f2_wr + 2'h1;
      end
      if (admit_3) f2_rd <= (f2_rd == 2'h2) ? 2'h0 : f2_rd + 2'h1;
      if (vk_p6 && !admit_3) f2_count <= f2_count + 3'h1;
      if (!vk_p6 && admit_3) f2_count <= f2_count - 3'h1;
    end
  end
  wire [32:0] f3_din = {f2_v6, f2_v2};
  assign f3_dout = f3_mem[f3_rd];
  assign f3_nonempty = (f3_count != 3'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f3_rd <= 2'h0;
      f3_wr <= 2'h0;
      f3_count <= 3'h0;
    end else begin
      if (vk_p7) begin
        f3_mem[f3_wr] <= f3_din;
        f3_wr <= (f3_wr == 2'h2) ? 2'h0 : f3_wr + 2'h1;
      end
      if (admit_4) f3_rd <= (f3_rd == 2'h2) ? 2'h0 : f3_rd + 2'h1;
      if (vk_p7 && !admit_4) f3_count <= f3_count + 3'h1;
      if (!vk_p7 && admit_4) f3_count <= f3_count - 3'h1;
    end
  end
  wire [32:0] f4_din = {c13, v2_p9};
  assign f4_dout = f4_mem[f4_rd];
  assign f4_nonempty = (f4_count != 3'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f4_rd <= 2'h0;
      f4_wr <= 2'h0;
      f4_count <= 3'h0;
    end else begin
      if (vk_p9) begin
        f4_mem[f4_wr] <= f4_din;
        f4_wr <= f4_wr + 2'h1;
      end
      if (admit_5) f4_rd <= f4_rd + 2'h1;
      if (vk_p9 && !admit_5) f4_count <= f4_count + 3'h1;
      if (!vk_p9 && admit_5) f4_count <= f4_count - 3'h1;
    end
  end
`ifndef SYNTHESIS
  always @(posedge clk) begin
    if (!rst && (m0_resp_valid && !(rf6_pop && !(rf6_count != 5'h0))) && !(rf6_pop && (rf6_count != 5'h0)) && rf6_count == 5'h10) begin
      $error("FIFO rf6 overflow");
      $stop;
    end
    if (!rst && rf6_pop && !rf6_nonempty) begin
      $error("FIFO rf6 underflow");
      $stop;
    end
    if (!rst && (m2_resp_valid && !(rf12_pop && !(rf12_count != 3'h0))) && !(rf12_pop && (rf12_count != 3'h0)) && rf12_count == 3'h4) begin
      $error("FIFO rf12 overflow");
      $stop;
    end
    if (!rst && rf12_pop && !rf12_nonempty) begin
      $error("FIFO rf12 underflow");
      $stop;
    end
    if (!rst && vk_p1 && !admit_1 && f0_count == 3'h4) begin
      $error("FIFO f0 overflow");
      $stop;
    end
    if (!rst && admit_1 && !f0_nonempty) begin
      $error("FIFO f0 underflow");
      $stop;
    end
    if (!rst && vk_p5 && !admit_2 && f1_count == 5'h10) begin
      $error("FIFO f1 overflow");
      $stop;
    end
    if (!rst && admit_2 && !f1_nonempty) begin
      $error("FIFO f1 underflow");
      $stop;
    end
    if (!rst && vk_p6 && !admit_3 && f2_count == 3'h3) begin
      $error("FIFO f2 overflow");
      $stop;
    end
    if (!rst && admit_3 && !f2_nonempty) begin
      $error("FIFO f2 underflow");
      $stop;
    end
    if (!rst && vk_p7 && !admit_4 && f3_count == 3'h3) begin
      $error("FIFO f3 overflow");
      $stop;
    end
    if (!rst && admit_4 && !f3_nonempty) begin
      $error("FIFO f3 underflow");
      $stop;
    end
    if (!rst && vk_p9 && !admit_5 && f4_count == 3'h4) begin
      $error("FIFO f4 overflow");
      $stop;
    end
    if (!rst && admit_5 && !f4_nonempty) begin
      $error("FIFO f4 underflow");
      $stop;
    end
  end
`endif
endmodule
