// Golden interpreter: OpenCL C kernels compiled to SPIR-V (tests/unit/data/interp, see build.sh) run
// on inputs from run specs; every expected result is computed here by plain C++ from the same inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

RunSpec spec(const std::string& json) { return parseRunSpec(json, (kInterpData / "spec.json").string()); }

// The label of the block named `name` (OpName).
spirv::Id blockLabel(const Kernel& k, const std::string& name) {
  for (const auto& [id, n] : k.view->names)
    if (n == name && k.view->blockOf.count(id)) return id;
  FAIL("no block named " << name);
  return 0;
}

} // namespace

TEST_CASE("interp: vector add (-O0 and -O2 with OpPhi)") {
  for (const char* file : {"vadd.spv", "vadd_O2.spv"}) {
    CAPTURE(file);
    Kernel k(file);
    RunSpec s = spec(R"({"kernel": "vadd", "args": [
        {"name": "a", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 1}}}},
        {"name": "b", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 2}}}},
        {"name": "c", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 3}}}},
        {"name": "n", "value": 60}]})");
    InterpResult r = k.run(s);
    auto a = elems<uint32_t>(s.args[0].init), b = elems<uint32_t>(s.args[1].init), c0 = elems<uint32_t>(s.args[2].init);
    auto c = elems<uint32_t>(r.buffers[2]);
    REQUIRE(c.size() == 64);
    for (size_t i = 0; i < 64; ++i) CHECK(c[i] == (i < 60 ? a[i] + b[i] : c0[i])); // wraps like OpIAdd
    CHECK(r.buffers[0] == s.args[0].init);
    CHECK(r.buffers[3].empty());
    CHECK(r.instructions > 60);
  }
}

TEST_CASE("interp: instruction count and block/edge profile grow linearly with the trip count") {
  Kernel k("vadd.spv");
  auto runN = [&](int n) {
    return k.run(spec(fmt::format(R"({{"kernel": "vadd", "args": [
        {{"name": "a", "buffer": {{"type": "i32", "length": 64}}}}, {{"name": "b", "buffer": {{"type": "i32", "length": 64}}}},
        {{"name": "c", "buffer": {{"type": "i32", "length": 64}}}}, {{"name": "n", "value": {}}}]}})", n)));
  };
  InterpResult r10 = runN(10), r11 = runN(11), r30 = runN(30);
  uint64_t perIter = r11.instructions - r10.instructions;
  CHECK(perIter > 0);
  CHECK(r30.instructions - r10.instructions == 20 * perIter);
  auto body = blockLabel(k, "for.body"), cond = blockLabel(k, "for.cond");
  CHECK(r30.blockCounts.at(body) == 30);
  CHECK(r30.blockCounts.at(cond) == 31);
  CHECK(r30.edgeCounts.at(uint64_t(cond) << 32 | body) == 30);
  CHECK(r30.blockCounts.at(k.view->functions[k.view->functionIndex.at(k.view->findEntryPoint("vadd")->function)].blocks[0].label) == 1);
}

TEST_CASE("interp: dot product (-O0 and -O2)") {
  for (const char* file : {"dot.spv", "dot_O2.spv"}) {
    CAPTURE(file);
    Kernel k(file);
    RunSpec s = spec(R"({"kernel": "dot", "args": [
        {"name": "a", "buffer": {"type": "i32", "length": 100, "init": {"random": {"seed": 4, "min": -1000000, "max": 1000000}}}},
        {"name": "b", "buffer": {"type": "i32", "length": 100, "init": {"random": {"seed": 5, "min": -1000000, "max": 1000000}}}},
        {"name": "out", "buffer": {"type": "i64", "length": 1}},
        {"name": "n", "value": 100}]})");
    InterpResult r = k.run(s);
    auto a = elems<int32_t>(s.args[0].init), b = elems<int32_t>(s.args[1].init);
    int64_t expect = 0;
    for (int i = 0; i < 100; ++i) expect += int64_t(a[i]) * b[i];
    CHECK(elems<int64_t>(r.buffers[2])[0] == expect);
  }
}

TEST_CASE("interp: FIR with a constant program-scope array and a constant buffer") {
  Kernel k("fir.spv");
  RunSpec s = spec(R"({"kernel": "fir", "args": [
      {"name": "x", "buffer": {"type": "i16", "length": 40, "init": {"random": {"seed": 6, "min": -1000, "max": 1000}}}},
      {"name": "gain", "buffer": {"type": "i32", "length": 1, "init": [3]}},
      {"name": "y", "buffer": {"type": "i32", "length": 40}},
      {"name": "n", "value": 40}]})");
  InterpResult r = k.run(s);
  const int taps[8] = {3, -1, 4, 1, -5, 9, 2, -6};
  auto x = elems<int16_t>(s.args[0].init);
  auto y = elems<int32_t>(r.buffers[2]);
  for (int i = 0; i < 40; ++i) {
    int acc = 0;
    for (int t = 0; t < 8; ++t)
      if (i - t >= 0) acc += taps[t] * x[i - t];
    CHECK(y[i] == acc * 3);
  }
}

TEST_CASE("interp: histograms with atomics and plain increments (two kernels in one module)") {
  Kernel k("histogram.spv");
  for (const char* name : {"histogram_atomic", "histogram_plain"}) {
    CAPTURE(name);
    RunSpec s = spec(fmt::format(R"({{"kernel": "{}", "args": [
        {{"name": "data", "buffer": {{"type": "u8", "length": 500, "init": {{"random": {{"seed": 7}}}}}}}},
        {{"name": "bins", "buffer": {{"type": "u32", "length": 16, "init": [1, 2]}}}},
        {{"name": "n", "value": 500}}]}})", name));
    InterpResult r = k.run(s);
    uint32_t expect[16] = {1, 2};
    bool atomic = std::string(name) == "histogram_atomic";
    for (uint8_t v : s.args[0].init) ++expect[atomic ? v % 16 : v >> 4];
    auto bins = elems<uint32_t>(r.buffers[1]);
    for (int i = 0; i < 16; ++i) CHECK(bins[i] == expect[i]);
  }
}

TEST_CASE("interp: switch on 32- and 64-bit selectors") {
  Kernel k("switch.spv");
  RunSpec s = spec(R"({"kernel": "sw", "args": [
      {"name": "in", "buffer": {"type": "i32", "length": 200, "init": {"random": {"seed": 8, "min": -50, "max": 50}}}},
      {"name": "out", "buffer": {"type": "i32", "length": 200}},
      {"name": "n", "value": 200}]})");
  InterpResult r = k.run(s);
  auto in = elems<int32_t>(s.args[0].init), out = elems<int32_t>(r.buffers[1]);
  for (int i = 0; i < 200; ++i) {
    int v = in[i], res;
    switch (v % 8) {
    case 0: res = v * 2; break;
    case 1:
    case 2: res = v - 100; break;
    case -3: res = 7; break;
    case 5: v += 1000; [[fallthrough]];
    case 6: res = v ^ 0x55; break;
    default: res = 0; break;
    }
    int64_t lv = int64_t(v % 4) * (int64_t(1) << 33);
    if (lv == 0x200000000LL) res += 1;
    else if (lv == -0x200000000LL) res += 2;
    CHECK(out[i] == res);
  }
}

namespace calls_ref {
struct Pair { int lo; int64_t hi; int8_t tag; };
int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
int64_t fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
} // namespace calls_ref

