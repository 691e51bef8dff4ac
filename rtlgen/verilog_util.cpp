#include "rtlgen/verilog_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "ir/lower_internal.h"

namespace spvhls::rtl {

bool partiallyUsed(const std::vector<ir::Op>& ops, ir::ValueId v) {
  for (const ir::Op& op : ops) {
    if (op.operands.empty()) continue;
    if (op.kind == ir::OpKind::Trunc && op.operands[0] == v && op.width() < ops[v].width()) return true;
    bool shift = op.kind == ir::OpKind::Shl || op.kind == ir::OpKind::LShr || op.kind == ir::OpKind::AShr;
    if (shift && op.operands.size() > 1 && op.operands[1] == v && ops[v].width() > log2Ceil(op.width())) return true;
  }
  return false;
}

std::string maybeUnusedBits(const std::string& declLine, bool partial) {
  if (!partial) return declLine;
  return "  /* verilator lint_off UNUSEDSIGNAL */ // only the low bits are read\n" + declLine +
         "  /* verilator lint_on UNUSEDSIGNAL */\n";
}

std::string lit(uint64_t value, unsigned width) {
  if (width < 64) value &= (uint64_t(1) << width) - 1;
  return fmt::format("{}'h{:x}", width, value);
}

std::optional<uint64_t> litValue(const std::string& e) {
  size_t q = e.find('\'');
  // Widths up to 64 have at most two digits; longer digit strings are not ours (and would overflow).
  if (q == std::string::npos || q == 0 || q > 2 || q + 2 >= e.size() || e.size() - q - 2 > 64)
    return std::nullopt;
  if (e.find_first_not_of("0123456789") != q) return std::nullopt;
  unsigned width = unsigned(std::stoul(e.substr(0, q)));
  int base = e[q + 1] == 'h' ? 16 : e[q + 1] == 'b' ? 2 : 0;
  std::string digits = e.substr(q + 2);
  const char* allowed = base == 16 ? "0123456789abcdef" : "01";
  if (!base || width == 0 || width > 64 || digits.find_first_not_of(allowed) != std::string::npos ||
      (base == 16 && digits.size() > 16))
    return std::nullopt;
  uint64_t v = std::stoull(digits, nullptr, base);
  return width < 64 ? v & ((uint64_t(1) << width) - 1) : v;
}

std::string commentName(const std::string& name) {
  constexpr size_t kMax = 80;
  return name.size() <= kMax ? name : name.substr(0, kMax) + "...";
}

std::string decl(const char* kind, unsigned width, const std::string& name) {
  if (width <= 1) return fmt::format("{} {}", kind, name);
  return fmt::format("{} [{}:0] {}", kind, width - 1, name);
}

std::string resize(const std::string& expr, unsigned from, unsigned to) {
  if (from == to) return expr;
  if (auto v = litValue(expr)) return lit(*v, to);
  if (from > to) return fmt::format("{}[{}:0]", expr, to - 1);
  return fmt::format("{{{}'h0, {}}}", to - from, expr);
}

std::string moduleHeader(const std::string& name, const std::vector<std::string>& ports) {
  std::string s = fmt::format("module {} (\n", name);
  for (size_t i = 0; i < ports.size(); ++i) s += "  " + ports[i] + (i + 1 < ports.size() ? ",\n" : "\n");
  return s + ");\n";
}

std::vector<std::string> memoryPortDecls(const std::string& p, bool response, bool unusedResponseOk) {
  std::vector<std::string> v = {
      fmt::format("output wire {}_req_valid", p),         fmt::format("input wire {}_req_ready", p),
      fmt::format("output wire {}_req_write", p),         fmt::format("output wire [63:0] {}_req_addr", p),
      fmt::format("output wire [3:0] {}_req_size", p),    fmt::format("output wire [63:0] {}_req_wdata", p)};
  if (!response) return v;
  // Narrow loads use only the low bytes of resp_data.
  v.push_back(fmt::format("{}input wire {}_resp_valid", unusedResponseOk ? "/* verilator lint_off UNUSEDSIGNAL */ " : "", p));
  v.push_back(fmt::format("{}input wire [63:0] {}_resp_data /* verilator lint_on UNUSEDSIGNAL */",
                          unusedResponseOk ? "" : "/* verilator lint_off UNUSEDSIGNAL */ ", p));
  return v;
}

unsigned log2Ceil(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t(1) << n) < v) ++n;
  return n;
}

