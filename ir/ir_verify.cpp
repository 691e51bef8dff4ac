// verifyKernel: the IR's invariants, checked independently of how the IR was produced.
#include "ir/hls_ir.h"

#include "ir/ir_verifier.h"

namespace spvhls::ir {

namespace verify {

void Verifier::run() {
  checkInterface();
  findCallers();
  checkBlocks();
  for (uint32_t l = 0; l < k_.loops.size(); ++l)
    checkLoop(l);
  checkCallCounts();
  if (final_) {
    checkPorts();
    checkProcesses();
    checkRegions();
  }
}

std::string Verifier::describe(OpAt at) const {
  if (at.loop < 0) {
    const Op& op = k_.ops[at.v];
    return fmt::format("%{} ({}) in block {}", at.v, opKindName(op.kind),
                       op.block < k_.blocks.size() ? k_.blocks[op.block].name : std::to_string(op.block));
  }
  const Loop& lp = k_.loops[size_t(at.loop)];
  return fmt::format("loop{} {} %{} ({})", at.loop, lp.name, at.v, opKindName(lp.ops[at.v].kind));
}

void Verifier::checkInterface() {
  for (size_t i = 0; i < k_.args.size(); ++i) {
    const KernelArg& a = k_.args[i];
    if (a.isPointer) {
      if (a.memory >= k_.memories.size() || k_.memories[a.memory].kind != Memory::Kind::Argument ||
          k_.memories[a.memory].argIndex != i)
        fail(k_.loc, "argument " + a.name, fmt::format("pointer argument {} has no memory of its own", i));
      if (!a.type.isNone()) fail(k_.loc, "argument " + a.name, "a pointer argument has no value type");
    } else if (a.type.isNone()) {
      fail(k_.loc, "argument " + a.name, "scalar argument without a type");
    } else if (std::string p = typeProblem(a.type); !p.empty()) {
      fail(k_.loc, "argument " + a.name, p);
    }
  }
  for (size_t m = 0; m < k_.memories.size(); ++m) {
    const Memory& mem = k_.memories[m];
    if (mem.kind == Memory::Kind::Argument &&
        (mem.argIndex >= k_.args.size() || !k_.args[mem.argIndex].isPointer ||
         k_.args[mem.argIndex].memory != m))
      fail(k_.loc, "memory " + mem.name,
           fmt::format("argument memory {} does not belong to its argument", m));
    if (mem.kind != Memory::Kind::Argument && !mem.init.empty() && mem.init.size() != mem.sizeBytes)
      fail(k_.loc, "memory " + mem.name,
           fmt::format("initial contents have {} bytes, the memory {}", mem.init.size(), mem.sizeBytes));
    if (mem.wordBits == 0 || mem.wordBits % 8 != 0 || mem.wordBits > kMaxTypeBits)
      fail(k_.loc, "memory " + mem.name,
           fmt::format("word width {} is not a whole number of bytes", mem.wordBits));
  }
}

void Verifier::findCallers() {
  callerOf_ = loopCallers(k_.loops);
  // A loop cannot (transitively) run itself.
  for (uint32_t l = 0; l < k_.loops.size(); ++l) {
    int c = callerOf_[l];
    for (size_t steps = 0; c >= 0; c = callerOf_[c])
      if (static_cast<uint32_t>(c) == l || ++steps > k_.loops.size())
        fail(k_.loops[l].loc, "loop " + k_.loops[l].name, "the loop calls itself through its inner loops");
  }
  loopCalls_.assign(k_.loops.size(), 0);
}

const std::vector<Op>& Verifier::callerOps(uint32_t l) const {
  return callerOf_[l] >= 0 ? k_.loops[callerOf_[l]].ops : k_.ops;
}

void Verifier::checkTransient(const Op& op, OpAt where) const {
  if (final_ && isLoweringOnly(op.kind))
    fail(op.loc, where, fmt::format("{} left after lowering", opKindName(op.kind)));
}

void Verifier::checkConst(const Op& op, OpAt where) const {
  const uint32_t w = op.width();
  const size_t words = (w + 63) / 64;
  if (op.immHigh.size() + 1 != words)
    fail(op.loc, where,
         fmt::format("a {}-bit constant has {} words, expected {}", w, op.immHigh.size() + 1, words));
  const uint64_t top = op.immHigh.empty() ? op.imm : op.immHigh.back();
  if (w % 64 != 0 && (top >> (w % 64)) != 0)
    fail(op.loc, where, fmt::format("constant {} does not fit in {} bits", op.imm, w));
}

void Verifier::checkCallOp(const Op& op, const std::vector<Op>& list, int caller, OpAt where) {
  if (op.kind == OpKind::LoopCall) {
    if (op.index >= k_.loops.size()) fail(op.loc, where, fmt::format("loop {} does not exist", op.index));
    // In a loop body the last operand is the call's predicate (kNone: always).
    const std::vector<ValueId>& ins = k_.loops[op.index].liveIns;
    const bool inBody = caller >= 0;
    if (op.operands.size() != ins.size() + (inBody ? 1 : 0) ||
        !std::equal(ins.begin(), ins.end(), op.operands.begin()))
      fail(op.loc, where, "operands differ from the loop's live-ins");
    if (inBody && op.operands.back() != kNone && list[op.operands.back()].type != Type::bits(1))
      fail(op.loc, where, "its predicate is not an i1");
    if (callerOf_[op.index] != caller) fail(op.loc, where, "the loop is called from two places");
    ++loopCalls_[op.index];
    return;
  }
  const Op& call = list[op.operands[0]];
  if (call.kind != OpKind::LoopCall || (caller < 0 && call.block != op.block))
    fail(op.loc, where, "operand is not a LoopCall of the same block");
  if (call.index >= k_.loops.size() || op.index >= k_.loops[call.index].liveOuts.size())
    fail(op.loc, where, fmt::format("live-out {} does not exist", op.index));
  const Loop& lp = k_.loops[call.index];
  if (lp.liveOuts[op.index] >= lp.ops.size() || lp.ops[lp.liveOuts[op.index]].type != op.type)
    fail(op.loc, where, "live-out missing or of another type");
}

void Verifier::checkBlocks() {
  const size_t n = k_.blocks.size();
  if (n == 0) fail(k_.loc, "CFG", "no blocks");
  blockOfOp_.assign(k_.ops.size(), UINT32_MAX);
  posOfOp_.assign(k_.ops.size(), 0);
  for (uint32_t b = 0; b < n; ++b) {
    const BasicBlock& bb = k_.blocks[b];
    bool phisDone = false;
    for (uint32_t i = 0; i < bb.ops.size(); ++i) {
      ValueId v = bb.ops[i];
      if (v >= k_.ops.size())
        fail(bb.term.loc, "block " + bb.name, fmt::format("lists value %{} which does not exist", v));
      if (blockOfOp_[v] != UINT32_MAX)
        fail(k_.ops[v].loc, "block " + bb.name, fmt::format("%{} is listed twice", v));
      if (k_.ops[v].block != b)
        fail(k_.ops[v].loc, "block " + bb.name,
             fmt::format("%{} says it is in block {}", v, k_.ops[v].block));
      blockOfOp_[v] = b;
      posOfOp_[v] = i;
      if (k_.ops[v].kind == OpKind::Phi && phisDone)
        fail(k_.ops[v].loc, "block " + bb.name, "phi after a non-phi");
      if (k_.ops[v].kind != OpKind::Phi) phisDone = true;
    }
    const Terminator& t = bb.term;
    size_t expect = t.kind == Terminator::Kind::Branch ? 1 : t.kind == Terminator::Kind::CondBranch ? 2 : 0;
    if (t.kind == Terminator::Kind::Switch) {
      if (t.targets.empty() || t.caseValues.size() + 1 != t.targets.size())
        fail(t.loc, "block " + bb.name, "switch needs a default and one target per case value");
    } else if (t.targets.size() != expect) {
      fail(t.loc, "block " + bb.name,
           fmt::format("terminator has {} targets, expected {}", t.targets.size(), expect));
    }
    for (uint32_t tg : t.targets)
      if (tg >= n)
        fail(t.loc, "block " + bb.name, fmt::format("branch to block {} which does not exist", tg));
    const bool needsCond = t.kind == Terminator::Kind::CondBranch || t.kind == Terminator::Kind::Switch;
    if (needsCond && (t.cond == kNone || t.cond >= k_.ops.size()))
      fail(t.loc, "block " + bb.name, "branch without a valid condition");
    if (t.kind == Terminator::Kind::CondBranch && k_.ops[t.cond].type != Type::bits(1))
      fail(t.loc, "block " + bb.name, "branch condition is not 1 bit");
  }
  for (ValueId v = 0; v < k_.ops.size(); ++v)
    if (blockOfOp_[v] == UINT32_MAX) fail(k_.ops[v].loc, fmt::format("%{}", v), "value is in no block");

  const lower::Succs succ = lower::kernelSuccessors(k_);
  checkFunctions(succ);
  idom_ = lower::immediateDominators(succ, cfgRoots(k_));
  std::vector<std::vector<uint32_t>> preds(n);
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t s : succ[a])
      preds[s].push_back(a);
  std::vector<uint8_t> reach(n, 0);
  for (uint32_t b = 0; b < n; ++b) {
    reach[b] = rootOf_[b] >= 0;
    if (!reach[b] && final_) fail(k_.blocks[b].term.loc, "block " + k_.blocks[b].name, "unreachable block");
  }