TEST_CASE("interp: function calls, recursion, pointer and struct parameters") {
  using namespace calls_ref;
  Kernel k("calls.spv");
  RunSpec s = spec(R"({"kernel": "calls", "args": [
      {"name": "in", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 9, "min": -1000, "max": 1000}}}},
      {"name": "out", "buffer": {"type": "i64", "length": 64}},
      {"name": "n", "value": 64}]})");
  InterpResult r = k.run(s);
  auto in = elems<int32_t>(s.args[0].init);
  auto out = elems<int64_t>(r.buffers[1]);
  for (int i = 0; i + 1 < 64; i += 2) {
    int a = in[i], b = in[i + 1];
    if (a > b) std::swap(a, b);
    CHECK(out[i] == gcd(a < 0 ? -a : a, b < 0 ? -b : b));
    Pair p{a, int64_t(a) * a, static_cast<int8_t>(a)};
    CHECK(out[i + 1] == fact(b & 15) + (p.lo + p.hi + p.tag));
  }
}

TEST_CASE("interp: private array with initializer, insertion sort") {
  Kernel k("localarray.spv");
  RunSpec s = spec(R"({"kernel": "localsort", "args": [
      {"name": "in", "buffer": {"type": "i32", "length": 16, "init": {"random": {"seed": 10, "min": -20, "max": 20}}}},
      {"name": "out", "buffer": {"type": "i32", "length": 16}},
      {"name": "n", "value": 12}]})");
  InterpResult r = k.run(s);
  auto in = elems<int32_t>(s.args[0].init);
  std::vector<int32_t> buf(16, 0);
  buf[0] = 5, buf[1] = 3, buf[2] = 9;
  for (int i = 0; i < 12; ++i) buf[i] += in[i];
  std::sort(buf.begin(), buf.end());
  CHECK(elems<int32_t>(r.buffers[1]) == buf);
}

TEST_CASE("interp: local memory and a barrier") {
  Kernel k("localmem.spv");
  RunSpec s = spec(R"({"kernel": "localmem", "args": [
      {"name": "in", "buffer": {"type": "i32", "length": 20, "init": {"random": {"seed": 11, "min": -1000, "max": 1000}}}},
      {"name": "out", "buffer": {"type": "i32", "length": 20}},
      {"name": "n", "value": 20}]})");
  InterpResult r = k.run(s);
  auto in = elems<int32_t>(s.args[0].init), out = elems<int32_t>(r.buffers[1]);
  for (int i = 0; i < 20; ++i) CHECK(out[i] == in[19 - i] * 3);
}

TEST_CASE("interp: 64-bit and mixed-width integer arithmetic") {
  Kernel k("math64.spv");
  RunSpec s = spec(R"({"kernel": "math64", "args": [
      {"name": "a", "buffer": {"type": "i64", "length": 40, "init": {"random": {"seed": 12}}}},
      {"name": "b", "buffer": {"type": "i64", "length": 40, "init": {"random": {"seed": 13, "min": -300, "max": 300}}}},
      {"name": "out", "buffer": {"type": "i64", "length": 960}},
      {"name": "n", "value": 40}]})");
  // Edge values: zero divisors, -1 divisors, the most negative value, wide shifts.
  auto a = elems<int64_t>(s.args[0].init), b = elems<int64_t>(s.args[1].init);
  const int64_t ea[] = {INT64_MIN, INT64_MIN, 7, -7, 123456789012345, -1, 0, INT64_MAX};
  const int64_t eb[] = {-1, 0, 0, -1, 63, 64 + 5, -65, 1};
  for (int i = 0; i < 8; ++i) a[i] = ea[i], b[i] = eb[i];
  std::memcpy(s.args[0].init.data(), a.data(), 8 * a.size());
  std::memcpy(s.args[1].init.data(), b.data(), 8 * b.size());
  InterpResult r = k.run(s);
  auto out = elems<int64_t>(r.buffers[2]);
  for (int i = 0; i < 40; ++i) {
    CAPTURE(i);
    int64_t x = a[i], y = b[i];
    uint64_t ux = x, uy = y;
    const int64_t* o = out.data() + 24 * i;
    bool sdivOk = y != 0 && !(y == -1 && x == INT64_MIN);
    CHECK(o[0] == int64_t(ux + uy));
    CHECK(o[1] == int64_t(ux - uy));
    CHECK(o[2] == int64_t(ux * uy));
    CHECK(o[3] == (sdivOk ? x / y : 0));
    CHECK(o[4] == (sdivOk ? x % y : 0));
    CHECK(o[5] == int64_t(uy ? ux / uy : 0));
    CHECK(o[6] == int64_t(uy ? ux % uy : 0));
    CHECK(o[7] == x >> (y & 63));
    CHECK(o[8] == int64_t(ux >> (y & 63)));
    CHECK(o[9] == int64_t(ux << (y & 63)));
    CHECK(o[10] == (x & y));
    CHECK(o[11] == (x | y));
    CHECK(o[12] == (x ^ y));
    CHECK(o[13] == ~x);
    CHECK(o[14] == int64_t(0 - ux));
    CHECK(o[15] == (x < y) + 2 * (ux < uy) + 4 * (x == y) + 8 * (x >= y) + 16 * (ux >= uy));
    CHECK(o[16] == int32_t(x));
    CHECK(o[17] == int16_t(x));
    CHECK(o[18] == uint8_t(x));
    CHECK(o[19] == uint32_t(x));
    CHECK(o[20] == int32_t(uint32_t(x) * uint32_t(y)));
    CHECK(o[21] == uint32_t(x) / (uint32_t(y) | 1u));
    CHECK(o[22] == int16_t(x) / int16_t(int16_t(y) | 1));
    CHECK(o[23] == int8_t(x) % int8_t(int8_t(y) | 1));
  }
}

namespace builtins_ref {
int32_t sat32(int64_t v) { return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); }
template <typename U>
U rotl(U v, uint64_t s) {
  constexpr unsigned w = sizeof(U) * 8;
  s %= w;
  return s == 0 ? v : static_cast<U>((v << s) | (v >> (w - s)));
}
template <typename U>
int clzOf(U v) {
  constexpr int w = sizeof(U) * 8;
  int n = 0;
  for (int bit = w - 1; bit >= 0 && !((v >> bit) & 1); --bit) ++n;
  return n;
}
template <typename U>
int ctzOf(U v) {
  constexpr int w = sizeof(U) * 8;
  int n = 0;
  for (int bit = 0; bit < w && !((v >> bit) & 1); ++bit) ++n;
  return n;
}
} // namespace builtins_ref

