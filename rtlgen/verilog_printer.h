// The one Verilog writer: a netlist Module as lint-clean Verilog-2005 (`verilator --lint-only -Wall`,
// yosys). Literals are sized; long OR/AND/concatenation/priority-mux lists become balanced trees of
// named wires red_<n> with at most kMaxFanIn terms, and long operands of other operators are named
// too, so that no line reaches kMaxLineChars (verilog_util.h).
#pragma once

#include <cstddef>
#include <string>

#include "rtlgen/netlist.h"

namespace spvhls::rtl {

inline constexpr size_t kMaxFanIn = 16;
inline constexpr size_t kMaxExprChars = 600;

std::string printVerilog(const nl::Module& m);
// One expression as the printer writes it inside module `m` (for tests): the helper wires it needed,
// one declaration a line, then the expression itself on the last line.
std::string printExpression(const nl::Module& m, const nl::ExprP& e);

} // namespace spvhls::rtl
