// Loop extraction: an innermost loop is if-converted into an ir::Loop (a DAG of
// predicated operations per iteration) and replaced in the CFG by one block holding its LoopCall, which
// switches on the exit the last iteration took when the loop has several exit targets.
//
// If-conversion: the header's predicate is "true"; every other block's predicate is the OR of its
// incoming edges' predicates (predecessor predicate AND branch condition), or its immediate
// dominator's predicate when it post-dominates it within the iteration (control equivalence, which
// keeps predicates small for if/else diamonds). Phis become selects on edge predicates; header phis
// become LoopPhis; loads and stores get their block's predicate.
#include <algorithm>
#include <bit>
#include <map>

#include <fmt/format.h>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

Op standIn(const Op& from, OpKind kind, uint32_t index) {
  Op op;
  op.kind = kind;
  op.type = from.type;
  op.index = index;
  op.name = from.name;
  op.spirvId = from.spirvId;
  op.loc = from.loc;
  return op;
}

namespace {

class Extractor {
public:
  // allowCalls: an outer loop whose inner loops are pipelined already (their LoopCall blocks become
  // LoopCall operations of its body: sub-pipelines).
  Extractor(Kernel& k, const LoopInfo& L, const std::vector<int>& idom, const Succs& succ,
            bool allowCalls = false)
      : k_(k), L_(L), idom_(idom), succ_(succ), allowCalls_(allowCalls), lb_(loop_.ops, nullptr) {
    in_.assign(k.blocks.size(), 0);
    for (uint32_t b : L.blocks) in_[b] = 1;
  }

  // Why the loop cannot be extracted, or "" if it can.
  std::string check() {
    std::vector<uint32_t> exits;
    for (uint32_t b : L_.blocks)
      for (uint32_t s : succ_[b])
        if (!inLoop(s) && std::find(exits.begin(), exits.end(), s) == exits.end()) exits.push_back(s);
    if (exits.empty()) return "the loop never exits";
    exits_ = exits;
    for (uint32_t b : L_.blocks)
      for (uint32_t s : succ_[b])
        if (!inLoop(s)) (b == L_.header ? loop_.exitsFromHeader : loop_.exitsFromBody) = true;
    // An innermost loop: a cycle left without the back edges means irreducible flow.
    order_ = loopBodyOrder(succ_, L_);
    if (order_.empty())
      return "the loop body has irreducible control flow (a cycle not entered through the header)";
    for (uint32_t b : L_.blocks)
      for (ValueId v : k_.blocks[b].ops)
        if (k_.ops[v].kind == OpKind::LoopCall) {
          if (!allowCalls_) return "the loop body calls a pipelined loop";
          if (std::string why = subPipelineProblem(k_.ops[v].index); !why.empty()) return why;
        } else if (k_.ops[v].kind == OpKind::Call)
          return fmt::format("the loop body calls {}, a shared function (--inline always inlines it)",
                             k_.functions[k_.ops[v].index].name);
        else if (k_.ops[v].kind == OpKind::TaskRelease)
          return fmt::format("the loop body releases task sequence {}, which waits for the task", 
                             k_.processes.at(k_.ops[v].index).name);
    return {};
  }

