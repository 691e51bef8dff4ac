// verifyKernel: the IR's invariants, checked independently of how the IR was produced.
#include <algorithm>
#include <bit>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "ir/hls_ir.h"
#include "ir/lower_internal.h"

namespace spvhls::ir {
namespace {

// Operation classes that compute on bits; floating-point operations will bring classes of their own.
bool computesOnBits(OpClass c) {
  switch (c) {
  case OpClass::Logic: case OpClass::Arith: case OpClass::Shift: case OpClass::Compare: case OpClass::Multiply:
  case OpClass::Divide:
  case OpClass::Float:
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
    findCallers();
    checkBlocks();
    for (uint32_t l = 0; l < k_.loops.size(); ++l) checkLoop(l);
    checkCallCounts();
    if (final_) {
      checkPorts();
      checkProcesses();
      checkRegions();
    }
  }

private:
  const Kernel& k_;
  const bool final_;
  std::vector<int> idom_;
  std::vector<int>
      rootOf_; // per block: 0 the kernel's part of the CFG, f + 1 shared function f's; -1 unreachable
  std::vector<uint32_t> blockOfOp_, posOfOp_;
  // Per loop: the loop whose body calls it (-1: the kernel CFG, or no caller).
  std::vector<int> callerOf_;
  std::vector<uint32_t> loopCalls_;

  [[noreturn]] void fail(const SourceLoc& loc, const std::string& where, const std::string& msg) const {
    throw DiagnosticError(loc, fmt::format("kernel {}: {}", k_.name, where), "IR invariant violated: " + msg);
  }

  // An operation a message is about, named only when a check fails: the verifier runs after every
  // lowering pass, and formatting a name per operation up front was most of its time.
  struct OpAt {
    int loop; // -1: the kernel CFG
    ValueId v;
  };
  std::string describe(OpAt at) const {
    if (at.loop < 0) {
      const Op& op = k_.ops[at.v];
      return fmt::format("%{} ({}) in block {}", at.v, opKindName(op.kind),
                         op.block < k_.blocks.size() ? k_.blocks[op.block].name : std::to_string(op.block));
    }
    const Loop& lp = k_.loops[size_t(at.loop)];
    return fmt::format("loop{} {} %{} ({})", at.loop, lp.name, at.v, opKindName(lp.ops[at.v].kind));
  }
  [[noreturn]] void fail(const SourceLoc& loc, OpAt where, const std::string& msg) const {
    fail(loc, describe(where), msg);
  }

  void checkInterface() {
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
          (mem.argIndex >= k_.args.size() || !k_.args[mem.argIndex].isPointer || k_.args[mem.argIndex].memory != m))
        fail(k_.loc, "memory " + mem.name, fmt::format("argument memory {} does not belong to its argument", m));
      if (mem.kind != Memory::Kind::Argument && !mem.init.empty() && mem.init.size() != mem.sizeBytes)
        fail(k_.loc, "memory " + mem.name, fmt::format("initial contents have {} bytes, the memory {}",
                                                      mem.init.size(), mem.sizeBytes));
      if (mem.wordBits == 0 || mem.wordBits % 8 != 0 || mem.wordBits > kMaxTypeBits)
        fail(k_.loc, "memory " + mem.name, fmt::format("word width {} is not a whole number of bytes", mem.wordBits));
    }
  }

