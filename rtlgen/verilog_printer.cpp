#include "rtlgen/verilog_printer.h"

#include <fmt/format.h>

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

std::string lit(uint64_t v, unsigned w) {
  ExprP e = nl::lit(v, w);
  return fmt::format("{}'h{:x}", e->width, e->value);
}

std::string range(unsigned width) {
  return width <= 1 ? "" : fmt::format("[{}:0] ", width - 1);
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

const char* binaryOp(Op op) {
  switch (op) {
  case Op::Add:
    return " + ";
  case Op::Sub:
    return " - ";
  case Op::Mul:
    return " * ";
  case Op::Div:
    return " / ";
  case Op::Mod:
    return " % ";
  case Op::Xor:
    return " ^ ";
  case Op::Shl:
    return " << ";
  case Op::Shr:
    return " >> ";
  case Op::AShr:
    return " >>> ";
  case Op::Eq:
    return " == ";
  case Op::Ne:
    return " != ";
  case Op::Lt:
    return " < ";
  case Op::Le:
    return " <= ";
  case Op::Gt:
    return " > ";
  case Op::Ge:
    return " >= ";
  default:
    return nullptr;
  }
}

class Printer {
public:
  explicit Printer(const nl::Module& m) : m_(m) {}

  std::string run() {
    std::string out;
    if (!m_.comment.empty()) out += "// " + m_.comment + "\n";
    out += header();
    out += declarations();
    for (const nl::Assign& a : m_.assigns)
      statement(fmt::format("  assign {} = {};\n", a.lhs, top(a.rhs)));
    for (const nl::Instance& i : m_.instances)
      instance(i);
    registers();
    for (const auto& p : m_.processes) {
      std::string s = "  always @(posedge clk) begin\n";
      for (const nl::Stmt& st : p)
        s += stmt(st, "    ");
      statement(s + "  end\n");
    }
    for (const nl::Fifo& f : m_.fifos)
      fifo(f);
    for (const nl::Ram& r : m_.rams)
      ram(r);
    assertions();
    return out + body_ + "endmodule\n";
  }

  std::string expression(const ExprP& e) {
    std::string s = expr(e);
    return pending_ + s;
  }

private:
  const nl::Module& m_;
  std::string body_, pending_;                  // pending_: helper wires the next statement uses
  std::unordered_set<std::string> helperNames_; // the module's own names are looked up in it
  std::unordered_map<const Expr*, std::string> named_;
  std::vector<std::pair<std::string, std::string>> checks_; // condition, message
  unsigned next_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw InternalError(SourceLoc{}, "module " + m_.name, "verilog printer: " + what);
  }

  void statement(const std::string& s) {
    body_ += pending_ + s;
    pending_.clear();
  }

  std::string fresh(const std::string& base) {
    std::string n;
    do
      n = fmt::format("{}_{}", base, next_++);
    while (m_.find(n) || helperNames_.count(n));
    helperNames_.insert(n);
    return n;
  }

  std::string helper(unsigned width, const std::string& text) {
    std::string n = fresh("red");
    pending_ += fmt::format("  wire {}{} = {};\n", range(width), n, text);
    return n;
  }

  // ---- expressions -----------------------------------------------------------------------------
  // An operand: parenthesised when compound, named when long. Signedness is a property of the
  // expression, not of a wire, so $signed(...) is never named itself (its operand is). Expressions
  // are written into one buffer (operandTo / exprTo) rather than built from temporary strings.
  void operandTo(const ExprP& e, std::string& out) {
    const size_t mark = out.size();
    exprTo(e, out);
    const size_t len = out.size() - mark;
    if (atomic(*e) && len <= kMaxOperandChars) return;
    if (len > kMaxOperandChars && e->op != Op::Signed) {
      std::string text = out.substr(mark);
      out.resize(mark);
      out += name(e, text);
      return;
    }
    out.insert(mark, 1, '(');
    out += ')';
  }
  std::string operand(const ExprP& e) {
    std::string s;
    operandTo(e, s);
    return s;
  }

  // An expression standing alone in a statement: named when long, so that the line stays bounded.
  std::string top(const ExprP& e) {
    std::string s = expr(e);
    return s.size() > kMaxStatementExprChars && e->op != Op::Signed ? name(e, s) : s;
  }

  std::string name(const ExprP& e, const std::string& text) {
    auto it = named_.find(e.get());
    if (it != named_.end()) return it->second;
    std::string n = helper(e->width, text);
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
      out += e.name;
      return;
    case Op::Const:
      out += lit(e.value, e.width);
      return;
    case Op::Not:
      out += '~';
      operandTo(e.args[0], out);
      return;
    case Op::Signed:
    case Op::Unsigned:
      out += e.op == Op::Signed ? "$signed(" : "$unsigned(";
      exprTo(e.args[0], out);
      out += ')';
      return;
    case Op::Or:
    case Op::And: {
      std::vector<std::string> terms;
      for (const ExprP& a : e.args)
        terms.push_back(operand(a));
      out += reduce(std::move(terms), e.op == Op::Or ? " | " : " & ", e.width);
      return;
    }
    case Op::Concat:
      out += concat(e);
      return;
    case Op::PriorityMux:
      out += priorityMux(e);
      return;
    case Op::Slice: {
      const ExprP& a = e.args[0];
      // Verilog selects bits of a signal only: anything else is named first.
      out += a->op == Op::Ref ? a->name : name(a, expr(a));
      if (e.width == 1)
        fmt::format_to(std::back_inserter(out), "[{}]", e.lo);
      else
        fmt::format_to(std::back_inserter(out), "[{}:{}]", e.lo + e.width - 1, e.lo);
      return;
    }
    case Op::Replicate:
      fmt::format_to(std::back_inserter(out), "{{{}{{", e.value);
      operandTo(e.args[0], out);
      out += "}}";
      return;
    case Op::Mux:
      operandTo(e.args[0], out);
      out += " ? ";
      operandTo(e.args[1], out);
      out += " : ";
      operandTo(e.args[2], out);
      return;
    default:
      break;
    }
    const char* op = binaryOp(e.op);
    if (!op) fail("an unknown expression node");
    operandTo(e.args[0], out);
    out += op;
    operandTo(e.args[1], out);
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
    for (const ExprP& a : e.args)
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
    for (size_t i = 0; i + 1 < e.args.size(); i += 2)
      arms.emplace_back(operand(e.args[i]), operand(e.args[i + 1]));
    std::string dflt = operand(e.args.back());
    auto size = [&](size_t i) { return arms[i].first.size() + arms[i].second.size() + 6; };
    auto chain = [&](size_t b, size_t end, std::string rest) {
      for (size_t i = end; i-- > b;)
        rest = fmt::format("{} ? {} : {}", arms[i].first, arms[i].second, rest);
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
  static std::string lintOff(const std::string& decl, bool partial, const char* why) {
    if (!partial) return decl;
    return fmt::format(
        "  /* verilator lint_off UNUSEDSIGNAL */ // {}\n{}  /* verilator lint_on UNUSEDSIGNAL */\n", why,
        decl);
  }

  std::string header() const {
    std::vector<std::string> ports;
    for (const nl::Signal& s : m_.signals) {
      if (s.dir == nl::Dir::None) continue;
      std::string p = fmt::format("{} {} {}{}", s.dir == nl::Dir::In ? "input" : "output",
                                  s.storage == nl::Storage::Reg ? "reg" : "wire", range(s.width), s.name);
      if (s.partial)
        p = "/* verilator lint_off UNUSEDSIGNAL */ " + p + " /* verilator lint_on UNUSEDSIGNAL */";
      ports.push_back(p);
    }
    std::string s = fmt::format("module {} (\n", m_.name);
    for (size_t i = 0; i < ports.size(); ++i)
      s += "  " + ports[i] + (i + 1 < ports.size() ? ",\n" : "\n");
    return s + ");\n";
  }

  std::string declarations() const {
    std::string s;
    for (const nl::Signal& sig : m_.signals) {
      if (sig.dir != nl::Dir::None) continue;
      std::string d = fmt::format("  {} {}{};", sig.storage == nl::Storage::Reg ? "reg" : "wire",
                                  range(sig.width), sig.name);
      if (!sig.comment.empty()) d += " // " + sig.comment;
      s += lintOff(d + "\n", sig.partial, "only some bits are read");
    }
    for (const nl::Fifo& f : m_.fifos) {
      unsigned aw = f.addrWidth();
      s += fmt::format("  reg {}{}_mem [0:{}];\n", range(f.width), f.prefix, f.depth - 1);
      s += fmt::format("  reg {}{}_rd;\n  reg {}{}_wr;\n", range(aw), f.prefix, range(aw), f.prefix);
      s += fmt::format("  reg {}{}_count;\n", range(aw + 1), f.prefix);
    }
    return s;
  }

  // ---- behaviour ---------------------------------------------------------------------------------
  void instance(const nl::Instance& i) {
    std::vector<std::string> conns;
    for (const auto& [port, e] : i.connections)
      conns.push_back(fmt::format(".{}({})", port, top(e)));
    std::string s = fmt::format("  {} {} (\n", i.module, i.name);
    for (size_t k = 0; k < conns.size(); ++k)
      s += "    " + conns[k] + (k + 1 < conns.size() ? ",\n" : "\n");
    statement(s + "  );\n");
  }

  // Registers without reset that take one value under one enable signal (the pipeline's position
  // registers, a unit's stages) share one always block per enable: far less text for large modules.
  void registers() {
    std::vector<std::string> order;
    std::unordered_map<std::string, std::vector<const nl::Register*>> groups;
    for (const nl::Register& r : m_.registers) {
      const bool simple = !r.reset && r.updates.size() == 1 &&
                          (r.updates[0].enable->op == Op::Ref || r.updates[0].enable->isConst(1));
      if (!simple) {
        reg(r);
        continue;
      }
      const std::string key = r.updates[0].enable->op == Op::Ref ? r.updates[0].enable->name : "";
      auto [it, added] = groups.try_emplace(key);
      if (added) order.push_back(key);
      it->second.push_back(&r);
    }
    for (const std::string& key : order) {
      const auto& regs = groups.at(key);
      if (regs.size() == 1) {
        reg(*regs[0]);
        continue;
      }
      std::string s = key.empty() ? "  always @(posedge clk) begin\n"
                                  : fmt::format("  always @(posedge clk) if ({}) begin\n", key);
      for (const nl::Register* r : regs) {
        s += "    ";
        s += r->name;
        s += " <= ";
        s += top(r->updates[0].next);
        s += ";\n";
      }
      statement(s + "  end\n");
    }
  }

  void reg(const nl::Register& r) {
    std::vector<std::pair<ExprP, ExprP>> arms;
    if (r.reset) arms.emplace_back(r.reset, r.resetValue);
    for (const nl::Register::Update& u : r.updates)
      arms.emplace_back(u.enable, u.next);
    std::string s = "  always @(posedge clk)";
    bool first = true;
    for (const auto& [when, value] : arms) {
      if (when->isConst(0)) continue;
      s += first ? "\n    " : "\n    else ";
      first = false;
      if (when->isConst(1)) {
        s += fmt::format("{} <= {};", r.name, top(value));
        break;
      }
      s += fmt::format("if ({}) {} <= {};", top(when), r.name, top(value));
    }
    if (first) fail("register " + r.name + " is never written");
    statement(s + "\n");
  }

  std::string stmt(const nl::Stmt& st, const std::string& ind) {
    using K = nl::Stmt::Kind;
    auto block = [&](const std::vector<nl::Stmt>& b, const std::string& in) {
      std::string s;
      for (const nl::Stmt& x : b)
        s += stmt(x, in);
      return s;
    };
    switch (st.kind) {
    case K::Assign:
      return fmt::format("{}{} <= {};\n", ind, st.lhs, top(st.expr));
    case K::If: {
      std::string s =
          fmt::format("{}if ({}) begin\n{}{}end", ind, top(st.expr), block(st.body, ind + "  "), ind);
      if (!st.orElse.empty()) s += fmt::format(" else begin\n{}{}end", block(st.orElse, ind + "  "), ind);
      return s + "\n";
    }
    case K::Case: {
      std::string s = fmt::format("{}case ({})\n", ind, top(st.expr));
      for (const auto& [v, b] : st.cases)
        s += fmt::format("{}  {}: begin\n{}{}  end\n", ind, expr(v), block(b, ind + "    "), ind);
      s += fmt::format("{}  default: begin\n{}{}  end\n{}endcase\n", ind, block(st.orElse, ind + "    "), ind,
                       ind);
      return s;
    }
    }
    return "";
  }

  // A FIFO's control input as a plain name or literal (it is used several times).
  std::string input(const std::string& name, const ExprP& e) {
    if (e->op == Op::Ref || e->op == Op::Const) return expr(e);
    helperNames_.insert(name);
    pending_ += fmt::format("  wire {}{} = {};\n", range(e->width), name, expr(e));
    return name;
  }

  void fifo(const nl::Fifo& f) {
    const std::string& p = f.prefix;
    unsigned aw = f.addrWidth(), cw = f.countWidth();
    std::string push = input(p + "_push", f.push), pop = input(p + "_pop", f.pop),
                din = input(p + "_din", f.din);
    std::string clear = input(p + "_clear", f.clear);
    std::string s;
    // With bypass, an entry pushed into an empty FIFO is visible (and can be popped) in the same cycle.
    std::string stored = fmt::format("({}_count != {})", p, lit(0, cw));
    std::string popMem = f.bypass ? fmt::format("({} && {})", pop, stored) : pop;
    std::string write = f.bypass ? fmt::format("({} && !({} && !{}))", push, pop, stored) : push;
    if (f.bypass) {
      s += fmt::format("  assign {0}_dout = {1} ? {0}_mem[{0}_rd] : {2};\n", p, stored, din);
      s += fmt::format("  assign {}_nonempty = {} || {};\n", p, stored, push);
    } else {
      s += fmt::format("  assign {0}_dout = {0}_mem[{0}_rd];\n", p);
      s += fmt::format("  assign {}_nonempty = {};\n", p, stored);
    }
    s += "  always @(posedge clk) begin\n";
    s += fmt::format(
        "    if (rst || {}) begin\n      {}_rd <= {};\n      {}_wr <= {};\n      {}_count <= {};\n", clear, p,
        lit(0, aw), p, lit(0, aw), p, lit(0, cw));
    s += "    end else begin\n";
    s += fmt::format(
        "      if ({}) begin\n        {}_mem[{}_wr] <= {};\n        {}_wr <= {}_wr + {};\n      end\n", write,
        p, p, din, p, p, lit(1, aw));
    s += fmt::format("      if ({}) {}_rd <= {}_rd + {};\n", popMem, p, p, lit(1, aw));
    s += fmt::format("      if ({} && !{}) {}_count <= {}_count + {};\n", write, popMem, p, p, lit(1, cw));
    s += fmt::format("      if (!{} && {}) {}_count <= {}_count - {};\n", write, popMem, p, p, lit(1, cw));
    s += "    end\n  end\n";
    statement(s);
    checks_.emplace_back(fmt::format("{} && !{} && {}_count == {}", write, popMem, p, lit(f.depth, cw)),
                         fmt::format("FIFO {} overflow", p));
    checks_.emplace_back(fmt::format("{} && !{}_nonempty", pop, p), fmt::format("FIFO {} underflow", p));
  }

  void ram(const nl::Ram& r) {
    const uint64_t depth = r.depth();
    unsigned aw = 0;
    while ((uint64_t(1) << aw) < depth)
      ++aw;
    std::string valid = exprOf(r.reqValid), write = exprOf(r.reqWrite), addr = exprOf(r.reqAddr);
    std::string size = exprOf(r.reqSize), wdata = exprOf(r.reqWdata);
    std::string a = fresh("ram_addr");
    std::string s = fmt::format("  reg [7:0] ram_mem [0:{}];\n", depth - 1);
    s += fmt::format("  wire {}{} = {}[{}:0];\n", range(aw), a, addr, aw - 1);
    // Initial contents: the array's initializer, zero elsewhere (configuration-time contents).
    s += "  initial begin\n";
    for (uint64_t i = 0; i < depth; ++i)
      s += fmt::format("    ram_mem[{}] = {};\n", lit(i, aw), lit(i < r.init.size() ? r.init[i] : 0, 8));
    s += "  end\n  always @(posedge clk) begin\n";
    s += fmt::format("    if (rst) {} <= {};\n    else {} <= {} & ~{};\n", r.respValid, lit(0, 1),
                     r.respValid, valid, write);
    s += fmt::format("    if ({} && {}) begin\n", valid, write);
    const unsigned bytes = r.dataWidth / 8;
    for (unsigned k = 0; k < bytes; ++k)
      s += fmt::format("      if ({} > {}) ram_mem[{} + {}] <= {}[{}:{}];\n", size,
                       lit(k, nl::kPortSizeWidth), a, lit(k, aw), wdata, 8 * k + 7, 8 * k);
    s += fmt::format("    end\n    {} <= {{", r.respData);
    for (unsigned k = bytes; k-- > 0;)
      s += fmt::format("ram_mem[{} + {}]{}", a, lit(k, aw), k ? ", " : "");
    s += "};\n  end\n";
    statement(s);
    checks_.emplace_back(fmt::format("{} && ({{{}, {}}} + {} > {})", valid,
                                     lit(0, r.reqAddr->width - nl::kPortSizeWidth), size, addr,
                                     lit(r.sizeBytes, r.reqAddr->width)),
                         fmt::format("private array {} accessed out of bounds", r.what));
  }

  std::string exprOf(const ExprP& e) { return e->op == Op::Ref ? e->name : name(e, expr(e)); }

  void assertions() {
    std::vector<std::pair<std::string, std::string>> all = std::move(checks_);
    for (const nl::Assertion& a : m_.assertions)
      all.emplace_back(top(a.cond), a.message);
    if (all.empty()) return;
    std::string s = "`ifndef SYNTHESIS\n  always @(posedge clk) begin\n";
    for (const auto& [cond, msg] : all)
      s +=
          fmt::format("    if (!rst && {}) begin\n      $error(\"{}\");\n      $stop;\n    end\n", cond, msg);
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
