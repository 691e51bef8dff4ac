// Control-flow and capability checks of buildModuleView, and the loop controls of each block.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "frontend/module_view_internal.h"

namespace spvhls::spirv::detail {

namespace {

constexpr uint32_t kFpgaLoopControlBits = 0x3ff0000; // InitiationIntervalINTEL .. MaxReinvocationDelayINTEL

bool hasExtension(const ModuleView& v, const std::string& intelName) {
  std::string altera = intelName;
  altera.replace(altera.find("_INTEL_"), 7, "_ALTERA_");
  return std::find(v.extensions.begin(), v.extensions.end(), intelName) != v.extensions.end() ||
         std::find(v.extensions.begin(), v.extensions.end(), altera) != v.extensions.end();
}

bool hasCapability(const ModuleView& v, uint32_t cap) {
  return std::find(v.capabilities.begin(), v.capabilities.end(), cap) != v.capabilities.end();
}

// Successor labels of a block's terminator.
std::vector<Id> successors(const ModuleView& v, const Instruction& term) {
  const auto& ops = term.operands;
  switch (term.op()) {
  case Op::OpBranch: return {ops.at(0)};
  case Op::OpBranchConditional: return {ops.at(1), ops.at(2)};
  case Op::OpSwitch: {
    std::vector<Id> out{ops.at(1)};
    const Instruction* sel = v.defInst(ops.at(0));
    const Type* t = sel ? v.findType(sel->resultType) : nullptr;
    size_t lw = t && t->width > 32 ? 2 : 1;
    for (size_t i = 2; i + lw < ops.size(); i += lw + 1) out.push_back(ops[i + lw]); // (literal, label) pairs
    return out;
  }
  default: return {};
  }
}

} // namespace

void ViewBuilder::checkControlFlow() {
  for (uint32_t fi = 0; fi < v_.functions.size(); ++fi) {
    Function& fn = v_.functions[fi];
    std::vector<std::vector<Id>> preds(fn.blocks.size());
    for (const Block& b : fn.blocks) {
      if (b.endInst == 0) continue; // unterminated, reported
      const Instruction& term = m_.insts[b.terminator];
      if (!isTerminator(term.op())) continue;
      for (Id target : successors(v_, term)) {
        auto it = v_.blockOf.find(target);
        if (it == v_.blockOf.end() || it->second.first != fi) {
          error(b.terminator, fmt::format("branches to {}, which is not a block of function {}", v_.nameOf(target),
                                          v_.nameOf(fn.id)));
          continue;
        }
        auto& p = preds[it->second.second];
        if (std::find(p.begin(), p.end(), b.label) == p.end()) p.push_back(b.label);
      }
    }
    for (Block& b : fn.blocks) checkBlock(fn, b, preds);
  }
}

void ViewBuilder::checkBlock(const Function& fn, Block& block, const std::vector<std::vector<Id>>& preds) {
  if (block.endInst == 0) return;
  const auto& myPreds = preds[v_.blockOf.at(block.label).second];
  bool phisDone = false;
  for (uint32_t i = block.firstInst + 1; i < block.endInst; ++i) {
    const Instruction& inst = m_.insts[i];
    Op op = inst.op();
    if (op == Op::OpLine || op == Op::OpNoLine) continue;
    if (op != Op::OpPhi) {
      phisDone = true;
    } else {
      if (phisDone) error(i, fmt::format("OpPhi after other instructions of block {}; expected phis first",
                                         v_.nameOf(block.label)));
      std::set<Id> seen;
      for (size_t k = 0; k + 1 < inst.operands.size(); k += 2) {
        Id parent = inst.operands[k + 1];
        if (std::find(myPreds.begin(), myPreds.end(), parent) == myPreds.end())
          error(i, fmt::format("parent {} is not a predecessor of block {}", v_.nameOf(parent), v_.nameOf(block.label)));
        else if (!seen.insert(parent).second)
          error(i, fmt::format("parent {} appears twice", v_.nameOf(parent)));
      }
      for (Id p : myPreds)
        if (!seen.count(p))
          error(i, fmt::format("has no incoming value for predecessor {} of block {}", v_.nameOf(p),
                               v_.nameOf(block.label)));
    }
    if (op != Op::OpLoopMerge && op != Op::OpLoopControlINTEL) continue;
    if (i + 1 != block.terminator) {
      error(i, fmt::format("must immediately precede the terminator of block {}", v_.nameOf(block.label)));
      continue;
    }
    if (block.loopControls) {
      error(i, fmt::format("block {} already has loop controls (from {})", v_.nameOf(block.label),
                           m_.locOf(m_.insts[block.loopControlInst]).str()));
      continue;
    }
    size_t first = op == Op::OpLoopMerge ? 2 : 0;
    if (op == Op::OpLoopMerge)
      for (Id target : {inst.operands.at(0), inst.operands.at(1)}) {
        auto it = v_.blockOf.find(target);
        if (it == v_.blockOf.end() || fn.id != v_.functions[it->second.first].id)
          error(i, fmt::format("merge/continue target {} is not a block of the same function", v_.nameOf(target)));
      }
    try {
      const auto& ops = inst.operands;
      block.loopControls = decodeLoopControls(ops.data() + first, ops.size() - first, m_.locOf(inst));
      block.loopControlInst = i;
    } catch (const DiagnosticError& e) {
      diags_.insert(diags_.end(), e.diagnostics().begin(), e.diagnostics().end());
      continue;
    }
    if (block.loopControls->mask & kFpgaLoopControlBits) {
      if (!usesFpgaLoopControls_) firstFpgaLoopControl_ = i;
      usesFpgaLoopControls_ = true;
    }
    if (op == Op::OpLoopControlINTEL) {
      if (!usesUnstructuredLoopControls_) firstUnstructured_ = i;
      usesUnstructuredLoopControls_ = true;
    }
  }
}

// SSA dominance (SPIR-V 2.16.1): a value defined in a block may be used only where its definition
// dominates the use; an OpPhi's incoming value must dominate the end of its parent block. Uses in
// unreachable blocks are not checked (as in spirv-val). Lowering relies on this: a value used where it
// was never computed has no hardware to read.
void ViewBuilder::checkDominance() {
  // Where each instruction lies: (function, block) of the block whose range holds it.
  struct Range {
    uint32_t first, end, fn, block;
  };
  std::vector<Range> ranges;
  for (uint32_t fi = 0; fi < v_.functions.size(); ++fi)
    for (uint32_t bi = 0; bi < v_.functions[fi].blocks.size(); ++bi) {
      const Block& b = v_.functions[fi].blocks[bi];
      ranges.push_back({b.firstInst, b.endInst, fi, bi});
    }
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.first < b.first; });
  auto where = [&](uint32_t inst) -> const Range* {
    auto it = std::upper_bound(ranges.begin(), ranges.end(), inst,
                               [](uint32_t i, const Range& r) { return i < r.first; });
    if (it == ranges.begin()) return nullptr;
    --it;
    return inst < it->end ? &*it : nullptr;
  };

  // Per function: the dominator tree (Cooper, Harvey and Kennedy) numbered in preorder, so that
  // a dominates b iff pre[a] <= pre[b] < pre[a] + size[a]. Unreachable blocks have no number.
  struct DomTree {
    std::vector<uint32_t> pre, size; // pre == kNone: unreachable
  };
  constexpr uint32_t kNone = ~0u;
  std::vector<DomTree> trees(v_.functions.size());
  for (uint32_t fi = 0; fi < v_.functions.size(); ++fi) {
    const Function& fn = v_.functions[fi];
    const size_t n = fn.blocks.size();
    if (n == 0) continue;
    std::vector<std::vector<uint32_t>> succ(n), preds(n);
    for (uint32_t bi = 0; bi < n; ++bi)
      for (Id t : successors(v_, m_.insts[fn.blocks[bi].terminator])) {
        uint32_t to = v_.blockOf.at(t).second;
        succ[bi].push_back(to);
        preds[to].push_back(bi);
      }
    // Reverse postorder from the entry (iterative DFS).
    std::vector<uint32_t> order, rpoIndex(n, kNone);
    std::vector<uint8_t> seen(n, 0);
    std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
    seen[0] = 1;
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      if (next < succ[b].size()) {
        uint32_t s = succ[b][next++];
        if (!seen[s]) {
          seen[s] = 1;
          stack.push_back({s, 0});
        }
      } else {
        order.push_back(b);
        stack.pop_back();
      }
    }
    std::reverse(order.begin(), order.end());
    for (uint32_t k = 0; k < order.size(); ++k) rpoIndex[order[k]] = k;
    std::vector<uint32_t> idom(n, kNone);
    idom[0] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t k = 1; k < order.size(); ++k) {
        uint32_t b = order[k], d = kNone;
        for (uint32_t p : preds[b]) {
          if (idom[p] == kNone) continue;
          if (d == kNone) {
            d = p;
            continue;
          }
          uint32_t x = p, y = d;
          while (x != y) {
            while (rpoIndex[x] > rpoIndex[y]) x = idom[x];
            while (rpoIndex[y] > rpoIndex[x]) y = idom[y];
          }
          d = x;
        }
        if (d != idom[b]) {
          idom[b] = d;
          changed = true;
        }
      }
    }
    std::vector<std::vector<uint32_t>> children(n);
    for (uint32_t b : order)
      if (b != 0) children[idom[b]].push_back(b);
    DomTree& t = trees[fi];
    t.pre.assign(n, kNone);
    t.size.assign(n, 0);
    uint32_t counter = 0;
    std::vector<std::pair<uint32_t, size_t>> walk{{0, 0}};
    t.pre[0] = counter++;
    while (!walk.empty()) {
      auto& [b, next] = walk.back();
      if (next < children[b].size()) {
        uint32_t c = children[b][next++];
        t.pre[c] = counter++;
        walk.push_back({c, 0});
      } else {
        t.size[b] = counter - t.pre[b];
        walk.pop_back();
      }
    }
  }
  auto dominates = [&](const DomTree& t, uint32_t a, uint32_t b) {
    return t.pre[a] != kNone && t.pre[b] != kNone && t.pre[a] <= t.pre[b] && t.pre[b] < t.pre[a] + t.size[a];
  };

  // Checks that the definition of `id` dominates `at` in block `useBlock` (at == kNone: the block's end).
  auto check = [&](uint32_t useInst, Id id, const Range& use, uint32_t at) {
    auto d = v_.def.find(id);
    if (d == v_.def.end()) return;
    const Instruction& def = m_.insts[d->second];
    if (def.op() == Op::OpLabel) {
      // A label is no value: only branches, merges and OpPhi parents (checked in checkControlFlow)
      // name one.
      switch (m_.insts[useInst].op()) {
      case Op::OpBranch: case Op::OpBranchConditional: case Op::OpSwitch: case Op::OpLoopMerge:
      case Op::OpSelectionMerge:
        break;
      default:
        error(useInst, fmt::format("uses label {} as a value", v_.nameOf(id)));
      }
      return;
    }
    const Function& fn = v_.functions[use.fn];
    if (def.op() == Op::OpFunctionParameter) {
      if (std::find(fn.params.begin(), fn.params.end(), id) == fn.params.end())
        error(useInst, fmt::format("uses {}, a parameter of another function", v_.nameOf(id)));
      return;
    }
    const Range* dr = where(d->second);
    if (!dr) return; // module scope
    if (dr->fn != use.fn) {
      error(useInst, fmt::format("uses {}, which is defined in another function", v_.nameOf(id)));
      return;
    }
    const Block& defBlock = fn.blocks[dr->block];
    const Block& useBlock = fn.blocks[use.block];
    bool ok = dr->block == use.block ? d->second < at : dominates(trees[use.fn], dr->block, use.block);
    if (!ok)
      error(useInst, fmt::format("uses {}, whose definition in block {} does not dominate {} in block {}",
                                 v_.nameOf(id), v_.nameOf(defBlock.label),
                                 at == kNone ? "the end of its parent" : "this use", v_.nameOf(useBlock.label)));
  };
  for (const auto& [i, id] : uses_) {
    const Range* r = where(i);
    if (!r || trees[r->fn].pre[r->block] == kNone) continue; // module scope, or unreachable
    if (m_.insts[i].op() != Op::OpPhi) check(i, id, *r, i);
  }
  // OpPhi: each incoming value against the end of its parent block (once per phi, not per use).
  for (const Function& fn : v_.functions)
    for (const Block& b : fn.blocks)
      for (uint32_t i = b.firstInst + 1; i < b.endInst; ++i) {
        const Instruction& inst = m_.insts[i];
        if (inst.op() != Op::OpPhi) continue;
        const Range* r = where(i);
        if (!r || trees[r->fn].pre[r->block] == kNone) continue;
        for (size_t k = 0; k + 1 < inst.operands.size(); k += 2) {
          auto parent = v_.blockOf.find(inst.operands[k + 1]);
          if (parent == v_.blockOf.end()) continue;
          const uint32_t pb = parent->second.second;
          if (trees[r->fn].pre[pb] == kNone) continue; // an unreachable parent's value is never taken
          Range pr{fn.blocks[pb].firstInst, fn.blocks[pb].endInst, r->fn, pb};
          check(i, inst.operands[k], pr, kNone);
        }
      }
}

void ViewBuilder::checkCapabilities() {
  auto require = [&](uint32_t inst, const char* what, uint32_t cap, const char* capName, const char* ext) {
    if (!hasCapability(v_, cap))
      error(inst, fmt::format("{} need OpCapability {}, which the module does not declare", what, capName));
    if (!hasExtension(v_, ext))
      error(inst, fmt::format("{} need OpExtension \"{}\", which the module does not declare", what, ext));
  };
  if (usesFpgaLoopControls_)
    require(firstFpgaLoopControl_, "FPGA loop controls", spv::Capability::FPGALoopControlsINTEL,
            "FPGALoopControlsINTEL", "SPV_INTEL_fpga_loop_controls");
  if (usesUnstructuredLoopControls_)
    require(firstUnstructured_, "OpLoopControlINTEL instructions", spv::Capability::UnstructuredLoopControlsINTEL,
            "UnstructuredLoopControlsINTEL", "SPV_INTEL_unstructured_loop_controls");
  // Extension instructions are checked per opcode in validate_extensions.cpp.
}

} // namespace spvhls::spirv::detail
