// libFuzzer target for the compiler: every input the readers accept and that validates is compiled,
// kernel by kernel, through lowering, scheduling (with its verifier) and Verilog generation, in each
// cluster mode. A construct the compiler does not support must be a DiagnosticError naming it;
// anything else (a crash, a sanitizer report, an internal-error exception) is a finding.
// Build and run: docs/architecture.md ("Fuzzing").
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "driver/pipeline.h"
#include "frontend/module.h"

#include "fuzz_input.h"

using namespace spvhls;

namespace {

void compileKernels(spirv::Module m, uint8_t seed) {
  driver::LoadedModule lm;
  lm.module = std::make_unique<spirv::Module>(std::move(m));
  try {
    lm.view = std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*lm.module));
  } catch (const DiagnosticError&) {
    return;
  }
  static const rtl::ClusterMode modes[] = {rtl::ClusterMode::Auto, rtl::ClusterMode::StallFree,
                                           rtl::ClusterMode::StallEnable};
  for (const spirv::EntryPoint& ep : lm.view->entryPoints) {
    driver::CompileOptions o;
    o.kernel = ep.name;
    o.cluster = modes[seed % 3];
    o.target.memLatency = 1 + seed / 3 % 8;
    try {
      driver::compile(lm, "fuzz.spv", o);
    } catch (const DiagnosticError&) {
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t seed = size ? data[size - 1] : 0;
  fuzz::forEachReading(data, size, [&](spirv::Module m) { compileKernels(std::move(m), seed); });
  return 0;
}
