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
