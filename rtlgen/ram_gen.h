// On-chip RAM for a kernel's on-chip memories (ir::Memory::onChip()). It speaks the same request /
// response protocol as an external memory port (docs/hardware-interface.md), always ready, with a
// one-cycle read latency, so the FSM and the loop clusters use it exactly like a pointer argument.
#pragma once

#include <string>

#include "ir/hls_ir.h"

namespace spvhls::rtl {

// Byte-addressed, sizeBytes (rounded up to a power of two) with the memory's initial contents.
// Simulation stops with $error on an access outside the array.
std::string generateRamModule(const ir::Memory& mem, const std::string& moduleName);

} // namespace spvhls::rtl
