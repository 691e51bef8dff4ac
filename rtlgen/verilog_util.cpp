#include "rtlgen/verilog_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "ir/lower_internal.h"

namespace spvhls::rtl {

std::vector<bool> partiallyUsed(const std::vector<ir::Op>& ops) {
  std::vector<bool> partial(ops.size(), false), read(ops.size(), false);
  for (const ir::Op& op : ops)
    for (ir::ValueId o : op.operands)
      if (o < ops.size()) read[o] = true;
  // A load kept for its side effect alone (a void task's get, popping its queue): nothing reads it.
  for (size_t v = 0; v < ops.size(); ++v)
    if (ops[v].kind == ir::OpKind::Load && !read[v]) partial[v] = true;
  for (const ir::Op& op : ops) {
    if (op.operands.empty()) continue;
    const ir::ValueId a = op.operands[0];
    if ((op.kind == ir::OpKind::Trunc || op.kind == ir::OpKind::Extract) && a < ops.size() &&
        op.width() < ops[a].width())
      partial[a] = true;
    bool shift = op.kind == ir::OpKind::Shl || op.kind == ir::OpKind::LShr || op.kind == ir::OpKind::AShr;
    if (shift && op.operands.size() > 1) {
      const ir::ValueId b = op.operands[1];
      if (b < ops.size() && ops[b].width() > log2Ceil(op.width())) partial[b] = true;
    }
  }
  return partial;
}

std::string commentName(const std::string& name) {
  constexpr size_t kMax = 80;
  return name.size() <= kMax ? name : name.substr(0, kMax) + "...";
}

unsigned log2Ceil(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t(1) << n) < v) ++n;
  return n;
}

uint64_t roundUpPow2(uint64_t v) { return uint64_t(1) << log2Ceil(v < 2 ? 2 : v); }

// Shift amount taken modulo the width (the IR's definition).
static nl::ExprP shiftAmount(const nl::ExprP& b, unsigned width) {
  if (width == 1) return nl::lit(0, 1);
  unsigned k = log2Ceil(width);
  // A literal cannot be part-selected: reduce it here.
  if (auto v = b->constValue()) return nl::lit(*v % width, std::max(1u, k));
  if ((1u << k) == width) return b->width <= k ? b : nl::slice(b, k - 1, 0);
  return nl::binary(nl::Op::Mod, b, nl::lit(width, b->width));
}

// The value the hardware expression computes for literal operands (the IR's folding, plus the
// hardware's answers where the IR leaves the result undefined and refuses to fold).
static uint64_t foldHardware(const ir::Op& op, const std::vector<uint64_t>& c, unsigned firstWidth) {
  const unsigned W = op.width(), ow = firstWidth;
  if (auto r = ir::lower::foldConstant(op.kind, W, c, ow)) return *r;
  using K = ir::OpKind;
  // Division by zero gives 0; INT_MIN / -1 wraps to INT_MIN and its remainder is 0.
  if (op.kind == K::SDiv && c.size() == 2 && (c[1] & ir::lower::widthMask(ow)) != 0)
    return c[0] & ir::lower::widthMask(W);
  return 0;
}

