// Standalone scheduling problems as JSON (docs/scheduling.md): read for `spvhls schedule`, written
// for every loop by `spvhls compile --dump-problems`.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "scheduler/problem_json.h"

namespace spvhls::sched {
namespace {

using json = nlohmann::json;

struct Reader {
  const std::string& file;

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw DiagnosticError(SourceLoc{file}, where, what);
  }
  const json& member(const json& obj, const std::string& where, const char* key) const {
    if (!obj.is_object()) fail(where, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(where, fmt::format("missing \"{}\"", key));
    return *it;
  }
  uint64_t number(const json& obj, const std::string& where, const char* key, uint64_t dflt, uint64_t max,
                  bool required = false) const {
    if (!obj.contains(key)) {
      if (required) fail(where, fmt::format("missing \"{}\"", key));
      return dflt;
    }
    const json& v = obj.at(key);
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<uint64_t>() > max)
      fail(where + "." + key, fmt::format("expected an integer in 0..{}, got {}", max, v.dump()));
    return v.get<uint64_t>();
  }
  double nanoseconds(const json& obj, const std::string& where, const char* key, double dflt) const {
    if (!obj.contains(key)) return dflt;
    const json& v = obj.at(key);
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1e6)
      fail(where + "." + key, fmt::format("expected nanoseconds in 0..1000000, got {}", v.dump()));
    return v.get<double>();
  }
  std::string string(const json& obj, const std::string& where, const char* key) const {
    const json& v = member(obj, where, key);
    if (!v.is_string() || v.get<std::string>().empty())
      fail(where + "." + key, "expected a non-empty string");
    return v.get<std::string>();
  }
  const json& array(const json& obj, const std::string& where, const char* key, bool required) const {
    static const json empty = json::array();
    if (!obj.contains(key)) {
      if (required) fail(where, fmt::format("missing \"{}\"", key));
      return empty;
    }
    const json& v = obj.at(key);
    if (!v.is_array()) fail(where + "." + key, "expected an array");
    return v;
  }
};

// "line L, column C" of a byte offset.
std::string lineColumn(const std::string& text, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else
      ++col;
  }
  return fmt::format("{}:{}", line, col);
}

struct Type {
  uint32_t latency = 0, blocking = 1;
  int resource = -1;
  double delayNs = 0;
};

} // namespace

