// Consecutive accesses of a loop body as one wide access (docs/loop-controls.md "Unrolling, in
// cycles"). An unrolled body reads a[4i], a[4i+1], a[4i+2] and a[4i+3]: four requests on a's port, so
// the loop's II is four whatever the unrolling bought. Where n loads, or n stores, of one memory
// (external, or an on-chip RAM: its words are as wide as its widest access), of one size e and under
// one predicate have the addresses T + c0, T + c0 + e, ..., T + c0 + (n-1)e for one symbolic T (the
// same values through the same extensions, shifts, multiplications, sums and differences) and the
// lowest is aligned to n·e (n a power of two, n·e at most kMaxAccessBytes; T's known low zero bits, a
// fixed point through the loop's phis, and c0 say so), they become one access of n·e bytes: the
// loads' values are bit ranges of it (at the first load), the stores' data is concatenated (at the
// last store). Nothing between the first and the last may change or see those bytes: no other store
// to the memory between loads, no other access to it between stores, no inner loop, call, task
// operation or queue access. Accesses under different predicates (a partial unroll's copies each
// test the exit) stay apart: a wide store would need byte enables, a wide load could read past the
// buffer's end.
#include <algorithm>
#include <bit>
#include <map>
#include <optional>

#include "ir/low_zeros.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

// An address as T + c: T is the key's head through the transforms after it (an op kind and its
// parameter each, two words), c a constant added after them, both in `width` bits; `z` of T's low bits
// are known zero. The head is one value of the body, or the sum or difference of two such functions
// {kSum | kind, length of the first, length of the second, first, second}. Shifts by constants and
// zero-filled concatenations are multiplications (x << 2, {x, 2'b0} and x * 4 are one T), so that
// (x << 2) - x, a multiplication by 3 strength-reduced, is T * 3 again.
constexpr uint64_t kSum = uint64_t(1) << 63; // a key's head that is a sum or a difference (above)

struct Affine {
  std::vector<uint64_t> key;
  uint64_t c = 0;
  uint32_t z = 0, width = 0;
};

class Decomposer {
public:
  Decomposer(const std::vector<Op>& ops, const LowZeros& zeros)
      : ops_(ops), zeros_(zeros), memo_(ops.size()) {}

  const Affine& of(ValueId v) {
    if (!memo_[v]) memo_[v] = compute(v);
    return *memo_[v];
  }

private:
  const std::vector<Op>& ops_;
  const LowZeros& zeros_;
  std::vector<std::optional<Affine>> memo_;

  std::optional<uint64_t> constant(ValueId v) const {
    const Op& op = ops_[v];
    if (op.kind != OpKind::Const || !op.immHigh.empty() || op.width() > 64) return std::nullopt;
    return op.imm & widthMask(op.width());
  }
  Affine leaf(ValueId v) const { return {{v}, 0, zeros_[v], ops_[v].width()}; }
  // A transform after a's: an extension of an extension of the same kind is one.
  static void push(Affine& a, OpKind k, uint64_t param) {
    const size_t n = a.key.size();
    if ((k == OpKind::ZExt || k == OpKind::SExt) && n >= headLength(a.key) + 2 && a.key[n - 2] == uint64_t(k))
      a.key[n - 1] = param;
    else
      a.key.insert(a.key.end(), {uint64_t(k), param});
  }
  static size_t headLength(const std::vector<uint64_t>& key) {
    return key[0] & kSum ? 3 + key[1] + key[2] : 1;
  }
  // a = K * f: its key without a last multiplication, and that factor (1 without one).
  static std::pair<std::vector<uint64_t>, uint64_t> factored(const Affine& a) {
    const size_t n = a.key.size();
    if (n >= headLength(a.key) + 2 && a.key[n - 2] == uint64_t(OpKind::Mul))
      return {std::vector<uint64_t>(a.key.begin(), a.key.end() - 2), a.key[n - 1]};
    return {a.key, 1};
  }