  void extract() {
    const uint32_t loopIndex = static_cast<uint32_t>(k_.loops.size());
    const BasicBlock& header = k_.blocks[L_.header];
    loop_.name = header.name;
    loop_.loc = header.term.loc;
    loop_.depth = L_.depth;
    loop_.tripCountHint = L_.tripCountHint;
    if (header.loopControls) loop_.controls = *header.loopControls;

    // The block replacing the loop in the CFG: takes the header's outside edges.
    call_ = static_cast<uint32_t>(k_.blocks.size());
    BasicBlock cb;
    cb.name = header.name + ".loop";
    cb.loopCall = loopIndex;
    // Several exit targets: the call block switches on the one the last iteration took (makeExitCode).
    cb.term.kind = exits_.size() == 1 ? Terminator::Kind::Branch : Terminator::Kind::Switch;
    cb.term.targets = exits_;
    for (uint64_t i = 1; i < exits_.size(); ++i)
      cb.term.caseValues.push_back(i);
    cb.term.loc = header.term.loc;
    k_.blocks.push_back(std::move(cb));
    std::vector<uint32_t> outsidePreds;
    for (uint32_t p = 0; p < k_.blocks.size(); ++p)
      if (!inLoop(p))
        for (uint32_t& t : k_.blocks[p].term.targets)
          if (t == L_.header) {
            t = call_;
            if (std::find(outsidePreds.begin(), outsidePreds.end(), p) == outsidePreds.end())
              outsidePreds.push_back(p);
          }

    makeLoopPhis(outsidePreds);
    Op call;
    call.kind = OpKind::LoopCall;
    call.index = loopIndex;
    call.block = call_;
    call.loc = loop_.loc;
    call.name = loop_.name;
    callOp_ = addKernelOp(std::move(call));

    computeControlEquivalence();
    for (uint32_t b : order_) convertBlock(b);
    finishPhis();
    for (uint32_t e : exits_)
      makeExitValues(e);
    if (exits_.size() > 1) makeExitCode();
    replaceOutsideUses();
    k_.ops[callOp_].operands = loop_.liveIns;
    takeLiveInsFromCalls(k_, loop_);
    k_.loops.push_back(std::move(loop_));
  }

private:
  Kernel& k_;
  const LoopInfo& L_;
  const std::vector<int>& idom_;
  const Succs& succ_;
  const bool allowCalls_;
  Loop loop_;
  Builder lb_;
  std::vector<uint8_t> in_;
  std::vector<uint32_t> exits_; // targets of the loop's exit edges
  uint32_t call_ = 0;
  ValueId callOp_ = kNone;
  std::vector<uint32_t> order_;
  std::unordered_map<uint32_t, ValueId> pred_;        // block -> predicate (kNone = true)
  std::map<std::pair<uint32_t, uint32_t>, ValueId> edgePreds_;
  std::unordered_map<ValueId, ValueId> vmap_;         // kernel value -> loop value
  std::unordered_map<ValueId, uint32_t> liveInIndex_; // kernel value -> Loop::liveIns index
  std::unordered_map<uint32_t, ValueId> liveInOp_;    // liveIns index -> LiveIn op
  std::unordered_map<ValueId, ValueId> loopOuts_;     // kernel value in the loop -> LoopOut op
  std::vector<uint32_t> equivalentTo_;                // block -> block with the same predicate
  std::vector<std::pair<ValueId, uint32_t>> headerPhis_; // kernel phi, LoopPhi index
  std::vector<uint32_t> depths_;                         // depth() of loop ops, in order

  bool inLoop(uint32_t block) const { return block < in_.size() && in_[block]; }

  // Why inner loop `l` (with the loops it calls) cannot run as a sub-pipeline, or "".
  std::string subPipelineProblem(uint32_t l) const {
    for (const Op& op : k_.loops[l].ops) {
      if ((op.kind == OpKind::Load || op.kind == OpKind::Store) &&
          k_.memories[op.memory].kind == Memory::Kind::Queue)
        return fmt::format(
            "inner loop {} uses a task sequence's queue (not built inside a pipelined outer loop yet)",
            k_.loops[l].name);
      if (op.kind == OpKind::LoopCall)
        if (std::string why = subPipelineProblem(op.index); !why.empty()) return why;
    }
    return {};
  }

  ValueId addKernelOp(Op op) {
    ValueId v = static_cast<ValueId>(k_.ops.size());
    k_.blocks[op.block].ops.push_back(v);
    k_.ops.push_back(std::move(op));
    return v;
  }

  uint32_t liveIn(ValueId outer) {
    auto it = liveInIndex_.find(outer);
    if (it != liveInIndex_.end()) return it->second;
    uint32_t i = static_cast<uint32_t>(loop_.liveIns.size());
    loop_.liveIns.push_back(outer);
    return liveInIndex_[outer] = i;
  }

