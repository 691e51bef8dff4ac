// checkFunc: the working copy's invariants after each pass that rewrites it (decoding, inlining,
// promotion of variables), checked independently of how the pass produced it.
#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

std::vector<uint8_t> reachableBlocks(const LFunc& f) {
  std::unordered_map<Id, size_t> index;
  for (size_t i = 0; i < f.blocks.size(); ++i)
    index[f.blocks[i].label] = i;
  std::vector<uint8_t> seen(f.blocks.size(), 0);
  if (f.blocks.empty()) return seen;
  std::vector<size_t> work;
  for (uint32_t r : lfuncRoots(f)) {
    seen[r] = 1;
    work.push_back(r);
  }
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
    if (b.insts.empty() || !isTerminator(b.insts.back().op))
      fail(b.insts.empty() ? nullptr : &b.insts.back(), "block " + c.nameOf(b.label) + " has no terminator");
    for (Id s : successorLabels(b)) {
      auto it = index.find(s);
      if (it == index.end()) fail(&b.insts.back(), "branch to " + c.ref(s) + ", which is not a block");
      preds[it->second].push_back(b.label);
    }
  }
  // Reachability: a dominator-tree walk never sees unreachable blocks, so nothing may be left there.
  const std::vector<uint8_t> seen = reachableBlocks(f);
  for (size_t i = 0; i < f.blocks.size(); ++i)
    if (!seen[i])
      fail(&f.blocks[i].insts.front(), "block " + c.nameOf(f.blocks[i].label) + " is unreachable");

  std::unordered_set<Id> params(c.entryFunc.params.begin(), c.entryFunc.params.end());
  for (const LShared& s : f.shared)
    params.insert(s.params.begin(), s.params.end());
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
      for (size_t j = 1; j < in.ids.size(); j += 2)
        got.push_back(in.ids[j]);
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