TEST_CASE("interp: OpenCL integer built-ins") {
  using namespace builtins_ref;
  Kernel k("builtins.spv");
  RunSpec s = spec(R"({"kernel": "builtins", "args": [
      {"name": "a", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 14}}}},
      {"name": "b", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 15}}}},
      {"name": "c", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 16}}}},
      {"name": "out", "buffer": {"type": "i64", "length": 2048}},
      {"name": "n", "value": 64}]})");
  auto a = elems<int32_t>(s.args[0].init), b = elems<int32_t>(s.args[1].init), c = elems<int32_t>(s.args[2].init);
  const int32_t ea[] = {0, INT32_MIN, INT32_MAX, -1, 1, INT32_MIN, 12345, -7};
  const int32_t eb[] = {0, -1, 1, INT32_MIN, INT32_MAX, INT32_MIN, 33, 4};
  const int32_t ec[] = {0, INT32_MAX, -1, 5, INT32_MIN, 0, -99, 3};
  for (int i = 0; i < 8; ++i) a[i] = ea[i], b[i] = eb[i], c[i] = ec[i];
  std::memcpy(s.args[0].init.data(), a.data(), 4 * a.size());
  std::memcpy(s.args[1].init.data(), b.data(), 4 * b.size());
  std::memcpy(s.args[2].init.data(), c.data(), 4 * c.size());
  InterpResult r = k.run(s);
  auto out = elems<int64_t>(r.buffers[3]);
  for (int i = 0; i < 64; ++i) {
    CAPTURE(i);
    int32_t x = a[i], y = b[i], z = c[i];
    uint32_t ux = x, uy = y, uz = z;
    int64_t lx = int64_t(uint64_t(int64_t(x)) << 20) ^ y, ly = int64_t(y) * 65537;
    const int64_t* o = out.data() + 32 * i;
    CHECK(o[0] == (x < 0 ? uint32_t(0) - ux : ux));
    CHECK(o[1] == uint32_t(std::llabs(int64_t(x) - y)));
    CHECK(o[2] == sat32(int64_t(x) + y));
    CHECK(o[3] == sat32(int64_t(x) - y));
    CHECK(o[4] == ((int64_t(x) + y) >> 1));
    CHECK(o[5] == ((int64_t(x) + y + 1) >> 1));
    CHECK(o[6] == std::min(x, y));
    CHECK(o[7] == std::max(x, y));
    CHECK(o[8] == std::clamp(x, std::min(y, z), std::max(y, z)));
    CHECK(o[9] == clzOf(ux));
    CHECK(o[10] == ctzOf(ux));
    CHECK(o[11] == __builtin_popcount(ux));
    CHECK(o[12] == int32_t(rotl<uint32_t>(ux, uy)));
    CHECK(o[13] == int32_t((int64_t(x) * y) >> 32));
    CHECK(o[14] == int32_t(uint32_t((int64_t(x) * y) >> 32) + uz));
    CHECK(o[15] == sat32(int64_t(x) * y + z));
    CHECK(o[16] == ux);
    CHECK(o[17] == (ux > uy ? ux - uy : uy - ux));
    CHECK(o[18] == uint32_t(std::min<uint64_t>(uint64_t(ux) + uy, UINT32_MAX)));
    CHECK(o[19] == (ux < uy ? 0 : ux - uy));
    CHECK(o[20] == uint32_t(uint32_t((uint64_t(ux) + uy) >> 1) + uint32_t((uint64_t(ux) + uz + 1) >> 1)));
    CHECK(o[21] == (std::min(ux, uy) ^ std::max(ux, uz)));
    CHECK(o[22] == std::clamp(ux, std::min(uy, uz), std::max(uy, uz)));
    CHECK(o[23] == uint32_t((uint64_t(ux) * uy) >> 32));
    CHECK(o[24] == uint32_t(uint32_t((uint64_t(ux) * uy) >> 32) + uz));
    CHECK(o[25] == uint32_t(std::min<uint64_t>(uint64_t(ux) * uy + uz, UINT32_MAX)));
    CHECK(o[26] == int32_t((uint32_t(uint16_t(x)) << 16) | uint16_t(y)));
    CHECK(o[27] == ((uint32_t(uint8_t(x)) << 8) | uint8_t(y)));
    CHECK(o[28] == int64_t((__int128(lx) * ly) >> 64));
    CHECK(o[29] == int64_t((static_cast<unsigned __int128>(uint64_t(lx)) * uint64_t(ly)) >> 64));
    CHECK(o[30] == clzOf(uint8_t(x)) + 100 * ctzOf(uint16_t(y)) + 10000 * __builtin_popcountll(uint64_t(lx)));
    CHECK(o[31] == int64_t(rotl<uint8_t>(uint8_t(x), uint8_t(y)) + 1000 * rotl<uint64_t>(uint64_t(lx), uint64_t(ly))));
  }
}

TEST_CASE("interp: vectors: arithmetic, swizzles, selects, any/all, reshaping bitcasts") {
  Kernel k("vectors.spv");
  RunSpec s = spec(R"({"kernel": "vectors", "args": [
      {"name": "a", "buffer": {"type": "i32", "length": 40, "init": {"random": {"seed": 17, "min": -100, "max": 100}}}},
      {"name": "b", "buffer": {"type": "i32", "length": 40, "init": {"random": {"seed": 18, "min": -100, "max": 100}}}},
      {"name": "out", "buffer": {"type": "i32", "length": 160}},
      {"name": "wide", "buffer": {"type": "i64", "length": 20}},
      {"name": "n", "value": 10}]})");
  InterpResult r = k.run(s);
  auto a = elems<int32_t>(s.args[0].init), b = elems<int32_t>(s.args[1].init);
  auto out = elems<int32_t>(r.buffers[2]);
  auto wide = elems<int64_t>(r.buffers[3]);
  auto pack = [](int32_t lo, int32_t hi) { return int64_t(uint64_t(uint32_t(lo)) | uint64_t(uint32_t(hi)) << 32); };
  for (int i = 0; i < 10; ++i) {
    CAPTURE(i);
    const int32_t* x = &a[4 * i];
    const int32_t* y = &b[4 * i];
    const int32_t* o = &out[16 * i];
    bool any = false, all = true;
    for (int j = 0; j < 4; ++j) {
      CHECK(o[j] == x[j] + y[j] * 2 - (x[j] >> 3));
      CHECK(o[4 + j] == (x[3 - j] ^ y[j / 2]));
      CHECK(o[8 + j] == (x[j] > y[j] ? x[j] : y[j]));
      any = any || x[j] > y[j];
      all = all && x[j] > y[j];
    }
    CHECK(o[12] == int(any));
    CHECK(o[13] == int(all));
    CHECK(o[14] == x[1] + y[2]);
    CHECK(o[15] == int8_t(x[3]));
    CHECK(wide[2 * i] == int64_t(uint64_t(pack(x[0], x[1])) + uint64_t(pack(y[2], y[3]))));
    CHECK(wide[2 * i + 1] == int64_t(uint64_t(pack(x[2], x[3])) + uint64_t(pack(y[0], y[1]))));
  }
}

TEST_CASE("interp: program-scope variables with initializers, including a pointer") {
  Kernel k("globals.spv");
  for (int n : {2, 7}) {
    CAPTURE(n);
    InterpResult r = k.run(spec(fmt::format(R"({{"kernel": "globals", "args": [{{"buffer": {{"type": "i64", "length": 8}}}}, {{"value": {}}}]}})", n)));
    std::vector<int64_t> table = {1, 2, 3, 4};
    table[n & 3] *= 10;
    std::vector<int64_t> expect = {5 + n + 1, table[0], table[1], table[2], table[3], -2, 100000, 3};
    CHECK(elems<int64_t>(r.buffers[0]) == expect); // every run starts from the initializers
  }
}

TEST_CASE("interp: structs with padding in a global buffer") {
  Kernel k("globals.spv");
  RunSpec s = spec(R"({"kernel": "structs", "args": [
      {"name": "s", "buffer": {"type": "u8", "length": 160, "init": {"random": {"seed": 19}}}},
      {"name": "out", "buffer": {"type": "i64", "length": 10}}, {"name": "n", "value": 10}]})");
  InterpResult r = k.run(s);
  auto out = elems<int64_t>(r.buffers[1]);
  std::vector<uint8_t> expectBytes = s.args[0].init;
  for (int i = 0; i < 10; ++i) {
    const uint8_t* p = s.args[0].init.data() + 16 * i; // {char c; int i; long l;}: offsets 0, 4, 8; size 16
    int8_t c;
    int32_t v;
    int64_t l;
    std::memcpy(&c, p, 1);
    std::memcpy(&v, p + 4, 4);
    std::memcpy(&l, p + 8, 8);
    CHECK(out[i] == int64_t(uint64_t(c) + uint64_t(v) * 10 + uint64_t(l) * 100));
    expectBytes[16 * i] = static_cast<uint8_t>(i);
  }
  CHECK(r.buffers[0] == expectBytes); // padding and other members untouched
}

