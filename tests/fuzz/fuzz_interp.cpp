// libFuzzer target for the golden interpreter: every input that the readers accept and that
// validates is run, kernel by kernel, on a small ND-range with generated arguments (64-byte buffers
// for global/constant pointers, small scalars). Undefined behaviour, unsupported constructs and
// runaway kernels must end in a DiagnosticError; anything else (a crash, a sanitizer report, another
// exception, an allocation that exhausts memory) is a finding. Build and run: docs/interpreter.md.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontend/module.h"
#include "sim/interp.h"

#include "fuzz_input.h"

using namespace spvhls;

namespace {

void runKernels(const spirv::Module& m, uint8_t seed) {
  std::unique_ptr<spirv::ModuleView> mv;
  try {
    mv = std::make_unique<spirv::ModuleView>(spirv::buildModuleView(m));
  } catch (const DiagnosticError&) {
    return;
  }
  for (const spirv::EntryPoint& ep : mv->entryPoints) {
    const spirv::Function* fn = mv->findFunction(ep.function);
    if (!fn) continue;
    sim::RunSpec spec;
    spec.path = "fuzz.json";
    spec.kernel = ep.name;
    spec.workDim = 1;
    spec.globalSize = {4, 1, 1};
    spec.localSize = {seed & 1 ? 2u : 4u, 1, 1};
    spec.subgroupSize = seed & 2 ? 2 : 4;
    for (spirv::Id param : fn->params) {
      sim::ArgSpec a;
      const spirv::Instruction* d = mv->defInst(param);
      const spirv::Type* t = d ? mv->findType(d->resultType) : nullptr;
      if (t && t->kind == spirv::Type::Kind::Pointer) {
        a.isBuffer = true;
        a.elem = sim::ElemType{"u8", 1, false, false};
        a.length = 64;
        a.init.assign(64, 0);
        for (size_t i = 0; i < 64; ++i) a.init[i] = static_cast<uint8_t>(i * 7 + seed);
      } else {
        a.scalar = seed % 5;
      }
      spec.args.push_back(a);
    }
    sim::InterpOptions opts;
    opts.maxInstructions = 50'000;
    opts.maxMemoryBytes = 64 << 20; // well inside -rss_limit_mb with AddressSanitizer's overhead
    try {
      sim::interpret(*mv, spec, opts);
    } catch (const DiagnosticError&) {
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t seed = size ? data[size - 1] : 0;
  fuzz::forEachReading(data, size, [&](const spirv::Module& m) { runKernels(m, seed); });
  return 0;
}
