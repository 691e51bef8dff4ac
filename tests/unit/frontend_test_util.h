// Helpers shared by the frontend's unit tests (test_frontend*.cpp): file contents, SPIR-V words and
// their little- or big-endian bytes, and the diagnostics a failing call ends with.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "frontend/module.h"

namespace spvhls::testutil {

inline std::vector<uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot open ", path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string readString(const std::string& path) {
  auto b = readBytes(path);
  return {b.begin(), b.end()};
}

// Little-endian bytes to words.
inline std::vector<uint32_t> wordsOf(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> w(b.size() / 4);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | uint32_t(b[4 * i + 3]) << 24;
  return w;
}

inline std::vector<uint8_t> bytesOf(const std::vector<uint32_t>& w, bool bigEndian = false) {
  std::vector<uint8_t> b;
  for (uint32_t x : w)
    for (int k = 0; k < 4; ++k) b.push_back(uint8_t(x >> (8 * (bigEndian ? 3 - k : k))));
  return b;
}

// The diagnostics of a failing call; fails the test if the call succeeds.
template <class F>
std::vector<Diagnostic> diagnosticsOf(F&& f) {
  try {
    f();
  } catch (const DiagnosticError& e) {
    return e.diagnostics();
  }
  FAIL("expected a DiagnosticError");
  return {};
}

} // namespace spvhls::testutil
