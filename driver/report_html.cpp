// report.html: the schedule report as one self-contained page (no network, no external files): a
// kernel summary, the loop table, per loop a schedule chart (operations over cycles, stages marked,
// the critical recurrence highlighted) with its modulo reservation table and cluster structure, task
// sequences and memories. Built from reportJson (the same facts as report.json) and the schedules.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "driver/report.h"

namespace spvhls::driver {
namespace {

using nlohmann::json;

std::string esc(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += ch;
    }
  }
  return out;
}

std::string text(const json& j) {
  if (j.is_null()) return "-";
  if (j.is_string()) return j.get<std::string>();
  return j.dump();
}

constexpr const char* kStyle = R"(
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 1.6em; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #eef; }
td.num { text-align: right; }
.note { color: #555; }
svg text { font: 11px monospace; }
.bar { fill: #7aa7d9; } .bar.mem { fill: #9bcf8e; } .bar.crit { fill: #e0554b; }
.stage { stroke: #999; stroke-dasharray: 3 3; }
code { background: #f4f4f4; padding: 0 2px; }
)";

// Renders facts the page's layout produced into body[data-rendered] (the tests read them back from a
// headless browser): per chart its rows drawn with a positive width.
constexpr const char* kScript = R"(
window.addEventListener('load', function () {
  var charts = [];
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var bars = 0, crit = 0;
    svg.querySelectorAll('rect.bar').forEach(function (r) {
      if (r.getBBox().width > 0) { bars++; if (r.classList.contains('crit')) crit++; }
    });
    charts.push({loop: svg.dataset.loop, bars: bars, critical: crit, width: Math.round(svg.getBoundingClientRect().width)});
  });
  var rows = document.querySelectorAll('table.loops tr').length - 1;
  document.body.dataset.rendered = JSON.stringify({loopRows: rows, charts: charts});
});
)";

// One loop's schedule chart: a row per operation that takes time or a port (and every operation of
// the critical recurrence), a bar from its start over its latency (at least one cycle), stages every
// II cycles.
// `module`: the loop's Verilog module, whose signals c<i> (operation i's value when formed) and
// v<i>_p<k> (held at position k) a waveform shows.
std::string chart(const sched::LoopSchedule& ls, const ir::Loop& loop, const std::string& module) {
  const sched::Problem& p = ls.problem;
  const std::set<uint32_t> crit(ls.mii.criticalCycle.begin(), ls.mii.criticalCycle.end());
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].latency > 0 || p.ops[i].resource >= 0 || crit.count(i)) rows.push_back(i);
  constexpr size_t kMaxRows = 150;
  const bool cut = rows.size() > kMaxRows;
  if (cut) rows.resize(kMaxRows);
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
    return std::pair(ls.schedule.start[a], a) < std::pair(ls.schedule.start[b], b);
  });
  const int cycles = std::max(ls.schedule.length, 1);
  const int label = 260, cell = std::clamp(700 / cycles, 8, 40), rowH = 16, top = 22;
  const int width = label + cycles * cell + 10, height = top + int(rows.size()) * rowH + 6;
  std::string s = fmt::format("<svg class=\"chart\" data-loop=\"{}\" width=\"{}\" height=\"{}\" "
                              "xmlns=\"http://www.w3.org/2000/svg\">\n",
                              esc(loop.name), width, height);
  const uint32_t ii = std::max(1u, ls.schedule.ii);
  for (int c = 0; c <= cycles; ++c) {
    const int x = label + c * cell;
    if (c % int(ii) == 0) {
      s += fmt::format("<line class=\"stage\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", x, top - 4,
                       height);
      if (c < cycles) s += fmt::format("<text x=\"{}\" y=\"12\">S{}</text>\n", x + 2, c / int(ii));
    }
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    const uint32_t i = rows[r];
    const sched::Operation& op = p.ops[i];
    const int y = top + int(r) * rowH;
    const int start = ls.schedule.start[i];
    const char* cls = crit.count(i) ? "bar crit" : op.resource >= 0 ? "bar mem" : "bar";
    std::string where = i < loop.ops.size() && loop.ops[i].loc.known ? loop.ops[i].loc.str() : "";
    s += fmt::format("<text x=\"2\" y=\"{}\">{}</text>\n", y + 11, esc(op.name.substr(0, 34)));
    s += fmt::format(
        "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}: cycle {}, latency "
        "{}{}{}{}</title></rect>\n",
        cls, label + start * cell, y + 2, std::max(1u, op.latency) * unsigned(cell) - 1, rowH - 4,
        esc(op.name), start, op.latency,
        op.resource >= 0 ? ", port " + esc(p.resources[op.resource].name) : "",
        where.empty() ? "" : ", " + esc(where),
        i < loop.ops.size() && loop.ops[i].width() > 0
            ? fmt::format("; in a waveform: {}.c{} (v{}_p&lt;k&gt; at position k)", esc(module), i, i)
            : "");
  }
  s += "</svg>\n";
  if (cut) s += fmt::format("<p class=\"note\">{} more operations not drawn.</p>\n", rows.size() - kMaxRows);
  return s;
}

