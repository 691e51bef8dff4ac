// Decoding the reachable SPIR-V of the entry point into the working copy, and inlining every call.
//
// The opcodes lowering understands get their operands decoded; any other instruction is kept
// without operands and rejected, with its location, when it is translated.
#include <algorithm>
#include <deque>
#include <functional>

#include <fmt/format.h>

#include "frontend/grammar.h"
#include "ir/lower_internal.h"

namespace spvhls::ir::lower {
namespace {

// Opcodes whose operands are all ids and that lowering maps to IR ops.
bool isPlainValueOp(SpvOp op) {
  switch (op) {
  case SpvOp::OpIAdd:
  case SpvOp::OpISub:
  case SpvOp::OpIMul:
  case SpvOp::OpUDiv:
  case SpvOp::OpSDiv:
  case SpvOp::OpUMod:
  case SpvOp::OpSRem:
  case SpvOp::OpSMod:
  case SpvOp::OpSNegate:
  case SpvOp::OpNot:
  case SpvOp::OpBitwiseAnd:
  case SpvOp::OpBitwiseOr:
  case SpvOp::OpBitwiseXor:
  case SpvOp::OpShiftLeftLogical:
  case SpvOp::OpShiftRightLogical:
  case SpvOp::OpShiftRightArithmetic:
  case SpvOp::OpIEqual:
  case SpvOp::OpINotEqual:
  case SpvOp::OpUGreaterThan:
  case SpvOp::OpSGreaterThan:
  case SpvOp::OpUGreaterThanEqual:
  case SpvOp::OpSGreaterThanEqual:
  case SpvOp::OpULessThan:
  case SpvOp::OpSLessThan:
  case SpvOp::OpULessThanEqual:
  case SpvOp::OpSLessThanEqual:
  case SpvOp::OpLogicalEqual:
  case SpvOp::OpLogicalNotEqual:
  case SpvOp::OpLogicalOr:
  case SpvOp::OpLogicalAnd:
  case SpvOp::OpLogicalNot:
  case SpvOp::OpSelect:
  case SpvOp::OpUConvert:
  case SpvOp::OpSConvert:
  case SpvOp::OpBitcast:
  case SpvOp::OpCopyObject:
  case SpvOp::OpUndef:
  case SpvOp::OpConvertPtrToU:
  case SpvOp::OpPtrCastToGeneric:
  case SpvOp::OpGenericCastToPtr:
  case SpvOp::OpAccessChain:
  case SpvOp::OpInBoundsAccessChain:
  case SpvOp::OpPtrAccessChain:
  case SpvOp::OpInBoundsPtrAccessChain:
  case SpvOp::OpPhi:
  case SpvOp::OpFunctionCall:
  case SpvOp::OpFAdd:
  case SpvOp::OpFSub:
  case SpvOp::OpFMul:
  case SpvOp::OpFNegate:
  case SpvOp::OpFDiv:
  case SpvOp::OpConvertSToF:
  case SpvOp::OpConvertUToF:
  case SpvOp::OpConvertFToS:
  case SpvOp::OpConvertFToU:
  case SpvOp::OpFConvert:
    return true;
  default:
    return isFloatCompare(op);
  }
}

// Instructions without effect on the hardware (debug info, structured-CF hints, lifetimes).
bool isIgnored(SpvOp op) {
  switch (op) {
  case SpvOp::OpNop:
  case SpvOp::OpLine:
  case SpvOp::OpNoLine:
  case SpvOp::OpLoopMerge:
  case SpvOp::OpSelectionMerge:
  case SpvOp::OpLoopControlINTEL:
  case SpvOp::OpLifetimeStart:
  case SpvOp::OpLifetimeStop:
    return true;
  default:
    return false;
  }
}

// Whether the memory-operands group starting at `i`, or the second one an OpCopyMemory* may have
// (`pair`: the source's), is Volatile.
bool volatileIn(const std::vector<uint32_t>& ops, size_t i, bool pair) {
  if (i >= ops.size()) return false;
  const uint32_t mask = ops[i];
  if (mask & 0x1u) return true;
  // Aligned, MakePointerAvailable and MakePointerVisible each take one operand.
  const size_t next = i + 1 + ((mask & 0x2u) != 0) + ((mask & 0x8u) != 0) + ((mask & 0x10u) != 0);
  return pair && volatileIn(ops, next, false);
}

// The alignment of a memory-operands group starting at `i`, 0 if none.
uint64_t alignmentOf(const std::vector<uint32_t>& ops, size_t i) {
  if (i < ops.size() && (ops[i] & 0x2u) && i + 1 < ops.size()) return ops[i + 1];
  return 0;
}

// The blocks of `f` inside an innermost loop of its own CFG (one with no other loop inside).
std::vector<uint8_t> innermostLoopBlocks(const LFunc& f) {
  const size_t n = f.blocks.size();
  std::unordered_map<Id, uint32_t> index;
  for (uint32_t i = 0; i < n; ++i)
    index[f.blocks[i].label] = i;
  Succs succ(n);
  std::vector<std::vector<uint32_t>> preds(n);
  for (uint32_t i = 0; i < n; ++i)
    for (Id s : successorLabels(f.blocks[i]))
      if (auto it = index.find(s); it != index.end()) {
        succ[i].push_back(it->second);
        preds[it->second].push_back(i);
      }
  std::vector<uint8_t> out(n, 0);
  if (n == 0) return out;
  const std::vector<int> idom = immediateDominators(succ, 0);
  std::vector<std::vector<uint8_t>> bodies;
  std::vector<uint32_t> headers;
  for (uint32_t s = 0; s < n; ++s)
    for (uint32_t h : succ[s]) {
      if (!dominates(idom, h, s)) continue;
      std::vector<uint8_t> in(n, 0);
      in[h] = 1;
      std::vector<uint32_t> work;
      if (!in[s]) work.push_back(s), in[s] = 1;
      while (!work.empty()) {
        const uint32_t b = work.back();
        work.pop_back();
        for (uint32_t p : preds[b])
          if (!in[p]) work.push_back(p), in[p] = 1;
      }
      bodies.push_back(std::move(in));
      headers.push_back(h);
    }
  for (size_t l = 0; l < bodies.size(); ++l) {
    bool inner = true;
    for (size_t o = 0; o < bodies.size() && inner; ++o)
      if (headers[o] != headers[l] && bodies[l][headers[o]]) inner = false;
    if (inner)
      for (uint32_t b = 0; b < n; ++b)
        out[b] |= bodies[l][b];
  }
  return out;
}

class Decoder {
public:
  Decoder(Context& c, InlinePolicy policy) : c_(c), policy_(policy) {}

