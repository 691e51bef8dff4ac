// Golden interpreter, ND-range execution and SPV_INTEL_subgroups: OpenCL C kernels
// (data/interp/ndrange.cl, sgshuffle.cl) and hand-written SPIR-V (sgspec.spvasm); expected values are
// computed here from the OpenCL / extension definitions.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>


#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

RunSpec spec(const std::string& json) { return parseRunSpec(json, (kInterpData / "nd.json").string()); }

} // namespace

TEST_CASE("interp ndrange: run spec keys") {
  RunSpec s = spec(R"({"kernel": "k", "args": [], "global_size": [8, 4], "local_size": [4, 2], "subgroup_size": 16})");
  CHECK(s.workDim == 2);
  CHECK(s.globalSize == std::array<uint64_t, 3>{8, 4, 1});
  CHECK(s.localSize == std::array<uint64_t, 3>{4, 2, 1});
  CHECK(s.subgroupSize == 16);
  RunSpec d = spec(R"({"kernel": "k", "args": []})");
  CHECK(d.workDim == 1);
  CHECK(d.globalSize == std::array<uint64_t, 3>{1, 1, 1});
  CHECK(d.subgroupSize == 8);
  auto err = [](const char* json) {
    INFO(json);
    return errorOf([&] { spec(json); });
  };
  checkContains(err(R"({"kernel": "k", "args": [], "global_size": [10], "local_size": [4]})"), "4 does not divide global_size[0] = 10");
  checkContains(err(R"({"kernel": "k", "args": [], "global_size": [8, 8], "local_size": [4]})"), "has 1 entries but global_size has 2");
  checkContains(err(R"({"kernel": "k", "args": [], "global_size": [0]})"), "global_size[0]");
  checkContains(err(R"({"kernel": "k", "args": [], "global_size": [1, 1, 1, 1]})"), "1 to 3 sizes");
  checkContains(err(R"({"kernel": "k", "args": [], "subgroup_size": -2})"), "subgroup_size");
}

TEST_CASE("interp ndrange: built-in ids over a 3-D range with partial subgroups") {
  Kernel k("ndrange.spv");
  const uint64_t gs[3] = {6, 4, 2}, ls[3] = {3, 2, 1};
  const uint32_t n = 6 * 4 * 2, K = 18, sgs = 4;
  RunSpec s = spec(fmt::format(R"({{"kernel": "ids", "args": [{{"name": "out", "buffer": {{"type": "u32", "length": {}}}}}],
                                   "global_size": [6, 4, 2], "local_size": [3, 2, 1], "subgroup_size": 4}})", n * K));
  auto out = elems<uint32_t>(k.run(s).buffers[0]);
  for (uint32_t z = 0; z < gs[2]; ++z)
    for (uint32_t y = 0; y < gs[1]; ++y)
      for (uint32_t x = 0; x < gs[0]; ++x) {
        CAPTURE(x);
        CAPTURE(y);
        CAPTURE(z);
        const uint32_t* o = out.data() + ((z * gs[1] + y) * gs[0] + x) * K;
        uint32_t g[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          CHECK(o[d] == g[d]);
          CHECK(o[3 + d] == g[d] % ls[d]);
          CHECK(o[6 + d] == g[d] / ls[d]);
        }
        CHECK(o[9] == 60402);
        CHECK(o[10] == 30201);
        CHECK(o[11] == 20202);
        CHECK(o[12] == 3);
        uint32_t lin = (g[2] % ls[2] * ls[1] + g[1] % ls[1]) * ls[0] + g[0] % ls[0]; // 0..5
        CHECK(o[13] == lin / sgs);
        CHECK(o[14] == (lin < 4 ? 4u : 2u)); // the second subgroup has work-items 4 and 5 only
        CHECK(o[15] == lin % sgs);
        CHECK(o[16] == sgs);
        CHECK(o[17] == 2000 + lin);
      }
}