  Affine compute(ValueId v) {
    const Op& op = ops_[v];
    const uint32_t w = op.width();
    if (!op.type.isBits() || w == 0 || w > 64) return leaf(v);
    const uint64_t mask = widthMask(w);
    const auto& o = op.operands;
    auto operandConst = [&](size_t i) { return i < o.size() ? constant(o[i]) : std::nullopt; };
    // T + c with a constant added: one operand a constant, the other decomposed.
    auto plus = [&](bool subtract) -> std::optional<Affine> {
      for (size_t i = 0; i < 2 && o.size() == 2; ++i) {
        const auto k = operandConst(i);
        if (!k || (subtract && i == 0)) continue;
        Affine a = of(o[1 - i]);
        a.c = (subtract ? a.c - *k : a.c + *k) & mask;
        return a;
      }
      return std::nullopt;
    };
    // ext(T + c) = ext(T) + c when T + c neither carries past T's zero bits nor reaches its sign.
    auto extend = [&](const Affine& a, uint32_t to, bool sign) -> std::optional<Affine> {
      const uint32_t room = sign ? std::min(a.z, a.width - 1) : a.z;
      if (std::bit_width(a.c) > room) return std::nullopt;
      Affine e = a;
      push(e, sign ? OpKind::SExt : OpKind::ZExt, to);
      e.z = a.z >= a.width ? to : a.z;
      e.width = to;
      return e;
    };
    auto scale = [&](Affine a, uint64_t factor) { // T * f * g is T * (f * g): one form
      auto [k, f] = factored(a);
      a.key = std::move(k);
      if ((f * factor & mask) != 1) push(a, OpKind::Mul, f * factor & mask);
      a.c = (a.c * factor) & mask;
      a.z = std::min<uint32_t>(w, a.z + static_cast<uint32_t>(std::countr_zero(factor)));
      a.width = w;
      return a;
    };
    // (Tx + cx) ± (Ty + cy): T * (fx ± fy) when Tx = T * fx and Ty = T * fy, else Tx ± Ty, plus cx ± cy.
    auto combine = [&](bool subtract) -> std::optional<Affine> {
      if (o.size() != 2) return std::nullopt;
      const Affine x = of(o[0]), y = of(o[1]);
      if (x.width != w || y.width != w) return std::nullopt;
      Affine a;
      a.width = w;
      a.c = (subtract ? x.c - y.c : x.c + y.c) & mask;
      a.z = std::min(x.z, y.z);
      auto [kx, fx] = factored(x);
      auto [ky, fy] = factored(y);
      if (kx == ky) {
        const uint64_t f = (subtract ? fx - fy : fx + fy) & mask;
        if (f == 0) return std::nullopt; // a constant: left to the constant folding
        a.key = std::move(kx);
        if (f != 1) push(a, OpKind::Mul, f);
        return a;
      }
      const std::vector<uint64_t>*first = &x.key, *second = &y.key;
      if (!subtract && *second < *first) std::swap(first, second); // x + y and y + x are one T
      a.key = {kSum | uint64_t(op.kind), first->size(), second->size()};
      a.key.insert(a.key.end(), first->begin(), first->end());
      a.key.insert(a.key.end(), second->begin(), second->end());
      return a;
    };
    std::optional<Affine> r;
    switch (op.kind) {
    case OpKind::Add:
      r = plus(false);
      if (!r) r = combine(false);
      break;
    case OpKind::Sub:
      r = plus(true);
      if (!r) r = combine(true);
      break;
    case OpKind::Or: // carry-free: the constant's bits within T's zeros, apart from c's
      for (size_t i = 0; i < 2 && o.size() == 2 && !r; ++i)
        if (const auto k = operandConst(i)) {
          Affine a = of(o[1 - i]);
          if ((a.c & *k) == 0 && std::bit_width(a.c | *k) <= a.z) a.c |= *k, r = a;
        }
      break;
    case OpKind::ZExt:
    case OpKind::SExt:
      r = extend(of(o[0]), w, op.kind == OpKind::SExt);
      break;
    case OpKind::Shl:
      if (const auto s = operandConst(1); s && *s < w) r = scale(of(o[0]), uint64_t(1) << *s);
      break;
    case OpKind::Mul:
      for (size_t i = 0; i < 2 && o.size() == 2 && !r; ++i)
        if (const auto k = operandConst(i); k && *k) r = scale(of(o[1 - i]), *k);
      break;
    case OpKind::Concat: { // {constants C (s bits), x, zeros}: x extended, shifted by s, plus C
      size_t at = o.size();
      uint32_t s = 0;
      uint64_t low = 0;
      for (size_t i = 0; i < o.size(); ++i) {
        const uint32_t wi = ops_[o[i]].width();
        const auto k = operandConst(i);
        if (!k) {
          if (at != o.size()) return leaf(v); // two non-constant parts
          at = i;
        } else if (at == o.size()) {
          if (s + wi > 64) return leaf(v);
          low |= *k << s, s += wi;
        } else if (*k != 0) {
          return leaf(v); // a constant above x that is not zero
        }
      }
      if (at == o.size()) break;
      // {x[w-1:s], C} where x's low s bits are zero (how the known bits write x + C): x + C.
      if (const Op& part = ops_[o[at]]; s && part.kind == OpKind::Extract && part.imm == s &&
                                        part.width() == w - s && ops_[part.operands[0]].width() == w &&
                                        zeros_[part.operands[0]] >= s) {
        Affine a = of(part.operands[0]);
        a.c = (a.c + low) & mask;
        r = a;
        break;
      }
      // x extended to w - s bits, then shifted: zext(x) * 2^s in w bits, whose c needs no room in x's
      // zeros (the shift drops the bits a carry would reach).
      std::optional<Affine> e = of(o[at]);
      if (e->width < w - s) e = extend(*e, w - s, false);
      if (!e) break;
      if (s) {
        push(*e, OpKind::ZExt, w);
        e->width = w;
        e = scale(*e, uint64_t(1) << s);
        e->c |= low;
      }
      r = e;
      break;
    }
    case OpKind::Trunc:
    case OpKind::Extract:
      if (op.kind == OpKind::Trunc || op.imm == 0) {
        Affine a = of(o[0]);
        push(a, OpKind::Trunc, w);
        a.c &= mask;
        a.z = std::min(a.z, w);
        a.width = w;
        r = a;
      }
      break;
    default:
      break;
    }
    return r ? *r : leaf(v);
  }
};