  // Decides, for every function the kernel calls, whether it is inlined or shared (policy_), then
  // decodes the kernel with the inlined calls inlined and appends each shared function's body once.
  LFunc run() {
    plan();
    std::vector<Id> stack{c_.entryFunc.id};
    LFunc out = decode(c_.entryFunc, stack);
    // Shared bodies, each once; their own calls of shared functions add to the list.
    for (size_t i = 0; i < sharedOrder_.size(); ++i) {
      const spirv::Function& f = *c_.mv.findFunction(sharedOrder_[i]);
      std::vector<Id> fstack{f.id};
      LFunc body = decode(f, fstack);
      out.shared.push_back(LShared{f.id, body.blocks.front().label, f.params, f.resultType});
      out.blocks.insert(out.blocks.end(), std::make_move_iterator(body.blocks.begin()),
                        std::make_move_iterator(body.blocks.end()));
    }
    for (Id f : callOrder_) {
      const Info& in = info_.at(f);
      out.decisions.push_back(InlineDecision{c_.nameOf(f), c_.locOf(c_.mv.findFunction(f)->defInst),
                                             in.shared, in.sites, in.fullSize, in.reason});
    }
    return out;
  }

  // The function's reachable blocks with every call inlined; ids are the module's, except those of
  // inlined bodies (fresh).
  LFunc decode(const spirv::Function& f, std::vector<Id>& stack) {
    LFunc out = rawOf(f); // a copy: inlining renames it
    inlineCalls(out, stack);
    // A callee that never returns leaves its continuation (and everything only it reaches)
    // unreachable; later steps walk the dominator tree and must not see such blocks.
    pruneUnreachable(out);
    return out;
  }

private:
  Context& c_;
  InlinePolicy policy_;