uint64_t roundUpPow2(uint64_t v) { return uint64_t(1) << log2Ceil(v < 2 ? 2 : v); }

// Shift amount taken modulo the width (the IR's definition), as an expression.
static std::string shiftAmount(const std::string& b, unsigned wb, unsigned width) {
  if (width == 1) return "1'b0";
  unsigned k = log2Ceil(width);
  // A literal cannot be part-selected: reduce it here.
  if (auto v = litValue(b)) return lit(*v % width, std::max(1u, k));
  if ((1u << k) == width) return wb <= k ? b : fmt::format("{}[{}:0]", b, k - 1);
  return fmt::format("({} % {})", b, lit(width, wb));
}

// The value the hardware expression computes for literal operands (the IR's folding, plus the
// hardware's answers where the IR leaves the result undefined and refuses to fold).
static uint64_t foldHardware(const ir::Op& op, const std::vector<uint64_t>& c,
                             const std::vector<unsigned>& w) {
  const uint8_t ow = uint8_t(w.empty() ? op.width() : w[0]);
  if (auto r = ir::lower::foldConstant(op.kind, op.width(), c, ow)) return *r;
  using K = ir::OpKind;
  // Division by zero gives 0; INT_MIN / -1 wraps to INT_MIN and its remainder is 0.
  if (op.kind == K::SDiv && c.size() == 2 && (c[1] & ir::lower::widthMask(ow)) != 0)
    return c[0] & ir::lower::widthMask(op.width());
  return 0;
}

