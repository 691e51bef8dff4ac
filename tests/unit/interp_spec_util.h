// Run specs of the golden interpreter's fixture tests (test_interp.cpp, test_interp_handwritten.cpp):
// JSON text read as if it were tests/unit/data/interp/spec.json, and the error a run on one ends with.
#pragma once

#include <string>

#include "interp_test_util.h"
#include "sim/interp.h"
#include "sim/runspec.h"

namespace spvhls::testutil {

inline sim::RunSpec spec(const std::string& json) {
  return sim::parseRunSpec(json, (kInterpData / "spec.json").string());
}

inline std::string runError(const Kernel& k, const std::string& json, sim::InterpOptions opts = {}) {
  return k.error(spec(json), opts);
}

} // namespace spvhls::testutil
