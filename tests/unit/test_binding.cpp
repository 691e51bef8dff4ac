// Modulo binding (rtlgen/unit_binding.h): bindUnits' rules in both cluster kinds and its optimum in
// stall-enable loops (the plan of a kernel whose units are shared: test_plan.cpp; checkPlan's binding
// rule: test_plan_check.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

#include "rtlgen/unit_binding.h"

using namespace spvhls;
using rtl::ClusterMode;

namespace {

// Instances as lists of operation lists, for comparison.
std::vector<std::vector<uint32_t>> opsOf(const std::vector<rtl::UnitInstance>& insts) {
  std::vector<std::vector<uint32_t>> out;
  for (const auto& i : insts)
    out.push_back(i.ops);
  return out;
}

using Ops = std::vector<std::vector<uint32_t>>;

} // namespace

TEST_CASE("bindUnits: stall-enable operations in different II slots share an instance") {
  const std::vector<std::string> m = {"M", "M", "", "M", "M", "N"};
  const std::vector<uint32_t> start = {0, 1, 1, 2, 4, 3}, cl(6, 0);
  // II 4: ops 0 and 4 are both in slot 0, so two instances; N never joins M's.
  CHECK(opsOf(rtl::bindUnits(m, start, cl, ClusterMode::StallEnable, 4, true)) == Ops{{0, 1, 3}, {4}, {5}});
  // II 5: every M op in its own slot.
  CHECK(opsOf(rtl::bindUnits(m, start, cl, ClusterMode::StallEnable, 5, true)) == Ops{{0, 1, 3, 4}, {5}});
  // Off, or II 1: one instance per operation.
  CHECK(opsOf(rtl::bindUnits(m, start, cl, ClusterMode::StallEnable, 5, false)) ==
        Ops{{0}, {1}, {3}, {4}, {5}});
  CHECK(opsOf(rtl::bindUnits(m, start, cl, ClusterMode::StallEnable, 1, true)) ==
        Ops{{0}, {1}, {3}, {4}, {5}});
  CHECK(rtl::bindUnits(m, start, cl, ClusterMode::StallEnable, 4, true).at(0).module == "M");
}

TEST_CASE("bindUnits: stall-free operations share only within one cluster and less than II apart") {
  const std::vector<std::string> m(6, "M");
  const std::vector<uint32_t> start = {0, 3, 4, 4, 5, 9}, cl = {0, 0, 0, 0, 0, 1};
  // II 4: 0 and 3 (gap 3); 4 and 5 (4 twice: two instances); 9 is in another cluster. Slot-wise (as
  // stall-enable) 0, 3 and 5 (slots 0, 3, 1) and 4 and 9 could share, but stall-free tokens are not on
  // the II grid, so 0 and 5 (gap 5) and 4 and 9 (another cluster) meet there.
  CHECK(opsOf(rtl::bindUnits(m, start, cl, ClusterMode::StallFree, 4, true)) ==
        Ops{{0, 1}, {2, 4}, {3}, {5}});
  CHECK(opsOf(rtl::bindUnits(m, start, cl, ClusterMode::StallEnable, 4, true)) ==
        Ops{{0, 1, 4}, {2, 5}, {3}});
}

TEST_CASE("bindUnits: stall-enable reaches the fullest slot's count, and no two ops of an instance meet") {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const uint32_t ii = 1 + rng() % 8, n = 1 + rng() % 20;
    std::vector<std::string> m(n);
    std::vector<uint32_t> start(n), cl(n, 0);
    std::map<std::pair<std::string, uint32_t>, uint32_t> perSlot;
    std::map<std::string, uint32_t> fullest;
    for (uint32_t v = 0; v < n; ++v) {
      m[v] = rng() % 5 == 0 ? "" : std::string(1, char('A' + rng() % 3));
      start[v] = rng() % 30;
      if (!m[v].empty()) fullest[m[v]] = std::max(fullest[m[v]], ++perSlot[{m[v], start[v] % ii}]);
    }
    auto insts = rtl::bindUnits(m, start, cl, ClusterMode::StallEnable, ii, true);
    std::map<std::string, uint32_t> built;
    size_t bound = 0;
    for (const auto& inst : insts) {
      built[inst.module]++;
      bound += inst.ops.size();
      for (size_t a = 0; a < inst.ops.size(); ++a) {
        CHECK(m[inst.ops[a]] == inst.module);
        for (size_t b = a + 1; b < inst.ops.size(); ++b)
          CHECK(start[inst.ops[a]] % ii != start[inst.ops[b]] % ii);
      }
    }
    CHECK(built == fullest);
    CHECK(bound ==
          size_t(std::count_if(m.begin(), m.end(), [](const std::string& s) { return !s.empty(); })));
  }
}