TEST_CASE("interp ndrange: barriers and local memory per work-group") {
  Kernel k("ndrange.spv");
  std::vector<int32_t> in(64);
  for (int i = 0; i < 64; ++i) in[i] = i * i - 17 * i;
  for (uint32_t local : {1u, 2u, 8u, 32u}) {
    CAPTURE(local);
    RunSpec s = spec(fmt::format(R"({{"kernel": "reduce", "args": [{{"name": "in", "buffer": {{"type": "i32", "length": 64}}}},
        {{"name": "out", "buffer": {{"type": "i32", "length": 64}}}}], "global_size": [64], "local_size": [{}]}})", local));
    s.args[0].init = bytesOf(in);
    auto out = elems<int32_t>(k.run(s).buffers[1]);
    for (uint32_t g = 0; g < 64 / local; ++g) {
      int32_t sum = 0;
      for (uint32_t i = 0; i < local; ++i) sum += in[g * local + i];
      CHECK(out[g] == sum);
    }
    s.kernel = "reverse";
    out = elems<int32_t>(k.run(s).buffers[1]);
    for (uint32_t i = 0; i < 64; ++i) CHECK(out[i] == in[i / local * local + (local - 1 - i % local)]);
  }
}

TEST_CASE("interp ndrange: divergent barrier and stale local memory are errors") {
  Kernel k("ndrange.spv");
  RunSpec s = spec(R"({"kernel": "divergent", "args": [{"name": "out", "buffer": {"type": "i32", "length": 8}}],
                      "global_size": [8], "local_size": [4]})");
  std::string e = k.error(s);
  checkContains(e, "OpControlBarrier");
  checkContains(e, "deadlock: barrier reached by work-item 0");
  checkContains(e, "not by work-item 1 (local id 1), which has finished");
  s.localSize = {1, 1, 1}; // one work-item per group: every barrier is reached by the whole group
  CHECK_NOTHROW(k.run(s));

  RunSpec st = spec(R"({"kernel": "stale", "args": [{"name": "out", "buffer": {"type": "i32", "length": 4}}],
                       "global_size": [4], "local_size": [2]})");
  e = k.error(st);
  checkContains(e, "uninitialised");
  checkContains(e, "Workgroup"); // group 0 writes before its barrier; group 1 gets fresh, unwritten memory
}

TEST_CASE("interp subgroups: INTEL shuffles from OpenCL C") {
  Kernel k("sgshuffle.spv");
  const uint32_t n = 16, sgs = 8;
  std::vector<int32_t> in(n);
  std::vector<uint32_t> sel(n);
  for (uint32_t g = 0; g < n; ++g) {
    in[g] = static_cast<int32_t>(g * 3 + 1);
    sel[g] = (g * 5 + 3) % sgs;
  }
  std::string json = fmt::format(R"({{"kernel": "shuffles", "args": [{{"name": "in", "buffer": {{"type": "i32", "length": {0}}}}},
      {{"name": "out", "buffer": {{"type": "i32", "length": {1}}}}}, {{"name": "sel", "buffer": {{"type": "u32", "length": {0}}}}}],
      "global_size": [{0}], "local_size": [{0}], "subgroup_size": {2}}})", n, n * 4, sgs);
  RunSpec s = spec(json);
  s.args[0].init = bytesOf(in);
  s.args[2].init = bytesOf(sel);
  auto out = elems<int32_t>(k.run(s).buffers[1]);
  for (uint32_t g = 0; g < n; ++g) {
    CAPTURE(g);
    uint32_t base = g / sgs * sgs, lid = g % sgs, d = sel[g];
    CHECK(out[g * 4 + 0] == in[base + d]);
    uint32_t down = lid + d; // Current below SubgroupMaxSize, else Next (= x + 1000)
    CHECK(out[g * 4 + 1] == (down < sgs ? in[base + down] : in[base + down - sgs] + 1000));
    int up = static_cast<int>(lid) - static_cast<int>(d); // Current at or above 0, else Previous (= x - 1000)
    CHECK(out[g * 4 + 2] == (up >= 0 ? in[base + up] : in[base + up + sgs] - 1000));
    CHECK(out[g * 4 + 3] == in[base + (lid ^ d)]);
  }

  sel[5] = 8; // InvocationId 8 with SubgroupMaxSize 8: out of range
  s.args[2].init = bytesOf(sel);
  std::string e = k.error(s);
  checkContains(e, "OpSubgroupShuffleINTEL");
  checkContains(e, "invocation 5: InvocationId 8 is out of range for SubgroupMaxSize 8");

  // Work-groups of 12: the second subgroup has 4 invocations; shuffling from its invocation 5 fails.
  sel.assign(n, 0);
  sel[9] = 5;
  RunSpec p = spec(fmt::format(R"({{"kernel": "shuffles", "args": [{{"name": "in", "buffer": {{"type": "i32", "length": 24}}}},
      {{"name": "out", "buffer": {{"type": "i32", "length": 96}}}}, {{"name": "sel", "buffer": {{"type": "u32", "length": 24}}}}],
      "global_size": [24], "local_size": [12], "subgroup_size": 8}})"));
  sel.resize(24, 0);
  p.args[2].init = bytesOf(sel);
  e = k.error(p);
  checkContains(e, "invocation 1: InvocationId 5 names an invocation this subgroup of 4 does not have");
}

