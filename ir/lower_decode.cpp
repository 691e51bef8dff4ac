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
  case SpvOp::OpCopyObject: case SpvOp::OpUndef:
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

class Decoder {
public:
  explicit Decoder(Context& c) : c_(c) {}

  // The function's reachable blocks with every call inlined; ids are the module's, except those of
  // inlined bodies (fresh).
  LFunc decode(const spirv::Function& f, std::vector<Id>& stack) {
    LFunc out = decodeBlocks(f);
    inlineCalls(out, stack);
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
    // Drop phi entries of unreachable predecessors, then restore module order (the entry first).
    std::unordered_set<Id> live;
    for (const auto& b : out.blocks) live.insert(b.label);
    for (auto& b : out.blocks)
      for (auto& in : b.insts) {
        if (in.op != SpvOp::OpPhi) continue;
        std::vector<Id> kept;
        for (size_t i = 0; i + 1 < in.ids.size(); i += 2)
          if (live.count(in.ids[i + 1])) kept.insert(kept.end(), {in.ids[i], in.ids[i + 1]});
        in.ids = std::move(kept);
      }
    std::stable_sort(out.blocks.begin(), out.blocks.end(), [&](const LBlock& a, const LBlock& b) {
      return index[a.label] < index[b.label];
    });
    return out;
  }

  // Renames every id defined in `body` (results and labels) to a fresh one and substitutes the
  // parameters by the call's arguments.
  void renameBody(LFunc& body, const spirv::Function& callee, const LInst& call) {
    std::unordered_map<Id, Id> map;
    for (size_t i = 0; i < callee.params.size(); ++i) map[callee.params[i]] = call.ids.at(i + 1);
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
