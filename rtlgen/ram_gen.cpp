#include "rtlgen/ram_gen.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "frontend/diagnostics.h"
#include "rtlgen/verilog_util.h"

namespace spvhls::rtl {

namespace {
// Calls f(op) for every load and store of the kernel and its loops.
template <typename F> void forEachAccess(const ir::Kernel& k, const F& f) {
  auto scan = [&](const std::vector<ir::Op>& ops) {
    for (const ir::Op& op : ops)
      if ((op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store) && op.memory < k.memories.size()) f(op);
  };
  scan(k.ops);
  for (const ir::Loop& l : k.loops)
    scan(l.ops);
}
} // namespace

std::vector<uint32_t> ramWordBytes(const ir::Kernel& k) {
  std::vector<uint32_t> widest(k.memories.size(), 1);
  forEachAccess(k, [&](const ir::Op& op) {
    widest[op.memory] = std::max<uint32_t>(widest[op.memory], std::bit_ceil(uint32_t(op.size)));
  });
  // Task bodies reach the kernel's RAMs too (a program-scope array only a task uses).
  for (const ir::Process& p : k.processes) {
    if (p.kind != ir::Process::Kind::Task || p.body >= k.tasks.size()) continue;
    const std::vector<uint32_t> inner = ramWordBytes(k.tasks[p.body]);
    for (size_t bm = 0; bm < inner.size() && bm < p.memoryMap.size(); ++bm)
      if (const uint32_t m = p.memoryMap[bm]; m < widest.size()) widest[m] = std::max(widest[m], inner[bm]);
  }
  return widest;
}

std::vector<uint32_t> ramNarrowestBytes(const ir::Kernel& k) {
  std::vector<uint32_t> narrowest(k.memories.size(), 0);
  forEachAccess(k, [&](const ir::Op& op) {
    narrowest[op.memory] = narrowest[op.memory] ? std::min<uint32_t>(narrowest[op.memory], op.size) : op.size;
  });
  return narrowest;
}

std::string ramPortsText(const ir::Memory& mem) {
  size_t reads = 0, writes = 0;
  for (const ir::MemoryPort& p : mem.ports)
    reads += p.access == ir::PortAccess::Read, writes += p.access == ir::PortAccess::Write;
  if (mem.ports.size() < 2) return "";
  const std::string r = reads == 1 ? "a read port" : fmt::format("{} read ports (copies)", reads);
  return " with " + r + (writes ? " and a write port" : "");
}

std::string ramPortPrefix(const ir::Memory& mem, size_t port) {
  if (port == 0) return "";
  return mem.ports.at(port).access == ir::PortAccess::Write ? "w" : fmt::format("r{}", port);
}

nl::Module buildRamModule(const ir::Memory& mem, uint32_t wordBytes, const std::string& name,
                          uint32_t narrowestBytes) {
  const char* what = mem.kind == ir::Memory::Kind::ProgramScope ? "Program-scope variable"
                     : mem.kind == ir::Memory::Kind::WorkGroup  ? "Work-group local memory"
                                                                : "Private array";
  nl::ModuleBuilder b(
      name, fmt::format("{} '{}' ({} bytes) as on-chip RAM{}{}: always ready, reads answer the next "
                        "cycle.",
                        what, commentName(mem.name), mem.sizeBytes,
                        ramPortsText(mem),
                        mem.persistent ? ", contents kept from run to run" : ""));
  b.input("clk", 1);
  if (wordBytes == 0 || !std::has_single_bit(wordBytes) || wordBytes > mem.wordBits / 8)
    throw InternalError(SourceLoc{}, "RAM " + name,
                        fmt::format("word of {} bytes on a {}-bit port", wordBytes, mem.wordBits));
  b.input("rst", 1);
  nl::MemPort p =
      nl::addMemoryPort(b, {"", true, false, nl::kPortAddrWidth, mem.wordBits}, nl::PortRole::Slave);
  b.assign(p.reqReady, nl::one());
  nl::Ram r;
  r.what = commentName(mem.name);
  r.sizeBytes = mem.sizeBytes;
  // Configuration-time contents: initialised arrays the kernel never writes, and globals (persistent).
  r.init = mem.init;
  r.reqValid = p.reqValid;
  r.reqWrite = p.reqWrite;
  r.reqAddr = p.reqAddr;
  r.reqSize = p.reqSize;
  r.reqWdata = p.reqWdata;
  r.respValid = p.respValid->name();
  r.respData = p.respData->name();
  r.dataWidth = p.dataWidth;
  r.wordBytes = wordBytes;
  r.readOnly = std::all_of(mem.ports.begin(), mem.ports.end(),
                           [](const ir::MemoryPort& mp) { return mp.access == ir::PortAccess::Read; });
  // A read and a write of one word in one cycle: never on one port (one request a cycle), nor on a
  // read and a write port when every access is a whole word (accesses that may meet keep a cycle
  // apart, docs/architecture.md "Memory ports"). Narrower accesses to different bytes of one word
  // may share a cycle, and the read must then keep the word's other bytes.
  const bool writePort = std::any_of(mem.ports.begin(), mem.ports.end(), [](const ir::MemoryPort& mp) {
    return mp.access == ir::PortAccess::Write;
  });
  r.noCollision = !writePort || narrowestBytes == wordBytes;
  // More ports: a write port (w_*) next to the read port above, further read ports (r<p>_*).
  for (size_t i = 1; i < mem.ports.size(); ++i) {
    const bool write = mem.ports[i].access == ir::PortAccess::Write;
    nl::MemPort q = nl::addMemoryPort(
        b, {ramPortPrefix(mem, i), !write, false, nl::kPortAddrWidth, mem.wordBits}, nl::PortRole::Slave);
    b.assign(q.reqReady, nl::one());
    if (write) {
      r.wValid = q.reqValid, r.wWrite = q.reqWrite, r.wAddr = q.reqAddr, r.wSize = q.reqSize,
      r.wWdata = q.reqWdata;
      continue;
    }
    r.moreReads.push_back({q.reqValid, q.reqWrite, q.reqAddr, q.reqSize, std::string(q.respValid->name()),
                           std::string(q.respData->name())});
  }
  b.ram(std::move(r));
  return b.take();
}

} // namespace spvhls::rtl
