// Subgroups in hardware: a subgroup's S work-items as S lanes side by side in one iteration of the loop
// over work-items (SIMD lanes).
//
// Translation reads the shuffles of SPV_INTEL_subgroups and the core group instructions at Subgroup
// scope as Sg* ops on one lane's values (Translator::translateSubgroup). The loop over work-items
// steps S work-items at a time (lower_ndrange.cpp; a Lane op is each lane's index). Once loops are
// extracted, the loop over work-items is one pipeline, the kernel's own loops inside it its
// sub-pipelines (extractOuterLoops), and buildLanes copies its body S times, and each inner loop's
// body too: what is the same in every lane (the counters, what follows from them alone, an access to
// an address the same in every lane) is built once, everything else once per lane, and each Sg op
// becomes logic across the lanes' copies: a multiplexer tree on the lane index for a shuffle (wires
// for a constant index), a chain in lane order for a reduction or scan (the interpreter's order,
// docs/interpreter.md). The lanes' loads or stores of consecutive elements, lane 0's address aligned
// to their total width, become one wide access (a block read or write, `a[get_global_id(0)]`).
//
// An inner loop the lanes may leave at different iterations (its exit condition differs between
// them), or that only some lanes run, gets a mask: each lane's "still running" is carried, its
// accesses and inner calls happen under it, the loop runs while some lane does, and each lane's
// results are held from the iteration it left in.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <optional>

#include "frontend/grammar.h"
#include "ir/lane_uniformity.h"
#include "ir/low_zeros.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace {

// What the lanes of every loop they run share (buildLanes).
struct LaneSetup {
  Kernel& k;
  uint32_t lanes = 1;
  std::vector<uint64_t> slice; // per memory: the bytes of a work-item's own copy (0: shared)
  // Per on-chip private array: lane j's own RAM (a bank: the lanes' accesses never share a port);
  // empty for the others (an external one: a slice per lane in one memory).
  std::vector<std::vector<uint32_t>> bank;
  // Per private array, the element size when lane j's element i is at (i * S + j) * size instead of
  // in lane j's slice (0: slices).
  std::vector<uint32_t> interleave;
  bool wideAccesses = true;           // the lanes' accesses to consecutive addresses may become one
  std::map<uint32_t, LowZeros> zeros; // per loop the lanes run, as it is before its lanes are built
  uint32_t joined = 0, perLane = 0;   // accesses made once for the lanes, and once per lane
  std::vector<LaneLogic> logic;       // what each shuffle, reduction and scan became
};

// The lanes' copies of one loop body, built in order: a loop over work-items (`top`: its live-ins are
// the kernel's, the same in every lane), or an inner loop it runs, given which of its live-ins are the
// same in every lane and whether its call's predicate is.
class LaneBuilder {
public:
  // `inStride`: per live-in, its stride from lane to lane when known (strideOf).
  LaneBuilder(LaneSetup& s, uint32_t loop, std::vector<uint8_t> liveIn,
              std::vector<std::optional<uint64_t>> inStride, bool predUniform, bool top)
      : s_(s), lp_(s.k.loops[loop]), zeros_(s.zeros.at(loop)), lanes_(s.lanes), b_(lp_.ops, nullptr),
        liveIn_(std::move(liveIn)), inStride_(std::move(inStride)), top_(top),
        u_(uniformity(s.k, lp_, liveIn_, predUniform, s.slice)), masked_(u_.masked) {}

  // The new live-ins, as the caller gives them: its old operand `index` in lane `lane`, lane `lane`'s
  // call predicate (a masked loop's start), or a zero of `type` (where a lane's result is held).
  struct Source {
    enum class Kind { Operand, Predicate, Zero } kind = Kind::Operand;
    uint32_t index = 0, lane = 0;
    Type type;
  };
  std::vector<Source> sources;
  std::vector<std::vector<uint32_t>> outIndex; // per old live-out: its new one, or one per lane

