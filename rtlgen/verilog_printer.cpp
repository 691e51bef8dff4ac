#include "rtlgen/verilog_printer.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <iterator>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "frontend/diagnostics.h"
#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

using nl::Expr;
using nl::ExprP;
using nl::Op;

namespace {

// An operand longer than this is named (a wire) so that the expression using it stays bounded.
constexpr size_t kMaxOperandChars = 250;
constexpr size_t kMaxStatementExprChars = 400;

// The hot writers format with compile-time format strings straight into the output buffer.
void litTo(std::string& out, uint64_t v, unsigned w) {
  if (w < 64) v &= (uint64_t(1) << w) - 1;
  fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}'h{:x}"), w, v);
}

std::string lit(uint64_t v, unsigned w) {
  std::string s;
  litTo(s, v, w);
  return s;
}

void rangeTo(std::string& out, unsigned width) {
  if (width > 1) fmt::format_to(std::back_inserter(out), FMT_COMPILE("[{}:0] "), width - 1);
}

std::string range(unsigned width) {
  std::string s;
  rangeTo(s, width);
  return s;
}

std::string joined(const std::vector<std::string>& terms, const std::string& sep) {
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

bool atomic(const Expr& e) {
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

  std::string run() {
    // Declarations come first; helper wires are declared where they are first used.
    if (!m_.comment.empty()) {
      out_ += "// ";
      out_ += m_.comment;
      out_ += '\n';
    }
    header(out_);
    declarations(out_);
    for (const nl::Assign& a : m_.assigns) {
      std::string& s = scratch();
      s += "  assign ";
      s += a.lhs;
      s += " = ";
      topTo(a.rhs, s);
      s += ";\n";
      statement(s);
    }
    for (const nl::Instance& i : m_.instances)
      instance(i);
    registers();
    for (const auto& p : m_.processes) {
      std::string s = "  always @(posedge clk) begin\n";
      for (const nl::Stmt& st : p)
        stmtTo(st, 4, s);
      statement(s + "  end\n");
    }
    for (const nl::Fifo& f : m_.fifos)
      fifo(f);
    for (const nl::Ram& r : m_.rams)
      ram(r);
    assertions();
    out_ += "endmodule\n";
    out_.shrink_to_fit(); // kept until the files are written: no doubling slack
    return std::move(out_);
  }

  std::string expression(const ExprP& e) {
    std::string s = expr(e);
    return pending_ + s;
  }

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

  void statement(const std::string& s) {
    out_ += pending_;
    out_ += s;
    pending_.clear();
  }
  std::string& scratch() {
    scratch_.clear();
    return scratch_;
  }

  std::string fresh(const std::string& base) {
    std::string n;
    do
      n = fmt::format(FMT_COMPILE("{}_{}"), base, next_++);
    while (m_.find(n) || helperNames_.count(n));
    helperNames_.insert(n);
    return n;
  }

  // partial: only some of its bits are read (a slice's operand), which lint is told.
  std::string helper(unsigned width, const std::string& text, bool partial = false) {
    std::string n = fresh("red");
    if (partial) pending_ += "  /* verilator lint_off UNUSEDSIGNAL */\n";
    pending_ += "  wire ";
    rangeTo(pending_, width);
    pending_ += n;
    pending_ += " = ";
    pending_ += text;
    pending_ += ";\n";
    if (partial) pending_ += "  /* verilator lint_on UNUSEDSIGNAL */\n";
    return n;
  }

  // ---- expressions -----------------------------------------------------------------------------
  // An operand: parenthesised when compound, named when long. Signedness is a property of the
  // expression, not of a wire, so $signed(...) is never named itself (its operand is). Expressions
  // are written into one buffer (operandTo / exprTo) rather than built from temporary strings.
  void operandTo(const ExprP& e, std::string& out) {
    const size_t mark = out.size();
    const bool paren = !atomic(*e); // opened before writing it: no shifting of the text afterwards
    if (paren) out += '(';
    exprTo(e, out);
    const size_t len = out.size() - mark - paren;
    if (len > kMaxOperandChars && e->op != Op::Signed) {
      std::string text = out.substr(mark + paren);
      out.resize(mark);
      out += name(e, text);
      return;
    }
    if (paren)
      out += ')';
    else if (len > kMaxOperandChars) { // a long $signed(...)
      out.insert(mark, 1, '(');
      out += ')';
    }
  }
  std::string operand(const ExprP& e) {
    std::string s;
    operandTo(e, s);
    return s;
  }

  // An expression standing alone in a statement: named when long, so that the line stays bounded.
  std::string top(const ExprP& e) {
    std::string s;
    topTo(e, s);
    return s;
  }
  void topTo(const ExprP& e, std::string& out) {
    const size_t mark = out.size();
    exprTo(e, out);
    if (out.size() - mark <= kMaxStatementExprChars || e->op == Op::Signed) return;
    std::string text = out.substr(mark);
    out.resize(mark);
    out += name(e, text);
  }

  std::string name(const ExprP& e, const std::string& text, bool partial = false) {
    auto it = named_.find(e.get());
    if (it != named_.end()) return it->second;
    std::string n = helper(e->width, text, partial);
    named_[e.get()] = n;
    return n;
  }

  std::string expr(const ExprP& e) {
    std::string s;
    exprTo(e, s);
    return s;
  }

  void exprTo(const ExprP& ep, std::string& out) {
    const Expr& e = *ep;
    switch (e.op) {
    case Op::Ref:
      out += e.name();
      return;
    case Op::Const:
      litTo(out, e.value, e.width);
      return;
    case Op::Not:
      out += '~';
      operandTo(e.args()[0], out);
      return;
    case Op::Signed:
    case Op::Unsigned:
      out += e.op == Op::Signed ? "$signed(" : "$unsigned(";
      exprTo(e.args()[0], out);
      out += ')';
      return;
    case Op::Or:
    case Op::And: {
      const std::string_view sep = e.op == Op::Or ? " | " : " & ";
      // Written in place; only a list too long for one expression is split into helper wires.
      const size_t mark = out.size();
      std::vector<size_t> ends;
      for (const ExprP& a : e.args()) {
        if (!ends.empty()) out += sep;
        operandTo(a, out);
        ends.push_back(out.size());
      }
      const size_t joined = out.size() - mark + sep.size();
      if (ends.size() <= kMaxFanIn && (ends.size() <= 1 || joined <= kMaxExprChars)) return;
      std::vector<std::string> terms;
      for (size_t i = 0, b = mark; i < ends.size(); b = ends[i++] + sep.size())
        terms.push_back(out.substr(b, ends[i] - b));
      out.resize(mark);
      out += reduce(std::move(terms), std::string(sep), e.width);
      return;
    }
    case Op::Concat:
      out += concat(e);
      return;
    case Op::PriorityMux:
      out += priorityMux(e);
      return;
    case Op::Slice: {
      const ExprP& a = e.args()[0];
      // Verilog selects bits of a signal only: anything else is named first.
      if (a->op == Op::Ref)
        out += a->name();
      else
        out += name(a, expr(a), e.width < a->width);
      if (e.width == 1)
        fmt::format_to(std::back_inserter(out), FMT_COMPILE("[{}]"), e.lo());
      else
        fmt::format_to(std::back_inserter(out), FMT_COMPILE("[{}:{}]"), e.lo() + e.width - 1, e.lo());
      return;
    }
    case Op::Replicate:
      fmt::format_to(std::back_inserter(out), FMT_COMPILE("{{{}{{"), e.value);
      operandTo(e.args()[0], out);
      out += "}}";
      return;
    case Op::Mux:
      operandTo(e.args()[0], out);
      out += " ? ";
      operandTo(e.args()[1], out);
      out += " : ";
      operandTo(e.args()[2], out);
      return;
    default:
      break;
    }
    const char* op = nl::binarySymbol(e.op);
    if (!op) fail("an unknown expression node");
    operandTo(e.args()[0], out);
    out += ' ';
    out += op;
    out += ' ';
    operandTo(e.args()[1], out);
  }

  static size_t joinedSize(const std::vector<std::string>& terms, const std::string& sep) {
    size_t n = 0;
    for (const std::string& t : terms)
      n += t.size() + sep.size();
    return n;
  }

  std::string reduce(std::vector<std::string> terms, const std::string& sep, unsigned width) {
    while (terms.size() > kMaxFanIn || (terms.size() > 1 && joinedSize(terms, sep) > kMaxExprChars)) {
      std::vector<std::string> next;
      for (auto [b, e] : groups(terms.size(), [&](size_t i) { return terms[i].size() + sep.size(); })) {
        std::vector<std::string> part(terms.begin() + std::ptrdiff_t(b), terms.begin() + std::ptrdiff_t(e));
        next.push_back(part.size() == 1 ? part[0] : helper(width, joined(part, sep)));
      }
      terms = std::move(next);
    }
    return joined(terms, sep);
  }

  std::string concat(const Expr& e) {
    std::vector<std::pair<std::string, unsigned>> cur;
    for (const ExprP& a : e.args())
      cur.emplace_back(operand(a), a->width);
    auto exprs = [&] {
      std::vector<std::string> v;
      for (auto& p : cur)
        v.push_back(p.first);
      return v;
    };
    while (cur.size() > kMaxFanIn || (cur.size() > 1 && joinedSize(exprs(), ", ") > kMaxExprChars)) {
      std::vector<std::pair<std::string, unsigned>> next;
      for (auto [b, end] : groups(cur.size(), [&](size_t i) { return cur[i].first.size() + 2; })) {
        if (end - b == 1) {
          next.push_back(cur[b]);
          continue;
        }
        std::vector<std::string> part;
        unsigned w = 0;
        for (size_t i = b; i < end; ++i) {
          part.push_back(cur[i].first);
          w += cur[i].second;
        }
        next.emplace_back(helper(w, "{" + joined(part, ", ") + "}"), w);
      }
      cur = std::move(next);
    }
    return "{" + joined(exprs(), ", ") + "}";
  }

  // A chain of groups from the lowest priority up, each group's default the next lower group.
  std::string priorityMux(const Expr& e) {
    std::vector<std::pair<std::string, std::string>> arms;
    for (size_t i = 0; i + 1 < e.args().size(); i += 2)
      arms.emplace_back(operand(e.args()[i]), operand(e.args()[i + 1]));
    std::string dflt = operand(e.args().back());
    auto size = [&](size_t i) { return arms[i].first.size() + arms[i].second.size() + 6; };
    auto chain = [&](size_t b, size_t end, std::string rest) {
      for (size_t i = end; i-- > b;)
        rest = fmt::format(FMT_COMPILE("{} ? {} : {}"), arms[i].first, arms[i].second, rest);
      return rest;
    };
    size_t total = dflt.size();
    for (size_t i = 0; i < arms.size(); ++i)
      total += size(i);
    if (arms.size() <= kMaxFanIn && total <= kMaxExprChars) return chain(0, arms.size(), dflt);
    auto gs = groups(arms.size(), size);
    std::string rest = dflt;
    for (size_t g = gs.size(); g-- > 0;) {
      std::string text = chain(gs[g].first, gs[g].second, rest);
      rest = g == 0 ? text : helper(e.width, text);
    }
    return rest;
  }

  // ---- declarations ------------------------------------------------------------------------------
  void header(std::string& s) const {
    s += "module ";
    s += m_.name;
    s += " (\n";
    bool first = true;
    for (const nl::Signal& sig : m_.signals) {
      if (sig.dir == nl::Dir::None) continue;
      s += first ? "  " : ",\n  ";
      first = false;
      if (sig.partial) s += "/* verilator lint_off UNUSEDSIGNAL */ ";
      s += sig.dir == nl::Dir::In ? "input " : "output ";
      s += sig.storage == nl::Storage::Reg ? "reg " : "wire ";
      rangeTo(s, sig.width);
      s += sig.name;
      if (sig.partial) s += " /* verilator lint_on UNUSEDSIGNAL */";
    }
    s += first ? ");\n" : "\n);\n";
  }

  void declarations(std::string& s) const {
    for (const nl::Signal& sig : m_.signals) {
      if (sig.dir != nl::Dir::None) continue;
      if (sig.partial) s += "  /* verilator lint_off UNUSEDSIGNAL */ // only some bits are read\n";
      s += sig.storage == nl::Storage::Reg ? "  reg " : "  wire ";
      rangeTo(s, sig.width);
      s += sig.name;
      if (sig.observed) s += " /*verilator public_flat_rd*/";
      s += ';';
      if (!sig.comment.empty()) {
        s += " // ";
        s += sig.comment;
      }
      s += '\n';
      if (sig.partial) s += "  /* verilator lint_on UNUSEDSIGNAL */\n";
    }
    for (const nl::Fifo& f : m_.fifos) {
      unsigned aw = f.addrWidth();
      s += fmt::format(FMT_COMPILE("  reg {}{}_mem [0:{}];\n"), range(f.width), f.prefix, f.depth - 1);
      s += fmt::format(FMT_COMPILE("  reg {}{}_rd;\n  reg {}{}_wr;\n"), range(aw), f.prefix, range(aw),
                       f.prefix);
      s += fmt::format(FMT_COMPILE("  reg {}{}_count;\n"), range(aw + 1), f.prefix);
    }
  }

  // ---- behaviour ---------------------------------------------------------------------------------
  void instance(const nl::Instance& i) {
    std::vector<std::string> conns;
    for (const auto& [port, e] : i.connections)
      conns.push_back(fmt::format(FMT_COMPILE(".{}({})"), port, top(e)));
    std::string s = fmt::format(FMT_COMPILE("  {} {} (\n"), i.module, i.name);
    for (size_t k = 0; k < conns.size(); ++k)
      s += "    " + conns[k] + (k + 1 < conns.size() ? ",\n" : "\n");
    statement(s + "  );\n");
  }

  // Registers without reset that take one value under one enable signal (the pipeline's position
  // registers, a unit's stages) share always blocks per enable: far less text for large modules. At
  // most kRegistersPerBlock to a block: yosys's proc_mux takes time quadratic in the assignments of one
  // process (ftrig's loop, 4,496 registers under `en` in one block: 105 s of its synthesis, under 1 s
  // in blocks of 64).
  static constexpr size_t kRegistersPerBlock = 64;
  void registers() {
    std::vector<std::string_view> order;
    std::unordered_map<std::string_view, std::vector<const nl::Register*>> groups;
    for (const nl::Register& r : m_.registers) {
      const bool simple = !r.reset && r.updates.size() == 1 &&
                          (r.updates[0].enable->op == Op::Ref || r.updates[0].enable->isConst(1));
      if (!simple) {
        reg(r);
        continue;
      }
      const std::string_view key = r.updates[0].enable->op == Op::Ref ? r.updates[0].enable->name() : "";
      auto [it, added] = groups.try_emplace(key);
      if (added) order.push_back(key);
      it->second.push_back(&r);
    }
    for (std::string_view key : order) {
      const auto& regs = groups.at(key);
      if (regs.size() == 1) {
        reg(*regs[0]);
        continue;
      }
      for (size_t from = 0; from < regs.size(); from += kRegistersPerBlock) {
        std::string& s = scratch();
        if (key.empty())
          s += "  always @(posedge clk) begin\n";
        else {
          s += "  always @(posedge clk) if (";
          s += key;
          s += ") begin\n";
        }
        for (size_t k = from; k < std::min(regs.size(), from + kRegistersPerBlock); ++k) {
          s += "    ";
          s += regs[k]->name;
          s += " <= ";
          topTo(regs[k]->updates[0].next, s);
          s += ";\n";
        }
        s += "  end\n";
        statement(s);
      }
    }
  }

  void reg(const nl::Register& r) {
    std::vector<std::pair<ExprP, ExprP>> arms;
    if (r.reset) arms.emplace_back(r.reset, r.resetValue);
    for (const nl::Register::Update& u : r.updates)
      arms.emplace_back(u.enable, u.next);
    std::string& s = scratch();
    s += "  always @(posedge clk)";
    bool first = true;
    for (const auto& [when, value] : arms) {
      if (when->isConst(0)) continue;
      s += first ? "\n    " : "\n    else ";
      first = false;
      if (!when->isConst(1)) {
        s += "if (";
        topTo(when, s);
        s += ") ";
      }
      s += r.name;
      s += " <= ";
      topTo(value, s);
      s += ';';
      if (when->isConst(1)) break;
    }
    if (first) fail("register " + r.name + " is never written");
    s += '\n';
    statement(s);
  }

  void stmtTo(const nl::Stmt& st, unsigned indent, std::string& out) {
    using K = nl::Stmt::Kind;
    auto ind = [&](unsigned extra = 0) { out.append(indent + extra, ' '); };
    auto block = [&](const std::vector<nl::Stmt>& b, unsigned in) {
      for (const nl::Stmt& x : b)
        stmtTo(x, in, out);
    };
    auto opening = [&](const char* before, const char* after) { // "if (cond) begin", "case (sel)"
      ind();
      out += before;
      topTo(st.expr, out);
      out += after;
    };
    switch (st.kind) {
    case K::Assign:
      ind();
      out += st.lhs;
      out += " <= ";
      topTo(st.expr, out);
      out += ";\n";
      return;
    case K::If:
      opening("if (", ") begin\n");
      block(st.body, indent + 2);
      ind();
      out += "end";
      if (!st.orElse.empty()) {
        out += " else begin\n";
        block(st.orElse, indent + 2);
        ind();
        out += "end";
      }
      out += '\n';
      return;
    case K::Case:
      opening("case (", ")\n");
      for (const auto& [v, b] : st.cases) {
        ind(2);
        exprTo(v, out);
        out += ": begin\n";
        block(b, indent + 4);
        ind(2);
        out += "end\n";
      }
      ind(2);
      out += "default: begin\n";
      block(st.orElse, indent + 4);
      ind(2);
      out += "end\n";
      ind();
      out += "endcase\n";
      return;
    }
  }

  // A FIFO's control input as a plain name or literal (it is used several times).
  std::string input(const std::string& name, const ExprP& e) {
    if (e->op == Op::Ref || e->op == Op::Const) return expr(e);
    helperNames_.insert(name);
    pending_ += fmt::format(FMT_COMPILE("  wire {}{} = {};\n"), range(e->width), name, expr(e));
    return name;
  }

  void fifo(const nl::Fifo& f) {
    const std::string& p = f.prefix;
    unsigned aw = f.addrWidth(), cw = f.countWidth();
    std::string push = input(p + "_push", f.push), pop = input(p + "_pop", f.pop),
                din = input(p + "_din", f.din);
    std::string clear = input(p + "_clear", f.clear);
    const std::string zeroA = lit(0, aw), oneA = lit(1, aw), zeroC = lit(0, cw), oneC = lit(1, cw);
    // A pointer's next entry: it wraps by itself at a power of two, else at the depth.
    const bool pow2 = (f.depth & (f.depth - 1)) == 0;
    auto next = [&](const char* which) {
      return pow2 ? fmt::format(FMT_COMPILE("{}_{} + {}"), p, which, oneA)
                  : fmt::format(FMT_COMPILE("({0}_{1} == {2}) ? {3} : {0}_{1} + {4}"), p, which,
                                lit(f.depth - 1, aw), zeroA, oneA);
    };
    std::string& s = scratch();
    auto put = [&s](auto format, const auto&... args) {
      fmt::format_to(std::back_inserter(s), format, args...);
    };
    // With bypass, an entry pushed into an empty FIFO is visible (and can be popped) in the same cycle.
    std::string stored = fmt::format(FMT_COMPILE("({}_count != {})"), p, zeroC);
    std::string popMem = f.bypass ? fmt::format(FMT_COMPILE("({} && {})"), pop, stored) : pop;
    std::string write = f.bypass ? fmt::format(FMT_COMPILE("({} && !({} && !{}))"), push, pop, stored) : push;
    if (f.bypass) {
      put(FMT_COMPILE("  assign {0}_dout = {1} ? {0}_mem[{0}_rd] : {2};\n"), p, stored, din);
      put(FMT_COMPILE("  assign {}_nonempty = {} || {};\n"), p, stored, push);
    } else {
      put(FMT_COMPILE("  assign {0}_dout = {0}_mem[{0}_rd];\n"), p);
      put(FMT_COMPILE("  assign {}_nonempty = {};\n"), p, stored);
    }
    s += "  always @(posedge clk) begin\n";
    put(FMT_COMPILE(
            "    if (rst || {}) begin\n      {}_rd <= {};\n      {}_wr <= {};\n      {}_count <= {};\n"),
        clear, p, zeroA, p, zeroA, p, zeroC);
    s += "    end else begin\n";
    put(FMT_COMPILE("      if ({}) begin\n        {}_mem[{}_wr] <= {};\n        {}_wr <= {};\n      end\n"),
        write, p, p, din, p, next("wr"));
    put(FMT_COMPILE("      if ({}) {}_rd <= {};\n"), popMem, p, next("rd"));
    put(FMT_COMPILE("      if ({} && !{}) {}_count <= {}_count + {};\n"), write, popMem, p, p, oneC);
    put(FMT_COMPILE("      if (!{} && {}) {}_count <= {}_count - {};\n"), write, popMem, p, p, oneC);
    s += "    end\n  end\n";
    statement(s);
    checks_.emplace_back(
        fmt::format(FMT_COMPILE("{} && !{} && {}_count == {}"), write, popMem, p, lit(f.depth, cw)),
        fmt::format(FMT_COMPILE("FIFO {} overflow"), p));
    checks_.emplace_back(fmt::format(FMT_COMPILE("{} && !{}_nonempty"), pop, p),
                         fmt::format(FMT_COMPILE("FIFO {} underflow"), p));
  }

  // A word-wide RAM with byte enables and a registered read (see nl::Ram): the shape yosys and
  // vendor tools map to a block RAM. Accesses are naturally aligned and at most a word wide, so an
  // access is the lanes [lane, lane + size) of one word.
  void ram(const nl::Ram& r) {
    const uint64_t depth = r.depth();
    const unsigned wb = r.wordBytes, ww = 8 * wb;
    const unsigned aw = std::countr_zero(depth), lw = std::countr_zero(wb); // both powers of two
    std::string valid = exprOf(r.reqValid), write = exprOf(r.reqWrite), addr = exprOf(r.reqAddr);
    std::string size = exprOf(r.reqSize), wdata = exprOf(r.reqWdata);
    // The write side: the one port's, or the write port's (then the port above only reads).
    const bool two = r.wValid != nullptr;
    const std::string wvalid = two ? exprOf(r.wValid) : valid, wwrite = two ? exprOf(r.wWrite) : write;
    const std::string waddr = two ? exprOf(r.wAddr) : addr, wsize = two ? exprOf(r.wSize) : size;
    if (two) wdata = exprOf(r.wWdata);
    const std::string word = fresh("ram_word"), lane = fresh("ram_lane"), be = fresh("ram_be");
    const std::string wshift = fresh("ram_wdata"), rword = fresh("ram_rword"), rlane = fresh("ram_rlane");
    const std::string wword = two ? fresh("ram_wword") : word,
                      wlane = two && lw > 0 ? fresh("ram_wlane") : lane;
    std::string s;
    auto out = std::back_inserter(s);
    fmt::format_to(out, FMT_COMPILE("  {}reg {}ram_mem [0:{}];\n"), r.noCollision ? "(* no_rw_check *) " : "",
                   range(ww), depth - 1);
    fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:{}];\n"), range(aw), word, addr, aw + lw - 1, lw);
    if (two && !r.readOnly)
      fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:{}];\n"), range(aw), wword, waddr, aw + lw - 1,
                     lw);
    fmt::format_to(out, FMT_COMPILE("  reg {}{};\n"), range(ww), rword);
    if (lw > 0) {
      fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:0];\n  reg {}{};\n"), range(lw), lane, addr,
                     lw - 1, range(lw), rlane);
      if (!r.readOnly) {
        if (two)
          fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:0];\n"), range(lw), wlane, waddr, lw - 1);
        // Bytes [lane, lane + size): size low ones, shifted to the lane.
        fmt::format_to(out, FMT_COMPILE("  wire {}{} = ~({{{}{{1'b1}}}} << {}) << {};\n"), range(wb), be, wb,
                       wsize, wlane);
        fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:0] << {{{}, 3'h0}};\n"), range(ww), wshift,
                       wdata, ww - 1, wlane);
      }
      fmt::format_to(out, FMT_COMPILE("  assign {} = {}{} >> {{{}, 3'h0}}{};\n"), r.respData,
                     ww < r.dataWidth ? fmt::format("{{{}, ", lit(0, r.dataWidth - ww)) : "", rword, rlane,
                     ww < r.dataWidth ? "}" : "");
    } else {
      fmt::format_to(out, FMT_COMPILE("  assign {} = {};\n"), r.respData,
                     ww < r.dataWidth ? fmt::format("{{{}, {}}}", lit(0, r.dataWidth - ww), rword) : rword);
    }
    // The further read ports: each its own word, lane and registered read of the same array.
    struct Reader {
      std::string valid, write, addr, size, word, rword, rlane;
    };
    std::vector<Reader> more;
    for (const nl::Ram::ReadPort& rp : r.moreReads) {
      Reader x{exprOf(rp.valid),
               exprOf(rp.write),
               exprOf(rp.addr),
               exprOf(rp.size),
               fresh("ram_word"),
               fresh("ram_rword"),
               lw > 0 ? fresh("ram_rlane") : ""};
      fmt::format_to(out, FMT_COMPILE("  wire {}{} = {}[{}:{}];\n  reg {}{};\n"), range(aw), x.word, x.addr,
                     aw + lw - 1, lw, range(ww), x.rword);
      const std::string data = lw > 0 ? fmt::format("{} >> {{{}, 3'h0}}", x.rword, x.rlane) : x.rword;
      if (lw > 0) fmt::format_to(out, FMT_COMPILE("  reg {}{};\n"), range(lw), x.rlane);
      fmt::format_to(out, FMT_COMPILE("  assign {} = {};\n"), rp.respData,
                     ww < r.dataWidth ? fmt::format("{{{}, {}}}", lit(0, r.dataWidth - ww), data) : data);
      more.push_back(std::move(x));
    }
    // Initial contents: the array's initializer (little-endian words), zero elsewhere
    // (configuration-time contents).
    s += "  initial begin\n";
    for (uint64_t i = 0; i < depth; ++i) {
      auto byte = [&](unsigned k) { return i * wb + k < r.init.size() ? r.init[i * wb + k] : uint8_t(0); };
      std::string word;
      if (wb <= 8) {
        uint64_t v = 0;
        for (unsigned k = 0; k < wb; ++k)
          v |= uint64_t(byte(k)) << (8 * k);
        word = lit(v, ww);
      } else { // wider than a literal node: the bytes, most significant first
        word = fmt::format(FMT_COMPILE("{}'h"), ww);
        for (unsigned k = wb; k-- > 0;)
          fmt::format_to(std::back_inserter(word), FMT_COMPILE("{:02x}"), byte(k));
      }
      fmt::format_to(out, FMT_COMPILE("    ram_mem[{}] = {};\n"), lit(i, aw), word);
    }
    // Simulation only: `spvhls sim` loads what the host writes into a global before the run (the run
    // spec's "globals") from <module>.init.hex, words as $writememh writes them.
    fmt::format_to(out,
                   FMT_COMPILE("`ifndef SYNTHESIS\n    if ($test$plusargs(\"spvhls_load_{0}\")) "
                               "$readmemh(\"{0}.init.hex\", ram_mem);\n`endif\n"),
                   m_.name);
    s += "  end\n  always @(posedge clk) begin\n";
    fmt::format_to(out, FMT_COMPILE("    if (rst) {} <= {};\n    else {} <= {} & ~{};\n"), r.respValid,
                   lit(0, 1), r.respValid, valid, write);
    // No writes in reset: requests are undefined until the requesters' registers are reset, and the
    // contents configured into the RAM must survive it.
    if (!r.readOnly) {
      fmt::format_to(out, FMT_COMPILE("    if (!rst && {} && {}) begin\n"), wvalid, wwrite);
      if (lw == 0) fmt::format_to(out, FMT_COMPILE("      ram_mem[{}] <= {}[7:0];\n"), wword, wdata);
      for (unsigned k = 0; lw > 0 && k < wb; ++k)
        fmt::format_to(out, FMT_COMPILE("      if ({}[{}]) ram_mem[{}][{}:{}] <= {}[{}:{}];\n"), be, k, wword,
                       8 * k + 7, 8 * k, wshift, 8 * k + 7, 8 * k);
      s += "    end\n";
    }
    fmt::format_to(out, FMT_COMPILE("    {} <= ram_mem[{}];\n"), rword, word);
    if (lw > 0) fmt::format_to(out, FMT_COMPILE("    {} <= {};\n"), rlane, lane);
    for (size_t i = 0; i < more.size(); ++i) {
      const Reader& x = more[i];
      fmt::format_to(out, FMT_COMPILE("    if (rst) {} <= {};\n    else {} <= {} & ~{};\n"),
                     r.moreReads[i].respValid, lit(0, 1), r.moreReads[i].respValid, x.valid, x.write);
      fmt::format_to(out, FMT_COMPILE("    {} <= ram_mem[{}];\n"), x.rword, x.word);
      if (lw > 0) fmt::format_to(out, FMT_COMPILE("    {} <= {}[{}:0];\n"), x.rlane, x.addr, lw - 1);
    }
    s += "  end\n";
    // Simulation only: with +spvhls_dump_memories the final contents go to <module>.hex, for
    // `spvhls sim` to compare program-scope variables with the interpreter's.
    s += "`ifndef SYNTHESIS\n";
    fmt::format_to(
        out,
        FMT_COMPILE(
            "  final if ($test$plusargs(\"spvhls_dump_memories\")) $writememh(\"{}.hex\", ram_mem);\n"),
        m_.name);
    s += "`endif\n";
    statement(s);
    const unsigned sw = r.reqSize->width; // 4 bits, more on a port wider than 64 (nl::portSizeWidth)
    auto bounds = [&](const std::string& v, const std::string& a, const std::string& sz) {
      checks_.emplace_back(fmt::format(FMT_COMPILE("{} && ({{{}, {}}} + {} > {})"), v,
                                       lit(0, r.reqAddr->width - sw), sz, a,
                                       lit(r.sizeBytes, r.reqAddr->width)),
                           fmt::format(FMT_COMPILE("private array {} accessed out of bounds"), r.what));
      // The compiler sizes the word by the widest access and keeps accesses aligned; a violation is its bug.
      checks_.emplace_back(
          fmt::format(FMT_COMPILE("{} && ({} > {} || ({}[{}:0] & ({} - {})) != {})"), v, sz, lit(wb, sw), a,
                      sw - 1, sz, lit(1, sw), lit(0, sw)),
          fmt::format(FMT_COMPILE("RAM {}: an access wider than its {}-byte word or not aligned to its size"),
                      r.what, wb));
    };
    bounds(valid, addr, size);
    for (const Reader& x : more) {
      bounds(x.valid, x.addr, x.size);
      checks_.emplace_back(fmt::format(FMT_COMPILE("{} && {}"), x.valid, x.write),
                           fmt::format(FMT_COMPILE("RAM {}: a write on a read port"), r.what));
    }
    if (two) {
      bounds(wvalid, waddr, wsize);
      // Each port keeps to its direction; anything else is the compiler's bug.
      checks_.emplace_back(fmt::format(FMT_COMPILE("{} && {}"), valid, write),
                           fmt::format(FMT_COMPILE("RAM {}: a write on its read port"), r.what));
      checks_.emplace_back(fmt::format(FMT_COMPILE("{} && !{}"), wvalid, wwrite),
                           fmt::format(FMT_COMPILE("RAM {}: a read on its write port"), r.what));
    }
  }

  std::string exprOf(const ExprP& e) { return e->op == Op::Ref ? std::string(e->name()) : name(e, expr(e)); }

  void assertions() {
    std::vector<std::pair<std::string, std::string>> all = std::move(checks_);
    for (const nl::Assertion& a : m_.assertions)
      all.emplace_back(top(a.cond), a.message);
    if (all.empty()) return;
    std::string s = "`ifndef SYNTHESIS\n  always @(posedge clk) begin\n";
    for (const auto& [cond, msg] : all)
      s += fmt::format(
          FMT_COMPILE("    if (!rst && {}) begin\n      $error(\"{}\");\n      $stop;\n    end\n"), cond,
          msg);
    statement(s + "  end\n`endif\n");
  }
};

} // namespace

std::string printVerilog(const nl::Module& m) {
  return Printer(m).run();
}

std::string printExpression(const nl::Module& m, const nl::ExprP& e) {
  return Printer(m).expression(e);
}

} // namespace spvhls::rtl
