// buildStructure: what follows from the final CFG and loops — the region tree, the kernel's process
// and the memories' ports (see ir/hls_ir.h).
#include <algorithm>
#include <bit>

#include "ir/lower_internal.h"

namespace spvhls::ir {

namespace lower {

std::vector<std::vector<MemoryPort>> memoryPortsFromAccesses(const Kernel& k, uint32_t ramPorts,
                                                             uint32_t ramReadPorts) {
  std::vector<uint8_t> reads(k.memories.size(), 0), writes(k.memories.size(), 0), tasks(k.memories.size(), 0);
  auto scan = [&](const std::vector<Op>& ops) {
    for (const Op& op : ops) {
      if (op.memory >= k.memories.size()) continue; // the verifier reports it
      if (op.kind == OpKind::Load) reads[op.memory] = 1;
      if (op.kind == OpKind::Store) writes[op.memory] = 1;
    }
  };
  scan(k.ops);
  for (const Loop& lp : k.loops)
    scan(lp.ops);
  // Task processes access the kernel's memories their bodies' memories are.
  for (const Process& p : k.processes) {
    if (p.kind != Process::Kind::Task || p.body >= k.tasks.size()) continue;
    const auto inner = memoryPortsFromAccesses(k.tasks[p.body], 1, 1);
    for (size_t bm = 0; bm < inner.size() && bm < p.memoryMap.size(); ++bm) {
      const uint32_t m = p.memoryMap[bm];
      if (m >= k.memories.size() || inner[bm].empty()) continue;
      tasks[m] = 1;
      for (const MemoryPort& port : inner[bm]) {
        reads[m] |= port.access != PortAccess::Write;
        writes[m] |= port.access != PortAccess::Read;
      }
    }
  }
  // One port per memory, its direction what the accesses need; an on-chip RAM read and written gets
  // a read port and a write port, unless a task reaches it (the arbiter shares one port).
  std::vector<std::vector<MemoryPort>> ports(k.memories.size()); // keys numbered below
  std::vector<uint8_t> copyable(k.memories.size(), 0);           // an on-chip RAM whose port 0 only reads
  for (uint32_t m = 0; m < k.memories.size(); ++m) {
    const Memory& mem = k.memories[m];
    if (ramPorts >= 2 && reads[m] && writes[m] && !tasks[m] && mem.onChip())
      ports[m] = {{PortAccess::Read, 0}, {PortAccess::Write, 0}};
    else if (reads[m] || writes[m])
      ports[m].push_back({reads[m] && writes[m] ? PortAccess::ReadWrite
                          : reads[m]            ? PortAccess::Read
                                                : PortAccess::Write,
                          0});
    copyable[m] = !ports[m].empty() && ports[m][0].access == PortAccess::Read && !tasks[m] && mem.onChip();
  }
  // Such a RAM gets more read ports, up to ramReadPorts, where a loop loads it more often per
  // iteration than its busiest other port is used (a port that cannot be copied: a pointer
  // argument's, or a write port): each a copy of the RAM (the write port writes them all), charged to
  // the on-chip budget. Copies beyond that bound would not lower the loop's ResMII.
  std::vector<uint32_t> wanted(k.memories.size(), 1);
  for (const Loop& lp : k.loops) {
    std::vector<uint32_t> loads(k.memories.size(), 0), stores(k.memories.size(), 0);
    for (const Op& op : lp.ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory < k.memories.size())
        ++(op.kind == OpKind::Load ? loads : stores)[op.memory];
    uint32_t bound = 1; // the most uses of one port that copies do not spread
    for (size_t m = 0; m < k.memories.size(); ++m)
      bound = std::max(bound, copyable[m] ? stores[m] : loads[m] + stores[m]);
    for (size_t m = 0; m < k.memories.size(); ++m)
      if (copyable[m]) wanted[m] = std::max(wanted[m], (loads[m] + bound - 1) / bound);
  }
  uint64_t onChipBytes = 0;
  for (const Memory& mem : k.memories)
    if (mem.onChip()) onChipBytes += mem.sizeBytes;
  for (uint32_t m = 0; m < k.memories.size(); ++m) {
    if (!copyable[m]) continue;
    uint32_t copies = std::min(ramReadPorts, wanted[m]);
    while (copies > 1 && onChipBytes + uint64_t(copies - 1) * k.memories[m].sizeBytes > k.onChipBudget)
      --copies;
    onChipBytes += uint64_t(copies - 1) * k.memories[m].sizeBytes;
    for (uint32_t c = 1; c < copies; ++c)
      ports[m].push_back({PortAccess::Read, 0});
  }
  // Memory m's first port is hardware port m; the others follow the memories, in order.
  auto next = static_cast<uint32_t>(k.memories.size());
  for (uint32_t m = 0; m < k.memories.size(); ++m)
    for (size_t p = 0; p < ports[m].size(); ++p)
      ports[m][p].key = p == 0 ? m : next++;
  return ports;
}

std::vector<uint32_t> memoryWordBitsFromAccesses(const Kernel& k) {
  // Ports carry 64 bits, or the widest access when a vector is accessed whole
  // (docs/hardware-interface.md): scalar kernels keep their interface.
  std::vector<uint32_t> bits(k.memories.size(), 64);
  auto scan = [&](const std::vector<Op>& ops) {
    for (const Op& op : ops)
      if ((op.kind == OpKind::Load || op.kind == OpKind::Store) && op.memory < k.memories.size())
        bits[op.memory] = std::max(bits[op.memory], 8 * std::bit_ceil(uint32_t(op.size)));
  };
  scan(k.ops);
  for (const Loop& lp : k.loops)
    scan(lp.ops);
  for (const Process& p : k.processes) {
    if (p.kind != Process::Kind::Task || p.body >= k.tasks.size()) continue;
    const auto inner = memoryWordBitsFromAccesses(k.tasks[p.body]);
    for (size_t bm = 0; bm < inner.size() && bm < p.memoryMap.size(); ++bm)
      if (const uint32_t m = p.memoryMap[bm]; m < k.memories.size()) bits[m] = std::max(bits[m], inner[bm]);
  }
  return bits;
}

} // namespace lower

namespace {

uint32_t addRegion(Kernel& k, Region r) {
  const uint32_t index = static_cast<uint32_t>(k.regions.size());
  if (r.parent != kNoRegion) {
    r.depth = k.regions[r.parent].depth + 1;
    k.regions[r.parent].children.push_back(index);
  }
  if (r.loop) k.loops[*r.loop].depth = r.depth;
  k.regions.push_back(std::move(r));
  return index;
}

// A pipelined loop's region, and those of the inner loops its body calls.
void addPipelined(Kernel& k, uint32_t loop, uint32_t parent, uint32_t callBlock,
                  std::vector<uint8_t>& placed) {
  if (loop >= k.loops.size() || placed[loop]) return; // malformed: the verifier reports it
  placed[loop] = 1;
  Region r;
  r.name = k.loops[loop].name;
  r.loc = k.loops[loop].loc;
  r.process = k.regions[parent].process;
  r.parent = parent;
  r.header = callBlock;
  if (callBlock != kNoBlock) r.blocks = {callBlock};
  r.loop = loop;
  const uint32_t self = addRegion(k, std::move(r));
  std::vector<uint32_t> inner;
  for (const Op& op : k.loops[loop].ops)
    if (op.kind == OpKind::LoopCall) inner.push_back(op.index);
  for (uint32_t l : inner)
    addPipelined(k, l, self, kNoBlock, placed);
}

} // namespace

namespace {

// Loads from on-chip RAMs answer in kOnChipReadLatency; the rest (pointer arguments, external
// memories, queues) at the target's memory latency. A task body's view of a kernel memory is an
// External port of its own (lowerTaskBodies), re-stamped here when the kernel's structure is built.
void stampReadLatencies(Kernel& k) {
  auto stamp = [&](std::vector<Op>& ops) {
    for (Op& op : ops)
      if (op.kind == OpKind::Load && op.memory < k.memories.size())
        op.readLatency = k.memories[op.memory].onChip() ? kOnChipReadLatency : 0;
  };
  stamp(k.ops);
  for (Loop& lp : k.loops)
    stamp(lp.ops);
  for (Kernel& body : k.tasks)
    stampReadLatencies(body);
}

// The memories' ports, and each load and store the port that serves it: a store the port that
// writes, the loads of each loop (and of the FSM) the read ports in turn, so that a loop's loads of a
// RAM with n read ports are spread evenly over them. A task body's memories are derived again: those
// it shares with the kernel became External ports after its own structure was built
// (lowerTaskBodies).
void derivePorts(Kernel& k, uint32_t ramPorts, uint32_t ramReadPorts) {
  for (Kernel& body : k.tasks)
    derivePorts(body, ramPorts, ramReadPorts);
  const auto ports = lower::memoryPortsFromAccesses(k, ramPorts, ramReadPorts);
  std::vector<std::vector<uint8_t>> readers(k.memories.size());
  std::vector<uint8_t> writer(k.memories.size(), 0);
  for (size_t m = 0; m < k.memories.size(); ++m) {
    k.memories[m].ports = ports[m];
    for (size_t p = 0; p < ports[m].size(); ++p) {
      if (ports[m][p].access != PortAccess::Write) readers[m].push_back(uint8_t(p));
      if (ports[m][p].access != PortAccess::Read) writer[m] = uint8_t(p);
    }
  }
  auto stamp = [&](std::vector<Op>& ops) {
    std::vector<uint32_t> loads(k.memories.size(), 0);
    for (Op& op : ops) {
      if ((op.kind != OpKind::Load && op.kind != OpKind::Store) || op.memory >= k.memories.size()) continue;
      const auto& r = readers[op.memory];
      op.port = op.kind == OpKind::Store ? writer[op.memory]
                : r.empty()              ? 0
                                         : r[loads[op.memory]++ % r.size()];
    }
  };
  stamp(k.ops);
  for (Loop& lp : k.loops)
    stamp(lp.ops);
}

} // namespace

void buildStructure(Kernel& k, uint32_t ramPorts, uint32_t ramReadPorts) {
  stampReadLatencies(k);
  if (k.processes.empty()) { // no task sequences: the kernel is the one process
    Process p;
    p.kind = Process::Kind::Kernel;
    p.name = k.name;
    p.loc = k.loc;
    k.processes.push_back(std::move(p));
  }
  k.processes[0].region = 0;
  k.regions.clear();
  Region root;
  root.kind = Region::Kind::Process;
  root.name = k.name;
  root.loc = k.loc;
  root.blocks.resize(k.blocks.size());
  for (uint32_t b = 0; b < k.blocks.size(); ++b)
    root.blocks[b] = b;
  addRegion(k, std::move(root));

  // Loops left in the CFG: the natural loops, outer ones first.
  const lower::LoopForest forest = lower::findLoops(k);
  std::vector<uint32_t> regionOf(forest.loops.size());
  for (size_t i = 0; i < forest.loops.size(); ++i) {
    const lower::LoopInfo& L = forest.loops[i];
    Region r;
    r.name = k.blocks[L.header].name;
    r.loc = k.blocks[L.header].term.loc;
    r.parent = L.parent >= 0 ? regionOf[L.parent] : 0;
    r.header = L.header;
    r.blocks = L.blocks;
    regionOf[i] = addRegion(k, std::move(r));
  }
  // Pipelined loops, under the innermost loop of the FSM around their LoopCall block.
  std::vector<uint8_t> placed(k.loops.size(), 0);
  for (uint32_t b = 0; b < k.blocks.size(); ++b)
    for (ValueId v : k.blocks[b].ops)
      if (k.ops[v].kind == OpKind::LoopCall) {
        const int L = b < forest.innermost.size() ? forest.innermost[b] : -1;
        addPipelined(k, k.ops[v].index, L >= 0 ? regionOf[L] : 0, b, placed);
      }

  derivePorts(k, ramPorts, ramReadPorts);
  const auto bits = lower::memoryWordBitsFromAccesses(k);
  for (size_t m = 0; m < k.memories.size(); ++m)
    k.memories[m].wordBits = bits[m];
}

} // namespace spvhls::ir
