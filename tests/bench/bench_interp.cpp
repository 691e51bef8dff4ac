// Interpreter speed (not a ctest test): runs a kernel of the interpreter's fixtures with a large trip
// count and prints SPIR-V instructions executed per second.
//   ninja -C build bench_interp && build/tests/bench/bench_interp [n]
// Kernel: dot at -O0 (every local in memory: a load or store per use), the worst case for dispatch.
#include <fmt/format.h>

#include <chrono>
#include <string>

#include "sim/interp.h"
#include "sim/runspec.h"

using namespace spvhls;

static void bench(const std::string& file, const std::string& specJson) {
  spirv::Module m = spirv::readModuleFile(file);
  spirv::ModuleView mv = spirv::buildModuleView(m);
  sim::RunSpec spec = sim::parseRunSpec(specJson, "bench.json");
  auto t0 = std::chrono::steady_clock::now();
  sim::InterpResult r = sim::interpret(mv, spec);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("{}: {} instructions in {:.3f} s = {:.1f} M instructions/s\n", file, r.instructions, s,
             r.instructions / s / 1e6);
}

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::stoull(argv[1]) : 1'000'000;
  const std::string dir = std::string(SPVHLS_SOURCE_DIR) + "/tests/unit/data/interp/";
  try {
    bench(dir + "dot.spv",
          fmt::format(R"({{"kernel": "dot", "args": [
            {{"name": "a", "buffer": {{"type": "i32", "length": {0}, "init": {{"random": {{"seed": 1}}}}}}}},
            {{"name": "b", "buffer": {{"type": "i32", "length": {0}, "init": {{"random": {{"seed": 2}}}}}}}},
            {{"name": "out", "buffer": {{"type": "i64", "length": 1, "init": "zeros"}}}},
            {{"name": "n", "value": {0}}}]}})",
                      n));
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_interp: {}\n", e.what());
    return 1;
  }
  return 0;
}
