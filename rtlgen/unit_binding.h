// Modulo binding: which operator-unit instance each unit operation of a pipelined loop runs on.
//
// Every unit the library builds as an Instance is fully pipelined (Unit::ii = 1): it takes one
// operation's operands per cycle (at the operation's start position) and delivers that operation's
// result latency - 1 cycles later, when the same token reaches the operation's compPos. Several
// operations can therefore take turns on one instance as long as no two tokens ever sit at the start
// positions of two of them in one cycle. When that holds depends on how tokens move:
//  - stall-enable: one enable advances every position and tokens are issued only on slot 0 of the II,
//    so tokens occupy positions congruent modulo II: operations whose starts differ modulo II never
//    meet (modulo binding; the minimum is the most operations of one module in one II slot).
//  - stall-free: a cluster's tokens advance every cycle but are admitted at least II cycles apart,
//    not on a fixed grid, and different clusters drift apart: two operations never meet only if their
//    starts lie in the same cluster and differ by 1 .. II-1.
// The instance selects the operands of the operation whose start position holds a valid token; its
// output is that operation's result exactly when the token reaches compPos (or, across stall-free
// clusters, when that operation's side FIFO pushes), so every consumer reads it there as before.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rtlgen/rtlgen.h"

namespace spvhls::rtl {

// One unit instance of a loop: its module and the operations bound to it, ascending.
struct UnitInstance {
  std::string module;
  std::vector<uint32_t> ops;
};

// Binds every operation with a unit module (unitModule[v] non-empty) to an instance. `start` and
// `startCluster` are per operation; with `share` false (--share-units=off) or II 1 every operation
// gets its own instance. Stall-enable: per module, the k-th operation of each II slot goes to instance
// k (optimal: as many instances as the fullest slot). Stall-free: per module and cluster, greedily from
// the earliest start, one operation per start position within a window of II positions. Instances
// are ordered by their first operation.
std::vector<UnitInstance> bindUnits(const std::vector<std::string>& unitModule,
                                    const std::vector<uint32_t>& start,
                                    const std::vector<uint32_t>& startCluster, ClusterMode kind, uint32_t ii,
                                    bool share);

} // namespace spvhls::rtl