nl::ExprP opExpr(const ir::Op& op, const std::vector<nl::ExprP>& a) {
  using K = ir::OpKind;
  using nl::Op;
  const unsigned W = op.width();
  std::vector<uint64_t> c;
  for (const nl::ExprP& e : a)
    if (auto v = e->constValue()) c.push_back(*v);
  if (op.kind == K::Select && a[0]->constValue()) return (*a[0]->constValue() & 1) ? a[1] : a[2];
  // Fixed by the operand range (Verilator's CMPCONST / UNSIGNED warnings otherwise).
  if (a.size() == 2)
    if (auto r = ir::lower::foldUnsignedBound(op.kind, a[0]->width, a[0]->constValue(), a[1]->constValue()))
      return nl::lit(*r, 1);
  if (c.size() == a.size() && op.kind != K::Select) {
    switch (op.kind) {
    case K::Add: case K::Sub: case K::Mul: case K::UDiv: case K::URem: case K::SDiv: case K::SRem: case K::SMod:
    case K::Neg: case K::Not: case K::And: case K::Or: case K::Xor: case K::Shl: case K::LShr: case K::AShr:
    case K::Eq: case K::Ne: case K::ULt: case K::ULe: case K::UGt: case K::UGe: case K::SLt: case K::SLe:
    case K::SGt: case K::SGe: case K::ZExt: case K::Trunc: case K::SExt:
      return nl::lit(foldHardware(op, c, a.empty() ? W : a[0]->width), W);
    default: break;
    }
  }
  auto sa = [&](int i) { return nl::asSigned(a[i]); };
  auto bin = [&](Op o, const nl::ExprP& x, const nl::ExprP& y) { return nl::binary(o, x, y); };
  // Division by zero has no defined result in SPIR-V; hardware gives 0 (the interpreter reports it).
  auto byZero = [&](const nl::ExprP& e) { return nl::mux(nl::eq(a[1], nl::lit(0, a[1]->width)), nl::lit(0, W), e); };
  switch (op.kind) {
  case K::Add: return bin(Op::Add, a[0], a[1]);
  case K::Sub: return bin(Op::Sub, a[0], a[1]);
  case K::Mul: return bin(Op::Mul, a[0], a[1]);
  case K::UDiv: return byZero(bin(Op::Div, a[0], a[1]));
  case K::URem: return byZero(bin(Op::Mod, a[0], a[1]));
  case K::SDiv: return byZero(nl::asUnsigned(bin(Op::Div, sa(0), sa(1))));
  case K::SRem: return byZero(nl::asUnsigned(bin(Op::Mod, sa(0), sa(1))));
  case K::Neg: return bin(Op::Sub, nl::lit(0, W), a[0]);
  case K::Not: return ~a[0];
  case K::And: return nl::all({a[0], a[1]}, W);
  case K::Or: return nl::any({a[0], a[1]}, W);
  case K::Xor: return bin(Op::Xor, a[0], a[1]);
  case K::Shl: return bin(Op::Shl, a[0], shiftAmount(a[1], W));
  case K::LShr: return bin(Op::Shr, a[0], shiftAmount(a[1], W));
  case K::AShr: return nl::asUnsigned(bin(Op::AShr, sa(0), shiftAmount(a[1], W)));
  case K::Eq: return bin(Op::Eq, a[0], a[1]);
  case K::Ne: return bin(Op::Ne, a[0], a[1]);
  case K::ULt: return bin(Op::Lt, a[0], a[1]);
  case K::ULe: return bin(Op::Le, a[0], a[1]);
  case K::UGt: return bin(Op::Gt, a[0], a[1]);
  case K::UGe: return bin(Op::Ge, a[0], a[1]);
  case K::SLt: return bin(Op::Lt, sa(0), sa(1));
  case K::SLe: return bin(Op::Le, sa(0), sa(1));
  case K::SGt: return bin(Op::Gt, sa(0), sa(1));
  case K::SGe: return bin(Op::Ge, sa(0), sa(1));
  case K::Select: return nl::mux(a[0], a[1], a[2]);
  case K::ZExt: case K::Trunc: return nl::resize(a[0], W);
  case K::Extract:
    return nl::slice(a[0], unsigned(op.imm) + W - 1, unsigned(op.imm));
  case K::Concat:
    return nl::concat(std::vector<nl::ExprP>(a.rbegin(), a.rend())); // most significant first
  case K::SExt: {
    unsigned w0 = a[0]->width;
    if (w0 == W) return a[0];
    return nl::concat({nl::replicate(nl::slice(a[0], w0 - 1, w0 - 1), W - w0), a[0]});
  }
  case K::SMod: {
    // Remainder whose sign follows the divisor: r = a srem b; r + b when r != 0 and signs differ.
    nl::ExprP r = nl::asUnsigned(bin(Op::Mod, sa(0), sa(1)));
    nl::ExprP szero = nl::asSigned(nl::lit(0, W));
    nl::ExprP signsDiffer = bin(Op::Ne, nl::lt(nl::asSigned(r), szero), nl::lt(sa(1), szero));
    nl::ExprP fix = nl::all({nl::ne(r, nl::lit(0, W)), signsDiffer});
    return byZero(nl::mux(fix, bin(Op::Add, r, a[1]), r));
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

nl::Instance unitInstance(const std::string& module, const std::string& name, nl::ExprP en,
                          const std::vector<nl::ExprP>& operands, nl::ExprP result) {
  nl::Instance i{module, name, {{"clk", nl::ref("clk", 1)}, {"en", std::move(en)}}};
  for (size_t k = 0; k < operands.size(); ++k) i.connections.emplace_back(std::string(1, char('a' + k)), operands[k]);
  i.connections.emplace_back("y", std::move(result));
  return i;
}

} // namespace spvhls::rtl
