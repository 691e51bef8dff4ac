// Helpers shared by the golden interpreter's unit tests (test_interp*.cpp): loading a fixture or a
// SPIR-V text, running it, raw buffer contents, and checking the error a run ends with.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

namespace spvhls::testutil {

inline const std::filesystem::path kInterpData = std::filesystem::path(SPVHLS_SOURCE_DIR) / "tests/unit/data/interp";

// The message of the DiagnosticError that f() throws; fails the test if it throws none.
template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const DiagnosticError& e) {
    return e.what();
  }
  FAIL("expected a DiagnosticError");
  return "";
}

inline void checkContains(const std::string& text, const std::string& part) {
  CHECK_MESSAGE(text.find(part) != std::string::npos, "expected \"" << part << "\" in:\n" << text);
}

// A module and its validated view: a fixture of tests/unit/data/interp, or SPIR-V text.
struct Kernel {
  std::unique_ptr<spirv::Module> module;
  std::unique_ptr<spirv::ModuleView> view;

  explicit Kernel(const std::string& file) : Kernel(spirv::readModuleFile((kInterpData / file).string())) {}
  static Kernel fromText(const std::string& text, const std::string& name) { return Kernel(spirv::readText(text, name)); }
  // Any SPIR-V file, e.g. a regression kernel the build compiled (SPVHLS_BINARY_DIR/regress/).
  static Kernel fromFile(const std::string& path) { return Kernel(spirv::readModuleFile(path)); }

  sim::InterpResult run(const sim::RunSpec& s, sim::InterpOptions opts = {}) const { return sim::interpret(*view, s, opts); }
  // The message of the error the run ends with.
  std::string error(const sim::RunSpec& s, sim::InterpOptions opts = {}) const {
    return errorOf([&] { run(s, opts); });
  }

private:
  explicit Kernel(spirv::Module m)
      : module(std::make_unique<spirv::Module>(std::move(m))),
        view(std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*module))) {}
};

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
std::vector<T> elems(const std::vector<uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}
// The bits of a scalar, zero-extended (to compare floats bit for bit, NaNs included).
template <typename T>
uint64_t bitsOf(T x) {
  uint64_t b = 0;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}

} // namespace spvhls::testutil
