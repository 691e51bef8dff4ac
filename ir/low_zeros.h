// How many low bits of each value of a loop body are known zero, by a fixed point through the phis
// (lower_subgroups.cpp: lane 0's address aligned to the lanes' width; lower_widen.cpp: the lowest of
// consecutive accesses aligned to their total width).
#pragma once

#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "ir/hls_ir.h"

namespace spvhls::ir::lower {

// How many low bits of a value are known zero, for each value of a loop body (a loop over work-items
// before its lanes are built: the Lane op is 0 in lane 0). What lets the lanes' accesses to
// consecutive addresses be one wide access: lane 0's address must be aligned to its width. Phis of
// the kernel and of the loop by a fixed point from "all bits zero" down (what stays true of every
// value around a cycle, such as a counter stepping by the lanes).
class LowZeros {
public:
  // The counts of the kernel's own values (what a loop's live-ins are), once for all its loops.
  static std::vector<uint32_t> ofKernel(const std::vector<Op>& kernelOps) {
    std::vector<uint32_t> z;
    fixpoint(kernelOps, z, [](const Op&) -> std::optional<uint32_t> { return std::nullopt; });
    return z;
  }
  // The counts of the values of loop l's caller: the kernel's (`kernelZeros`, ofKernel's), or those of
  // the outer pipeline whose body calls it (computed from the outermost down).
  static std::vector<uint32_t> ofCaller(const Kernel& k, uint32_t l,
                                        const std::vector<uint32_t>& kernelZeros) {
    const std::vector<int> callers = loopCallers(k.loops);
    std::vector<uint32_t> chain; // l's callers, innermost first
    for (int c = callers[l]; c >= 0 && chain.size() < k.loops.size() && c != int(l); c = callers[size_t(c)])
      chain.push_back(static_cast<uint32_t>(c));
    std::vector<uint32_t> z = kernelZeros;
    if (chain.size() == k.loops.size()) return z; // calls in a cycle (no valid IR): nothing known
    for (auto c = chain.rbegin(); c != chain.rend(); ++c)
      z = LowZeros(z, k.loops[*c]).all();
    return z;
  }
  // Loop `lp`'s body values, `kernelZeros` being ofKernel's (or its caller's all(), for an outer
  // pipeline's inner loop).
  LowZeros(const std::vector<uint32_t>& kernelZeros, const Loop& lp) {
    auto kernel = [&](uint32_t liveIn) {
      return liveIn < lp.liveIns.size() && lp.liveIns[liveIn] < kernelZeros.size()
                 ? kernelZeros[lp.liveIns[liveIn]]
                 : 0u;
    };
    fixpoint(lp.ops, tz_, [&](const Op& op) -> std::optional<uint32_t> {
      if (op.kind == OpKind::LiveIn) return kernel(op.index);
      if (op.kind != OpKind::LoopPhi) return std::nullopt;
      if (op.index >= lp.phis.size()) return 0u;
      const LoopPhi& phi = lp.phis[op.index];
      return std::min(kernel(phi.initLiveIn), phi.next < tz_.size() ? tz_[phi.next] : 0u);
    });
  }
  uint32_t operator[](ValueId v) const { return tz_.at(v); }
  // Every value's count: what an inner loop's live-ins are (LowZeros(outer.all(), inner)).
  const std::vector<uint32_t>& all() const { return tz_; }

private:
  std::vector<uint32_t> tz_;

  // Every value starts at its width and only falls (so this ends): the largest consistent counts.
  // `leaf` gives the loop's own leaves (live-ins, carried values) from the state so far.
  template <class Leaf>
  static void fixpoint(const std::vector<Op>& ops, std::vector<uint32_t>& z, Leaf leaf) {
    z.assign(ops.size(), 0);
    for (ValueId v = 0; v < ops.size(); ++v)
      z[v] = ops[v].type.isBits() && ops[v].width() <= 64 ? ops[v].width() : 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (ValueId v = 0; v < ops.size(); ++v) {
        const auto l = leaf(ops[v]);
        const uint32_t t = std::min(z[v], l ? *l : transfer(ops, v, [&](ValueId o) { return z[o]; }));
        changed = changed || t != z[v];
        z[v] = t;
      }
    }
  }

  template <class Tz> static uint32_t transfer(const std::vector<Op>& ops, ValueId v, Tz tz) {
    const Op& op = ops[v];
    const uint32_t w = op.width();
    if (w == 0 || w > 64 || !op.type.isBits()) return 0;
    auto at = [&](size_t i) {
      return i < op.operands.size() && op.operands[i] < ops.size() ? tz(op.operands[i]) : 0u;
    };
    auto width = [&](size_t i) { return ops[op.operands[i]].width(); };
    auto constant = [&](size_t i) -> std::optional<uint64_t> {
      if (i >= op.operands.size() || op.operands[i] >= ops.size()) return std::nullopt;
      const Op& c = ops[op.operands[i]];
      return c.kind == OpKind::Const && c.immHigh.empty() ? std::optional(c.imm) : std::nullopt;
    };
    switch (op.kind) {
    case OpKind::Const:
      return op.imm == 0 &&
                     std::all_of(op.immHigh.begin(), op.immHigh.end(), [](uint64_t x) { return x == 0; })
                 ? w
                 : std::min<uint32_t>(w, static_cast<uint32_t>(std::countr_zero(op.imm)));
    case OpKind::Lane:
      return w;
    case OpKind::Phi: {
      uint32_t t = w;
      for (size_t i = 0; i < op.operands.size(); ++i)
        t = std::min(t, at(i));
      return t;
    }
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Or:
    case OpKind::Xor:
      return std::min(at(0), at(1));
    case OpKind::Select:
      return std::min(at(1), at(2));
    case OpKind::And:
      return std::max(at(0), at(1));
    case OpKind::Neg:
      return at(0);
    case OpKind::Mul:
      return std::min(w, at(0) + at(1));
    case OpKind::Shl: {
      const auto c = constant(1);
      return c ? static_cast<uint32_t>(std::min<uint64_t>(w, at(0) + *c)) : at(0);
    }
    case OpKind::LShr:
    case OpKind::AShr: {
      const auto c = constant(1);
      return at(0) >= w ? w : c && at(0) > *c ? static_cast<uint32_t>(at(0) - *c) : 0;
    }
    case OpKind::UDiv: { // by a power of two: a shift (the datapath optimisations make it one later)
      const auto c = constant(1);
      if (!c || !std::has_single_bit(*c)) return 0;
      const uint32_t shift = static_cast<uint32_t>(std::countr_zero(*c));
      return at(0) >= w ? w : at(0) > shift ? at(0) - shift : 0;
    }
    case OpKind::ZExt:
    case OpKind::SExt:
      return at(0) >= width(0) ? w : at(0);
    case OpKind::Trunc:
      return std::min(w, at(0));
    case OpKind::Extract:
      return at(0) >= width(0) ? w
             : at(0) > op.imm  ? std::min<uint32_t>(w, static_cast<uint32_t>(at(0) - op.imm))
                               : 0;
    case OpKind::Concat: { // parts from the lowest
      uint32_t t = 0;
      for (size_t i = 0; i < op.operands.size(); ++i) {
        t += std::min(at(i), width(i));
        if (at(i) < width(i)) break;
      }
      return std::min(w, t);
    }
    default:
      return 0;
    }
  }
};

} // namespace spvhls::ir::lower
