// vadd (examples/vadd.cl) written by hand on spvhls's kernel interface (docs/hardware-interface.md):
// the yardstick scripts/bench_handwritten.py measures the generated module against. It is the
// obvious streaming pipeline, with no scheduling in it: read a[i] and b[i] together, queue each
// port's responses, write c[i] = a[i] + b[i] when both heads are there.
//
// Reads run ahead of writes by at most DEPTH elements (a credit count), so the response queues never
// overflow; at one element a cycle that covers a memory latency of up to DEPTH - 1 cycles.
module vadd (
    input wire clk,
    input wire rst,
    input wire start,
    output reg busy,
    output reg done,
    output wire mem_a_req_valid,
    input wire mem_a_req_ready,
    output wire mem_a_req_write,
    output wire [63:0] mem_a_req_addr,
    output wire [3:0] mem_a_req_size,
    output wire [63:0] mem_a_req_wdata,
    input wire mem_a_resp_valid,
    /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] mem_a_resp_data /* verilator lint_on UNUSEDSIGNAL */,
    output wire mem_b_req_valid,
    input wire mem_b_req_ready,
    output wire mem_b_req_write,
    output wire [63:0] mem_b_req_addr,
    output wire [3:0] mem_b_req_size,
    output wire [63:0] mem_b_req_wdata,
    input wire mem_b_resp_valid,
    /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] mem_b_resp_data /* verilator lint_on UNUSEDSIGNAL */,
    output wire mem_c_req_valid,
    input wire mem_c_req_ready,
    output wire mem_c_req_write,
    output wire [63:0] mem_c_req_addr,
    output wire [3:0] mem_c_req_size,
    output wire [63:0] mem_c_req_wdata,
    /* verilator lint_off UNUSEDSIGNAL */ input wire mem_c_resp_valid /* verilator lint_on UNUSEDSIGNAL */,
    /* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] mem_c_resp_data /* verilator lint_on UNUSEDSIGNAL */,
    input wire [31:0] arg_n
);
  localparam integer DEPTH_LOG = 4;
  localparam [DEPTH_LOG:0] DEPTH = 1 << DEPTH_LOG;

  reg [30:0] n;       // elements (a negative n runs none)
  reg [30:0] issued;  // elements whose reads were accepted
  reg [30:0] written; // elements whose writes were accepted
  reg [DEPTH_LOG:0] credit_used; // issued, not yet written

  // Response queues: each port answers in order, the two at their own pace.
  reg [31:0] qa[0:(1 << DEPTH_LOG) - 1];
  reg [31:0] qb[0:(1 << DEPTH_LOG) - 1];
  reg [DEPTH_LOG:0] qa_count, qb_count;
  reg [DEPTH_LOG-1:0] qa_head, qa_tail, qb_head, qb_tail;

  // Both reads go out in the same cycle (the protocol lets valid wait for ready).
  wire issue = busy && issued != n && credit_used != DEPTH && mem_a_req_ready && mem_b_req_ready;
  wire write = busy && qa_count != 0 && qb_count != 0;
  wire pop = write && mem_c_req_ready;

  assign mem_a_req_valid = issue;
  assign mem_a_req_write = 1'b0;
  assign mem_a_req_addr = {31'd0, issued, 2'b00};
  assign mem_a_req_size = 4'd4;
  assign mem_a_req_wdata = 64'd0;
  assign mem_b_req_valid = issue;
  assign mem_b_req_write = 1'b0;
  assign mem_b_req_addr = {31'd0, issued, 2'b00};
  assign mem_b_req_size = 4'd4;
  assign mem_b_req_wdata = 64'd0;
  assign mem_c_req_valid = write;
  assign mem_c_req_write = 1'b1;
  assign mem_c_req_addr = {31'd0, written, 2'b00};
  assign mem_c_req_size = 4'd4;
  assign mem_c_req_wdata = {32'd0, qa[qa_head] + qb[qb_head]};

  always @(posedge clk) begin
    if (mem_a_resp_valid) qa[qa_tail] <= mem_a_resp_data[31:0];
    if (mem_b_resp_valid) qb[qb_tail] <= mem_b_resp_data[31:0];
  end

  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      busy <= 1'b0;
      qa_count <= 0;
      qb_count <= 0;
      qa_head <= 0;
      qa_tail <= 0;
      qb_head <= 0;
      qb_tail <= 0;
      credit_used <= 0;
    end else begin
      if (start && !busy) begin
        busy <= 1'b1;
        n <= arg_n[31] ? 31'd0 : arg_n[30:0];
        issued <= 0;
        written <= 0;
      end
      if (busy) begin
        if (issue) issued <= issued + 1'b1;
        if (pop) written <= written + 1'b1;
        credit_used <= credit_used + {{DEPTH_LOG{1'b0}}, issue} - {{DEPTH_LOG{1'b0}}, pop};
        // Every write accepted: the last one in this cycle, or none to do.
        if (written + {30'd0, pop} == n) begin
          busy <= 1'b0;
          done <= 1'b1;
        end
      end
      if (mem_a_resp_valid) qa_tail <= qa_tail + 1'b1;
      if (mem_b_resp_valid) qb_tail <= qb_tail + 1'b1;
      if (pop) begin
        qa_head <= qa_head + 1'b1;
        qb_head <= qb_head + 1'b1;
      end
      qa_count <= qa_count + {{DEPTH_LOG{1'b0}}, mem_a_resp_valid} - {{DEPTH_LOG{1'b0}}, pop};
      qb_count <= qb_count + {{DEPTH_LOG{1'b0}}, mem_b_resp_valid} - {{DEPTH_LOG{1'b0}}, pop};
    end
  end
endmodule
