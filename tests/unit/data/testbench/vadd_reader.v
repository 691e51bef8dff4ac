// One read channel of the vector-add fixture (vadd.v): issues reads of elements 0..n-1 while it has
// credit and queues the responses in a FIFO.
module vadd_reader #(parameter DEPTH = 4) (
  input             clk,
  input             rst,
  input             start,      // kernel start: reset the counters
  input             active,
  input      [31:0] n,
  output            req_valid,
  input             req_ready,
  output     [63:0] req_addr,
  input             resp_valid,
  input      [63:0] resp_data,
  output            empty,      // response FIFO
  output     [31:0] head,
  input             pop
);
  reg [31:0] issued;
  reg [31:0] mem [0:DEPTH-1];
  reg [$clog2(DEPTH)-1:0] wr, rd;
  reg [$clog2(DEPTH):0] count;  // entries in the FIFO
  reg [$clog2(DEPTH):0] inUse;  // credits taken: outstanding reads + FIFO entries

  assign req_valid = active && issued < n && inUse < DEPTH;
  assign req_addr = {30'b0, issued, 2'b00};
  assign empty = count == 0;
  assign head = mem[rd];

  wire issue = req_valid && req_ready;
  always @(posedge clk) begin
    if (rst || start) begin
      issued <= 0;
      wr <= 0;
      rd <= 0;
      count <= 0;
      inUse <= 0;
    end else begin
      if (issue) issued <= issued + 1;
      if (resp_valid) begin
        mem[wr] <= resp_data[31:0];
        wr <= wr + 1;
      end
      if (pop) rd <= rd + 1;
      count <= count + (resp_valid ? 1 : 0) - (pop ? 1 : 0);
      inUse <= inUse + (issue ? 1 : 0) - (pop ? 1 : 0);
`ifndef SYNTHESIS
      if (resp_valid && !pop && count == DEPTH) $error("vadd_reader: response FIFO overflow");
      if (pop && count == 0) $error("vadd_reader: response FIFO underflow");
`endif
    end
  end
endmodule
