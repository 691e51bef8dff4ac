// Which values of a loop body a subgroup's lanes share (lower_subgroups.cpp builds the lanes from it):
// a value is the same in every lane when its operands are, a carried value when its start and its
// next value are (a fixed point), an inner loop's result when its lanes leave it together.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/hls_ir.h"

namespace spvhls::ir::lower {

// A lane's index or an operation across the lanes (shuffles, reductions and scans).
bool isLaneOp(OpKind k);

// An access to a private array of which each work-item has its own (`slice` per memory: the bytes of
// a work-item's copy, 0 for memories the work-items share).
bool ownAccess(const Op& op, const std::vector<uint64_t>& slice);

// What a subgroup's lanes share in one loop body, given which of its live-ins are the same in every
// lane and whether its call's predicate is: the values the same in every lane (built once), the
// carried values that are, and whether the lanes need masks (they may leave the loop at different
// iterations, or run it in some lanes only).
struct Uniformity {
  std::vector<uint8_t> value; // per op of the body
  std::vector<uint8_t> phi;   // per LoopPhi
  bool masked = false;
};

Uniformity uniformity(const Kernel& k, const Loop& lp, const std::vector<uint8_t>& liveIn, bool predUniform,
                      const std::vector<uint64_t>& slice);

} // namespace spvhls::ir::lower
