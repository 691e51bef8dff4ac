#include "driver/area.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace spvhls::driver {

namespace {
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s)
    out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}
} // namespace

std::optional<Area> yosysArea(const std::vector<std::string>& files, const std::string& top,
                              const std::string& logPath, std::string& why) {
  std::string logic, rams;
  static const std::regex ram(R"(_ram\d+\.v$)");
  for (const std::string& f : files)
    (std::regex_search(f, ram) ? rams : logic) += " " + f;
  std::string script = "read_verilog" + logic + "; ";
  if (!rams.empty()) script += "read_verilog -lib" + rams + "; ";
  script += fmt::format("synth -top {} -lut 6; stat", top);
  const std::string cmd =
      fmt::format("yosys -q -l {} -p {} > /dev/null 2>&1", quoted(logPath), quoted(script));
  if (std::system(cmd.c_str()) != 0) {
    why = fmt::format("yosys failed on {} (log: {})", top, logPath);
    return std::nullopt;
  }
  std::ifstream in(logPath);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  // The last `stat` (synth prints one of its own before): it ends with the whole hierarchy's cells
  // (instances multiplied out) when there is a hierarchy.
  size_t from = text.rfind("Printing statistics");
  if (from != std::string::npos) {
    const size_t hier = text.find("design hierarchy", from);
    if (hier != std::string::npos) from = hier;
  }
  if (from == std::string::npos) {
    why = fmt::format("no cell statistics in {}", logPath);
    return std::nullopt;
  }
  Area a;
  static const std::regex cell(R"(\n\s+(\$\w+)\s+(\d+)\s*(?=\n))");
  const std::string tail = text.substr(from);
  for (auto it = std::sregex_iterator(tail.begin(), tail.end(), cell); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    const uint64_t n = std::stoull((*it)[2]);
    if (name == "$lut") a.lut6 += n;
    std::string upper = name;
    for (char& ch : upper)
      ch = char(std::toupper(static_cast<unsigned char>(ch)));
    if (upper.find("DFF") != std::string::npos) a.ff += n;
  }
  return a;
}

} // namespace spvhls::driver
