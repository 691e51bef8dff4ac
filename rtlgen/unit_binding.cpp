#include "rtlgen/unit_binding.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace spvhls::rtl {

std::vector<UnitInstance> bindUnits(const std::vector<std::string>& unitModule,
                                    const std::vector<uint32_t>& start,
                                    const std::vector<uint32_t>& startCluster, ClusterMode kind, uint32_t ii,
                                    bool share) {
  std::vector<UnitInstance> out;
  // Operations that may share, keyed by module (and, stall-free, by cluster), in op order.
  std::map<std::pair<std::string, uint32_t>, std::vector<uint32_t>> groups;
  for (uint32_t v = 0; v < unitModule.size(); ++v) {
    if (unitModule[v].empty()) continue;
    if (!share || ii <= 1) {
      out.push_back({unitModule[v], {v}});
      continue;
    }
    groups[{unitModule[v], kind == ClusterMode::StallFree ? startCluster[v] : 0}].push_back(v);
  }
  for (auto& [key, ops] : groups) {
    std::vector<std::vector<uint32_t>> insts;
    if (kind != ClusterMode::StallFree) {
      std::map<uint32_t, uint32_t> used; // slot -> operations bound so far
      for (uint32_t v : ops) {
        uint32_t k = used[start[v] % ii]++;
        if (k == insts.size()) insts.emplace_back();
        insts[k].push_back(v);
      }
    } else {
      std::stable_sort(ops.begin(), ops.end(), [&](uint32_t a, uint32_t b) { return start[a] < start[b]; });
      std::vector<bool> bound(ops.size(), false);
      for (size_t i = 0; i < ops.size(); ++i) {
        if (bound[i]) continue;
        std::vector<uint32_t>& inst = insts.emplace_back();
        std::set<uint32_t> starts;
        for (size_t j = i; j < ops.size() && start[ops[j]] < start[ops[i]] + ii; ++j)
          if (!bound[j] && starts.insert(start[ops[j]]).second) bound[j] = true, inst.push_back(ops[j]);
      }
    }
    for (auto& inst : insts) {
      std::sort(inst.begin(), inst.end());
      out.push_back({key.first, std::move(inst)});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const UnitInstance& a, const UnitInstance& b) { return a.ops.front() < b.ops.front(); });
  return out;
}

} // namespace spvhls::rtl
