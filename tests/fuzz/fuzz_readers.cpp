// libFuzzer target for the frontend: every input goes through the binary reader and the text reader;
// whatever either accepts is validated (buildModuleView) and written back in both forms, and the text
// form must read again. Any user-causable failure must be a DiagnosticError; anything else (a crash, a
// sanitizer report, another exception) is a finding. Build and run: see docs/frontend.md ("Fuzzing").
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "frontend/module.h"

#include "fuzz_input.h"

using namespace spvhls;
using namespace spvhls::spirv;

namespace {

void exercise(const Module& m) {
  try {
    buildModuleView(m);
  } catch (const DiagnosticError&) {
  }
  // The writers must cope with any module the readers accept, valid or not.
  std::vector<uint32_t> words = writeBinary(m);
  std::string text = writeText(m, TextOptions{.friendlyNames = false, .header = true});
  try {
    readText(text, "again.spvasm");
  } catch (const DiagnosticError&) {
  }
  (void)words;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::forEachReading(data, size, [](const Module& m) { exercise(m); });
  return 0;
}
