// verifyKernel's checks of the final IR's structure: memory ports, processes and their task
// operations, and the region tree (Verifier, ir_verifier.h).
#include "ir/ir_verifier.h"

namespace spvhls::ir::verify {

void Verifier::checkPorts() const {
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
           fmt::format("its ports are {} bits wide, its accesses need {}", k_.memories[m].wordBits, bits[m]));
  auto opPorts = [&](const std::vector<Op>& ops) {
    for (const Op& op : ops) {
      if ((op.kind != OpKind::Load && op.kind != OpKind::Store) || op.memory >= k_.memories.size()) continue;
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

// The region tree: a tree per process, depths counted from its root, blocks nested as the regions,
// every loop of the CFG and every pipelined loop exactly once, each under its innermost enclosing loop.
void Verifier::checkRegions() const {
  const std::vector<Region>& R = k_.regions;
  const size_t n = k_.blocks.size();
  if (R.empty() || R[0].kind != Region::Kind::Process || R[0].parent != kNoRegion || R[0].process != 0)
    fail(k_.loc, "region tree", "regions[0] must be the top level of the kernel's process");
  std::vector<uint32_t> all(n);
  for (uint32_t b = 0; b < n; ++b)
    all[b] = b;
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
      if (c >= R.size() || R[c].parent != r)
        bad(fmt::format("child region{} does not name it as its parent", c));
    if (g.parent == kNoRegion) {
      if (g.kind != Region::Kind::Process || g.depth != 0)
        bad("a root must be a process's top level, at depth 0");
      if (g.process >= k_.processes.size() || k_.processes[g.process].region != r)
        bad("the root of no process");
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
      if (l >= k_.loops.size() || regionOfLoop[l] != kNoRegion)
        bad("names no loop, or one another region names");
      regionOfLoop[l] = r;
      if (k_.loops[l].depth != g.depth)
        bad(fmt::format("loop{} says depth {}, its region is at depth {}", l, k_.loops[l].depth, g.depth));
      if (callerOf_[l] >= 0) { // an inner loop of a pipelined loop
        if (!p.loop || *p.loop != static_cast<uint32_t>(callerOf_[l]))
          bad("its parent is not the loop that calls it");
        if (g.header != kNoBlock || !g.blocks.empty())
          bad("an inner loop of a pipelined loop has no blocks of the CFG");
      } else if (g.header >= n || k_.blocks[g.header].loopCall != l ||
                 g.blocks != std::vector<uint32_t>{g.header}) {
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
      if (!lower::dominates(idom_, g.header, b))
        bad(fmt::format("its header does not dominate block {}", k_.blocks[b].name));
      const auto& t = k_.blocks[b].term.targets;
      backEdge = backEdge || std::find(t.begin(), t.end(), g.header) != t.end();
    }
    if (!backEdge) bad("no block of it branches back to its header");
  }
  for (uint32_t l = 0; l < k_.loops.size(); ++l)
    if (regionOfLoop[l] == kNoRegion)
      fail(k_.loops[l].loc, "loop " + k_.loops[l].name, "a pipelined loop without a region");
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
    fail(op.loc, where,
         fmt::format("returns {}, the task's result is {}", typeName(op.type), typeName(p.resultType)));
  if (op.kind != OpKind::TaskAsync) return;
  if (op.operands.size() != p.params.size() || p.argMemory.size() != p.params.size())
    fail(op.loc, where, fmt::format("{} arguments for {} parameters", op.operands.size(), p.params.size()));
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const ValueId o = op.operands[i];
    if (o >= k_.ops.size()) continue; // reported with the operands
    const Type want = p.params.at(i);
    if (k_.ops[o].type != want)
      fail(op.loc, where,
           fmt::format("argument {} is {}, the parameter {}", i, typeName(k_.ops[o].type), typeName(want)));
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
    fail(pr.loc, where,
         fmt::format("{} parameters, its body has {} arguments", pr.params.size(), body.args.size()));
  for (size_t i = 0; i < body.args.size(); ++i)
    if ((body.args[i].isPointer ? Type::bits(64) : body.args[i].type) != pr.params[i])
      fail(pr.loc, where,
           fmt::format("parameter {} is {}, its body's argument another type", i, typeName(pr.params[i])));
  if (body.result != (pr.served ? Type{} : pr.resultType))
    fail(pr.loc, where, "its body returns another type");
  uint32_t ownQueues = 0;
  for (const Memory& mem : body.memories)
    ownQueues += mem.ownQueue() ? 1 : 0;
  if (ownQueues != (pr.served ? 2 : 0) || (pr.served && body.loops.size() != 1))
    fail(pr.loc, where,
         pr.served ? "a served body is one loop with its two queues" : "a body with queues of its own");
  auto channel = [&](uint32_t c, Channel::Kind kind, uint32_t from, uint32_t to) {
    if (c >= k_.channels.size() || k_.channels[c].kind != kind || k_.channels[c].producer != from ||
        k_.channels[c].consumer != to)
      fail(pr.loc, where,
           fmt::format("channel {} is not its {} channel", c,
                       kind == Channel::Kind::Invocation ? "invocation" : "result"));
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
      fail(pr.loc, where,
           fmt::format("body memory '{}' is a port onto kernel memory {}, bound to {}", mem.name, mem.boundTo,
                       m));
    if (port != (m != kNoMemory) || (m != kNoMemory && m >= k_.memories.size()))
      fail(pr.loc, where, fmt::format("body memory '{}' is bound to kernel memory {}", mem.name, m));
    if (mem.kind == Memory::Kind::Argument && m != pr.argMemory.at(mem.argIndex))
      fail(pr.loc, where,
           fmt::format("pointer parameter '{}' is not bound to the memory its asyncs pass", mem.name));
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
    if (ch.producer >= k_.processes.size() || ch.consumer >= k_.processes.size() ||
        ch.producer == ch.consumer)
      fail(ch.loc, where, "it must connect two different processes");
    if (ch.depth == 0) fail(ch.loc, where, "a FIFO of depth 0");
    if (ch.element.isNone()) fail(ch.loc, where, "entries without a type");
    if (std::string pr = typeProblem(ch.element); !pr.empty()) fail(ch.loc, where, pr);
  }
}

} // namespace spvhls::ir::verify
