// Helpers shared by the generators: IR operations as netlist expressions, widths, and the check
// that printed Verilog text stays within Verilator's limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/hls_ir.h"
#include "rtlgen/netlist.h"

namespace spvhls::rtl {

// Per value: true when some user reads only its low bits (a truncation, or a shift amount taken modulo
// the width): its signals are then declared inside a lint_off UNUSEDSIGNAL region, on purpose. One
// pass over the ops, computed once per module.
std::vector<bool> partiallyUsed(const std::vector<ir::Op>& ops);

// A name shortened for a comment, so that user-chosen names cannot make a line arbitrarily long.
std::string commentName(const std::string& name);
// Address width for a power-of-two depth >= 2.
unsigned log2Ceil(uint64_t v);
uint64_t roundUpPow2(uint64_t v);

// The expression computing `op` from its operand expressions (at the operands' widths). Only for
// pure operations (not Load/Store/Phi/LoopCall/LoopOut/leaves). Literal operands are folded: an
// operation over literals only is a literal of its width, a select with a literal condition is the
// chosen operand, and a literal shift amount is reduced modulo the width.
nl::ExprP opExpr(const ir::Op& op, const std::vector<nl::ExprP>& a);
// An instance of an operator unit module (rtlgen/units/): ports clk, en, the operands a, b, ... and
// the result y, which drives the wire `result`.
nl::Instance unitInstance(const std::string& module, const std::string& name, nl::ExprP en,
                          const std::vector<nl::ExprP>& operands, nl::ExprP result);

// Generated Verilog keeps every line below kMaxLineChars: Verilator rejects lines with too many
// tokens, and reductions over hundreds of memory operations or stall sources would otherwise be one
// line each.
inline constexpr size_t kMaxLineChars = 1000;
// Problems in generated Verilog text (a line over kMaxLineChars, a part-select of a literal); one
// description per problem, empty when clean. For tests: generated text must always be clean.
std::vector<std::string> verilogTextProblems(const std::string& text);

} // namespace spvhls::rtl