  void run() {
    old_ = std::move(lp_.ops);
    lp_.ops.clear();
    const std::vector<LoopPhi> oldPhis = std::move(lp_.phis);
    lp_.phis.clear();
    const std::vector<ValueId> oldLiveIns = lp_.liveIns;
    map_.assign(old_.size(), std::vector<ValueId>(lanes_, kNone));
    uniform_ = u_.value;
    carriedStrides(oldPhis);
    stride_.assign(old_.size(), std::nullopt);
    // Live-ins and carried values: one, or one per lane.
    std::vector<std::vector<uint32_t>> in(liveIn_.size()), phi(oldPhis.size());
    for (uint32_t i = 0; i < liveIn_.size(); ++i)
      for (uint32_t j = 0; j < (liveIn_[i] ? 1 : lanes_); ++j)
        in[i].push_back(source({Source::Kind::Operand, i, j, {}}));
    for (size_t p = 0; p < oldPhis.size(); ++p)
      for (uint32_t j = 0; j < (u_.phi[p] ? 1 : lanes_); ++j) {
        LoopPhi c = oldPhis[p];
        const auto& init = in.at(c.initLiveIn);
        c.initLiveIn = init[std::min<size_t>(j, init.size() - 1)];
        if (!u_.phi[p]) c.name += fmt::format(".lane{}", j);
        phi[p].push_back(carried(std::move(c)));
      }
    // A masked loop: whether each lane still runs, from its call's predicate on.
    for (uint32_t j = 0; masked_ && j < lanes_; ++j) {
      const uint32_t p = carried(LoopPhi{fmt::format("running.lane{}", j),
                                         source({Source::Kind::Predicate, 0, j, {}}), kNone, Type::bits(1)});
      running_.push_back(p);
      active_.push_back(phiOp(p, Type::bits(1)));
    }
    for (ValueId v = 0; v < old_.size(); ++v) {
      const Op& op = old_[v];
      b_.loc = op.loc;
      switch (op.kind) {
      case OpKind::LiveIn:
      case OpKind::LoopPhi: {
        const auto& to = op.kind == OpKind::LiveIn ? in.at(op.index) : phi.at(op.index);
        for (uint32_t j = 0; j < lanes_; ++j) {
          Op c = op;
          c.index = to[std::min<size_t>(j, to.size() - 1)];
          map_[v][j] = j < to.size() ? b_.emit(std::move(c)) : map_[v][0];
        }
        stride_[v] = to.size() == 1              ? std::optional<uint64_t>(0)
                     : op.kind == OpKind::LiveIn ? inStride_.at(op.index)
                                                 : phiStride_.at(op.index);
        continue;
      }
      case OpKind::LoopCall:
        call(v);
        continue;
      case OpKind::LoopOut:
        loopOut(v);
        continue;
      case OpKind::Lane:
        for (uint32_t j = 0; j < lanes_; ++j)
          map_[v][j] = b_.constant(32, j);
        stride_[v] = 1;
        continue;
      case OpKind::SgShuffle:
      case OpKind::SgShuffleDown:
      case OpKind::SgShuffleUp:
      case OpKind::SgShuffleXor:
        warnIfMasked(op);
        shuffle(v);
        continue;
      case OpKind::SgScan:
        warnIfMasked(op);
        scan(v);
        continue;
      default:
        break;
      }
      const bool access = op.kind == OpKind::Load || op.kind == OpKind::Store;
      if (masked_ && hasSideEffect(op.kind) && op.kind != OpKind::Store)
        throw DiagnosticError(op.loc, "subgroups",
                              fmt::format("{} in loop '{}', which a subgroup's lanes may leave at different "
                                          "iterations or run in some lanes only: not built yet",
                                          describe(op), lp_.name));
      // The same in every lane when its operands are (uniformity): a load or store of one address too
      // (lanes storing different values there would race, which OpenCL leaves undefined). Under a
      // mask, an access happens when some lane runs (share).
      // A private array is each work-item's own: every lane accesses its slice.
      const bool own = ownAccess(op, s_.slice);
      if (uniform_[v] && !(masked_ && access)) {
        stride_[v] = 0;
        const ValueId one = b_.emit(copy(op, 0));
        std::fill(map_[v].begin(), map_[v].end(), one);
        continue;
      }
      stride_[v] = uniform_[v] ? std::optional<uint64_t>(0) : strideOf(op);
      const uint64_t interleave = own ? s_.interleave[op.memory] : 0;
      if (access) {
        if (s_.wideAccesses && (interleave ? interleaved(v) : !own && (widen(v) || share(v)))) {
          ++s_.joined;
          continue;
        }
        ++s_.perLane;
      }
      for (uint32_t j = 0; j < lanes_; ++j) {
        Op c = copy(op, j);
        // A private array: in lane j's bank, at lane j's element i at i * S + j (interleaved), or in
        // lane j's slice.
        if (own && !s_.bank[op.memory].empty())
          c.memory = s_.bank[op.memory][j];
        else if (interleave)
          c.operands[0] =
              b_.binary(OpKind::Add, b_.mulConst(c.operands[0], lanes_), b_.constant(64, j * interleave));
        else if (own && j > 0)
          c.operands[0] = b_.binary(OpKind::Add, c.operands[0], b_.constant(64, j * s_.slice[op.memory]));
        map_[v][j] = b_.emit(std::move(c));
      }
    }
    finish(oldPhis, phi);
    lp_.laneMasked = masked_;
    if (top_) lp_.liveIns = oldLiveIns; // the kernel's values: all the same in every lane
  }

private:
  LaneSetup& s_;
  Loop& lp_;
  const LowZeros& zeros_;
  const uint32_t lanes_;
  Builder b_;
  const std::vector<uint8_t> liveIn_;
  const std::vector<std::optional<uint64_t>> inStride_;
  const bool top_;
  const Uniformity u_;
  const bool masked_;
  std::vector<Op> old_;
  std::vector<std::vector<ValueId>> map_; // per old op: its value in each lane
  std::vector<uint8_t> uniform_;          // the same in every lane (one copy)
  // Per old op, when known: lane j's value is lane 0's + j * stride, exactly, in the op's width.
  std::vector<std::optional<uint64_t>> stride_;
  // Per old carried value: lane j's is lane 0's + j * stride in every iteration (carriedStrides).
  std::vector<std::optional<uint64_t>> phiStride_;
  std::vector<uint32_t> running_; // a masked loop: per lane, its "still running" carried value
  std::vector<ValueId> active_;   // and that value in this iteration
  std::map<ValueId, std::vector<std::vector<uint32_t>>> callOuts_; // per old LoopCall: the callee's outIndex