  // The loop value for a kernel value used in the body.
  ValueId get(ValueId v) {
    if (auto it = vmap_.find(v); it != vmap_.end()) return it->second;
    const Op& op = k_.ops[v];
    if (inLoop(op.block))
      throw InternalError(op.loc, "loop " + loop_.name,
                          fmt::format("value #{} used before its definition in the loop", v));
    if (op.kind == OpKind::Const) return vmap_[v] = lb_.constant(op.width(), op.imm);
    if (op.kind == OpKind::Undef) return vmap_[v] = lb_.undef(op.width());
    uint32_t i = liveIn(v);
    if (auto it = liveInOp_.find(i); it != liveInOp_.end()) return vmap_[v] = it->second;
    return vmap_[v] = liveInOp_[i] = lb_.emit(standIn(op, OpKind::LiveIn, i));
  }

  void makeLoopPhis(const std::vector<uint32_t>& outsidePreds) {
    for (ValueId v : k_.blocks[L_.header].ops) {
      const Op phi = k_.ops[v]; // a copy: addKernelOp below may move k_.ops
      if (phi.kind != OpKind::Phi) break;
      // The value before the first iteration: merged in the call block if the header had several
      // outside predecessors bringing different values.
      std::vector<ValueId> vals;
      std::vector<uint32_t> preds;
      for (size_t i = 0; i < phi.operands.size(); ++i)
        if (!inLoop(phi.phiBlocks[i])) {
          vals.push_back(phi.operands[i]);
          preds.push_back(phi.phiBlocks[i]);
        }
      ValueId init = vals.empty() ? kNone : vals[0];
      if (std::any_of(vals.begin(), vals.end(), [&](ValueId x) { return x != vals[0]; })) {
        Op merged;
        merged.kind = OpKind::Phi;
        merged.type = phi.type;
        merged.operands = vals;
        merged.phiBlocks = preds;
        merged.block = call_;
        merged.name = phi.name;
        merged.loc = phi.loc;
        init = addKernelOp(std::move(merged));
      }
      if (init == kNone) { // no outside edge carries a value (cannot happen for a reachable header)
        Op u;
        u.kind = OpKind::Undef;
        u.type = phi.type;
        u.block = call_;
        init = addKernelOp(std::move(u));
      }
      LoopPhi lp;
      lp.name = phi.name;
      lp.type = phi.type;
      lp.initLiveIn = liveIn(init);
      const uint32_t index = static_cast<uint32_t>(loop_.phis.size());
      loop_.phis.push_back(lp);
      vmap_[v] = lb_.emit(standIn(phi, OpKind::LoopPhi, index));
      headerPhis_.push_back({v, index});
    }
  }

  // equivalentTo_[b] = idom(b) when b post-dominates idom(b) inside one iteration: both then execute
  // in exactly the same iterations.
  void computeControlEquivalence() {
    std::unordered_map<uint32_t, uint32_t> local;
    for (uint32_t i = 0; i < order_.size(); ++i) local[order_[i]] = i;
    const uint32_t sink = static_cast<uint32_t>(order_.size());
    Succs rev(order_.size() + 1);
    for (uint32_t b : order_)
      for (uint32_t s : succ_[b]) {
        uint32_t to = inLoop(s) && s != L_.header ? local[s] : sink; // back and exit edges end the iteration
        rev[to].push_back(local[b]);
      }
    std::vector<int> ipdom = immediateDominators(rev, sink);
    equivalentTo_.assign(k_.blocks.size(), UINT32_MAX);
    for (uint32_t b : order_) {
      if (b == L_.header || idom_[b] < 0) continue;
      const uint32_t d = static_cast<uint32_t>(idom_[b]);
      if (dominates(ipdom, local[b], local[d])) equivalentTo_[b] = d;
    }
  }

  ValueId edgeCond(uint32_t from, uint32_t to) {
    const Terminator& t = k_.blocks[from].term;
    switch (t.kind) {
    case Terminator::Kind::CondBranch: {
      const bool onTrue = t.targets[0] == to, onFalse = t.targets[1] == to;
      if (onTrue && onFalse) return kNone;
      ValueId c = get(t.cond);
      return onTrue ? c : lb_.predNot(c);
    }
    case Terminator::Kind::Switch: {
      ValueId sel = get(t.cond);
      const uint32_t w = lb_.width(sel);
      const bool isDefault = t.targets[0] == to;
      ValueId any = lb_.constant(1, 0);
      for (size_t i = 1; i < t.targets.size(); ++i)
        if ((t.targets[i] == to) != isDefault)
          any = lb_.predOr(any, lb_.binary(OpKind::Eq, sel, lb_.constant(w, t.caseValues[i - 1])));
      // Default: taken when no case leading elsewhere matches.
      return isDefault ? lb_.predNot(any) : any;
    }
    default:
      return kNone;
    }
  }

