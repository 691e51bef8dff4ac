// The targets the compiler knows: their parameters and delay tables (targets/*.json, built in by
// CMakeLists.txt; characterised by scripts/characterise_target.py).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "scheduler/schedule.h"

namespace spvhls::sched {

// Generated from targets/*.json: (name, text) pairs, the last one empty.
extern const std::pair<std::string_view, std::string_view> kTargetTables[];

namespace {

DiagnosticError targetError(std::string_view name, std::string message) {
  SourceLoc loc;
  loc.file = "targets/" + std::string(name) + ".json";
  loc.known = true;
  return DiagnosticError(loc, "target", std::move(message));
}

Target::DelayTable parseTable(std::string_view name, std::string_view text) {
  Target::DelayTable t;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    t.method = j.at("method").get<std::string>();
    t.registerOverheadNs = j.at("register_overhead_ns").get<double>();
    t.widths = j.at("widths").get<std::vector<uint32_t>>();
    if (!std::is_sorted(t.widths.begin(), t.widths.end()) || t.widths.empty())
      throw targetError(name, "widths must be ascending and not empty");
    for (const auto& [op, perWidth] : j.at("delay_ns").items()) {
      std::vector<double> d(t.widths.size(), -1.0);
      for (const auto& [w, ns] : perWidth.items()) {
        auto it = std::find_if(t.widths.begin(), t.widths.end(),
                               [&, key = w](uint32_t x) { return std::to_string(x) == key; });
        if (it == t.widths.end())
          throw targetError(name, fmt::format("delay_ns.{} has width {}, not in widths", op, w));
        d[size_t(it - t.widths.begin())] = ns.get<double>();
      }
      t.ops.emplace_back(op, std::move(d));
    }
    if (j.contains("unit_stage_ns"))
      for (const auto& [module, ns] : j.at("unit_stage_ns").items())
        t.unitStages.emplace_back(module, ns.get<double>());
  } catch (const nlohmann::json::exception& e) {
    throw targetError(name, fmt::format("malformed delay table: {}", e.what()));
  }
  return t;
}

} // namespace

std::optional<double> Target::DelayTable::delay(std::string_view op, uint32_t width) const {
  auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& e) { return e.first == op; });
  if (it == ops.end()) return std::nullopt;
  std::optional<double> widest;
  for (size_t k = 0; k < widths.size(); ++k) {
    if (it->second[k] < 0) continue;
    widest = it->second[k];
    if (widths[k] >= width) return widest;
  }
  return widest;
}

std::optional<double> Target::DelayTable::unitStage(std::string_view module) const {
  for (const auto& [m, ns] : unitStages)
    if (m == module) return ns;
  return std::nullopt;
}

std::vector<std::string> targetNames() {
  std::vector<std::string> names;
  for (size_t k = 0; !kTargetTables[k].first.empty(); ++k)
    names.emplace_back(kTargetTables[k].first);
  return names;
}

Target targetNamed(std::string_view name) {
  for (size_t k = 0; !kTargetTables[k].first.empty(); ++k) {
    if (kTargetTables[k].first != name) continue;
    Target t;
    t.name = std::string(name);
    t.delays = parseTable(name, kTargetTables[k].second);
    return t;
  }
  std::string known;
  for (const std::string& n : targetNames())
    known += (known.empty() ? "" : ", ") + n;
  throw DiagnosticError(SourceLoc{}, "--target",
                        fmt::format("unknown target '{}', expected one of: {}", name, known));
}

} // namespace spvhls::sched
