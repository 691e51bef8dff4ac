// Redundant loads: a load of the bytes an earlier load read, or an earlier store wrote, in the same
// block (a loop body is one block) with nothing between that may change them, takes that value
// instead of asking the memory again. -O0 code reloads `x[i]` for every use, and each load is a
// request on the memory's one port: `y[i] = t[x[i] & 15] + x[i]` had ResMII 2 on x's port.
//
// Same bytes: the same memory, the same offset value (the builder's common subexpressions make
// repeated address arithmetic one value) and the same size. The earlier access's predicate must
// cover the later one's: none, the same, or one of the operands of the And chain the later predicate
// is (an access under p & q runs only where one under p did). What may change the bytes: a store to
// the memory at an offset that may overlap (any but the same base plus constants apart), an inner loop,
// a call, a task operation or a task queue access (another process may write in between, after the
// synchronisation those are; without one, a write would race with the loads). No load of a kernel
// with a volatile access is reused: each of those must reach the memory.
#include <algorithm>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

struct Known {
  uint32_t memory = 0;
  ValueId offset = kNone;
  uint8_t size = 0;
  ValueId pred = kNone; // the value is known where this holds (kNone: always)
  ValueId value = kNone;
};

ValueId predicateOf(const Op& op) {
  const size_t at = op.kind == OpKind::Store ? 2 : 1;
  return op.operands.size() > at ? op.operands[at] : kNone;
}

class Reuser {
public:
  Reuser(const Kernel& k, const std::vector<Op>& ops) : k_(k), ops_(ops) {}

  // Visits the ops of one block in order; sets reuse[v] to the earlier value load v takes.
  void visit(ValueId v, std::vector<ValueId>& reuse) {
    const Op& op = ops_[v];
    switch (op.kind) {
    case OpKind::Load:
    case OpKind::Store: {
      if (!plain(op.memory)) {
        known_.clear(); // a queue: another process ran in between
        return;
      }
      const ValueId pred = predicateOf(op);
      if (op.kind == OpKind::Load) {
        for (const Known& e : known_)
          if (e.memory == op.memory && e.offset == op.operands[0] && e.size == op.size &&
              covers(e.pred, pred)) {
            reuse[v] = e.value;
            return;
          }
        known_.push_back({op.memory, op.operands[0], op.size, pred, v});
        return;
      }
      std::erase_if(known_, [&](const Known& e) {
        return e.memory == op.memory && !disjoint(e.offset, e.size, op.operands[0], op.size);
      });
      known_.push_back({op.memory, op.operands[0], op.size, pred, op.operands[1]});
      return;
    }
    case OpKind::LoopCall:
    case OpKind::Call:
    case OpKind::TaskAsync:
    case OpKind::TaskGet:
    case OpKind::TaskRelease:
      known_.clear();
      return;
    default:
      return;
    }
  }
  void startBlock() { known_.clear(); }

private:
  bool plain(uint32_t m) const {
    return m < k_.memories.size() && k_.memories[m].kind != Memory::Kind::Queue;
  }
  // An offset as base + c (base kNone: the constant c).
  std::pair<ValueId, uint64_t> split(ValueId v) const {
    const Op& op = ops_[v];
    if (op.kind == OpKind::Const && op.immHigh.empty()) return {kNone, op.imm};
    ValueId x = kNone;
    uint64_t c = 0;
    return splitConstantAdd(ops_, op, x, c) ? std::pair(x, c) : std::pair(v, uint64_t(0));
  }
  // Whether the bytes at offsets a and b (of sizes sa, sb) certainly do not overlap: one base, and
  // constant parts apart.
  bool disjoint(ValueId a, uint8_t sa, ValueId b, uint8_t sb) const {
    const auto [baseA, ca] = split(a);
    const auto [baseB, cb] = split(b);
    return baseA == baseB && (ca + sa <= cb || cb + sb <= ca) && ca < (1ull << 62) && cb < (1ull << 62);
  }
  // Whether `later` (an i1, kNone: always) holds only where `earlier` does.
  bool covers(ValueId earlier, ValueId later) const {
    if (earlier == kNone || earlier == later) return true;
    if (later == kNone || ops_[later].kind != OpKind::And) return false;
    for (ValueId o : ops_[later].operands)
      if (covers(earlier, o)) return true;
    return false;
  }

  const Kernel& k_;
  const std::vector<Op>& ops_;
  std::vector<Known> known_;
};

uint32_t reuseInLoop(const Kernel& k, Loop& loop) {
  std::vector<ValueId> reuse(loop.ops.size(), kNone);
  Reuser r(k, loop.ops);
  for (ValueId v = 0; v < loop.ops.size(); ++v)
    r.visit(v, reuse);
  const auto n =
      static_cast<uint32_t>(std::count_if(reuse.begin(), reuse.end(), [](ValueId e) { return e != kNone; }));
  // Compaction then drops the reused loads (a load has no side effect).
  if (n != 0) redirectUses(loop, reuse);
  return n;
}

uint32_t reuseInCfg(Kernel& k) {
  std::vector<ValueId> reuse(k.ops.size(), kNone);
  Reuser r(k, k.ops);
  for (const BasicBlock& b : k.blocks) {
    r.startBlock();
    for (ValueId v : b.ops)
      r.visit(v, reuse);
  }
  const auto n =
      static_cast<uint32_t>(std::count_if(reuse.begin(), reuse.end(), [](ValueId e) { return e != kNone; }));
  if (n != 0) redirectUses(k, reuse);
  return n;
}

} // namespace

bool reuseLoads(Kernel& k) {
  if (k.volatileAccess) return false;
  uint32_t n = reuseInCfg(k);
  for (Loop& loop : k.loops)
    if (const uint32_t reused = reuseInLoop(k, loop)) {
      n += reused;
      takeLiveInsFromCalls(k, loop); // an outer pipeline's inner loops: from its redirected calls
    }
  k.datapath.reusedLoads += n;
  return n > 0;
}

bool dropUnreadStores(Kernel& k) {
  if (k.volatileAccess) return false;
  // A private array lives as long as its work-item: what no load reads is never seen.
  std::vector<uint8_t> read(k.memories.size(), 0);
  auto reads = [&](const std::vector<Op>& ops) {
    for (const Op& op : ops)
      if (op.kind == OpKind::Load) read[op.memory] = 1;
  };
  reads(k.ops);
  for (const Loop& loop : k.loops)
    reads(loop.ops);
  uint32_t n = 0;
  auto drop = [&](std::vector<Op>& ops) {
    for (Op& op : ops)
      if (op.kind == OpKind::Store && k.memories[op.memory].kind == Memory::Kind::Private &&
          !read[op.memory]) {
        op.kind = OpKind::Undef; // without a side effect and unused: compaction drops it
        op.type = Type::bits(1);
        op.operands.clear();
        op.memory = 0;
        op.size = 0;
        ++n;
      }
  };
  drop(k.ops);
  for (Loop& loop : k.loops)
    drop(loop.ops);
  k.datapath.droppedStores += n;
  return n > 0;
}

} // namespace spvhls::ir::lower