  ValueId edgePred(uint32_t from, uint32_t to) {
    auto key = std::make_pair(from, to);
    if (auto it = edgePreds_.find(key); it != edgePreds_.end()) return it->second;
    return edgePreds_[key] = lb_.predAnd(pred_.at(from), edgeCond(from, to));
  }

  // A select chain choosing among `vals` by mutually exclusive conditions (the last is the default).
  // Edges bringing the same value share one select (their conditions ORed).
  // Operations on the longest path from the iteration's inputs to a body value (wires count none).
  uint32_t depth(ValueId v) {
    for (; depths_.size() < loop_.ops.size();) {
      const Op& op = loop_.ops[depths_.size()];
      uint32_t d = 0;
      for (ValueId o : op.operands)
        if (o != kNone && o < depths_.size()) d = std::max(d, depths_[o]);
      const bool wire = op.kind == OpKind::Const || op.kind == OpKind::LiveIn || op.kind == OpKind::LoopPhi ||
                        op.kind == OpKind::Undef || op.kind == OpKind::ZExt || op.kind == OpKind::SExt ||
                        op.kind == OpKind::Trunc || op.kind == OpKind::Extract || op.kind == OpKind::Concat;
      depths_.push_back(d + (wire ? 0 : 1));
    }
    return v == kNone ? 0 : depths_[v];
  }

  ValueId selectChain(const std::vector<ValueId>& conds, const std::vector<ValueId>& vals) {
    std::vector<ValueId> distinct, merged;
    for (size_t i = 0; i < vals.size(); ++i) {
      auto it = std::find(distinct.begin(), distinct.end(), vals[i]);
      if (it == distinct.end()) {
        distinct.push_back(vals[i]);
        merged.push_back(conds[i]);
      } else {
        ValueId& c = merged[static_cast<size_t>(it - distinct.begin())];
        c = lb_.predOr(c, conds[i]);
      }
    }
    // At most one condition holds (one edge into a block is taken, or none when the block does not
    // run and its value is unused), so the order is free: the deepest condition goes last, where it is
    // not tested. Through a loop phi this keeps recurrences short (a coalesced nest's inner index: the
    // inner loop's own test decides, not the outer step's longer one).
    std::vector<size_t> order(distinct.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return depth(merged[a]) < depth(merged[b]); });
    std::vector<ValueId> d2, m2;
    for (size_t i : order) {
      d2.push_back(distinct[i]);
      m2.push_back(merged[i]);
    }
    distinct = std::move(d2);
    merged = std::move(m2);
    ValueId r = distinct.back();
    for (size_t i = distinct.size() - 1; i-- > 0;)
      r = merged[i] == kNone ? distinct[i] : lb_.select(merged[i], distinct[i], r);
    return r;
  }