  for (ValueId v = 0; v < k_.ops.size(); ++v) {
    const Op& op = k_.ops[v];
    const uint32_t b = op.block;
    const OpAt where{-1, v};
    for (ValueId o : op.operands)
      if (o != kNone && o >= k_.ops.size()) fail(op.loc, where, fmt::format("operand %{} does not exist", o));
    checkOp(op, where, [&](ValueId o) { return o == kNone ? Type::none() : k_.ops[o].type; });
    checkTransient(op, where);
    switch (op.kind) {
    case OpKind::LiveIn:
    case OpKind::LoopPhi:
      fail(op.loc, where, "loop-only value in the kernel CFG");
    case OpKind::Arg:
      if (op.index >= k_.args.size() || k_.args[op.index].isPointer || k_.args[op.index].type != op.type)
        fail(op.loc, where,
             fmt::format("Arg {} is not a scalar argument of type {}", op.index, typeName(op.type)));
      break;
    case OpKind::Phi: {
      if (op.phiBlocks.size() != op.operands.size())
        fail(op.loc, where, "one predecessor per operand expected");
      if (!reach[b]) continue; // dead code between passes: compaction removes it unchecked
      // One entry per predecessor; between passes a predecessor that is itself unreachable may
      // have lost its entry already (its edge is dead).
      std::vector<uint32_t> got = op.phiBlocks, want = preds[b];
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
      if (std::adjacent_find(got.begin(), got.end()) != got.end())
        fail(op.loc, where, "phi has two entries for one predecessor");
      for (uint32_t p : got)
        if (!std::binary_search(want.begin(), want.end(), p))
          fail(op.loc, where,
               fmt::format("phi has an entry for block {}, which is not a predecessor",
                           p < n ? k_.blocks[p].name : std::to_string(p)));
      for (uint32_t p : want)
        if (reach[p] && !std::binary_search(got.begin(), got.end(), p))
          fail(op.loc, where, fmt::format("phi has no entry for predecessor {}", k_.blocks[p].name));
      for (size_t i = 0; i < op.operands.size(); ++i) {
        if (op.operands[i] == kNone || op.operands[i] >= k_.ops.size())
          fail(op.loc, where, "missing phi operand");
        if (reach[op.phiBlocks[i]] && !anywhere(op.operands[i]) &&
            !lower::dominates(idom_, blockOfOp_[op.operands[i]], op.phiBlocks[i]))
          fail(op.loc, where,
               fmt::format("operand %{} is not available at the end of block {}", op.operands[i],
                           k_.blocks[op.phiBlocks[i]].name));
      }
      continue; // operands checked above
    }
    case OpKind::LoopCall:
      // Dead code between passes (an inner loop's call block after its outer loop was extracted
      // around it): the loop is the outer body's now; compaction removes the block.
      if (!reach[b]) break;
      checkCallOp(op, k_.ops, -1, where);
      if (k_.blocks[b].loopCall != op.index) fail(op.loc, where, "block does not record the loop it runs");
      break;
    case OpKind::LoopOut:
      if (reach[b]) checkCallOp(op, k_.ops, -1, where);
      break;
    case OpKind::Call:
      checkFunctionCall(op, v, where);
      break;
    case OpKind::TaskAsync:
    case OpKind::TaskGet:
    case OpKind::TaskRelease:
      checkTaskOp(op, where);
      break;
    case OpKind::Param: {
      const int f = rootOf_[b] - 1;
      if (f < 0 || k_.functions[f].entry != b || op.index >= k_.functions[f].params.size() ||
          k_.functions[f].params[op.index] != op.type)
        fail(op.loc, where,
             fmt::format("Param {} of type {} is not a parameter of the function whose entry holds it",
                         op.index, typeName(op.type)));
      break;
    }
    default:
      break;
    }
    if (!reach[b]) continue; // dead code: nothing runs it
    for (ValueId o : op.operands) {
      if (o == kNone || anywhere(o)) continue;
      const uint32_t ob = blockOfOp_[o];
      if (ob == b ? posOfOp_[o] >= posOfOp_[v] : !lower::dominates(idom_, ob, b))
        fail(op.loc, where, fmt::format("operand %{} is not defined before its use", o));
    }
  }
  for (uint32_t b = 0; b < n; ++b) {
    const Terminator& t = k_.blocks[b].term;
    if (reach[b] && t.cond != kNone && !anywhere(t.cond) && !lower::dominates(idom_, blockOfOp_[t.cond], b))
      fail(t.loc, "block " + k_.blocks[b].name, "branch condition is not defined before the branch");
    if (t.kind != Terminator::Kind::Return || !reach[b]) continue;
    const Type want = rootOf_[b] > 0 ? k_.functions[rootOf_[b] - 1].result : k_.result;
    const Type got = t.cond == kNone ? Type::none() : k_.ops[t.cond].type;
    if (got != want)
      fail(t.loc, "block " + k_.blocks[b].name,
           fmt::format("returns {}, expected {}", typeName(got), typeName(want)));
  }
}

bool Verifier::anywhere(ValueId v) const {
  return k_.ops[v].kind == OpKind::Const || k_.ops[v].kind == OpKind::Undef;
}

void Verifier::checkFunctions(const lower::Succs& succ) {
  const size_t n = k_.blocks.size();
  rootOf_.assign(n, -1);
  const std::vector<uint32_t> roots = cfgRoots(k_);
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t t : succ[a])
      if (std::count(roots.begin(), roots.end(), t))
        fail(k_.blocks[a].term.loc, "block " + k_.blocks[a].name, "branches to an entry block");
  for (size_t r = 0; r < roots.size(); ++r) {
    const std::string where = r == 0 ? "kernel entry" : "function " + k_.functions[r - 1].name;
    if (roots[r] >= n) fail(k_.loc, where, fmt::format("entry block {} does not exist", roots[r]));
    if (rootOf_[roots[r]] >= 0) fail(k_.loc, where, "its entry block is the entry of another function too");
    for (uint32_t b : lower::reversePostOrder(succ, roots[r])) {
      if (rootOf_[b] >= 0 && rootOf_[b] != static_cast<int>(r))
        fail(k_.blocks[b].term.loc, "block " + k_.blocks[b].name,
             fmt::format("reached from the entries of both {} and {}", where,
                         rootOf_[b] == 0 ? "the kernel" : k_.functions[rootOf_[b] - 1].name));
      rootOf_[b] = static_cast<int>(r);
    }
  }
  // Recursion: a function reaching itself through calls (one activation at a time in hardware).
  std::vector<std::vector<int>> calls(roots.size());
  for (uint32_t b = 0; b < n; ++b)
    for (ValueId v : k_.blocks[b].ops)
      if (v < k_.ops.size() && k_.ops[v].kind == OpKind::Call && k_.ops[v].index < k_.functions.size() &&
          rootOf_[b] >= 0)
        calls[rootOf_[b]].push_back(static_cast<int>(k_.ops[v].index) + 1);
  std::vector<uint8_t> state(roots.size(), 0); // 1: on the DFS path, 2: done
  std::function<void(int)> visit = [&](int r) {
    state[r] = 1;
    for (int c : calls[r]) {
      if (state[c] == 1)
        fail(k_.functions[c - 1].loc, "function " + k_.functions[c - 1].name, "calls itself (recursion)");
      if (state[c] == 0) visit(c);
    }
    state[r] = 2;
  };
  for (size_t r = 0; r < roots.size(); ++r)
    if (state[r] == 0) visit(static_cast<int>(r));
  for (size_t f = 0; f < k_.functions.size(); ++f) {
    const Function& fn = k_.functions[f];
    if (std::string p = fn.result.isNone() ? "" : typeProblem(fn.result); !p.empty())
      fail(fn.loc, "function " + fn.name, p);
    for (Type t : fn.params)
      if (std::string p = typeProblem(t); !p.empty() || t.isNone())
        fail(fn.loc, "function " + fn.name, p.empty() ? "a parameter without a type" : p);
  }
}

