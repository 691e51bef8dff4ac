// Decoding the reachable SPIR-V of the entry point into the working copy, and inlining every call.
//
// The opcodes lowering understands get their operands decoded; any other instruction is kept
// without operands and rejected, with its location, when it is translated.
#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "frontend/grammar.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::lower {
namespace {

// Opcodes whose operands are all ids and that lowering maps to IR ops.
bool isPlainValueOp(SpvOp op) {
  switch (op) {
  case SpvOp::OpIAdd: case SpvOp::OpISub: case SpvOp::OpIMul: case SpvOp::OpUDiv: case SpvOp::OpSDiv:
  case SpvOp::OpUMod: case SpvOp::OpSRem: case SpvOp::OpSMod: case SpvOp::OpSNegate: case SpvOp::OpNot:
  case SpvOp::OpBitwiseAnd: case SpvOp::OpBitwiseOr: case SpvOp::OpBitwiseXor:
  case SpvOp::OpShiftLeftLogical: case SpvOp::OpShiftRightLogical: case SpvOp::OpShiftRightArithmetic:
  case SpvOp::OpIEqual: case SpvOp::OpINotEqual: case SpvOp::OpUGreaterThan:
  case SpvOp::OpSGreaterThan: case SpvOp::OpUGreaterThanEqual: case SpvOp::OpSGreaterThanEqual:
  case SpvOp::OpULessThan: case SpvOp::OpSLessThan: case SpvOp::OpULessThanEqual:
  case SpvOp::OpSLessThanEqual:
  case SpvOp::OpLogicalEqual: case SpvOp::OpLogicalNotEqual: case SpvOp::OpLogicalOr:
  case SpvOp::OpLogicalAnd: case SpvOp::OpLogicalNot:
  case SpvOp::OpSelect: case SpvOp::OpUConvert: case SpvOp::OpSConvert: case SpvOp::OpBitcast:
  case SpvOp::OpCopyObject: case SpvOp::OpUndef: case SpvOp::OpConvertPtrToU:
  case SpvOp::OpPtrCastToGeneric: case SpvOp::OpGenericCastToPtr:
  case SpvOp::OpAccessChain: case SpvOp::OpInBoundsAccessChain: case SpvOp::OpPtrAccessChain:
  case SpvOp::OpInBoundsPtrAccessChain:
  case SpvOp::OpPhi: case SpvOp::OpFunctionCall:
    return true;
  default:
    return false;
  }
}

// Instructions without effect on the hardware (debug info, structured-CF hints, lifetimes).
bool isIgnored(SpvOp op) {
  switch (op) {
  case SpvOp::OpNop: case SpvOp::OpLine: case SpvOp::OpNoLine: case SpvOp::OpLoopMerge:
  case SpvOp::OpSelectionMerge: case SpvOp::OpLoopControlINTEL: case SpvOp::OpLifetimeStart:
  case SpvOp::OpLifetimeStop:
    return true;
  default:
    return false;
  }
}

// The alignment of a memory-operands group starting at `i`, 0 if none.
uint64_t alignmentOf(const std::vector<uint32_t>& ops, size_t i) {
  if (i < ops.size() && (ops[i] & 0x2u) && i + 1 < ops.size()) return ops[i + 1];
  return 0;
}

// Per block of `f`: reachable from its entry (branches to labels outside `f` are ignored).
std::vector<uint8_t> reachableBlocks(const LFunc& f) {
  std::unordered_map<Id, size_t> index;
  for (size_t i = 0; i < f.blocks.size(); ++i) index[f.blocks[i].label] = i;
  std::vector<uint8_t> seen(f.blocks.size(), 0);
  if (f.blocks.empty()) return seen;
  std::vector<size_t> work{0};
  seen[0] = 1;
  while (!work.empty()) {
    const size_t b = work.back();
    work.pop_back();
    for (Id s : successorLabels(f.blocks[b]))
      if (auto it = index.find(s); it != index.end() && !seen[it->second]) {
        seen[it->second] = 1;
        work.push_back(it->second);
      }
  }
  return seen;
}

class Decoder {
public:
  explicit Decoder(Context& c) : c_(c) {}

