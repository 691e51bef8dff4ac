// verifyKernel: the IR's invariants, checked independently of how the IR was produced.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "ir/hls_ir.h"
#include "ir/lower_internal.h"

namespace spvhls::ir {
namespace {

bool isArith(OpKind k) {
  switch (k) {
  case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::UDiv: case OpKind::SDiv:
  case OpKind::URem: case OpKind::SRem: case OpKind::SMod: case OpKind::And: case OpKind::Or:
  case OpKind::Xor: case OpKind::Shl: case OpKind::LShr: case OpKind::AShr:
    return true;
  default:
    return false;
  }
}

class Verifier {
public:
  Verifier(const Kernel& k, VerifyLevel level) : k_(k), final_(level == VerifyLevel::Final) {}

  void run() {
    checkInterface();
    checkBlocks();
    for (uint32_t l = 0; l < k_.loops.size(); ++l) checkLoop(l);
  }

private:
  const Kernel& k_;
  const bool final_;
  std::vector<int> idom_;
  std::vector<uint32_t> blockOfOp_, posOfOp_;

  [[noreturn]] void fail(const SourceLoc& loc, const std::string& where, const std::string& msg) const {
    throw DiagnosticError(loc, fmt::format("kernel {}: {}", k_.name, where), "IR invariant violated: " + msg);
  }

  void checkInterface() {
    for (size_t i = 0; i < k_.args.size(); ++i) {
      const KernelArg& a = k_.args[i];
      if (a.isPointer) {
        if (a.memory >= k_.memories.size() || k_.memories[a.memory].kind != Memory::Kind::Global ||
            k_.memories[a.memory].argIndex != i)
          fail(k_.loc, "argument " + a.name, fmt::format("pointer argument {} has no global memory of its own", i));
      } else if (a.width == 0 || a.width > 64) {
        fail(k_.loc, "argument " + a.name, fmt::format("scalar width {} not in 1..64", a.width));
      }
    }
    for (size_t m = 0; m < k_.memories.size(); ++m) {
      const Memory& mem = k_.memories[m];
      if (mem.kind == Memory::Kind::Global &&
          (mem.argIndex >= k_.args.size() || !k_.args[mem.argIndex].isPointer || k_.args[mem.argIndex].memory != m))
        fail(k_.loc, "memory " + mem.name, fmt::format("global memory {} does not belong to its argument", m));
      if (mem.kind == Memory::Kind::Local && !mem.init.empty() && mem.init.size() != mem.sizeBytes)
        fail(k_.loc, "memory " + mem.name, fmt::format("initial contents have {} bytes, the memory {}",
                                                      mem.init.size(), mem.sizeBytes));
    }
  }

