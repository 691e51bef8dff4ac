// Store-to-load forwarding across iterations. `t[i] = t[i - 1] + x[i]` reads in each iteration what
// the previous one stored: through the memory, the next iteration's load waits for that store to be
// done (request, write, read latency: an on-chip running sum had II 4). The value is in the pipeline
// already; a register carries it to the next iteration instead.
//
// For a load L and the one store S to its memory in the loop body, where L of iteration t reads
// exactly the bytes S of iteration t - 1 wrote (ir::DependenceAnalysis::readsWrittenBefore):
//   valid' = S's predicate (valid starts false)   carried: did S run in the previous iteration
//   value' = S's data                             carried: what it wrote
//   L      = load under (L's predicate and !valid); uses read select(valid, value, L)
// Nothing else writes those bytes in between: S is the only store to the memory, a store of the same
// iteration that comes before L must not touch L's bytes (or nothing is forwarded), and a loop with
// an inner loop, call, task operation or task queue access (after which another process may have
// written any memory) or a kernel with a volatile access is left alone. The load runs only where S did not
// run the iteration before (the first iteration, or a predicated store that did not run); ir::memoryOrder
// recognises that guard (skipsAfterStore), so S no longer orders L at distance 1.
#include <algorithm>
#include <map>

#include "ir/dependence.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

struct Forward {
  ValueId load = kNone, store = kNone;
  ValueId valid = kNone, value = kNone; // their LoopPhi ops in the new body
};

bool writesAnything(OpKind k) {
  return k == OpKind::LoopCall || k == OpKind::Call || k == OpKind::TaskAsync || k == OpKind::TaskGet ||
         k == OpKind::TaskRelease;
}

class Forwarder {
public:
  Forwarder(Kernel& k, uint32_t l, ValueId call) : k_(k), loop_(k.loops[l]), site_(k, l, call) {}

  uint32_t run() {
    std::vector<Forward> fw = find();
    if (fw.empty()) return 0;
    rebuild(fw);
    return static_cast<uint32_t>(fw.size());
  }

private:
  std::vector<Forward> find() const {
    const std::vector<Op>& ops = loop_.ops;
    std::map<uint32_t, std::vector<ValueId>> stores;
    for (ValueId v = 0; v < ops.size(); ++v) {
      if (writesAnything(ops[v].kind)) return {};
      // A task queue access synchronises with another process, which may write any memory after it.
      const bool access = ops[v].kind == OpKind::Load || ops[v].kind == OpKind::Store;
      if (access &&
          (ops[v].memory >= k_.memories.size() || k_.memories[ops[v].memory].kind == Memory::Kind::Queue))
        return {};
      if (ops[v].kind == OpKind::Store) stores[ops[v].memory].push_back(v);
    }
    if (stores.empty()) return {};
    const DependenceAnalysis deps(loop_);
    std::vector<Forward> fw;
    for (ValueId v = 0; v < ops.size(); ++v) {
      const Op& l = ops[v];
      if (l.kind != OpKind::Load) continue;
      const auto it = stores.find(l.memory);
      if (it == stores.end() || it->second.size() != 1) continue;
      const ValueId s = it->second[0];
      const ValueId data = ops[s].operands[1];
      if (ops[data].type != l.type || l.type.isVector() || l.width() > 64) continue;
      if (!deps.readsWrittenBefore(v, s, 1)) continue;
      // The store of L's own iteration, if it comes first, must leave L's bytes alone.
      if (s < v && deps.firstConflict(s, v, 0) == std::optional<uint32_t>(0)) continue;
      fw.push_back({v, s});
    }
    return fw;
  }

  void rebuild(std::vector<Forward>& fw) {
    std::vector<Op> ops = std::move(loop_.ops);
    std::vector<Op> out;
    out.reserve(ops.size() + 6 * fw.size());
    Builder b(out, nullptr);
    // The carried values first (leaves; LoopPhi ops go in directly, the builder would merge them).
    const ValueId no = site_.b.constant(1, 0);
    std::map<ValueId, size_t> byLoad;
    for (size_t i = 0; i < fw.size(); ++i) {
      const Op& l = ops[fw[i].load];
      const std::string base = (l.name.empty() ? std::string("load") : l.name) + ".fwd";
      fw[i].valid = carried(out, base + ".valid", Type::bits(1), site_.addLiveIn(no), l);
      fw[i].value = carried(out, base, l.type, site_.addLiveIn(zeroOf(l.type)), l);
      byLoad[fw[i].load] = i;
    }
    std::vector<ValueId> map(ops.size(), kNone);
    for (ValueId v = 0; v < ops.size(); ++v) {
      Op op = ops[v];
      for (ValueId& o : op.operands)
        if (o != kNone) o = map[o];
      b.loc = op.loc;
      const auto f = byLoad.find(v);
      if (f == byLoad.end()) {
        map[v] = static_cast<ValueId>(out.size());
        out.push_back(std::move(op));
        continue;
      }
      const Forward& w = fw[f->second];
      op.operands[1] = b.predAnd(op.operands[1], b.unary(OpKind::Not, w.valid));
      const auto load = static_cast<ValueId>(out.size());
      out.push_back(std::move(op));
      map[v] = b.select(w.valid, w.value, load);
    }
    for (LoopPhi& p : loop_.phis)
      if (p.next != kNone) p.next = map[p.next];
    for (const Forward& w : fw) {
      const Op& s = ops[w.store];
      const ValueId pred = s.operands.size() > 2 ? s.operands[2] : kNone;
      loop_.phis[out[w.valid].index].next = pred == kNone ? b.constant(1, 1) : map[pred];
      loop_.phis[out[w.value].index].next = map[s.operands[1]];
    }
    if (loop_.continueCond != kNone) loop_.continueCond = map[loop_.continueCond];
    for (ValueId& o : loop_.liveOuts)
      o = map[o];
    loop_.ops = std::move(out);
    site_.finish(); // the new initial values
  }

  // A new carried value and its LoopPhi op (its next value is set once the body is rebuilt).
  ValueId carried(std::vector<Op>& out, std::string name, Type type, uint32_t init, const Op& like) {
    const auto index = static_cast<uint32_t>(loop_.phis.size());
    loop_.phis.push_back(LoopPhi{name, init, kNone, type});
    Op op = standIn(like, OpKind::LoopPhi, index);
    op.type = type;
    op.name = std::move(name);
    out.push_back(std::move(op));
    return static_cast<ValueId>(out.size() - 1);
  }

  // A zero of `type` in the caller (the forwarded value before the first store: never read).
  ValueId zeroOf(Type type) {
    if (type.isBits()) return site_.b.constant(type.width(), 0);
    Op op;
    op.kind = OpKind::Const;
    op.type = type;
    return site_.b.emit(std::move(op));
  }

  Kernel& k_;
  Loop& loop_;
  CallSite site_;
};

} // namespace

bool forwardStores(Kernel& k) {
  if (k.volatileAccess) return false;
  uint32_t n = 0;
  for (uint32_t l = 0; l < k.loops.size(); ++l)
    if (const ValueId call = cfgCallOf(k, l); call != kNone)
      if (const uint32_t forwarded = Forwarder(k, l, call).run()) {
        n += forwarded;
        takeLiveInsFromCalls(k, k.loops[l]); // an outer pipeline's inner loops: from its renumbered body
      }
  k.datapath.forwardedLoads += n;
  return n > 0;
}

} // namespace spvhls::ir::lower
