// Logic area of generated modules from yosys (`synth -lut 6`: a generic 6-input-LUT FPGA), for the
// HTML report's loop table when asked (`spvhls compile --area`).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace spvhls::driver {

struct Area {
  uint64_t lut6 = 0, ff = 0;
};

// Synthesises `top` from `files` (the RAM modules, *_ram<N>.v, read as black boxes) with the log in
// `logPath`; nullopt with the reason in `why` when yosys fails.
std::optional<Area> yosysArea(const std::vector<std::string>& files, const std::string& top,
                              const std::string& logPath, std::string& why);

} // namespace spvhls::driver