TEST_CASE("interp subgroups: INTEL block reads and writes from OpenCL C") {
  Kernel k("sgshuffle.spv");
  const uint32_t n = 16, sgs = 8;
  std::vector<uint32_t> in(2 * n);
  for (uint32_t i = 0; i < 2 * n; ++i) in[i] = 100 + i * 7;
  RunSpec s = spec(fmt::format(R"({{"kernel": "blocks", "args": [{{"name": "in", "buffer": {{"type": "u32", "length": {0}}}}},
      {{"name": "out", "buffer": {{"type": "u32", "length": {0}}}}}], "global_size": [{1}], "local_size": [{1}], "subgroup_size": {2}}})",
                               2 * n, n, sgs));
  s.args[0].init = bytesOf(in);
  auto out = elems<uint32_t>(k.run(s).buffers[1]);
  for (uint32_t sg = 0; sg < n / sgs; ++sg)
    for (uint32_t lid = 0; lid < sgs; ++lid)
      for (uint32_t c = 0; c < 2; ++c) { // component c of invocation lid lives at ptr[lid + c * SubgroupMaxSize]
        uint32_t at = sg * 2 * sgs + lid + c * sgs;
        CHECK(out[at] == in[at] * 10 + lid);
      }
}

TEST_CASE("interp subgroups: vector shuffles by the extension's rules (hand-written SPIR-V)") {
  Kernel k("sgspec.spvasm");
  const uint32_t n = 8, sgs = 4;
  std::vector<int32_t> x(2 * n);
  for (uint32_t i = 0; i < 2 * n; ++i) x[i] = static_cast<int32_t>(i * 10 + 3);
  std::vector<uint32_t> sel = {0, 1, 2, 3, 3, 2, 1, 0};
  RunSpec s = spec(fmt::format(R"({{"kernel": "vshuffle", "args": [{{"name": "vd", "buffer": {{"type": "i32", "length": {0}}}}},
      {{"name": "sel", "buffer": {{"type": "u32", "length": {1}}}}}, {{"name": "vout", "buffer": {{"type": "i32", "length": {2}}}}}],
      "global_size": [{1}], "local_size": [{1}], "subgroup_size": {3}}})", 2 * n, n, 8 * n, sgs));
  s.args[0].init = bytesOf(x);
  s.args[1].init = bytesOf(sel);
  auto out = elems<int32_t>(k.run(s).buffers[2]);
  for (uint32_t g = 0; g < n; ++g)
    for (uint32_t c = 0; c < 2; ++c) {
      CAPTURE(g);
      CAPTURE(c);
      uint32_t base = g / sgs * sgs, lid = g % sgs, d = sel[g];
      auto cur = [&](uint32_t inv) { return x[2 * (base + inv) + c]; };
      const int32_t* o = out.data() + g * 8 + c;
      CHECK(o[0] == cur(d));
      uint32_t down = lid + d; // Next is 2 * x
      CHECK(o[2] == (down < sgs ? cur(down) : 2 * cur(down - sgs)));
      int up = static_cast<int>(lid) - static_cast<int>(d); // Previous is 2 * x
      CHECK(o[4] == (up >= 0 ? cur(up) : 2 * cur(up + sgs)));
      CHECK(o[6] == cur(lid ^ d));
    }
  sel[6] = 7; // 7 >= SubgroupMaxSize 4: out of range for OpSubgroupShuffleINTEL
  s.args[1].init = bytesOf(sel);
  std::string e = k.error(s);
  checkContains(e, "OpSubgroupShuffleINTEL %sh0");
  checkContains(e, "invocation 2: InvocationId 7 is out of range for SubgroupMaxSize 4");

  // ShuffleDown / ShuffleUp alone: indices up to twice SubgroupMaxSize are fine, beyond is an error.
  for (const char* kernel : {"down_only", "up_only"}) {
    CAPTURE(kernel);
    RunSpec d = spec(fmt::format(R"({{"kernel": "{}", "args": [{{"name": "vd", "buffer": {{"type": "i32", "length": 8}}}},
        {{"name": "sel", "buffer": {{"type": "u32", "length": 4, "init": [4, 5, 5, 4]}}}},
        {{"name": "vout", "buffer": {{"type": "i32", "length": 8}}}}], "global_size": [4], "local_size": [4], "subgroup_size": 4}})",
                                 kernel));
    d.args[0].init = bytesOf(std::vector<int32_t>{10, 11, 20, 21, 30, 31, 40, 41});
    auto r = elems<int32_t>(k.run(d).buffers[2]);
    // down: index lid + d in [4, 8) takes Next (= 2x) of invocation index - 4; up: lid - d in [-4, 0)
    // takes Previous (= 2x) of invocation index + 4.
    bool down = std::string(kernel) == "down_only";
    std::vector<int32_t> expect = down ? std::vector<int32_t>{20, 22, 60, 62, 80, 82, 80, 82}
                                       : std::vector<int32_t>{20, 22, 20, 22, 40, 42, 80, 82};
    CHECK(r == expect);
    d.args[1].init = bytesOf(std::vector<uint32_t>{0, 0, 9, 0}); // down: 2 + 9 = 11 >= 8; up: 2 - 9 = -7 < -4
    e = k.error(d);
    checkContains(e, down ? "invocation 2: shuffle index 11 (id + Delta) is out of range"
                                                        : "invocation 2: shuffle index -7 (id - Delta) is out of range");
  }
}