ValueId predicateOf(const Op& op) {
  const size_t at = op.kind == OpKind::Store ? 2 : 1;
  return op.operands.size() > at ? op.operands[at] : kNone;
}

// One wide access: its members in address order, the body positions of the first and the last.
struct Group {
  std::vector<ValueId> members;
  ValueId first = 0, last = 0;
};

class Widener {
public:
  // `callerZeros`: LowZeros of the values of the loop's caller (ofKernel, or an outer pipeline's body).
  Widener(const Kernel& k, Loop& loop, const std::vector<uint32_t>& callerZeros)
      : k_(k), loop_(loop), zeros_(callerZeros, loop), dec_(loop.ops, zeros_) {}

  // The wide accesses made, and the accesses they replace.
  std::pair<uint32_t, uint32_t> run() {
    choose();
    if (groups_.empty()) return {0, 0};
    rebuild();
    uint32_t merged = 0;
    for (const Group& g : groups_)
      merged += uint32_t(g.members.size());
    return {uint32_t(groups_.size()), merged};
  }

private:
  const Kernel& k_;
  Loop& loop_;
  LowZeros zeros_;
  mutable Decomposer dec_;
  std::vector<Group> groups_;

  static int64_t signedC(const Affine& a) {
    return a.width >= 64 ? int64_t(a.c) : int64_t(a.c << (64 - a.width)) >> (64 - a.width);
  }

  bool candidate(const Op& op) const {
    if (op.kind != OpKind::Load && op.kind != OpKind::Store) return false;
    const Memory& mem = k_.memories.at(op.memory);
    if (mem.kind == Memory::Kind::Queue || !std::has_single_bit(unsigned(op.size))) return false;
    const Type& t = op.kind == OpKind::Load ? op.type : loop_.ops[op.operands[1]].type;
    return t.width() == 8u * op.size && !t.isVector();
  }

