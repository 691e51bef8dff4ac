#include "rtlgen/ram_gen.h"

#include <fmt/format.h>

#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

std::string generateRamModule(const ir::Memory& mem, const std::string& name) {
  const uint64_t bytes = std::max<uint64_t>(mem.sizeBytes, 1);
  const uint64_t depth = roundUpPow2(bytes);
  const unsigned aw = log2Ceil(depth);
  std::string s = fmt::format("// Private array '{}' ({} bytes) as on-chip RAM: always ready, reads answer the "
                              "next cycle.\n",
                              mem.name, mem.sizeBytes);
  s += moduleHeader(name, {"input wire clk", "input wire rst", "input wire req_valid", "output wire req_ready",
                           "input wire req_write",
                           "/* verilator lint_off UNUSEDSIGNAL */ input wire [63:0] req_addr",
                           "input wire [3:0] req_size",
                           "input wire [63:0] req_wdata /* verilator lint_on UNUSEDSIGNAL */",
                           "output reg resp_valid", "output reg [63:0] resp_data"});
  s += fmt::format("  reg [7:0] mem [0:{}];\n", depth - 1);
  s += fmt::format("  wire [{}:0] a = req_addr[{}:0];\n", aw - 1, aw - 1);
  s += "  assign req_ready = 1'b1;\n";
  // Initial contents: the array's initializer, zero elsewhere (configuration-time contents; the
  // compiler only allows initialised arrays that the kernel never writes).
  s += "  initial begin\n";
  for (uint64_t i = 0; i < depth; ++i)
    s += fmt::format("    mem[{}] = {};\n", lit(i, aw), lit(i < mem.init.size() ? mem.init[i] : 0, 8));
  s += "  end\n";
  s += "  always @(posedge clk) begin\n";
  s += "    if (rst) resp_valid <= 1'b0;\n    else resp_valid <= req_valid & ~req_write;\n";
  s += "    if (req_valid && req_write) begin\n";
  for (unsigned k = 0; k < 8; ++k)
    s += fmt::format("      if (req_size > {}) mem[a + {}] <= req_wdata[{}:{}];\n", lit(k, 4), lit(k, aw),
                     8 * k + 7, 8 * k);
  s += "    end\n    resp_data <= {";
  for (int k = 7; k >= 0; --k) s += fmt::format("mem[a + {}]{}", lit(unsigned(k), aw), k ? ", " : "");
  s += "};\n  end\n";
  s += "`ifndef SYNTHESIS\n  always @(posedge clk) begin\n";
  s += fmt::format("    if (!rst && req_valid && ({{60'h0, req_size}} + req_addr > 64'd{})) begin\n", mem.sizeBytes);
  s += fmt::format("      $error(\"private array {} accessed out of bounds\");\n      $stop;\n    end\n", mem.name);
  s += "  end\n`endif\n";
  return s + "endmodule\n";
}

} // namespace spvhls::rtl