  // The strides of the carried values that differ between lanes (a pointer walking a row, `p += n`,
  // from each lane's own start): a fixed point from "the start's stride" down, where a carried value
  // keeps its stride only while its next value has it too (then every iteration's does, by induction).
  void carriedStrides(const std::vector<LoopPhi>& phis) {
    phiStride_.assign(phis.size(), std::nullopt);
    for (size_t p = 0; p < phis.size(); ++p)
      phiStride_[p] = u_.phi[p] ? std::optional<uint64_t>(0) : inStride_.at(phis[p].initLiveIn);
    for (bool changed = true; changed;) {
      stride_.assign(old_.size(), std::nullopt);
      for (ValueId v = 0; v < old_.size(); ++v) {
        const Op& op = old_[v];
        stride_[v] = uniform_[v]                  ? std::optional<uint64_t>(0)
                     : op.kind == OpKind::LiveIn  ? inStride_.at(op.index)
                     : op.kind == OpKind::LoopPhi ? phiStride_.at(op.index)
                     : op.kind == OpKind::Lane    ? std::optional<uint64_t>(1)
                     : isLaneOp(op.kind) || op.kind == OpKind::LoopOut || op.kind == OpKind::LoopCall
                         ? std::nullopt
                         : strideOf(op);
      }
      changed = false;
      for (size_t p = 0; p < phis.size(); ++p)
        if (phiStride_[p] && (phis[p].next == kNone || stride_[phis[p].next] != phiStride_[p]))
          phiStride_[p] = std::nullopt, changed = true;
    }
  }

  uint32_t source(Source s) {
    sources.push_back(s);
    return static_cast<uint32_t>(sources.size() - 1);
  }
  uint32_t carried(LoopPhi p) {
    lp_.phis.push_back(std::move(p));
    return static_cast<uint32_t>(lp_.phis.size() - 1);
  }
  ValueId phiOp(uint32_t p, Type type) {
    Op op;
    op.kind = OpKind::LoopPhi;
    op.type = type;
    op.index = p;
    op.name = lp_.phis[p].name;
    return b_.emit(std::move(op));
  }

  // The carried values' next values, the exit condition and the live-outs.
  void finish(const std::vector<LoopPhi>& oldPhis, const std::vector<std::vector<uint32_t>>& phi) {
    auto shared = [&](ValueId v, const char* what) {
      if (v == kNone) return v;
      if (!uniform_[v])
        throw InternalError(lp_.loc, "loop " + lp_.name,
                            fmt::format("{} differs between a subgroup's lanes", what));
      return map_[v][0];
    };
    for (size_t p = 0; p < oldPhis.size(); ++p) {
      if (top_ && phi[p].size() > 1) shared(oldPhis[p].next, "a carried value");
      for (uint32_t j = 0; j < phi[p].size(); ++j)
        lp_.phis[phi[p][j]].next = oldPhis[p].next == kNone ? kNone : map_[oldPhis[p].next][j];
    }
    const ValueId cond = lp_.continueCond;
    std::vector<ValueId> outs = std::move(lp_.liveOuts);
    lp_.liveOuts.clear();
    outIndex.assign(outs.size(), {});
    auto out = [&](size_t o, ValueId v) {
      outIndex[o].push_back(static_cast<uint32_t>(lp_.liveOuts.size()));
      lp_.liveOuts.push_back(v);
    };
    if (!masked_) {
      lp_.continueCond = shared(cond, "the exit condition");
      for (size_t o = 0; o < outs.size(); ++o)
        if (top_ || uniform_[outs[o]])
          out(o, shared(outs[o], "a value read after the loop"));
        else
          for (uint32_t j = 0; j < lanes_; ++j)
            out(o, map_[outs[o]][j]);
      return;
    }
    // Masked: lane j runs on while it ran and its condition holds; the loop while some lane does. A
    // lane's results are those of the iteration it left in, held from then on.
    std::vector<ValueId> left(lanes_), stay(lanes_);
    for (uint32_t j = 0; j < lanes_; ++j) {
      stay[j] = b_.predAnd(active_[j], map_[cond][j]);
      lp_.phis[running_[j]].next = stay[j];
      left[j] = b_.predAnd(active_[j], b_.predNot(map_[cond][j]));
    }
    lp_.continueCond = anyOf(stay);
    for (size_t o = 0; o < outs.size(); ++o)
      for (uint32_t j = 0; j < lanes_; ++j) {
        const Type t = old_[outs[o]].type;
        const uint32_t p = carried(LoopPhi{fmt::format("{}.held.lane{}", lp_.name, j),
                                           source({Source::Kind::Zero, 0, j, t}), kNone, t});
        const ValueId held = b_.select(left[j], map_[outs[o]][j], phiOp(p, t));
        lp_.phis[p].next = held;
        out(o, held);
      }
  }