TEST_CASE("interp subgroups: non-uniform block pointer and divergent shuffle are errors") {
  Kernel k("sgshuffle.spv");
  RunSpec b = spec(R"({"kernel": "blockbad", "args": [{"name": "in", "buffer": {"type": "u32", "length": 16}},
      {"name": "out", "buffer": {"type": "u32", "length": 8}}], "global_size": [8], "local_size": [8], "subgroup_size": 4})");
  std::string e = k.error(b);
  checkContains(e, "OpSubgroupBlockReadINTEL");
  checkContains(e, "Ptr differs between invocations 0 and 1");

  RunSpec d = spec(R"({"kernel": "sgdiverge", "args": [{"name": "out", "buffer": {"type": "i32", "length": 8}}],
      "global_size": [8], "local_size": [8], "subgroup_size": 4})");
  e = k.error(d);
  checkContains(e, "OpSubgroupShuffleINTEL");
  checkContains(e, "deadlock: subgroup instruction reached by work-item 0");
  checkContains(e, "not by work-item 2 (local id 2), which has finished; every work-item of the subgroup must execute it");
  d.subgroupSize = 2; // every invocation has a local id below 2: all shuffle, each from its subgroup's first
  auto out = elems<int32_t>(k.run(d).buffers[0]);
  CHECK(out == std::vector<int32_t>{0, 0, 2, 2, 4, 4, 6, 6});
}

