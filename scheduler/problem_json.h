// Standalone scheduling problems as JSON, the format of `spvhls schedule` (docs/scheduling.md).
#pragma once

#include <optional>
#include <string>

#include "scheduler/schedule.h"

namespace spvhls::sched {

struct ProblemFile {
  std::string name;
  std::optional<uint32_t> ii; // a requested II: schedule at exactly this one
  Problem problem;            // checked
};

// Throws DiagnosticError naming the file and the member (line:column for malformed JSON).
ProblemFile problemFromJson(const std::string& text, const std::string& file);
// The problem in the same format (operations referred to by index), e.g. a loop's for --dump-problems.
std::string problemToJson(const Problem& p, const std::string& name,
                          std::optional<uint32_t> ii = std::nullopt);

} // namespace spvhls::sched