TEST_CASE("interp: whole-struct copy from private memory copies padding without an error") {
  Kernel k("globals.spv");
  RunSpec s = spec(R"({"kernel": "structcopy", "args": [
      {"name": "out", "buffer": {"type": "u8", "length": 32, "init": {"random": {"seed": 20}}}}, {"name": "n", "value": 77}]})");
  InterpResult r = k.run(s);
  std::vector<uint8_t> expect = s.args[0].init;
  const uint8_t image[16] = {1, 0, 0, 0, 77, 0, 0, 0, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}; // padding reads as 0
  std::memcpy(expect.data() + 16, image, 16);
  CHECK(r.buffers[0] == expect);
}

TEST_CASE("interp: floating-point data is moved bit-exactly") {
  Kernel k("globals.spv");
  RunSpec s = spec(R"({"kernel": "floatcopy", "args": [
      {"name": "in", "buffer": {"type": "f32", "length": 6, "init": [1.25, -3, "nan", "-inf", 1e-40, 0.1]}},
      {"name": "out", "buffer": {"type": "f32", "length": 8}},
      {"name": "d", "buffer": {"type": "f64", "length": 1}}, {"name": "n", "value": 6}]})");
  InterpResult r = k.run(s);
  auto in = elems<uint32_t>(s.args[0].init), out = elems<uint32_t>(r.buffers[1]);
  for (int i = 0; i < 6; ++i) CHECK(out[i] == in[5 - i]);
  float f0 = 1.5f, f1 = -0.0f;
  uint32_t b0, b1;
  std::memcpy(&b0, &f0, 4);
  std::memcpy(&b1, &f1, 4);
  CHECK(out[6] == b0);
  CHECK(out[7] == b1);
  CHECK(elems<double>(r.buffers[2])[0] == 2.25);
}

// ---- undefined behaviour and unsupported constructs ----

namespace {
std::string runError(const Kernel& k, const std::string& json, InterpOptions opts = {}) { return k.error(spec(json), opts); }
} // namespace

TEST_CASE("interp: undefined behaviour is an error naming the instruction") {
  Kernel k("errors.spv");
  std::string e = runError(k, R"({"kernel": "divzero", "args": [{"buffer": {"type": "i32", "length": 1, "init": [5]}},
      {"buffer": {"type": "i32", "length": 1}}, {"value": 0}]})");
  checkContains(e, "errors.spv: word ");
  checkContains(e, "OpSDiv");
  checkContains(e, "integer division by zero");

  e = runError(k, R"({"kernel": "divoverflow", "args": [{"buffer": {"type": "i32", "length": 1, "init": [-2147483648]}},
      {"buffer": {"type": "i32", "length": 1}}, {"value": -1}]})");
  checkContains(e, "OpSRem");
  checkContains(e, "signed remainder overflow: -2147483648 / -1");

  e = runError(k, R"({"kernel": "oob_write", "args": [{"name": "out", "buffer": {"type": "i32", "length": 4}}, {"value": 4}]})");
  checkContains(e, "OpStore");
  checkContains(e, "out-of-bounds store: 4 bytes at byte offset 16 of argument 0 'out' (buffer of 4 x i32 = 16 bytes)");

  e = runError(k, R"({"kernel": "oob_read", "args": [{"name": "a", "buffer": {"type": "i32", "length": 3}},
      {"name": "out", "buffer": {"type": "i32", "length": 1}}, {"value": 3}]})");
  checkContains(e, "OpLoad");
  checkContains(e, "out-of-bounds load: 4 bytes at byte offset 12 of argument 0 'a'");

  e = runError(k, R"({"kernel": "negative_index", "args": [{"name": "out", "buffer": {"type": "i32", "length": 3}}, {"value": -1}]})");
  checkContains(e, "OpStore");
  checkContains(e, "out-of-bounds store: 4 bytes at byte offset -4 of argument 0 'out' (buffer of 3 x i32 = 12 bytes)");

  e = runError(k, R"({"kernel": "uninit", "args": [{"buffer": {"type": "i32", "length": 1}}, {"value": 3}]})");
  checkContains(e, "OpLoad");
  checkContains(e, "reads uninitialised memory: byte 0 of variable %x (4 bytes) was never written");

  e = runError(k, R"({"kernel": "uninit_local", "args": [{"buffer": {"type": "i32", "length": 1}}, {"value": 2}]})");
  checkContains(e, "reads uninitialised memory: byte 8 of module-scope variable");
  checkContains(e, "Workgroup");

  e = runError(k, R"({"kernel": "forever", "args": [{"buffer": {"type": "i32", "length": 2}}, {"value": 1}]})",
               InterpOptions{10000});
  checkContains(e, "exceeded the limit of 10000 executed instructions");

  // The memory limit: this module's 16-byte Workgroup array does not fit in 12 bytes. In localsort
  // at -O0 (every local a Function variable: in, out 8 bytes, n 4, buf 64) the array does not fit in
  // 70 bytes, while the 64-byte constant it is initialised from does.
  InterpOptions tiny;
  tiny.maxMemoryBytes = 12;
  e = runError(k, R"({"kernel": "oob_write", "args": [{"buffer": {"type": "i32", "length": 4}}, {"value": 1}]})", tiny);
  checkContains(e, "a module-scope variable of 16 bytes is above the interpreter's memory limit of 12 bytes");
  tiny.maxMemoryBytes = 70;
  e = runError(Kernel("localarray.spv"), R"({"kernel": "localsort", "args": [{"buffer": {"type": "i32", "length": 16}},
      {"buffer": {"type": "i32", "length": 16}}, {"value": 16}]})", tiny);
  checkContains(e, "OpVariable %buf");
  checkContains(e, "would take the invocation's Function memory to 84 bytes, above the interpreter's limit of 70");

  e = runError(k, R"({"kernel": "clampbad", "args": [{"buffer": {"type": "i32", "length": 1}}, {"value": 5}, {"value": 1}]})");
  checkContains(e, "OpExtInst");
  checkContains(e, "s_clamp with minval 5 > maxval 1 is undefined");

  e = runError(k, R"({"kernel": "misaligned", "args": [{"name": "out", "buffer": {"type": "i32", "length": 4}}, {"value": 2}]})");
  checkContains(e, "misaligned store: 4 bytes at byte offset 2 of argument 0 'out'");

  e = runError(k, R"({"kernel": "nullptr", "args": [{"buffer": {"type": "i32", "length": 4}}, {"value": 1}]})");
  checkContains(e, "store through a null pointer");

  // The same kernels run cleanly on defined inputs.
  RunSpec ok = spec(R"({"kernel": "divzero", "args": [{"buffer": {"type": "i32", "length": 1, "init": [-17]}},
      {"buffer": {"type": "i32", "length": 1}}, {"value": 4}]})");
  CHECK(elems<int32_t>(k.run(ok).buffers[1])[0] == -17 / 4);
  RunSpec ok2 = spec(R"({"kernel": "misaligned", "args": [{"buffer": {"type": "i32", "length": 4}}, {"value": 8}]})");
  CHECK(elems<int32_t>(k.run(ok2).buffers[0])[2] == 1);
}

TEST_CASE("interp: float scalar arguments (unsupported instructions: test_interp_float.cpp)") {
  Kernel k("errors.spv");
  RunSpec s = spec(R"({"kernel": "floatop", "args": [{"buffer": {"type": "f32", "length": 1, "init": [0.25]}},
      {"type": "f32", "value": 1.5}]})");
  CHECK(elems<float>(k.run(s).buffers[0])[0] == 1.75f);
}