  // A subgroup operation in a masked loop combines the lanes' values of one iteration, those of lanes
  // that left included: right only where every lane reaches it together, as OpenCL requires (the
  // interpreter stops where they do not).
  void warnIfMasked(const Op& op) {
    if (!masked_) return;
    s_.k.diagnostics.push_back(Diagnostic{
        Diagnostic::Severity::Warning, op.loc, "subgroups",
        fmt::format(
            "{} in loop '{}', whose lanes may leave at different iterations or skip it: it combines the "
            "lanes' values of each iteration, those of lanes that left included; OpenCL requires every "
            "lane of the subgroup to reach it together",
            op.name.empty() ? opKindName(op.kind) : fmt::format("{} %{}", opKindName(op.kind), op.name),
            lp_.name)});
  }

  // Whether some of `preds` holds (none kNone), as a tree: a mask's depth grows with log2 S.
  ValueId anyOf(std::vector<ValueId> preds) {
    while (preds.size() > 1) {
      std::vector<ValueId> next;
      for (size_t i = 0; i + 1 < preds.size(); i += 2)
        next.push_back(b_.binary(OpKind::Or, preds[i], preds[i + 1]));
      if (preds.size() % 2) next.push_back(preds.back());
      preds = std::move(next);
    }
    return preds[0];
  }

  // Lane j's predicate of access or call `op` (kNone: always): its own, under the lane's mask.
  ValueId lanePred(const Op& op, uint32_t j) {
    const ValueId p = op.kind == OpKind::LoopCall ? op.operands.back() : predicateOf(op);
    return b_.predAnd(p == kNone ? kNone : map_[p][j], masked_ ? active_[j] : kNone);
  }

  // A LoopCall: the inner loop's lanes, then one call giving each its live-ins.
  void call(ValueId v) {
    const Op& op = old_[v];
    std::vector<uint8_t> in;
    std::vector<std::optional<uint64_t>> inStride;
    for (size_t i = 0; i + 1 < op.operands.size(); ++i) {
      in.push_back(uniform_[op.operands[i]]);
      inStride.push_back(stride_[op.operands[i]]);
    }
    const ValueId pred = op.operands.back();
    const bool predUniform = !masked_ && (pred == kNone || uniform_[pred]);
    LaneBuilder inner(s_, op.index, std::move(in), std::move(inStride), predUniform, false);
    inner.run();
    std::vector<ValueId> preds;
    for (uint32_t j = 0; j < lanes_; ++j)
      preds.push_back(lanePred(op, j));
    Op c = op;
    c.operands.clear();
    for (const Source& src : inner.sources)
      switch (src.kind) {
      case Source::Kind::Operand:
        c.operands.push_back(map_[op.operands[src.index]][src.lane]);
        break;
      case Source::Kind::Predicate:
        c.operands.push_back(preds[src.lane] == kNone ? b_.constant(1, 1) : preds[src.lane]);
        break;
      case Source::Kind::Zero: {
        Op zero;
        zero.kind = OpKind::Const;
        zero.type = src.type;
        zero.immHigh.assign((src.type.width() + 63) / 64 - 1, 0); // the words above 64 bits
        c.operands.push_back(b_.emit(std::move(zero)));
        break;
      }
      }
    s_.k.loops[op.index].liveIns = c.operands;
    if (predUniform) preds.resize(1);
    const bool always = std::find(preds.begin(), preds.end(), kNone) != preds.end();
    c.operands.push_back(pred == kNone && predUniform ? kNone : always ? b_.constant(1, 1) : anyOf(preds));
    const ValueId made = b_.emit(std::move(c));
    std::fill(map_[v].begin(), map_[v].end(), made);
    callOuts_[v] = std::move(inner.outIndex);
  }

  void loopOut(ValueId v) {
    const Op& op = old_[v];
    const auto& to = callOuts_.at(op.operands[0]).at(op.index);
    for (uint32_t j = 0; j < lanes_; ++j) {
      Op c = op;
      c.operands[0] = map_[op.operands[0]][0];
      c.index = to[std::min<size_t>(j, to.size() - 1)];
      map_[v][j] = j < to.size() ? b_.emit(std::move(c)) : map_[v][0];
    }
    uniform_[v] = to.size() == 1;
    stride_[v] = to.size() == 1 ? std::optional<uint64_t>(0) : std::nullopt;
  }

