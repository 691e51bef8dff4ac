// libFuzzer target for the compiler: every input the readers accept and that validates is compiled,
// kernel by kernel, through lowering, scheduling (with its verifier) and Verilog generation, in each
// cluster mode. A construct the compiler does not support must be a DiagnosticError naming it;
// anything else is a finding: a crash, a sanitizer report, an InternalError (a broken invariant the
// compiler's own verifiers caught: it is a DiagnosticError too, so it is caught first and trapped),
// another exception, or generated Verilog that rtl::verilogTextProblems objects to.
// Build and run: docs/architecture.md ("Fuzzing").
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "driver/pipeline.h"
#include "frontend/module.h"
#include "rtlgen/verilog_util.h"

#include "fuzz_input.h"

using namespace spvhls;

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_compile finding: %s\n%s\n", what, detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

void compileKernels(spirv::Module m, uint8_t seed) {
  driver::LoadedModule lm;
  lm.module = std::make_unique<spirv::Module>(std::move(m));
  try {
    lm.view = std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*lm.module));
  } catch (const InternalError& e) {
    finding("InternalError in validation", e.what());
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
    driver::Compiled c;
    try {
      c = driver::compile(lm, "fuzz.spv", o);
    } catch (const InternalError& e) {
      finding("InternalError", e.what());
    } catch (const DiagnosticError&) {
      continue;
    }
    for (const auto& [file, text] : c.rtl.files) {
      std::vector<std::string> problems = rtl::verilogTextProblems(text);
      if (problems.empty()) continue;
      std::string detail = file;
      for (const std::string& p : problems) detail += "\n  " + p;
      finding("generated Verilog text problems", detail);
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t seed = size ? data[size - 1] : 0;
  fuzz::forEachReading(data, size, [&](spirv::Module m) { compileKernels(std::move(m), seed); });
  return 0;
}