TEST_CASE("interp: run spec / kernel mismatches") {
  Kernel k("vadd.spv");
  auto err = [&](const std::string& args) {
    return runError(k, R"({"kernel": "vadd", "args": [)" + args + "]}");
  };
  const std::string buf = R"({"buffer": {"type": "i32", "length": 4}})";
  std::string e = runError(k, R"({"kernel": "vsub", "args": []})");
  checkContains(e, "no entry point 'vsub'");
  checkContains(e, "it has: vadd");
  checkContains(err(buf + "," + buf), "kernel 'vadd' has 4 parameters (a, b, c, n); the run spec gives 2 arguments");
  checkContains(err(buf + "," + buf + "," + buf + "," + buf), "args[3]");
  checkContains(err(buf + "," + buf + "," + buf + "," + buf), "parameter 3 'n' of kernel 'vadd' is a scalar; expected a \"value\"");
  checkContains(err(R"({"value": 1},)" + buf + "," + buf + R"(,{"value": 1})"), "is a CrossWorkgroup pointer; expected a \"buffer\"");
  checkContains(err(buf + "," + buf + "," + buf + R"(,{"name": "m", "value": 1})"), "argument is named 'm' but parameter 3 of kernel 'vadd' is 'n'");
  checkContains(err(buf + "," + buf + "," + buf + R"(,{"value": 4294967296})"), "value 4294967296 does not fit parameter 3 'n'");
  checkContains(err(buf + "," + buf + "," + buf + R"(,{"type": "f32", "value": 1})"), "is an integer, but the value is given as f32");
  Kernel f("errors.spv");
  // -1 and 0xffffffff both fit a 32-bit parameter, with the same bits.
  RunSpec s = spec(R"({"kernel": "clampbad", "args": [{"buffer": {"type": "i32", "length": 1, "init": [7]}},
      {"value": -1}, {"value": 4294967295}]})");
  CHECK(elems<int32_t>(f.run(s).buffers[0])[0] == -1);
  checkContains(runError(f, R"({"kernel": "floatop", "args": [{"buffer": {"type": "f32", "length": 1}}, {"value": 1}]})"),
                "is a 32-bit float; give the value with \"type\": \"f32\"");
}

// ---- hand-written SPIR-V (handwritten.spvasm) ----

namespace {
std::string oneBuffer(const std::string& kernel, const std::string& type, int length, int64_t n) {
  return fmt::format(R"({{"kernel": "{}", "args": [{{"name": "out", "buffer": {{"type": "{}", "length": {}}}}}, {{"name": "n", "value": {}}}]}})",
                     kernel, type, length, n);
}
} // namespace

TEST_CASE("interp: loop-header phis are parallel copies") {
  Kernel k("handwritten.spv");
  for (int n : {0, 1, 2, 5, 10}) {
    CAPTURE(n);
    InterpResult r = k.run(spec(oneBuffer("phis", "i32", 4, n)));
    int a = 0, b = 1, x = 1, y = 2;
    for (int i = 0; i < n; ++i) {
      std::tie(a, b) = std::make_pair(b, a + b);
      std::swap(x, y);
    }
    CHECK(elems<int32_t>(r.buffers[0]) == std::vector<int32_t>{a, b, x, y});
  }
}

TEST_CASE("interp: OpSwitch with a selection merge phi; SMod, SRem, UMod") {
  Kernel k("handwritten.spv");
  for (int n : {-7, -6, -5, -4, -1, 0, 1, 2, 3, 9}) {
    CAPTURE(n);
    InterpResult r = k.run(spec(oneBuffer("switch_phi", "i32", 4, n)));
    int sel = ((n % 4) + 4) % 4; // SMod: sign of the divisor
    int res = sel == 0 ? 5 : sel <= 2 ? n * 3 : -n;
    CHECK(elems<int32_t>(r.buffers[0]) == std::vector<int32_t>{res, sel, n % 4, int32_t(uint32_t(n) % 10)});
  }
}

TEST_CASE("interp: composites, whole-struct memory, shuffles, dynamic components, composite calls") {
  Kernel k("handwritten.spv");
  for (int n : {-3, 2, 6, 11}) {
    CAPTURE(n);
    InterpResult r = k.run(spec(oneBuffer("composites", "i32", 12, n)));
    std::vector<int32_t> sh = {3, n, 5, n};
    uint32_t idx = uint32_t(n) % 4;
    std::vector<int32_t> ins = sh;
    ins[idx] = 0;
    std::vector<int32_t> expect = {n, 7, 3, sh[idx], ins[0], ins[1], ins[2], ins[3], n > 10 ? 1 : n, n, n + 4, 5};
    CHECK(elems<int32_t>(r.buffers[0]) == expect);
  }
}

TEST_CASE("interp: shifts by the bit width or more are errors") {
  Kernel k("handwritten.spv");
  CHECK(elems<uint32_t>(k.run(spec(oneBuffer("shift", "u32", 1, 31))).buffers[0])[0] == 0x80000000u);
  std::string e = runError(k, oneBuffer("shift", "u32", 1, 32));
  checkContains(e, "OpShiftLeftLogical");
  checkContains(e, "shift amount 32 is not less than the bit width 32");

  auto r = elems<int64_t>(k.run(spec(oneBuffer("shift64", "i64", 2, 40))).buffers[0]);
  CHECK(r[0] == (int64_t(-8) >> 40));
  CHECK(r[1] == int64_t(uint64_t(-8) >> 40));
  checkContains(runError(k, oneBuffer("shift64", "i64", 2, 64)), "shift amount 64 is not less than the bit width 64");
}

TEST_CASE("interp: OpUnreachable, generic casts, dangling and read-only pointers") {
  Kernel k("handwritten.spv");
  CHECK(elems<int32_t>(k.run(spec(oneBuffer("unreachable", "i32", 1, 3))).buffers[0])[0] == 3);
  checkContains(runError(k, oneBuffer("unreachable", "i32", 1, 0)), "OpUnreachable was executed");

  CHECK(elems<int32_t>(k.run(spec(oneBuffer("generic_cast", "i32", 2, 42))).buffers[0]) == std::vector<int32_t>{0, 42});
  // A generic pointer to a Function variable cast to CrossWorkgroup keeps its address (clang emits
  // such casts to compare pointers of different address spaces); nothing is checked until an access.
  CHECK(elems<int32_t>(k.run(spec(oneBuffer("generic_cast_bad", "i32", 1, 1))).buffers[0]) == std::vector<int32_t>{0});

  checkContains(runError(k, oneBuffer("dangling", "i32", 1, 5)), "load through a dangling pointer");

  // Invalid SPIR-V (a store into constant memory) must be rejected, by the frontend or the interpreter.
  std::string ro = errorOf([&] {
    Kernel bad("readonly.spv");
    bad.run(spec(R"({"kernel": "readonly", "args": [{"buffer": {"type": "i32", "length": 1}}, {"value": 1}]})"));
  });
  CHECK((ro.find("read-only") != std::string::npos || ro.find("UniformConstant") != std::string::npos));
}

TEST_CASE("interp: speed") {
  // Not a pass/fail criterion (shared machines); reports instructions per second.
  Kernel k("dot_O2.spv");
  RunSpec s = spec(R"({"kernel": "dot", "args": [
      {"name": "a", "buffer": {"type": "i32", "length": 1000000}}, {"name": "b", "buffer": {"type": "i32", "length": 1000000}},
      {"name": "out", "buffer": {"type": "i64", "length": 1}}, {"name": "n", "value": 1000000}]})");
  auto t0 = std::chrono::steady_clock::now();
  InterpResult r = k.run(s);
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(fmt::format("{} instructions in {:.3f} s: {:.1f} M instructions/s", r.instructions, sec, r.instructions / sec / 1e6));
  CHECK(r.instructions > 5'000'000);
}