  void convertBlock(uint32_t b) {
    if (b == L_.header) {
      pred_[b] = kNone;
    } else if (equivalentTo_[b] != UINT32_MAX) {
      pred_[b] = pred_.at(equivalentTo_[b]);
    } else {
      ValueId p = lb_.constant(1, 0);
      for (uint32_t q : L_.blocks)
        if (q != b && std::find(succ_[q].begin(), succ_[q].end(), b) != succ_[q].end())
          p = lb_.predOr(p, edgePred(q, b));
      pred_[b] = p;
    }
    for (ValueId v : k_.blocks[b].ops) {
      const Op& op = k_.ops[v];
      if (op.kind == OpKind::Phi) {
        if (b == L_.header) continue; // LoopPhis, made first
        std::vector<ValueId> conds, vals;
        for (size_t i = 0; i < op.operands.size(); ++i) {
          conds.push_back(edgePred(op.phiBlocks[i], b));
          vals.push_back(get(op.operands[i]));
        }
        vmap_[v] = vals.empty() ? lb_.undef(op.width()) : selectChain(conds, vals);
        continue;
      }
      if (op.kind == OpKind::TaskAsync || op.kind == OpKind::TaskGet) {
        vmap_[v] = queueAccess(op, pred_[b]);
        continue;
      }
      Op copy = op;
      copy.block = 0;
      for (ValueId& o : copy.operands) o = o == kNone ? kNone : get(o);
      if (op.kind == OpKind::Load) copy.operands[1] = pred_[b];
      if (op.kind == OpKind::Store) copy.operands[2] = pred_[b];
      // An inner loop run by this body: its live-ins, then its predicate; the results are expected
      // kSubPipelineLatency cycles after the start (the pipeline waits when they come later).
      if (op.kind == OpKind::LoopCall) {
        copy.operands.push_back(pred_[b]);
        copy.imm = kSubPipelineLatency;
      }
      vmap_[v] = lb_.emit(std::move(copy));
    }
  }

  // A task operation in a pipelined loop is an access to the task's queue (Memory::Kind::Queue): an
  // async stores its arguments end to end, a get loads a result (predicated as any access).
  ValueId queueAccess(const Op& op, ValueId pred) {
    const bool pop = op.kind == OpKind::TaskGet;
    const Process& p = k_.processes.at(op.index);
    uint32_t m = 0;
    while (m < k_.memories.size() &&
           !(k_.memories[m].kind == Memory::Kind::Queue && k_.memories[m].queueProcess == op.index &&
             k_.memories[m].queueResults == pop))
      ++m;
    const Type entry = k_.channels[pop ? p.result : p.invocation].element;
    const uint32_t bytes = std::bit_ceil((entry.width() + 7) / 8);
    if (bytes > kMaxAccessBytes)
      throw DiagnosticError(op.loc, "task sequence " + p.name,
                            fmt::format("an async inside a pipelined loop passes {} bits of arguments; at most {} "
                                        "fit one request",
                                        entry.width(), 8 * kMaxAccessBytes));
    if (m == k_.memories.size()) {
      Memory q;
      q.kind = Memory::Kind::Queue;
      q.name = fmt::format("{}.{}", p.name, pop ? "results" : "invocations");
      q.queueProcess = op.index;
      q.queueResults = pop;
      q.elemBytes = bytes;
      k_.memories.push_back(std::move(q));
    }
    Op access;
    access.kind = pop ? OpKind::Load : OpKind::Store;
    access.memory = m;
    access.size = static_cast<uint8_t>(bytes);
    access.loc = op.loc;
    access.name = op.name;
    access.spirvId = op.spirvId;
    access.operands.push_back(lb_.constant(64, 0));
    if (pop) {
      access.type = Type::bits(8 * bytes);
      access.operands.push_back(pred);
      const ValueId loaded = lb_.emit(std::move(access));
      return op.type.isNone() ? loaded : lb_.resize(loaded, op.width(), false);
    }
    // The data: the arguments, the first lowest, padded with zeros to the access's bits.
    std::vector<ValueId> parts;
    uint32_t bits = 0;
    for (ValueId o : op.operands) {
      parts.push_back(get(o));
      bits += k_.ops[o].width();
    }
    for (; bits < 8 * bytes; bits += std::min<uint32_t>(64, 8 * bytes - bits))
      parts.push_back(lb_.constant(std::min<uint32_t>(64, 8 * bytes - bits), 0));
    access.operands.push_back(parts.size() == 1 ? parts[0] : lb_.concat(parts));
    access.operands.push_back(pred);
    return lb_.emit(std::move(access));
  }

