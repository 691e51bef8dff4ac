// Shared by the libFuzzer targets: an input is tried as a binary module and as SPIR-V text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "frontend/module.h"

namespace spvhls::fuzz {

// Calls use(module) with each reading of the input that a reader accepts. A DiagnosticError, from
// a reader or from use, is an expected outcome; anything else escapes and is a finding.
template <typename Use>
void forEachReading(const uint8_t* data, size_t size, Use&& use) {
  try {
    use(spirv::readBinary(std::vector<uint8_t>(data, data + size), "fuzz.spv"));
  } catch (const DiagnosticError&) {
  }
  try {
    use(spirv::readText(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.spvasm"));
  } catch (const DiagnosticError&) {
  }
}

} // namespace spvhls::fuzz