  // Rules shared by kernel and loop ops: operand counts and widths, memory indices.
  template <class WidthOf>
  void checkOp(const Op& op, const std::string& where, WidthOf widthOf) const {
    auto need = [&](size_t n) {
      if (op.operands.size() != n)
        fail(op.loc, where, fmt::format("{} takes {} operands, has {}", opKindName(op.kind), n, op.operands.size()));
      for (ValueId o : op.operands)
        if (o == kNone && !(op.kind == OpKind::Load || op.kind == OpKind::Store))
          fail(op.loc, where, "missing operand");
    };
    auto width = [&](size_t i, uint32_t w, const char* what) {
      uint32_t got = widthOf(op.operands[i]);
      if (got != w) fail(op.loc, where, fmt::format("{} {} has width {}, expected {}", opKindName(op.kind), what, got, w));
    };
    if (op.width > 64) fail(op.loc, where, fmt::format("width {} above 64", op.width));
    const uint32_t w = op.width;
    switch (op.kind) {
    case OpKind::Const:
      need(0);
      if (w == 0 || (w < 64 && (op.imm >> w) != 0))
        fail(op.loc, where, fmt::format("constant {} does not fit in {} bits", op.imm, w));
      break;
    case OpKind::Undef:
      need(0);
      if (w == 0) fail(op.loc, where, "Undef without a width");
      break;
    case OpKind::Neg: case OpKind::Not:
      need(1);
      width(0, w, "operand");
      break;
    case OpKind::Select:
      need(3);
      width(0, 1, "condition");
      width(1, w, "first value");
      width(2, w, "second value");
      break;
    case OpKind::ZExt: case OpKind::SExt: case OpKind::Trunc: {
      need(1);
      uint32_t from = widthOf(op.operands[0]);
      if (op.kind == OpKind::Trunc ? from <= w : from >= w)
        fail(op.loc, where, fmt::format("{} from {} to {} bits", opKindName(op.kind), from, w));
      break;
    }
    case OpKind::Load:
    case OpKind::Store: {
      const bool isLoad = op.kind == OpKind::Load;
      need(isLoad ? 2 : 3);
      if (op.memory >= k_.memories.size()) fail(op.loc, where, fmt::format("memory {} does not exist", op.memory));
      if (op.size != 1 && op.size != 2 && op.size != 4 && op.size != 8)
        fail(op.loc, where, fmt::format("access size {} is not 1, 2, 4 or 8", op.size));
      if (op.operands[0] == kNone) fail(op.loc, where, "missing offset");
      width(0, 64, "offset");
      if (isLoad && w != 8u * op.size) fail(op.loc, where, fmt::format("load of {} bytes has width {}", op.size, w));
      if (!isLoad) {
        if (w != 0) fail(op.loc, where, "a store has no result");
        if (op.operands[1] == kNone) fail(op.loc, where, "missing store data");
        width(1, 8u * op.size, "data");
      }
      if (op.operands.back() != kNone) width(op.operands.size() - 1, 1, "predicate");
      break;
    }
    default:
      if (isArith(op.kind) || isCompareKind(op.kind)) {
        need(2);
        const uint32_t ow = isCompareKind(op.kind) ? widthOf(op.operands[0]) : w;
        if (isCompareKind(op.kind) && w != 1) fail(op.loc, where, "a comparison yields 1 bit");
        if (ow == 0) fail(op.loc, where, "operand without a value");
        width(0, ow, "first operand");
        width(1, ow, "second operand");
      }
      break;
    }
  }

  static bool isCompareKind(OpKind k) { return lower::isCompare(k); }