  // The function's reachable blocks with every call inlined; ids are the module's, except those of
  // inlined bodies (fresh).
  LFunc decode(const spirv::Function& f, std::vector<Id>& stack) {
    LFunc out = decodeBlocks(f);
    inlineCalls(out, stack);
    // A callee that never returns leaves its continuation (and everything only it reaches)
    // unreachable; later steps walk the dominator tree and must not see such blocks.
    pruneUnreachable(out);
    return out;
  }

private:
  Context& c_;

  LInst decodeInst(const spirv::Instruction& in, uint32_t index) {
    LInst li;
    li.op = in.op();
    li.type = in.resultType;
    li.result = in.resultId;
    li.src = index;
    const auto& w = in.operands;
    switch (li.op) {
    case SpvOp::OpVariable:
      li.lits = {w.at(0)};
      if (w.size() > 1) li.ids = {w[1]};
      break;
    case SpvOp::OpLoad:
      li.ids = {w.at(0)};
      break;
    case SpvOp::OpStore:
      li.ids = {w.at(0), w.at(1)};
      break;
    case SpvOp::OpCopyMemory:
      li.ids = {w.at(0), w.at(1)};
      li.lits = {alignmentOf(w, 2)};
      break;
    case SpvOp::OpCopyMemorySized:
      li.ids = {w.at(0), w.at(1), w.at(2)};
      li.lits = {alignmentOf(w, 3)};
      break;
    case SpvOp::OpGenericCastToPtrExplicit:
      li.op = SpvOp::OpGenericCastToPtr; // the storage class is the result type's
      li.ids = {w.at(0)};
      break;
    case SpvOp::OpExtInst:
      li.ids.push_back(w.at(0));
      li.lits = {w.at(1)};
      li.ids.insert(li.ids.end(), w.begin() + 2, w.end());
      break;
    case SpvOp::OpBranch:
      li.ids = {w.at(0)};
      break;
    case SpvOp::OpBranchConditional:
      li.ids = {w.at(0), w.at(1), w.at(2)}; // branch weights dropped
      break;
    case SpvOp::OpSwitch: {
      li.ids = {w.at(0), w.at(1)};
      // Case literals are as wide as the selector: one word up to 32 bits, two above.
      const spirv::Type* st = c_.mv.findType(c_.typeOf(w[0]));
      size_t words = st && st->width > 32 ? 2 : 1;
      for (size_t i = 2; i + words < w.size() + 1; i += words + 1) {
        uint64_t v = w[i];
        if (words == 2) v |= static_cast<uint64_t>(w[i + 1]) << 32;
        li.lits.push_back(v);
        li.ids.push_back(w.at(i + words));
      }
      break;
    }
    case SpvOp::OpReturn: case SpvOp::OpUnreachable:
      break;
    case SpvOp::OpReturnValue:
      li.ids = {w.at(0)};
      break;
    default:
      // Unsupported opcodes are kept without operands and reported when translated, in program
      // order, so that an earlier, more specific error (say, a work-item built-in) comes first.
      if (isPlainValueOp(li.op)) li.ids.assign(w.begin(), w.end());
      break;
    }
    return li;
  }

