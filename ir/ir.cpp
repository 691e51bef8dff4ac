// HLS IR basics: op kind names, side effects, and the readable dump.
#include <fmt/format.h>

#include "ir/hls_ir.h"

namespace spvhls::ir {

const char* opKindName(OpKind k) {
  switch (k) {
  case OpKind::Const: return "Const";
  case OpKind::Arg: return "Arg";
  case OpKind::LiveIn: return "LiveIn";
  case OpKind::LoopPhi: return "LoopPhi";
  case OpKind::Undef: return "Undef";
  case OpKind::Add: return "Add";
  case OpKind::Sub: return "Sub";
  case OpKind::Mul: return "Mul";
  case OpKind::UDiv: return "UDiv";
  case OpKind::SDiv: return "SDiv";
  case OpKind::URem: return "URem";
  case OpKind::SRem: return "SRem";
  case OpKind::SMod: return "SMod";
  case OpKind::Neg: return "Neg";
  case OpKind::Not: return "Not";
  case OpKind::And: return "And";
  case OpKind::Or: return "Or";
  case OpKind::Xor: return "Xor";
  case OpKind::Shl: return "Shl";
  case OpKind::LShr: return "LShr";
  case OpKind::AShr: return "AShr";
  case OpKind::Eq: return "Eq";
  case OpKind::Ne: return "Ne";
  case OpKind::ULt: return "ULt";
  case OpKind::ULe: return "ULe";
  case OpKind::UGt: return "UGt";
  case OpKind::UGe: return "UGe";
  case OpKind::SLt: return "SLt";
  case OpKind::SLe: return "SLe";
  case OpKind::SGt: return "SGt";
  case OpKind::SGe: return "SGe";
  case OpKind::Select: return "Select";
  case OpKind::ZExt: return "ZExt";
  case OpKind::SExt: return "SExt";
  case OpKind::Trunc: return "Trunc";
  case OpKind::Load: return "Load";
  case OpKind::Store: return "Store";
  case OpKind::Phi: return "Phi";
  case OpKind::LoopCall: return "LoopCall";
  case OpKind::LoopOut: return "LoopOut";
  }
  return "?";
}

bool hasSideEffect(OpKind k) { return k == OpKind::Store || k == OpKind::LoopCall; }

namespace {

std::string val(ValueId v) { return v == kNone ? "-" : fmt::format("%{}", v); }

std::string memName(const Kernel& k, uint32_t m) {
  return m < k.memories.size() ? fmt::format("mem{}({})", m, k.memories[m].name) : fmt::format("mem{}(?)", m);
}

std::string formatOp(const Kernel& k, const Op& op, ValueId v, const std::vector<BasicBlock>* blocks) {
  std::string s = op.width ? fmt::format("  %{} = {} i{}", v, opKindName(op.kind), op.width)
                           : fmt::format("  {}", opKindName(op.kind));
  switch (op.kind) {
  case OpKind::Const: s += fmt::format(" {}", op.imm); break;
  case OpKind::Arg: s += fmt::format(" arg{}", op.index); break;
  case OpKind::LiveIn: s += fmt::format(" in{}", op.index); break;
  case OpKind::LoopPhi: s += fmt::format(" phi{}", op.index); break;
  case OpKind::Load:
    s += fmt::format(" {} [{}] size {} pred {}", memName(k, op.memory), val(op.operands.at(0)), op.size,
                     val(op.operands.at(1)));
    break;
  case OpKind::Store:
    s += fmt::format(" {} [{}] = {} size {} pred {}", memName(k, op.memory), val(op.operands.at(0)),
                     val(op.operands.at(1)), op.size, val(op.operands.at(2)));
    break;
  case OpKind::Phi:
    for (size_t i = 0; i < op.operands.size(); ++i) {
      uint32_t b = i < op.phiBlocks.size() ? op.phiBlocks[i] : ~0u;
      std::string bn = blocks && b < blocks->size() ? (*blocks)[b].name : fmt::format("{}", b);
      s += fmt::format("{} [{}, bb{} {}]", i ? "," : "", val(op.operands[i]), b, bn);
    }
    break;
  case OpKind::LoopCall:
    s += fmt::format(" loop{}(", op.index);
    for (size_t i = 0; i < op.operands.size(); ++i) s += (i ? ", " : "") + val(op.operands[i]);
    s += ")";
    break;
  case OpKind::LoopOut:
    s += fmt::format(" {} out{}", val(op.operands.at(0)), op.index);
    break;
  default:
    for (size_t i = 0; i < op.operands.size(); ++i) s += (i ? ", " : " ") + val(op.operands[i]);
    break;
  }
  if (!op.name.empty()) s += "  ; " + op.name;
  return s + "\n";
}

std::string formatTerm(const Kernel& k, const Terminator& t) {
  auto bb = [&](uint32_t b) {
    return b < k.blocks.size() ? fmt::format("bb{} {}", b, k.blocks[b].name) : fmt::format("bb{}", b);
  };
  switch (t.kind) {
  case Terminator::Kind::Branch: return fmt::format("  br {}\n", bb(t.targets.at(0)));
  case Terminator::Kind::CondBranch:
    return fmt::format("  br {} ? {} : {}\n", val(t.cond), bb(t.targets.at(0)), bb(t.targets.at(1)));
  case Terminator::Kind::Switch: {
    std::string s = fmt::format("  switch {} default {}", val(t.cond), bb(t.targets.at(0)));
    for (size_t i = 1; i < t.targets.size(); ++i)
      s += fmt::format(", {}: {}", i - 1 < t.caseValues.size() ? t.caseValues[i - 1] : 0, bb(t.targets[i]));
    return s + "\n";
  }
  case Terminator::Kind::Return: return "  ret\n";
  case Terminator::Kind::Unreachable: return "  unreachable\n";
  }
  return "  ?\n";
}

const char* statusName(LoopControlRequest::Status s) {
  switch (s) {
  case LoopControlRequest::Status::Honoured: return "honoured";
  case LoopControlRequest::Status::NotHonouredYet: return "not honoured yet";
  case LoopControlRequest::Status::Ignored: return "ignored";
  }
  return "?";
}

std::string formatControls(const Kernel& k, const LoopControls& c, const char* indent) {
  std::string s;
  std::string fields;
  if (c.ii) fields += fmt::format(" ii={}", *c.ii);
  if (c.pipelineEnable) fields += fmt::format(" pipeline={}", *c.pipelineEnable ? 1 : 0);
  if (c.maxConcurrency) fields += fmt::format(" maxConcurrency={}", *c.maxConcurrency);
  if (c.speculatedIterations) fields += fmt::format(" speculatedIterations={}", *c.speculatedIterations);
  if (c.dependencyLengthAll) fields += fmt::format(" dependencyLengthAll={}", *c.dependencyLengthAll);
  for (auto [m, d] : c.memoryDependenceDistance) fields += fmt::format(" dep[{}]={}", memName(k, m), d);
  if (!fields.empty()) s += fmt::format("{}controls:{}\n", indent, fields);
  for (const auto& r : c.requests)
    s += fmt::format("{}request {}{}{}: {}{}\n", indent, r.name, r.value.empty() ? "" : " ", r.value,
                     statusName(r.status), r.note.empty() ? "" : " (" + r.note + ")");
  return s;
}

} // namespace

std::string printKernel(const Kernel& k) {
  std::string s = fmt::format("kernel {}\n", k.name);
  for (size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& a = k.args[i];
    s += a.isPointer ? fmt::format("  arg{} {}: pointer -> {}\n", i, a.name, memName(k, a.memory))
                     : fmt::format("  arg{} {}: i{}\n", i, a.name, a.width);
  }
  for (size_t m = 0; m < k.memories.size(); ++m) {
    const Memory& mem = k.memories[m];
    if (mem.kind == Memory::Kind::Global)
      s += fmt::format("  mem{} {}: global, argument {}, widest access {} bytes\n", m, mem.name, mem.argIndex,
                       mem.elemBytes);
    else
      s += fmt::format("  mem{} {}: local, {} bytes, {}, widest access {} bytes\n", m, mem.name, mem.sizeBytes,
                       mem.init.empty() ? "no initial contents" : "initialised", mem.elemBytes);
  }
  for (size_t b = 0; b < k.blocks.size(); ++b) {
    const BasicBlock& bb = k.blocks[b];
    s += fmt::format("bb{} {}:{}\n", b, bb.name, bb.loopCall ? fmt::format("  (runs loop{})", *bb.loopCall) : "");
    if (!bb.notPipelinedReason.empty()) s += fmt::format("  ; loop header, not pipelined: {}\n", bb.notPipelinedReason);
    if (bb.loopControls) s += formatControls(k, *bb.loopControls, "  ; ");
    for (ValueId v : bb.ops) s += v < k.ops.size() ? formatOp(k, k.ops[v], v, &k.blocks) : fmt::format("  %{} ?\n", v);
    s += formatTerm(k, bb.term);
  }
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const Loop& lp = k.loops[l];
    s += fmt::format("loop{} {}: depth {}{}\n", l, lp.name, lp.depth,
                     lp.tripCountHint ? fmt::format(", trip count hint {}", *lp.tripCountHint) : "");
    s += formatControls(k, lp.controls, "  ");
    for (size_t i = 0; i < lp.liveIns.size(); ++i) s += fmt::format("  in{} = kernel {}\n", i, val(lp.liveIns[i]));
    for (size_t i = 0; i < lp.phis.size(); ++i)
      s += fmt::format("  phi{} {} i{}: init in{}, next {}\n", i, lp.phis[i].name, lp.phis[i].width,
                       lp.phis[i].initLiveIn, val(lp.phis[i].next));
    for (ValueId v = 0; v < lp.ops.size(); ++v) s += formatOp(k, lp.ops[v], v, nullptr);
    s += fmt::format("  continue {}\n", val(lp.continueCond));
    for (size_t i = 0; i < lp.liveOuts.size(); ++i) s += fmt::format("  out{} = {}\n", i, val(lp.liveOuts[i]));
  }
  for (const auto& d : k.diagnostics) s += d.str() + "\n";
  return s;
}

} // namespace spvhls::ir
