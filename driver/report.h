// The schedule report: per kernel and loop, II achieved vs requested vs MII (ResMII, RecMII), what
// limits II, latency, stages, cluster kinds, FIFO depths, loop controls and their status, and the
// cycle prediction. Text for people, JSON for tools; docs/cli.md describes every field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "driver/pipeline.h"

namespace spvhls::driver {

nlohmann::json reportJson(const Compiled& c);
std::string reportText(const Compiled& c);
// report.html: one self-contained page with the loop table and a schedule chart per loop
// (report_html.cpp).
std::string reportHtml(const Compiled& c);

} // namespace spvhls::driver