  LFunc decodeBlocks(const spirv::Function& f) {
    // Only blocks reachable from the entry: unreachable code may hold anything.
    std::unordered_map<Id, size_t> index;
    for (size_t i = 0; i < f.blocks.size(); ++i) index[f.blocks[i].label] = i;
    std::vector<uint8_t> seen(f.blocks.size(), 0);
    std::deque<size_t> work{0};
    seen[0] = 1;
    LFunc out;
    while (!work.empty()) {
      size_t bi = work.front();
      work.pop_front();
      const spirv::Block& sb = f.blocks[bi];
      LBlock lb;
      lb.label = sb.label;
      lb.controls = sb.loopControls;
      lb.controlsSrc = sb.loopControlInst;
      for (uint32_t i = sb.firstInst + 1; i < sb.endInst; ++i) {
        const spirv::Instruction& in = c_.mv.inst(i);
        if (isIgnored(in.op())) continue;
        lb.insts.push_back(decodeInst(in, i));
      }
      for (Id s : successorLabels(lb)) {
        auto it = index.find(s);
        if (it != index.end() && !seen[it->second]) {
          seen[it->second] = 1;
          work.push_back(it->second);
        }
      }
      out.blocks.push_back(std::move(lb));
    }
    dropDeadPhiEntries(out);
    // Restore module order (the entry first).
    std::stable_sort(out.blocks.begin(), out.blocks.end(), [&](const LBlock& a, const LBlock& b) {
      return index[a.label] < index[b.label];
    });
    return out;
  }

  // Removes blocks not reachable from the entry (order kept) and the phi entries they fed.
  static void pruneUnreachable(LFunc& f) {
    const std::vector<uint8_t> seen = reachableBlocks(f);
    size_t n = 0;
    for (size_t i = 0; i < f.blocks.size(); ++i)
      if (seen[i]) {
        if (n != i) f.blocks[n] = std::move(f.blocks[i]);
        ++n;
      }
    if (n == f.blocks.size()) return;
    f.blocks.resize(n);
    dropDeadPhiEntries(f);
  }

  // Drops phi entries whose predecessor block is not in `f`.
  static void dropDeadPhiEntries(LFunc& f) {
    std::unordered_set<Id> live;
    for (const auto& b : f.blocks) live.insert(b.label);
    for (auto& b : f.blocks)
      for (auto& in : b.insts) {
        if (in.op != SpvOp::OpPhi) continue;
        std::vector<Id> kept;
        for (size_t i = 0; i + 1 < in.ids.size(); i += 2)
          if (live.count(in.ids[i + 1])) kept.insert(kept.end(), {in.ids[i], in.ids[i + 1]});
        in.ids = std::move(kept);
      }
  }

  // Renames every id defined in `body` (results and labels) to a fresh one and substitutes the
  // parameters by the call's arguments.
  void renameBody(LFunc& body, const spirv::Function& callee, const LInst& call) {
    std::unordered_map<Id, Id> map;
    std::vector<LInst> byValCopies;
    for (size_t i = 0; i < callee.params.size(); ++i) {
      const Id param = callee.params[i], arg = call.ids.at(i + 1);
      // FuncParamAttr ByVal: the callee's own copy (C passes aggregates by value; clang passes
      // their address and marks it so).
      map[param] = c_.mv.isByValParam(param) ? byValCopy(param, arg, call, byValCopies) : arg;
    }
    for (auto& b : body.blocks) {
      map[b.label] = c_.freshId(b.label);
      for (auto& in : b.insts)
        if (in.result) map[in.result] = c_.freshId(in.result);
    }
    auto sub = [&](Id& id) {
      auto it = map.find(id);
      if (it != map.end()) id = it->second;
    };
    for (auto& b : body.blocks) {
      sub(b.label);
      for (auto& in : b.insts) {
        if (in.result) sub(in.result);
        for (Id& id : in.ids) sub(id);
      }
      if (b.controls)
        for (auto& [var, dist] : b.controls->dependencyArray) sub(var);
    }
    auto& entry = body.blocks.front().insts;
    entry.insert(entry.begin(), byValCopies.begin(), byValCopies.end());
  }

  // A Function variable for the copy and the copy itself, made at the start of the callee.
  Id byValCopy(Id param, Id arg, const LInst& call, std::vector<LInst>& out) {
    const Id ptrType = c_.typeOf(param);
    const spirv::Type* t = c_.mv.findType(ptrType);
    if (!t || t->kind != spirv::Type::Kind::Pointer || t->storageClass != spirv::spv::StorageClass::Function)
      c_.failAt(call, fmt::format("parameter {} is decorated FuncParamAttr ByVal but is not a Function-storage "
                                  "pointer; expected a pointer to the caller's private copy",
                                  c_.ref(param)));
    LInst var;
    var.op = SpvOp::OpVariable;
    var.type = ptrType;
    var.result = c_.freshNamedId(c_.nameOf(param), ptrType);
    var.lits = {spirv::spv::StorageClass::Function};
    var.src = call.src;
    LInst copy;
    copy.op = SpvOp::OpCopyMemory;
    copy.ids = {var.result, arg};
    copy.lits = {0};
    copy.src = call.src;
    out.push_back(var);
    out.push_back(copy);
    return var.result;
  }

