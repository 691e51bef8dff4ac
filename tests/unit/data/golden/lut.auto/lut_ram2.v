// Private array 't' (64 bytes) as on-chip RAM with a read port and a write port: always ready, reads answer the next cycle.
module lut_ram2 (
  input wire clk,
  input wire rst,
  input wire req_valid,
  output wire req_ready,
  input wire req_write,
  /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] req_addr /* verilator lint_on UNUSEDSIGNAL */,
  input wire [3:0] req_size,
  /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] req_wdata /* verilator lint_on UNUSEDSIGNAL */,
  output reg resp_valid,
  output wire [63:0] resp_data,
  input wire w_req_valid,
  output wire w_req_ready,
  input wire w_req_write,
  /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] w_req_addr /* verilator lint_on UNUSEDSIGNAL */,
  input wire [3:0] w_req_size,
  /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] w_req_wdata /* verilator lint_on UNUSEDSIGNAL */
);
  assign req_ready = 1'h1;
  assign w_req_ready = 1'h1;
  (* no_rw_check *) reg [31:0] ram_mem [0:15];
  wire [3:0] ram_word_0 = req_addr[5:2];
  wire [3:0] ram_wword_6 = w_req_addr[5:2];
  reg [31:0] ram_rword_4;
  wire [1:0] ram_lane_1 = req_addr[1:0];
  reg [1:0] ram_rlane_5;
  wire [1:0] ram_wlane_7 = w_req_addr[1:0];
  wire [3:0] ram_be_2 = ~({4{1'b1}} << w_req_size) << ram_wlane_7;
  wire [31:0] ram_wdata_3 = w_req_wdata[31:0] << {ram_wlane_7, 3'h0};
  assign resp_data = {32'h0, ram_rword_4 >> {ram_rlane_5, 3'h0}};
  initial begin
    ram_mem[4'h0] = 32'h0;
    ram_mem[4'h1] = 32'h0;
    ram_mem[4'h2] = 32'h0;
    ram_mem[4'h3] = 32'h0;
    ram_mem[4'h4] = 32'h0;
    ram_mem[4'h5] = 32'h0;
    ram_mem[4'h6] = 32'h0;
    ram_mem[4'h7] = 32'h0;
    ram_mem[4'h8] = 32'h0;
    ram_mem[4'h9] = 32'h0;
    ram_mem[4'ha] = 32'h0;
    ram_mem[4'hb] = 32'h0;
    ram_mem[4'hc] = 32'h0;
    ram_mem[4'hd] = 32'h0;
    ram_mem[4'he] = 32'h0;
    ram_mem[4'hf] = 32'h0;
`ifndef SYNTHESIS
    if ($test$plusargs("spvhls_load_lut_ram2")) $readmemh("lut_ram2.init.hex", ram_mem);
`endif
  end
  always @(posedge clk) begin
    if (rst) resp_valid <= 1'h0;
    else resp_valid <= req_valid & ~req_write;
    if (!rst && w_req_valid && w_req_write) begin
      if (ram_be_2[0]) ram_mem[ram_wword_6][7:0] <= ram_wdata_3[7:0];
      if (ram_be_2[1]) ram_mem[ram_wword_6][15:8] <= ram_wdata_3[15:8];
      if (ram_be_2[2]) ram_mem[ram_wword_6][23:16] <= ram_wdata_3[23:16];
      if (ram_be_2[3]) ram_mem[ram_wword_6][31:24] <= ram_wdata_3[31:24];
    end
    ram_rword_4 <= ram_mem[ram_word_0];
    ram_rlane_5 <= ram_lane_1;
  end
`ifndef SYNTHESIS
  final if ($test$plusargs("spvhls_dump_memories")) $writememh("lut_ram2.hex", ram_mem);
`endif
`ifndef SYNTHESIS
  always @(posedge clk) begin
    if (!rst && req_valid && ({60'h0, req_size} + req_addr > 64'h40)) begin
      $error("private array t accessed out of bounds");
      $stop;
    end
    if (!rst && req_valid && (req_size > 4'h4 || (req_addr[3:0] & (req_size - 4'h1)) != 4'h0)) begin
      $error("RAM t: an access wider than its 4-byte word or not aligned to its size");
      $stop;
    end
    if (!rst && w_req_valid && ({60'h0, w_req_size} + w_req_addr > 64'h40)) begin
      $error("private array t accessed out of bounds");
      $stop;
    end
    if (!rst && w_req_valid && (w_req_size > 4'h4 || (w_req_addr[3:0] & (w_req_size - 4'h1)) != 4'h0)) begin
      $error("RAM t: an access wider than its 4-byte word or not aligned to its size");
      $stop;
    end
    if (!rst && req_valid && req_write) begin
      $error("RAM t: a write on its read port");
      $stop;
    end
    if (!rst && w_req_valid && !w_req_write) begin
      $error("RAM t: a read on its write port");
      $stop;
    end
  end
`endif
endmodule
