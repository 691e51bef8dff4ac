// Loop transformations requested by loop controls, on the CFG before loops are extracted
// (docs/loop-controls.md):
// - PeelCount N: N copies of the body run before the loop, each falling through to the next.
// - PartialCount N: the loop's body N times per iteration, every copy keeping its exit tests, so any
//   trip count works.
// - Unroll: full unrolling when the trip count follows from constants: as many peeled copies as the
//   header runs, after which constant folding leaves no loop.
// - LoopCoalesceINTEL N: a nest of N levels becomes one loop. The outer header and the code before the
//   inner loop are copied in front of the nest (the first outer iteration's start); their originals
//   then run inside the inner loop's cycle, so the inner header is the only header left and one
//   iteration of the new loop is one inner iteration or one step from an inner loop's end to the next
//   one's start. Imperfect nests and bounds known only at run time work alike.
// DontUnroll and PartialCount 1 are honoured by doing nothing (nothing is unrolled unasked).
#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

bool contains(const std::vector<uint32_t>& sorted, uint32_t b) {
  return std::binary_search(sorted.begin(), sorted.end(), b);
}

LoopControlRequest* pendingRequest(Kernel& k, uint32_t header, const char* name) {
  auto& lc = k.blocks[header].loopControls;
  if (!lc) return nullptr;
  for (auto& r : lc->requests)
    if (r.name == name && r.status == LoopControlRequest::Status::NotHonouredYet) return &r;
  return nullptr;
}

void settle(LoopControlRequest& r, LoopControlRequest::Status status, std::string note) {
  r.status = status;
  r.note = std::move(note);
}

std::vector<uint32_t> enteringPreds(const Kernel& k, const LoopInfo& L) {
  std::vector<uint32_t> out;
  const auto preds = kernelPredecessors(k);
  for (uint32_t p : preds[L.header])
    if (!contains(L.blocks, p)) out.push_back(p);
  return out;
}

void retarget(Kernel& k, uint32_t from, uint32_t oldTarget, uint32_t newTarget) {
  for (uint32_t& t : k.blocks[from].term.targets)
    if (t == oldTarget) t = newTarget;
}

std::string loopsOfCalls(const Kernel& k, const LoopInfo& L) {
  for (uint32_t b : L.blocks)
    for (ValueId v : k.blocks[b].ops)
      if (k.ops[v].kind == OpKind::Call)
        return fmt::format("the loop calls {}, a shared function", k.functions[k.ops[v].index].name);
  return {};
}

// The outer controls go to the coalesced loop (the inner header's block): both lists, the inner
// loop's values winning where both set one.
void moveControls(Kernel& k, uint32_t from, uint32_t to) {
  auto& src = k.blocks[from].loopControls;
  if (!src) return;
  auto& dst = k.blocks[to].loopControls;
  if (!dst) {
    dst = std::move(src);
  } else {
    LoopControls merged = *src;
    mergeControls(merged, *dst);
    dst = std::move(merged);
  }
  src.reset();
}

std::optional<HeaderExit> headerOnlyExit(const Kernel& k, const LoopInfo& L) {
  const Succs succ = kernelSuccessors(k);
  for (uint32_t b : L.blocks)
    if (b != L.header)
      for (uint32_t t : succ[b])
        if (!contains(L.blocks, t)) return std::nullopt;
  const Terminator& t = k.blocks[L.header].term;
  if (t.kind != Terminator::Kind::CondBranch) return std::nullopt;
  const bool in0 = contains(L.blocks, t.targets[0]), in1 = contains(L.blocks, t.targets[1]);
  if (in0 == in1) return std::nullopt;
  return HeaderExit{in0 ? t.targets[0] : t.targets[1], in0 ? t.targets[1] : t.targets[0]};
}