  // Per function the kernel calls: what planning found and decided.
  struct Info {
    uint64_t ownSize = 0, fullSize = 0;     // its instructions; with every callee inlined
    bool loops = false;                     // it or a function it calls has a loop
    std::vector<std::pair<Id, bool>> calls; // callee, the call is inside an innermost loop
    uint32_t sites = 0;                     // calls of it in the kernel as built
    bool hot = false;                       // some call of it is inside an innermost loop
    bool shared = false;
    std::string reason;
  };
  std::unordered_map<Id, Info> info_;
  std::vector<Id> callOrder_;         // functions called, callers before callees (the entry excluded)
  std::vector<Id> sharedOrder_;       // shared functions, in callOrder_ order
  std::unordered_set<Id> callBlocks_; // blocks made to hold one shared call each

  // Why `f` cannot be a shared unit ("" if it can): its parameters and result must be scalars, which
  // the FSM passes in registers (a pointer would need the caller's memories).
  std::string unshareable(const spirv::Function& f) const {
    auto scalar = [&](Id type) {
      const spirv::Type* t = c_.mv.findType(type);
      return t &&
             (t->kind == spirv::Type::Kind::Bool ||
              ((t->kind == spirv::Type::Kind::Int || t->kind == spirv::Type::Kind::Float) && t->width <= 64));
    };
    for (Id p : f.params)
      if (!scalar(c_.typeOf(p)))
        return fmt::format("parameter {} is of type {}; a shared unit takes scalars only", c_.ref(p),
                           c_.typeName(c_.typeOf(p)));
    const spirv::Type* rt = c_.mv.findType(f.resultType);
    if (!(rt && rt->kind == spirv::Type::Kind::Void) && !scalar(f.resultType))
      return fmt::format("it returns {}; a shared unit returns a scalar or nothing",
                         c_.typeName(f.resultType));
    return "";
  }