std::string opExpr(const ir::Op& op, const std::vector<std::string>& a, const std::vector<unsigned>& w) {
  using K = ir::OpKind;
  const unsigned W = op.width();
  std::vector<uint64_t> c;
  for (const std::string& e : a)
    if (auto v = litValue(e)) c.push_back(*v);
  if (op.kind == K::Select && litValue(a[0])) return (*litValue(a[0]) & 1) ? a[1] : a[2];
  // Fixed by the operand range (Verilator's CMPCONST / UNSIGNED warnings otherwise).
  if (a.size() == 2)
    if (auto r = ir::lower::foldUnsignedBound(op.kind, w[0], litValue(a[0]), litValue(a[1]))) return lit(*r, 1);
  if (c.size() == a.size() && op.kind != K::Select) {
    switch (op.kind) {
    case K::Add: case K::Sub: case K::Mul: case K::UDiv: case K::URem: case K::SDiv: case K::SRem: case K::SMod:
    case K::Neg: case K::Not: case K::And: case K::Or: case K::Xor: case K::Shl: case K::LShr: case K::AShr:
    case K::Eq: case K::Ne: case K::ULt: case K::ULe: case K::UGt: case K::UGe: case K::SLt: case K::SLe:
    case K::SGt: case K::SGe: case K::ZExt: case K::Trunc: case K::SExt:
      return lit(foldHardware(op, c, w), W);
    default: break;
    }
  }
  auto sa = [&](int i) { return fmt::format("$signed({})", a[i]); };
  auto zero = [&](int i) { return lit(0, w[i]); };
  switch (op.kind) {
  case K::Add: return fmt::format("{} + {}", a[0], a[1]);
  case K::Sub: return fmt::format("{} - {}", a[0], a[1]);
  case K::Mul: return fmt::format("{} * {}", a[0], a[1]);
  // Division by zero has no defined result in SPIR-V; hardware gives 0 (the interpreter reports it).
  case K::UDiv: return fmt::format("({} == {}) ? {} : {} / {}", a[1], zero(1), lit(0, W), a[0], a[1]);
  case K::URem: return fmt::format("({} == {}) ? {} : {} % {}", a[1], zero(1), lit(0, W), a[0], a[1]);
  case K::SDiv:
    return fmt::format("({} == {}) ? {} : $unsigned({} / {})", a[1], zero(1), lit(0, W), sa(0), sa(1));
  case K::SRem:
    return fmt::format("({} == {}) ? {} : $unsigned({} % {})", a[1], zero(1), lit(0, W), sa(0), sa(1));
  case K::Neg: return fmt::format("{} - {}", lit(0, W), a[0]);
  case K::Not: return fmt::format("~{}", a[0]);
  case K::And: return fmt::format("{} & {}", a[0], a[1]);
  case K::Or: return fmt::format("{} | {}", a[0], a[1]);
  case K::Xor: return fmt::format("{} ^ {}", a[0], a[1]);
  case K::Shl: return fmt::format("{} << {}", a[0], shiftAmount(a[1], w[1], W));
  case K::LShr: return fmt::format("{} >> {}", a[0], shiftAmount(a[1], w[1], W));
  case K::AShr: return fmt::format("$unsigned({} >>> {})", sa(0), shiftAmount(a[1], w[1], W));
  case K::Eq: return fmt::format("{} == {}", a[0], a[1]);
  case K::Ne: return fmt::format("{} != {}", a[0], a[1]);
  case K::ULt: return fmt::format("{} < {}", a[0], a[1]);
  case K::ULe: return fmt::format("{} <= {}", a[0], a[1]);
  case K::UGt: return fmt::format("{} > {}", a[0], a[1]);
  case K::UGe: return fmt::format("{} >= {}", a[0], a[1]);
  case K::SLt: return fmt::format("{} < {}", sa(0), sa(1));
  case K::SLe: return fmt::format("{} <= {}", sa(0), sa(1));
  case K::SGt: return fmt::format("{} > {}", sa(0), sa(1));
  case K::SGe: return fmt::format("{} >= {}", sa(0), sa(1));
  case K::Select: return fmt::format("{} ? {} : {}", a[0], a[1], a[2]);
  case K::ZExt: return resize(a[0], w[0], W);
  case K::Trunc: return w[0] == W ? a[0] : fmt::format("{}[{}:0]", a[0], W - 1);
  case K::SExt:
    if (w[0] == W) return a[0];
    return fmt::format("{{{{{}{{{}[{}]}}}}, {}}}", W - w[0], a[0], w[0] - 1, a[0]);
  case K::SMod: {
    // Remainder whose sign follows the divisor: r = a srem b; r + b when r != 0 and signs differ.
    std::string r = fmt::format("$unsigned({} % {})", sa(0), sa(1));
    std::string rs = fmt::format("$signed({})", r);
    return fmt::format("({} == {}) ? {} : ((({} != {}) && (({} < 0) != ({} < 0))) ? {} + {} : {})", a[1],
                       zero(1), lit(0, W), r, lit(0, W), rs, sa(1), r, a[1], r);
  }
  default: break;
  }
  throw InternalError(op.loc, ir::opKindName(op.kind),
                      fmt::format("opExpr: {} is not a pure operation", ir::opKindName(op.kind)));
}

std::vector<std::string> verilogTextProblems(const std::string& text) {
  // A sized literal directly followed by a part-select: W'hX[..], W'dX[..], W'bX[..] (also signed).
  static const std::regex litSelect(R"(\d+\s*'[sS]?[hHdDbBoO]\s*[0-9a-fA-FxXzZ_?]+\s*\[)");
  std::vector<std::string> problems;
  std::istringstream in(text);
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.size() > kMaxLineChars)
      problems.push_back(fmt::format("line {}: {} characters (limit {})", n, line.size(), kMaxLineChars));
    else if (std::regex_search(line, litSelect))
      problems.push_back(fmt::format("line {}: part-select of a literal: {}", n, line));
  }
  return problems;
}