TEST_CASE("interp: a constant index far outside the buffer is a wild pointer, not an overflow in decoding") {
  // Found by fuzz_interp: the constant offset -8358680908399640575 * 4 overflowed int64 when decoded.
  const char* text = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%huge = OpConstant %ulong 0x8c0000000000ff01
%uint_1 = OpConstant %uint 1
%gptr = OpTypePointer CrossWorkgroup %uint
%fnty = OpTypeFunction %void %gptr
%k = OpFunction %void None %fnty
%out = OpFunctionParameter %gptr
%entry = OpLabel
%p = OpPtrAccessChain %gptr %out %huge
OpStore %p %uint_1
OpReturn
OpFunctionEnd
)";
  std::string e = Kernel::fromText(text, "wild.spvasm").error(spec(R"({"kernel": "k", "args": [{"buffer": {"type": "u32", "length": 4}}]})"));
  checkContains(e, "OpPtrAccessChain %p");
  checkContains(e, "pointer arithmetic leaves argument 0");
  checkContains(e, "by more than the interpreter's pointers hold");
}

namespace {
// Pointers that leave their object (issue 11): formed one and two elements before an array and one
// past its end, compared, subtracted, stored, passed, moved back in; and accesses outside the object.
const char* kOutsideModule = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %form "form"
OpEntryPoint Kernel %read "read"
OpEntryPoint Kernel %write "write"
OpEntryPoint Kernel %atomic "atomic"
OpEntryPoint Kernel %copy "copy"
OpEntryPoint Kernel %priv "priv"
OpName %arr "arr"
OpName %garr "garr"
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u4 = OpConstant %uint 4
%u7 = OpConstant %uint 7
%u11 = OpConstant %uint 11
%u12 = OpConstant %uint 12
%u13 = OpConstant %uint 13
%u14 = OpConstant %uint 14
%l0 = OpConstant %ulong 0
%l1 = OpConstant %ulong 1
%l2 = OpConstant %ulong 2
%l3 = OpConstant %ulong 3
%l4 = OpConstant %ulong 4
%l5 = OpConstant %ulong 5
%l6 = OpConstant %ulong 6
%l7 = OpConstant %ulong 7
%l8 = OpConstant %ulong 8
%l9 = OpConstant %ulong 9
%lm1 = OpConstant %ulong 0xffffffffffffffff
%lm2 = OpConstant %ulong 0xfffffffffffffffe
%lbig = OpConstant %ulong 1000000
%lback = OpConstant %ulong 0xfffffffffff0bdc3
%arr4 = OpTypeArray %uint %u4
%gu = OpTypePointer CrossWorkgroup %uint
%garrp = OpTypePointer CrossWorkgroup %arr4
%fu = OpTypePointer Function %uint
%farr = OpTypePointer Function %arr4
%fgu = OpTypePointer Function %gu
%ginit = OpConstantComposite %arr4 %u11 %u12 %u13 %u14
%garr = OpVariable %garrp CrossWorkgroup %ginit
%gbefore = OpSpecConstantOp %gu InBoundsAccessChain %garr %lm1
%gend = OpSpecConstantOp %gu InBoundsAccessChain %garr %l4
%kty = OpTypeFunction %void %gu %gu %uint
%getty = OpTypeFunction %uint %gu %ulong
%get = OpFunction %uint None %getty
%gp = OpFunctionParameter %gu
%gi = OpFunctionParameter %ulong
%gl = OpLabel
%gq = OpInBoundsPtrAccessChain %gu %gp %gi
%gv = OpLoad %uint %gq Aligned 4
OpReturnValue %gv
OpFunctionEnd
%form = OpFunction %void None %kty
%buf = OpFunctionParameter %gu
%out = OpFunctionParameter %gu
%fn = OpFunctionParameter %uint
%fe = OpLabel
%slot = OpVariable %fgu Function
%bm1 = OpInBoundsPtrAccessChain %gu %buf %lm1
%bm2 = OpInBoundsPtrAccessChain %gu %buf %lm2
%bend = OpInBoundsPtrAccessChain %gu %buf %l4
%ie = OpConvertPtrToU %ulong %bend
%im2 = OpConvertPtrToU %ulong %bm2
%diff = OpISub %ulong %ie %im2
%d32 = OpUConvert %uint %diff
OpStore %out %d32
%lt = OpULessThan %bool %im2 %ie
%lts = OpSelect %uint %lt %u1 %u0
%o1 = OpInBoundsPtrAccessChain %gu %out %l1
OpStore %o1 %lts
%back = OpInBoundsPtrAccessChain %gu %bm2 %l3
%v2 = OpLoad %uint %back
%o2 = OpInBoundsPtrAccessChain %gu %out %l2
OpStore %o2 %v2
%last = OpPtrAccessChain %gu %bend %lm1
%v3 = OpLoad %uint %last
%o3 = OpInBoundsPtrAccessChain %gu %out %l3
OpStore %o3 %v3
OpStore %slot %bm1
%reload = OpLoad %gu %slot
%v4 = OpFunctionCall %uint %get %reload %l1
%o4 = OpInBoundsPtrAccessChain %gu %out %l4
OpStore %o4 %v4
%v5 = OpFunctionCall %uint %get %bm2 %l4
%o5 = OpInBoundsPtrAccessChain %gu %out %l5
OpStore %o5 %v5
%far = OpPtrAccessChain %gu %buf %lbig
%near = OpPtrAccessChain %gu %far %lback
%v6 = OpLoad %uint %near
%o6 = OpInBoundsPtrAccessChain %gu %out %l6
OpStore %o6 %v6
%ib = OpConvertPtrToU %ulong %bm1
%ib8 = OpIAdd %ulong %ib %l8
%pb = OpConvertUToPtr %gu %ib8
%v7 = OpLoad %uint %pb
%o7 = OpInBoundsPtrAccessChain %gu %out %l7
OpStore %o7 %v7
%v8 = OpFunctionCall %uint %get %gbefore %l1
%o8 = OpInBoundsPtrAccessChain %gu %out %l8
OpStore %o8 %v8
%v9 = OpFunctionCall %uint %get %gend %lm2
%o9 = OpInBoundsPtrAccessChain %gu %out %l9
OpStore %o9 %v9
OpReturn
OpFunctionEnd
%read = OpFunction %void None %kty
%rbuf = OpFunctionParameter %gu
%rout = OpFunctionParameter %gu
%rn = OpFunctionParameter %uint
%re = OpLabel
%rm2 = OpInBoundsPtrAccessChain %gu %rbuf %lm2
%rq = OpInBoundsPtrAccessChain %gu %rm2 %rn
%rv = OpLoad %uint %rq
OpStore %rout %rv
OpReturn
OpFunctionEnd
%write = OpFunction %void None %kty
%wbuf = OpFunctionParameter %gu
%wout = OpFunctionParameter %gu
%wn = OpFunctionParameter %uint
%we = OpLabel
%wm2 = OpInBoundsPtrAccessChain %gu %wbuf %lm2
%wq = OpInBoundsPtrAccessChain %gu %wm2 %wn
OpStore %wq %u7
OpReturn
OpFunctionEnd
%atomic = OpFunction %void None %kty
%abuf = OpFunctionParameter %gu
%aout = OpFunctionParameter %gu
%an = OpFunctionParameter %uint
%ae = OpLabel
%am2 = OpInBoundsPtrAccessChain %gu %abuf %lm2
%aq = OpInBoundsPtrAccessChain %gu %am2 %an
%av = OpAtomicIAdd %uint %aq %u1 %u0 %u7
OpStore %aout %av
OpReturn
OpFunctionEnd
%copy = OpFunction %void None %kty
%cbuf = OpFunctionParameter %gu
%cout = OpFunctionParameter %gu
%cn = OpFunctionParameter %uint
%ce = OpLabel
%cm2 = OpInBoundsPtrAccessChain %gu %cbuf %lm2
%cq = OpInBoundsPtrAccessChain %gu %cm2 %cn
OpCopyMemorySized %cout %cq %l8
OpReturn
OpFunctionEnd
%priv = OpFunction %void None %kty
%pbuf = OpFunctionParameter %gu
%pout = OpFunctionParameter %gu
%pn = OpFunctionParameter %uint
%pe = OpLabel
%arr = OpVariable %farr Function
OpStore %arr %ginit
%pm2 = OpInBoundsAccessChain %fu %arr %lm2
%pend = OpInBoundsAccessChain %fu %arr %l4
%pq = OpInBoundsPtrAccessChain %fu %pm2 %pn
%pv = OpLoad %uint %pq
OpStore %pout %pv
%plast = OpPtrAccessChain %fu %pend %lm1
%pw = OpLoad %uint %plast
%po1 = OpInBoundsPtrAccessChain %gu %pout %l1
OpStore %po1 %pw
OpReturn
OpFunctionEnd
)";