void Verifier::checkFunctionCall(const Op& op, ValueId v, OpAt where) {
  if (op.index >= k_.functions.size())
    fail(op.loc, where, fmt::format("function {} does not exist", op.index));
  const Function& fn = k_.functions[op.index];
  if (op.operands.size() != fn.params.size())
    fail(op.loc, where,
         fmt::format("{} arguments for the {} parameters of {}", op.operands.size(), fn.params.size(),
                     fn.name));
  for (size_t i = 0; i < op.operands.size(); ++i)
    if (k_.ops[op.operands[i]].type != fn.params[i])
      fail(op.loc, where,
           fmt::format("argument {} has type {}, {} takes {}", i, typeName(k_.ops[op.operands[i]].type),
                       fn.name, typeName(fn.params[i])));
  if (op.type != fn.result)
    fail(op.loc, where,
         fmt::format("result type {}, {} returns {}", typeName(op.type), fn.name, typeName(fn.result)));
  const BasicBlock& bb = k_.blocks[op.block];
  if (bb.ops.back() != v || bb.term.kind != Terminator::Kind::Branch || bb.loopCall)
    fail(op.loc, where, "a call must end its block, which branches on");
}

void Verifier::checkLoop(uint32_t l) {
  const Loop& lp = k_.loops[l];
  const std::string name = fmt::format("loop{} {}", l, lp.name);
  const std::vector<Op>& outer = callerOps(l);
  auto outerType = [&](ValueId o) { return o < outer.size() ? outer[o].type : Type::none(); };
  for (ValueId in : lp.liveIns)
    if (outerType(in).isNone()) fail(lp.loc, name, "live-in is not a value of the caller");
  // Copies take an outer pipeline's calls in turn; they have no ports to share.
  if (lp.copies == 0) fail(lp.loc, name, "no copy of the loop");
  if (lp.copies > 1) {
    const MemoryUse use = loopMemoryUse(k_.loops, l);
    if (callerOf_[l] < 0 || !use.reads.empty() || !use.writes.empty() || runsLoops(lp))
      fail(lp.loc, name,
           fmt::format("{} copies of a loop that no loop runs, that accesses memory or runs loops",
                       lp.copies));
  }
  auto typeOf = [&](ValueId o) { return o == kNone ? Type::none() : lp.ops[o].type; };
  for (ValueId v = 0; v < lp.ops.size(); ++v) {
    const Op& op = lp.ops[v];
    const OpAt where{int(l), v};
    for (ValueId o : op.operands)
      if (o != kNone && o >= v)
        fail(op.loc, where, fmt::format("operand %{} is not defined before its use", o));
    checkOp(op, where, typeOf);
    checkTransient(op, where);
    switch (op.kind) {
    case OpKind::Arg:
    case OpKind::WorkItem:
    case OpKind::Phi:
    case OpKind::Param:
    case OpKind::Call:
    case OpKind::TaskAsync:
    case OpKind::TaskGet:
    case OpKind::TaskRelease:
      fail(op.loc, where, "CFG-only operation inside a loop body");
    case OpKind::LoopCall:
    case OpKind::LoopOut: // an inner loop
      checkCallOp(op, lp.ops, static_cast<int>(l), where);
      break;
    case OpKind::LiveIn:
      if (op.index >= lp.liveIns.size() || outerType(lp.liveIns[op.index]) != op.type)
        fail(op.loc, where, fmt::format("live-in {} missing or of another type", op.index));
      break;
    case OpKind::LoopPhi:
      if (op.index >= lp.phis.size() || lp.phis[op.index].type != op.type)
        fail(op.loc, where, fmt::format("loop phi {} missing or of another type", op.index));
      break;
    default:
      break;
    }
  }
  for (size_t i = 0; i < lp.phis.size(); ++i) {
    const LoopPhi& p = lp.phis[i];
    if (p.initLiveIn >= lp.liveIns.size() || outerType(lp.liveIns[p.initLiveIn]) != p.type)
      fail(lp.loc, name, fmt::format("phi {} ({}): initial value missing or of another type", i, p.name));
    if (p.next >= lp.ops.size() || lp.ops[p.next].type != p.type)
      fail(lp.loc, name, fmt::format("phi {} ({}): next value missing or of another type", i, p.name));
  }
  if (lp.continueCond >= lp.ops.size() || lp.ops[lp.continueCond].type != Type::bits(1))
    fail(lp.loc, name, "continue condition missing or not 1 bit");
  for (ValueId o : lp.liveOuts)
    if (o >= lp.ops.size() || lp.ops[o].type.isNone()) fail(lp.loc, name, "live-out is not a body value");
  for (auto [m, d] : lp.controls.memoryDependenceDistance)
    if (m >= k_.memories.size())
      fail(lp.loc, name, fmt::format("dependence distance for memory {}, which does not exist", m));
}

void Verifier::checkCallCounts() const {
  for (size_t l = 0; l < k_.loops.size(); ++l)
    if (final_ ? loopCalls_[l] != 1 : loopCalls_[l] > 1)
      fail(k_.loops[l].loc, "loop " + k_.loops[l].name,
           fmt::format("called {} times, expected once", loopCalls_[l]));
}

} // namespace verify

void verifyKernel(const Kernel& k, VerifyLevel level) {
  verify::Verifier(k, level).run();
}

} // namespace spvhls::ir
