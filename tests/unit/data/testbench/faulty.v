// A kernel with selectable faults, to test the harness's checks with a single Verilator build
// (tests/unit/test_testbench.cpp). Interface as in docs/hardware-interface.md.
// Mode 0 is correct: out[0] = a[0] + ... + a[n-1] (32-bit), one read at a time.
//   1: never raises done (hangs after the store)      2: also reads a[n] (out of bounds)
//   3: reads a misaligned address                     4: $error while busy
//   5: raises done with a read still outstanding      6: $finish while busy
//   7: issues a read of size 3                       8: offers another store in the done cycle
//   9: correct, but counts for 5000 cycles without memory traffic before the store (not a deadlock)
module faulty (
  input             clk,
  input             rst,
  input             start,
  output reg        busy,
  output reg        done,
  input      [7:0]  arg_mode,
  input      [31:0] arg_n,
  output            mem_a_req_valid,
  input             mem_a_req_ready,
  output            mem_a_req_write,
  output     [63:0] mem_a_req_addr,
  output     [3:0]  mem_a_req_size,
  output     [63:0] mem_a_req_wdata,
  input             mem_a_resp_valid,
  input      [63:0] mem_a_resp_data,
  output            mem_out_req_valid,
  input             mem_out_req_ready,
  output            mem_out_req_write,
  output     [63:0] mem_out_req_addr,
  output     [3:0]  mem_out_req_size,
  output     [63:0] mem_out_req_wdata,
  input             mem_out_resp_valid,
  input      [63:0] mem_out_resp_data
);
  localparam IDLE = 3'd0, READ = 3'd1, WAIT = 3'd2, WRITE = 3'd3, FINISH = 3'd4, HANG = 3'd5, SPIN = 3'd6;
  reg [2:0] state;
  reg [7:0] mode;
  reg [31:0] n, i, sum;

  assign mem_a_req_valid = state == READ;
  assign mem_a_req_write = 1'b0;
  assign mem_a_req_addr = mode == 3 ? 64'd2 : {30'b0, i, 2'b00};
  assign mem_a_req_size = mode == 7 ? 4'd3 : 4'd4;
  assign mem_a_req_wdata = 64'b0;
  assign mem_out_req_valid = state == WRITE || (mode == 8 && done);
  assign mem_out_req_write = 1'b1;
  assign mem_out_req_addr = 64'd0;
  assign mem_out_req_size = 4'd4;
  assign mem_out_req_wdata = {32'b0, sum};

  wire [31:0] next = i + 1;
  always @(posedge clk) begin
    done <= 0;
    if (rst) begin
      state <= IDLE;
      busy <= 0;
    end else begin
      case (state)
        IDLE:
          if (start) begin
            busy <= 1;
            mode <= arg_mode;
            n <= arg_n;
            i <= 0;
            sum <= 0;
            state <= arg_n == 0 ? WRITE : READ;
          end
        READ:
          if (mem_a_req_ready) state <= mode == 5 ? FINISH : WAIT;
        WAIT:
          if (mem_a_resp_valid) begin
            sum <= sum + mem_a_resp_data[31:0];
            i <= next;
            state <= (next < n || (mode == 2 && next == n)) ? READ : mode == 9 ? SPIN : WRITE;
          end
        WRITE:
          if (mem_out_req_ready) state <= mode == 1 ? HANG : FINISH;
        SPIN: begin
          i <= next;
          if (next == n + 5000) state <= WRITE;
        end
        FINISH: begin
          busy <= 0;
          done <= 1;
          state <= IDLE;
        end
        default: ; // HANG
      endcase
`ifndef SYNTHESIS
      if (busy && mode == 4) $error("faulty: mode 4 assertion fired");
      if (busy && mode == 6) $finish;
`endif
    end
  end
endmodule