ProblemFile problemFromJson(const std::string& text, const std::string& file) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw DiagnosticError(SourceLoc{file + ":" + lineColumn(text, e.byte > 0 ? e.byte - 1 : 0)}, "JSON",
                          fmt::format("not valid JSON: {}", e.what()));
  }
  Reader rd{file};
  if (!doc.is_object()) rd.fail("problem", "expected a JSON object at the top level");
  static const std::set<std::string> topKeys = {"name",       "ii",          "types",          "resources",
                                                "operations", "dependences", "clock_period_ns"};
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (!topKeys.count(it.key())) rd.fail("problem", fmt::format("unknown member \"{}\"", it.key()));
  ProblemFile pf;
  if (doc.contains("name")) pf.name = rd.string(doc, "problem", "name");
  if (doc.contains("ii")) {
    pf.ii = uint32_t(rd.number(doc, "problem", "ii", 0, 1u << 20));
    if (*pf.ii == 0) rd.fail("problem.ii", "expected an II >= 1");
  }
  Problem& p = pf.problem;
  p.clockPeriodNs = rd.nanoseconds(doc, "problem", "clock_period_ns", 0);
  if (doc.contains("clock_period_ns") && p.clockPeriodNs <= 0)
    rd.fail("problem.clock_period_ns", "expected a delay per cycle above 0 (leave it out for no chaining)");

  std::map<std::string, int> resources;
  const json& res = rd.array(doc, "problem", "resources", false);
  for (size_t r = 0; r < res.size(); ++r) {
    const std::string where = fmt::format("resources[{}]", r);
    Resource x{rd.string(res[r], where, "name"),
               uint32_t(rd.number(res[r], where, "limit", 1, 1u << 16, true))};
    if (x.limit == 0) rd.fail(where + ".limit", "expected a limit >= 1 (leave an unlimited unit out)");
    if (!resources.emplace(x.name, int(p.resources.size())).second)
      rd.fail(where + ".name", fmt::format("resource '{}' is defined twice", x.name));
    p.resources.push_back(std::move(x));
  }

  std::map<std::string, Type> types;
  const json& ts = rd.array(doc, "problem", "types", true);
  for (size_t t = 0; t < ts.size(); ++t) {
    const std::string where = fmt::format("types[{}]", t);
    const std::string name = rd.string(ts[t], where, "name");
    Type ty;
    ty.latency = uint32_t(rd.number(ts[t], where, "latency", 0, 1u << 16, true));
    ty.blocking = uint32_t(rd.number(ts[t], where, "blocking", 1, 1u << 16));
    if (ty.blocking == 0) rd.fail(where + ".blocking", "expected a blocking time >= 1");
    ty.delayNs = rd.nanoseconds(ts[t], where, "delay_ns", 0);
    const uint64_t limit = rd.number(ts[t], where, "limit", 0, 1u << 16);
    if (ts[t].contains("resource")) {
      if (limit)
        rd.fail(where, "give either \"limit\" (units of its own) or \"resource\" (a shared pool), not both");
      auto it = resources.find(rd.string(ts[t], where, "resource"));
      if (it == resources.end())
        rd.fail(where + ".resource",
                fmt::format("unknown resource '{}'", ts[t]["resource"].get<std::string>()));
      ty.resource = it->second;
    } else if (limit) {
      if (resources.count(name))
        rd.fail(where + ".name", fmt::format("'{}' is also a resource's name", name));
      ty.resource = int(p.resources.size());
      resources.emplace(name, ty.resource);
      p.resources.push_back(Resource{name, uint32_t(limit)});
    }
    if (!types.emplace(name, ty).second)
      rd.fail(where + ".name", fmt::format("type '{}' is defined twice", name));
  }

  std::map<std::string, uint32_t> byName;
  const json& ops = rd.array(doc, "problem", "operations", true);
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string where = fmt::format("operations[{}]", i);
    Operation op;
    op.name = rd.string(ops[i], where, "name");
    const std::string type = rd.string(ops[i], where, "type");
    auto it = types.find(type);
    if (it == types.end()) rd.fail(where + ".type", fmt::format("unknown type '{}'", type));
    op.latency = uint32_t(rd.number(ops[i], where, "latency", it->second.latency, 1u << 16));
    op.blocking = uint32_t(rd.number(ops[i], where, "blocking", it->second.blocking, 1u << 16));
    if (op.blocking == 0) rd.fail(where + ".blocking", "expected a blocking time >= 1");
    op.resource = it->second.resource;
    op.bits = uint32_t(rd.number(ops[i], where, "bits", 0, 1u << 16));
    op.delayNs = rd.nanoseconds(ops[i], where, "delay_ns", it->second.delayNs);
    op.resultDelayNs = rd.nanoseconds(ops[i], where, "result_delay_ns", 0);
    if (op.resultDelayNs > 0 && op.latency == 0)
      rd.fail(where + ".result_delay_ns",
              "expected latency >= 1 (a latency-0 result is on a wire after delay_ns)");
    if (!byName.emplace(op.name, uint32_t(i)).second)
      rd.fail(where + ".name", fmt::format("operation '{}' is defined twice", op.name));
    p.ops.push_back(std::move(op));
  }

  auto opRef = [&](const json& d, const std::string& where, const char* key) -> uint32_t {
    const json& v = rd.member(d, where, key);
    if (v.is_string()) {
      auto it = byName.find(v.get<std::string>());
      if (it == byName.end())
        rd.fail(where + "." + key, fmt::format("unknown operation '{}'", v.get<std::string>()));
      return it->second;
    }
    if (v.is_number_integer() && v.get<int64_t>() >= 0 && v.get<uint64_t>() < p.ops.size())
      return v.get<uint32_t>();
    rd.fail(where + "." + key, fmt::format("expected an operation's name or index 0..{}, got {}",
                                           int64_t(p.ops.size()) - 1, v.dump()));
  };
  const json& deps = rd.array(doc, "problem", "dependences", false);
  for (size_t k = 0; k < deps.size(); ++k) {
    const std::string where = fmt::format("dependences[{}]", k);
    Dependence d;
    d.from = opRef(deps[k], where, "from");
    d.to = opRef(deps[k], where, "to");
    d.distance = uint32_t(rd.number(deps[k], where, "distance", 0, 1u << 16));
    d.latency = int(p.ops[d.from].latency);
    if (deps[k].contains("delay")) {
      const json& v = deps[k]["delay"];
      if (!v.is_number_integer() || v.get<int64_t>() < -(1 << 20) || v.get<int64_t>() > (1 << 20))
        rd.fail(where + ".delay", fmt::format("expected an integer in -1048576..1048576, got {}", v.dump()));
      d.latency = v.get<int>();
    }
    std::string kind = deps[k].contains("kind") ? rd.string(deps[k], where, "kind") : "data";
    if (kind == "data")
      d.kind = d.distance ? Dependence::Kind::LoopCarried : Dependence::Kind::Data;
    else if (kind == "order")
      d.kind = Dependence::Kind::Control;
    else if (kind == "timing")
      d.kind = Dependence::Kind::Timing;
    else
      rd.fail(where + ".kind", fmt::format("expected \"data\", \"order\" or \"timing\", got '{}'", kind));
    p.deps.push_back(d);
  }
  // The chain breaks a clock period implies (those given as "timing" are kept; repeats are harmless).
  try {
    addChainBreaks(p);
  } catch (const DiagnosticError& e) {
    throw DiagnosticError(SourceLoc{file}, "problem", e.what());
  }
  try {
    p.check();
  } catch (const DiagnosticError& e) {
    throw DiagnosticError(SourceLoc{file}, "problem", e.what());
  }
  return pf;
}