std::string Reducer::wire(std::string& decls, unsigned width, const std::string& expr) {
  std::string name = fmt::format("{}_{}", prefix_, next_++);
  decls += fmt::format("  {} = {};\n", decl("wire", width, name), expr);
  return name;
}

static std::string joined(const std::vector<std::string>& terms, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < terms.size(); ++i) s += (i ? sep : "") + terms[i];
  return s;
}

static size_t joinedSize(const std::vector<std::string>& terms, const std::string& sep) {
  size_t n = 0;
  for (const std::string& t : terms) n += t.size() + sep.size();
  return n;
}

// Greedy groups of consecutive items: at most kMaxFanIn and kMaxExprChars each, but at least two
// items, so that every level of a tree shrinks.
template <class Size>
static std::vector<std::pair<size_t, size_t>> groups(size_t count, Size size) {
  std::vector<std::pair<size_t, size_t>> out; // [begin, end)
  size_t b = 0;
  while (b < count) {
    size_t e = b, chars = 0;
    while (e < count && e - b < Reducer::kMaxFanIn &&
           (e - b < 2 || chars + size(e) <= Reducer::kMaxExprChars)) chars += size(e++);
    out.emplace_back(b, e);
    b = e;
  }
  return out;
}

std::string Reducer::reduce(std::string& decls, std::vector<std::string> terms, const std::string& sep,
                            unsigned width) {
  while (terms.size() > kMaxFanIn || (terms.size() > 1 && joinedSize(terms, sep) > kMaxExprChars)) {
    std::vector<std::string> next;
    for (auto [b, e] : groups(terms.size(), [&](size_t i) { return terms[i].size() + sep.size(); })) {
      std::vector<std::string> part(terms.begin() + std::ptrdiff_t(b), terms.begin() + std::ptrdiff_t(e));
      next.push_back(part.size() == 1 ? part[0] : wire(decls, width, joined(part, sep)));
    }
    terms = std::move(next);
  }
  return joined(terms, sep);
}

std::string Reducer::any(std::string& decls, const std::vector<std::string>& terms, unsigned width) {
  return terms.empty() ? lit(0, width) : reduce(decls, terms, " | ", width);
}

std::string Reducer::all(std::string& decls, const std::vector<std::string>& terms, unsigned width) {
  return terms.empty() ? lit(~uint64_t(0), width) : reduce(decls, terms, " & ", width);
}

std::string Reducer::concat(std::string& decls, const std::vector<std::pair<std::string, unsigned>>& parts) {
  std::vector<std::pair<std::string, unsigned>> cur = parts;
  auto exprs = [&] {
    std::vector<std::string> v;
    for (auto& p : cur) v.push_back(p.first);
    return v;
  };
  while (cur.size() > kMaxFanIn || (cur.size() > 1 && joinedSize(exprs(), ", ") > kMaxExprChars)) {
    std::vector<std::pair<std::string, unsigned>> next;
    for (auto [b, e] : groups(cur.size(), [&](size_t i) { return cur[i].first.size() + 2; })) {
      if (e - b == 1) {
        next.push_back(cur[b]);
        continue;
      }
      std::vector<std::string> part;
      unsigned w = 0;
      for (size_t i = b; i < e; ++i) {
        part.push_back(cur[i].first);
        w += cur[i].second;
      }
      next.emplace_back(wire(decls, w, "{" + joined(part, ", ") + "}"), w);
    }
    cur = std::move(next);
  }
  return "{" + joined(exprs(), ", ") + "}";
}