TEST_CASE("interp: image block IO is reported as unsupported by name") {
  const char* text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Image1D
OpCapability SubgroupImageBlockIOINTEL
OpExtension "SPV_INTEL_subgroups"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %img "img"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%uint_0 = OpConstant %uint 0
%coord = OpConstantComposite %v2uint %uint_0 %uint_0
%image = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%gptr = OpTypePointer CrossWorkgroup %uint
%fnty = OpTypeFunction %void %image %gptr
%k = OpFunction %void None %fnty
%img = OpFunctionParameter %image
%out = OpFunctionParameter %gptr
%entry = OpLabel
%v = OpSubgroupImageBlockReadINTEL %uint %img %coord
OpStore %out %v
OpReturn
OpFunctionEnd
)";
  std::string e = Kernel::fromText(text, "img.spvasm").error(spec(R"({"kernel": "k", "args": [{"name": "img", "value": 0},
      {"name": "out", "buffer": {"type": "u32", "length": 1}}]})"));
  checkContains(e, "parameter 0 'img' of kernel 'k' is an image");
  checkContains(e, "image block IO (OpSubgroupImageBlockReadINTEL/WriteINTEL)");
}

namespace {

// The nine results of NINE() in groups.cl for one group's values `x` (local order): reduce, inclusive
// and exclusive scans of add, min and max; `add` / `mn` / `mx` are the operations, `lo` / `hi` the
// identities of min / max, starting from the first value (OpenCL's order: by local id).
template <class T, class Add, class Min, class Max>
std::vector<std::array<T, 9>> nine(const std::vector<T>& x, Add add, Min mn, Max mx, T lo, T hi) {
  std::vector<std::array<T, 9>> r(x.size());
  T s = x[0], a = x[0], b = x[0];
  for (size_t k = 0; k < x.size(); ++k) {
    if (k) s = add(s, x[k]), a = mn(a, x[k]), b = mx(b, x[k]);
    r[k][3] = s, r[k][4] = a, r[k][5] = b;
    r[k][6] = k ? r[k - 1][3] : T(0);
    r[k][7] = k ? r[k - 1][4] : lo;
    r[k][8] = k ? r[k - 1][5] : hi;
  }
  for (auto& v : r) v[0] = s, v[1] = a, v[2] = b;
  return r;
}

// Runs `kernel` of groups.cl over `n` work-items in work-groups of `local`, subgroups of `sgs`, with
// input `in` (element type `json`) and `per` results per work-item; checks them against `expect`,
// which gets one group's (subgroup's) inputs.
template <class T, class Expect>
void checkGroups(const std::string& kernel, const char* json, uint32_t n, uint32_t local, uint32_t sgs,
                 const std::vector<T>& in, uint32_t per, Expect expect) {
  Kernel k("groups.spv");
  RunSpec s = spec(fmt::format(R"({{"kernel": "{0}", "args": [{{"name": "a", "buffer": {{"type": "{1}", "length": {2}}}}},
      {{"name": "out", "buffer": {{"type": "{1}", "length": {3}}}}}], "global_size": [{2}], "local_size": [{4}], "subgroup_size": {5}}})",
                               kernel, json, n, n * per, local, sgs));
  s.args[0].init = bytesOf(in);
  auto out = elems<T>(k.run(s).buffers[1]);
  for (uint32_t first = 0; first < n; first = std::min(first / local * local + local, first + sgs)) {
    const uint32_t end = std::min({first + sgs, first / local * local + local, n});
    const std::vector<T> x(in.begin() + first, in.begin() + end);
    const auto want = expect(x);
    for (uint32_t k = 0; k < x.size(); ++k)
      for (uint32_t i = 0; i < per; ++i) {
        CAPTURE(kernel);
        CAPTURE(first + k);
        CAPTURE(i);
        CHECK(out[(first + k) * per + i] == want[k][i]);
      }
  }
}