  void inlineCalls(LFunc& f, std::vector<Id>& stack) {
    for (size_t bi = 0; bi < f.blocks.size(); ++bi) {
      auto& insts = f.blocks[bi].insts;
      auto it = std::find_if(insts.begin(), insts.end(),
                             [](const LInst& in) { return in.op == SpvOp::OpFunctionCall; });
      if (it == insts.end()) continue;
      const LInst call = *it;
      const spirv::Function* callee = c_.mv.findFunction(call.ids.at(0));
      if (!callee || callee->isDeclaration())
        c_.failAt(call, fmt::format("calls {}, a function without a body (imported or declared "
                                    "only); only calls to functions defined in the module are supported",
                                    c_.ref(call.ids.at(0))));
      if (std::find(stack.begin(), stack.end(), callee->id) != stack.end()) {
        std::string chain;
        for (Id fn : stack) chain += c_.nameOf(fn) + " -> ";
        c_.failAt(call, fmt::format("recursion is not supported in hardware ({}{})", chain,
                                    c_.nameOf(callee->id)));
      }
      stack.push_back(callee->id);
      LFunc body = decode(*callee, stack);
      stack.pop_back();
      renameBody(body, *callee, call);

      // Split the caller's block: [before call] -> callee blocks -> [continuation].
      LBlock cont;
      const Id callerLabel = f.blocks[bi].label;
      cont.label = c_.freshId(callerLabel); // same SPIR-V block, so same execution count
      c_.setName(cont.label, c_.nameOf(callerLabel) + ".cont");
      cont.insts.assign(it + 1, insts.end());
      insts.erase(it, insts.end());
      LInst br;
      br.op = SpvOp::OpBranch;
      br.ids = {body.blocks[0].label};
      br.src = call.src;
      insts.push_back(br);

      LInst phi; // the call's result, merged over the callee's returns
      phi.op = SpvOp::OpPhi;
      phi.type = call.type;
      phi.result = call.result;
      phi.src = call.src;
      for (auto& b : body.blocks) {
        LInst& t = b.insts.back();
        if (t.op != SpvOp::OpReturn && t.op != SpvOp::OpReturnValue) continue;
        if (t.op == SpvOp::OpReturnValue) phi.ids.insert(phi.ids.end(), {t.ids[0], b.label});
        t.op = SpvOp::OpBranch;
        t.ids = {cont.label};
      }
      const spirv::Type& rt = c_.mv.type(call.type);
      if (rt.kind != spirv::Type::Kind::Void && call.result) cont.insts.insert(cont.insts.begin(), phi);

      // Successors' phis now see the continuation as their predecessor.
      for (Id s : successorLabels(cont))
        for (auto& b : f.blocks)
          if (b.label == s)
            for (auto& in : b.insts)
              if (in.op == SpvOp::OpPhi)
                for (size_t i = 1; i < in.ids.size(); i += 2)
                  if (in.ids[i] == callerLabel) in.ids[i] = cont.label;

      f.blocks.insert(f.blocks.begin() + static_cast<long>(bi) + 1, cont);
      f.blocks.insert(f.blocks.begin() + static_cast<long>(bi) + 1,
                      std::make_move_iterator(body.blocks.begin()),
                      std::make_move_iterator(body.blocks.end()));
      // The continuation (after the callee's blocks) is scanned again for further calls.
    }
  }
};

} // namespace

