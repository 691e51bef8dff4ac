// Subgroups in hardware: a subgroup's S work-items as S lanes side by side in one iteration of the loop
// over work-items (SIMD lanes).
//
// Translation reads the shuffles of SPV_INTEL_subgroups and the core group instructions at Subgroup
// scope as Sg* ops on one lane's values (Translator::translateSubgroup). The loop over work-items
// steps S work-items at a time (lower_ndrange.cpp; a Lane op is each lane's index), and once that loop
// is extracted, buildLanes copies its body S times: what is the same in every lane (the counters, what
// follows from them alone, an access to an address the same in every lane) is built once, everything
// else once per lane, and each Sg
// op becomes logic across the lanes' copies: a multiplexer tree on the lane index for a shuffle (wires
// for a constant index), a chain in lane order for a reduction or scan (the interpreter's order,
// docs/interpreter.md). The lanes' loads or stores of consecutive elements, lane 0's address aligned
// to their total width, become one wide access (a block read or write, `a[get_global_id(0)]`).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>

#include "frontend/grammar.h"
#include "ir/low_zeros.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace {

bool isLaneOp(OpKind k) {
  return k == OpKind::Lane || k == OpKind::SgShuffle || k == OpKind::SgShuffleDown ||
         k == OpKind::SgShuffleUp || k == OpKind::SgShuffleXor || k == OpKind::SgScan;
}

// The lanes' copies of one loop body, built in order.
class LaneBuilder {
public:
  // `slice`: per memory, the bytes of each work-item's own copy (a private array: one slice per lane),
  // 0 for memories the work-items share. `wideAccesses`: whether the lanes' accesses to consecutive
  // addresses may become one wide access.
  // `interleave`: per private array, the element size when lane j's element i is at (i * S + j) *
  // size instead (0: slices).
  // `zeros`: LowZeros of the loop's body as it is before run().
  LaneBuilder(Loop& lp, const LowZeros& zeros, uint32_t lanes, std::vector<uint64_t> slice,
              std::vector<uint32_t> interleave, bool wideAccesses)
      : lp_(lp), zeros_(zeros), lanes_(lanes), b_(lp.ops, nullptr), slice_(std::move(slice)),
        interleave_(std::move(interleave)), wideAccesses_(wideAccesses) {}

  uint32_t joined = 0, perLane = 0; // accesses made once for the lanes, and once per lane
  std::vector<LaneLogic> logic;     // what each shuffle, reduction and scan became