  // The call graph from the entry: sizes, calls inside innermost loops, recursion, then the policy's
  // decisions, callers first (a function's call sites count each copy of an inlined caller).
  void plan() {
    std::vector<Id> post;              // callees before callers
    std::unordered_map<Id, int> state; // 1: on the path, 2: done
    std::function<void(const spirv::Function&, std::vector<Id>&)> visit = [&](const spirv::Function& f,
                                                                              std::vector<Id>& path) {
      state[f.id] = 1;
      const LFunc& raw = rawOf(f);
      const std::vector<uint8_t> hot = innermostLoopBlocks(raw);
      Info in;
      in.loops = std::find(hot.begin(), hot.end(), 1) != hot.end();
      for (size_t b = 0; b < raw.blocks.size(); ++b)
        for (const LInst& inst : raw.blocks[b].insts) {
          ++in.ownSize;
          if (inst.op != SpvOp::OpFunctionCall) continue;
          const spirv::Function* callee = c_.mv.findFunction(inst.ids.at(0));
          if (!callee || callee->isDeclaration())
            c_.failAt(inst,
                      fmt::format("calls {}, a function without a body (imported or declared only); only "
                                  "calls to functions defined in the module are supported",
                                  c_.ref(inst.ids.at(0))));
          if (state[callee->id] == 1) {
            std::string chain;
            for (Id fn : path)
              chain += c_.nameOf(fn) + " -> ";
            c_.failAt(inst, fmt::format("recursion is not supported in hardware ({}{})", chain,
                                        c_.nameOf(callee->id)));
          }
          in.calls.push_back({callee->id, hot[b] != 0});
          if (state[callee->id] == 0) {
            path.push_back(callee->id);
            visit(*callee, path);
            path.pop_back();
          }
        }
      info_[f.id] = std::move(in);
      state[f.id] = 2;
      post.push_back(f.id);
    };
    std::vector<Id> path{c_.entryFunc.id};
    visit(c_.entryFunc, path);
    for (Id f : post) { // callees first
      Info& in = info_[f];
      in.fullSize = in.ownSize;
      for (auto [g, hot] : in.calls) {
        in.fullSize += info_[g].fullSize;
        in.loops = in.loops || info_[g].loops;
      }
    }
    info_[c_.entryFunc.id].sites = 1;
    info_[c_.entryFunc.id].shared = true;                    // a root: its calls count once
    for (auto it = post.rbegin(); it != post.rend(); ++it) { // callers first
      const Id f = *it;
      Info& in = info_[f];
      if (f != c_.entryFunc.id) {
        callOrder_.push_back(f);
        decide(f, in);
        if (in.shared) sharedOrder_.push_back(f);
      }
      for (auto [g, hot] : in.calls) {
        info_[g].sites += in.shared ? 1 : in.sites;
        // A call in an innermost loop keeps that loop pipelinable when inlined, unless the callee
        // brings a loop of its own.
        info_[g].hot = info_[g].hot || (hot && !info_[g].loops);
      }
    }
  }

