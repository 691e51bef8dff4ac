// Helpers shared by the scheduler's unit tests: dependences, errors, and a brute-force modulo
// scheduler for tiny problems (the reference the algorithms are compared with).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "scheduler/schedule.h"

namespace spvhls::sched::testing {

inline Dependence dep(uint32_t from, uint32_t to, int latency, uint32_t distance = 0,
                      Dependence::Kind kind = Dependence::Kind::Data) {
  Dependence d;
  d.from = from, d.to = to, d.latency = latency, d.distance = distance, d.kind = kind;
  if (kind == Dependence::Kind::Data && distance) d.kind = Dependence::Kind::LoopCarried;
  return d;
}

// The message of the DiagnosticError `f` throws; fails the test if it throws nothing.
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const DiagnosticError& e) {
    return e.what();
  }
  FAIL("expected a DiagnosticError");
  return {};
}

inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Brute force over every start-time vector in [0, H]^n: is there a modulo schedule at ii, and the
// fewest register bits of one. Only for tiny problems. horizon: H (default: exactHorizon(p, ii)).
inline std::optional<uint64_t> bruteForce(const Problem& p, uint32_t ii, int64_t horizon = -1) {
  const size_t n = p.ops.size();
  const int64_t h = horizon >= 0 ? horizon : exactHorizon(p, ii);
  std::vector<int> start(n, 0);
  std::optional<uint64_t> best;
  std::function<void(size_t)> rec = [&](size_t i) {
    if (i == n) {
      Schedule s;
      s.ii = ii;
      s.start = start;
      s.length = 1;
      for (size_t k = 0; k < n; ++k)
        s.length = std::max<int>(s.length, start[k] + int(p.ops[k].latency));
      try {
        verify(p, s);
      } catch (const DiagnosticError&) {
        return;
      }
      const uint64_t bits = registerBits(p, s);
      if (!best || bits < *best) best = bits;
      return;
    }
    for (int t = 0; t <= h; ++t) {
      start[i] = t;
      // Prune on dependences among the placed operations.
      bool ok = true;
      for (const Dependence& d : p.deps)
        if (d.from <= i && d.to <= i &&
            int64_t(start[d.to]) + int64_t(ii) * d.distance < start[d.from] + d.latency)
          ok = false;
      if (ok) rec(i + 1);
    }
  };
  rec(0);
  return best;
}

} // namespace spvhls::sched::testing