  // LoopPhi next values and the continue condition.
  void finishPhis() {
    ValueId cont = lb_.constant(1, 0);
    for (uint32_t l : L_.latches) cont = lb_.predOr(cont, edgePred(l, L_.header));
    loop_.continueCond = cont == kNone ? lb_.constant(1, 1) : cont;
    for (auto& [phiV, index] : headerPhis_) {
      const Op& phi = k_.ops[phiV];
      std::vector<ValueId> conds, vals;
      for (size_t i = 0; i < phi.operands.size(); ++i)
        if (inLoop(phi.phiBlocks[i])) {
          conds.push_back(edgePred(phi.phiBlocks[i], L_.header));
          vals.push_back(get(phi.operands[i]));
        }
      loop_.phis[index].next = selectChain(conds, vals);
    }
  }

  ValueId loopOut(ValueId inner, ValueId kernelValue) {
    if (auto it = loopOuts_.find(kernelValue); kernelValue != kNone && it != loopOuts_.end())
      return it->second;
    const uint32_t index = static_cast<uint32_t>(loop_.liveOuts.size());
    loop_.liveOuts.push_back(inner);
    Op out;
    out.kind = OpKind::LoopOut;
    out.type = lb_.op(inner).type;
    out.index = index;
    out.operands = {callOp_};
    out.block = call_;
    out.loc = loop_.loc;
    if (kernelValue != kNone) {
      out.name = k_.ops[kernelValue].name;
      out.spirvId = k_.ops[kernelValue].spirvId;
    }
    ValueId v = addKernelOp(std::move(out));
    if (kernelValue != kNone) loopOuts_[kernelValue] = v;
    return v;
  }

  // Phis of the exit block: their entries from inside the loop become one entry from the call block,
  // a select on the exit edges' predicates computed in the last iteration.
  // Which exit target the last iteration took, by its index in exits_: the call block's switch.
  void makeExitCode() {
    std::vector<ValueId> conds, vals;
    for (uint32_t b : order_)
      for (uint32_t s : succ_[b])
        if (auto it = std::find(exits_.begin(), exits_.end(), s); it != exits_.end()) {
          conds.push_back(edgePred(b, s));
          vals.push_back(lb_.constant(32, uint64_t(it - exits_.begin())));
        }
    const ValueId code = loopOut(selectChain(conds, vals), kNone);
    k_.ops[code].name = loop_.name + ".exit";
    k_.blocks[call_].term.cond = code;
  }

  void makeExitValues(uint32_t exit) {
    for (ValueId v : k_.blocks[exit].ops) {
      // A copy: loopOut below adds kernel ops, which may move k_.ops (a reference would dangle).
      const Op phi = k_.ops[v];
      if (phi.kind != OpKind::Phi) break;
      std::vector<ValueId> conds, vals, outerVals;
      std::vector<ValueId> keptOps;
      std::vector<uint32_t> keptBlocks;
      for (size_t i = 0; i < phi.operands.size(); ++i) {
        if (inLoop(phi.phiBlocks[i])) {
          conds.push_back(edgePred(phi.phiBlocks[i], exit));
          vals.push_back(get(phi.operands[i]));
          outerVals.push_back(phi.operands[i]);
        } else {
          keptOps.push_back(phi.operands[i]);
          keptBlocks.push_back(phi.phiBlocks[i]);
        }
      }
      if (vals.empty()) continue;
      ValueId value;
      const bool same = std::all_of(outerVals.begin(), outerVals.end(), [&](ValueId x) { return x == outerVals[0]; });
      if (same && !inLoop(k_.ops[outerVals[0]].block)) value = outerVals[0]; // defined before the loop
      else if (same) value = loopOut(get(outerVals[0]), outerVals[0]);
      else value = loopOut(selectChain(conds, vals), kNone);
      keptOps.push_back(value);
      keptBlocks.push_back(call_);
      k_.ops[v].operands = std::move(keptOps);
      k_.ops[v].phiBlocks = std::move(keptBlocks);
    }
  }

