// Golden interpreter, integers and control flow: differential tests. The kernels' bodies are written
// once (data/interp/native_body.h) and compiled both to SPIR-V (native.cl at -O0 and -O2, see
// build.sh) and natively here; every output word must match the host.
#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

namespace natnative {
// Mixed-sign comparisons are part of what is tested.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "data/interp/native_body.h"
#pragma GCC diagnostic pop
} // namespace natnative

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

struct Inputs {
  std::vector<int64_t> x, y;
  std::vector<int32_t> z;
};

// Every pair of edge values (z cycling through its own edge values), then random values of every
// width and sign from a fixed seed.
Inputs makeInputs() {
  const int64_t edges[] = {0,         1,          -1,         2,          -2,        3,
                           7,         0x7f,       0x80,       -0x80,      0xff,      0x100,
                           0x7fff,    0x8000,     -0x8000,    0xffff,     65521,     INT32_MAX,
                           INT32_MIN, UINT32_MAX, int64_t(1) << 32,       -(int64_t(1) << 32),
                           INT64_MAX, INT64_MIN,  INT64_MIN + 1,          int64_t(0x123456789abcdef0),
                           -1000000007};
  const int32_t zEdges[] = {0,    1,     -1,     5,       31,     32,      63,        64,
                            0x7f, 0x80,  -0x80,  0xff,    0x100,  0x7fff,  -0x8000,   0xffff,
                            11,   12,    13,     -7,      0x10000, INT32_MAX, INT32_MIN};
  Inputs in;
  size_t k = 0;
  for (int64_t a : edges)
    for (int64_t b : edges) {
      in.x.push_back(a);
      in.y.push_back(b);
      in.z.push_back(zEdges[k++ % std::size(zEdges)]);
    }
  std::mt19937_64 rng(20240611);
  for (int i = 0; i < 1000; ++i) {
    auto value = [&] {
      const uint64_t bits = rng();
      const unsigned width = 1 + static_cast<unsigned>(rng() % 64); // small values are as common as big ones
      const uint64_t v = width == 64 ? bits : bits & ((uint64_t(1) << width) - 1);
      return static_cast<int64_t>(rng() & 1 ? v : uint64_t(0) - v);
    };
    in.x.push_back(value());
    in.y.push_back(value());
    in.z.push_back(static_cast<int32_t>(value()));
  }
  return in;
}

using CaseFn = void (*)(long, long, int, long*);

// Runs `kernel` of `file` on every input triple and compares all `outputs` results of each case with
// the native `native`.
void differential(const std::string& file, const std::string& kernel, CaseFn native, size_t outputs) {
  const Inputs in = makeInputs();
  const size_t n = in.x.size();
  RunSpec s = parseRunSpec(fmt::format(R"({{"kernel": "{0}", "args": [
      {{"name": "x", "buffer": {{"type": "i64", "length": {1}}}}},
      {{"name": "y", "buffer": {{"type": "i64", "length": {1}}}}},
      {{"name": "z", "buffer": {{"type": "i32", "length": {1}}}}},
      {{"name": "o", "buffer": {{"type": "i64", "length": {2}}}}},
      {{"name": "n", "value": {1}}}]}})",
                                       kernel, n, n * outputs),
                           "native.json");
  s.args[0].init = bytesOf(in.x);
  s.args[1].init = bytesOf(in.y);
  s.args[2].init = bytesOf(in.z);
  Kernel k(file);
  InterpResult r = k.run(s);
  REQUIRE(r.buffers[3].size() == n * outputs * sizeof(int64_t));
  const std::vector<int64_t> o = elems<int64_t>(r.buffers[3]);
  std::vector<long> expect(outputs);
  size_t mismatches = 0;
  for (size_t i = 0; i < n && mismatches < 10; ++i) {
    native(in.x[i], in.y[i], in.z[i], expect.data());
    for (size_t j = 0; j < outputs; ++j)
      if (expect[j] != o[i * outputs + j]) {
        ++mismatches;
        const int64_t got = o[i * outputs + j];
        FAIL_CHECK(fmt::format("{} {} case {} (x={}, y={}, z={}): output {}: "
                               "native {} ({:#x}), interpreter {} ({:#x})",
                               file, kernel, i, in.x[i], in.y[i], in.z[i], j, expect[j],
                               static_cast<uint64_t>(expect[j]), got, static_cast<uint64_t>(got)));
      }
  }
  CHECK(n > 1000);
}

void bothLevels(const std::string& kernel, CaseFn native, size_t outputs) {
  SUBCASE("-O0") { differential("native.spv", kernel, native, outputs); }
  SUBCASE("-O2") { differential("native_O2.spv", kernel, native, outputs); }
}

} // namespace

TEST_CASE("interp native: checksums over a private byte buffer (CRC-32, Adler-32, Fletcher-16, FNV-1a)") {
  bothLevels("crc", natnative::crc_case, NAT_CRC_NO);
}

TEST_CASE("interp native: insertion and bubble sort with struct statistics") {
  bothLevels("sort", natnative::sort_case, NAT_SORT_NO);
}

TEST_CASE("interp native: 64-bit mixing rounds, divisions, shifts, mixed-sign comparisons, GCD") {
  bothLevels("mix", natnative::mix_case, NAT_MIX_NO);
}

TEST_CASE("interp native: register machine (switch with fall-through, nested calls, bounded loops)") {
  bothLevels("vm", natnative::vm_case, NAT_VM_NO);
}

TEST_CASE("interp native: 8- and 16-bit promotions, truncations and built-ins") {
  bothLevels("narrow", natnative::narrow_case, NAT_NARROW_NO);
}

TEST_CASE("interp native: saturating integer conversions (convert_<type>_sat)") {
  bothLevels("sat", natnative::sat_case, NAT_SAT_NO);
}

TEST_CASE("interp native: the -O2 fixture has the optimised shapes the differential test relies on") {
  // -O0 keeps every local in memory; -O2 must give SSA values through OpPhi, OpSwitch and OpSelect
  // (otherwise the second half of each differential test would repeat the first).
  Kernel o2("native_O2.spv"), o0("native.spv");
  auto count = [](const Kernel& k, spirv::Op op) {
    size_t c = 0;
    for (const auto& in : k.module->insts) c += in.op() == op;
    return c;
  };
  CHECK(count(o2, spirv::Op::OpPhi) > 20);
  CHECK(count(o2, spirv::Op::OpSwitch) >= 3);
  CHECK(count(o2, spirv::Op::OpSelect) > 5);
  CHECK(count(o0, spirv::Op::OpVariable) > 20 * count(o2, spirv::Op::OpVariable));
  CHECK(count(o0, spirv::Op::OpSwitch) >= 4);
}