  std::optional<uint64_t> strideOf(const Op& op) const {
    const uint32_t w = op.width();
    if (w == 0 || w > 64 || !op.type.isBits()) return std::nullopt;
    const uint64_t mask = widthMask(w);
    auto s = [&](size_t i) {
      return i < op.operands.size() && op.operands[i] != kNone ? stride_[op.operands[i]] : std::nullopt;
    };
    auto c = [&](size_t i) -> std::optional<uint64_t> {
      return s(i) == 0u ? constant(op.operands[i]) : std::nullopt;
    };
    // An extension keeps the stride when no lane's value wraps or crosses the sign boundary: lane 0's
    // value is a multiple of 2^z, so lanes below S stay under the next multiple when S * stride <= 2^z
    // (z at most width - 1: the sign boundary is such a multiple).
    auto extended = [&](ValueId from) -> std::optional<uint64_t> {
      const auto st = stride_[from];
      if (!st) return std::nullopt;
      const uint32_t z = std::min(zeros_[from], old_[from].width() - 1);
      if (static_cast<unsigned __int128>(*st) * lanes_ > (static_cast<unsigned __int128>(1) << z))
        return std::nullopt;
      return st;
    };
    // Equal operands in every lane: equal results.
    if (!op.operands.empty() && !hasSideEffect(op.kind) && op.kind != OpKind::Load &&
        std::all_of(op.operands.begin(), op.operands.end(),
                    [&](ValueId o) { return o != kNone && stride_[o] == 0u; }))
      return 0;
    switch (op.kind) {
    case OpKind::Lane:
      return 1;
    case OpKind::Add:
      if (s(0) && s(1)) return (*s(0) + *s(1)) & mask;
      break;
    case OpKind::Sub:
      if (s(0) && s(1)) return (*s(0) - *s(1)) & mask;
      break;
    case OpKind::Neg:
      if (s(0)) return (0 - *s(0)) & mask;
      break;
    case OpKind::Mul:
      if (s(0) && c(1)) return (*s(0) * *c(1)) & mask;
      if (s(1) && c(0)) return (*s(1) * *c(0)) & mask;
      break;
    case OpKind::Shl:
      if (s(0) && c(1)) return *c(1) >= w ? 0 : (*s(0) << *c(1)) & mask;
      break;
    case OpKind::ZExt:
    case OpKind::SExt:
      return extended(op.operands[0]);
    case OpKind::Trunc:
      if (s(0)) return *s(0) & mask;
      break;
    case OpKind::Extract:
      if (op.imm == 0 && s(0)) return *s(0) & mask;
      break;
    case OpKind::Concat: // x << n as {zeros, x}; an extension as {x, zeros}
      if (op.operands.size() == 2 && c(0) == 0u && s(1))
        return (*s(1) << old_[op.operands[0]].width()) & mask;
      if (op.operands.size() == 2 && c(1) == 0u) return extended(op.operands[0]);
      break;
    case OpKind::Select: // a condition the same in every lane, both sides with one stride
      if (s(0) == 0u && s(1) && s(1) == s(2)) return s(1);
      break;
    default:
      break;
    }
    return std::nullopt;
  }

  // The lanes' copies of a load or store whose address steps by its size from lane to lane, and whose
  // predicate is the same in every lane, as accesses of up to kMaxAccessBytes (chunks of consecutive
  // lanes) when lane 0's address is aligned to that width: one request where there were S.
  bool widen(ValueId v) {
    const Op& op = old_[v];
    const ValueId offset = op.operands[0];
    const uint32_t size = op.size, chunk = std::min(size * lanes_, kMaxAccessBytes);
    if (!std::has_single_bit(size) || stride_[offset] != size || !uniformPredicate(op) ||
        zeros_[offset] < static_cast<uint32_t>(std::countr_zero(chunk)))
      return false;
    // Lane `first`'s address is lane 0's + first * size: aligned to the chunk as well.
    emitChunks(v, [&](uint32_t first) { return map_[offset][first]; });
    return true;
  }

  // An access to an interleaved private array at an element index the same in every lane, under one
  // predicate: the lanes' elements are consecutive, lane 0's at the index times S, so aligned to the
  // S elements' width (the index is a multiple of the element size, interleaving's condition).
  bool interleaved(ValueId v) {
    const Op& op = old_[v];
    if (!uniform_[op.operands[0]] || !uniformPredicate(op)) return false;
    const ValueId base = b_.mulConst(map_[op.operands[0]][0], lanes_);
    emitChunks(v, [&](uint32_t first) {
      return first == 0 ? base : b_.binary(OpKind::Add, base, b_.constant(64, uint64_t(first) * op.size));
    });
    return true;
  }

  // A load's or store's predicate operand (kNone: always).
  static ValueId predicateOf(const Op& op) {
    const size_t p = op.kind == OpKind::Load ? 1 : 2;
    return p < op.operands.size() ? op.operands[p] : kNone;
  }
  // The same in every lane: a masked loop's lanes run apart.
  bool uniformPredicate(const Op& op) const {
    return !masked_ && (predicateOf(op) == kNone || uniform_[predicateOf(op)]);
  }