  void decide(Id f, Info& in) {
    const spirv::Function& fn = *c_.mv.findFunction(f);
    const std::string why = f == c_.entryFunc.id ? "it is the kernel itself" : unshareable(fn);
    switch (policy_) {
    case InlinePolicy::Always:
      in.reason = "--inline always";
      return;
    case InlinePolicy::Never:
      in.shared = why.empty();
      in.reason = why.empty() ? "--inline never" : "inlined: " + why;
      return;
    case InlinePolicy::Auto:
      break;
    }
    const uint64_t copies = in.sites > 0 ? in.sites - 1 : 0;
    if (!why.empty())
      in.reason = "inlined: " + why;
    else if (in.sites < 2)
      in.reason = "inlined: called once";
    else if (in.hot)
      in.reason = "inlined: called inside an innermost loop, which stays pipelinable";
    else if (in.fullSize * copies < kAutoShareInstructions)
      in.reason = fmt::format("inlined: its {} more copies add {} instructions (sharing starts at {})",
                              copies, in.fullSize * copies, kAutoShareInstructions);
    else {
      in.shared = true;
      in.reason = fmt::format("shared: inlining at {} calls would add {} copies of {} instructions", in.sites,
                              copies, in.fullSize);
    }
  }

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
      li.lits = {alignmentOf(w, 1)}; // 0: no Aligned operand (a vector is accessed whole by its type's)
      c_.volatileAccess = c_.volatileAccess || volatileIn(w, 1, false);
      break;
    case SpvOp::OpStore:
      li.ids = {w.at(0), w.at(1)};
      li.lits = {alignmentOf(w, 2)};
      c_.volatileAccess = c_.volatileAccess || volatileIn(w, 2, false);
      break;
    case SpvOp::OpCopyMemory:
      li.ids = {w.at(0), w.at(1)};
      li.lits = {alignmentOf(w, 2)};
      c_.volatileAccess = c_.volatileAccess || volatileIn(w, 2, true);
      break;
    case SpvOp::OpCopyMemorySized:
      li.ids = {w.at(0), w.at(1), w.at(2)};
      li.lits = {alignmentOf(w, 3)};
      c_.volatileAccess = c_.volatileAccess || volatileIn(w, 3, true);
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
    // Vectors (translated lane by lane, lower_vectors.cpp): literal component indices in lits.
    case SpvOp::OpCompositeExtract:
      li.ids = {w.at(0)};
      li.lits.assign(w.begin() + 1, w.end());
      break;
    case SpvOp::OpCompositeInsert:
      li.ids = {w.at(0), w.at(1)};
      li.lits.assign(w.begin() + 2, w.end());
      break;
    case SpvOp::OpVectorShuffle:
      li.ids = {w.at(0), w.at(1)};
      li.lits.assign(w.begin() + 2, w.end());
      break;
    case SpvOp::OpCompositeConstruct:
    case SpvOp::OpVectorExtractDynamic:
    case SpvOp::OpVectorInsertDynamic:
    case SpvOp::OpAny:
    case SpvOp::OpAll:
    case SpvOp::OpDot:
      li.ids.assign(w.begin(), w.end());
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
    // Task sequences (lower_tasks.cpp): the create's function and its four literals.
    case SpvOp::OpTaskSequenceCreateINTEL:
      li.ids = {w.at(0)};
      li.lits.assign(w.begin() + 1, w.end());
      break;
    case SpvOp::OpTaskSequenceAsyncINTEL:
    case SpvOp::OpTaskSequenceGetINTEL:
    case SpvOp::OpTaskSequenceReleaseINTEL:
      li.ids.assign(w.begin(), w.end());
      break;
    // Subgroups (lower_subgroups.cpp): the shuffles' ids as they are; the group instructions' scope
    // and values in ids, their GroupOperation (and a ClusterSize id, if any, last in ids).
    case SpvOp::OpSubgroup2DBlockLoadINTEL: // the shape, pointers and surface (lower_block2d.cpp)
    case SpvOp::OpSubgroup2DBlockLoadTransformINTEL:
    case SpvOp::OpSubgroup2DBlockLoadTransposeINTEL:
    case SpvOp::OpSubgroup2DBlockPrefetchINTEL:
    case SpvOp::OpSubgroup2DBlockStoreINTEL:
    case SpvOp::OpControlBarrier: // scopes and semantics (lower_barriers.cpp)
    case SpvOp::OpMemoryBarrier:
    case SpvOp::OpSubgroupShuffleINTEL:
    case SpvOp::OpSubgroupShuffleDownINTEL:
    case SpvOp::OpSubgroupShuffleUpINTEL:
    case SpvOp::OpSubgroupShuffleXorINTEL:
    case SpvOp::OpGroupBroadcast:
    case SpvOp::OpGroupNonUniformBroadcast:
    case SpvOp::OpGroupNonUniformBroadcastFirst:
    case SpvOp::OpGroupAll:
    case SpvOp::OpGroupAny:
    case SpvOp::OpGroupNonUniformAll:
    case SpvOp::OpGroupNonUniformAny:
    case SpvOp::OpGroupNonUniformAllEqual:
    case SpvOp::OpGroupNonUniformElect:
    case SpvOp::OpSubgroupBlockReadINTEL:
    case SpvOp::OpSubgroupBlockWriteINTEL:
      li.ids.assign(w.begin(), w.end());
      break;
    case SpvOp::OpGroupIAdd:
    case SpvOp::OpGroupFAdd:
    case SpvOp::OpGroupFMin:
    case SpvOp::OpGroupUMin:
    case SpvOp::OpGroupSMin:
    case SpvOp::OpGroupFMax:
    case SpvOp::OpGroupUMax:
    case SpvOp::OpGroupSMax:
    case SpvOp::OpGroupNonUniformIAdd:
    case SpvOp::OpGroupNonUniformFAdd:
    case SpvOp::OpGroupNonUniformIMul:
    case SpvOp::OpGroupNonUniformFMul:
    case SpvOp::OpGroupNonUniformSMin:
    case SpvOp::OpGroupNonUniformUMin:
    case SpvOp::OpGroupNonUniformFMin:
    case SpvOp::OpGroupNonUniformSMax:
    case SpvOp::OpGroupNonUniformUMax:
    case SpvOp::OpGroupNonUniformFMax:
    case SpvOp::OpGroupNonUniformBitwiseAnd:
    case SpvOp::OpGroupNonUniformBitwiseOr:
    case SpvOp::OpGroupNonUniformBitwiseXor:
    case SpvOp::OpGroupNonUniformLogicalAnd:
    case SpvOp::OpGroupNonUniformLogicalOr:
    case SpvOp::OpGroupNonUniformLogicalXor:
      li.ids = {w.at(0), w.at(2)};
      li.lits = {w.at(1)};
      if (w.size() > 3) li.ids.push_back(w[3]);
      break;
    case SpvOp::OpReturn:
    case SpvOp::OpUnreachable:
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