  // Any other use of a loop value after the loop reads the value of the last iteration.
  void replaceOutsideUses() {
    // An inner loop's result (a LoopOut of a call block inside an outer loop being extracted) is a
    // body value like any other.
    auto fix = [&](ValueId& o) {
      if (o == kNone || !inLoop(k_.ops[o].block)) return;
      o = loopOut(get(o), o);
    };
    for (uint32_t b = 0; b < k_.blocks.size(); ++b) {
      if (inLoop(b) || b == call_) continue;
      for (ValueId v : k_.blocks[b].ops) {
        // A loop extracted before (in an earlier round of extractOuterLoops) takes its live-ins from
        // its call; not from a dead call block's, whose loop an outer body runs now.
        const bool liveCall =
            k_.ops[v].kind == OpKind::LoopCall && k_.loops[k_.ops[v].index].liveIns == k_.ops[v].operands;
        for (size_t i = 0; i < k_.ops[v].operands.size(); ++i) {
          ValueId o = k_.ops[v].operands[i];
          fix(o); // may add kernel ops: no reference into k_.ops is held across it
          k_.ops[v].operands[i] = o;
        }
        if (liveCall) k_.loops[k_.ops[v].index].liveIns = k_.ops[v].operands;
      }
      fix(k_.blocks[b].term.cond);
    }
  }
};

// Marks a loop left in the CFG: its reason, and the controls only a pipelined loop honours.
void markNotPipelined(Kernel& k, uint32_t header, const std::string& reason) {
  BasicBlock& h = k.blocks[header];
  h.notPipelinedReason = reason;
  if (!h.loopControls) return;
  // Controls that only a pipelined loop can honour (the loop transformations, interleaving and
  // fusion were decided before and stay as they are).
  static const char* const kPipelineControls[] = {
      "InitiationIntervalINTEL", "MaxConcurrencyINTEL", "DependencyArrayINTEL",     "DependencyInfinite",
      "DependencyLength",        "PipelineEnableINTEL", "SpeculatedIterationsINTEL"};
  for (auto& r : h.loopControls->requests) {
    if (r.status != LoopControlRequest::Status::Honoured ||
        std::find(std::begin(kPipelineControls), std::end(kPipelineControls), r.name) ==
            std::end(kPipelineControls))
      continue;
    // The FSM runs one iteration at a time: what a serial loop asks for, it gets.
    if ((r.name == "PipelineEnableINTEL" && r.value == "0") ||
        (r.name == "MaxConcurrencyINTEL" && r.value == "1")) {
      r.note = "one iteration at a time: the loop runs in the kernel's FSM (" + reason + ")";
      continue;
    }
    r.status = LoopControlRequest::Status::Ignored;
    r.note = "the loop is not pipelined: " + reason;
  }
}

// Does the loop ask to be pipelined (an outer loop is pipelined when asked, or under --outer-loops
// pipelined)?
bool asksForPipelining(const BasicBlock& header) {
  if (!header.loopControls) return false;
  const LoopControls& c = *header.loopControls;
  return c.ii || (c.maxConcurrency && *c.maxConcurrency > 1) || (c.pipelineEnable && *c.pipelineEnable);
}

} // namespace

void extractLoops(Kernel& k, const LoopForest& lf) {
  const Succs succ = kernelSuccessors(k);
  const std::vector<int> idom = immediateDominators(succ, cfgRoots(k));
  for (size_t i = 0; i < lf.loops.size(); ++i) {
    const LoopInfo& L = lf.loops[i];
    if (!L.children.empty()) {
      // What would make it one pipelined loop (docs/loop-controls.md); extractOuterLoops may still
      // pipeline it around its inner loops.
      k.blocks[L.header].notPipelinedReason = fmt::format(
          "not an innermost loop (contains loop {}); LoopCoalesceINTEL on it, or full unrolling "
          "(#pragma unroll) of the inner loop, would make one pipelined loop; so would pipelining "
          "it with its inner loops as sub-pipelines (--outer-loops pipelined, or "
          "InitiationIntervalINTEL / MaxConcurrencyINTEL > 1 on it)",
          k.blocks[lf.loops[L.children[0]].header].name);
      continue;
    }
    Extractor x(k, L, idom, succ);
    if (std::string reason = x.check(); !reason.empty()) {
      markNotPipelined(k, L.header, reason);
      continue;
    }
    x.extract();
  }
}

void takeLiveInsFromCalls(Kernel& k, const Loop& body) {
  for (const Op& op : body.ops)
    if (op.kind == OpKind::LoopCall)
      k.loops[op.index].liveIns.assign(op.operands.begin(), op.operands.end() - 1);
}