  // Load or store `v` of consecutive lanes as accesses of up to kMaxAccessBytes, the one for lanes
  // from `first` on at address(first): a load's lanes are bit ranges of it, a store's data theirs.
  template <class Address> void emitChunks(ValueId v, Address address) {
    const Op& op = old_[v];
    const bool load = op.kind == OpKind::Load;
    const uint32_t size = op.size, chunk = std::min(size * lanes_, kMaxAccessBytes), per = chunk / size;
    for (uint32_t first = 0; first < lanes_; first += per) {
      Op wide = copy(op, first);
      wide.operands[0] = address(first);
      wide.size = static_cast<uint8_t>(chunk);
      if (load) {
        wide.type = Type::bits(8 * chunk);
      } else {
        std::vector<ValueId> data;
        for (uint32_t j = first; j < first + per; ++j)
          data.push_back(map_[op.operands[1]][j]);
        wide.operands[1] = b_.concat(data);
      }
      const ValueId made = b_.emit(std::move(wide));
      for (uint32_t j = first; j < first + per; ++j)
        map_[v][j] = load ? b_.extract(made, 8 * size * (j - first), 8 * size) : made;
    }
  }

  // A load or store of one address in every lane under predicates that differ (`if (lane == 0)
  // p[k] = x`): one access under "some lane's predicate". A store writes the last such lane's data
  // (what the lanes' stores in lane order leave there); a load's value is every lane's.
  bool share(ValueId v) {
    const Op& op = old_[v];
    const bool load = op.kind == OpKind::Load;
    if ((predicateOf(op) == kNone && !masked_) || !uniform_[op.operands[0]]) return false;
    Op one = copy(op, 0);
    std::vector<ValueId> preds{predicateOf(one)};
    ValueId data = load ? kNone : map_[op.operands[1]][0];
    for (uint32_t j = 1; j < lanes_; ++j) {
      preds.push_back(lanePred(op, j));
      if (!load) data = b_.select(preds.back(), map_[op.operands[1]][j], data);
    }
    one.operands[load ? 1 : 2] = anyOf(preds);
    if (!load) one.operands[1] = data;
    const ValueId made = b_.emit(std::move(one));
    std::fill(map_[v].begin(), map_[v].end(), made);
    return true;
  }

  static std::string describe(const Op& op) {
    std::string d =
        op.name.empty() ? opKindName(op.kind) : fmt::format("{} %{}", opKindName(op.kind), op.name);
    return op.loc.known ? d + " at " + op.loc.str() : d;
  }

  // Lane `lane`'s copy of `op`: its operands in that lane, an access under the lane's mask.
  Op copy(Op op, uint32_t lane) {
    const bool masked = masked_ && (op.kind == OpKind::Load || op.kind == OpKind::Store);
    const ValueId pred = masked ? lanePred(op, lane) : kNone;
    for (ValueId& o : op.operands)
      if (o != kNone) o = map_[o][lane];
    if (masked) op.operands[op.kind == OpKind::Load ? 1 : 2] = pred;
    return op;
  }
  // An old value's constant: its own, or its lane 0 copy's once built (carriedStrides runs before).
  // The same constant in every lane only: the lane index itself is a constant in each lane's copy, a
  // different one (lane 0's alone would make a shuffle by the lane index read lane 0 in every lane).
  std::optional<uint64_t> constant(ValueId oldOperand) const {
    const Op& c = old_[oldOperand];
    if (c.kind == OpKind::Const && c.immHigh.empty()) return c.imm;
    const auto lane0 = map_[oldOperand][0] == kNone ? std::nullopt : b_.constValue(map_[oldOperand][0]);
    for (uint32_t j = 1; lane0 && j < lanes_; ++j)
      if (b_.constValue(map_[oldOperand][j]) != lane0) return std::nullopt;
    return lane0;
  }

  // values[index], index's low log2(values.size()) bits choosing (a tree of multiplexers).
  ValueId pick(std::vector<ValueId> values, ValueId index) {
    for (uint32_t bit = 0; values.size() > 1; ++bit) {
      const ValueId sel = b_.extract(index, bit, 1);
      std::vector<ValueId> next;
      for (size_t i = 0; i + 1 < values.size(); i += 2)
        next.push_back(values[i] == values[i + 1] ? values[i] : b_.select(sel, values[i + 1], values[i]));
      values = std::move(next);
    }
    return values[0];
  }

