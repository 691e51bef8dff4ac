// Floating-point sums carried by a pipelined loop (`s += a[i] * b[i]`): their recurrence runs through
// the adder, so RecMII = its latency. Reassociation (the opt-in --fp-reassociate, Intel's
// -Xsfp-relaxed) keeps K partial sums in a ring of loop phis, each added to every K-th iteration, and
// adds them up after the loop: the recurrence gets distance K and RecMII 1 when K = the adder's
// latency. The result is rounded differently from the source's left-to-right sum, so it is opt-in.
#pragma once

#include <cstdint>
#include <functional>

#include "ir/hls_ir.h"

namespace spvhls::ir {

// Finds, in every pipelined loop, the loop phis that only accumulate floating-point additions
// (next = FAdd(phi, x) / FAdd(x, phi) / FSub(phi, x), optionally under a Select that keeps the phi
// when a condition is false, with x independent of the phi and nothing else reading the chain) and
// records them in Loop::fpReductions with the chain's latency (`latency`: the operator library's).
// With `apply`, rewrites each one whose chain latency is above 1 into that many partial sums (the
// extra ones start at -0.0, the identity of IEEE addition) and adds them up, in a balanced tree of
// FAdds, in the block after the loop, for every live-out of the chain.
void findFpReductions(Kernel& k, bool apply, const std::function<uint32_t(const Op&)>& latency);

} // namespace spvhls::ir