// The modulo reservation table: per resource, the operations using it in each slot (start mod II).
std::string reservationTable(const sched::LoopSchedule& ls) {
  const sched::Problem& p = ls.problem;
  const uint32_t ii = std::max(1u, ls.schedule.ii);
  std::map<int, std::vector<std::vector<std::string>>> use;
  for (uint32_t i = 0; i < p.ops.size(); ++i) {
    if (p.ops[i].resource < 0) continue;
    auto& slots = use[p.ops[i].resource];
    slots.resize(ii);
    slots[uint32_t(ls.schedule.start[i]) % ii].push_back(p.ops[i].name);
  }
  if (use.empty()) return "<p class=\"note\">No operation uses a limited resource.</p>\n";
  std::string s = "<table class=\"mrt\"><tr><th>resource</th>";
  for (uint32_t t = 0; t < ii; ++t)
    s += fmt::format("<th>slot {}</th>", t);
  s += "</tr>\n";
  for (const auto& [res, slots] : use) {
    s += fmt::format("<tr><td>{} (limit {})</td>", esc(p.resources[res].name), p.resources[res].limit);
    for (const auto& ops : slots) {
      std::string cellText;
      for (const std::string& o : ops)
        cellText += (cellText.empty() ? "" : "<br>") + esc(o);
      s += "<td>" + cellText + "</td>";
    }
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

// What might lower the II, from what limits it.
std::string advice(const json& l, const sched::LoopSchedule& ls) {
  const uint32_t ii = ls.schedule.ii;
  if (!ls.pipelined) return "PipelineEnableINTEL 0: one iteration at a time";
  if (ii <= 1) return "-";
  if (ls.requestedII && ii == ls.requestedII && ii > ls.mii.mii()) return "remove or lower the requested II";
  if (ls.mii.recMII >= ls.mii.resMII)
    return "shorten the recurrence " + text(l["critical_recurrence"]) +
           " (fewer or faster operations on it, or a known dependence distance: DependencyArrayINTEL)";
  return "fewer accesses to the busiest port per iteration (" + text(l["critical_resource_ops"]) +
         "): wider accesses, data on chip, or another buffer";
}

// The operations that set the II, with where they are in the source.
std::string bottleneckOps(const sched::LoopSchedule& ls, const ir::Loop& loop) {
  const std::vector<uint32_t>& ops =
      ls.mii.recMII >= ls.mii.resMII ? ls.mii.criticalCycle : ls.mii.criticalResourceOps;
  std::string s;
  for (uint32_t i : ops) {
    if (i >= ls.problem.ops.size()) continue;
    s += "<br><code>" + esc(ls.problem.ops[i].name) + "</code>";
    if (i < loop.ops.size() && loop.ops[i].loc.known) s += " at " + esc(loop.ops[i].loc.str());
  }
  return s;
}

} // namespace

std::string reportHtml(const Compiled& c, const std::map<std::string, Area>* loopArea) {
  const json j = reportJson(c);
  std::string s =
      fmt::format("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>spvhls "
                  "report: {}</title>\n<style>{}</style>\n<script>{}</script></head>\n<body>\n",
                  esc(c.kernel.name), kStyle, kScript);
  s += fmt::format(
      "<h1>Kernel <code>{}</code></h1>\n<table><tr><th>input</th><td>{}</td></tr><tr><th>module</th>"
      "<td>{}</td></tr><tr><th>target</th><td>{} at {} MHz, assumed memory latency {} cycles</td></tr>"
      "<tr><th>loops</th><td>{} pipelined (the kernel's)</td></tr><tr><th>FSM blocks</th><td>{}</td></tr>"
      "<tr><th>task sequences</th><td>{}</td></tr></table>\n",
      esc(c.kernel.name), esc(c.inputPath), esc(c.rtl.moduleName), esc(c.target.name), c.target.clockMHz,
      c.target.memLatency, c.kernel.loops.size(), c.kernel.blocks.size(), j["task_sequences"].size());

  // The kernel's loops, then each task sequence's (its body is a kernel of its own).
  std::vector<std::pair<std::string, const Compiled*>> parts = {{"", &c}};
  for (size_t t = 0; t < c.tasks.size(); ++t)
    parts.emplace_back(c.kernel.processes.at(t + 1).name + ": ", &c.tasks[t]);
  s += "<h2>Loops</h2>\n<table class=\"loops\"><tr><th>loop</th><th>source</th><th>pipelined</th><th>II "
       "achieved</th><th>II requested</th><th>MII (Res, Rec)</th><th>speculated iterations</th><th>max "
       "interleaving</th><th>max concurrency</th><th>latency</th><th>stages</th><th>cluster kind</th>"
       "<th>bottleneck</th><th>try</th>";
  if (loopArea) s += "<th>area (yosys synth -lut 6)</th>";
  s += "</tr>\n";
  size_t anchor = 0, total = 0;
  std::vector<json> reports;
  for (const auto& [prefix, part] : parts) {
    reports.push_back(part == &c ? j : reportJson(*part));
    const json& pj = reports.back();
    for (size_t l = 0; l < part->kernel.loops.size(); ++l, ++anchor) {
      const json& jl = pj["loops"][l];
      const sched::LoopSchedule& ls = part->schedule.loops[l];
      s += fmt::format(
          "<tr><td><a href=\"#loop{}\">{}{}</a></td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{}</td><td class=\"num\">{} ({}, {})</td><td class=\"num\">{}</td><td>1 (an "
          "inner loop runs to its end)</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
          anchor, esc(prefix), esc(text(jl["name"])), esc(text(jl["location"])),
          jl["pipelined"].get<bool>() ? "yes" : "no", ls.schedule.ii,
          ls.requestedII ? std::to_string(ls.requestedII) : "-", ls.mii.mii(), ls.mii.resMII, ls.mii.recMII,
          part->kernel.loops[l].endless() ? "-" : text(jl["speculated_iterations"]),
          ls.maxConcurrency ? std::to_string(ls.maxConcurrency) : "-", ls.schedule.length,
          ls.schedule.stages(), esc(text(jl["cluster_kind"])),
          esc(text(jl["limited_by"])) + bottleneckOps(ls, part->kernel.loops[l]), esc(advice(jl, ls)));
      if (loopArea) { // one more cell before the row's "</tr>\n"
        const auto it = loopArea->find(fmt::format("{}_loop{}", part->rtl.moduleName, l));
        s.insert(s.size() - 6, it == loopArea->end() ? std::string("<td>-</td>")
                                                     : fmt::format("<td class=\"num\">{} LUT6, {} FF</td>",
                                                                   it->second.lut6, it->second.ff));
      }
    }
    total += part->kernel.loops.size();
  }
  s += "</table>\n";
  if (total == 0) s += "<p class=\"note\">No pipelined loop: every loop runs in an FSM.</p>\n";

  anchor = 0;
  for (size_t pi = 0; pi < parts.size(); ++pi) {
    const auto& [prefix, part] = parts[pi];
    for (size_t l = 0; l < part->kernel.loops.size(); ++l, ++anchor) {
      const json& jl = reports[pi]["loops"][l];
      const sched::LoopSchedule& ls = part->schedule.loops[l];
      s += fmt::format("<h2 id=\"loop{}\">Loop <code>{}{}</code> ({})</h2>\n", anchor, esc(prefix),
                       esc(text(jl["name"])), esc(text(jl["location"])));
      s += fmt::format(
          "<p>II {} (MII {}: ResMII {}, RecMII {}); {} cycles per iteration, {} stages. Limited by: {}."
          "</p>\n",
          ls.schedule.ii, ls.mii.mii(), ls.mii.resMII, ls.mii.recMII, ls.schedule.length,
          ls.schedule.stages(), esc(text(jl["limited_by"])));
      s += "<h3>Schedule</h3>\n<p class=\"note\">Operations over cycles of one iteration (red: the critical "
           "recurrence; green: memory-port accesses; S<i>k</i>: stage k, every II cycles).</p>\n";
      s += chart(ls, part->kernel.loops[l], fmt::format("{}_loop{}", part->rtl.moduleName, l));
      s += "<h3>Modulo reservation table</h3>\n" + reservationTable(ls);
      s += "<h3>Clusters and FIFOs</h3>\n<table><tr><th>cluster</th><th>positions</th><th>exit FIFO "
           "depth</th></tr>\n";
      for (size_t k = 0; k < jl["clusters"].size(); ++k) {
        const json& cl = jl["clusters"][k];
        s += fmt::format("<tr><td>{}</td><td>{}..{}</td><td class=\"num\">{}</td></tr>\n", k,
                         text(cl["first_position"]), text(cl["last_position"]), text(cl["exit_fifo_depth"]));
      }
      s += fmt::format("</table>\n<p>{} ({})</p>\n", esc(text(jl["cluster_kind"])),
                       esc(text(jl["cluster_reason"])));
      for (const json& f : jl["response_fifos"])
        s += fmt::format("<p class=\"note\">{}: response FIFO of depth {}</p>\n", esc(text(f["load"])),
                         text(f["depth"]));
    }
  }

  if (!j["task_sequences"].empty()) {
    s += "<h2>Task sequences</h2>\n<table><tr><th>name</th><th>function</th><th>module</th><th>capacities "
         "(get, "
         "async)</th><th>queue depths (invocations, results)</th><th>Pipelined</th><th>cluster "
         "mode</th></tr>\n";
    for (const json& t : j["task_sequences"])
      s += fmt::format(
          "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}, {}</td><td>{}, {}</td><td>{}</td><td>{}</td></tr>\n",
          esc(text(t["name"])), esc(text(t["function"])), esc(text(t["module"])), text(t["get_capacity"]),
          text(t["async_capacity"]), text(t["invocation_queue"]["depth"]), text(t["result_queue"]["depth"]),
          esc(text(t["pipelined"]["note"])), text(t["cluster_mode"]));
    s += "</table>\n";
  }

  if (j.contains("nd_range")) {
    const json& nd = j["nd_range"];
    s += nd.contains("barriers")
             ? fmt::format("<h2>ND-range</h2>\n<p>Work-groups run one after another in loop <code>{}</code>; "
                           "their work-items stream through the loops between barriers, {} per iteration "
                           "(a subgroup's lanes side by side when more than one).</p>\n",
                           esc(text(nd["work_item_loop"])), text(nd["subgroup_lanes"]))
             : fmt::format("<h2>ND-range</h2>\n<p>Work-items stream through loop <code>{}</code>, {} per "
                           "iteration (a subgroup's lanes side by side when more than one).</p>\n",
                           esc(text(nd["work_item_loop"])), text(nd["subgroup_lanes"]));
    if (nd.contains("lane_accesses"))
      s += fmt::format("<p>Memory accesses of the lanes: {} made once for the lanes (consecutive elements as "
                       "one wide access, one address as one access), {} once per lane.</p>\n",
                       text(nd["lane_accesses"]["joined"]), text(nd["lane_accesses"]["per_lane"]));
    if (nd.contains("lane_logic") && !nd["lane_logic"].empty()) {
      s += "<table><tr><th>subgroup operation</th><th>bits</th><th>built as</th><th>values per "
           "lane</th><th>combine</th></tr>\n";
      for (const json& l : nd["lane_logic"])
        s += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                         esc(text(l["op"])), text(l["bits"]), esc(text(l["built"])), text(l["inputs"]),
                         l["combine"].is_null() ? "-" : esc(text(l["combine"])));
      s += "</table>\n";
    }
  }

  s += "<h2>Memories</h2>\n<table><tr>";
  std::vector<std::string> keys;
  if (!j["memories"].empty())
    for (const auto& [k, v] : j["memories"][0].items())
      keys.push_back(k);
  for (const std::string& k : keys)
    s += "<th>" + esc(k) + "</th>";
  s += "</tr>\n";
  for (const json& m : j["memories"]) {
    s += "<tr>";
    for (const std::string& k : keys)
      s += "<td>" + esc(m.contains(k) ? text(m[k]) : "-") + "</td>";
    s += "</tr>\n";
  }
  s += "</table>\n<p class=\"note\">Generated by spvhls; report.txt and report.json hold the same facts "
       "(docs/cli.md).</p>\n</body></html>\n";
  return s;
}

} // namespace spvhls::driver
