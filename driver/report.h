// The schedule report: per kernel and loop, II achieved vs requested vs MII (ResMII, RecMII), what
// limits II, latency, stages, cluster kinds, FIFO depths, loop controls and their status, and the
// cycle prediction. Text for people, JSON for tools; docs/cli.md describes every field.
#pragma once

#include <nlohmann/json.hpp>
#include <map>
#include <string>

#include "driver/area.h"
#include "driver/pipeline.h"

namespace spvhls::driver {

nlohmann::json reportJson(const Compiled& c);
std::string reportText(const Compiled& c);
// report.html: one self-contained page with the loop table and a schedule chart per loop
// (report_html.cpp).
// loopArea: per loop module name (<module>_loop<N>), its area from yosys (spvhls compile --area), or
// null: the table has no area column.
std::string reportHtml(const Compiled& c, const std::map<std::string, Area>* loopArea = nullptr);

} // namespace spvhls::driver
