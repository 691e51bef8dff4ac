// Loop fusion (docs/loop-controls.md "Loop fusion"), on the CFG before loops are extracted. Two loops
// are *adjacent* when the first leaves by one conditional branch, from its header (a `for` at -O0) or
// from its only latch (a rotated loop at -O2; both loops of a pair the same way), and a straight chain
// of blocks leads from there into the second's header (-O2's guard of the second loop, the same test
// as the first's, is folded first: foldDominatedBranches). Adjacent innermost loops with the same trip count
// are fused unless NoFusionINTEL is on either: one loop whose iteration runs the first body, then the second.
// The second header's phis join the first header, one exit test goes (the trip counts are equal: the first's
// when top-tested, at the second's header; the first latch's when bottom-tested), and the chain between the
// loops runs after the fused loop. Legal when
// - both trip counts are the same counted induction (same start, step, bound and test),
// - the second loop reads nothing the first computes (a value after the first ends would be the
//   current one in the fused loop), and of what the chain computes only what can run before the
//   first loop (it moves there: constants, and values -O2 hoists into the second preheader),
// - the chain has no memory access or other side effect (it moves past the second loop),
// - every memory one loop writes and the other accesses is accessed at one element per iteration,
//   the same in both (base + i * stride, stride at least the access size): iteration i of the second
//   loop then touches only what iteration i of the first did, which ran just before it.
// Every adjacent pair not fused is recorded with the reason, like the fusions, in loopTransforms.
#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {
namespace {

using S = LoopControlRequest::Status;

// Controls that only the loop transformations read (settled before fusion) do not stop it; any other
// control would have to hold for the fused loop, which the user did not ask for.
const char* const kTransformControls[] = {"Unroll",        "DontUnroll",    "PartialCount",     "PeelCount",
                                          "MinIterations", "MaxIterations", "IterationMultiple"};

// i = init; i <cmp> bound (or bound <cmp> i); i += step: the loop continues while the test is
// `continueOn`.
struct Induction {
  ValueId phi = kNone, init = kNone, bound = kNone;
  OpKind cmp = OpKind::Eq;
  bool phiFirst = true, continueOn = true;
  bool onNext = false; // the test reads i + step (a rotated loop's), not i
  int64_t step = 0;
};

// Where a loop leaves, always by one conditional branch: from its header (top-tested, `for` at -O0)
// or from its only latch (bottom-tested: `do`-`while`, and the form clang -O2 rotates loops into).
struct Exit {
  bool bottom = false;
  uint32_t block = 0;               // the header or the latch
  uint32_t inside = 0, outside = 0; // where it goes on and where it leaves to
};

std::optional<Exit> exitOf(const Kernel& k, const LoopInfo& L, bool bottom) {
  if (!bottom) {
    const std::optional<HeaderExit> hx = headerOnlyExit(k, L);
    if (!hx) return std::nullopt;
    return Exit{false, L.header, hx->inside, hx->outside};
  }
  if (L.latches.size() != 1) return std::nullopt;
  const uint32_t T = L.latches[0];
  const Succs succ = kernelSuccessors(k);
  for (uint32_t b : L.blocks)
    if (b != T)
      for (uint32_t t : succ[b])
        if (!contains(L.blocks, t)) return std::nullopt;
  const Terminator& t = k.blocks[T].term;
  if (t.kind != Terminator::Kind::CondBranch) return std::nullopt;
  for (int i = 0; i < 2; ++i)
    if (t.targets[i] == L.header && !contains(L.blocks, t.targets[1 - i]))
      return Exit{true, T, L.header, t.targets[1 - i]};
  return std::nullopt;
}

bool sameConstOrValue(const Kernel& k, ValueId a, ValueId b) {
  if (a == b) return true;
  const Op &x = k.ops[a], &y = k.ops[b];
  return x.kind == OpKind::Const && y.kind == OpKind::Const && x.width() == y.width() && x.imm == y.imm &&
         x.immHigh == y.immHigh;
}

// The single value every listed phi entry brings; kNone if they differ or there are none.
ValueId entryValue(const Kernel& k, const Op& phi, const std::vector<uint32_t>& from) {
  ValueId v = kNone;
  for (size_t i = 0; i < phi.phiBlocks.size(); ++i) {
    if (std::find(from.begin(), from.end(), phi.phiBlocks[i]) == from.end()) continue;
    if (v != kNone && !sameConstOrValue(k, v, phi.operands[i])) return kNone;
    v = phi.operands[i];
  }
  return v;
}

// The same value in both loops, reading iv2 in the second where the first reads iv1.
bool sameExpr(const Kernel& k, ValueId a, ValueId b, ValueId iv1, ValueId iv2, int depth = 0) {
  if (a == kNone || b == kNone) return a == b;
  if (sameConstOrValue(k, a, b) || (a == iv1 && b == iv2)) return true;
  const Op &x = k.ops[a], &y = k.ops[b];
  // Leaves (arguments, parameters, constants, undefined values) are the same only as themselves.
  if (depth > 16 || x.operands.empty() || x.kind != y.kind || x.type != y.type || x.imm != y.imm ||
      x.index != y.index || x.memory != y.memory || x.size != y.size || x.rounding != y.rounding ||
      x.operands.size() != y.operands.size() || x.kind == OpKind::Phi || x.kind == OpKind::Load ||
      hasSideEffect(x.kind))
    return false;
  for (size_t i = 0; i < x.operands.size(); ++i)
    if (!sameExpr(k, x.operands[i], y.operands[i], iv1, iv2, depth + 1)) return false;
  return true;
}

// A value that does not change in loop L: defined outside it, or a pure operation inside it (no load,
// no phi) on such values; -O0 code computes a bound such as `n - 1` in the header every iteration.
bool invariantIn(const Kernel& k, const LoopInfo& L, ValueId v, int depth = 0) {
  const Op& op = k.ops[v];
  if (!contains(L.blocks, op.block)) return true;
  if (depth > 8 || op.kind == OpKind::Phi || op.kind == OpKind::Load || hasSideEffect(op.kind)) return false;
  return std::all_of(op.operands.begin(), op.operands.end(),
                     [&](ValueId o) { return o != kNone && invariantIn(k, L, o, depth + 1); });
}

std::optional<Induction> inductionOf(const Kernel& k, const LoopInfo& L, const Exit& x) {
  const Terminator& t = k.blocks[x.block].term;
  const Op& c = k.ops[t.cond];
  if (!isCompare(c.kind) || c.block != x.block) return std::nullopt;
  const std::vector<uint32_t> entering = enteringPreds(k, L);
  for (int side = 0; side < 2; ++side) {
    const ValueId tested = c.operands[side], bound = c.operands[1 - side];
    if (!invariantIn(k, L, bound)) continue;
    for (ValueId phi : k.blocks[L.header].ops) {
      const Op& p = k.ops[phi];
      if (p.kind != OpKind::Phi) continue;
      const ValueId init = entryValue(k, p, entering), next = entryValue(k, p, L.latches);
      if (init == kNone || next == kNone || (tested != phi && tested != next)) continue;
      const Op& n = k.ops[next];
      if (n.operands.size() != 2 || (n.kind != OpKind::Add && n.kind != OpKind::Sub)) continue;
      const int at = n.operands[0] == phi ? 0 : n.operands[1] == phi && n.kind == OpKind::Add ? 1 : -1;
      if (at < 0 || k.ops[n.operands[1 - at]].kind != OpKind::Const) continue;
      int64_t step = signExtend(k.ops[n.operands[1 - at]].imm, n.width());
      if (n.kind == OpKind::Sub) step = -step;
      return Induction{phi, init, bound, c.kind, side == 0, x.inside == t.targets[0], tested == next, step};
    }
  }
  return std::nullopt;
}

bool sameTripCount(const Kernel& k, const Induction& a, const Induction& b) {
  return a.cmp == b.cmp && a.phiFirst == b.phiFirst && a.continueOn == b.continueOn && a.onNext == b.onNext &&
         a.step == b.step && k.ops[a.phi].width() == k.ops[b.phi].width() &&
         sameConstOrValue(k, a.init, b.init) && sameExpr(k, a.bound, b.bound, kNone, kNone);
}

// Two adjacent loops: the chain of blocks between them (each entered only from the one before,
// ending in a branch to the next), possibly empty.
struct Pair {
  const LoopInfo* first = nullptr;
  const LoopInfo* second = nullptr;
  Exit exit1;
  std::vector<uint32_t> chain;
};

std::optional<Pair> adjacentAfter(const Kernel& k, const LoopForest& lf, const LoopInfo& L,
                                  const std::vector<std::vector<uint32_t>>& preds) {
  // A loop of one block is both: taken as bottom-tested, its whole block is body.
  const bool oneBlock = L.blocks.size() == 1;
  std::optional<Exit> x = exitOf(k, L, oneBlock);
  if (!x) x = exitOf(k, L, !oneBlock);
  if (!x) return std::nullopt;
  Pair p{&L, nullptr, *x, {}};
  uint32_t prev = x->block, b = x->outside;
  for (int steps = 0; steps < 64; ++steps) {
    for (const LoopInfo& M : lf.loops)
      if (M.header == b) {
        if (&M == &L || M.parent != L.parent || preds[b].size() < 2) return std::nullopt;
        for (uint32_t q : preds[b])
          if (q != prev && !contains(M.blocks, q)) return std::nullopt; // entered from elsewhere too
        p.second = &M;
        return p;
      }
    const Terminator& t = k.blocks[b].term;
    if (preds[b].size() != 1 || preds[b][0] != prev || t.kind != Terminator::Kind::Branch)
      return std::nullopt;
    p.chain.push_back(b);
    prev = b;
    b = t.targets[0];
  }
  return std::nullopt;
}

// The offset's stride per step of the induction `iv` when it is [inv +] (ext(iv) | iv) [* C | << C],
// with `inv` defined outside the loop; nullopt otherwise.
std::optional<uint64_t> strideOf(const Kernel& k, const LoopInfo& L, ValueId off, ValueId iv) {
  const Op* o = &k.ops[off];
  if (o->kind == OpKind::Add) {
    const bool inv0 = !contains(L.blocks, k.ops[o->operands[0]].block);
    const bool inv1 = !contains(L.blocks, k.ops[o->operands[1]].block);
    if (inv0 == inv1) return std::nullopt;
    o = &k.ops[o->operands[inv0 ? 1 : 0]];
  }
  uint64_t scale = 1;
  if ((o->kind == OpKind::Mul || o->kind == OpKind::Shl) && k.ops[o->operands[1]].kind == OpKind::Const) {
    const uint64_t c = k.ops[o->operands[1]].imm;
    if (o->kind == OpKind::Shl && c >= 16) return std::nullopt;
    scale = o->kind == OpKind::Shl ? uint64_t(1) << c : c;
    o = &k.ops[o->operands[0]];
  }
  if (o->kind == OpKind::SExt || o->kind == OpKind::ZExt) o = &k.ops[o->operands[0]];
  if (o != &k.ops[iv] || scale == 0 || scale > (uint64_t(1) << 16)) return std::nullopt;
  return scale;
}

// The chain's operations that can run before the first loop instead, in program order: pure, no
// load, no phi, reading only values from before the first loop or other such operations (constants,
// and what clang -O2 hoists into the second loop's preheader, such as r * cols).
std::vector<ValueId> hoistable(const Kernel& k, const Pair& p) {
  std::set<ValueId> movable;
  std::vector<ValueId> order;
  for (uint32_t b : p.chain)
    for (ValueId v : k.blocks[b].ops) {
      const Op& op = k.ops[v];
      if (hasSideEffect(op.kind) || op.kind == OpKind::Load || op.kind == OpKind::Phi) continue;
      const bool free = std::all_of(op.operands.begin(), op.operands.end(), [&](ValueId o) {
        if (o == kNone || movable.count(o)) return true;
        const uint32_t d = k.ops[o].block;
        return !contains(p.first->blocks, d) && std::find(p.chain.begin(), p.chain.end(), d) == p.chain.end();
      });
      if (free) movable.insert(v), order.push_back(v);
    }
  return order;
}

struct Access {
  ValueId op;
  bool second; // in the second loop
};

// Why the pair cannot be fused; "" when it can.
std::string whyNot(Kernel& k, const Pair& p, const std::optional<Exit>& x2,
                   const std::optional<Induction>& i1, const std::optional<Induction>& i2) {
  const LoopInfo &L1 = *p.first, &L2 = *p.second;
  auto name = [&](const LoopInfo& L) { return fmt::format("loop '{}'", k.blocks[L.header].name); };
  for (const LoopInfo* L : {&L1, &L2})
    if (!L->children.empty()) return name(*L) + " contains another loop (only innermost loops are fused)";
  for (const LoopInfo* L : {&L1, &L2})
    if (std::string c = loopsOfCalls(k, *L); !c.empty()) return name(*L) + ": " + c;
  // A task operation orders the loop's work with a task thread's: fused, the second loop's work
  // would run before the first loop's asyncs or gets are done.
  for (const LoopInfo* L : {&L1, &L2})
    for (uint32_t b : L->blocks)
      for (ValueId v : k.blocks[b].ops)
        if (const OpKind kind = k.ops[v].kind;
            kind == OpKind::TaskAsync || kind == OpKind::TaskGet || kind == OpKind::TaskRelease)
          return fmt::format("{} uses task sequence {} ({}), which orders it with the task's work",
                             name(*L), k.processes.at(k.ops[v].index).name, opKindName(kind));
  if (!x2)
    return name(L2) + (p.exit1.bottom ? " does not leave from its latch alone (a break or return)"
                                      : " leaves from inside its body (a break or return)");
  for (const LoopInfo* L : {&L1, &L2}) {
    const auto& lc = k.blocks[L->header].loopControls;
    if (!lc) continue;
    std::string others;
    for (const LoopControlRequest& r : lc->requests)
      if (std::none_of(std::begin(kTransformControls), std::end(kTransformControls),
                       [&](const char* c) { return r.name == c; }))
        others += (others.empty() ? "" : ", ") + r.name;
    if (!others.empty())
      return fmt::format("{} has loop controls ({}) that the fused loop would take on", name(*L), others);
  }
  if (immediateDominators(kernelSuccessors(k), cfgRoots(k))[L1.header] < 0)
    return name(L1) + " starts the function"; // no block before it to hold the fused loop's constants
  if (!i1 || !i2)
    return fmt::format(
        "{}'s trip count is not a counted induction (i = start; i < bound; i += step, bound set "
        "before the loop)",
        name(!i1 ? L1 : L2));
  if (!sameTripCount(k, *i1, *i2)) return "the trip counts may differ (start, step, bound or test differ)";
  // Values: the second loop reads nothing the first or the chain computes (constants aside).
  std::set<uint32_t> before(L1.blocks.begin(), L1.blocks.end());
  before.insert(p.chain.begin(), p.chain.end());
  const std::vector<ValueId> hoist = hoistable(k, p);
  // Operands of its operations and conditions of its branches (-O2 may hoist a test into the chain).
  for (uint32_t b : L2.blocks) {
    std::vector<ValueId> reads;
    for (ValueId v : k.blocks[b].ops)
      reads.insert(reads.end(), k.ops[v].operands.begin(), k.ops[v].operands.end());
    reads.push_back(k.blocks[b].term.cond);
    for (ValueId r : reads) {
      if (r == kNone) continue; // an unpredicated access, an unconditional branch
      const Op& d = k.ops[r];
      if (!before.count(d.block) || std::find(hoist.begin(), hoist.end(), r) != hoist.end()) continue;
      return fmt::format("{} reads {}, computed {} before it", name(L2),
                         d.name.empty() ? "a value" : "%" + d.name,
                         contains(L1.blocks, d.block) ? "by " + name(L1) : "between the loops");
    }
  }
  for (uint32_t b : p.chain)
    for (ValueId v : k.blocks[b].ops)
      if (k.ops[v].kind == OpKind::Load || hasSideEffect(k.ops[v].kind))
        return fmt::format("the code between the loops (block {}) accesses memory", k.blocks[b].name);
  // Top-tested: the second header's own work runs once fewer (no exit test in the fused loop): it
  // must be pure and read only inside the second loop.
  if (!p.exit1.bottom) {
    const uint32_t H2 = L2.header;
    for (ValueId v : k.blocks[H2].ops)
      if (hasSideEffect(k.ops[v].kind) || k.ops[v].kind == OpKind::Load)
        return name(L2) + "'s header accesses memory in its exit test";
    const std::string readAfter = name(L2) + "'s header computes a value read after the loop";
    for (const Op& user : k.ops) {
      if (contains(L2.blocks, user.block) && user.kind != OpKind::Phi) continue;
      for (size_t i = 0; i < user.operands.size(); ++i) {
        if (user.operands[i] == kNone) continue;
        const Op& d = k.ops[user.operands[i]];
        if (d.block != H2 || d.kind == OpKind::Phi || d.kind == OpKind::Const) continue;
        // A phi of the second loop reading it along its own back edge is inside.
        if (user.kind == OpKind::Phi && contains(L2.blocks, user.block) &&
            contains(L2.blocks, user.phiBlocks[i]))
          continue;
        return readAfter;
      }
    }
    for (uint32_t b = 0; b < k.blocks.size(); ++b)
      if (k.blocks[b].term.cond != kNone && k.ops[k.blocks[b].term.cond].block == H2 &&
          !contains(L2.blocks, b))
        return readAfter;
  }
  // Memory: per memory written by one loop and accessed by the other, every access at the same element.
  std::map<uint32_t, std::vector<Access>> byMemory;
  for (const LoopInfo* L : {&L1, &L2})
    for (uint32_t b : L->blocks)
      for (ValueId v : k.blocks[b].ops)
        if (k.ops[v].kind == OpKind::Load || k.ops[v].kind == OpKind::Store)
          byMemory[k.ops[v].memory].push_back(Access{v, L == &L2});
  for (const auto& [m, accesses] : byMemory) {
    bool w[2] = {false, false}, a[2] = {false, false};
    for (const Access& x : accesses) {
      a[x.second] = true;
      w[x.second] = w[x.second] || k.ops[x.op].kind == OpKind::Store;
    }
    if (!((w[0] && a[1]) || (w[1] && a[0]))) continue;
    const std::string what =
        fmt::format("memory {} is written by one loop and accessed by the other", k.memories[m].name);
    if (std::abs(i1->step) != 1) return what + " (the induction's step is not 1)";
    // Both loops access m, the first loop's accesses listed first: the reference is one of them, and
    // every access must be its element (iv1 read as iv2 in the second loop).
    const Op& ref = k.ops[accesses.front().op];
    const std::optional<uint64_t> stride = strideOf(k, L1, ref.operands[0], i1->phi);
    if (!stride || *stride < ref.size)
      return what + ", at an element that is not base + i * stride (stride at least the access size)";
    for (const Access& x : accesses)
      if (k.ops[x.op].size != ref.size ||
          !sameExpr(k, ref.operands[0], k.ops[x.op].operands[0], i1->phi, i2->phi))
        return what + " at different elements in one iteration";
  }
  return {};
}

// The loop's NoFusionINTEL, settled or not (a pair is looked at again after another pair fuses).
LoopControlRequest* noFusion(Kernel& k, uint32_t header) {
  auto& lc = k.blocks[header].loopControls;
  if (lc)
    for (LoopControlRequest& r : lc->requests)
      if (r.name == "NoFusionINTEL") return &r;
  return nullptr;
}

// Fuses the pair (whyNot said yes): see the file comment.
void fuse(Kernel& k, const Pair& p, const Exit& x2) {
  const LoopInfo &L1 = *p.first, &L2 = *p.second;
  const uint32_t H1 = L1.header, H2 = L2.header;
  const std::vector<uint32_t> entering1 = enteringPreds(k, L1);
  // The second loop's entering block.
  const uint32_t last = p.chain.empty() ? p.exit1.block : p.chain.back();
  // What the chain computes from values before the first loop (the second loop may read it) goes
  // where it dominates the fused loop, in its order.
  {
    const std::vector<int> idom = immediateDominators(kernelSuccessors(k), cfgRoots(k));
    const uint32_t home = static_cast<uint32_t>(idom[H1]); // whyNot: H1 has an immediate dominator
    for (ValueId v : hoistable(k, p)) {
      auto& ops = k.blocks[k.ops[v].block].ops;
      ops.erase(std::find(ops.begin(), ops.end(), v));
      k.ops[v].block = home;
      k.blocks[home].ops.push_back(v);
    }
  }
  // The first header's phis take their next value along the second loop's back edges; with several
  // first-loop latches (top-tested only), a phi in the second header merges what they bring.
  std::vector<ValueId> newPhis;
  std::vector<std::pair<ValueId, ValueId>> carriedOf; // first-header phi, its value along the back edges
  for (ValueId v : std::vector<ValueId>(k.blocks[H1].ops)) {
    if (k.ops[v].kind != OpKind::Phi) continue;
    std::vector<std::pair<uint32_t, ValueId>> back;
    for (size_t i = 0; i < k.ops[v].phiBlocks.size(); ++i)
      if (contains(L1.blocks, k.ops[v].phiBlocks[i]))
        back.push_back({k.ops[v].phiBlocks[i], k.ops[v].operands[i]});
    ValueId carried = back.front().second;
    if (back.size() > 1) {
      Op m;
      m.kind = OpKind::Phi;
      m.type = k.ops[v].type;
      m.block = H2;
      m.name = k.ops[v].name.empty() ? "" : k.ops[v].name + ".fused";
      m.loc = k.ops[v].loc;
      for (auto& [blk, val] : back) {
        m.phiBlocks.push_back(blk);
        m.operands.push_back(val);
      }
      carried = static_cast<ValueId>(k.ops.size());
      k.ops.push_back(std::move(m));
      newPhis.push_back(carried);
    }
    carriedOf.push_back({v, carried});
  }
  keepPhiEntriesFrom(k, H1, entering1); // the first loop's back edges are gone
  for (const auto& [v, carried] : carriedOf)
    for (uint32_t l : L2.latches) {
      k.ops[v].phiBlocks.push_back(l);
      k.ops[v].operands.push_back(carried);
    }
  // The second header's phis move to the first header: their start value on the fused loop's entry.
  std::vector<ValueId> moved, rest;
  for (ValueId v : k.blocks[H2].ops)
    (k.ops[v].kind == OpKind::Phi ? moved : rest).push_back(v);
  std::vector<ValueId> inits;
  for (ValueId v : moved)
    inits.push_back(entryValue(k, k.ops[v], {last}));
  dropPhiEntries(k, H2, last);
  for (size_t j = 0; j < moved.size(); ++j) {
    Op& phi = k.ops[moved[j]];
    const ValueId init = inits[j];
    for (uint32_t e : entering1) {
      phi.phiBlocks.push_back(e);
      phi.operands.push_back(init);
    }
    phi.block = H1;
  }
  auto& ops1 = k.blocks[H1].ops;
  ops1.insert(std::find_if(ops1.begin(), ops1.end(), [&](ValueId v) { return k.ops[v].kind != OpKind::Phi; }),
              moved.begin(), moved.end());
  newPhis.insert(newPhis.end(), rest.begin(), rest.end());
  k.blocks[H2].ops = newPhis;
  if (!p.exit1.bottom) {
    // Edges: first body -> second header -> second body -> first header; the exit path after the
    // chain goes where the second loop left to. In this order, for loops of one block (a header
    // that is its own latch) too.
    retarget(k, last, H2, x2.outside);
    for (uint32_t l : L1.latches)
      retarget(k, l, H1, H2);
    for (uint32_t l : L2.latches)
      if (l != H2) retarget(k, l, H2, H1);
    Terminator& t2 = k.blocks[H2].term;
    t2.kind = Terminator::Kind::Branch;
    t2.cond = kNone;
    t2.targets = {x2.inside == H2 ? H1 : x2.inside};
    renamePhiEntries(k, x2.outside, H2, last);
  } else {
    // The first latch goes on to the second header; the second latch tests the exit (the same
    // outcome as the first's, the trip counts being equal) and goes back to the first header or
    // out through the chain to where the second loop left to.
    const uint32_t T1 = p.exit1.block, T2 = x2.block;
    Terminator& t1 = k.blocks[T1].term;
    t1.kind = Terminator::Kind::Branch;
    t1.cond = kNone;
    t1.targets = {H2};
    Terminator& t2 = k.blocks[T2].term;
    for (uint32_t& t : t2.targets)
      t = t == H2 ? H1 : p.chain.empty() ? x2.outside : p.chain.front();
    if (!p.chain.empty()) {
      renamePhiEntries(k, p.chain.front(), T1, T2);
      retarget(k, last, H2, x2.outside);
      renamePhiEntries(k, x2.outside, T2, last);
    }
  }
  moveControls(k, H2, H1);
}

// A conditional branch on a value that a dominating branch already tested goes one way, the one the
// dominating branch's edge says: clang -O2 guards each rotated loop with the same test (n > 0), and the
// second guard stands between the loops. Whether any was folded.
bool foldDominatedBranches(Kernel& k) {
  const Succs succ = kernelSuccessors(k);
  const auto preds = kernelPredecessors(k);
  const std::vector<int> idom = immediateDominators(succ, cfgRoots(k));
  bool folded = false;
  for (uint32_t x = 0; x < k.blocks.size(); ++x) {
    Terminator& t = k.blocks[x].term;
    if (t.kind != Terminator::Kind::CondBranch || t.cond == kNone || t.targets[0] == t.targets[1]) continue;
    for (int d = idom[x]; d >= 0; d = idom[uint32_t(d)]) {
      const Terminator& td = k.blocks[uint32_t(d)].term;
      if (td.kind != Terminator::Kind::CondBranch || td.cond != t.cond || td.targets[0] == td.targets[1])
        continue;
      // The edge of d that x lies behind: its target dominates x and is entered only from d and from
      // blocks it dominates itself (its loop's back edges).
      int way = -1;
      for (int i = 0; i < 2; ++i) {
        const uint32_t s = td.targets[i];
        const bool onlyFromD = std::all_of(preds[s].begin(), preds[s].end(), [&](uint32_t q) {
          return q == uint32_t(d) ? std::count(preds[s].begin(), preds[s].end(), q) == 1
                                  : dominates(idom, s, q);
        });
        if (onlyFromD && dominates(idom, s, x)) way = i;
      }
      if (way < 0) break;
      dropPhiEntries(k, t.targets[1 - way], x);
      const uint32_t keep = t.targets[way];
      t.kind = Terminator::Kind::Branch;
      t.cond = kNone;
      t.targets = {keep};
      folded = true;
      break;
    }
  }
  if (folded) detachUnreachable(k);
  return folded;
}

} // namespace