  void choose() {
    // Accesses by (memory, store, size, predicate, T); each with its c, as signed.
    std::map<std::vector<uint64_t>, std::vector<std::pair<int64_t, ValueId>>> byBase;
    std::map<std::vector<uint64_t>, uint32_t> zerosOf;
    for (ValueId v = 0; v < loop_.ops.size(); ++v) {
      const Op& op = loop_.ops[v];
      if (!candidate(op)) continue;
      const Affine& a = dec_.of(op.operands[0]);
      std::vector<uint64_t> key = {op.memory, op.kind == OpKind::Store, op.size, predicateOf(op)};
      key.insert(key.end(), a.key.begin(), a.key.end());
      byBase[key].push_back({signedC(a), v});
      zerosOf[key] = a.z;
    }
    for (auto& [key, list] : byBase) {
      if (list.size() < 2) continue;
      std::sort(list.begin(), list.end());
      const uint32_t e = uint32_t(key[2]);
      std::vector<uint8_t> taken(list.size(), 0);
      // The widest aligned windows first: n elements, n * e bytes, T aligned to that.
      for (uint32_t bytes = kMaxAccessBytes; bytes >= 2 * e; bytes /= 2) {
        if (uint32_t(std::countr_zero(bytes)) > zerosOf[key]) continue;
        for (size_t i = 0; i < list.size(); ++i) {
          if (taken[i] || list[i].first % int64_t(bytes) != 0) continue;
          // list[i] starts a window: every element in it, once, none taken.
          std::vector<size_t> in = {i};
          for (size_t j = i + 1; j < list.size() && list[j].first < list[i].first + int64_t(bytes); ++j)
            if (!taken[j] && list[j].first == list[i].first + int64_t(in.size() * e)) in.push_back(j);
          if (in.size() * e != bytes) continue;
          Group g;
          for (size_t j : in)
            g.members.push_back(list[j].second);
          g.first = *std::min_element(g.members.begin(), g.members.end());
          g.last = *std::max_element(g.members.begin(), g.members.end());
          if (!undisturbed(g)) continue;
          groups_.push_back(std::move(g));
          if (!orderKept(groups_)) {
            groups_.pop_back();
            continue;
          }
          for (size_t j : in)
            taken[j] = 1;
        }
      }
    }
  }

  // Nothing between the group's first and last access makes other processes' or loops' accesses
  // (an inner loop, a call, a task operation, a task queue's port).
  bool undisturbed(const Group& g) const {
    for (ValueId v = g.first + 1; v < g.last; ++v) {
      const Op& op = loop_.ops[v];
      if (op.kind == OpKind::LoopCall || op.kind == OpKind::Call || op.kind == OpKind::TaskAsync ||
          op.kind == OpKind::TaskGet || op.kind == OpKind::TaskRelease)
        return false;
      if ((op.kind == OpKind::Load || op.kind == OpKind::Store) &&
          k_.memories.at(op.memory).kind == Memory::Kind::Queue)
        return false;
    }
    return true;
  }

  // Whether accesses x and y provably touch different bytes: addresses T + c of one T, apart.
  bool apart(ValueId x, ValueId y) const {
    const Op &ox = loop_.ops[x], &oy = loop_.ops[y];
    const Affine &ax = dec_.of(ox.operands[0]), &ay = dec_.of(oy.operands[0]);
    if (ax.key != ay.key || ax.width != ay.width) return false;
    const int64_t cx = signedC(ax), cy = signedC(ay);
    return cx + ox.size <= cy || cy + oy.size <= cx;
  }

  // With `groups` built (a load group's members read at its first, a store group's write at its
  // last), every two accesses to one memory that may touch the same bytes, one a store, keep their
  // order (an unrolled a[4i+k] += 1 reads all four elements, then writes them).
  bool orderKept(const std::vector<Group>& groups) const {
    std::vector<ValueId> at(loop_.ops.size());
    for (ValueId v = 0; v < at.size(); ++v)
      at[v] = v;
    for (const Group& g : groups)
      for (ValueId m : g.members)
        at[m] = loop_.ops[m].kind == OpKind::Load ? g.first : g.last;
    std::vector<ValueId> accesses;
    for (ValueId v = 0; v < loop_.ops.size(); ++v)
      if (loop_.ops[v].kind == OpKind::Load || loop_.ops[v].kind == OpKind::Store) accesses.push_back(v);
    for (size_t i = 0; i < accesses.size(); ++i)
      for (size_t j = i + 1; j < accesses.size(); ++j) {
        const ValueId x = accesses[i], y = accesses[j];
        const Op &ox = loop_.ops[x], &oy = loop_.ops[y];
        if (ox.memory != oy.memory || (ox.kind == OpKind::Load && oy.kind == OpKind::Load)) continue;
        if (at[x] > at[y] && !apart(x, y)) return false;
      }
    return true;
  }

