// The command line's shared parts: options, their parsing and checks, and output files.
// docs/cli.md documents every option.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "driver/pipeline.h"
#include "scheduler/schedule.h"

namespace spvhls::driver {

struct Args {
  std::string command, input;
  std::map<std::string, std::string> opts;
  bool has(const std::string& k) const { return opts.count(k) > 0; }
  std::string get(const std::string& k, const std::string& def = "") const {
    auto it = opts.find(k);
    return it == opts.end() ? def : it->second;
  }
};

// Prints the message and the usage, exits with status 2.
[[noreturn]] void usageError(const std::string& msg);
Args parseArgs(int argc, char** argv);
uint64_t parseNumber(const std::string& opt, const std::string& v);
double parseFraction(const std::string& opt, const std::string& v);
// --scheduler and --time-limit.
sched::MinIIOptions minIIOptions(const Args& a, sched::SchedulerKind dflt);
CompileOptions compileOptions(const Args& a, const std::string& kernel);
void writeFile(const std::string& path, const std::string& text);
std::string defaultOutDir(const std::string& input);

} // namespace spvhls::driver
