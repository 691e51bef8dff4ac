#include "rtlgen/verilog_printer.h"

#include "rtlgen/verilog_printer_impl.h"

namespace spvhls::rtl {

namespace vlog {

std::string Printer::run() {
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

std::string Printer::expression(const ExprP& e) {
  std::string s = expr(e);
  return pending_ + s;
}

void Printer::statement(const std::string& s) {
  out_ += pending_;
  out_ += s;
  pending_.clear();
}

std::string& Printer::scratch() {
  scratch_.clear();
  return scratch_;
}

std::string Printer::fresh(const std::string& base) {
  std::string n;
  do
    n = fmt::format(FMT_COMPILE("{}_{}"), base, next_++);
  while (m_.find(n) || helperNames_.count(n));
  helperNames_.insert(n);
  return n;
}

std::string Printer::helper(unsigned width, const std::string& text, bool partial) {
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

void Printer::operandTo(const ExprP& e, std::string& out) {
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

std::string Printer::operand(const ExprP& e) {
  std::string s;
  operandTo(e, s);
  return s;
}

std::string Printer::top(const ExprP& e) {
  std::string s;
  topTo(e, s);
  return s;
}

void Printer::topTo(const ExprP& e, std::string& out) {
  const size_t mark = out.size();
  exprTo(e, out);
  if (out.size() - mark <= kMaxStatementExprChars || e->op == Op::Signed) return;
  std::string text = out.substr(mark);
  out.resize(mark);
  out += name(e, text);
}

std::string Printer::name(const ExprP& e, const std::string& text, bool partial) {
  auto it = named_.find(e.get());
  if (it != named_.end()) return it->second;
  std::string n = helper(e->width, text, partial);
  named_[e.get()] = n;
  return n;
}

std::string Printer::expr(const ExprP& e) {
  std::string s;
  exprTo(e, s);
  return s;
}

void Printer::exprTo(const ExprP& ep, std::string& out) {
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

size_t Printer::joinedSize(const std::vector<std::string>& terms, const std::string& sep) {
  size_t n = 0;
  for (const std::string& t : terms)
    n += t.size() + sep.size();
  return n;
}

std::string Printer::reduce(std::vector<std::string> terms, const std::string& sep, unsigned width) {
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

std::string Printer::concat(const Expr& e) {
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

std::string Printer::priorityMux(const Expr& e) {
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

void Printer::header(std::string& s) const {
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

void Printer::declarations(std::string& s) const {
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

} // namespace vlog

std::string printVerilog(const nl::Module& m) {
  return vlog::Printer(m).run();
}

std::string printExpression(const nl::Module& m, const nl::ExprP& e) {
  return vlog::Printer(m).expression(e);
}

} // namespace spvhls::rtl