std::string outsideSpec(const std::string& kernel, int64_t n) {
  return fmt::format(R"({{"kernel": "{}", "args": [
      {{"name": "buf", "buffer": {{"type": "u32", "length": 4, "init": [10, 20, 30, 40]}}}},
      {{"name": "out", "buffer": {{"type": "u32", "length": 10}}}}, {{"name": "n", "value": {}}}]}})", kernel, n);
}
} // namespace

TEST_CASE("interp: pointers may leave their object; only an access outside it is an error (issue 11)") {
  Kernel k = Kernel::fromText(kOutsideModule, "outside.spvasm");
  // Formed before and past the buffer and a program-scope array, never dereferenced there: compared,
  // subtracted, stored in memory, passed to a function, moved 10^6 elements away, through an integer,
  // and back into the object, where they read the right element.
  InterpResult r = k.run(spec(outsideSpec("form", 0)));
  CHECK(elems<uint32_t>(r.buffers[1]) == std::vector<uint32_t>{24, 1, 20, 40, 10, 30, 40, 20, 11, 13});
  CHECK(r.buffers[0] == bytesOf(std::vector<uint32_t>{10, 20, 30, 40}));

  // buf - 2 + n, accessed inside the buffer: read, written, atomically added to, copied from.
  for (int64_t n : {2, 5}) {
    CAPTURE(n);
    CHECK(elems<uint32_t>(k.run(spec(outsideSpec("read", n))).buffers[1])[0] == uint32_t(10 * (n - 1)));
    std::vector<uint32_t> written = {10, 20, 30, 40};
    written[n - 2] = 7;
    CHECK(k.run(spec(outsideSpec("write", n))).buffers[0] == bytesOf(written));
    written[n - 2] = uint32_t(10 * (n - 1)) + 7;
    InterpResult a = k.run(spec(outsideSpec("atomic", n)));
    CHECK(a.buffers[0] == bytesOf(written));
    CHECK(elems<uint32_t>(a.buffers[1])[0] == uint32_t(10 * (n - 1)));
  }
  for (int64_t n : {2, 4}) { // 8 bytes
    auto c = elems<uint32_t>(k.run(spec(outsideSpec("copy", n))).buffers[1]);
    CHECK(c[0] == uint32_t(10 * (n - 1)));
    CHECK(c[1] == uint32_t(10 * n));
  }
  // A Function array: a pointer two elements before it moved back in, one past its end moved back.
  auto p = elems<uint32_t>(k.run(spec(outsideSpec("priv", 3))).buffers[1]);
  CHECK(p[0] == 12);
  CHECK(p[1] == 14);

  // Real out-of-bounds accesses are errors naming the access, the object and the offset.
  auto error = [&](const char* kernel, int64_t n) { return k.error(spec(outsideSpec(kernel, n))); };
  std::string e = error("read", 1);
  checkContains(e, "OpLoad %rv");
  checkContains(e, "out-of-bounds load: 4 bytes at byte offset -4 of argument 0 'buf' (buffer of 4 x u32 = 16 bytes)");
  e = error("read", 6);
  checkContains(e, "OpLoad %rv");
  checkContains(e, "out-of-bounds load: 4 bytes at byte offset 16 of argument 0 'buf'");
  e = error("write", 0);
  checkContains(e, "OpStore");
  checkContains(e, "out-of-bounds store: 4 bytes at byte offset -8 of argument 0 'buf'");
  e = error("write", 6);
  checkContains(e, "out-of-bounds store: 4 bytes at byte offset 16 of argument 0 'buf'");
  checkContains(error("atomic", 1), "out-of-bounds atomic access: 4 bytes at byte offset -4 of argument 0 'buf'");
  checkContains(error("copy", 0), "out-of-bounds copy from: 8 bytes at byte offset -8 of argument 0 'buf'");
  checkContains(error("copy", 5), "out-of-bounds copy from: 8 bytes at byte offset 12 of argument 0 'buf'");
  e = error("priv", 1);
  checkContains(e, "OpLoad %pv");
  checkContains(e, "out-of-bounds load: 4 bytes at byte offset -4 of variable %arr (16 bytes)");
  checkContains(error("priv", 6), "out-of-bounds load: 4 bytes at byte offset 16 of variable %arr (16 bytes)");
}

TEST_CASE("interp: huge arrays: sized without a layout, refused by name as whole values") {
  // Found by fuzz_interp: a module-scope array of 2^31 elements built one layout leaf per element.
  auto module = [](const std::string& body) {
    return std::string(R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%big = OpConstant %uint 10000000
%uint_0 = OpConstant %uint 0
%arr = OpTypeArray %uint %big
%fptr = OpTypePointer Function %arr
%eptr = OpTypePointer Function %uint
%gptr = OpTypePointer CrossWorkgroup %uint
%fnty = OpTypeFunction %void %gptr
%k = OpFunction %void None %fnty
%out = OpFunctionParameter %gptr
%entry = OpLabel
%a = OpVariable %fptr Function
)") + body + "OpReturn\nOpFunctionEnd\n";
  };
  RunSpec s = spec(R"({"kernel": "k", "args": [{"buffer": {"type": "u32", "length": 1}}]})");
  // A 40 MB private array used element by element is fine.
  Kernel ok = Kernel::fromText(
      module("%e = OpAccessChain %eptr %a %uint_0\nOpStore %e %uint_0\n%v = OpLoad %uint %e\nOpStore %out %v\n"), "big.spvasm");
  CHECK_NOTHROW(ok.run(s));
  // Loaded as one value it would need ten million slots.
  std::string e = Kernel::fromText(module("%w = OpLoad %arr %a\n"), "big.spvasm").error(s);
  checkContains(e, "values of type %arr have 10000000 scalars, more than the interpreter's limit of 4194304 per value");
}