  // Who calls each loop: the kernel CFG or a loop body (an inner loop).
  void findCallers() {
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

  // The op list a loop's live-ins refer to: its caller's body, or the kernel's.
  const std::vector<Op>& callerOps(uint32_t l) const {
    return callerOf_[l] >= 0 ? k_.loops[callerOf_[l]].ops : k_.ops;
  }

  // Ops that lowering replaces before it ends (work-item built-ins, subgroup operations).
  void checkTransient(const Op& op, OpAt where) const {
    if (final_ && isLoweringOnly(op.kind))
      fail(op.loc, where, fmt::format("{} left after lowering", opKindName(op.kind)));
  }

  // Rules shared by kernel and loop ops: operand counts and types from ir/ops.def, memory indices.
  template <class TypeOf>
  void checkOp(const Op& op, OpAt where, TypeOf typeOf) const {
    const OpInfo& info = opInfo(op.kind);
    const bool memory = info.opClass == OpClass::Memory;
    // Memory operations and an inner loop's call in a loop body end with a predicate.
    const bool predicated = memory || op.kind == OpKind::LoopCall;
    if (info.operands != kVariadic && op.operands.size() != static_cast<size_t>(info.operands))
      fail(op.loc, where, fmt::format("{} takes {} operands, has {}", info.name, info.operands, op.operands.size()));
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (op.operands[i] == kNone &&
          !(predicated && i + 1 == op.operands.size())) // only a predicate may be absent
        fail(op.loc, where, "missing operand");
    if (!op.type.isNone())
      if (std::string p = typeProblem(op.type); !p.empty()) fail(op.loc, where, p);
    auto expect = [&](size_t i, Type t, const char* what) {
      Type got = typeOf(op.operands[i]);
      if (got != t)
        fail(op.loc, where, fmt::format("{} {} has type {}, expected {}", info.name, what, typeName(got), typeName(t)));
    };
    auto needResult = [&] {
      if (op.type.isNone()) fail(op.loc, where, fmt::format("{} without a result type", info.name));
    };
    switch (info.result) {
    case ResultRule::None:
      if (!op.type.isNone()) fail(op.loc, where, fmt::format("{} has no result", info.name));
      break;
    case ResultRule::Explicit: needResult(); break;
    case ResultRule::Callee: // checked with the call (checkFunctionCall)
      break;
    case ResultRule::SameAsOperands:
      needResult();
      for (size_t i = 0; i < op.operands.size(); ++i) expect(i, op.type, "operand");
      break;
    case ResultRule::Bool:
      if (op.type != Type::bits(1)) fail(op.loc, where, fmt::format("{} yields 1 bit", info.name));
      if (typeOf(op.operands[0]).isNone()) fail(op.loc, where, "operand without a value");
      for (size_t i = 1; i < op.operands.size(); ++i) expect(i, typeOf(op.operands[0]), "operand");
      break;
    case ResultRule::SelectValue:
      needResult();
      expect(0, Type::bits(1), "condition");
      for (size_t i = 1; i < op.operands.size(); ++i) expect(i, op.type, "value");
      break;
    case ResultRule::Wider: case ResultRule::Narrower: {
      const Type from = typeOf(op.operands[0]);
      const bool wider = info.result == ResultRule::Wider;
      if (!from.isBits() || !op.type.isBits() || (wider ? from.width() >= op.width() : from.width() <= op.width()))
        fail(op.loc, where, fmt::format("{} from {} to {}", info.name, typeName(from), typeName(op.type)));
      break;
    }
    }
    if (computesOnBits(info.opClass))
      for (ValueId o : op.operands)
        if (typeOf(o).lane().scalar != TypeKind::Bits)
          fail(op.loc, where, fmt::format("{} computes on bits, not {}", info.name, typeName(typeOf(o))));
    if (info.opClass == OpClass::Float) checkFloat(op, where, typeOf);
    const bool rounds = op.kind == OpKind::SIToFP || op.kind == OpKind::UIToFP || op.kind == OpKind::FPToFP;
    if (op.rounding > (rounds ? 3 : 0))
      fail(op.loc, where,
           fmt::format("{} has rounding mode {}; expected {}", info.name, op.rounding,
                       rounds ? "0 (RTE) .. 3 (RTN)" : "0 (it does not round)"));
    if (op.kind == OpKind::Const) checkConst(op, where);
    if (op.kind == OpKind::Extract || op.kind == OpKind::Concat) checkWide(op, where, typeOf);
    if (memory) checkAccess(op, where, typeOf);
  }

  // Extract: bits [imm, imm + width) within its operand; Concat: as wide as its operands together.
  template <class TypeOf> void checkWide(const Op& op, OpAt where, TypeOf typeOf) const {
    if (!op.type.isBits())
      fail(op.loc, where, fmt::format("{} yields bits, not {}", opKindName(op.kind), typeName(op.type)));
    uint64_t total = 0;
    for (ValueId o : op.operands) {
      if (!typeOf(o).isBits())
        fail(op.loc, where, fmt::format("{} of {}, expected bits", opKindName(op.kind), typeName(typeOf(o))));
      total += typeOf(o).width();
    }
    if (op.kind == OpKind::Extract && op.imm + op.width() > total)
      fail(op.loc, where, fmt::format("bits [{}, {}) of a {}-bit value", op.imm, op.imm + op.width(), total));
    if (op.kind == OpKind::Concat && (op.operands.empty() || total != op.width()))
      fail(op.loc, where, fmt::format("{} bits of operands for a {}-bit result", total, op.width()));
  }

  // Floating-point operations: the float side is IEEE binary16, 32 or 64; a conversion's `imm` is its
  // operand's width, and float to float changes the width.
  template <class TypeOf> void checkFloat(const Op& op, OpAt where, TypeOf typeOf) const {
    auto ieee = [](uint32_t w) { return w == 16 || w == 32 || w == 64; };
    const uint32_t in = op.operands.empty() ? 0 : typeOf(op.operands[0]).width(), out = op.width();
    bool ok = false;
    switch (op.kind) {
    case OpKind::SIToFP:
    case OpKind::UIToFP:
      ok = ieee(out) && in >= 1 && in <= 64;
      break;
    case OpKind::FPToSI:
    case OpKind::FPToUI:
      ok = ieee(in) && out >= 1 && out <= 64;
      break;
    case OpKind::FPToFP:
      ok = ieee(in) && ieee(out) && in != out;
      break;
    default:
      ok = ieee(out);
      break;
    }
    if (!ok)
      fail(op.loc, where,
           fmt::format("{} from {} to {} bits; IEEE binary16, 32 or 64 expected on the float side",
                       opKindName(op.kind), in, out));
    if (isConversion(op.kind) && op.imm != in)
      fail(op.loc, where,
           fmt::format("{} records an operand of {} bits, its operand has {}", opKindName(op.kind), op.imm,
                       in));
  }

  void checkConst(const Op& op, OpAt where) const {
    const uint32_t w = op.width();
    const size_t words = (w + 63) / 64;
    if (op.immHigh.size() + 1 != words)
      fail(op.loc, where, fmt::format("a {}-bit constant has {} words, expected {}", w, op.immHigh.size() + 1, words));
    const uint64_t top = op.immHigh.empty() ? op.imm : op.immHigh.back();
    if (w % 64 != 0 && (top >> (w % 64)) != 0)
      fail(op.loc, where, fmt::format("constant {} does not fit in {} bits", op.imm, w));
  }

  template <class TypeOf>
  void checkAccess(const Op& op, OpAt where, TypeOf typeOf) const {
    if (op.memory >= k_.memories.size()) fail(op.loc, where, fmt::format("memory {} does not exist", op.memory));
    if (!std::has_single_bit(unsigned(op.size)) || op.size > kMaxAccessBytes)
      fail(op.loc, where,
           fmt::format("access size {} is not a power of two up to {}", op.size, kMaxAccessBytes));
    // Ports are sized last (buildStructure), to the widest access.
    if (final_ && 8u * op.size > k_.memories[op.memory].wordBits)
      fail(op.loc, where, fmt::format("{}-byte access wider than the memory's {}-bit words", op.size,
                                      k_.memories[op.memory].wordBits));
    auto expect = [&](size_t i, Type t, const char* what) {
      if (typeOf(op.operands[i]) != t)
        fail(op.loc, where, fmt::format("{} {} has type {}, expected {}", opKindName(op.kind), what,
                                        typeName(typeOf(op.operands[i])), typeName(t)));
    };
    expect(0, Type::bits(64), "offset");
    const Type data = Type::bits(8u * op.size);
    if (op.kind == OpKind::Load && op.type != data)
      fail(op.loc, where, fmt::format("load of {} bytes has type {}", op.size, typeName(op.type)));
    // The scheduler times the load by it: a wrong one is a response captured too early or too late.
    const uint8_t readLatency = k_.memories[op.memory].onChip() ? kOnChipReadLatency : 0;
    if (final_ && op.kind == OpKind::Load && op.readLatency != readLatency)
      fail(op.loc, where,
           fmt::format("load with read latency {}, its memory answers in {}", op.readLatency, readLatency));
    if (op.kind == OpKind::Store) expect(1, data, "data");
    if (op.operands.back() != kNone) expect(op.operands.size() - 1, Type::bits(1), "predicate");
  }

  // LoopCall and LoopOut, in the kernel CFG or in a loop body (`list`; `caller`: -1 for the kernel).
  void checkCallOp(const Op& op, const std::vector<Op>& list, int caller, OpAt where) {
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
      for (uint32_t s : succ[a]) preds[s].push_back(a);
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
      case OpKind::LiveIn: case OpKind::LoopPhi:
        fail(op.loc, where, "loop-only value in the kernel CFG");
      case OpKind::Arg:
        if (op.index >= k_.args.size() || k_.args[op.index].isPointer || k_.args[op.index].type != op.type)
          fail(op.loc, where, fmt::format("Arg {} is not a scalar argument of type {}", op.index, typeName(op.type)));
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
          if (reach[op.phiBlocks[i]] && !anywhere(op.operands[i]) &&
              !lower::dominates(idom_, blockOfOp_[op.operands[i]], op.phiBlocks[i]))
            fail(op.loc, where, fmt::format("operand %{} is not available at the end of block {}", op.operands[i],
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

  // Constants (and undefined values) are available in every block: lowering makes them in the
  // entry block, which does not dominate shared functions' blocks, and compaction copies them into
  // the blocks using them.
  bool anywhere(ValueId v) const {
    return k_.ops[v].kind == OpKind::Const || k_.ops[v].kind == OpKind::Undef;
  }

  // Shared functions: entries that are roots of their own part of the CFG (no block reached from two
  // roots, nothing branching to an entry), no recursion.
  void checkFunctions(const lower::Succs& succ) {
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

  // A Call: of an existing function, arguments and result typed as its, last in its block, which
  // branches on.
  void checkFunctionCall(const Op& op, ValueId v, OpAt where) {
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

  void checkLoop(uint32_t l) {
    const Loop& lp = k_.loops[l];
    const std::string name = fmt::format("loop{} {}", l, lp.name);
    const std::vector<Op>& outer = callerOps(l);
    auto outerType = [&](ValueId o) { return o < outer.size() ? outer[o].type : Type::none(); };
    for (ValueId in : lp.liveIns)
      if (outerType(in).isNone()) fail(lp.loc, name, "live-in is not a value of the caller");
    auto typeOf = [&](ValueId o) { return o == kNone ? Type::none() : lp.ops[o].type; };
    for (ValueId v = 0; v < lp.ops.size(); ++v) {
      const Op& op = lp.ops[v];
      const OpAt where{int(l), v};
      for (ValueId o : op.operands)
        if (o != kNone && o >= v) fail(op.loc, where, fmt::format("operand %{} is not defined before its use", o));
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
      case OpKind::LoopCall: case OpKind::LoopOut: // an inner loop
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
      if (m >= k_.memories.size()) fail(lp.loc, name, fmt::format("dependence distance for memory {}, which does not exist", m));
  }

  void checkCallCounts() const {
    for (size_t l = 0; l < k_.loops.size(); ++l)
      if (final_ ? loopCalls_[l] != 1 : loopCalls_[l] > 1)
        fail(k_.loops[l].loc, "loop " + k_.loops[l].name, fmt::format("called {} times, expected once", loopCalls_[l]));
  }

  void checkPorts() const {
    // Derived with one port per memory, or with a read and a write port for the RAMs that may have
    // them (LowerOptions::ramPorts): the same choice for every memory. An on-chip RAM whose first port
    // only reads may have more read ports after those (copies, LowerOptions::ramReadPorts).
    const auto one = lower::memoryPortsFromAccesses(k_, 1, 1), two = lower::memoryPortsFromAccesses(k_, 2, 1);
    const auto bits = lower::memoryWordBitsFromAccesses(k_);
    auto same = [&](const std::vector<std::vector<MemoryPort>>& ports) {
      for (size_t m = 0; m < k_.memories.size(); ++m) {
        const auto& got = k_.memories[m].ports;
        if (got.size() < ports[m].size()) return false;
        for (size_t p = 0; p < got.size(); ++p) {
          const bool copy = p >= ports[m].size();
          if (copy ? got[p].access != PortAccess::Read || ports[m][0].access != PortAccess::Read ||
                         !k_.memories[m].onChip()
                   : got[p].access != ports[m][p].access)
            return false;
        }
      }
      return true;
    };
    if (!same(one) && !same(two)) {
      for (size_t m = 0; m < k_.memories.size(); ++m)
        if (k_.memories[m].ports.size() < std::min(one[m].size(), two[m].size()))
          fail(k_.loc, "memory " + k_.memories[m].name, "its ports do not match its accesses");
      fail(k_.loc, "kernel " + k_.name, "the memories' ports do not match their accesses");
    }
    // Memory m's first port is hardware port m; the others follow the memories, in memory order.
    auto next = static_cast<uint32_t>(k_.memories.size());
    for (uint32_t m = 0; m < k_.memories.size(); ++m)
      for (size_t p = 0; p < k_.memories[m].ports.size(); ++p)
        if (k_.memories[m].ports[p].key != (p == 0 ? m : next++))
          fail(k_.loc, "memory " + k_.memories[m].name,
               fmt::format("its port {} is numbered {} among the kernel's ports", p,
                           k_.memories[m].ports[p].key));
    for (size_t m = 0; m < k_.memories.size(); ++m)
      if (k_.memories[m].wordBits != bits[m])
        fail(k_.loc, "memory " + k_.memories[m].name,
             fmt::format("its ports are {} bits wide, its accesses need {}", k_.memories[m].wordBits,
                         bits[m]));
    auto opPorts = [&](const std::vector<Op>& ops) {
      for (const Op& op : ops) {
        if ((op.kind != OpKind::Load && op.kind != OpKind::Store) || op.memory >= k_.memories.size())
          continue;
        const auto& ports = k_.memories[op.memory].ports;
        const PortAccess no = op.kind == OpKind::Load ? PortAccess::Write : PortAccess::Read;
        if (op.port >= ports.size() || ports[op.port].access == no)
          fail(op.loc, std::string(opKindName(op.kind)),
               fmt::format("uses port {} of memory {}, which has {} port(s) and none of that direction there",
                           op.port, k_.memories[op.memory].name, ports.size()));
      }
    };
    opPorts(k_.ops);
    for (const Loop& l : k_.loops)
      opPorts(l.ops);
  }

  void checkRegions() const;
  void checkProcesses() const;
  void checkTaskProcess(uint32_t p) const;
  void checkTaskOp(const Op& op, OpAt where) const;
};

// The region tree: a tree per process, depths counted from its root, blocks nested as the regions,
// every loop of the CFG and every pipelined loop exactly once, each under its innermost enclosing loop.
void Verifier::checkRegions() const {
  const std::vector<Region>& R = k_.regions;
  const size_t n = k_.blocks.size();
  if (R.empty() || R[0].kind != Region::Kind::Process || R[0].parent != kNoRegion || R[0].process != 0)
    fail(k_.loc, "region tree", "regions[0] must be the top level of the kernel's process");
  std::vector<uint32_t> all(n);
  for (uint32_t b = 0; b < n; ++b) all[b] = b;
  if (R[0].blocks != all) fail(k_.loc, "region tree", "the kernel's top level does not hold every block");
  std::vector<uint32_t> regionOfLoop(k_.loops.size(), kNoRegion);
  size_t fsmLoops = 0;
  for (uint32_t r = 0; r < R.size(); ++r) {
    const Region& g = R[r];
    auto bad = [&](const std::string& msg) { fail(g.loc, fmt::format("region{} {}", r, g.name), msg); };
    if (!std::is_sorted(g.blocks.begin(), g.blocks.end()) ||
        std::adjacent_find(g.blocks.begin(), g.blocks.end()) != g.blocks.end() ||
        (!g.blocks.empty() && g.blocks.back() >= n))
      bad("its blocks are not distinct, sorted block numbers");
    for (uint32_t c : g.children)
      if (c >= R.size() || R[c].parent != r) bad(fmt::format("child region{} does not name it as its parent", c));
    if (g.parent == kNoRegion) {
      if (g.kind != Region::Kind::Process || g.depth != 0) bad("a root must be a process's top level, at depth 0");
      if (g.process >= k_.processes.size() || k_.processes[g.process].region != r) bad("the root of no process");
      continue;
    }
    if (g.kind != Region::Kind::Loop) bad("a process's top level inside another region");
    if (g.parent >= R.size()) bad(fmt::format("parent region{} does not exist", g.parent));
    const Region& p = R[g.parent];
    if (std::count(p.children.begin(), p.children.end(), r) != 1) bad("its parent does not list it once");
    if (g.depth != p.depth + 1) bad(fmt::format("depth {} under a parent at depth {}", g.depth, p.depth));
    if (g.process != p.process) bad("belongs to another process than its parent");
    if (!std::includes(p.blocks.begin(), p.blocks.end(), g.blocks.begin(), g.blocks.end()))
      bad("has blocks its parent does not");
    // Innermost: no loop of the FSM beside it contains its header.
    for (uint32_t c : p.children)
      if (c != r && c < R.size() && !R[c].loop && g.header != kNoBlock &&
          std::binary_search(R[c].blocks.begin(), R[c].blocks.end(), g.header))
        bad(fmt::format("its header is inside region{}, a sibling; that one is its parent", c));
    if (g.loop) {
      const uint32_t l = *g.loop;
      if (l >= k_.loops.size() || regionOfLoop[l] != kNoRegion) bad("names no loop, or one another region names");
      regionOfLoop[l] = r;
      if (k_.loops[l].depth != g.depth)
        bad(fmt::format("loop{} says depth {}, its region is at depth {}", l, k_.loops[l].depth, g.depth));
      if (callerOf_[l] >= 0) { // an inner loop of a pipelined loop
        if (!p.loop || *p.loop != static_cast<uint32_t>(callerOf_[l])) bad("its parent is not the loop that calls it");
        if (g.header != kNoBlock || !g.blocks.empty()) bad("an inner loop of a pipelined loop has no blocks of the CFG");
      } else if (g.header >= n || k_.blocks[g.header].loopCall != l || g.blocks != std::vector<uint32_t>{g.header}) {
        bad("its block is not the one running its LoopCall");
      }
      continue;
    }
    ++fsmLoops;
    if (g.header >= n || !std::binary_search(g.blocks.begin(), g.blocks.end(), g.header))
      bad("its header is not one of its blocks");
    if (k_.blocks[g.header].loopCall) bad("a LoopCall block heads a loop of the FSM");
    bool backEdge = false;
    for (uint32_t b : g.blocks) {
      if (!lower::dominates(idom_, g.header, b)) bad(fmt::format("its header does not dominate block {}", k_.blocks[b].name));
      const auto& t = k_.blocks[b].term.targets;
      backEdge = backEdge || std::find(t.begin(), t.end(), g.header) != t.end();
    }
    if (!backEdge) bad("no block of it branches back to its header");
  }
  for (uint32_t l = 0; l < k_.loops.size(); ++l)
    if (regionOfLoop[l] == kNoRegion) fail(k_.loops[l].loc, "loop " + k_.loops[l].name, "a pipelined loop without a region");
  if (const size_t natural = lower::findLoops(k_).loops.size(); natural != fsmLoops)
    fail(k_.loc, "region tree", fmt::format("has {} loops in the FSM, the CFG has {}", fsmLoops, natural));
}

// A task operation names a Task process; an async passes its parameters (a pointer as a 64-bit
// offset), a get returns its result.
void Verifier::checkTaskOp(const Op& op, OpAt where) const {
  if (op.index == 0 || op.index >= k_.processes.size() || k_.processes[op.index].kind != Process::Kind::Task)
    fail(op.loc, where, fmt::format("process {} is not a task process", op.index));
  const Process& p = k_.processes[op.index];
  if (op.kind == OpKind::TaskGet && op.type != p.resultType)
    fail(op.loc, where, fmt::format("returns {}, the task's result is {}", typeName(op.type), typeName(p.resultType)));
  if (op.kind != OpKind::TaskAsync) return;
  if (op.operands.size() != p.params.size() || p.argMemory.size() != p.params.size())
    fail(op.loc, where, fmt::format("{} arguments for {} parameters", op.operands.size(), p.params.size()));
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const ValueId o = op.operands[i];
    if (o >= k_.ops.size()) continue; // reported with the operands
    const Type want = p.params.at(i);
    if (k_.ops[o].type != want)
      fail(op.loc, where, fmt::format("argument {} is {}, the parameter {}", i, typeName(k_.ops[o].type), typeName(want)));
  }
}

// A Task process: its body (checked as a kernel of its own), channels to and from the kernel, and
// its memories bound to the kernel's.
void Verifier::checkTaskProcess(uint32_t p) const {
  const Process& pr = k_.processes[p];
  const std::string where = fmt::format("process{} {}", p, pr.name);
  if (pr.body >= k_.tasks.size()) fail(pr.loc, where, fmt::format("body {} does not exist", pr.body));
  const Kernel& body = k_.tasks[pr.body];
  verifyKernel(body, VerifyLevel::Final);
  // A served body (a pipelined task's) takes its parameters from its invocation queue and pushes its
  // results: no arguments, no result.
  if (body.args.size() != (pr.served ? 0 : pr.params.size()))
    fail(pr.loc, where, fmt::format("{} parameters, its body has {} arguments", pr.params.size(), body.args.size()));
  for (size_t i = 0; i < body.args.size(); ++i)
    if ((body.args[i].isPointer ? Type::bits(64) : body.args[i].type) != pr.params[i])
      fail(pr.loc, where, fmt::format("parameter {} is {}, its body's argument another type", i, typeName(pr.params[i])));
  if (body.result != (pr.served ? Type{} : pr.resultType)) fail(pr.loc, where, "its body returns another type");
  uint32_t ownQueues = 0;
  for (const Memory& mem : body.memories) ownQueues += mem.ownQueue() ? 1 : 0;
  if (ownQueues != (pr.served ? 2 : 0) || (pr.served && body.loops.size() != 1))
    fail(pr.loc, where, pr.served ? "a served body is one loop with its two queues" : "a body with queues of its own");
  auto channel = [&](uint32_t c, Channel::Kind kind, uint32_t from, uint32_t to) {
    if (c >= k_.channels.size() || k_.channels[c].kind != kind || k_.channels[c].producer != from ||
        k_.channels[c].consumer != to)
      fail(pr.loc, where, fmt::format("channel {} is not its {} channel", c, kind == Channel::Kind::Invocation ? "invocation" : "result"));
  };
  channel(pr.invocation, Channel::Kind::Invocation, 0, p);
  channel(pr.result, Channel::Kind::Result, p, 0);
  if (pr.memoryMap.size() != body.memories.size())
    fail(pr.loc, where, "its memory map does not cover its body's memories");
  for (uint32_t bm = 0; bm < body.memories.size(); ++bm) {
    const uint32_t m = pr.memoryMap[bm];
    const Memory& mem = body.memories[bm];
    const bool port = mem.kind == Memory::Kind::Argument || mem.kind == Memory::Kind::External;
    if (mem.boundTo != kNoMemory && m != mem.boundTo)
      fail(pr.loc, where, fmt::format("body memory '{}' is a port onto kernel memory {}, bound to {}", mem.name, mem.boundTo, m));
    if (port != (m != kNoMemory) || (m != kNoMemory && m >= k_.memories.size()))
      fail(pr.loc, where, fmt::format("body memory '{}' is bound to kernel memory {}", mem.name, m));
    if (mem.kind == Memory::Kind::Argument && m != pr.argMemory.at(mem.argIndex))
      fail(pr.loc, where, fmt::format("pointer parameter '{}' is not bound to the memory its asyncs pass", mem.name));
  }
}

void Verifier::checkProcesses() const {
  if (k_.processes.empty() || k_.processes[0].kind != Process::Kind::Kernel)
    fail(k_.loc, "processes", "processes[0] must be the kernel's own");
  for (uint32_t p = 0; p < k_.processes.size(); ++p) {
    const Process& pr = k_.processes[p];
    const std::string where = fmt::format("process{} {}", p, pr.name);
    if (p > 0 && pr.kind == Process::Kind::Kernel) fail(pr.loc, where, "a second kernel process");
    if (pr.kind == Process::Kind::Task) {
      checkTaskProcess(p);
      continue;
    }
    if (pr.region >= k_.regions.size() || k_.regions[pr.region].parent != kNoRegion ||
        k_.regions[pr.region].process != p)
      fail(pr.loc, where, fmt::format("region{} is not its root", pr.region));
  }
  for (uint32_t c = 0; c < k_.channels.size(); ++c) {
    const Channel& ch = k_.channels[c];
    const std::string where = fmt::format("channel{} {}", c, ch.name);
    if (ch.producer >= k_.processes.size() || ch.consumer >= k_.processes.size() || ch.producer == ch.consumer)
      fail(ch.loc, where, "it must connect two different processes");
    if (ch.depth == 0) fail(ch.loc, where, "a FIFO of depth 0");
    if (ch.element.isNone()) fail(ch.loc, where, "entries without a type");
    if (std::string pr = typeProblem(ch.element); !pr.empty()) fail(ch.loc, where, pr);
  }
}

} // namespace

void verifyKernel(const Kernel& k, VerifyLevel level) { Verifier(k, level).run(); }

} // namespace spvhls::ir
