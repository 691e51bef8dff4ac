// Private array 't' (64 bytes) as on-chip RAM: always ready, reads answer the next cycle.
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
  output reg [63:0] resp_data
);
  assign req_ready = 1'h1;
  reg [7:0] ram_mem [0:63];
  wire [5:0] ram_addr_0 = req_addr[5:0];
  initial begin
    ram_mem[6'h0] = 8'h0;
    ram_mem[6'h1] = 8'h0;
    ram_mem[6'h2] = 8'h0;
    ram_mem[6'h3] = 8'h0;
    ram_mem[6'h4] = 8'h0;
    ram_mem[6'h5] = 8'h0;
    ram_mem[6'h6] = 8'h0;
    ram_mem[6'h7] = 8'h0;
    ram_mem[6'h8] = 8'h0;
    ram_mem[6'h9] = 8'h0;
    ram_mem[6'ha] = 8'h0;
    ram_mem[6'hb] = 8'h0;
    ram_mem[6'hc] = 8'h0;
    ram_mem[6'hd] = 8'h0;
    ram_mem[6'he] = 8'h0;
    ram_mem[6'hf] = 8'h0;
    ram_mem[6'h10] = 8'h0;
    ram_mem[6'h11] = 8'h0;
    ram_mem[6'h12] = 8'h0;
    ram_mem[6'h13] = 8'h0;
    ram_mem[6'h14] = 8'h0;
    ram_mem[6'h15] = 8'h0;
    ram_mem[6'h16] = 8'h0;
    ram_mem[6'h17] = 8'h0;
    ram_mem[6'h18] = 8'h0;
    ram_mem[6'h19] = 8'h0;
    ram_mem[6'h1a] = 8'h0;
    ram_mem[6'h1b] = 8'h0;
    ram_mem[6'h1c] = 8'h0;
    ram_mem[6'h1d] = 8'h0;
    ram_mem[6'h1e] = 8'h0;
    ram_mem[6'h1f] = 8'h0;
    ram_mem[6'h20] = 8'h0;
    ram_mem[6'h21] = 8'h0;
    ram_mem[6'h22] = 8'h0;
    ram_mem[6'h23] = 8'h0;
    ram_mem[6'h24] = 8'h0;
    ram_mem[6'h25] = 8'h0;
    ram_mem[6'h26] = 8'h0;
    ram_mem[6'h27] = 8'h0;
    ram_mem[6'h28] = 8'h0;
    ram_mem[6'h29] = 8'h0;
    ram_mem[6'h2a] = 8'h0;
    ram_mem[6'h2b] = 8'h0;
    ram_mem[6'h2c] = 8'h0;
    ram_mem[6'h2d] = 8'h0;
    ram_mem[6'h2e] = 8'h0;
    ram_mem[6'h2f] = 8'h0;
    ram_mem[6'h30] = 8'h0;
    ram_mem[6'h31] = 8'h0;
    ram_mem[6'h32] = 8'h0;
    ram_mem[6'h33] = 8'h0;
    ram_mem[6'h34] = 8'h0;
    ram_mem[6'h35] = 8'h0;
    ram_mem[6'h36] = 8'h0;
    ram_mem[6'h37] = 8'h0;
    ram_mem[6'h38] = 8'h0;
    ram_mem[6'h39] = 8'h0;
    ram_mem[6'h3a] = 8'h0;
    ram_mem[6'h3b] = 8'h0;
    ram_mem[6'h3c] = 8'h0;
    ram_mem[6'h3d] = 8'h0;
    ram_mem[6'h3e] = 8'h0;
    ram_mem[6'h3f] = 8'h0;
  end
  always @(posedge clk) begin
    if (rst) resp_valid <= 1'h0;
    else resp_valid <= req_valid & ~req_write;
    if (!rst && req_valid && req_write) begin
      if (req_size > 4'h0) ram_mem[ram_addr_0 + 6'h0] <= req_wdata[7:0];
      if (req_size > 4'h1) ram_mem[ram_addr_0 + 6'h1] <= req_wdata[15:8];
      if (req_size > 4'h2) ram_mem[ram_addr_0 + 6'h2] <= req_wdata[23:16];
      if (req_size > 4'h3) ram_mem[ram_addr_0 + 6'h3] <= req_wdata[31:24];
      if (req_size > 4'h4) ram_mem[ram_addr_0 + 6'h4] <= req_wdata[39:32];
      if (req_size > 4'h5) ram_mem[ram_addr_0 + 6'h5] <= req_wdata[47:40];
      if (req_size > 4'h6) ram_mem[ram_addr_0 + 6'h6] <= req_wdata[55:48];
      if (req_size > 4'h7) ram_mem[ram_addr_0 + 6'h7] <= req_wdata[63:56];
    end
    resp_data <= {ram_mem[ram_addr_0 + 6'h7], ram_mem[ram_addr_0 + 6'h6], ram_mem[ram_addr_0 + 6'h5], ram_mem[ram_addr_0 + 6'h4], ram_mem[ram_addr_0 + 6'h3], ram_mem[ram_addr_0 + 6'h2], ram_mem[ram_addr_0 + 6'h1], ram_mem[ram_addr_0 + 6'h0]};
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
  end
`endif
endmodule
