// Small helpers for emitting lint-clean Verilog-2005: sized literals, operation expressions and an
// inline FIFO. Every literal is sized so that `verilator -Wall` sees no width mismatch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/hls_ir.h"

namespace spvhls::rtl {

// True when some user of `v` reads only its low bits (a truncation, or a shift amount taken modulo the
// width): its signals are then declared inside a lint_off UNUSEDSIGNAL region, on purpose.
bool partiallyUsed(const std::vector<ir::Op>& ops, ir::ValueId v);
// Wraps a declaration line in that region when `partial`.
std::string maybeUnusedBits(const std::string& declLine, bool partial);

// "W'hX" (W >= 1).
std::string lit(uint64_t value, unsigned width);
// "wire [W-1:0]" / "wire" for width 1; likewise for reg.
std::string decl(const char* kind, unsigned width, const std::string& name);
// Zero-extends or truncates an expression of width `from` to width `to`.
std::string resize(const std::string& expr, unsigned from, unsigned to);
// Address width for a power-of-two depth >= 2.
unsigned log2Ceil(uint64_t v);
uint64_t roundUpPow2(uint64_t v);

// "module <name> (\n  port,\n  ...\n);\n"
std::string moduleHeader(const std::string& name, const std::vector<std::string>& ports);
// The port declarations of one memory port named <prefix>_req_valid ... (docs/hardware-interface.md).
// Without `response` the response channel is left out; with `unusedResponseOk` it is declared inside
// a lint_off UNUSEDSIGNAL region (a fixed interface whose port may only be written).
std::vector<std::string> memoryPortDecls(const std::string& prefix, bool response, bool unusedResponseOk);

// The combinational Verilog expression computing `op` from its operand expressions (already at the
// operands' widths). Only for pure operations (not Load/Store/Phi/LoopCall/LoopOut/leaves).
std::string opExpr(const ir::Op& op, const std::vector<std::string>& a, const std::vector<unsigned>& w);

// A synchronous FIFO written inline into a module (registers named <p>_*). `push`, `pop` and `din`
// are expressions; exposes <p>_dout, <p>_nonempty and <p>_count. Depth is rounded up to a power of two
// (>= 2). `clear` empties it (loop start). Response FIFOs use bypass so that a response
// arriving exactly when it is needed costs no cycle. In simulation, overflow and underflow stop with $error.
struct InlineFifo {
  std::string prefix;
  unsigned width = 1;
  uint64_t depth = 2;
  bool bypass = false; // first-word fall-through: a push into an empty FIFO is readable in that cycle
  std::string decls() const;
  std::string logic(const std::string& push, const std::string& din, const std::string& pop,
                    const std::string& clear) const;
  unsigned countWidth() const { return log2Ceil(depth) + 1; }
};

} // namespace spvhls::rtl
