// Hand-written vector-add kernel, c[i] = a[i] + b[i] for i < n (32-bit elements), following
// docs/hardware-interface.md. Used to test the Verilator harness (tests/unit/test_testbench.cpp).
//
// Structure: one reader per input issues reads as long as it has credit (reads outstanding + data
// waiting in its response FIFO < DEPTH, so up to DEPTH reads are in flight and the FIFO can never
// overflow); a writer pops both FIFOs and writes the sum; done once n writes have been accepted.
// The reader is in vadd_reader.v (the harness is given both files).

module vadd (
  input             clk,
  input             rst,
  input             start,
  output reg        busy,
  output reg        done,
  input      [31:0] arg_n,
  output            mem_a_req_valid,
  input             mem_a_req_ready,
  output            mem_a_req_write,
  output     [63:0] mem_a_req_addr,
  output     [3:0]  mem_a_req_size,
  output     [63:0] mem_a_req_wdata,
  input             mem_a_resp_valid,
  input      [63:0] mem_a_resp_data,
  output            mem_b_req_valid,
  input             mem_b_req_ready,
  output            mem_b_req_write,
  output     [63:0] mem_b_req_addr,
  output     [3:0]  mem_b_req_size,
  output     [63:0] mem_b_req_wdata,
  input             mem_b_resp_valid,
  input      [63:0] mem_b_resp_data,
  output            mem_c_req_valid,
  input             mem_c_req_ready,
  output            mem_c_req_write,
  output     [63:0] mem_c_req_addr,
  output     [3:0]  mem_c_req_size,
  output     [63:0] mem_c_req_wdata,
  input             mem_c_resp_valid,
  input      [63:0] mem_c_resp_data
);
  reg [31:0] n;
  reg [31:0] written;
  wire aEmpty, bEmpty;
  wire [31:0] aHead, bHead;

  assign mem_c_req_valid = busy && !aEmpty && !bEmpty;
  assign mem_c_req_write = 1'b1;
  assign mem_c_req_addr = {30'b0, written, 2'b00};
  assign mem_c_req_size = 4'd4;
  assign mem_c_req_wdata = {32'b0, aHead + bHead};
  wire pop = mem_c_req_valid && mem_c_req_ready;

  assign mem_a_req_write = 1'b0;
  assign mem_a_req_size = 4'd4;
  assign mem_a_req_wdata = 64'b0;
  assign mem_b_req_write = 1'b0;
  assign mem_b_req_size = 4'd4;
  assign mem_b_req_wdata = 64'b0;

  vadd_reader ra(.clk(clk), .rst(rst), .start(start), .active(busy), .n(n),
                 .req_valid(mem_a_req_valid), .req_ready(mem_a_req_ready), .req_addr(mem_a_req_addr),
                 .resp_valid(mem_a_resp_valid), .resp_data(mem_a_resp_data),
                 .empty(aEmpty), .head(aHead), .pop(pop));
  vadd_reader rb(.clk(clk), .rst(rst), .start(start), .active(busy), .n(n),
                 .req_valid(mem_b_req_valid), .req_ready(mem_b_req_ready), .req_addr(mem_b_req_addr),
                 .resp_valid(mem_b_resp_valid), .resp_data(mem_b_resp_data),
                 .empty(bEmpty), .head(bHead), .pop(pop));

  always @(posedge clk) begin
    done <= 0;
    if (rst) begin
      busy <= 0;
      written <= 0;
    end else if (start && !busy) begin
      busy <= 1;
      n <= arg_n;
      written <= 0;
    end else if (busy) begin
      if (pop) written <= written + 1;
      if (written == n) begin
        busy <= 0;
        done <= 1;
      end
    end
  end
endmodule
