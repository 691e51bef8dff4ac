// HLS IR basics: the operation table, type names and rules, and the readable dump.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ir/hls_ir.h"

namespace spvhls::ir {

namespace {
enum class Effect { Pure, SideEffect };
constexpr int Variadic = kVariadic; // the spelling ir/ops.def uses
} // namespace

const OpInfo& opInfo(OpKind k) {
  static constexpr OpInfo table[] = {
#define OP(name, operands, result, effect, cls)                                                                     \
  {#name, operands, ResultRule::result, Effect::effect == Effect::SideEffect, OpClass::cls},
#include "ir/ops.def"
#undef OP
  };
  const auto i = static_cast<size_t>(k);
  if (i >= std::size(table)) throw InternalError(SourceLoc{}, "HLS IR", fmt::format("operation kind {} is not in ir/ops.def", i));
  return table[i];
}

const char* opClassName(OpClass c) {
  switch (c) {
  case OpClass::Wire: return "wire";
  case OpClass::Logic: return "logic";
  case OpClass::Arith: return "arith";
  case OpClass::Shift: return "shift";
  case OpClass::Compare: return "compare";
  case OpClass::Mux: return "mux";
  case OpClass::Multiply: return "multiply";
  case OpClass::Divide: return "divide";
  case OpClass::Float:
    return "float";
  case OpClass::Memory: return "memory";
  case OpClass::Control: return "control";
  }
  return "?";
}

const char* roundingName(uint8_t rounding) {
  static constexpr const char* kNames[] = {"rte", "rtz", "rtp", "rtn"};
  return rounding < 4 ? kNames[rounding] : "?";
}

const char* portAccessName(PortAccess a) {
  switch (a) {
  case PortAccess::Read: return "read";
  case PortAccess::Write: return "write";
  case PortAccess::ReadWrite: return "read-write";
  }
  return "?";
}

const char* memoryKindName(Memory::Kind k) {
  switch (k) {
  case Memory::Kind::Argument: return "argument";
  case Memory::Kind::ProgramScope: return "program-scope";
  case Memory::Kind::Private: return "private";
  case Memory::Kind::WorkGroup: return "work-group";
  case Memory::Kind::External:
    return "external";
  case Memory::Kind::Queue:
    return "task queue";
  }
  return "?";
}

std::string typeName(Type t) {
  auto scalar = [](TypeKind k, uint32_t bits) { return fmt::format("{}{}", k == TypeKind::Float ? 'f' : 'i', bits); };
  switch (t.kind) {
  case TypeKind::None: return "none";
  case TypeKind::Bits: case TypeKind::Float: return scalar(t.kind, t.scalarBits);
  case TypeKind::Vector: return fmt::format("<{} x {}>", t.lanes, scalar(t.scalar, t.scalarBits));
  }
  return "?";
}

std::string typeProblem(Type t) {
  auto scalarProblem = [](TypeKind k, uint32_t bits) -> std::string {
    if (k == TypeKind::Bits)
      return bits >= 1 && bits <= kMaxTypeBits ? "" : fmt::format("bit width {} not in 1..{}", bits, kMaxTypeBits);
    if (k == TypeKind::Float)
      return bits == 16 || bits == 32 || bits == 64 ? "" : fmt::format("no {}-bit floating-point type", bits);
    return "a lane must be bits or floating point";
  };
  switch (t.kind) {
  case TypeKind::None:
    return t == Type::none() ? "" : "malformed none type";
  case TypeKind::Bits: case TypeKind::Float:
    if (t.scalar != t.kind || t.lanes != 1) return "malformed scalar type";
    return scalarProblem(t.kind, t.scalarBits);
  case TypeKind::Vector: {
    if (t.lanes < 2) return fmt::format("a vector of {} lanes", t.lanes);
    if (std::string p = scalarProblem(t.scalar, t.scalarBits); !p.empty()) return p;
    if (uint64_t(t.scalarBits) * t.lanes > kMaxTypeBits)
      return fmt::format("{} bits in all lanes, above {}", uint64_t(t.scalarBits) * t.lanes, kMaxTypeBits);
    return "";
  }
  }
  return "unknown type kind";
}

std::vector<uint32_t> cfgRoots(const Kernel& k) {
  std::vector<uint32_t> roots{0};
  for (const Function& f : k.functions)
    roots.push_back(f.entry);
  return roots;
}

std::vector<int> functionOfBlocks(const Kernel& k) {
  std::vector<int> of(k.blocks.size(), -1);
  for (size_t f = 0; f < k.functions.size(); ++f) {
    std::vector<uint32_t> work{k.functions[f].entry};
    of[work[0]] = int(f);
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      for (uint32_t t : k.blocks[b].term.targets)
        if (of[t] < 0) of[t] = int(f), work.push_back(t);
    }
  }
  return of;
}

namespace {
// Calls f(op) for every load and store of loop `l` and of the inner loops it runs.
template <typename F> void forEachLoopAccess(const std::vector<Loop>& loops, uint32_t l, const F& f) {
  std::vector<uint32_t> work{l};
  while (!work.empty()) {
    const uint32_t x = work.back();
    work.pop_back();
    for (const Op& op : loops.at(x).ops) {
      if (op.kind == OpKind::Load || op.kind == OpKind::Store) f(op);
      if (op.kind == OpKind::LoopCall) work.push_back(op.index);
    }
  }
}
} // namespace

MemoryUse loopMemoryUse(const std::vector<Loop>& loops, uint32_t l) {
  std::set<uint32_t> reads, writes;
  forEachLoopAccess(loops, l,
                    [&](const Op& op) { (op.kind == OpKind::Load ? reads : writes).insert(op.memory); });
  return {{reads.begin(), reads.end()}, {writes.begin(), writes.end()}};
}

uint32_t portKey(const std::vector<Memory>& memories, const Op& op) {
  if (op.port == 0 || op.memory >= memories.size() || op.port >= memories[op.memory].ports.size())
    return op.memory;
  return memories[op.memory].ports[op.port].key;
}

uint32_t portCount(const std::vector<Memory>& memories) {
  auto n = static_cast<uint32_t>(memories.size());
  for (const Memory& m : memories)
    for (const MemoryPort& p : m.ports)
      n = std::max(n, p.key + 1);
  return n;
}

uint32_t portMemory(const std::vector<Memory>& memories, uint32_t key) {
  if (key < memories.size()) return key;
  for (uint32_t m = 0; m < memories.size(); ++m)
    for (const MemoryPort& p : memories[m].ports)
      if (p.key == key) return m;
  return key; // no such port: the caller's index check reports it
}

std::string portName(const std::vector<Memory>& memories, uint32_t key) {
  const uint32_t m = portMemory(memories, key);
  if (m >= memories.size()) return fmt::format("port{}", key);
  const Memory& mem = memories[m];
  if (mem.ports.size() < 2) return mem.name;
  uint32_t reads = 0; // the read ports before it
  for (const MemoryPort& p : mem.ports) {
    if (p.key == key) {
      if (p.access == PortAccess::Write) return mem.name + " (write)";
      return reads == 0 ? mem.name + " (read)" : fmt::format("{} (read {})", mem.name, reads + 1);
    }
    reads += p.access != PortAccess::Write;
  }
  return mem.name;
}

PortUse loopPortUse(const std::vector<Memory>& memories, const std::vector<Loop>& loops, uint32_t l) {
  std::set<uint32_t> loads, all;
  forEachLoopAccess(loops, l, [&](const Op& op) {
    if (op.kind == OpKind::Load) loads.insert(portKey(memories, op));
    all.insert(portKey(memories, op));
  });
  return {{loads.begin(), loads.end()}, {all.begin(), all.end()}};
}

std::vector<int> loopCallers(const std::vector<Loop>& loops) {
  std::vector<int> caller(loops.size(), -1);
  for (size_t p = 0; p < loops.size(); ++p)
    for (const Op& op : loops[p].ops)
      if (op.kind == OpKind::LoopCall && op.index < loops.size()) caller[op.index] = int(p);
  return caller;
}

bool runsLoops(const Loop& loop) {
  return std::any_of(loop.ops.begin(), loop.ops.end(),
                     [](const Op& op) { return op.kind == OpKind::LoopCall; });
}

const LoopControls* regionControls(const Kernel& k, const Region& r) {
  if (r.kind != Region::Kind::Loop) return nullptr;
  if (r.loop) return *r.loop < k.loops.size() ? &k.loops[*r.loop].controls : nullptr;
  if (r.header >= k.blocks.size() || !k.blocks[r.header].loopControls) return nullptr;
  return &*k.blocks[r.header].loopControls;
}

namespace {

std::string val(ValueId v) { return v == kNone ? "-" : fmt::format("%{}", v); }

std::string memName(const Kernel& k, uint32_t m) {
  return m < k.memories.size() ? fmt::format("mem{}({})", m, k.memories[m].name) : fmt::format("mem{}(?)", m);
}

std::string formatOp(const Kernel& k, const Op& op, ValueId v, const std::vector<BasicBlock>* blocks) {
  std::string s = !op.type.isNone() ? fmt::format("  %{} = {} {}", v, opKindName(op.kind), typeName(op.type))
                                     : fmt::format("  {}", opKindName(op.kind));
  switch (op.kind) {
  case OpKind::Const:
    if (op.immHigh.empty()) {
      s += fmt::format(" {}", op.imm);
    } else { // most significant word first
      s += " 0x";
      s += fmt::format("{:x}", op.immHigh.back());
      for (size_t i = op.immHigh.size() - 1; i-- > 0;) s += fmt::format("{:016x}", op.immHigh[i]);
      s += fmt::format("{:016x}", op.imm);
    }
    break;
  case OpKind::Extract:
    s += fmt::format(" {} [{}+:{}]", val(op.operands.at(0)), op.imm, op.width());
    break;
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
  case OpKind::Call:
    s += fmt::format(" fn{}{}(", op.index,
                     op.index < k.functions.size() ? " " + k.functions[op.index].name : "");
    for (size_t i = 0; i < op.operands.size(); ++i)
      s += (i ? ", " : "") + val(op.operands[i]);
    s += ")";
    break;
  case OpKind::Param:
    s += fmt::format(" param{}", op.index);
    break;
  default:
    for (size_t i = 0; i < op.operands.size(); ++i) s += (i ? ", " : " ") + val(op.operands[i]);
    if (op.rounding != 0) s += fmt::format(" {}", roundingName(op.rounding));
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
  case Terminator::Kind::Return:
    return t.cond == kNone ? "  ret\n" : fmt::format("  ret {}\n", val(t.cond));
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

// The region tree, indented by depth.
std::string formatRegions(const Kernel& k) {
  std::string s;
  std::vector<std::pair<uint32_t, uint32_t>> stack; // region, indentation
  for (uint32_t r = k.regions.size(); r-- > 0;)
    if (k.regions[r].parent == kNoRegion) stack.push_back({r, 0});
  while (!stack.empty()) {
    auto [r, indent] = stack.back();
    stack.pop_back();
    if (r >= k.regions.size() || indent > k.regions.size()) break; // a malformed tree prints what it can
    const Region& g = k.regions[r];
    std::string what = g.kind == Region::Kind::Process ? fmt::format("process{} top level", g.process)
                       : g.loop ? fmt::format("loop, pipelined as loop{}", *g.loop)
                                : "loop in the FSM";
    if (g.kind == Region::Kind::Loop && g.header != kNoBlock) what += fmt::format(", header bb{}", g.header);
    s += fmt::format("  {}region{} {}: {}, depth {}, blocks {}\n", std::string(2 * indent, ' '), r, g.name, what,
                     g.depth, g.blocks.size());
    for (size_t i = g.children.size(); i-- > 0;) stack.push_back({g.children[i], indent + 1});
  }
  return s;
}

} // namespace

std::string printKernel(const Kernel& k) {
  std::string s = fmt::format("kernel {}\n", k.name);
  for (size_t i = 0; i < k.args.size(); ++i) {
    const KernelArg& a = k.args[i];
    s += a.isPointer ? fmt::format("  arg{} {}: pointer -> {}\n", i, a.name, memName(k, a.memory))
                     : fmt::format("  arg{} {}: {}\n", i, a.name, typeName(a.type));
  }
  for (size_t m = 0; m < k.memories.size(); ++m) {
    const Memory& mem = k.memories[m];
    std::string ports;
    for (const MemoryPort& p : mem.ports) ports += fmt::format("{}{}", ports.empty() ? "" : ", ", portAccessName(p.access));
    const std::string what =
        mem.onChip() ? fmt::format("{}, {} bytes, {}", memoryKindName(mem.kind), mem.sizeBytes,
                                   mem.init.empty() ? "no initial contents"
                                   : mem.persistent ? "initialised once, persistent"
                                                    : "initialised") +
                           (mem.holdsPointers ? ", holds pointers" : "")
        : mem.boundTo != kNoMemory ? fmt::format("a port onto the caller's mem{}", mem.boundTo)
        : mem.kind == Memory::Kind::External
            ? fmt::format("external, {} bytes{}", mem.sizeBytes, mem.persistent ? ", persistent" : "")
        : mem.ownQueue() ? fmt::format("the task's own {} queue", mem.queueResults ? "result" : "invocation")
        : mem.kind == Memory::Kind::Queue
            ? fmt::format("the {} queue of process{}", mem.queueResults ? "result" : "invocation", mem.queueProcess)
            : fmt::format("argument {}", mem.argIndex);
    s += fmt::format("  mem{} {}: {}, {}-bit words, widest access {} bytes, ports: {}\n", m, mem.name, what,
                     mem.wordBits, mem.elemBytes, ports.empty() ? "none" : ports);
  }
  for (size_t p = 0; p < k.processes.size(); ++p) {
    const Process& pr = k.processes[p];
    if (pr.kind == Process::Kind::Kernel) {
      s += fmt::format("  process{} {}: kernel, runs region{}\n", p, pr.name, pr.region);
      continue;
    }
    std::string bound;
    for (size_t m = 0; m < pr.memoryMap.size(); ++m)
      if (pr.memoryMap[m] != kNoMemory) bound += fmt::format(", its mem{} = mem{}", m, pr.memoryMap[m]);
    s += fmt::format("  process{} {}: task {}, body task{}, pipelined {}, cluster mode {}, get capacity {}, async "
                     "capacity {}, channels {} / {}{}\n",
                     p, pr.name, pr.function, pr.body, pr.pipelined, pr.clusterMode, pr.getCapacity,
                     pr.asyncCapacity, pr.invocation, pr.result, bound);
  }
  for (size_t c = 0; c < k.channels.size(); ++c) {
    const Channel& ch = k.channels[c];
    s += fmt::format("  channel{} {}: {}, {} x {}, process{} -> process{}\n", c, ch.name,
                     ch.kind == Channel::Kind::Invocation ? "invocation" : "result", ch.depth, typeName(ch.element),
                     ch.producer, ch.consumer);
  }
  for (size_t f = 0; f < k.functions.size(); ++f) {
    const Function& fn = k.functions[f];
    std::string params;
    for (Type t : fn.params)
      params += (params.empty() ? "" : ", ") + typeName(t);
    s += fmt::format("  fn{} {}({}) -> {}: shared, entry bb{}\n", f, fn.name, params, typeName(fn.result),
                     fn.entry);
  }
  s += formatRegions(k);
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
    s += fmt::format("loop{} {}: depth {}{}{}\n", l, lp.name, lp.depth,
                     lp.tripCountHint ? fmt::format(", trip count hint {}", *lp.tripCountHint) : "",
                     lp.copies > 1 ? fmt::format(", {} copies", lp.copies) : "");
    s += formatControls(k, lp.controls, "  ");
    for (size_t i = 0; i < lp.liveIns.size(); ++i) s += fmt::format("  in{} = kernel {}\n", i, val(lp.liveIns[i]));
    for (size_t i = 0; i < lp.phis.size(); ++i)
      s += fmt::format("  phi{} {} {}: init in{}, next {}\n", i, lp.phis[i].name, typeName(lp.phis[i].type),
                       lp.phis[i].initLiveIn, val(lp.phis[i].next));
    for (ValueId v = 0; v < lp.ops.size(); ++v) s += formatOp(k, lp.ops[v], v, nullptr);
    s += fmt::format("  continue {}\n", val(lp.continueCond));
    for (size_t i = 0; i < lp.liveOuts.size(); ++i) s += fmt::format("  out{} = {}\n", i, val(lp.liveOuts[i]));
  }
  for (const auto& d : k.diagnostics) s += d.str() + "\n";
  for (size_t t = 0; t < k.tasks.size(); ++t) s += fmt::format("task{} body:\n{}", t, printKernel(k.tasks[t]));
  return s;
}

} // namespace spvhls::ir
