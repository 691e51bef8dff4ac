// The latency of an expansion's op list: its longest path through the operator library's units
// (tests/unit/test_math_expansion.cpp, test_math_pow.cpp; docs/floating-point.md quotes it).
#pragma once

#include "scheduler/schedule.h"
#include "tests/unit/math_check.h"

namespace spvhls::mathcheck {

inline uint32_t latencyOf(const Program& p) {
  sched::OperatorLibrary lib;
  std::vector<uint32_t> ready(p.ops.size(), 0);
  for (size_t v = 0; v < p.ops.size(); ++v) {
    uint32_t start = 0;
    for (ir::ValueId o : p.ops[v].operands)
      start = std::max(start, ready[o]);
    ready[v] = start + lib.latency(p.ops[v]);
  }
  return ready[p.out];
}

} // namespace spvhls::mathcheck