  void shuffle(ValueId v) {
    const Op& op = old_[v];
    const uint32_t s = lanes_;
    std::vector<ValueId> from; // the values lanes may read, in index order
    for (uint32_t j = 0; j < s; ++j)
      from.push_back(map_[op.operands[0]][j]);
    if (op.kind == OpKind::SgShuffleDown || op.kind == OpKind::SgShuffleUp)
      for (uint32_t j = 0; j < s; ++j)
        from.push_back(map_[op.operands[1]][j]);
    const ValueId amount = op.operands.back();
    const auto known = constant(amount);
    const uint64_t n = from.size();
    s_.logic.push_back(LaneLogic{describe(op), op.width(), static_cast<uint32_t>(n), known.has_value(), ""});
    for (uint32_t j = 0; j < s; ++j) {
      // The index into `from`: a shuffle's lane; Down: lane + delta over current then next; Up: lane -
      // delta over previous then current (so lane + S - delta); Xor: lane ^ value. Out of range is
      // undefined (the interpreter reports it); the hardware takes the index modulo `from`'s size.
      ValueId index = kNone;
      if (known) {
        const uint64_t c = *known;
        const uint64_t i = op.kind == OpKind::SgShuffle       ? c
                           : op.kind == OpKind::SgShuffleDown ? j + c
                           : op.kind == OpKind::SgShuffleUp   ? j + s - c
                                                              : (j ^ c);
        map_[v][j] = from[i % n];
        continue;
      }
      const ValueId d = map_[amount][j];
      const ValueId lane = b_.constant(32, j);
      index = op.kind == OpKind::SgShuffle       ? d
              : op.kind == OpKind::SgShuffleDown ? b_.binary(OpKind::Add, lane, d)
              : op.kind == OpKind::SgShuffleUp   ? b_.binary(OpKind::Sub, b_.constant(32, j + s), d)
                                                 : b_.binary(OpKind::Xor, lane, d);
      map_[v][j] = pick(from, index);
    }
  }

  ValueId combine(SgCombine c, ValueId a, ValueId x) { return combineValues(b_, c, a, x); }
  uint64_t identity(SgCombine c, uint32_t w) const { return combineIdentity(c, w); }

  // In lane order from lane 0, as the interpreter combines them.
  void scan(ValueId v) {
    const Op& op = old_[v];
    const SgCombine c = static_cast<SgCombine>(op.index);
    static constexpr const char* kCombine[] = {"add",  "mul",  "and",  "or",   "xor",  "smin", "umin",
                                               "smax", "umax", "fadd", "fmul", "fmin", "fmax"};
    static constexpr const char* kMode[] = {"reduce", "inclusive scan", "exclusive scan"};
    s_.logic.push_back(LaneLogic{describe(op), op.width(), lanes_, false,
                                 fmt::format("{} {}", kMode[std::min<uint64_t>(op.imm, 2)],
                                             kCombine[std::min<uint32_t>(op.index, 12)])});
    std::vector<ValueId> acc(lanes_);
    acc[0] = map_[op.operands[0]][0];
    for (uint32_t j = 1; j < lanes_; ++j)
      acc[j] = combine(c, acc[j - 1], map_[op.operands[0]][j]);
    for (uint32_t j = 0; j < lanes_; ++j)
      map_[v][j] = op.imm == 0   ? acc[lanes_ - 1]
                   : op.imm == 1 ? acc[j]
                   : j == 0      ? b_.constant(op.width(), identity(c, op.width()))
                                 : acc[j - 1];
  }
};

} // namespace

