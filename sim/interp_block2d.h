// Private to the golden interpreter: SPV_INTEL_2d_block_io (interp_block2d.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/interp_program.h"

namespace spvhls::sim::interp {

// The operands of a decoded 2D block instruction that do not fit DInst, stored in DFunction::extra
// at DInst::b. The block shape is constant (the spec requires constant instructions); the memory
// operands are slots of integer scalars (Coordinate: two slots) of the given bit widths.
struct Block2DOperands {
  uint32_t elementSize, blockWidth, blockHeight, blockCount;
  uint32_t memoryWidth, memoryHeight, memoryPitch, coordinate; // slots
  uint32_t widthBits, heightBits, pitchBits, coordinateBits;   // their widths

  static constexpr uint32_t kWords = 12;
};

bool isBlock2D(X op);

// Decodes the instruction at `where` if it is one of SPV_INTEL_2d_block_io's (else nullopt): appends
// its Block2DOperands to `extra` and returns the DInst; `slotOf` gives the slot of a value (as
// FunctionDecoder::val does).
std::optional<DInst> decodeBlock2D(Program& p, uint32_t where, std::vector<uint32_t>& extra,
                                   const std::function<uint32_t(Id)>& slotOf);

} // namespace spvhls::sim::interp
