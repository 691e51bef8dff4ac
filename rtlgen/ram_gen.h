// On-chip RAM for private arrays (ir::Memory::Kind::Local). It speaks the same request /
// response protocol as an external memory port (docs/hardware-interface.md), always ready, with a
// one-cycle read latency (ir::kOnChipReadLatency, which the scheduler times its loads by), so the FSM
// and the loop clusters use it like a pointer argument. A RAM the kernel reads and writes has a read
// port and a write port (ir::Memory::ports), the simple dual-port block RAM of every FPGA family.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/hls_ir.h"
#include "rtlgen/netlist.h"

namespace spvhls::rtl {

// Per memory of the kernel: the word width of its RAM in bytes, the widest access to it (loops
// included) rounded up to a power of two; 1 for a memory nothing accesses.
std::vector<uint32_t> ramWordBytes(const ir::Kernel& k);

// The prefix of port `port` of the memory's RAM module: none for the first, "w" for the write port
// next to a read port, "r<port>" for a further read port.
std::string ramPortPrefix(const ir::Memory& mem, size_t port);
// For comments and reports: " with a read port and a write port", " with 3 read ports (copies) and a
// write port", ...; empty for one port.
std::string ramPortsText(const ir::Memory& mem);

// Per memory: the narrowest access the kernel and its loops make of it, in bytes (0: none). Only for
// RAMs with a write port of their own, which no task process reaches.
std::vector<uint32_t> ramNarrowestBytes(const ir::Kernel& k);

// Byte-addressed, sizeBytes (in words of wordBytes, rounded up to a power of two) with the memory's
// initial contents. Simulation stops with $error on an access outside the array. narrowestBytes
// (ramNarrowestBytes): whole-word accesses only let synthesis drop the read-during-write logic.
nl::Module buildRamModule(const ir::Memory& mem, uint32_t wordBytes, const std::string& moduleName,
                          uint32_t narrowestBytes = 0);

} // namespace spvhls::rtl
