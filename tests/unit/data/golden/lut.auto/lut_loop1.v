// Pipelined loop 'for.cond2': II 2, 12 positions, 8 cluster(s) (stall-free).
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
  reg [31:0] li_1_q;
  wire issue /*verilator public_flat_rd*/;
  wire exit_det;
  wire admit_1;
  wire admit_2;
  wire admit_3;
  wire admit_4;
  wire admit_5;
  wire admit_6;
  wire admit_7;
  wire vk_p0;
  reg vld_p1;
  wire vk_p1;
  wire vk_p2;
  wire vk_p3;
  reg vld_p4;
  wire vk_p4;
  reg vld_p5;
  wire vk_p5;
  wire vk_p6;
  wire vk_p7;
  wire vk_p8;
  wire vk_p9;
  reg vld_p10;
  wire vk_p10;
  wire vk_p11;
  wire [31:0] c0; // LoopPhi i
  reg [31:0] v0_p1;
  wire c2; // SLt cmp3
  reg v2_p1;
  reg v2_p4;
  reg v2_p5;
  reg v2_p10;
  wire [61:0] c4; // SExt 
  wire [63:0] c5; // Concat 
  reg [63:0] v5_p4;
  reg [63:0] v5_p5;
  reg [63:0] v5_p10;
  wire [31:0] c6; // Load 
  wire [31:0] c8; // And and
  wire [61:0] c9; // SExt 
  wire [63:0] c10; // Concat 
  wire [31:0] c11; // Load 
  reg [31:0] v11_p10;
  wire [31:0] c12; // Load 
  reg [31:0] v12_p10;
  wire [31:0] c13; // Add add
  wire [31:0] c16; // Add inc14
  reg [31:0] v16_p1;
  reg lst_p4;
  reg lst_p5;
  reg lst_p10;
  reg [31:0] carry0;
  wire f0_lst;
  wire [31:0] f0_v0;
  wire f0_v2;
  wire f1_lst;
  wire f1_v2;
  wire [63:0] f1_v5;
  wire f2_lst;
  wire f2_v2;
  wire [63:0] f2_v5;
  wire f3_lst;
  wire f3_v2;
  wire [63:0] f3_v5;
  wire [31:0] f3_v6;
  wire f4_lst;
  wire f4_v2;
  wire [63:0] f4_v5;
  wire [31:0] f4_v8;
  wire [31:0] f4_v12;
  wire f5_lst;
  wire f5_v2;
  wire [63:0] f5_v5;
  wire [31:0] f5_v12;
  wire f6_lst;
  wire f6_v2;
  wire [63:0] f6_v5;
  wire [31:0] f6_v13;
  wire fire6;
  wire fire12;
  wire tag0_dout;
  wire tag0_nonempty;
  wire [31:0] rf6_dout;
  wire rf6_nonempty;
  wire [31:0] rf12_dout;
  wire rf12_nonempty;
  wire fire14;
  wire fire11;
  wire [31:0] rf11_dout;
  wire rf11_nonempty;
  wire [33:0] f0_dout;
  wire f0_nonempty;
  reg [2:0] cred0;
  wire [65:0] f1_dout;
  wire f1_nonempty;
  reg [1:0] cred1;
  wire [65:0] f2_dout;
  wire f2_nonempty;
  reg [2:0] cred2;
  wire [97:0] f3_dout;
  wire f3_nonempty;
  reg [1:0] cred3;
  wire [129:0] f4_dout;
  wire f4_nonempty;
  reg [1:0] cred4;
  wire [97:0] f5_dout;
  wire f5_nonempty;
  reg [1:0] cred5;
  wire [97:0] f6_dout;
  wire f6_nonempty;
  reg [2:0] cred6;
  reg since0;
  reg since1;
  reg since2;
  reg since3;
  reg since4;
  reg since5;
  reg since6;
  reg since7;
  wire leave_last;
  reg tag0_mem [0:15];
  reg [3:0] tag0_rd;
  reg [3:0] tag0_wr;
  reg [4:0] tag0_count;
  reg [31:0] rf6_mem [0:7];
  reg [2:0] rf6_rd;
  reg [2:0] rf6_wr;
  reg [3:0] rf6_count;
  reg [31:0] rf12_mem [0:7];
  reg [2:0] rf12_rd;
  reg [2:0] rf12_wr;
  reg [3:0] rf12_count;
  reg [31:0] rf11_mem [0:3];
  reg [1:0] rf11_rd;
  reg [1:0] rf11_wr;
  reg [2:0] rf11_count;
  reg [33:0] f0_mem [0:3];
  reg [1:0] f0_rd;
  reg [1:0] f0_wr;
  reg [2:0] f0_count;
  reg [65:0] f1_mem [0:1];
  reg f1_rd;
  reg f1_wr;
  reg [1:0] f1_count;
  reg [65:0] f2_mem [0:3];
  reg [1:0] f2_rd;
  reg [1:0] f2_wr;
  reg [2:0] f2_count;
  reg [97:0] f3_mem [0:1];
  reg f3_rd;
  reg f3_wr;
  reg [1:0] f3_count;
  reg [129:0] f4_mem [0:1];
  reg f4_rd;
  reg f4_wr;
  reg [1:0] f4_count;
  reg [97:0] f5_mem [0:1];
  reg f5_rd;
  reg f5_wr;
  reg [1:0] f5_count;
  reg [97:0] f6_mem [0:3];
  reg [1:0] f6_rd;
  reg [1:0] f6_wr;
  reg [2:0] f6_count;
  assign fire6 = admit_1 & f0_v2;
  assign fire12 = admit_2 & f1_v2;
  assign m0_req_valid = fire6 | fire12;
  assign m0_req_write = 1'h0;
  assign m0_req_addr = fire12 ? f1_v5 : fire6 ? c5 : 64'h0;
  assign m0_req_size = fire12 ? 4'h4 : fire6 ? 4'h4 : 4'h0;
  assign m0_req_wdata = 64'h0;
  assign fire14 = admit_7 & f6_v2;
  assign m1_req_valid = fire14;
  assign m1_req_write = fire14;
  assign m1_req_addr = fire14 ? f6_v5 : 64'h0;
  assign m1_req_size = fire14 ? 4'h4 : 4'h0;
  assign m1_req_wdata = fire14 ? {32'h0, f6_v13} : 64'h0;
  assign fire11 = admit_5 & f4_v2;
  assign m2_req_valid = fire11;
  assign m2_req_write = 1'h0;
  assign m2_req_addr = fire11 ? c10 : 64'h0;
  assign m2_req_size = fire11 ? 4'h4 : 4'h0;
  assign m2_req_wdata = 64'h0;
  assign exit_det = vld_p1 & ~v2_p1;
  assign vk_p0 = issue & ~exit_det;
  assign vk_p1 = vld_p1;
  assign vk_p2 = admit_1;
  assign vk_p3 = admit_2;
  assign vk_p4 = vld_p4;
  assign vk_p5 = vld_p5;
  assign vk_p6 = admit_3;
  assign vk_p7 = admit_4;
  assign vk_p8 = admit_5;
  assign vk_p9 = admit_6;
  assign vk_p10 = vld_p10;
  assign vk_p11 = admit_7;
  assign f0_lst = f0_dout[0];
  assign f0_v0 = f0_dout[32:1];
  assign f0_v2 = f0_dout[33];
  assign f1_lst = f1_dout[0];
  assign f1_v2 = f1_dout[1];
  assign f1_v5 = f1_dout[65:2];
  assign f2_lst = f2_dout[0];
  assign f2_v2 = f2_dout[1];
  assign f2_v5 = f2_dout[65:2];
  assign f3_lst = f3_dout[0];
  assign f3_v2 = f3_dout[1];
  assign f3_v5 = f3_dout[65:2];
  assign f3_v6 = f3_dout[97:66];
  assign f4_lst = f4_dout[0];
  assign f4_v2 = f4_dout[1];
  assign f4_v5 = f4_dout[65:2];
  assign f4_v8 = f4_dout[97:66];
  assign f4_v12 = f4_dout[129:98];
  assign f5_lst = f5_dout[0];
  assign f5_v2 = f5_dout[1];
  assign f5_v5 = f5_dout[65:2];
  assign f5_v12 = f5_dout[97:66];
  assign f6_lst = f6_dout[0];
  assign f6_v2 = f6_dout[1];
  assign f6_v5 = f6_dout[65:2];
  assign f6_v13 = f6_dout[97:66];
  assign issue = running & (cred0 < 3'h4) & (since0 == 1'h1);
  assign admit_1 = f0_nonempty & (cred1 < 2'h2) & (since1 == 1'h1) & (~f0_v2 | (m0_req_ready & ~(admit_2 & f1_v2)));
  assign admit_2 = f1_nonempty & (cred2 < 3'h4) & (since2 == 1'h1) & (~f1_v2 | m0_req_ready);
  assign admit_3 = f2_nonempty & (cred3 < 2'h2) & (since3 == 1'h1) & (~f2_v2 | rf6_nonempty);
  assign admit_4 = f3_nonempty & (cred4 < 2'h2) & (since4 == 1'h1) & (~f3_v2 | rf12_nonempty);
  assign admit_5 = f4_nonempty & (cred5 < 2'h2) & (since5 == 1'h1) & (~f4_v2 | m2_req_ready);
  assign admit_6 = f5_nonempty & (cred6 < 3'h4) & (since6 == 1'h1) & (~f5_v2 | rf11_nonempty);
  assign admit_7 = f6_nonempty & (since7 == 1'h1) & (~f6_v2 | m1_req_ready);
  assign c0 = carry0;
  assign c2 = $signed(c0) < $signed(li_1_q);
  assign c4 = {{30{f0_v0[31]}}, f0_v0};
  assign c5 = {c4, 2'h0};
  assign c6 = rf6_dout;
  assign c8 = f3_v6 & 32'hf;
  assign c9 = {{30{f4_v8[31]}}, f4_v8};
  assign c10 = {c9, 2'h0};
  assign c11 = rf11_dout;
  assign c12 = rf12_dout;
  assign c13 = v11_p10 + v12_p10;
  assign c16 = c0 + 32'h1;
  assign leave_last = vk_p11 & f6_lst;
  always @(posedge clk)
    if (rst | start) cred0 <= 3'h0;
    else if (issue & ~admit_1) cred0 <= cred0 + 3'h1;
    else if (~issue & admit_1) cred0 <= cred0 - 3'h1;
  always @(posedge clk)
    if (rst | start) cred1 <= 2'h0;
    else if (admit_1 & ~admit_2) cred1 <= cred1 + 2'h1;
    else if (~admit_1 & admit_2) cred1 <= cred1 - 2'h1;
  always @(posedge clk)
    if (rst | start) cred2 <= 3'h0;
    else if (admit_2 & ~admit_3) cred2 <= cred2 + 3'h1;
    else if (~admit_2 & admit_3) cred2 <= cred2 - 3'h1;
  always @(posedge clk)
    if (rst | start) cred3 <= 2'h0;
    else if (admit_3 & ~admit_4) cred3 <= cred3 + 2'h1;
    else if (~admit_3 & admit_4) cred3 <= cred3 - 2'h1;
  always @(posedge clk)
    if (rst | start) cred4 <= 2'h0;
    else if (admit_4 & ~admit_5) cred4 <= cred4 + 2'h1;
    else if (~admit_4 & admit_5) cred4 <= cred4 - 2'h1;
  always @(posedge clk)
    if (rst | start) cred5 <= 2'h0;
    else if (admit_5 & ~admit_6) cred5 <= cred5 + 2'h1;
    else if (~admit_5 & admit_6) cred5 <= cred5 - 2'h1;
  always @(posedge clk)
    if (rst | start) cred6 <= 3'h0;
    else if (admit_6 & ~admit_7) cred6 <= cred6 + 3'h1;
    else if (~admit_6 & admit_7) cred6 <= cred6 - 3'h1;
  always @(posedge clk)
    if (rst | start) since0 <= 1'h1;
    else if (issue) since0 <= 1'h0;
    else if (since0 != 1'h1) since0 <= since0 + 1'h1;
  always @(posedge clk)
    if (rst | start) since1 <= 1'h1;
    else if (admit_1) since1 <= 1'h0;
    else if (since1 != 1'h1) since1 <= since1 + 1'h1;
  always @(posedge clk)
    if (rst | start) since2 <= 1'h1;
    else if (admit_2) since2 <= 1'h0;
    else if (since2 != 1'h1) since2 <= since2 + 1'h1;
  always @(posedge clk)
    if (rst | start) since3 <= 1'h1;
    else if (admit_3) since3 <= 1'h0;
    else if (since3 != 1'h1) since3 <= since3 + 1'h1;
  always @(posedge clk)
    if (rst | start) since4 <= 1'h1;
    else if (admit_4) since4 <= 1'h0;
    else if (since4 != 1'h1) since4 <= since4 + 1'h1;
  always @(posedge clk)
    if (rst | start) since5 <= 1'h1;
    else if (admit_5) since5 <= 1'h0;
    else if (since5 != 1'h1) since5 <= since5 + 1'h1;
  always @(posedge clk)
    if (rst | start) since6 <= 1'h1;
    else if (admit_6) since6 <= 1'h0;
    else if (since6 != 1'h1) since6 <= since6 + 1'h1;
  always @(posedge clk)
    if (rst | start) since7 <= 1'h1;
    else if (admit_7) since7 <= 1'h0;
    else if (since7 != 1'h1) since7 <= since7 + 1'h1;
  always @(posedge clk)
    if (rst) running <= 1'h0;
    else if (start) running <= 1'h1;
    else if (exit_det) running <= 1'h0;
  always @(posedge clk)
    if (rst | start) vld_p1 <= 1'h0;
    else vld_p1 <= vk_p0;
  always @(posedge clk)
    if (rst | start) vld_p4 <= 1'h0;
    else vld_p4 <= vk_p3;
  always @(posedge clk)
    if (rst | start) vld_p5 <= 1'h0;
    else vld_p5 <= vk_p4;
  always @(posedge clk)
    if (rst | start) vld_p10 <= 1'h0;
    else vld_p10 <= vk_p9;
  always @(posedge clk)
    if (start) carry0 <= li_0;
    else if (vk_p1) carry0 <= v16_p1;
  always @(posedge clk)
    if (rst | start) done <= 1'h0;
    else done <= leave_last;
  always @(posedge clk) begin
    lst_p4 <= f1_lst;
    lst_p5 <= lst_p4;
    lst_p10 <= f5_lst;
    v0_p1 <= c0;
    v2_p1 <= c2;
    v2_p4 <= f1_v2;
    v2_p5 <= v2_p4;
    v2_p10 <= f5_v2;
    v5_p4 <= f1_v5;
    v5_p5 <= v5_p4;
    v5_p10 <= f5_v5;
    v11_p10 <= c11;
    v12_p10 <= f5_v12;
    v16_p1 <= c16;
  end
  always @(posedge clk)
    if (start) li_1_q <= li_1;
  wire tag0_push = m0_req_ready & (fire12 | fire6);
  wire tag0_din = fire12 ? 1'h1 : fire6 ? 1'h0 : 1'h0;
  assign tag0_dout = tag0_mem[tag0_rd];
  assign tag0_nonempty = (tag0_count != 5'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      tag0_rd <= 4'h0;
      tag0_wr <= 4'h0;
      tag0_count <= 5'h0;
    end else begin
      if (tag0_push) begin
        tag0_mem[tag0_wr] <= tag0_din;
        tag0_wr <= tag0_wr + 4'h1;
      end
      if (m0_resp_valid) tag0_rd <= tag0_rd + 4'h1;
      if (tag0_push && !m0_resp_valid) tag0_count <= tag0_count + 5'h1;
      if (!tag0_push && m0_resp_valid) tag0_count <= tag0_count - 5'h1;
    end
  end
  wire rf6_push = m0_resp_valid & (tag0_dout == 1'h0);
  wire rf6_pop = admit_3 & f2_v2;
  wire [31:0] rf6_din = m0_resp_data[31:0];
  assign rf6_dout = (rf6_count != 4'h0) ? rf6_mem[rf6_rd] : rf6_din;
  assign rf6_nonempty = (rf6_count != 4'h0) || rf6_push;
  always @(posedge clk) begin
    if (rst || start) begin
      rf6_rd <= 3'h0;
      rf6_wr <= 3'h0;
      rf6_count <= 4'h0;
    end else begin
      if ((rf6_push && !(rf6_pop && !(rf6_count != 4'h0)))) begin
        rf6_mem[rf6_wr] <= rf6_din;
        rf6_wr <= rf6_wr + 3'h1;
      end
      if ((rf6_pop && (rf6_count != 4'h0))) rf6_rd <= rf6_rd + 3'h1;
      if ((rf6_push && !(rf6_pop && !(rf6_count != 4'h0))) && !(rf6_pop && (rf6_count != 4'h0))) rf6_count <= rf6_count + 4'h1;
      if (!(rf6_push && !(rf6_pop && !(rf6_count != 4'h0))) && (rf6_pop && (rf6_count != 4'h0))) rf6_count <= rf6_count - 4'h1;
    end
  end
  wire rf12_push = m0_resp_valid & (tag0_dout == 1'h1);
  wire rf12_pop = admit_4 & f3_v2;
  wire [31:0] rf12_din = m0_resp_data[31:0];
  assign rf12_dout = (rf12_count != 4'h0) ? rf12_mem[rf12_rd] : rf12_din;
  assign rf12_nonempty = (rf12_count != 4'h0) || rf12_push;
  always @(posedge clk) begin
    if (rst || start) begin
      rf12_rd <= 3'h0;
      rf12_wr <= 3'h0;
      rf12_count <= 4'h0;
    end else begin
      if ((rf12_push && !(rf12_pop && !(rf12_count != 4'h0)))) begin
        rf12_mem[rf12_wr] <= rf12_din;
        rf12_wr <= rf12_wr + 3'h1;
      end
      if ((rf12_pop && (rf12_count != 4'h0))) rf12_rd <= rf12_rd + 3'h1;
      if ((rf12_push && !(rf12_pop && !(rf12_count != 4'h0))) && !(rf12_pop && (rf12_count != 4'h0))) rf12_count <= rf12_count + 4'h1;
      if (!(rf12_push && !(rf12_pop && !(rf12_count != 4'h0))) && (rf12_pop && (rf12_count != 4'h0))) rf12_count <= rf12_count - 4'h1;
    end
  end
  wire rf11_pop = admit_6 & f5_v2;
  wire [31:0] rf11_din = m2_resp_data[31:0];
  assign rf11_dout = (rf11_count != 3'h0) ? rf11_mem[rf11_rd] : rf11_din;
  assign rf11_nonempty = (rf11_count != 3'h0) || m2_resp_valid;
  always @(posedge clk) begin
    if (rst || start) begin
      rf11_rd <= 2'h0;
      rf11_wr <= 2'h0;
      rf11_count <= 3'h0;
    end else begin
      if ((m2_resp_valid && !(rf11_pop && !(rf11_count != 3'h0)))) begin
        rf11_mem[rf11_wr] <= rf11_din;
        rf11_wr <= rf11_wr + 2'h1;
      end
      if ((rf11_pop && (rf11_count != 3'h0))) rf11_rd <= rf11_rd + 2'h1;
      if ((m2_resp_valid && !(rf11_pop && !(rf11_count != 3'h0))) && !(rf11_pop && (rf11_count != 3'h0))) rf11_count <= rf11_count + 3'h1;
      if (!(m2_resp_valid && !(rf11_pop && !(rf11_count != 3'h0))) && (rf11_pop && (rf11_count != 3'h0))) rf11_count <= rf11_count - 3'h1;
    end
  end
  wire [33:0] f0_din = {v2_p1, v0_p1, ~v2_p1};
  assign f0_dout = f0_mem[f0_rd];
  assign f0_nonempty = (f0_count != 3'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f0_rd <= 2'h0;
      f0_wr <= 2'h0;
      f0_count <= 3'h0;
    end else begin
      if (vk_p1) begin
        f0_mem[f0_wr] <= f0_din;
        f0_wr <= f0_wr + 2'h1;
      end
      if (admit_1) f0_rd <= f0_rd + 2'h1;
      if (vk_p1 && !admit_1) f0_count <= f0_count + 3'h1;
      if (!vk_p1 && admit_1) f0_count <= f0_count - 3'h1;
    end
  end
  wire [65:0] f1_din = {c5, f0_v2, f0_lst};
  assign f1_dout = f1_mem[f1_rd];
  assign f1_nonempty = (f1_count != 2'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f1_rd <= 1'h0;
      f1_wr <= 1'h0;
      f1_count <= 2'h0;
    end else begin
      if (vk_p2) begin
        f1_mem[f1_wr] <= f1_din;
        f1_wr <= f1_wr + 1'h1;
      end
      if (admit_2) f1_rd <= f1_rd + 1'h1;
      if (vk_p2 && !admit_2) f1_count <= f1_count + 2'h1;
      if (!vk_p2 && admit_2) f1_count <= f1_count - 2'h1;
    end
  end
  wire [65:0] f2_din = {v5_p5, v2_p5, lst_p5};
  assign f2_dout = f2_mem[f2_rd];
  assign f2_nonempty = (f2_count != 3'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f2_rd <= 2'h0;
      f2_wr <= 2'h0;
      f2_count <= 3'h0;
    end else begin
      if (vk_p5) begin
        f2_mem[f2_wr] <= f2_din;
        f2_wr <= f2_wr + 2'h1;
      end
      if (admit_3) f2_rd <= f2_rd + 2'h1;
      if (vk_p5 && !admit_3) f2_count <= f2_count + 3'h1;
      if (!vk_p5 && admit_3) f2_count <= f2_count - 3'h1;
    end
  end
  wire [97:0] f3_din = {c6, f2_v5, f2_v2, f2_lst};
  assign f3_dout = f3_mem[f3_rd];
  assign f3_nonempty = (f3_count != 2'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f3_rd <= 1'h0;
      f3_wr <= 1'h0;
      f3_count <= 2'h0;
    end else begin
      if (vk_p6) begin
        f3_mem[f3_wr] <= f3_din;
        f3_wr <= f3_wr + 1'h1;
      end
      if (admit_4) f3_rd <= f3_rd + 1'h1;
      if (vk_p6 && !admit_4) f3_count <= f3_count + 2'h1;
      if (!vk_p6 && admit_4) f3_count <= f3_count - 2'h1;
    end
  end
  wire [129:0] f4_din = {c12, c8, f3_v5, f3_v2, f3_lst};
  assign f4_dout = f4_mem[f4_rd];
  assign f4_nonempty = (f4_count != 2'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f4_rd <= 1'h0;
      f4_wr <= 1'h0;
      f4_count <= 2'h0;
    end else begin
      if (vk_p7) begin
        f4_mem[f4_wr] <= f4_din;
        f4_wr <= f4_wr + 1'h1;
      end
      if (admit_5) f4_rd <= f4_rd + 1'h1;
      if (vk_p7 && !admit_5) f4_count <= f4_count + 2'h1;
      if (!vk_p7 && admit_5) f4_count <= f4_count - 2'h1;
    end
  end
  wire [97:0] f5_din = {f4_v12, f4_v5, f4_v2, f4_lst};
  assign f5_dout = f5_mem[f5_rd];
  assign f5_nonempty = (f5_count != 2'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f5_rd <= 1'h0;
      f5_wr <= 1'h0;
      f5_count <= 2'h0;
    end else begin
      if (vk_p8) begin
        f5_mem[f5_wr] <= f5_din;
        f5_wr <= f5_wr + 1'h1;
      end
      if (admit_6) f5_rd <= f5_rd + 1'h1;
      if (vk_p8 && !admit_6) f5_count <= f5_count + 2'h1;
      if (!vk_p8 && admit_6) f5_count <= f5_count - 2'h1;
    end
  end
  wire [97:0] f6_din = {c13, v5_p10, v2_p10, lst_p10};
  assign f6_dout = f6_mem[f6_rd];
  assign f6_nonempty = (f6_count != 3'h0);
  always @(posedge clk) begin
    if (rst || start) begin
      f6_rd <= 2'h0;
      f6_wr <= 2'h0;
      f6_count <= 3'h0;
    end else begin
      if (vk_p10) begin
        f6_mem[f6_wr] <= f6_din;
        f6_wr <= f6_wr + 2'h1;
      end
      if (admit_7) f6_rd <= f6_rd + 2'h1;
      if (vk_p10 && !admit_7) f6_count <= f6_count + 3'h1;
      if (!vk_p10 && admit_7) f6_count <= f6_count - 3'h1;
    end
  end
`ifndef SYNTHESIS
  always @(posedge clk) begin
    if (!rst && tag0_push && !m0_resp_valid && tag0_count == 5'h10) begin
      $error("FIFO tag0 overflow");
      $stop;
    end
    if (!rst && m0_resp_valid && !tag0_nonempty) begin
      $error("FIFO tag0 underflow");
      $stop;
    end
    if (!rst && (rf6_push && !(rf6_pop && !(rf6_count != 4'h0))) && !(rf6_pop && (rf6_count != 4'h0)) && rf6_count == 4'h8) begin
      $error("FIFO rf6 overflow");
      $stop;
    end
    if (!rst && rf6_pop && !rf6_nonempty) begin
      $error("FIFO rf6 underflow");
      $stop;
    end
    if (!rst && (rf12_push && !(rf12_pop && !(rf12_count != 4'h0))) && !(rf12_pop && (rf12_count != 4'h0)) && rf12_count == 4'h8) begin
      $error("FIFO rf12 overflow");
      $stop;
    end
    if (!rst && rf12_pop && !rf12_nonempty) begin
      $error("FIFO rf12 underflow");
      $stop;
    end
    if (!rst && (m2_resp_valid && !(rf11_pop && !(rf11_count != 3'h0))) && !(rf11_pop && (rf11_count != 3'h0)) && rf11_count == 3'h4) begin
      $error("FIFO rf11 overflow");
      $stop;
    end
    if (!rst && rf11_pop && !rf11_nonempty) begin
      $error("FIFO rf11 underflow");
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
    if (!rst && vk_p2 && !admit_2 && f1_count == 2'h2) begin
      $error("FIFO f1 overflow");
      $stop;
    end
    if (!rst && admit_2 && !f1_nonempty) begin
      $error("FIFO f1 underflow");
      $stop;
    end
    if (!rst && vk_p5 && !admit_3 && f2_count == 3'h4) begin
      $error("FIFO f2 overflow");
      $stop;
    end
    if (!rst && admit_3 && !f2_nonempty) begin
      $error("FIFO f2 underflow");
      $stop;
    end
    if (!rst && vk_p6 && !admit_4 && f3_count == 2'h2) begin
      $error("FIFO f3 overflow");
      $stop;
    end
    if (!rst && admit_4 && !f3_nonempty) begin
      $error("FIFO f3 underflow");
      $stop;
    end
    if (!rst && vk_p7 && !admit_5 && f4_count == 2'h2) begin
      $error("FIFO f4 overflow");
      $stop;
    end
    if (!rst && admit_5 && !f4_nonempty) begin
      $error("FIFO f4 underflow");
      $stop;
    end
    if (!rst && vk_p8 && !admit_6 && f5_count == 2'h2) begin
      $error("FIFO f5 overflow");
      $stop;
    end
    if (!rst && admit_6 && !f5_nonempty) begin
      $error("FIFO f5 underflow");
      $stop;
    end
    if (!rst && vk_p10 && !admit_7 && f6_count == 3'h4) begin
      $error("FIFO f6 overflow");
      $stop;
    end
    if (!rst && admit_7 && !f6_nonempty) begin
      $error("FIFO f6 underflow");
      $stop;
    end
  end
`endif
endmodule