namespace {

using S = LoopControlRequest::Status;

// Full unrolling stops past these: the copies' operations, and header runs evaluated at compile time.
constexpr uint64_t kMaxUnrolledOps = 20000;
constexpr uint64_t kMaxHeaderRuns = 4096;

size_t opCount(const Kernel& k, const LoopInfo& L) {
  size_t n = 0;
  for (uint32_t b : L.blocks)
    n += k.blocks[b].ops.size();
  return n;
}

std::string why(const Kernel& k, uint32_t block, const std::string& what) {
  return fmt::format("{} (block {})", what, k.blocks[block].name);
}

// The most times the header can run in one invocation, found by evaluating one iteration at a time
// over the body's blocks in order: values folded from constants (the induction variable's start,
// step and bound), a branch on an unknown value taking both ways (a data-dependent `if` or `break`),
// a phi known when every live edge into it brings the same value. It ends when no back edge is live;
// propagateConstants folds the peeled copies the same way. nullopt and `reason` otherwise.
std::optional<uint64_t> constantHeaderRuns(const Kernel& k, const LoopInfo& L, std::string& reason) {
  const std::vector<uint32_t> entering = enteringPreds(k, L);
  const Succs succ = kernelSuccessors(k);
  // One iteration at a time, over the body's blocks in order.
  const std::vector<uint32_t> order = loopBodyOrder(succ, L);
  if (order.empty()) {
    reason = L.children.empty() ? "the loop body has irreducible control flow"
                                : "the loop contains another loop, whose trip count is not evaluated; unroll "
                                  "the inner loop, or use PartialCount N";
    return std::nullopt;
  }
  using Val = std::optional<uint64_t>;
  std::unordered_map<ValueId, uint64_t> val;
  auto known = [&](ValueId v) -> Val {
    if (k.ops[v].kind == OpKind::Const && k.ops[v].width() <= 64) return k.ops[v].imm;
    auto it = val.find(v);
    return it == val.end() ? std::nullopt : Val(it->second);
  };
  auto merge = [](std::optional<Val>& acc, Val x) { // nullopt acc: no entry yet
    if (!acc)
      acc = x;
    else if (*acc != x)
      acc = Val();
  };
  // The header phis' values on entry.
  std::vector<ValueId> headerPhis;
  for (ValueId v : k.blocks[L.header].ops)
    if (k.ops[v].kind == OpKind::Phi) headerPhis.push_back(v);
  std::vector<Val> incoming;
  for (ValueId v : headerPhis) {
    std::optional<Val> m;
    const Op& phi = k.ops[v];
    for (size_t i = 0; i < phi.phiBlocks.size(); ++i)
      if (std::find(entering.begin(), entering.end(), phi.phiBlocks[i]) != entering.end())
        merge(m, known(phi.operands[i]));
    incoming.push_back(m ? *m : Val());
  }
  std::set<std::pair<uint32_t, uint32_t>> live; // edges taken in this iteration
  for (uint64_t runs = 1; runs <= kMaxHeaderRuns; ++runs) {
    val.clear();
    live.clear();
    for (size_t i = 0; i < headerPhis.size(); ++i)
      if (incoming[i]) val[headerPhis[i]] = *incoming[i];
    bool backEdge = false;
    for (uint32_t b : order) {
      const bool reached =
          b == L.header || std::any_of(live.begin(), live.end(), [&](auto& e) { return e.second == b; });
      if (!reached) continue;
      for (ValueId v : k.blocks[b].ops) {
        const Op& op = k.ops[v];
        Val r;
        if (op.kind == OpKind::Phi) {
          if (b == L.header) continue;
          std::optional<Val> m;
          for (size_t i = 0; i < op.phiBlocks.size(); ++i)
            if (live.count({op.phiBlocks[i], b})) merge(m, known(op.operands[i]));
          if (m) r = *m;
        } else if (op.kind == OpKind::Select) {
          if (auto c = known(op.operands[0])) r = known(op.operands[*c & 1 ? 1 : 2]);
        } else {
          r = foldPure(k.ops, op, known);
        }
        if (r)
          val[v] = *r;
        else
          val.erase(v);
      }
      const Terminator& t = k.blocks[b].term;
      std::vector<uint32_t> taken;
      if (t.kind == Terminator::Kind::Branch) {
        taken = {t.targets[0]};
      } else if (t.kind == Terminator::Kind::CondBranch || t.kind == Terminator::Kind::Switch) {
        if (Val c = known(t.cond)) {
          taken = {branchTarget(t, *c)};
        } else {
          taken = t.targets;
        }
      } else if (t.kind == Terminator::Kind::Return) {
        reason = why(k, b, "the loop body returns");
        return std::nullopt;
      }
      for (uint32_t next : taken) {
        live.insert({b, next});
        backEdge = backEdge || next == L.header;
      }
    }
    if (!backEdge) return runs;
    for (size_t i = 0; i < headerPhis.size(); ++i) {
      std::optional<Val> m;
      const Op& phi = k.ops[headerPhis[i]];
      for (size_t e = 0; e < phi.phiBlocks.size(); ++e)
        if (live.count({phi.phiBlocks[e], L.header})) merge(m, known(phi.operands[e]));
      incoming[i] = m ? *m : Val();
    }
  }
  reason =
      fmt::format("the trip count is not known at compile time (no constant bound ends the loop within {} "
                  "iterations)",
                  kMaxHeaderRuns);
  return std::nullopt;
}

// `copies` copies of loop L chained: each copy's back edges lead to the next one's header. Peeling
// (wrap = false): the loop's entering edges lead to the first copy, the last copy's back edges to the
// original header. Unrolling (wrap = true): the original's back edges lead to the first copy, the
// last copy's to the original header.
std::vector<BlockCopy> chainCopies(Kernel& k, const LoopInfo& L, uint32_t copies, bool wrap,
                                   const std::string& tag) {
  const uint32_t H = L.header;
  const std::vector<uint32_t> entering = enteringPreds(k, L);
  std::vector<ValueId> headerPhis;
  for (ValueId v : k.blocks[H].ops)
    if (k.ops[v].kind == OpKind::Phi) headerPhis.push_back(v);
  // Each phi's value along the back edge from latch l.
  auto latchValue = [&](ValueId phi, uint32_t l) {
    const Op& op = k.ops[phi];
    for (size_t i = 0; i < op.phiBlocks.size(); ++i)
      if (op.phiBlocks[i] == l) return op.operands[i];
    throw InternalError(op.loc, "loop " + k.blocks[H].name, "header phi without an entry for a latch");
  };
  std::vector<std::vector<std::pair<uint32_t, ValueId>>> fromLatch(headerPhis.size());
  for (size_t i = 0; i < headerPhis.size(); ++i)
    for (uint32_t l : L.latches)
      fromLatch[i].push_back({l, latchValue(headerPhis[i], l)});

  std::vector<BlockCopy> cs;
  for (uint32_t c = 1; c <= copies; ++c) {
    cs.push_back(cloneBlocks(k, L.blocks, fmt::format(".{}{}", tag, c)));
    k.blocks[cs.back().block.at(H)].loopControls.reset(); // not a loop header any more
  }
  // Segment s runs copy s (segment 0: the original when unrolling); its back edges go to segment s+1.
  std::vector<const BlockCopy*> seg;
  BlockCopy identity;
  for (uint32_t b : L.blocks) {
    identity.block[b] = b;
    for (ValueId v : k.blocks[b].ops)
      identity.value[v] = v;
  }
  if (wrap) seg.push_back(&identity);
  for (const BlockCopy& c : cs)
    seg.push_back(&c);
  if (!wrap) seg.push_back(&identity);
  // Header phis of segment s+1 take segment s's values along segment s's back edges.
  for (size_t s = 0; s < seg.size(); ++s) {
    if (s + 1 == seg.size() && !wrap) break; // the original loop keeps its own back edges
    const BlockCopy& from = *seg[s];
    const BlockCopy& to = *seg[(s + 1) % seg.size()]; // unrolling: the last copy wraps to the original
    const bool toOriginal = &to == &identity;
    const uint32_t fromH = from.block.at(H), toH = to.block.at(H);
    for (uint32_t l : L.latches)
      retarget(k, from.block.at(l), fromH, toH);
    for (size_t i = 0; i < headerPhis.size(); ++i) {
      Op& phi = k.ops[to.value.at(headerPhis[i])];
      std::vector<ValueId> ops;
      std::vector<uint32_t> blocks;
      // The original header keeps its entries from outside when unrolling, its own back edges when
      // peeling; a copy's header is entered from the previous segment only.
      const std::vector<uint32_t>& kept = wrap ? entering : L.latches;
      for (size_t e = 0; e < phi.phiBlocks.size(); ++e)
        if (toOriginal && std::find(kept.begin(), kept.end(), phi.phiBlocks[e]) != kept.end()) {
          ops.push_back(phi.operands[e]);
          blocks.push_back(phi.phiBlocks[e]);
        }
      for (auto& [l, v] : fromLatch[i]) {
        auto it = from.value.find(v);
        ops.push_back(it == from.value.end() ? v : it->second);
        blocks.push_back(from.block.at(l));
      }
      phi.operands = std::move(ops);
      phi.phiBlocks = std::move(blocks);
    }
  }
  if (!wrap) {
    // Entering edges lead to the first copy, whose phis keep only their entries from outside; the
    // original header is entered only from the last copy.
    const uint32_t firstH = cs.front().block.at(H);
    for (uint32_t p : entering)
      retarget(k, p, H, firstH);
    keepPhiEntriesFrom(k, firstH, entering);
    std::vector<uint32_t> keep = L.latches;
    for (uint32_t l : L.latches)
      keep.push_back(cs.back().block.at(l));
    keepPhiEntriesFrom(k, H, keep);
  }
  repairSsa(k, cs);
  return cs;
}

// The outer loop O and its only child I become one loop with I's header (see the file comment).
// Returns why not, or "".
std::string coalescePair(Kernel& k, const LoopInfo& O, const LoopInfo& I) {
  const uint32_t HO = O.header;
  const Succs succ = kernelSuccessors(k);
  // R: the outer header and what runs before the inner loop.
  std::vector<uint32_t> R{HO};
  std::unordered_set<uint32_t> inR{HO};
  for (size_t i = 0; i < R.size(); ++i)
    for (uint32_t s : succ[R[i]]) {
      if (s == HO) return "a path through the outer loop does not run the inner loop";
      if (!contains(O.blocks, s) || contains(I.blocks, s) || inR.count(s)) continue;
      R.push_back(s);
      inR.insert(s);
    }
  for (uint32_t b : I.blocks)
    for (uint32_t s : succ[b])
      if (inR.count(s)) return "a path through the outer loop does not run the inner loop";
  std::sort(R.begin(), R.end());
  const std::vector<uint32_t> entering = enteringPreds(k, O);
  BlockCopy c = cloneBlocks(k, R, ".first");
  const uint32_t firstHO = c.block.at(HO);
  for (uint32_t p : entering)
    retarget(k, p, HO, firstHO);
  keepPhiEntriesFrom(k, firstHO, entering);
  keepPhiEntriesFrom(k, HO, O.latches);
  repairSsa(k, {c});
  return {};
}

const LoopInfo* loopWithHeader(const LoopForest& lf, uint32_t header) {
  for (const LoopInfo& L : lf.loops)
    if (L.header == header) return &L;
  return nullptr;
}

// A copy's header whose exit test a hint decides: it branches to `to` only.
void decideHeader(Kernel& k, uint32_t header, uint32_t to, uint32_t notTaken) {
  Terminator& t = k.blocks[header].term;
  t.kind = Terminator::Kind::Branch;
  t.cond = kNone;
  t.targets = {to};
  dropPhiEntries(k, notTaken, header);
}

const char* const kHints[] = {"MinIterations", "MaxIterations", "IterationMultiple"};
const char* const kUnrolling[] = {"Unroll", "PartialCount", "PeelCount", "DontUnroll"};

uint64_t valueOf(const LoopControlRequest& r) {
  return std::stoull(r.value);
}

// Unroll, PartialCount and PeelCount of the deepest loop still asking, with the hints MinIterations
// (PeelCount: the first peeled copies need no exit test), MaxIterations (Unroll of a trip count
// known only at run time: that many copies, each with its exit test, and no loop) and
// IterationMultiple (PartialCount N, N dividing it: only the first copy tests the exit); each hint
// applies to a loop that leaves only from its header. False when no loop asks.
bool unrollOne(Kernel& k, const LoopForest& lf) {
  const LoopInfo* pick = nullptr;
  for (const LoopInfo& L : lf.loops) {
    bool asks = false;
    for (const char* c : kUnrolling)
      asks = asks || pendingRequest(k, L.header, c);
    for (const char* c : kHints)
      asks = asks || pendingRequest(k, L.header, c);
    if (asks && (!pick || L.depth > pick->depth)) pick = &L;
  }
  if (!pick) return false;
  const LoopInfo L = *pick;
  const uint32_t H = L.header;
  const std::string name = k.blocks[H].name;
  const SourceLoc loc = k.blocks[H].term.loc;
  auto record = [&](std::string control, std::string what) {
    k.loopTransforms.push_back(LoopTransform{name, loc, std::move(control), std::move(what)});
  };
  const std::string blocked = loopsOfCalls(k, L);
  const std::optional<HeaderExit> hx = headerOnlyExit(k, L);
  auto tooBig = [&](uint64_t copies) { return copies * opCount(k, L) > kMaxUnrolledOps; };
  const std::string bigNote = fmt::format("more copies than {} operations", kMaxUnrolledOps);
  if (auto* r = pendingRequest(k, H, "DontUnroll")) settle(*r, S::Honoured, "not unrolled");
  if (auto* r = pendingRequest(k, H, "PeelCount")) {
    const uint64_t n = valueOf(*r);
    if (!blocked.empty())
      settle(*r, S::Ignored, blocked);
    else if (tooBig(n))
      settle(*r, S::Ignored, bigNote);
    else if (n == 0)
      settle(*r, S::Honoured, "nothing to peel");
    else {
      settle(*r, S::Honoured, fmt::format("{} iteration(s) run before the loop", n));
      const std::vector<BlockCopy> cs = chainCopies(k, L, uint32_t(n), false, "peel");
      std::string what = fmt::format("{} {} of the body before the loop", n, n == 1 ? "copy" : "copies");
      if (auto* m = pendingRequest(k, H, "MinIterations"); m && hx) {
        const uint64_t sure = std::min(n, valueOf(*m));
        for (uint64_t c = 0; c < sure; ++c)
          decideHeader(k, cs[c].block.at(H), cs[c].block.at(hx->inside), hx->outside);
        detachUnreachable(k);
        settle(*m, S::Honoured, fmt::format("the first {} peeled copies test no exit", sure));
        what += fmt::format(", the first {} without an exit test (MinIterations {})", sure, m->value);
      }
      record("PeelCount " + r->value, what);
      return true; // the loop's blocks are the same; find them again for what else it asks
    }
  }
  auto* partial = pendingRequest(k, H, "PartialCount");
  auto* full = pendingRequest(k, H, "Unroll");
  if (partial) {
    const uint64_t n = valueOf(*partial);
    if (full) settle(*full, S::Ignored, "PartialCount " + partial->value + " given as well; it decides");
    if (n <= 1)
      settle(*partial, S::Honoured, "not unrolled");
    else if (!blocked.empty())
      settle(*partial, S::Ignored, blocked);
    else if (tooBig(n))
      settle(*partial, S::Ignored, bigNote);
    else {
      const std::vector<BlockCopy> cs = chainCopies(k, L, uint32_t(n - 1), true, "unroll");
      std::string what = fmt::format("{} copies of the body per iteration", n);
      auto* im = pendingRequest(k, H, "IterationMultiple");
      if (im && hx && valueOf(*im) % n == 0) {
        for (const BlockCopy& c : cs)
          decideHeader(k, c.block.at(H), c.block.at(hx->inside), hx->outside);
        settle(*im, S::Honoured, fmt::format("a multiple of {}: only the first copy tests the exit", n));
        what += fmt::format(", only the first testing the exit (IterationMultiple {})", im->value);
      } else {
        what += ", each with the loop's exit test";
      }
      settle(*partial, S::Honoured, what);
      record("PartialCount " + partial->value, what);
    }
  } else if (full) {
    std::string reason = blocked;
    std::optional<uint64_t> runs;
    if (reason.empty()) runs = constantHeaderRuns(k, L, reason);
    bool bounded = false; // by MaxIterations, the exits kept
    auto* most = pendingRequest(k, H, "MaxIterations");
    if (!runs && blocked.empty() && most && hx) {
      runs = valueOf(*most) + 1;
      bounded = true;
    }
    if (runs && tooBig(*runs)) {
      reason = bigNote;
      runs.reset();
    }
    if (!runs) {
      settle(*full, S::Ignored, "not fully unrolled: " + reason + "; PartialCount N unrolls any loop");
      k.diagnostics.push_back(Diagnostic{Diagnostic::Severity::Warning, loc, "loop " + name,
                                         "full unrolling requested but not done: " + reason +
                                             "; the loop stays (PartialCount N unrolls any loop)"});
    } else {
      const std::vector<BlockCopy> cs = chainCopies(k, L, uint32_t(*runs), false, "unroll");
      if (bounded) {
        // The header's last copy runs after MaxIterations iterations: it always leaves.
        decideHeader(k, cs.back().block.at(H), hx->outside, cs.back().block.at(hx->inside));
        settle(*most, S::Honoured, fmt::format("{} copies, each testing the exit, and no loop", *runs));
      }
      propagateConstants(k);
      const bool gone = k.blocks[H].term.kind == Terminator::Kind::Unreachable;
      const std::string what =
          gone ? fmt::format("fully unrolled: {} copies of the header and body{}, no loop left", *runs,
                             bounded ? " (MaxIterations " + most->value + ")" : "")
               : fmt::format("{} iterations peeled, but the loop did not fold away", *runs);
      settle(*full, gone ? S::Honoured : S::Ignored, what);
      record("Unroll", what);
      if (!gone)
        k.diagnostics.push_back(Diagnostic{Diagnostic::Severity::Warning, loc, "loop " + name,
                                           "fully unrolled copies were made but the loop did not fold away"});
    }
  }
  // Hints nothing used (the loop is gone when fully unrolled: its requests with it).
  if (k.blocks[H].term.kind != Terminator::Kind::Unreachable)
    for (const char* c : kHints)
      if (auto* r = pendingRequest(k, H, c))
        settle(
            *r, S::Ignored,
            hx ? "a hint for unrolling: used with PeelCount (MinIterations), Unroll of a run-time trip count "
                 "(MaxIterations) or PartialCount dividing it (IterationMultiple)"
               : "a hint for unrolling, used only on a loop that leaves from its header alone");
  return true;
}

// LoopCoalesceINTEL of the outermost loop still asking; false when none asks.
bool coalesceOne(Kernel& k, const LoopForest& lf) {
  const LoopInfo* pick = nullptr;
  for (const LoopInfo& L : lf.loops)
    if (pendingRequest(k, L.header, "LoopCoalesceINTEL") && (!pick || L.depth < pick->depth)) pick = &L;
  if (!pick) return false;
  LoopControlRequest& r = *pendingRequest(k, pick->header, "LoopCoalesceINTEL");
  const uint32_t asked = static_cast<uint32_t>(std::stoul(r.value));
  const std::string name = k.blocks[pick->header].name;
  const SourceLoc loc = k.blocks[pick->header].term.loc;
  // The chain of single children below the loop, as deep as asked (0: all levels).
  std::vector<uint32_t> headers{pick->header};
  std::string stop;
  for (const LoopInfo* L = pick; asked == 0 || headers.size() < asked;) {
    if (L->children.size() != 1) {
      if (L->children.size() > 1)
        stop = fmt::format("loop {} contains {} loops side by side", k.blocks[L->header].name,
                           L->children.size());
      break;
    }
    L = &lf.loops[L->children[0]];
    headers.push_back(L->header);
  }
  if (headers.size() < 2) {
    settle(r, S::Ignored, stop.empty() ? "no inner loop to coalesce" : stop);
    return true;
  }
  for (uint32_t h : headers) {
    std::string blocked = loopsOfCalls(k, *loopWithHeader(lf, h));
    if (!blocked.empty()) {
      settle(r, S::Ignored, blocked);
      return true;
    }
  }
  // Bottom-up: the deepest pair first, then its result with the next level out.
  LoopControlRequest req = r;
  size_t done = 1;
  std::string reason;
  for (size_t i = headers.size() - 1; i-- > 0;) {
    const LoopForest now = findLoops(k);
    const LoopInfo* outer = loopWithHeader(now, headers[i]);
    const LoopInfo* inner = loopWithHeader(now, headers.back());
    if (!outer || !inner || outer->children.size() != 1 || &now.loops[outer->children[0]] != inner) {
      reason = "the nest changed shape";
      break;
    }
    reason = coalescePair(k, *outer, *inner);
    if (!reason.empty()) break;
    moveControls(k, headers[i], headers.back());
    ++done;
  }
  const uint32_t H = headers.back();
  LoopControlRequest* moved = pendingRequest(k, H, "LoopCoalesceINTEL");
  LoopControlRequest& out = moved ? *moved : r;
  if (done < 2) {
    settle(out, S::Ignored, "not coalesced: " + reason);
    return true;
  }
  settle(out, S::Honoured,
         fmt::format("{} levels coalesced into loop {}{}", done, k.blocks[H].name,
                     done < headers.size() ? "; the next level not: " + reason : ""));
  k.loopTransforms.push_back(
      LoopTransform{name, loc, "LoopCoalesceINTEL " + req.value,
                    fmt::format("{} nested levels became one loop (header {}); each "
                                "iteration is one inner iteration or one step to the next "
                                "inner loop's start",
                                done, k.blocks[H].name)});
  return true;
}

} // namespace

bool transformLoops(Kernel& k, const LoopForest& first) {
  bool asked = false;
  for (const LoopInfo& L : first.loops) {
    for (const char* c : kUnrolling)
      asked = asked || pendingRequest(k, L.header, c);
    for (const char* c : kHints)
      asked = asked || pendingRequest(k, L.header, c);
    asked = asked || pendingRequest(k, L.header, "LoopCoalesceINTEL");
  }
  if (!asked) return false;
  bool any = false;
  detachUnreachable(k);
  LoopForest lf = first;
  while (unrollOne(k, lf)) {
    any = true;
    lf = findLoops(k);
  }
  while (coalesceOne(k, lf)) {
    any = true;
    lf = findLoops(k);
  }
  return any;
}

} // namespace spvhls::ir::lower