  void checkBlocks() {
    const size_t n = k_.blocks.size();
    if (n == 0) fail(k_.loc, "CFG", "no blocks");
    blockOfOp_.assign(k_.ops.size(), UINT32_MAX);
    posOfOp_.assign(k_.ops.size(), 0);
    for (uint32_t b = 0; b < n; ++b) {
      const BasicBlock& bb = k_.blocks[b];
      bool phisDone = false;
      for (uint32_t i = 0; i < bb.ops.size(); ++i) {
        ValueId v = bb.ops[i];
        if (v >= k_.ops.size()) fail(bb.term.loc, "block " + bb.name, fmt::format("lists value %{} which does not exist", v));
        if (blockOfOp_[v] != UINT32_MAX) fail(k_.ops[v].loc, "block " + bb.name, fmt::format("%{} is listed twice", v));
        if (k_.ops[v].block != b)
          fail(k_.ops[v].loc, "block " + bb.name, fmt::format("%{} says it is in block {}", v, k_.ops[v].block));
        blockOfOp_[v] = b;
        posOfOp_[v] = i;
        if (k_.ops[v].kind == OpKind::Phi && phisDone) fail(k_.ops[v].loc, "block " + bb.name, "phi after a non-phi");
        if (k_.ops[v].kind != OpKind::Phi) phisDone = true;
      }
      const Terminator& t = bb.term;
      size_t expect = t.kind == Terminator::Kind::Branch ? 1 : t.kind == Terminator::Kind::CondBranch ? 2 : 0;
      if (t.kind == Terminator::Kind::Switch) {
        if (t.targets.empty() || t.caseValues.size() + 1 != t.targets.size())
          fail(t.loc, "block " + bb.name, "switch needs a default and one target per case value");
      } else if (t.targets.size() != expect) {
        fail(t.loc, "block " + bb.name, fmt::format("terminator has {} targets, expected {}", t.targets.size(), expect));
      }
      for (uint32_t tg : t.targets)
        if (tg >= n) fail(t.loc, "block " + bb.name, fmt::format("branch to block {} which does not exist", tg));
      const bool needsCond = t.kind == Terminator::Kind::CondBranch || t.kind == Terminator::Kind::Switch;
      if (needsCond && (t.cond == kNone || t.cond >= k_.ops.size()))
        fail(t.loc, "block " + bb.name, "branch without a valid condition");
      if (t.kind == Terminator::Kind::CondBranch && k_.ops[t.cond].width != 1)
        fail(t.loc, "block " + bb.name, "branch condition is not 1 bit");
    }
    for (ValueId v = 0; v < k_.ops.size(); ++v)
      if (blockOfOp_[v] == UINT32_MAX) fail(k_.ops[v].loc, fmt::format("%{}", v), "value is in no block");

    const lower::Succs succ = lower::kernelSuccessors(k_);
    idom_ = lower::immediateDominators(succ, 0);
    std::vector<std::vector<uint32_t>> preds(n);
    for (uint32_t a = 0; a < n; ++a)
      for (uint32_t s : succ[a]) preds[s].push_back(a);
    std::vector<uint8_t> reach(n, 0);
    reach[0] = 1;
    for (uint32_t b = 1; b < n; ++b) {
      reach[b] = idom_[b] >= 0;
      if (!reach[b] && final_) fail(k_.blocks[b].term.loc, "block " + k_.blocks[b].name, "unreachable block");
    }

    std::vector<uint32_t> loopCalls(k_.loops.size(), 0);
    for (ValueId v = 0; v < k_.ops.size(); ++v) {
      const Op& op = k_.ops[v];
      const uint32_t b = op.block;
      const std::string where = fmt::format("%{} ({}) in block {}", v, opKindName(op.kind), k_.blocks[b].name);
      for (ValueId o : op.operands)
        if (o != kNone && o >= k_.ops.size()) fail(op.loc, where, fmt::format("operand %{} does not exist", o));
      auto widthOf = [&](ValueId o) -> uint32_t { return o == kNone ? 0 : k_.ops[o].width; };
      checkOp(op, where, widthOf);
      switch (op.kind) {
      case OpKind::LiveIn: case OpKind::LoopPhi:
        fail(op.loc, where, "loop-only value in the kernel CFG");
      case OpKind::Arg:
        if (op.index >= k_.args.size() || k_.args[op.index].isPointer || k_.args[op.index].width != op.width)
          fail(op.loc, where, fmt::format("Arg {} is not a scalar argument of width {}", op.index, op.width));
        break;
      case OpKind::Phi: {
        if (op.phiBlocks.size() != op.operands.size()) fail(op.loc, where, "one predecessor per operand expected");
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
            fail(op.loc, where, fmt::format("phi has an entry for block {}, which is not a predecessor",
                                            p < n ? k_.blocks[p].name : std::to_string(p)));
        for (uint32_t p : want)
          if (reach[p] && !std::binary_search(got.begin(), got.end(), p))
            fail(op.loc, where, fmt::format("phi has no entry for predecessor {}", k_.blocks[p].name));
        for (size_t i = 0; i < op.operands.size(); ++i) {
          if (op.operands[i] == kNone || op.operands[i] >= k_.ops.size()) fail(op.loc, where, "missing phi operand");
          if (k_.ops[op.operands[i]].width != op.width) fail(op.loc, where, "phi operand width differs");
          if (reach[op.phiBlocks[i]] && !lower::dominates(idom_, blockOfOp_[op.operands[i]], op.phiBlocks[i]))
            fail(op.loc, where, fmt::format("operand %{} is not available at the end of block {}", op.operands[i],
                                            k_.blocks[op.phiBlocks[i]].name));
        }
        continue; // operands checked above
      }
      case OpKind::LoopCall:
        if (op.index >= k_.loops.size()) fail(op.loc, where, fmt::format("loop {} does not exist", op.index));
        if (op.operands != k_.loops[op.index].liveIns) fail(op.loc, where, "operands differ from the loop's live-ins");
        if (op.width != 0) fail(op.loc, where, "LoopCall has no result");
        ++loopCalls[op.index];
        if (k_.blocks[b].loopCall != op.index) fail(op.loc, where, "block does not record the loop it runs");
        break;
      case OpKind::LoopOut: {
        if (op.operands.size() != 1) fail(op.loc, where, "LoopOut takes the LoopCall");
        const Op& call = k_.ops[op.operands[0]];
        if (call.kind != OpKind::LoopCall || call.block != b)
          fail(op.loc, where, "operand is not a LoopCall of the same block");
        if (call.index >= k_.loops.size() || op.index >= k_.loops[call.index].liveOuts.size())
          fail(op.loc, where, fmt::format("live-out {} does not exist", op.index));
        const Loop& lp = k_.loops[call.index];
        if (lp.liveOuts[op.index] >= lp.ops.size() || lp.ops[lp.liveOuts[op.index]].width != op.width)
          fail(op.loc, where, "live-out missing or of another width");
        break;
      }
      default:
        break;
      }
      if (!reach[b]) continue; // dead code: nothing runs it
      for (ValueId o : op.operands) {
        if (o == kNone) continue;
        const uint32_t ob = blockOfOp_[o];
        if (ob == b ? posOfOp_[o] >= posOfOp_[v] : !lower::dominates(idom_, ob, b))
          fail(op.loc, where, fmt::format("operand %{} is not defined before its use", o));
      }
    }
    for (uint32_t b = 0; b < n; ++b) {
      const Terminator& t = k_.blocks[b].term;
      if (reach[b] && t.cond != kNone && !lower::dominates(idom_, blockOfOp_[t.cond], b))
        fail(t.loc, "block " + k_.blocks[b].name, "branch condition is not defined before the branch");
    }
    for (size_t l = 0; l < k_.loops.size(); ++l)
      if (final_ ? loopCalls[l] != 1 : loopCalls[l] > 1)
        fail(k_.loops[l].loc, "loop " + k_.loops[l].name, fmt::format("called {} times, expected once", loopCalls[l]));
  }