  // A function's blocks as decoded, decoded once: planning reads every function, and inlining copies
  // a callee at each of its call sites.
  std::unordered_map<Id, LFunc> raw_;
  const LFunc& rawOf(const spirv::Function& f) {
    auto it = raw_.find(f.id);
    if (it == raw_.end()) it = raw_.emplace(f.id, decodeBlocks(f)).first;
    return it->second;
  }

  LFunc decodeBlocks(const spirv::Function& f) {
    // Only blocks reachable from the entry: unreachable code may hold anything.
    std::unordered_map<Id, size_t> index;
    for (size_t i = 0; i < f.blocks.size(); ++i)
      index[f.blocks[i].label] = i;
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
    std::stable_sort(out.blocks.begin(), out.blocks.end(),
                     [&](const LBlock& a, const LBlock& b) { return index[a.label] < index[b.label]; });
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
    for (const auto& b : f.blocks)
      live.insert(b.label);
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
        for (Id& id : in.ids)
          sub(id);
      }
      if (b.controls)
        for (auto& [var, dist] : b.controls->dependencyArray)
          sub(var);
    }
    auto& entry = body.blocks.front().insts;
    entry.insert(entry.begin(), byValCopies.begin(), byValCopies.end());
  }

  // A Function variable for the copy and the copy itself, made at the start of the callee.
  Id byValCopy(Id param, Id arg, const LInst& call, std::vector<LInst>& out) {
    const Id ptrType = c_.typeOf(param);
    const spirv::Type* t = c_.mv.findType(ptrType);
    if (!t || t->kind != spirv::Type::Kind::Pointer || t->storageClass != spirv::spv::StorageClass::Function)
      c_.failAt(call,
                fmt::format("parameter {} is decorated FuncParamAttr ByVal but is not a Function-storage "
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

  // The continuation `cont` took over the end of block `from`: its successors' phis now see it as
  // their predecessor.
  static void retargetPhis(LFunc& f, const LBlock& cont, Id from) {
    for (Id s : successorLabels(cont))
      for (auto& b : f.blocks)
        if (b.label == s)
          for (auto& in : b.insts)
            if (in.op == SpvOp::OpPhi)
              for (size_t i = 1; i < in.ids.size(); i += 2)
                if (in.ids[i] == from) in.ids[i] = cont.label;
  }

  // A call of a shared function gets a block of its own: [before] -> [call] -> [continuation].
  void splitCall(LFunc& f, size_t bi, std::vector<LInst>::iterator it) {
    auto& insts = f.blocks[bi].insts;
    const LInst call = *it;
    const Id callerLabel = f.blocks[bi].label;
    LBlock callBlock, cont;
    callBlock.label = c_.freshId(callerLabel);
    c_.setName(callBlock.label, "call." + c_.nameOf(call.ids.at(0)));
    cont.label = c_.freshId(callerLabel);
    c_.setName(cont.label, c_.nameOf(callerLabel) + ".cont");
    cont.insts.assign(it + 1, insts.end());
    insts.erase(it, insts.end());
    LInst br;
    br.op = SpvOp::OpBranch;
    br.src = call.src;
    br.ids = {callBlock.label};
    insts.push_back(br);
    br.ids = {cont.label};
    callBlock.insts = {call, br};
    callBlocks_.insert(callBlock.label);
    retargetPhis(f, cont, callerLabel);
    f.blocks.insert(f.blocks.begin() + static_cast<long>(bi) + 1, std::move(cont));
    f.blocks.insert(f.blocks.begin() + static_cast<long>(bi) + 1, std::move(callBlock));
  }

  void inlineCalls(LFunc& f, std::vector<Id>& stack) {
    for (size_t bi = 0; bi < f.blocks.size(); ++bi) {
      auto& insts = f.blocks[bi].insts;
      // A block that is already a shared call's own is done.
      auto it = std::find_if(insts.begin(), insts.end(),
                             [](const LInst& in) { return in.op == SpvOp::OpFunctionCall; });
      if (callBlocks_.count(f.blocks[bi].label)) continue;
      if (it == insts.end()) continue;
      const LInst call = *it;
      if (auto in = info_.find(call.ids.at(0)); in != info_.end() && in->second.shared) {
        splitCall(f, bi, it);
        continue;
      }
      const spirv::Function* callee = c_.mv.findFunction(call.ids.at(0));
      if (!callee || callee->isDeclaration())
        c_.failAt(call, fmt::format("calls {}, a function without a body (imported or declared "
                                    "only); only calls to functions defined in the module are supported",
                                    c_.ref(call.ids.at(0))));
      if (std::find(stack.begin(), stack.end(), callee->id) != stack.end()) {
        std::string chain;
        for (Id fn : stack)
          chain += c_.nameOf(fn) + " -> ";
        c_.failAt(call,
                  fmt::format("recursion is not supported in hardware ({}{})", chain, c_.nameOf(callee->id)));
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

      retargetPhis(f, cont, callerLabel);

      f.blocks.insert(f.blocks.begin() + static_cast<long>(bi) + 1, cont);
      f.blocks.insert(f.blocks.begin() + static_cast<long>(bi) + 1,
                      std::make_move_iterator(body.blocks.begin()),
                      std::make_move_iterator(body.blocks.end()));
      // The continuation (after the callee's blocks) is scanned again for further calls.
    }
  }
};

} // namespace

bool isFloatCompare(SpvOp op) {
  switch (op) {
  case SpvOp::OpFOrdEqual:
  case SpvOp::OpFUnordEqual:
  case SpvOp::OpFOrdNotEqual:
  case SpvOp::OpFUnordNotEqual:
  case SpvOp::OpFOrdLessThan:
  case SpvOp::OpFUnordLessThan:
  case SpvOp::OpFOrdGreaterThan:
  case SpvOp::OpFUnordGreaterThan:
  case SpvOp::OpFOrdLessThanEqual:
  case SpvOp::OpFUnordLessThanEqual:
  case SpvOp::OpFOrdGreaterThanEqual:
  case SpvOp::OpFUnordGreaterThanEqual:
  case SpvOp::OpOrdered:
  case SpvOp::OpUnordered:
  case SpvOp::OpIsNan:
  case SpvOp::OpIsInf:
    return true;
  default:
    return false;
  }
}

LFunc decodeAndInline(Context& c, InlinePolicy policy) {
  return Decoder(c, policy).run();
}

std::vector<uint32_t> lfuncRoots(const LFunc& f) {
  std::vector<uint32_t> roots{0};
  for (const LShared& s : f.shared)
    for (uint32_t i = 0; i < f.blocks.size(); ++i)
      if (f.blocks[i].label == s.entry) roots.push_back(i);
  return roots;
}

} // namespace spvhls::ir::lower
