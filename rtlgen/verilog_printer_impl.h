// The Verilog printer's state and steps (verilog_printer.h). Internal to rtlgen: verilog_printer.cpp
// prints expressions, declarations and assigns; verilog_printer_blocks.cpp instances, registers,
// FIFOs, RAMs and assertions.
#pragma once

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <iterator>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "frontend/diagnostics.h"
#include "rtlgen/verilog_printer.h"
#include "rtlgen/verilog_util.h"

namespace spvhls::rtl::vlog {

using nl::Expr;
using nl::ExprP;
using nl::Op;

// An operand longer than this is named (a wire) so that the expression using it stays bounded.
constexpr size_t kMaxOperandChars = 250;
constexpr size_t kMaxStatementExprChars = 400;

// The hot writers format with compile-time format strings straight into the output buffer.
inline void litTo(std::string& out, uint64_t v, unsigned w) {
  if (w < 64) v &= (uint64_t(1) << w) - 1;
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}'h{:x}"), w, v);
}

inline std::string lit(uint64_t v, unsigned w) {
  std::string s;
  litTo(s, v, w);
  return s;
}

inline void rangeTo(std::string& out, unsigned width) {
  if (width > 1) fmt::format_to(std::back_inserter(out), FMT_COMPILE("[{}:0] "), width - 1);
}

inline std::string range(unsigned width) {
  std::string s;
  rangeTo(s, width);
  return s;
}

inline std::string joined(const std::vector<std::string>& terms, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < terms.size(); ++i)
    s += (i ? sep : "") + terms[i];
  return s;
}

// Greedy groups of consecutive items: at most kMaxFanIn and kMaxExprChars each, but at least two
// items, so that every level of a tree shrinks.
template <class Size> std::vector<std::pair<size_t, size_t>> groups(size_t count, Size size) {
  std::vector<std::pair<size_t, size_t>> out; // [begin, end)
  size_t b = 0;
  while (b < count) {
    size_t e = b, chars = 0;
    while (e < count && e - b < kMaxFanIn && (e - b < 2 || chars + size(e) <= kMaxExprChars))
      chars += size(e++);
    out.emplace_back(b, e);
    b = e;
  }
  return out;
}

inline bool atomic(const Expr& e) {
  switch (e.op) {
  case Op::Not:
    return true; // its operand is atomic or parenthesised, and unary operators bind tightest
  case Op::Ref:
  case Op::Const:
  case Op::Concat:
  case Op::Replicate:
  case Op::Signed:
  case Op::Unsigned:
  case Op::Slice:
    return true;
  default:
    return false;
  }
}

class Printer {
public:
  explicit Printer(const nl::Module& m) : m_(m) {}

  std::string run();

  std::string expression(const ExprP& e);

private:
  const nl::Module& m_;
  std::string out_, pending_;                   // pending_: helper wires the next statement uses
  std::string scratch_;                         // the statement being written (reused)
  std::unordered_set<std::string> helperNames_; // the module's own names are looked up in it
  std::unordered_map<const Expr*, std::string> named_;
  std::vector<std::pair<std::string, std::string>> checks_; // condition, message
  unsigned next_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw InternalError(SourceLoc{}, "module " + m_.name, "verilog printer: " + what);
  }

  void statement(const std::string& s);
  std::string& scratch();

  std::string fresh(const std::string& base);

  // partial: only some of its bits are read (a slice's operand), which lint is told.
  std::string helper(unsigned width, const std::string& text, bool partial = false);

  // ---- expressions -----------------------------------------------------------------------------
  // An operand: parenthesised when compound, named when long. Signedness is a property of the
  // expression, not of a wire, so $signed(...) is never named itself (its operand is). Expressions
  // are written into one buffer (operandTo / exprTo) rather than built from temporary strings.
  void operandTo(const ExprP& e, std::string& out);
  std::string operand(const ExprP& e);

  // An expression standing alone in a statement: named when long, so that the line stays bounded.
  std::string top(const ExprP& e);
  void topTo(const ExprP& e, std::string& out);

  std::string name(const ExprP& e, const std::string& text, bool partial = false);

  std::string expr(const ExprP& e);

  void exprTo(const ExprP& ep, std::string& out);

  static size_t joinedSize(const std::vector<std::string>& terms, const std::string& sep);

  std::string reduce(std::vector<std::string> terms, const std::string& sep, unsigned width);

  std::string concat(const Expr& e);

  // A chain of groups from the lowest priority up, each group's default the next lower group.
  std::string priorityMux(const Expr& e);

  // ---- declarations ------------------------------------------------------------------------------
  void header(std::string& s) const;

  void declarations(std::string& s) const;

  // ---- behaviour ---------------------------------------------------------------------------------
  void instance(const nl::Instance& i);

  // Registers without reset that take one value under one enable signal (the pipeline's position
  // registers, a unit's stages) share always blocks per enable: far less text for large modules. At
  // most kRegistersPerBlock to a block: yosys's proc_mux takes time quadratic in the assignments of one
  // process (ftrig's loop, 4,496 registers under `en` in one block: 105 s of its synthesis, under 1 s
  // in blocks of 64).
  static constexpr size_t kRegistersPerBlock = 64;
  void registers();

  void reg(const nl::Register& r);

  void stmtTo(const nl::Stmt& st, unsigned indent, std::string& out);

  // A FIFO's control input as a plain name or literal (it is used several times).
  std::string input(const std::string& name, const ExprP& e);

  void fifo(const nl::Fifo& f);

  // A word-wide RAM with byte enables and a registered read (see nl::Ram): the shape yosys and
  // vendor tools map to a block RAM. Accesses are naturally aligned and at most a word wide, so an
  // access is the lanes [lane, lane + size) of one word.
  void ram(const nl::Ram& r);

  std::string exprOf(const ExprP& e) { return e->op == Op::Ref ? std::string(e->name()) : name(e, expr(e)); }

  void assertions();
};

} // namespace spvhls::rtl::vlog
