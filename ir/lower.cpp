// lowerKernel: runs the lowering steps in order (see ir/lower.h).
#include "ir/lower.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "ir/lower_internal.h"

namespace spvhls::ir {

const char* inlinePolicyName(InlinePolicy p) {
  switch (p) {
  case InlinePolicy::Auto:
    return "auto";
  case InlinePolicy::Always:
    return "always";
  case InlinePolicy::Never:
    return "never";
  }
  return "?";
}

namespace {
constexpr uint32_t kKernelModel = 6; // ExecutionModel Kernel
}

std::vector<std::string> kernelNames(const spirv::ModuleView& mv) {
  std::vector<std::string> names;
  for (const auto& ep : mv.entryPoints)
    if (ep.executionModel == kKernelModel) names.push_back(ep.name);
  return names;
}

Kernel lowerKernel(const spirv::ModuleView& mv, const std::string& entryName, const LowerOptions& options) {
  const spirv::EntryPoint* ep = mv.findEntryPoint(entryName);
  if (!ep || ep->executionModel != kKernelModel) {
    std::string known;
    for (const auto& n : kernelNames(mv)) known += (known.empty() ? "" : ", ") + n;
    throw DiagnosticError(SourceLoc{mv.module.fileName, 0, 0, 0, !mv.module.fileName.empty()}, "OpEntryPoint",
                          fmt::format("no kernel entry point named \"{}\"; the module has: {}", entryName,
                                      known.empty() ? "none" : known));
  }
  const spirv::Function* f = mv.findFunction(ep->function);
  if (!f || f->isDeclaration())
    throw DiagnosticError(mv.locOf(ep->inst), "OpEntryPoint",
                          fmt::format("entry point \"{}\" names a function without a body", entryName));

  return lower::lowerFunction(mv, *ep, *f, options, nullptr);
}

namespace lower {

namespace {
// Rounds of load reuse and value merging; each round that changes something removes loads or values,
// so a fixed point comes quickly, and the bound only guards against a bug that keeps changing things.
constexpr int kMaxMergeRounds = 16;

// Lanes of a subgroup in hardware: the kernel's SubgroupSize, else --subgroup-size (checked where
// the kernel uses subgroups).
uint32_t subgroupLanesOf(const spirv::ModuleView& mv, const spirv::EntryPoint& ep,
                         const LowerOptions& options) {
  uint32_t lanes = options.subgroupSize;
  for (const spirv::ExecutionMode& em : mv.executionModes)
    if (em.entryPoint == ep.function && em.mode == spirv::spv::ExecutionMode::SubgroupSize &&
        !em.literals.empty())
      lanes = em.literals[0];
  return lanes;
}

// The largest work-group the kernel runs (what its barriers' buffers hold): reqd_work_group_size
// (LocalSize), else max_work_group_size (MaxWorkgroupSizeINTEL), else --max-work-group-size.
uint64_t maxWorkGroupItems(const spirv::ModuleView& mv, const spirv::EntryPoint& ep,
                           const LowerOptions& options) {
  for (const spirv::ExecutionMode& em : mv.executionModes)
    if (em.entryPoint == ep.function && em.literals.size() >= 3 &&
        (em.mode == spirv::spv::ExecutionMode::LocalSize ||
         em.mode == spirv::spv::ExecutionMode::MaxWorkgroupSizeINTEL))
      return uint64_t(em.literals[0]) * em.literals[1] * em.literals[2];
  return options.maxWorkGroupSize;
}

// Lowers the body of every Task process of `k` (its task function, as a kernel of its own whose
// arguments are the parameters) and binds the body's memories to the kernel's: a pointer parameter
// to the memory the asyncs pass pointers into, a global variable to the kernel's memory of it (added
// when only tasks use it). Those become ports of the body (Memory::Kind::External): the memories
// themselves are the kernel's, shared with arbitration. A task's private arrays and its constants
// stay its own.
void lowerTaskBodies(const spirv::ModuleView& mv, Kernel& k, const LowerOptions& options) {
  for (Process& p : k.processes) {
    if (p.kind != Process::Kind::Task) continue;
    const spirv::Function& fn = *mv.findFunction(p.spirvFunction);
    spirv::EntryPoint ep;
    ep.executionModel = kKernelModel;
    ep.function = fn.id;
    ep.name = p.function;
    ep.inst = fn.defInst;
    Kernel body = lowerFunction(mv, ep, fn, options, &p);
    if (!body.tasks.empty())
      throw DiagnosticError(p.loc, "OpTaskSequenceCreateINTEL",
                            fmt::format("task function {} creates task sequences of its own (nested tasks); that is "
                                        "not supported in hardware yet",
                                        p.function));
    p.memoryMap.assign(body.memories.size(), kNoMemory);
    for (uint32_t bm = 0; bm < body.memories.size(); ++bm) {
      Memory& mem = body.memories[bm];
      if (mem.ownQueue()) continue; // the task's end of its own queues
      if (mem.boundTo != kNoMemory) { // a served body's port onto a pointer parameter's memory
        p.memoryMap[bm] = mem.boundTo;
        continue;
      }
      if (mem.kind == Memory::Kind::Argument) {
        p.memoryMap[bm] = p.argMemory.at(mem.argIndex);
        if (p.memoryMap[bm] == kNoMemory) // no async passes it: nothing can run the task
          throw DiagnosticError(p.loc, "task " + p.name,
                                fmt::format("no async binds its pointer parameter '{}'", mem.name));
        continue;
      }
      if (mem.kind == Memory::Kind::External && !mem.persistent)
        throw DiagnosticError(p.loc, "task " + p.name,
                              fmt::format("its private array '{}' ({} bytes) does not fit the on-chip budget; an "
                                          "external memory inside a task is not supported yet (raise "
                                          "--on-chip-budget)",
                                          mem.name, mem.sizeBytes));
      if (!mem.persistent) continue; // private arrays, constants, per-invocation variables: its own
      uint32_t m = kNoMemory;
      for (uint32_t km = 0; km < k.memories.size(); ++km)
        if (k.memories[km].spirvVar == mem.spirvVar && k.memories[km].persistent) m = km;
      if (m == kNoMemory) {
        m = static_cast<uint32_t>(k.memories.size());
        Memory shared = mem;
        shared.ports.clear();
        k.memories.push_back(std::move(shared));
      }
      p.memoryMap[bm] = m;
      mem.kind = Memory::Kind::External; // a port of the task's module
      mem.init.clear();
    }
    p.body = static_cast<uint32_t>(k.tasks.size());
    k.tasks.push_back(std::move(body));
  }
}
} // namespace

Kernel lowerFunction(const spirv::ModuleView& mv, const spirv::EntryPoint& ep, const spirv::Function& fn,
                     const LowerOptions& options, Process* task) {
  const std::string& entryName = ep.name;
  lower::Context c(mv, ep, fn);
  c.taskBody = task != nullptr;
  c.subgroupLanes = subgroupLanesOf(mv, ep, options);
  lower::LFunc lf = lower::decodeAndInline(c, options.inlinePolicy);
  lower::checkFunc(c, lf, "inlining");
  lower::promoteVariables(c, lf);
  lower::checkFunc(c, lf, "promotion of variables");
  lower::Translated t = lower::translate(c, lf, options.onChipBudget);
  Kernel k = std::move(t.kernel);
  k.inlining = std::move(lf.decisions);
  k.inlinePolicy = inlinePolicyName(options.inlinePolicy);
  // A Volatile decoration anywhere in the module counts too: it may be on a pointer the kernel uses.
  k.volatileAccess =
      c.volatileAccess || std::any_of(mv.decorations.begin(), mv.decorations.end(), [](const auto& d) {
        return std::any_of(d.second.begin(), d.second.end(), [](const spirv::Decoration& x) {
          return x.kind == spirv::spv::Decoration::Volatile;
        });
      });
  lower::checkAfter(k, "translation");
  k.registerLimit = spirv::registerLimitOf(mv, ep.function);
  if (auto n = spirv::registerLimitValue(mv, ep.function)) k.registerBudgetBits = 32 * *n;
  if (mv.hasDecoration(ep.function, spirv::spv::Decoration::StallEnableINTEL)) k.clusterAttribute = "StallEnableINTEL";
  if (mv.hasDecoration(ep.function, spirv::spv::Decoration::StallFreeINTEL)) {
    if (!k.clusterAttribute.empty())
      throw DiagnosticError(mv.locOf(ep.inst), "OpDecorate",
                            fmt::format("kernel \"{}\" is decorated both StallEnableINTEL and StallFreeINTEL; expected at "
                                        "most one cluster kind",
                                        entryName));
    k.clusterAttribute = "StallFreeINTEL";
  }
  // Forwarding blocks (a `break`'s) would otherwise give loops extra exit targets. Kept: blocks
  // carrying loop controls (the controls refer to them), loop headers and the blocks entering them
  // (kept for the SPIR-V-label cycle predictor, now replaced by the IR profile; threading them would
  // change the FSM's schedule, so that is a change of its own).
  std::vector<uint8_t> keep(k.blocks.size(), 0);
  for (const auto& pc : t.controls) keep[pc.block] = 1;
  for (const auto& loop : lower::findLoops(k).loops) {
    keep[loop.header] = 1;
    for (auto& b : k.blocks)
      if (b.term.kind == Terminator::Kind::Branch && b.term.targets[0] == loop.header)
        keep[static_cast<size_t>(&b - k.blocks.data())] = 1;
  }
  lower::threadForwardingBlocks(k, keep);
  lower::checkAfter(k, "forwarding-block threading");
  lower::LoopForest forest = lower::findLoops(k);
  std::sort(forest.irreducible.begin(), forest.irreducible.end());
  forest.irreducible.erase(std::unique(forest.irreducible.begin(), forest.irreducible.end()), forest.irreducible.end());
  for (uint32_t b : forest.irreducible)
    k.diagnostics.push_back(Diagnostic{Diagnostic::Severity::Note, k.blocks[b].term.loc, "block " + k.blocks[b].name,
                                       "is entered by a cycle with several entries (irreducible control flow); "
                                       "that cycle runs in the FSM and is not pipelined"});
  lower::attachControls(k, forest, t.controls);
  lower::checkAfter(k, "attaching loop controls");
  auto findAgain = [&] {
    std::map<uint32_t, uint64_t> hints; // LoopCountINTEL hints stay with their headers
    for (const auto& L : forest.loops)
      if (L.tripCountHint) hints[L.header] = *L.tripCountHint;
    forest = lower::findLoops(k);
    for (auto& L : forest.loops)
      if (auto it = hints.find(L.header); it != hints.end()) L.tripCountHint = it->second;
  };
  if (lower::transformLoops(k, forest)) {
    lower::checkAfter(k, "loop transformations");
    findAgain();
  }
  if (lower::fuseLoops(k, forest, options.fuseLoops)) {
    lower::checkAfter(k, "loop fusion");
    findAgain();
  }
  const bool subgroups = lower::hasSubgroups(k), workItems = lower::hasWorkItems(k) || lower::hasBarriers(k);
  if (task && (workItems || subgroups)) {
    const Op& wi =
        *std::find_if(k.ops.begin(), k.ops.end(), [](const Op& op) { return isLoweringOnly(op.kind); });
    throw DiagnosticError(wi.loc, "task " + task->name,
                          fmt::format("its function uses {} ({}); a task function runs as one work-item, "
                                      "without work-item built-ins or subgroups",
                                      wi.name.empty() ? "a subgroup operation" : wi.name,
                                      opKindName(wi.kind)));
  }
  if (!task && (options.ndRange || workItems || subgroups)) {
    const uint32_t lanes = subgroups ? c.subgroupLanes : 1;
    if (lanes < 1 || lanes > 64 || (lanes & (lanes - 1)))
      throw DiagnosticError(
          mv.locOf(ep.inst), "SubgroupSize",
          fmt::format("a subgroup of {} work-items; the hardware builds subgroups of a power of "
                      "two from 1 to 64 lanes",
                      lanes));
    lower::streamWorkItems(k, lanes, subgroups, maxWorkGroupItems(mv, ep, options));
    lower::checkAfter(k, "building the loop over work-items");
    findAgain();
  }
  if (task && task->pipelined != 0) {
    task->notServed = lower::serveInvocations(k, *task, forest);
    task->served = task->notServed.empty();
    if (task->served) {
      lower::checkAfter(k, "building the loop serving a pipelined task's invocations");
      findAgain();
    }
  }
  lower::extractLoops(k, forest);
  if (task && task->served && k.loops.size() != 1)
    throw InternalError(task->loc, "task " + task->name, "the loop serving its invocations was not pipelined");
  lower::checkAfter(k, "loop extraction");
  lower::compactKernel(k);
  lower::checkAfter(k, "compaction");
  if (k.subgroups) {
    // The lanes run side by side through one pipeline over the work-items: the kernel's own loops in
    // it become its sub-pipelines.
    if (lower::extractOuterLoops(k, false, lower::workItemLoops(k))) {
      lower::compactKernel(k);
      lower::checkAfter(k, "outer-loop extraction of the loop over work-items");
    }
    lower::buildLanes(k);
    lower::compactKernel(k); // what the lanes left unused
    lower::checkAfter(k, "building a subgroup's lanes");
  }
  if (options.optimizeDatapath) {
    // Reused loads make addresses equal and merged addresses make loads reusable: to a fixed point
    // (compaction in between drops what was replaced, so nothing is counted twice).
    for (int round = 0; round < kMaxMergeRounds && (lower::reuseLoads(k) | lower::mergeEqualValues(k));
         ++round) {
      lower::compactKernel(k);
      lower::checkAfter(k, "reusing loads and merging equal values");
    }
    if (lower::forwardStores(k)) lower::checkAfter(k, "forwarding stores to the next iteration's loads");
    if (lower::optimizeDatapath(k)) {
      lower::compactKernel(k);
      lower::checkAfter(k, "datapath optimisations");
    }
    if (lower::widenAccesses(k)) {
      lower::compactKernel(k);
      lower::checkAfter(k, "merging consecutive accesses into wide ones");
    }
    // Last: the passes before may leave a private array's loads unused (compaction drops those).
    if (lower::dropUnreadStores(k)) {
      lower::compactKernel(k);
      lower::checkAfter(k, "dropping stores to private arrays nothing reads");
    }
  }
  if (lower::extractOuterLoops(k, options.pipelineOuterLoops)) {
    lower::compactKernel(k);
    lower::checkAfter(k, "outer-loop extraction");
  }
  lower::buildInterleaving(k);
  lowerTaskBodies(mv, k, options);
  buildStructure(k, options.ramPorts, options.ramReadPorts);
  lower::checkAfter(k, "building the region tree", VerifyLevel::Final);
  // The operation lists are final: give back their growth slack (they live until code generation ends).
  k.ops.shrink_to_fit();
  for (Loop& l : k.loops)
    l.ops.shrink_to_fit();
  return k;
}


void checkAfter(const Kernel& k, const char* pass, VerifyLevel level) {
  try {
    verifyKernel(k, level);
  } catch (const DiagnosticError& e) {
    // The input was accepted, so a broken invariant is the compiler's fault.
    // For compiler developers: the IR the check rejected.
    if (std::getenv("SPVHLS_DUMP_BAD_IR")) std::cerr << printKernel(k) << "\n";
    std::vector<Diagnostic> diags = e.diagnostics();
    for (auto& d : diags) d.message = fmt::format("after {}: {}", pass, d.message);
    throw InternalError(std::move(diags));
  }
}

} // namespace lower

} // namespace spvhls::ir
