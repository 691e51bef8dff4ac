// Helpers of the lowering tests (test_lower*.cpp, test_loop_transforms.cpp): fixtures from
// tests/unit/data/lower/, lowering with verification, and running the golden interpreter and the IR
// evaluator on the same inputs.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/module.h"
#include "ir/ir_eval.h"
#include "ir/lower.h"
#include "sim/interp.h"

namespace lower_test {

using namespace spvhls;
using ir::kNone;
using ir::OpKind;

inline std::string dataPath(const std::string& name) {
  return std::string(SPVHLS_SOURCE_DIR) + "/tests/unit/data/lower/" + name;
}

inline std::string readFile(const std::string& name) {
  std::ifstream f(dataPath(name));
  REQUIRE_MESSAGE(f.good(), "missing fixture " << name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A module and its view (the view refers to the module, so both live together).
struct Loaded {
  std::unique_ptr<spirv::Module> module;
  std::unique_ptr<spirv::ModuleView> view;
};

inline Loaded loadModule(spirv::Module m) {
  Loaded l;
  l.module = std::make_unique<spirv::Module>(std::move(m));
  l.view = std::make_unique<spirv::ModuleView>(spirv::buildModuleView(*l.module));
  return l;
}
inline Loaded loadFile(const std::string& name) {
  return loadModule(spirv::readModuleFile(dataPath(name)));
}
inline Loaded loadText(const std::string& text) {
  return loadModule(spirv::readText(text, "test.spvasm"));
}

inline ir::Kernel lower(const Loaded& l, const std::string& kernel) {
  ir::Kernel k = ir::lowerKernel(*l.view, kernel);
  ir::verifyKernel(k);
  return k;
}

// The message of the DiagnosticError that lowering throws ("" and a failed check if none).
inline std::string lowerError(const Loaded& l, const std::string& kernel) {
  try {
    ir::lowerKernel(*l.view, kernel);
  } catch (const DiagnosticError& e) {
    return e.what();
  }
  FAIL("lowering " << kernel << " succeeded, expected an error");
  return "";
}

inline std::vector<ir::ValueId> opsOf(const std::vector<ir::Op>& ops, OpKind kind) {
  std::vector<ir::ValueId> out;
  for (ir::ValueId v = 0; v < ops.size(); ++v)
    if (ops[v].kind == kind) out.push_back(v);
  return out;
}

inline size_t countKind(const std::vector<ir::Op>& ops, OpKind kind) {
  return opsOf(ops, kind).size();
}

inline bool isConst(const std::vector<ir::Op>& ops, ir::ValueId v, uint64_t value) {
  return v != kNone && ops[v].kind == OpKind::Const && ops[v].imm == value;
}

inline const ir::LoopControlRequest* request(const ir::LoopControls& c, const std::string& name) {
  for (const auto& r : c.requests)
    if (r.name == name) return &r;
  return nullptr;
}

// ---- running both sides on the same inputs ----

template <class T> std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <class T = int32_t> std::vector<T> valuesOf(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}
inline std::vector<int32_t> intsOf(const std::vector<uint8_t>& b) {
  return valuesOf(b);
}

inline sim::ArgSpec buffer(const std::string& name, const std::vector<uint8_t>& bytes,
                           sim::ElemType elem = {}) {
  sim::ArgSpec a;
  a.name = name;
  a.isBuffer = true;
  a.elem = elem;
  a.length = bytes.size() / elem.bytes;
  a.init = bytes;
  return a;
}
inline sim::ArgSpec ints(const std::string& name, const std::vector<int32_t>& v) {
  return buffer(name, bytesOf(v));
}
inline sim::ArgSpec floats(const std::string& name, const std::vector<float>& v) {
  return buffer(name, bytesOf(v), sim::ElemType{"f32", 4, true, true});
}
inline sim::ArgSpec scalar(const std::string& name, int64_t v, uint32_t bits = 32) {
  sim::ArgSpec a;
  a.name = name;
  a.scalar = static_cast<uint64_t>(v) & (bits == 64 ? ~0ull : (1ull << bits) - 1);
  return a;
}

inline std::vector<int32_t> pseudoRandom(size_t n, uint32_t seed, int32_t lo, int32_t hi) {
  std::vector<int32_t> v(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = lo + static_cast<int32_t>((x >> 8) % static_cast<uint32_t>(hi - lo + 1));
  }
  return v;
}

// Runs the golden interpreter on the SPIR-V and the IR evaluator on the lowered kernel; checks that
// every buffer ends up identical and returns the IR's result. An ND-range kernel runs on `global` and
// `local` sizes (its size arguments follow the others, ir::kNdRangeArgs).
inline ir::EvalResult runBoth(const Loaded& l, const ir::Kernel& k, std::vector<sim::ArgSpec> args,
                              std::array<uint64_t, 3> global = {1, 1, 1},
                              std::array<uint64_t, 3> local = {1, 1, 1}) {
  sim::RunSpec spec;
  spec.path = "test";
  spec.kernel = k.name;
  spec.args = std::move(args);
  spec.globalSize = global;
  spec.localSize = local;
  spec.workDim = global[2] > 1 ? 3 : global[1] > 1 ? 2 : 1;
  if (k.subgroups) spec.subgroupSize = k.subgroupLanes;
  sim::InterpResult golden = sim::interpret(*l.view, spec);
  std::vector<uint64_t> scalars;
  std::vector<std::vector<uint8_t>> buffers;
  for (const auto& a : spec.args) {
    scalars.push_back(a.scalar);
    buffers.push_back(a.isBuffer ? a.init : std::vector<uint8_t>{});
  }
  if (k.ndRange) {
    scalars.insert(scalars.end(), global.begin(), global.end());
    scalars.insert(scalars.end(), local.begin(), local.end());
    scalars.push_back(spec.workDim);
    buffers.resize(scalars.size());
  }
  ir::EvalResult r = ir::evaluateKernel(k, scalars, buffers);
  REQUIRE(r.buffers.size() >= spec.args.size());
  for (size_t i = 0; i < spec.args.size(); ++i)
    if (spec.args[i].isBuffer)
      CHECK_MESSAGE(r.buffers[i] == golden.buffers[i],
                    "buffer " << spec.args[i].name << " of " << k.name << " differs from the interpreter's");
  return r;
}

} // namespace lower_test