TEST_CASE("interp: OpSpecConstantOp addresses in initializers (specconst.cl)") {
  Kernel k("specconst.spv");
  // int *t[4] = {&g, ...}: a constant composite of PtrCastToGeneric %g, copied into a private array.
  for (int i = 0; i < 4; ++i) {
    InterpResult r = k.run(spec(fmt::format(R"({{"kernel": "table", "args": [
        {{"name": "r", "buffer": {{"type": "i32", "length": 4, "init": [5, {}, 0, 0]}}}}]}})", i)));
    CHECK(elems<int32_t>(r.buffers[0]) == std::vector<int32_t>{1, i, 0, 0});
  }
  // global int *p = &arr[2], *q = &st.b[1]: Bitcast / PtrAccessChain chains on module-scope variables.
  InterpResult r = k.run(spec(R"({"kernel": "chain", "args": [{"name": "r", "buffer": {"type": "i32", "length": 4}}]})"));
  CHECK(elems<int32_t>(r.buffers[0]) == std::vector<int32_t>{30, 40, 10, 3});
}

namespace {

// Folded integer constants and constant addresses, stored to the buffer in this order: IAdd,
// ShiftLeftLogical, SConvert, SDiv, SMod, Select, CompositeExtract of a CompositeInsert, a load through
// an InBoundsAccessChain constant, one through a global pointer initialised with it, and one through
// a PtrCastToGeneric of it.
std::string specConstModule(const std::string& body) {
  return R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int16
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%m7 = OpConstant %uint 0xfffffff9
%s8001 = OpConstant %ushort 0x8001
%arr4 = OpTypeArray %uint %uint_4
%st = OpTypeStruct %uint %arr4
%gst = OpTypePointer CrossWorkgroup %st
%gu = OpTypePointer CrossWorkgroup %uint
%genu = OpTypePointer Generic %uint
%gpp = OpTypePointer CrossWorkgroup %gu
%add = OpSpecConstantOp %uint IAdd %uint_2 %uint_3
%shl = OpSpecConstantOp %uint ShiftLeftLogical %uint_1 %uint_4
%sconv = OpSpecConstantOp %uint SConvert %s8001
%sdiv = OpSpecConstantOp %uint SDiv %m7 %uint_2
%smod = OpSpecConstantOp %uint SMod %m7 %uint_2
%lt = OpSpecConstantOp %bool SLessThan %m7 %uint_0
%sel = OpSpecConstantOp %uint Select %lt %add %shl
%vals = OpConstantComposite %arr4 %add %shl %sconv %uint_4
%ins = OpSpecConstantOp %arr4 CompositeInsert %sdiv %vals 3
%ext = OpSpecConstantOp %uint CompositeExtract %ins 3
%init = OpConstantComposite %st %uint_1 %ins
%gv = OpVariable %gst CrossWorkgroup %init
%elt = OpSpecConstantOp %gu InBoundsAccessChain %gv %uint_1 %uint_1
%pv = OpVariable %gpp CrossWorkgroup %elt
%gen = OpSpecConstantOp %genu PtrCastToGeneric %elt
%nullp = OpConstantNull %gu
%bad = OpSpecConstantOp %gu PtrAccessChain %nullp %uint_1
%fnty = OpTypeFunction %void %gu
%k = OpFunction %void None %fnty
%out = OpFunctionParameter %gu
%entry = OpLabel
)" + body + "OpReturn\nOpFunctionEnd\n";
}

} // namespace

TEST_CASE("interp: OpSpecConstantOp integer folds and constant access chains (SPIR-V text)") {
  std::string body;
  const char* values[] = {"%add", "%shl", "%sconv", "%sdiv", "%smod", "%sel", "%ext"};
  for (int i = 0; i < 7; ++i)
    body += fmt::format("%o{0} = OpInBoundsPtrAccessChain %gu %out %c{0}\nOpStore %o{0} {1}\n", i, values[i]);
  body += R"(%l7 = OpLoad %uint %elt
%o7 = OpInBoundsPtrAccessChain %gu %out %c7
OpStore %o7 %l7
%p8 = OpLoad %gu %pv
%l8 = OpLoad %uint %p8
%o8 = OpInBoundsPtrAccessChain %gu %out %c8
OpStore %o8 %l8
%l9 = OpLoad %uint %gen
%o9 = OpInBoundsPtrAccessChain %gu %out %c9
OpStore %o9 %l9
)";
  std::string consts;
  for (int i = 0; i < 10; ++i) consts += fmt::format("%c{} = OpConstant %uint {}\n", i, i);
  std::string text = specConstModule(body);
  text.insert(text.find("%add ="), consts);
  Kernel k = Kernel::fromText(text, "specconst.spvasm");
  InterpResult r = k.run(spec(R"({"kernel": "k", "args": [{"buffer": {"type": "i32", "length": 10}}]})"));
  // %ins = {5, 16, 0xffff8001, -3}; %elt = &gv.arr[1] = 16 (the unused %bad, null + 4, is no error).
  CHECK(elems<int32_t>(r.buffers[0]) == std::vector<int32_t>{5, 16, int32_t(0xffff8001u), -3, 1, 5, -3, 16, 16, 16});
}

TEST_CASE("interp: OpSpecConstantOp errors: unsupported, division by zero, null pointer arithmetic") {
  // Constants without a value (undefined, or not folded yet) are errors where they are used; unused,
  // they do not make the module fail.
  const std::string buffer = R"({"kernel": "k", "args": [{"buffer": {"type": "i32", "length": 1}}]})";
  auto runError = [&](const std::string& constants, const std::string& body) {
    std::string text = specConstModule(body);
    text.insert(text.find("%fnty ="), constants);
    return Kernel::fromText(text, "bad.spvasm").error(spec(buffer));
  };
  const std::string div = "%z = OpSpecConstantOp %uint UMod %uint_1 %uint_0\n";
  checkContains(runError(div, "OpStore %out %z\n"), "OpSpecConstantOp UMod: division by zero (%uint_0 is 0)");
  std::string unused = specConstModule("");
  unused.insert(unused.find("%fnty ="), div);
  CHECK_NOTHROW(Kernel::fromText(unused, "unused.spvasm").run(spec(buffer)));
  const std::string fl = "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%z = OpSpecConstantOp %float FMul %f1 %f1\n";
  checkContains(runError(fl, "%zi = OpBitcast %uint %z\nOpStore %out %zi\n"), "OpSpecConstantOp FMul is not supported yet");
  // An address the interpreter cannot form is reported where it is used.
  std::string e2 = Kernel::fromText(specConstModule("OpStore %bad %uint_1\n"), "null.spvasm")
                       .error(spec(R"({"kernel": "k", "args": [{"buffer": {"type": "i32", "length": 1}}]})"));
  checkContains(e2, "OpSpecConstantOp %bad");
  checkContains(e2, "pointer arithmetic on a null pointer");
}

TEST_CASE("interp: ByVal struct parameters are copied on entry (byval.cl)") {
  Kernel k("byval.spv");
  auto run = [&](const char* kernel) {
    return elems<int32_t>(k.run(spec(fmt::format(R"({{"kernel": "{}", "args": [
        {{"name": "r", "buffer": {{"type": "i32", "length": 4}}}}]}})", kernel))).buffers[0]);
  };
  // f(x) sets its copy's a to 5; x.a stays 1.
  CHECK(run("simple") == std::vector<int32_t>{5, 1, 0, 0});
  // The callee overwrites its copy's array member and n: 1+2+3+4 + 99; the caller's x is unchanged.
  CHECK(run("arrayMember") == std::vector<int32_t>{109, 5, 7, 0});
  // outer's copy gets +10, each inner call its own copy of that (+100); the kernel's x is unchanged.
  CHECK(run("nested") == std::vector<int32_t>{111, 111, 11, 1});
  // The module view tells which parameters are ByVal.
  int byVal = 0;
  for (const auto& f : k.view->functions)
    for (spirv::Id prm : f.params) byVal += k.view->isByValParam(prm);
  CHECK(byVal == 4);
}