  void checkLoop(uint32_t l) {
    const Loop& lp = k_.loops[l];
    const std::string name = fmt::format("loop{} {}", l, lp.name);
    for (ValueId in : lp.liveIns)
      if (in >= k_.ops.size() || k_.ops[in].width == 0) fail(lp.loc, name, "live-in is not a kernel value");
    for (ValueId v = 0; v < lp.ops.size(); ++v) {
      const Op& op = lp.ops[v];
      const std::string where = fmt::format("{} %{} ({})", name, v, opKindName(op.kind));
      for (ValueId o : op.operands)
        if (o != kNone && o >= v) fail(op.loc, where, fmt::format("operand %{} is not defined before its use", o));
      checkOp(op, where, [&](ValueId o) -> uint32_t { return o == kNone ? 0 : lp.ops[o].width; });
      switch (op.kind) {
      case OpKind::Arg: case OpKind::Phi: case OpKind::LoopCall: case OpKind::LoopOut:
        fail(op.loc, where, "CFG-only operation inside a loop body");
      case OpKind::LiveIn:
        if (op.index >= lp.liveIns.size() || k_.ops[lp.liveIns[op.index]].width != op.width)
          fail(op.loc, where, fmt::format("live-in {} missing or of another width", op.index));
        break;
      case OpKind::LoopPhi:
        if (op.index >= lp.phis.size() || lp.phis[op.index].width != op.width)
          fail(op.loc, where, fmt::format("loop phi {} missing or of another width", op.index));
        break;
      default:
        break;
      }
    }
    for (size_t i = 0; i < lp.phis.size(); ++i) {
      const LoopPhi& p = lp.phis[i];
      if (p.initLiveIn >= lp.liveIns.size() || k_.ops[lp.liveIns[p.initLiveIn]].width != p.width)
        fail(lp.loc, name, fmt::format("phi {} ({}): initial value missing or of another width", i, p.name));
      if (p.next >= lp.ops.size() || lp.ops[p.next].width != p.width)
        fail(lp.loc, name, fmt::format("phi {} ({}): next value missing or of another width", i, p.name));
    }
    if (lp.continueCond >= lp.ops.size() || lp.ops[lp.continueCond].width != 1)
      fail(lp.loc, name, "continue condition missing or not 1 bit");
    for (ValueId o : lp.liveOuts)
      if (o >= lp.ops.size() || lp.ops[o].width == 0) fail(lp.loc, name, "live-out is not a body value");
    for (auto [m, d] : lp.controls.memoryDependenceDistance)
      if (m >= k_.memories.size()) fail(lp.loc, name, fmt::format("dependence distance for memory {}, which does not exist", m));
  }
};

} // namespace

void verifyKernel(const Kernel& k, VerifyLevel level) { Verifier(k, level).run(); }

} // namespace spvhls::ir
