// Golden interpreter: OpenCL C kernels compiled to SPIR-V (tests/unit/data/interp, see build.sh) run
// on inputs from run specs; every expected result is computed here by plain C++ from the same inputs.
// Undefined behaviour and run specs that do not fit the kernel are errors naming the instruction or
// the argument. Hand-written SPIR-V: test_interp_handwritten.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_spec_util.h"
#include "interp_test_util.h"

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

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