LFunc decodeAndInline(Context& c) {
  Decoder d(c);
  std::vector<Id> stack{c.entryFunc.id};
  return d.decode(c.entryFunc, stack);
}

} // namespace spvhls::ir::lower

namespace spvhls::ir::lower {

void checkFunc(const Context& c, const LFunc& f, const char* pass) {
  auto fail = [&](const LInst* at, const std::string& msg) {
    const SourceLoc loc = at ? c.locOf(at->src) : c.locOf(c.entry.inst);
    throw InternalError(loc, at ? c.describe(*at) : "kernel " + c.entry.name,
                        fmt::format("after {}: working copy invariant violated: {}", pass, msg));
  };
  if (f.blocks.empty()) fail(nullptr, "no blocks");
  std::unordered_map<Id, size_t> index;
  std::unordered_set<Id> defined;
  for (size_t i = 0; i < f.blocks.size(); ++i) {
    if (!index.emplace(f.blocks[i].label, i).second) fail(nullptr, "a block label is used twice");
    for (const auto& in : f.blocks[i].insts)
      if (in.result && !defined.insert(in.result).second) fail(&in, "result id defined twice");
  }
  auto isTerminator = [](SpvOp op) {
    return op == SpvOp::OpBranch || op == SpvOp::OpBranchConditional || op == SpvOp::OpSwitch ||
           op == SpvOp::OpReturn || op == SpvOp::OpReturnValue || op == SpvOp::OpUnreachable;
  };
  std::vector<std::vector<Id>> preds(f.blocks.size());
  for (const auto& b : f.blocks) {
    if (b.insts.empty() || !isTerminator(b.insts.back().op)) fail(b.insts.empty() ? nullptr : &b.insts.back(),
                                                                   "block " + c.nameOf(b.label) + " has no terminator");
    for (Id s : successorLabels(b)) {
      auto it = index.find(s);
      if (it == index.end()) fail(&b.insts.back(), "branch to " + c.ref(s) + ", which is not a block");
      preds[it->second].push_back(b.label);
    }
  }
  // Reachability: a dominator-tree walk never sees unreachable blocks, so nothing may be left there.
  const std::vector<uint8_t> seen = reachableBlocks(f);
  for (size_t i = 0; i < f.blocks.size(); ++i)
    if (!seen[i]) fail(&f.blocks[i].insts.front(), "block " + c.nameOf(f.blocks[i].label) + " is unreachable");

  const std::unordered_set<Id> params(c.entryFunc.params.begin(), c.entryFunc.params.end());
  const std::unordered_set<Id> globals(c.mv.globals.begin(), c.mv.globals.end()); // not a search per operand
  auto isDefined = [&](Id id) {
    return defined.count(id) || index.count(id) || params.count(id) || globals.count(id) ||
           c.mv.constants.count(id) || c.mv.types.count(id) || c.mv.functionIndex.count(id) ||
           c.mv.extInstImports.count(id) || c.isSynthesizedUndef(id);
  };
  for (size_t bi = 0; bi < f.blocks.size(); ++bi) {
    const auto& b = f.blocks[bi];
    bool phisDone = false;
    for (size_t i = 0; i < b.insts.size(); ++i) {
      const LInst& in = b.insts[i];
      if (i + 1 < b.insts.size() && isTerminator(in.op)) fail(&in, "terminator in the middle of a block");
      for (Id id : in.ids)
        if (!isDefined(id)) fail(&in, "operand " + c.ref(id) + " is not defined");
      if (in.op != SpvOp::OpPhi) {
        phisDone = true;
        continue;
      }
      if (phisDone) fail(&in, "phi after a non-phi");
      std::vector<Id> got;
      for (size_t j = 1; j < in.ids.size(); j += 2) got.push_back(in.ids[j]);
      std::vector<Id> want = preds[bi];
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      if (in.ids.size() % 2 != 0 || got != want)
        fail(&in, fmt::format("phi has {} entries for the {} predecessors of {}", got.size(), want.size(),
                              c.nameOf(b.label)));
    }
  }
}

} // namespace spvhls::ir::lower