// The error of `kernel` (groups.cl), whose work-item 1 skips the group instruction (a[1] <= 0).
std::string divergentError(const std::string& kernel) {
  RunSpec d = spec(fmt::format(R"({{"kernel": "{}", "args": [{{"name": "a", "buffer": {{"type": "i32", "length": 8}}}},
      {{"name": "out", "buffer": {{"type": "i32", "length": 8}}}}], "global_size": [8], "local_size": [8]}})", kernel));
  d.args[0].init = bytesOf(std::vector<int32_t>{1, -1, 2, 3, 4, 5, 6, 7});
  return Kernel("groups.spv").error(d);
}

} // namespace

TEST_CASE("interp groups: sub_group reductions and scans of int, uint, long and float, partial subgroups") {
  // Work-groups of 12 with subgroups of 8: subgroups of 8 and 4.
  const uint32_t n = 24;
  std::vector<int32_t> i32(n);
  std::vector<int64_t> i64(n);
  std::vector<float> f32(n);
  for (uint32_t g = 0; g < n; ++g) {
    i32[g] = int32_t((g * 37 + 11) % 61) - 30;
    i64[g] = (int64_t(g) * 1234567891 % 97) * (g % 3 ? 1 : -1) * (int64_t(1) << 33);
    f32[g] = float(i32[g]) / 7.0f + 1e8f * (g == 5);
  }
  checkGroups<int32_t>("sg_int", "i32", n, 12, 8, i32, 9, [](const std::vector<int32_t>& x) {
    return nine<int32_t>(x, [](int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); },
                         [](int32_t a, int32_t b) { return std::min(a, b); },
                         [](int32_t a, int32_t b) { return std::max(a, b); }, INT32_MAX, INT32_MIN);
  });
  std::vector<uint32_t> u32(i32.begin(), i32.end());
  checkGroups<uint32_t>("sg_uint", "u32", n, 12, 8, u32, 9, [](const std::vector<uint32_t>& x) {
    return nine<uint32_t>(x, [](uint32_t a, uint32_t b) { return a + b; },
                          [](uint32_t a, uint32_t b) { return std::min(a, b); },
                          [](uint32_t a, uint32_t b) { return std::max(a, b); }, UINT32_MAX, 0u);
  });
  checkGroups<int64_t>("sg_long", "i64", n, 12, 8, i64, 9, [](const std::vector<int64_t>& x) {
    return nine<int64_t>(x, [](int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); },
                         [](int64_t a, int64_t b) { return std::min(a, b); },
                         [](int64_t a, int64_t b) { return std::max(a, b); }, INT64_MAX, INT64_MIN);
  });
  // Floats: every addition rounded, in local order (1e8 in the first subgroup absorbs the rest).
  checkGroups<float>("sg_float", "f32", n, 12, 8, f32, 9, [](const std::vector<float>& x) {
    return nine<float>(x, [](float a, float b) { return a + b; }, [](float a, float b) { return std::fmin(a, b); },
                       [](float a, float b) { return std::fmax(a, b); }, INFINITY, -INFINITY);
  });
}

