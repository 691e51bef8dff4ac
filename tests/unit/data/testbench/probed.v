// A kernel with the signals the test bench watches inside a design (tests/unit/test_testbench.cpp):
// the FSM's `blk` and `cyc`, a loop's `lp0_start` / `lp0_started` and its instance's `issue`, as the
// generated top module has them (docs/loop-controls.md "MaxReinvocationDelayINTEL"). Interface as in
// docs/hardware-interface.md. The FSM starts the loop three times (blocks: 0 entry, 1 loop, 2 latch of
// two cycles, 3 store); each invocation launches four iterations and is done three cycles after the
// last. out[0] = the launches counted. With arg_hang = 1 the second invocation never ends.
module probed (
  input             clk,
  input             rst,
  input             start,
  output reg        busy,
  output reg        done,
  input      [7:0]  arg_hang,
  output            mem_out_req_valid,
  input             mem_out_req_ready,
  output            mem_out_req_write,
  output     [63:0] mem_out_req_addr,
  output     [3:0]  mem_out_req_size,
  output     [63:0] mem_out_req_wdata,
  input             mem_out_resp_valid,
  input      [63:0] mem_out_resp_data
);
  reg [1:0] blk /*verilator public_flat_rd*/;
  reg [1:0] cyc /*verilator public_flat_rd*/;
  reg [1:0] k;
  reg [7:0] hang;
  reg [31:0] launches;
  reg lp0_started /*verilator public_flat_rd*/;
  wire lp0_start /*verilator public_flat_rd*/;
  wire lp0_done, lp0_issue;
  assign lp0_start = busy & (blk == 2'd1) & (cyc == 2'd0) & ~lp0_started;
  probed_loop u_loop0(.clk(clk), .rst(rst), .start(lp0_start), .hang(hang == 8'd1 && k == 2'd1),
                      .done(lp0_done), .launch(lp0_issue));

  assign mem_out_req_valid = busy & (blk == 2'd3);
  assign mem_out_req_write = 1'b1;
  assign mem_out_req_addr = 64'd0;
  assign mem_out_req_size = 4'd4;
  assign mem_out_req_wdata = {32'b0, launches};
  wire unused = mem_out_resp_valid ^ (^mem_out_resp_data);

  always @(posedge clk) begin
    done <= 0;
    if (rst) begin
      busy <= 0;
      blk <= 0;
      cyc <= 0;
      lp0_started <= 0;
    end else begin
      if (lp0_start) lp0_started <= 1;
      else if (lp0_done) lp0_started <= 0;
      if (lp0_issue) launches <= launches + 1;
      if (!busy) begin
        if (start) begin
          busy <= 1;
          blk <= 2'd1;
          cyc <= 0;
          k <= 0;
          hang <= arg_hang;
          launches <= 0;
        end
      end else case (blk)
        2'd1:
          if (cyc == 2'd0) cyc <= 2'd1;
          else if (lp0_done) begin
            blk <= k == 2'd2 ? 2'd3 : 2'd2;
            cyc <= 0;
            k <= k + 1;
          end
        2'd2:
          if (cyc == 2'd1) begin
            blk <= 2'd1;
            cyc <= 0;
          end else cyc <= cyc + 1;
        2'd3:
          if (mem_out_req_ready) begin
            busy <= 0;
            done <= 1;
          end
        default: ;
      endcase
    end
  end
endmodule

/* verilator lint_off DECLFILENAME */
module probed_loop (
  input      clk,
  input      rst,
  input      start,
  input      hang,
  output     done,
  output     launch
);
  reg running, stuck;
  reg [2:0] left, drain;
  wire issue /*verilator public_flat_rd*/;
  assign issue = running & ~stuck & (left != 3'd0);
  assign launch = issue;
  assign done = running & ~stuck & (left == 3'd0) & (drain == 3'd0);
  always @(posedge clk) begin
    if (rst) begin
      running <= 0;
      stuck <= 0;
    end else if (start) begin
      running <= 1;
      stuck <= hang;
      left <= 3'd4;
      drain <= 3'd2;
    end else if (running && !stuck) begin
      if (left != 3'd0) left <= left - 1;
      else if (drain != 3'd0) drain <= drain - 1;
      else running <= 0;
    end
  end
endmodule