bool extractOuterLoops(Kernel& k, bool all, const std::vector<std::string>& within) {
  auto asked = [&](const BasicBlock& header) {
    return asksForPipelining(header) || std::find(within.begin(), within.end(), header.name) != within.end();
  };
  bool any = false;
  for (bool again = true; again;) {
    again = false;
    const LoopForest lf = findLoops(k);
    const Succs succ = kernelSuccessors(k);
    const std::vector<int> idom = immediateDominators(succ, cfgRoots(k));
    // A loop asking for a pipeline asks it for the loops inside it too: they become its sub-pipelines.
    auto wanted = [&](const LoopInfo& L) {
      for (const LoopInfo* x = &L;; x = &lf.loops[size_t(x->parent)]) {
        if (all || asked(k.blocks[x->header])) return true;
        if (x->parent < 0) return false;
      }
    };
    for (const LoopInfo& L : lf.loops) {
      if (!L.children.empty()) continue;
      const bool calls = std::any_of(L.blocks.begin(), L.blocks.end(),
                                     [&](uint32_t b) { return k.blocks[b].loopCall.has_value(); });
      if (!calls || k.blocks[L.header].loopCall) continue;
      if (!wanted(L)) continue;
      Extractor x(k, L, idom, succ, true);
      if (std::string reason = x.check(); !reason.empty()) {
        k.blocks[L.header].notPipelinedReason += "; as an outer pipeline: " + reason;
        continue;
      }
      k.blocks[L.header].notPipelinedReason.clear();
      x.extract();
      any = again = true;
      break; // the CFG changed: find the loops again
    }
  }
  // Outer loops still in the CFG: their controls. One that asked for a pipeline but holds a loop of
  // the FSM says which.
  const LoopForest lf = findLoops(k);
  for (const LoopInfo& L : lf.loops) {
    std::string reason = k.blocks[L.header].notPipelinedReason;
    if (reason.empty()) continue;
    if (asked(k.blocks[L.header]) && !L.children.empty()) {
      const uint32_t inner = lf.loops[L.children[0]].header;
      reason = fmt::format("an outer pipeline needs every inner loop pipelined, and loop {} is not ({})",
                           k.blocks[inner].name, k.blocks[inner].notPipelinedReason);
    }
    markNotPipelined(k, L.header, reason);
  }
  return any;
}

void buildInterleaving(Kernel& k) {
  constexpr uint32_t kMaxCopies = 16;
  const std::vector<int> callers = loopCallers(k.loops);
  for (size_t l = 0; l < k.loops.size(); ++l) {
    Loop& loop = k.loops[l];
    if (!loop.controls.maxInterleaving) continue;
    const uint32_t n = *loop.controls.maxInterleaving;
    const MemoryUse use = loopMemoryUse(k.loops, uint32_t(l));
    std::string note;
    if (callers[l] < 0)
      note = "not an outer pipeline's inner loop: its invocations come one at a time";
    else if (n == 1)
      note = "one call at a time: the next call's iterations follow the last one's";
    else if (n == 0)
      note =
          "no limit asked: built once, one call's iterations at a time (MaxInterleavingINTEL N >= 2 builds N "
          "copies)";
    else if (!use.reads.empty() || !use.writes.empty())
      note = "one call at a time: copies are built only for a loop that accesses no memory (they would share "
             "its ports), and the calls' iterations do not share one pipeline's slots";
    else if (runsLoops(loop))
      note = "one call at a time: copies are built only for an innermost loop";
    else {
      loop.copies = std::min(n, kMaxCopies);
      note = fmt::format(
          "built as {} copies taking the calls in turn: up to {} calls run at once, each on its own "
          "copy (the calls' iterations do not share one pipeline's slots){}",
          loop.copies, loop.copies, n > kMaxCopies ? fmt::format(" (at most {})", kMaxCopies) : "");
    }
    for (LoopControlRequest& r : loop.controls.requests)
      if (r.name == "MaxInterleavingINTEL") r.note = note;
  }
}

} // namespace spvhls::ir::lower