TEST_CASE("interp groups: broadcast, any and all per subgroup and per 2-D work-group; a skipped collective") {
  const uint32_t n = 24;
  std::vector<int32_t> x(n);
  for (uint32_t g = 0; g < n; ++g) x[g] = int32_t((g * 29 + 5) % 97) - 48; // 41..48 are the values > 40
  checkGroups<int32_t>("sg_misc", "i32", n, 12, 8, x, 3, [](const std::vector<int32_t>& v) {
    const bool any = std::any_of(v.begin(), v.end(), [](int32_t e) { return e > 40; });
    const bool all = std::all_of(v.begin(), v.end(), [](int32_t e) { return e > -40; });
    return std::vector<std::array<int32_t, 3>>(v.size(), {v.size() > 2 ? v[2] : 0, any, all});
  });
  // wg_int over 8 x 3 in work-groups of 4 x 3 (12 work-items, local order x fastest; subgroups of 8
  // do not matter at Workgroup scope); broadcast from local id (1, 1).
  Kernel k("groups.spv");
  RunSpec s = spec(R"({"kernel": "wg_int", "args": [{"name": "a", "buffer": {"type": "i32", "length": 24}},
      {"name": "out", "buffer": {"type": "i32", "length": 288}}], "global_size": [8, 3], "local_size": [4, 3], "subgroup_size": 8})");
  s.args[0].init = bytesOf(x);
  auto out = elems<int32_t>(k.run(s).buffers[1]);
  for (uint32_t wg = 0; wg < 2; ++wg) {
    std::vector<int32_t> v; // the work-group's values in local order
    std::vector<uint32_t> at;
    for (uint32_t ly = 0; ly < 3; ++ly)
      for (uint32_t lx = 0; lx < 4; ++lx) {
        const uint32_t g = ly * 8 + wg * 4 + lx;
        v.push_back(x[g]);
        at.push_back(g);
      }
    const auto want = nine<int32_t>(v, [](int32_t a, int32_t b) { return a + b; },
                                    [](int32_t a, int32_t b) { return std::min(a, b); },
                                    [](int32_t a, int32_t b) { return std::max(a, b); }, INT32_MAX, INT32_MIN);
    for (size_t j = 0; j < v.size(); ++j) {
      CAPTURE(at[j]);
      for (int i = 0; i < 9; ++i) CHECK(out[at[j] * 12 + i] == want[j][i]);
      CHECK(out[at[j] * 12 + 9] == v[1 * 4 + 1]);
      CHECK(out[at[j] * 12 + 10] == std::any_of(v.begin(), v.end(), [](int32_t e) { return e > 40; }));
      CHECK(out[at[j] * 12 + 11] == std::all_of(v.begin(), v.end(), [](int32_t e) { return e > -40; }));
    }
  }
  // Some work-items skip the collective: a deadlock naming it.
  const std::string e = divergentError("wg_divergent");
  checkContains(e, "OpGroupIAdd");
  checkContains(e, "deadlock: work-group instruction reached by work-item 0");
}

TEST_CASE("interp groups: the non-uniform forms in uniform control flow; divergence is reported") {
  const uint32_t n = 24;
  std::vector<int32_t> x(n);
  for (uint32_t g = 0; g < n; ++g) x[g] = int32_t((g * 13 + 7) % 23) - 6;
  x[16] = x[17] = x[18] = x[19] = x[20] = x[21] = x[22] = x[23] = 4; // an all-equal subgroup
  checkGroups<int32_t>("sg_nonuniform", "i32", n, 12, 8, x, 8, [](const std::vector<int32_t>& v) {
    std::vector<std::array<int32_t, 8>> r(v.size());
    uint32_t sum = 0, mul = 1, all = ~0u, xr = 0;
    bool orGt5 = false, equal = true;
    for (int32_t e : v) sum += uint32_t(e), all &= uint32_t(e), orGt5 = orGt5 || e > 5, equal = equal && e == v[0];
    for (size_t k = 0; k < v.size(); ++k) {
      mul *= uint32_t(v[k]);
      r[k] = {int32_t(sum), int32_t(mul), int32_t(all), int32_t(xr), k == 0, v.size() > 1 ? v[1] : 0, v[0],
              int32_t(equal) + 2 * int32_t(orGt5)};
      xr ^= uint32_t(v[k]); // exclusive: before this invocation's value
    }
    return r;
  });
  const std::string e = divergentError("sg_divergent");
  checkContains(e, "OpGroupNonUniformIAdd");
  checkContains(e, "a non-uniform group instruction in divergent control flow is not supported by the interpreter yet");
}