std::string Reducer::priorityMux(std::string& decls,
                                 const std::vector<std::pair<std::string, std::string>>& arms,
                                 const std::string& dflt, unsigned width) {
  // A chain of groups from the lowest priority up, each group's default the next lower group.
  auto size = [&](size_t i) { return arms[i].first.size() + arms[i].second.size() + 6; };
  auto chain = [&](size_t b, size_t e, std::string rest) {
    for (size_t i = e; i-- > b;) rest = fmt::format("{} ? {} : {}", arms[i].first, arms[i].second, rest);
    return rest;
  };
  size_t total = dflt.size();
  for (size_t i = 0; i < arms.size(); ++i) total += size(i);
  if (arms.size() <= kMaxFanIn && total <= kMaxExprChars) return chain(0, arms.size(), dflt);
  auto gs = groups(arms.size(), size);
  std::string rest = dflt;
  for (size_t g = gs.size(); g-- > 0;) {
    std::string expr = chain(gs[g].first, gs[g].second, rest);
    rest = g == 0 ? expr : wire(decls, width, expr);
  }
  return rest;
}

std::string InlineFifo::decls() const {
  unsigned aw = log2Ceil(depth);
  const std::string& p = prefix;
  std::string s;
  s += fmt::format("  reg [{}:0] {}_mem [0:{}];\n", width - 1, p, depth - 1);
  s += fmt::format("  {};\n  {};\n", decl("reg", aw, p + "_rd"), decl("reg", aw, p + "_wr"));
  s += fmt::format("  {};\n", decl("reg", aw + 1, p + "_count"));
  s += fmt::format("  {};\n  wire {}_nonempty;\n", decl("wire", width, p + "_dout"), p);
  return s;
}

std::string InlineFifo::logic(const std::string& push, const std::string& din, const std::string& pop,
                              const std::string& clear) const {
  unsigned aw = log2Ceil(depth), cw = aw + 1;
  const std::string& p = prefix;
  std::string s;
  // With bypass, an entry pushed into an empty FIFO is visible (and can be popped) in the same cycle.
  std::string stored = fmt::format("({}_count != {})", p, lit(0, cw));
  std::string popMem = bypass ? fmt::format("(({}) && {})", pop, stored) : fmt::format("({})", pop);
  std::string write = bypass ? fmt::format("(({}) && !(({}) && !{}))", push, pop, stored) : fmt::format("({})", push);
  if (bypass) {
    s += fmt::format("  assign {0}_dout = {1} ? {0}_mem[{0}_rd] : {2};\n", p, stored, din);
    s += fmt::format("  assign {}_nonempty = {} || ({});\n", p, stored, push);
  } else {
    s += fmt::format("  assign {0}_dout = {0}_mem[{0}_rd];\n", p);
    s += fmt::format("  assign {}_nonempty = {};\n", p, stored);
  }
  s += "  always @(posedge clk) begin\n";
  s += fmt::format("    if (rst || {}) begin\n      {}_rd <= {};\n      {}_wr <= {};\n      {}_count <= {};\n",
                   clear, p, lit(0, aw), p, lit(0, aw), p, lit(0, cw));
  s += "    end else begin\n";
  s += fmt::format("      if ({}) begin\n        {}_mem[{}_wr] <= {};\n        {}_wr <= {}_wr + {};\n      end\n",
                   write, p, p, din, p, p, lit(1, aw));
  s += fmt::format("      if ({}) {}_rd <= {}_rd + {};\n", popMem, p, p, lit(1, aw));
  s += fmt::format("      if ({} && !{}) {}_count <= {}_count + {};\n", write, popMem, p, p, lit(1, cw));
  s += fmt::format("      if (!{} && {}) {}_count <= {}_count - {};\n", write, popMem, p, p, lit(1, cw));
  s += "    end\n";
  s += "  end\n";
  s += "`ifndef SYNTHESIS\n  always @(posedge clk) begin\n";
  s += fmt::format("    if (!rst && {} && !{} && {}_count == {}) begin\n", write, popMem, p, lit(depth, cw));
  s += fmt::format("      $error(\"FIFO {} overflow\");\n      $stop;\n    end\n", p);
  s += fmt::format("    if (!rst && ({}) && !{}_nonempty) begin\n", pop, p);
  s += fmt::format("      $error(\"FIFO {} underflow\");\n      $stop;\n    end\n", p);
  s += "  end\n`endif\n";
  return s;
}

} // namespace spvhls::rtl
