// `spvhls schedule`: standalone modulo scheduling problems (docs/scheduling.md).
#pragma once

#include <string>

#include "scheduler/schedule.h"

namespace spvhls::driver {

struct ScheduleCommandOptions {
  sched::MinIIOptions minII; // the command sets its own default kind (exact)
  std::string output;        // -o: the result as JSON
};

// Prints the II, its proof, the register bits and the start times; returns the exit code (1: no
// schedule). Bad input throws DiagnosticError.
int scheduleCommand(const std::string& input, const ScheduleCommandOptions& o);

} // namespace spvhls::driver