  void rebuild() {
    std::vector<int> groupOf(loop_.ops.size(), -1);
    for (size_t i = 0; i < groups_.size(); ++i)
      for (ValueId m : groups_[i].members)
        groupOf[m] = int(i);
    std::vector<Op> ops = std::move(loop_.ops);
    std::vector<Op> out;
    out.reserve(ops.size() + 4 * groups_.size());
    Builder b(out, nullptr);
    std::vector<ValueId> map(ops.size(), kNone);
    auto mapped = [&](Op op) {
      for (ValueId& o : op.operands)
        if (o != kNone) o = map[o];
      return op;
    };
    for (ValueId v = 0; v < ops.size(); ++v) {
      const Op& op = ops[v];
      b.loc = op.loc;
      if (groupOf[v] < 0) {
        map[v] = b.emit(mapped(op));
        continue;
      }
      const Group& g = groups_[size_t(groupOf[v])];
      const uint32_t e = op.size, n = uint32_t(g.members.size());
      if (op.kind == OpKind::Load) {
        if (v != g.first) continue; // mapped when the first was built
        // The lowest address from the first load's own: its c minus the lowest's.
        const ValueId lowest = g.members[0];
        const uint64_t back = dec_.of(ops[lowest].operands[0]).c - dec_.of(op.operands[0]).c;
        ValueId addr = map[op.operands[0]];
        if (back & widthMask(ops[op.operands[0]].width()))
          addr = b.binary(OpKind::Add, addr, b.constant(ops[op.operands[0]].width(), back));
        Op wide = mapped(op);
        wide.operands[0] = addr;
        wide.size = static_cast<uint8_t>(e * n);
        wide.type = Type::bits(8 * e * n);
        wide.name.clear();
        const ValueId made = b.emit(std::move(wide));
        for (uint32_t j = 0; j < n; ++j) {
          const Op& member = ops[g.members[j]];
          Op part;
          part.kind = OpKind::Extract;
          part.type = member.type;
          part.imm = 8 * e * j;
          part.operands = {made};
          part.name = member.name;
          part.loc = member.loc;
          map[g.members[j]] = b.emit(std::move(part));
        }
        continue;
      }
      if (v != g.last) continue; // a store waits for the last of its group
      std::vector<ValueId> data;
      for (ValueId m : g.members)
        data.push_back(map[ops[m].operands[1]]);
      Op wide = mapped(ops[g.members[0]]);
      wide.operands[1] = b.concat(data);
      wide.size = static_cast<uint8_t>(e * n);
      map[v] = b.emit(std::move(wide));
    }
    auto remap = [&](ValueId& v) {
      if (v != kNone) v = map.at(v);
    };
    for (LoopPhi& p : loop_.phis)
      remap(p.next);
    remap(loop_.continueCond);
    for (ValueId& o : loop_.liveOuts)
      remap(o);
    loop_.ops = std::move(out);
  }
};

} // namespace

bool widenAccesses(Kernel& k) {
  if (k.volatileAccess) return false; // every access must reach the memory as written
  // Widening changes loop bodies only: the kernel's counts hold throughout.
  const std::vector<uint32_t> kernelZeros = LowZeros::ofKernel(k.ops);
  bool changed = false;
  for (uint32_t l = 0; l < k.loops.size(); ++l) {
    const auto [made, merged] = Widener(k, k.loops[l], LowZeros::ofCaller(k, l, kernelZeros)).run();
    k.datapath.wideAccesses += made;
    k.datapath.widenedAccesses += merged;
    changed = changed || made;
    if (made) takeLiveInsFromCalls(k, k.loops[l]); // an outer pipeline's inner loops: from its new body
  }
  return changed;
}

} // namespace spvhls::ir::lower
