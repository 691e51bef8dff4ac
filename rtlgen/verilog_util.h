// Small helpers for emitting lint-clean Verilog-2005: sized literals, operation expressions and an
// inline FIFO. Every literal is sized so that `verilator -Wall` sees no width mismatch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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
// The value of an expression that is exactly one sized literal ("W'hX" from lit(), or "W'bB").
std::optional<uint64_t> litValue(const std::string& expr);
// A name shortened for a comment, so that user-chosen names cannot make a line arbitrarily long.
std::string commentName(const std::string& name);
// "wire [W-1:0]" / "wire" for width 1; likewise for reg.
std::string decl(const char* kind, unsigned width, const std::string& name);
// Zero-extends or truncates an expression of width `from` to width `to` (a literal stays a literal).
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
// operands' widths). Only for pure operations (not Load/Store/Phi/LoopCall/LoopOut/leaves). Operands
// that are literals are folded: an operation over literals only is a literal of its width, a select
// with a literal condition is the chosen operand, and a literal is never part-selected.
std::string opExpr(const ir::Op& op, const std::vector<std::string>& a, const std::vector<unsigned>& w);

// Generated Verilog keeps every line below kMaxLineChars: Verilator rejects lines with too many
// tokens, and reductions over hundreds of memory operations or stall sources would otherwise be one
// line each.
inline constexpr size_t kMaxLineChars = 1000;
// Problems in generated Verilog text (a line over kMaxLineChars, a part-select of a literal); one
// description per problem, empty when clean. For tests: generated text must always be clean.
std::vector<std::string> verilogTextProblems(const std::string& text);

// Reduces lists of terms (OR, AND, concatenation, priority mux) to expressions of bounded length. A
// list that does not fit in one expression (kMaxFanIn terms, kMaxExprChars characters) becomes a
// balanced tree of named wires <prefix>_<n> (a chain for the priority mux, which keeps its order) with
// at most kMaxFanIn terms each; their declarations are appended to `decls`, which the caller emits
// before the line that uses the result. Inline results are not parenthesised. One Reducer per module
// keeps the names unique.
class Reducer {
public:
  static constexpr size_t kMaxFanIn = 16;
  static constexpr size_t kMaxExprChars = 600;
  explicit Reducer(std::string prefix) : prefix_(std::move(prefix)) {}
  // a | b | ...; all-zero when empty.
  std::string any(std::string& decls, const std::vector<std::string>& terms, unsigned width = 1);
  // a & b & ...; all-ones when empty.
  std::string all(std::string& decls, const std::vector<std::string>& terms, unsigned width = 1);
  // {a, b, ...}: parts (expression, width), most significant first.
  std::string concat(std::string& decls, const std::vector<std::pair<std::string, unsigned>>& parts);
  // c0 ? v0 : c1 ? v1 : ... : dflt (the first true condition wins).
  std::string priorityMux(std::string& decls, const std::vector<std::pair<std::string, std::string>>& arms,
                          const std::string& dflt, unsigned width);

private:
  std::string wire(std::string& decls, unsigned width, const std::string& expr);
  std::string reduce(std::string& decls, std::vector<std::string> terms, const std::string& sep,
                     unsigned width);
  std::string prefix_;
  unsigned next_ = 0;
};

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