bool fuseLoops(Kernel& k, const LoopForest& first, bool enabled) {
  std::set<std::pair<uint32_t, uint32_t>> reported; // header pairs already recorded
  bool any = enabled && foldDominatedBranches(k);
  LoopForest lf = any ? findLoops(k) : first;
  for (bool changed = true; changed;) {
    changed = false;
    const auto preds = kernelPredecessors(k);
    for (const LoopInfo& L : lf.loops) {
      const std::optional<Pair> p = adjacentAfter(k, lf, L, preds);
      if (!p) continue;
      const uint32_t H1 = p->first->header, H2 = p->second->header;
      const std::string n1 = k.blocks[H1].name, n2 = k.blocks[H2].name;
      const SourceLoc loc = k.blocks[H1].term.loc;
      std::string reason;
      std::optional<Exit> x2;
      LoopControlRequest* no1 = noFusion(k, H1);
      LoopControlRequest* no2 = noFusion(k, H2);
      if (!enabled)
        reason = "fusion is off (--fusion off)";
      else if (no1 || no2)
        reason = fmt::format("NoFusionINTEL on loop '{}'", no1 ? n1 : n2);
      else {
        x2 = exitOf(k, *p->second, p->exit1.bottom);
        const std::optional<Induction> i1 = inductionOf(k, *p->first, p->exit1);
        const std::optional<Induction> i2 = x2 ? inductionOf(k, *p->second, *x2) : std::nullopt;
        reason = whyNot(k, *p, x2, i1, i2);
      }
      for (LoopControlRequest* r : {no1, no2})
        if (r)
          settle(*r, S::Honoured, fmt::format("not fused with the adjacent loop '{}'", r == no1 ? n2 : n1));
      if (!reason.empty()) {
        if (reported.insert({H1, H2}).second)
          k.loopTransforms.push_back(
              LoopTransform{n1, loc, "not fused", fmt::format("not fused with loop '{}': {}", n2, reason)});
        continue;
      }
      fuse(k, *p, *x2);
      k.loopTransforms.push_back(LoopTransform{
          n1, loc, "fusion",
          fmt::format("fused with the adjacent loop '{}' (same trip count): each iteration runs both bodies",
                      n2)});
      any = changed = true;
      lf = findLoops(k);
      break;
    }
  }
  // NoFusionINTEL on a loop with no adjacent loop to fuse with.
  for (const LoopInfo& L : lf.loops)
    if (LoopControlRequest* r = pendingRequest(k, L.header, "NoFusionINTEL"))
      settle(*r, S::Honoured, "not fused (no adjacent loop with the same trip count)");
  return any;
}

} // namespace spvhls::ir::lower