  void run() {
    old_ = std::move(lp_.ops);
    lp_.ops.clear();
    map_.assign(old_.size(), std::vector<ValueId>(lanes_, kNone));
    uniform_.assign(old_.size(), 0);
    stride_.assign(old_.size(), std::nullopt);
    for (ValueId v = 0; v < old_.size(); ++v) {
      const Op& op = old_[v];
      b_.loc = op.loc;
      switch (op.kind) {
      case OpKind::Lane:
        for (uint32_t j = 0; j < lanes_; ++j)
          map_[v][j] = b_.constant(32, j);
        stride_[v] = 1;
        continue;
      case OpKind::SgShuffle:
      case OpKind::SgShuffleDown:
      case OpKind::SgShuffleUp:
      case OpKind::SgShuffleXor:
        shuffle(v);
        continue;
      case OpKind::SgScan:
        scan(v);
        continue;
      default:
        break;
      }
      // The same in every lane when its operands are: a load or store of one address too (lanes storing
      // different values there would race, which OpenCL leaves undefined).
      // A private array is each work-item's own: every lane accesses its slice.
      const bool own = (op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory < slice_.size() &&
                       slice_[op.memory] > 0;
      bool uniform = (op.kind == OpKind::Store || !hasSideEffect(op.kind)) && !own;
      for (ValueId o : op.operands)
        uniform = uniform && (o == kNone || uniform_[o]);
      if (uniform) {
        uniform_[v] = 1;
        stride_[v] = 0;
        const ValueId one = b_.emit(copy(op, 0));
        std::fill(map_[v].begin(), map_[v].end(), one);
        continue;
      }
      stride_[v] = strideOf(op);
      const uint64_t interleave = own ? interleave_[op.memory] : 0;
      if (op.kind == OpKind::Load || op.kind == OpKind::Store) {
        if (wideAccesses_ && (interleave ? interleaved(v) : !own && (widen(v) || share(v)))) {
          ++joined;
          continue;
        }
        ++perLane;
      }
      for (uint32_t j = 0; j < lanes_; ++j) {
        Op c = copy(op, j);
        // A private array: lane j's element i at i * S + j (interleaved), or in lane j's slice.
        if (interleave)
          c.operands[0] =
              b_.binary(OpKind::Add, b_.mulConst(c.operands[0], lanes_), b_.constant(64, j * interleave));
        else if (own && j > 0)
          c.operands[0] = b_.binary(OpKind::Add, c.operands[0], b_.constant(64, j * slice_[op.memory]));
        map_[v][j] = b_.emit(std::move(c));
      }
    }
    auto shared = [&](ValueId v, const char* what) {
      if (v == kNone) return v;
      if (!uniform_[v])
        throw InternalError(lp_.loc, "loop " + lp_.name,
                            fmt::format("{} differs between a subgroup's lanes", what));
      return map_[v][0];
    };
    for (LoopPhi& phi : lp_.phis)
      phi.next = shared(phi.next, "a carried value");
    lp_.continueCond = shared(lp_.continueCond, "the exit condition");
    for (ValueId& o : lp_.liveOuts)
      o = shared(o, "a value read after the loop");
  }

private:
  Loop& lp_;
  const LowZeros& zeros_;
  const uint32_t lanes_;
  Builder b_;
  std::vector<uint64_t> slice_;
  std::vector<uint32_t> interleave_;
  const bool wideAccesses_;
  std::vector<Op> old_;
  std::vector<std::vector<ValueId>> map_; // per old op: its value in each lane
  std::vector<uint8_t> uniform_;          // the same in every lane (one copy)
  // Per old op, when known: lane j's value is lane 0's + j * stride, exactly, in the op's width.
  std::vector<std::optional<uint64_t>> stride_;

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
  bool uniformPredicate(const Op& op) const { return predicateOf(op) == kNone || uniform_[predicateOf(op)]; }

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
    const ValueId pred = predicateOf(op);
    if (pred == kNone || !uniform_[op.operands[0]]) return false;
    Op one = copy(op, 0);
    ValueId any = map_[pred][0], data = load ? kNone : map_[op.operands[1]][0];
    for (uint32_t j = 1; j < lanes_; ++j) {
      any = b_.binary(OpKind::Or, any, map_[pred][j]);
      if (!load) data = b_.select(map_[pred][j], map_[op.operands[1]][j], data);
    }
    one.operands[load ? 1 : 2] = any;
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

  Op copy(Op op, uint32_t lane) const {
    for (ValueId& o : op.operands)
      if (o != kNone) o = map_[o][lane];
    return op;
  }
  std::optional<uint64_t> constant(ValueId oldOperand) const { return b_.constValue(map_[oldOperand][0]); }

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
    logic.push_back(LaneLogic{describe(op), op.width(), static_cast<uint32_t>(n), known.has_value(), ""});
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
    logic.push_back(LaneLogic{describe(op), op.width(), lanes_, false,
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
// the loops over work-items, `at`); 0 otherwise.
uint32_t elementSize(const Kernel& k, const std::vector<size_t>& at, const std::vector<LowZeros>& zeros,
                     uint32_t m) {
  auto accesses = [&](const Op& op) {
    return (op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory == m;
  };
  if (std::any_of(k.ops.begin(), k.ops.end(), accesses)) return 0;
  uint32_t e = 0;
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const Loop& lp = k.loops[l];
    const auto target = std::find(at.begin(), at.end(), l);
    if (target == at.end()) {
      if (std::any_of(lp.ops.begin(), lp.ops.end(), accesses)) return 0;
      continue;
    }
    const LowZeros& z = zeros[target - at.begin()];
    for (ValueId v = 0; v < lp.ops.size(); ++v) {
      const Op& op = lp.ops[v];
      if (!accesses(op)) continue;
      e = e ? e : op.size;
      if (op.size != e || !std::has_single_bit(e) ||
          z[op.operands[0]] < static_cast<uint32_t>(std::countr_zero(e)))
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

void buildLanes(Kernel& k) {
  // The loops over work-items: one, or one per stretch between barriers (lower_barriers.cpp).
  const std::vector<std::string> targets =
      k.barrierLoops.empty() ? std::vector<std::string>{k.workItemLoop} : k.barrierLoops;
  auto isTarget = [&](const std::string& name) {
    return std::find(targets.begin(), targets.end(), name) != targets.end();
  };
  std::vector<size_t> at;
  for (size_t l = 0; l < k.loops.size(); ++l)
    if (isTarget(k.loops[l].name)) at.push_back(l);
  auto where = [&]() -> std::optional<SourceLoc> {
    for (const Op& op : k.ops)
      if (isLaneOp(op.kind)) return op.loc;
    for (size_t l = 0; l < k.loops.size(); ++l)
      if (!isTarget(k.loops[l].name))
        for (const Op& op : k.loops[l].ops)
          if (isLaneOp(op.kind)) return op.loc;
    return std::nullopt;
  };
  if (at.size() != targets.size() || where()) {
    std::string inner;
    for (const Loop& lp : k.loops)
      if (!isTarget(lp.name)) inner = lp.name;
    for (const BasicBlock& bb : k.blocks)
      if (!bb.notPipelinedReason.empty() && !isTarget(bb.name) && bb.name != k.workItemLoop &&
          bb.name.rfind("stretch", 0) != 0)
        inner = bb.name;
    throw DiagnosticError(
        where().value_or(k.loc), "subgroups",
        fmt::format("a kernel that uses subgroups is built only when its body has no loop of its "
                    "own (the loop over work-items is then one pipeline, a subgroup's lanes side "
                    "by side){}; not yet otherwise",
                    inner.empty() ? "" : fmt::format(": it has loop '{}'", inner)));
  }
  // Private arrays (one per work-item in the source, one RAM shared by the work-items in flight)
  // get a slice per lane; lowering puts no private array anywhere but in the loop over work-items.
  // Where every access is of one element size at a multiple of it, the lanes' arrays are interleaved
  // instead (lane j's element i at (i * S + j) * size): the lanes' accesses to one index are then
  // consecutive, one wide access (LaneBuilder::interleaved).
  const uint32_t lanes = k.subgroupLanes;
  const std::vector<uint32_t> kernelZeros = LowZeros::ofKernel(k.ops);
  std::vector<LowZeros> zeros; // per loop of `at`, before its lanes are built
  for (size_t l : at)
    zeros.emplace_back(kernelZeros, k.loops[l]);
  std::vector<uint64_t> slice(k.memories.size(), 0);
  std::vector<uint32_t> interleave(k.memories.size(), 0);
  for (uint32_t m = 0; m < k.memories.size(); ++m) {
    Memory& mem = k.memories[m];
    const bool privateArray = mem.kind == Memory::Kind::Private ||
                              (mem.kind == Memory::Kind::External && !mem.persistent && !mem.spirvVar);
    if (!privateArray || mem.perWorkItem || lanes < 2) continue;
    slice[m] = mem.sizeBytes;
    interleave[m] = elementSize(k, at, zeros, m);
    const uint32_t e = interleave[m];
    std::vector<uint8_t> init(mem.init.empty() ? 0 : mem.sizeBytes * lanes);
    for (uint64_t i = 0; i < mem.init.size(); ++i)
      for (uint32_t j = 0; j < lanes; ++j)
        init[e ? (i / e * lanes + j) * e + i % e : j * mem.sizeBytes + i] = mem.init[i];
    mem.init = std::move(init);
    mem.sizeBytes *= lanes;
  }
  for (size_t i = 0; i < at.size(); ++i) {
    // A volatile access stays as written: one per work-item.
    LaneBuilder builder(k.loops[at[i]], zeros[i], lanes, slice, interleave, !k.volatileAccess);
    builder.run();
    k.laneAccessesJoined += builder.joined;
    k.laneAccessesPerLane += builder.perLane;
    k.laneLogic.insert(k.laneLogic.end(), builder.logic.begin(), builder.logic.end());
  }
}

} // namespace spvhls::ir::lower