std::string problemToJson(const Problem& p, const std::string& name, std::optional<uint32_t> ii) {
  json doc;
  doc["name"] = name;
  if (ii) doc["ii"] = *ii;
  json types = json::array(), resources = json::array();
  // Resource names must be unique too (two memories may share a source name).
  std::vector<std::string> resName;
  for (size_t r = 0; r < p.resources.size(); ++r) {
    const bool repeated = std::count_if(p.resources.begin(), p.resources.end(),
                                        [&](const Resource& x) { return x.name == p.resources[r].name; }) > 1;
    resName.push_back(repeated ? fmt::format("{} #{}", p.resources[r].name, r) : p.resources[r].name);
    resources.push_back({{"name", resName.back()}, {"limit", p.resources[r].limit}});
  }
  // One type per resource (its first user's latency) and one per latency of unlimited operations.
  std::map<std::pair<int, uint32_t>, std::string> typeOf; // (resource, latency if unlimited)
  for (const Operation& op : p.ops) {
    auto key = std::make_pair(op.resource, op.resource >= 0 ? 0u : op.latency);
    if (typeOf.count(key)) continue;
    std::string tname =
        op.resource >= 0 ? "on " + resName[op.resource] : fmt::format("latency {}", op.latency);
    json t = {{"name", tname}, {"latency", op.latency}};
    if (op.resource >= 0) t["resource"] = resName[op.resource];
    types.push_back(t);
    typeOf[key] = tname;
  }
  json ops = json::array();
  std::map<std::string, int> seen; // names must be unique: a repeated one gets its index appended
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const Operation& op = p.ops[i];
    const std::string name =
        seen[op.name]++ || std::count_if(p.ops.begin() + i + 1, p.ops.end(),
                                         [&](const Operation& o) { return o.name == op.name; })
            ? fmt::format("{} #{}", op.name, i)
            : op.name;
    json o = {{"name", name}, {"type", typeOf.at({op.resource, op.resource >= 0 ? 0u : op.latency})}};
    if (op.resource >= 0) o["latency"] = op.latency;
    if (op.blocking != 1) o["blocking"] = op.blocking;
    if (op.bits) o["bits"] = op.bits;
    if (op.delayNs > 0) o["delay_ns"] = op.delayNs;
    if (op.resultDelayNs > 0) o["result_delay_ns"] = op.resultDelayNs;
    ops.push_back(o);
  }
  json deps = json::array();
  for (const Dependence& d : p.deps) {
    json j = {{"from", d.from}, {"to", d.to}, {"delay", d.latency}};
    if (d.distance) j["distance"] = d.distance;
    if (d.kind == Dependence::Kind::Timing)
      j["kind"] = "timing";
    else if (!d.carriesValue())
      j["kind"] = "order";
    deps.push_back(j);
  }
  if (p.clockPeriodNs > 0) doc["clock_period_ns"] = p.clockPeriodNs;
  if (!resources.empty()) doc["resources"] = resources;
  doc["types"] = types;
  doc["operations"] = ops;
  doc["dependences"] = deps;
  return doc.dump(1) + "\n";
}

} // namespace spvhls::sched