// The one size of every access to private array m, when each is at a multiple of it (and all are in
// the loops the lanes run, `zeros`' keys); 0 otherwise.
uint32_t elementSize(const Kernel& k, const std::map<uint32_t, LowZeros>& zeros, uint32_t m) {
  auto accesses = [&](const Op& op) {
    return (op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory == m;
  };
  if (std::any_of(k.ops.begin(), k.ops.end(), accesses)) return 0;
  uint32_t e = 0;
  for (uint32_t l = 0; l < k.loops.size(); ++l) {
    const Loop& lp = k.loops[l];
    const auto z = zeros.find(l);
    if (z == zeros.end()) {
      if (std::any_of(lp.ops.begin(), lp.ops.end(), accesses)) return 0;
      continue;
    }
    for (ValueId v = 0; v < lp.ops.size(); ++v) {
      const Op& op = lp.ops[v];
      if (!accesses(op)) continue;
      e = e ? e : op.size;
      if (op.size != e || !std::has_single_bit(e) ||
          z->second[op.operands[0]] < static_cast<uint32_t>(std::countr_zero(e)))
        return 0;
    }
  }
  return e && k.memories[m].sizeBytes % e == 0 ? e : 0;
}

bool hasSubgroups(const Kernel& k) {
  return std::any_of(k.ops.begin(), k.ops.end(), [](const Op& op) {
    return isLaneOp(op.kind) || (op.kind == OpKind::WorkItem && isSubgroupBuiltin(op.index));
  });
}

std::vector<std::string> workItemLoops(const Kernel& k) {
  // One, or one per stretch between barriers (lower_barriers.cpp).
  return k.barrierLoops.empty() ? std::vector<std::string>{k.workItemLoop} : k.barrierLoops;
}

void buildLanes(Kernel& k) {
  const std::vector<std::string> targets = workItemLoops(k);
  std::vector<uint32_t> at;
  for (uint32_t l = 0; l < k.loops.size(); ++l)
    if (std::find(targets.begin(), targets.end(), k.loops[l].name) != targets.end()) at.push_back(l);
  if (at.size() != targets.size()) {
    // A loop over work-items left in the kernel's FSM: why it is no pipeline.
    std::string why = "it is not pipelined";
    for (const BasicBlock& bb : k.blocks)
      if (std::find(targets.begin(), targets.end(), bb.name) != targets.end() &&
          !bb.notPipelinedReason.empty())
        why = bb.notPipelinedReason;
    throw DiagnosticError(
        k.loc, "subgroups",
        fmt::format("a kernel that uses subgroups is built as one pipeline over its work-items, a "
                    "subgroup's lanes side by side and the kernel's own loops sub-pipelines of it; its "
                    "loop over work-items is not built that way ({}): not yet",
                    why));
  }
  // The loops the lanes run: the loops over work-items and the loops they call, with the low zero bits
  // of their values (an inner loop's live-ins are its caller's values).
  const std::vector<uint32_t> kernelZeros = LowZeros::ofKernel(k.ops);
  std::map<uint32_t, LowZeros> zeros;
  std::vector<uint32_t> work = at;
  for (uint32_t l : at)
    zeros.emplace(l, LowZeros(kernelZeros, k.loops[l]));
  while (!work.empty()) {
    const uint32_t l = work.back();
    work.pop_back();
    for (const Op& op : k.loops[l].ops)
      if (op.kind == OpKind::LoopCall && !zeros.count(op.index)) {
        zeros.emplace(op.index, LowZeros(zeros.at(l).all(), k.loops[op.index]));
        work.push_back(op.index);
      }
  }
  for (uint32_t l = 0; l < k.loops.size(); ++l)
    for (const Op& op : k.loops[l].ops)
      if (isLaneOp(op.kind) && !zeros.count(l))
        throw InternalError(op.loc, "subgroups", "a subgroup operation outside the loops over work-items");
  // Private arrays (one per work-item in the source, one RAM shared by the work-items in flight):
  // lowering puts none anywhere but in the loops the lanes run. An on-chip one becomes a RAM per lane
  // (lane 0's is the array's own, the others copies named <name>.lane<j>), so that the lanes' accesses,
  // whatever their indices, each have a RAM of their own. An external one (past the on-chip budget, one
  // memory port) gets a slice per lane; where every access is of one element size at a multiple of it,
  // the lanes' arrays are interleaved instead (lane j's element i at (i * S + j) * size): the lanes'
  // accesses to one index are then consecutive, one wide access (LaneBuilder::interleaved).
  // A volatile access stays as written: one per work-item.
  const size_t memories = k.memories.size();
  LaneSetup s{k,
              k.subgroupLanes,
              std::vector<uint64_t>(memories, 0),
              std::vector<std::vector<uint32_t>>(memories),
              std::vector<uint32_t>(memories, 0),
              !k.volatileAccess,
              std::move(zeros),
              0,
              0,
              {}};
  const uint32_t lanes = s.lanes;
  for (uint32_t m = 0; m < memories; ++m) {
    const Memory& array = k.memories[m];
    const bool privateArray = array.kind == Memory::Kind::Private ||
                              (array.kind == Memory::Kind::External && !array.persistent && !array.spirvVar);
    if (!privateArray || array.perWorkItem || lanes < 2) continue;
    s.slice[m] = array.sizeBytes;
    if (array.kind == Memory::Kind::Private) {
      s.bank[m].push_back(m);
      for (uint32_t j = 1; j < lanes; ++j) {
        Memory copy = k.memories[m];
        copy.name = fmt::format("{}.lane{}", copy.name, j);
        s.bank[m].push_back(static_cast<uint32_t>(k.memories.size()));
        k.memories.push_back(std::move(copy));
      }
      continue;
    }
    Memory& mem = k.memories[m];
    s.interleave[m] = elementSize(k, s.zeros, m);
    const uint32_t e = s.interleave[m];
    std::vector<uint8_t> init(mem.init.empty() ? 0 : mem.sizeBytes * lanes);
    for (uint64_t i = 0; i < mem.init.size(); ++i)
      for (uint32_t j = 0; j < lanes; ++j)
        init[e ? (i / e * lanes + j) * e + i % e : j * mem.sizeBytes + i] = mem.init[i];
    mem.init = std::move(init);
    mem.sizeBytes *= lanes;
  }
  for (uint32_t l : at) {
    const size_t n = k.loops[l].liveIns.size();
    LaneBuilder builder(s, l, std::vector<uint8_t>(n, 1), std::vector<std::optional<uint64_t>>(n, 0), true,
                        true);
    builder.run();
  }
  k.laneAccessesJoined += s.joined;
  k.laneAccessesPerLane += s.perLane;
  k.laneLogic.insert(k.laneLogic.end(), s.logic.begin(), s.logic.end());
}

} // namespace spvhls::ir::lower
