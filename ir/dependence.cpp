#include "ir/dependence.h"

#include <algorithm>
#include <bit>
#include <tuple>

namespace spvhls::ir {

using Linear = DependenceAnalysis::Linear;
using Ext = DependenceAnalysis::Ext;
using Form = DependenceAnalysis::Form;

bool DependenceAnalysis::Linear::operator<(const Linear& o) const {
  return std::tie(width, c, step, terms) < std::tie(o.width, o.c, o.step, o.terms);
}

bool DependenceAnalysis::Ext::operator<(const Ext& o) const {
  return std::tie(sign, inner) < std::tie(o.sign, o.inner);
}

namespace {

uint64_t maskOf(uint32_t w) {
  return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
}

Form constant(uint32_t w, uint64_t c) {
  Form f;
  f.ok = true;
  f.lin.width = w;
  f.lin.c = c & maskOf(w);
  return f;
}

Form term(uint32_t w, ValueId v) {
  Form f = constant(w, 0);
  f.lin.terms[v] = 1;
  return f;
}

bool isConstant(const Form& f) {
  return f.ok && f.lin.step == 0 && f.lin.terms.empty() && f.exts.empty();
}

// Drops what is zero modulo the width. An extension from w bits whose coefficient is a multiple of
// 2^(width - w) is its source's linear form (2 * zext(trunc31(i)) at 32 bits is 2 * i): the extended
// bits and the source's own wrap are all multiplied out.
void normalize(Form& f) {
  const uint64_t m = maskOf(f.lin.width);
  for (auto it = f.exts.begin(); it != f.exts.end();) {
    const uint64_t k = it->second & m;
    const Linear& in = it->first.inner;
    if (k == 0 || uint32_t(std::countr_zero(k)) < f.lin.width - in.width) {
      ++it;
      continue;
    }
    f.lin.c += k * in.c;
    f.lin.step += k * in.step;
    for (const auto& [v, x] : in.terms)
      f.lin.terms[v] += k * x;
    it = f.exts.erase(it);
  }
  f.lin.c &= m;
  f.lin.step &= m;
  for (auto& [v, k] : f.lin.terms)
    k &= m;
  for (auto& [e, k] : f.exts)
    k &= m;
  std::erase_if(f.lin.terms, [](const auto& t) { return t.second == 0; });
  std::erase_if(f.exts, [](const auto& e) { return e.second == 0; });
}

Form add(const Form& a, const Form& b, uint64_t sign /* 1 or -1 */) {
  if (!a.ok || !b.ok || a.lin.width != b.lin.width) return {};
  Form r = a;
  r.lin.c += sign * b.lin.c;
  r.lin.step += sign * b.lin.step;
  for (const auto& [v, k] : b.lin.terms)
    r.lin.terms[v] += sign * k;
  for (const auto& [e, k] : b.exts)
    r.exts[e] += sign * k;
  normalize(r);
  return r;
}

Form scale(Form a, uint64_t k) {
  if (!a.ok) return a;
  a.lin.c *= k;
  a.lin.step *= k;
  for (auto& [v, x] : a.lin.terms)
    x *= k;
  for (auto& [e, x] : a.exts)
    x *= k;
  normalize(a);
  return a;
}

// The low w bits. An extension stays one as long as its source fits.
Form truncate(Form a, uint32_t w) {
  if (!a.ok || w > a.lin.width) return {};
  for (const auto& [e, k] : a.exts)
    if (e.inner.width > w) return {};
  a.lin.width = w;
  normalize(a);
  return a;
}

Form extend(const Form& a, uint32_t w, bool sign) {
  if (!a.ok || w < a.lin.width) return {};
  if (w == a.lin.width) return a;
  if (isConstant(a)) {
    uint64_t c = a.lin.c;
    if (sign && a.lin.width < 64 && (c >> (a.lin.width - 1)) & 1) c |= ~maskOf(a.lin.width);
    return constant(w, c);
  }
  Form r = constant(w, 0);
  if (a.exts.empty()) {
    r.exts[Ext{sign, a.lin}] = 1;
    return r;
  }
  // An extension of an extension of the same kind is one extension.
  const bool justExt = a.lin.c == 0 && a.lin.step == 0 && a.lin.terms.empty() && a.exts.size() == 1 &&
                       a.exts.begin()->second == 1 && a.exts.begin()->first.sign == sign;
  if (!justExt) return {};
  r.exts = a.exts;
  return r;
}

// Low bits known zero in every value the form takes (all its coefficients are multiples of 2^n).
uint32_t knownZeroLowBits(const Form& f) {
  uint32_t n = f.lin.width;
  auto at = [&](uint64_t k) {
    if (k) n = std::min<uint32_t>(n, uint32_t(std::countr_zero(k)));
  };
  at(f.lin.c), at(f.lin.step);
  for (const auto& [v, k] : f.lin.terms)
    at(k);
  for (const auto& [e, k] : f.exts)
    at(k);
  return n;
}

// a | c and a ^ c are a + c when the constant's bits are known zero in a (2 * i | 1).
Form addDisjoint(const Form& a, const Form& c) {
  if (!a.ok || !isConstant(c) || (c.lin.c & ~maskOf(knownZeroLowBits(a)))) return {};
  return add(a, c, 1);
}

bool anyVarying(const std::map<ValueId, uint64_t>& terms, const std::vector<bool>& varying) {
  return std::any_of(terms.begin(), terms.end(), [&](const auto& t) { return varying[t.first]; });
}

bool invariantLinear(const Linear& l, const std::vector<bool>& varying) {
  return l.step == 0 && !anyVarying(l.terms, varying);
}

// The smallest d in [lo, hi] with a * d = b (mod 2^w).
std::optional<uint64_t> solve(uint64_t a, uint64_t b, uint32_t w, uint64_t lo, uint64_t hi) {
  const uint64_t m = maskOf(w);
  a &= m, b &= m;
  if (a == 0) return b == 0 ? std::optional<uint64_t>(lo) : std::nullopt;
  const int tz = std::countr_zero(a);
  if (b & maskOf(uint32_t(tz))) return std::nullopt;
  // (a / 2^tz) d = b / 2^tz modulo 2^(w - tz), a / 2^tz odd: one solution d0 in each period.
  const uint32_t bits = w - uint32_t(tz);
  const uint64_t odd = a >> tz;
  uint64_t inv = odd; // Newton's iteration: each step doubles the correct low bits (3 to start)
  for (int i = 0; i < 5; ++i)
    inv *= 2 - odd * inv;
  const uint64_t d0 = ((b >> tz) * inv) & maskOf(bits);
  unsigned __int128 d = d0;
  if (d < lo) {
    if (bits >= 64) return std::nullopt;
    using U128 = unsigned __int128;
    const U128 period = U128(1) << bits;
    d += (lo - d0 + period - 1) / period * period;
  }
  if (d > hi) return std::nullopt;
  return uint64_t(d);
}

int64_t floorDiv(__int128 a, int64_t b) { // b > 0
  __int128 q = a / b;
  if (a % b != 0 && a < 0) --q;
  return int64_t(q);
}

bool invariantKind(OpKind k) {
  switch (k) {
  case OpKind::Const:
  case OpKind::Arg:
  case OpKind::LiveIn:
  case OpKind::Param:
    return true;
  default:
    return false;
  }
}

// Pure operations that compute the same result from the same operands in every iteration.
bool deterministicKind(OpKind k) {
  if (opInfo(k).sideEffect) return false;
  switch (k) {
  case OpKind::Load:
  case OpKind::LoopPhi:
  case OpKind::LoopOut:
  case OpKind::Phi:
  case OpKind::Undef:
  case OpKind::WorkItem:
  case OpKind::Lane:
  case OpKind::SgShuffle:
  case OpKind::SgShuffleDown:
  case OpKind::SgShuffleUp:
  case OpKind::SgShuffleXor:
  case OpKind::SgScan:
  case OpKind::TaskGet:
    return false;
  default:
    return true;
  }
}

} // namespace

DependenceAnalysis::DependenceAnalysis(const Loop& loop) : loop_(loop) {
  const size_t n = loop.ops.size();
  varying_.assign(n, true);
  for (ValueId v = 0; v < n; ++v) {
    const Op& op = loop.ops[v];
    bool inv = invariantKind(op.kind) || (deterministicKind(op.kind) && !op.operands.empty());
    for (ValueId o : op.operands)
      inv = inv && o < v && !varying_[o];
    varying_[v] = !inv;
  }
  // An induction variable: a phi whose next value is the phi plus a constant.
  inductionStep_.assign(n, std::nullopt);
  computeForms(false);
  for (ValueId v = 0; v < n; ++v) {
    const Op& op = loop.ops[v];
    if (op.kind != OpKind::LoopPhi || op.index >= loop.phis.size()) continue;
    const ValueId next = loop.phis[op.index].next;
    if (next >= n) continue;
    const Form& f = forms_[next];
    if (f.ok && f.exts.empty() && f.lin.step == 0 && f.lin.terms.size() == 1 &&
        f.lin.terms.begin()->first == v && f.lin.terms.begin()->second == 1 && f.lin.width == op.width())
      inductionStep_[v] = f.lin.c;
  }
  // From here varying_ describes terms: an induction variable's term is its initial value.
  for (ValueId v = 0; v < n; ++v)
    if (inductionStep_[v]) varying_[v] = false;
  computeForms(true);
}

void DependenceAnalysis::computeForms(bool withInductions) {
  forms_.assign(loop_.ops.size(), Form{});
  for (ValueId v = 0; v < loop_.ops.size(); ++v) {
    forms_[v] = formOf(v, withInductions);
    if (!forms_[v].ok && loop_.ops[v].type.isBits() && loop_.ops[v].width() <= 64)
      forms_[v] = term(loop_.ops[v].width(), v); // opaque: only itself
  }
}

Form DependenceAnalysis::formOf(ValueId v, bool withInductions) const {
  const Op& op = loop_.ops[v];
  const uint32_t w = op.width();
  if (!op.type.isBits() || w == 0 || w > 64) return {};
  auto operand = [&](size_t i) -> const Form& {
    static const Form none;
    return i < op.operands.size() && op.operands[i] < v ? forms_[op.operands[i]] : none;
  };
  switch (op.kind) {
  case OpKind::Const:
    return constant(w, op.imm);
  case OpKind::LoopPhi: {
    Form f = term(w, v);
    if (withInductions && inductionStep_[v]) f.lin.step = *inductionStep_[v] & maskOf(w);
    return withInductions && !inductionStep_[v] ? Form{} : f;
  }
  case OpKind::Add:
    return add(operand(0), operand(1), 1);
  case OpKind::Sub:
    return add(operand(0), operand(1), uint64_t(-1));
  case OpKind::Neg:
    return scale(operand(0), uint64_t(-1));
  case OpKind::Mul:
    if (isConstant(operand(1))) return scale(operand(0), operand(1).lin.c);
    if (isConstant(operand(0))) return scale(operand(1), operand(0).lin.c);
    return {};
  case OpKind::Or:
  case OpKind::Xor:
    return isConstant(operand(1)) ? addDisjoint(operand(0), operand(1)) : addDisjoint(operand(1), operand(0));
  case OpKind::Shl:
    if (!isConstant(operand(1))) return {};
    if (operand(1).lin.c >= w) return constant(w, 0);
    return scale(operand(0), uint64_t(1) << operand(1).lin.c);
  case OpKind::ZExt:
  case OpKind::SExt:
    return extend(operand(0), w, op.kind == OpKind::SExt);
  case OpKind::Trunc:
    return truncate(operand(0), w);
  case OpKind::Extract:
    return op.imm == 0 ? truncate(operand(0), w) : Form{};
  case OpKind::Concat: {
    Form r = constant(w, 0);
    uint32_t at = 0;
    for (size_t i = 0; i < op.operands.size() && r.ok; ++i) {
      const Form& part = operand(i);
      if (!part.ok || at >= w) return {};
      // The top part's extension bits are shifted out: extend it as an extension it is of, if any
      // (4 * zext64(sext62(x)) is 4 * sext64(x)).
      const bool top = at + part.lin.width == w;
      const bool sign = top && part.exts.size() == 1 && part.exts.begin()->first.sign;
      r = add(r, scale(extend(part, w, sign), uint64_t(1) << at), 1);
      at += part.lin.width;
    }
    return r;
  }
  default:
    return {};
  }
}

std::optional<uint32_t> DependenceAnalysis::firstConflict(ValueId first, ValueId second,
                                                          uint32_t minDistance) const {
  const std::optional<uint32_t> unknown = minDistance;
  const Op &opF = loop_.ops.at(first), &opS = loop_.ops.at(second);
  if (opF.operands.empty() || opS.operands.empty() || opF.operands[0] >= forms_.size() ||
      opS.operands[0] >= forms_.size())
    return unknown;
  const Form &F = forms_[opF.operands[0]], &S = forms_[opS.operands[0]];
  if (!F.ok || !S.ok || F.lin.width != 64 || S.lin.width != 64) return unknown;
  // diff(d) = offset(second, t) - offset(first, t - d); the accesses share a byte iff diff lies in
  // (-size(second), size(first)). Every term must cancel; a term of unknown variation cancels only
  // within one iteration (d = 0).
  if (F.lin.step != S.lin.step || F.lin.terms != S.lin.terms) return unknown;
  bool onlySameIteration = anyVarying(F.lin.terms, varying_);
  // The extensions of A that the equal invariant ones of B do not cancel.
  auto unmatched = [&](const Form& A, const Form& B) {
    std::vector<std::pair<Ext, uint64_t>> left;
    for (const auto& [e, k] : A.exts)
      if (auto it = B.exts.find(e);
          it == B.exts.end() || it->second != k || !invariantLinear(e.inner, varying_))
        left.emplace_back(e, k);
    return left;
  };
  const std::vector<std::pair<Ext, uint64_t>> extF = unmatched(F, S), extS = unmatched(S, F);
  const uint64_t dc = S.lin.c - F.lin.c;
  const int64_t sizeF = opF.size, sizeS = opS.size;
  std::optional<uint64_t> best;
  uint64_t lo = minDistance, hi = UINT64_MAX;
  auto consider = [&](std::optional<uint64_t> d) {
    if (d && (!best || *d < *best)) best = d;
  };
  if (extF.empty() && extS.empty()) {
    if (onlySameIteration) hi = 0;
    if (lo > hi) return unknown;
    // diff = dc + step * d (mod 2^64).
    for (int64_t D = 1 - sizeS; D < sizeF; ++D)
      consider(solve(F.lin.step, uint64_t(D) - dc, 64, lo, hi));
  } else if (extF.size() == 1 && extS.size() == 1 && F.lin.step == 0) {
    // diff = dc + coef * X, X = ext(inner_S(t)) - ext(inner_F(t - d)) = k d + e0 (mod 2^w), whichever
    // way the inner values wrapped; |X| < 2^w, or 2^(w + 1) for a sign and a zero extension.
    const auto& [xf, coefF] = extF[0];
    const auto& [xs, coefS] = extS[0];
    const uint32_t w = xf.inner.width;
    if (coefF != coefS || w != xs.inner.width || w > 32 || xf.inner.step != xs.inner.step ||
        xf.inner.terms != xs.inner.terms)
      return unknown;
    if (anyVarying(xf.inner.terms, varying_)) onlySameIteration = true;
    if (onlySameIteration) hi = 0;
    if (lo > hi) return unknown;
    int64_t coef = int64_t(coefF), dcs = int64_t(dc);
    if (coef == 0 || coef > (int64_t(1) << 24) || coef < -(int64_t(1) << 24) || dcs > (int64_t(1) << 60) ||
        dcs < -(int64_t(1) << 60))
      return unknown;
    // |dc + coef X| < 2^62: no wrap at 64 bits, so coef X lies in the open interval (a, b).
    __int128 a = -sizeS - dcs, b = sizeF - dcs;
    if (coef < 0) coef = -coef, std::swap(a, b), a = -a, b = -b;
    const int64_t xLo = floorDiv(a, coef) + 1, xHi = -floorDiv(-b, coef) - 1;
    if (xHi - xLo > 4096) return unknown;
    const uint64_t e0 = xs.inner.c - xf.inner.c;
    const int64_t xMax = int64_t(1) << (xf.sign == xs.sign ? w : w + 1);
    for (int64_t X = xLo; X <= xHi; ++X)
      if (X > -xMax && X < xMax) consider(solve(xf.inner.step, uint64_t(X) - e0, w, lo, hi));
  } else {
    return unknown;
  }
  // Only within the iteration was anything shown: the next iteration may conflict.
  if (!best) return hi == UINT64_MAX ? std::nullopt : std::optional<uint32_t>(uint32_t(hi + 1));
  return uint32_t(std::min<uint64_t>(*best, kMaxDependenceDistance));
}

bool DependenceAnalysis::readsWrittenBefore(ValueId load, ValueId store, uint32_t d) const {
  const Op &l = loop_.ops.at(load), &s = loop_.ops.at(store);
  if (l.size != s.size || l.operands.empty() || s.operands.empty() || l.operands[0] >= forms_.size() ||
      s.operands[0] >= forms_.size())
    return false;
  const Form &L = forms_[l.operands[0]], &S = forms_[s.operands[0]];
  if (!L.ok || !S.ok || anyVarying(S.lin.terms, varying_)) return false;
  Form back = S;
  back.lin.c = (S.lin.c - uint64_t(d) * S.lin.step) & maskOf(S.lin.width);
  back.exts.clear();
  for (const auto& [e, k] : S.exts) {
    if (anyVarying(e.inner.terms, varying_)) return false;
    Ext earlier = e;
    earlier.inner.c = (e.inner.c - uint64_t(d) * e.inner.step) & maskOf(e.inner.width);
    back.exts[earlier] += k;
  }
  normalize(back);
  return back.lin == L.lin && back.exts == L.exts;
}

bool skipsAfterStore(const Loop& loop, ValueId load, ValueId store) {
  const Op &l = loop.ops.at(load), &s = loop.ops.at(store);
  if (l.kind != OpKind::Load || s.kind != OpKind::Store || l.operands.size() < 2 || s.operands.size() < 3)
    return false;
  const ValueId storePred = s.operands[2];
  auto nextIsStorePred = [&](ValueId next) {
    if (storePred != kNone) return next == storePred;
    return next < loop.ops.size() && loop.ops[next].kind == OpKind::Const && (loop.ops[next].imm & 1);
  };
  auto holds = [&](auto&& self, ValueId v) -> bool {
    if (v >= loop.ops.size()) return false;
    const Op& op = loop.ops[v];
    if (op.kind == OpKind::And && op.width() == 1)
      return std::any_of(op.operands.begin(), op.operands.end(), [&](ValueId o) { return self(self, o); });
    if (op.kind != OpKind::Not || op.operands.empty() || op.operands[0] >= loop.ops.size()) return false;
    const Op& p = loop.ops[op.operands[0]];
    return p.kind == OpKind::LoopPhi && p.index < loop.phis.size() &&
           nextIsStorePred(loop.phis[p.index].next);
  };
  return holds(holds, l.operands[1]);
}

uint32_t controlDistance(const LoopControls& c, uint32_t memory) {
  for (const auto& [mem, dist] : c.memoryDependenceDistance)
    if (mem == memory) return dist;
  if (c.dependencyLengthAll) return *c.dependencyLengthAll;
  return 1;
}

MemoryOrder memoryOrder(const DependenceAnalysis& a, const Loop& loop, ValueId first, ValueId second) {
  const uint32_t ctl = controlDistance(loop.controls, loop.ops.at(first).memory);
  auto carried = [&](std::optional<uint32_t> d) -> std::optional<uint32_t> {
    if (!d || *d == 0) return d;
    if (ctl == 0) return std::nullopt;
    return std::max(*d, ctl);
  };
  // A store's value forwarded to a load in the next iteration: that load never follows the store at
  // distance 1 (skipsAfterStore), so the order starts at 2.
  auto conflict = [&](ValueId x, ValueId y, uint32_t minDistance) {
    std::optional<uint32_t> d = a.firstConflict(x, y, minDistance);
    if (d == std::optional<uint32_t>(1) && skipsAfterStore(loop, y, x)) d = a.firstConflict(x, y, 2);
    return d;
  };
  MemoryOrder r;
  r.firstToSecond = carried(conflict(first, second, 0));
  r.secondToFirst = carried(conflict(second, first, 1));
  r.relaxed = r.firstToSecond != std::optional<uint32_t>(0) ||
              r.secondToFirst != (ctl ? std::optional<uint32_t>(ctl) : std::nullopt);
  return r;
}

std::vector<std::pair<ValueId, ValueId>> orderedAccessPairs(const Loop& loop) {
  std::vector<std::pair<ValueId, ValueId>> pairs;
  auto access = [&](ValueId v) {
    return loop.ops[v].kind == OpKind::Load || loop.ops[v].kind == OpKind::Store;
  };
  for (ValueId x = 0; x < loop.ops.size(); ++x) {
    if (!access(x)) continue;
    for (ValueId y = x + 1; y < loop.ops.size(); ++y)
      if (access(y) && loop.ops[y].memory == loop.ops[x].memory &&
          (loop.ops[x].kind == OpKind::Store || loop.ops[y].kind == OpKind::Store))
        pairs.emplace_back(x, y);
  }
  return pairs;
}

} // namespace spvhls::ir
