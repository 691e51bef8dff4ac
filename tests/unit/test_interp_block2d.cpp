// Golden interpreter, SPV_INTEL_2d_block_io (/work/shared/specs/SPV_INTEL_2d_block_io.txt). Kernels are
// generated here as SPIR-V text (Debian's spirv-as does not know these opcodes): every work-item reads
// its operands from a parameter buffer, runs one 2D block instruction and copies its per-invocation
// storage out (loads) or fills it first (stores). Expected values come from the spec's worked examples,
// written out literally, and from a reference written from the spec's text below, which builds the
// padded block as a matrix and hands its rows to the invocations one row (or row set) at a time.
#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <cstring>
#include <functional>
#include <random>

#include <fmt/format.h>

#include "frontend/module.h"
#include "sim/interp.h"
#include "sim/runspec.h"

#include "interp_test_util.h"

using namespace spvhls;
using namespace spvhls::sim;
using namespace spvhls::testutil;

namespace {

enum class Kind { Load, Transpose, Transform, Prefetch, Store };

const char* opName(Kind k) {
  switch (k) {
  case Kind::Load: return "OpSubgroup2DBlockLoadINTEL";
  case Kind::Transpose: return "OpSubgroup2DBlockLoadTransposeINTEL";
  case Kind::Transform: return "OpSubgroup2DBlockLoadTransformINTEL";
  case Kind::Prefetch: return "OpSubgroup2DBlockPrefetchINTEL";
  case Kind::Store: return "OpSubgroup2DBlockStoreINTEL";
  }
  return "";
}

struct Block {
  Kind kind = Kind::Load;
  uint32_t elem = 4, width = 4, height = 2, count = 1;
  bool isLoad() const { return kind == Kind::Load || kind == Kind::Transpose || kind == Kind::Transform; }
  uint32_t privBytes() const { return kind == Kind::Transform ? 4 : elem; } // per-invocation element
};

// The 2D region and where the block starts; offsets are in bytes.
struct Region {
  int32_t mw = 64, mh = 8, mp = 64, cx = 0, cy = 0;
  int32_t baseOffset = 0, privOffset = 0;
};

struct Setup {
  Block blk;
  uint32_t sg = 4, local = 4, global = 4;
  uint32_t privLen = 0;                       // elements of the per-invocation array
  std::vector<std::array<int32_t, 8>> params; // per work-item: mw mh mp cx cy baseOffset privOffset -
  std::vector<uint8_t> mem;                   // the 2D region's buffer
  std::vector<uint8_t> io;                    // loads: output; stores: each invocation's data
  bool nullBase = false;
  bool constMem = false; // mem is a constant buffer, cast to a global pointer
  int skipInit = -1;     // stores: the per-invocation element left unwritten
};

std::string typeOf(uint32_t bytes) {
  return fmt::format("%u{}", 8 * bytes);
}

// The kernel: k(T* mem, D* io, uint* params), D = the per-invocation element type.
std::string kernelText(const Setup& s) {
  const Block& b = s.blk;
  const std::string d = typeOf(b.privBytes());
  const std::string gT = fmt::format("%gp{}", 8 * b.elem), gD = fmt::format("%gp{}", 8 * b.privBytes());
  const std::string fD = fmt::format("%fp{}", 8 * b.privBytes());
  std::string x = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpCapability Int16
               OpCapability Int64
               OpCapability Subgroup2DBlockIOINTEL
               OpCapability Subgroup2DBlockTransformINTEL
               OpCapability Subgroup2DBlockTransposeINTEL
               OpExtension "SPV_INTEL_2d_block_io"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
         %u8 = OpTypeInt 8 0
        %u16 = OpTypeInt 16 0
        %u32 = OpTypeInt 32 0
        %u64 = OpTypeInt 64 0
         %v2 = OpTypeVector %u32 2
         %v3 = OpTypeVector %u64 3
      %in_v3 = OpTypePointer Input %v3
        %gid = OpVariable %in_v3 Input
)";
  for (int w : {8, 16, 32, 64})
    x += fmt::format("%gp{0} = OpTypePointer CrossWorkgroup %u{0}\n%fp{0} = OpTypePointer Function %u{0}\n"
                     "%cp{0} = OpTypePointer UniformConstant %u{0}\n",
                     w);
  const uint32_t consts = std::max(s.privLen, 9u);
  for (uint32_t j = 0; j < consts; ++j) x += fmt::format("%k{} = OpConstant %u32 {}\n", j, j);
  x += fmt::format(R"(
        %len = OpConstant %u32 {len}
        %arr = OpTypeArray {d} %len
       %farr = OpTypePointer Function %arr
         %fn = OpTypeFunction %void {memT} {gD} %gp32
      %esize = OpConstant %u32 {e}
         %bw = OpConstant %u32 {w}
         %bh = OpConstant %u32 {h}
         %bc = OpConstant %u32 {c}
      %nullT = OpConstantNull {gT}
          %k = OpFunction %void None %fn
        %mem = OpFunctionParameter {memT}
         %io = OpFunctionParameter {gD}
        %prm = OpFunctionParameter %gp32
      %entry = OpLabel
        %var = OpVariable %farr Function
         %g3 = OpLoad %v3 %gid
       %gidx = OpCompositeExtract %u64 %g3 0
         %id = OpUConvert %u32 %gidx
         %pb = OpIMul %u32 %id %k8
         %ob = OpIMul %u32 %id %len
)",
                   fmt::arg("len", s.privLen),
                   fmt::arg("memT", s.constMem ? fmt::format("%cp{}", 8 * b.elem) : gT), fmt::arg("d", d),
                   fmt::arg("gT", gT), fmt::arg("gD", gD), fmt::arg("e", b.elem), fmt::arg("w", b.width),
                   fmt::arg("h", b.height), fmt::arg("c", b.count));
  for (int q = 0; q < 7; ++q)
    x += fmt::format("%pi{0} = OpIAdd %u32 %pb %k{0}\n%pp{0} = OpPtrAccessChain %gp32 %prm %pi{0}\n"
                     "%p{0} = OpLoad %u32 %pp{0}\n",
                     q);
  // Byte offsets through u8 pointers, so that tests can misalign them.
  x += "%coord = OpCompositeConstruct %v2 %p3 %p4\n";
  x += b.elem == 1 && !s.constMem ? "%mem8 = OpCopyObject %gp8 %mem\n" : "%mem8 = OpBitcast %gp8 %mem\n";
  x += "%base8 = OpPtrAccessChain %gp8 %mem8 %p5\n";
  x += b.elem == 1 ? "%base = OpCopyObject %gp8 %base8\n" : fmt::format("%base = OpBitcast {} %base8\n", gT);
  x += "%var8 = OpBitcast %fp8 %var\n%priv8 = OpPtrAccessChain %fp8 %var8 %p6\n";
  x += b.privBytes() == 1 ? "%priv = OpCopyObject %fp8 %priv8\n"
                          : fmt::format("%priv = OpBitcast {} %priv8\n", fD);
  if (b.kind == Kind::Store)
    for (uint32_t j = 0; j < s.privLen; ++j)
      if (static_cast<int>(j) != s.skipInit)
        x += fmt::format("%si{0} = OpIAdd %u32 %ob %k{0}\n%sp{0} = OpPtrAccessChain {1} %io %si{0}\n"
                         "%sv{0} = OpLoad {2} %sp{0}\n%sd{0} = OpInBoundsAccessChain {3} %var %k{0}\n"
                         "OpStore %sd{0} %sv{0}\n",
                         j, gD, d, fD);
  const std::string base = s.nullBase ? "%nullT" : "%base";
  const std::string shape = "%esize %bw %bh %bc";
  if (b.kind == Kind::Store)
    x += fmt::format("OpSubgroup2DBlockStoreINTEL {} %priv {} %p0 %p1 %p2 %coord\n", shape, base);
  else if (b.kind == Kind::Prefetch)
    x += fmt::format("OpSubgroup2DBlockPrefetchINTEL {} {} %p0 %p1 %p2 %coord\n", shape, base);
  else
    x += fmt::format("{} {} {} %p0 %p1 %p2 %coord %priv\n", opName(b.kind), shape, base);
  if (b.isLoad())
    for (uint32_t j = 0; j < s.privLen; ++j)
      x += fmt::format(
          "%ld{0} = OpInBoundsAccessChain {1} %var %k{0}\n%lv{0} = OpLoad {2} %ld{0}\n"
          "%li{0} = OpIAdd %u32 %ob %k{0}\n%lp{0} = OpPtrAccessChain {3} %io %li{0}\nOpStore %lp{0} %lv{0}\n",
          j, fD, d, gD);
  x += "OpReturn\nOpFunctionEnd\n";
  return x;
}

std::string bufferJson(const char* name, uint32_t bytes, size_t size) {
  return fmt::format(R"({{"name": "{}", "buffer": {{"type": "u{}", "length": {}}}}})", name, 8 * bytes,
                     size / bytes);
}

RunSpec runSpec(const Setup& s) {
  RunSpec spec = parseRunSpec(
      fmt::format(
          R"({{"kernel": "k", "args": [{}, {}, {}], "global_size": [{}], "local_size": [{}], "subgroup_size": {}}})",
          bufferJson("mem", s.blk.elem, s.mem.size()), bufferJson("io", s.blk.privBytes(), s.io.size()),
          bufferJson("prm", 4, s.params.size() * 32), s.global, s.local, s.sg),
      "block2d.json");
  spec.args[0].init = s.mem;
  spec.args[1].init = s.io;
  spec.args[2].init.resize(s.params.size() * 32);
  std::memcpy(spec.args[2].init.data(), s.params.data(), s.params.size() * 32);
  return spec;
}

InterpResult run(const Setup& s) { return Kernel::fromText(kernelText(s), "block2d.spvasm").run(runSpec(s)); }

// The error the run ends with.
std::string runError(const Setup& s) { return Kernel::fromText(kernelText(s), "block2d.spvasm").error(runSpec(s)); }

uint64_t getBytes(const std::vector<uint8_t>& v, size_t at, uint32_t bytes) {
  uint64_t x = 0;
  std::memcpy(&x, v.data() + at, bytes);
  return x;
}
void putBytes(std::vector<uint8_t>& v, size_t at, uint64_t x, uint32_t bytes) {
  std::memcpy(v.data() + at, &x, bytes);
}

// ---- reference, from the spec's "Mapping Block Data to Invocations" ----

using Matrix = std::vector<std::vector<uint64_t>>;

// The block after padding and transposing or transforming; elem(r, c) gives the element of block row r
// and column c (r < Block Height, c < Block Width). Padded elements are zero.
Matrix processed(const Block& k, const std::function<uint64_t(uint32_t, uint32_t)>& elem) {
  uint32_t rows = k.height, cols = k.width;
  if (k.kind == Kind::Transpose)
    rows = std::bit_ceil(rows); // Block Height padded to a power of two
  else
    cols = std::bit_ceil(cols); // Block Width padded to a power of two
  const uint32_t f = k.kind == Kind::Transform ? 4 / k.elem : 1;
  rows = (rows + f - 1) / f * f; // transform: Block Height padded to a multiple of 4 / 2
  Matrix m(rows, std::vector<uint64_t>(cols, 0));
  for (uint32_t r = 0; r < k.height; ++r)
    for (uint32_t c = 0; c < k.width; ++c) m[r][c] = elem(r, c);
  if (k.kind == Kind::Transpose) { // the first column becomes the first row
    Matrix t(cols, std::vector<uint64_t>(rows));
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c) t[c][r] = m[r][c];
    return t;
  }
  if (f > 1) { // every f rows of a column packed into 32 bits, lower rows in lower bits
    Matrix p(rows / f, std::vector<uint64_t>(cols, 0));
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c) p[r / f][c] |= m[r][c] << (8 * k.elem * (r % f));
    return p;
  }
  return m;
}

// The rows handed to the invocations: lists[i] is what invocation i is assigned, in order.
std::vector<std::vector<uint64_t>> distribute(const Matrix& m, uint32_t sg) {
  std::vector<std::vector<uint64_t>> lists(sg);
  const uint32_t rows = static_cast<uint32_t>(m.size()), cols = static_cast<uint32_t>(m[0].size());
  if (cols >= sg) { // each invocation takes the next cols / sg elements of every row
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t i = 0; i < sg; ++i)
        for (uint32_t t = 0; t < cols / sg; ++t) lists[i].push_back(m[r][i * (cols / sg) + t]);
  } else { // the first row to the first cols invocations, the next row to the next ones, ...
    for (uint32_t first = 0; first < rows; first += sg / cols)
      for (uint32_t i = 0; i < sg; ++i) {
        uint32_t r = first + i / cols;
        lists[i].push_back(r < rows ? m[r][i % cols] : 0);
      }
  }
  return lists;
}

// Memory position (byte offset in the buffer) of element (r, c) of block b, or -1 out of bounds.
int64_t memoryAt(const Block& k, const Region& g, uint32_t b, uint32_t r, uint32_t c) {
  int64_t row = int64_t(g.cy) + r, col = int64_t(g.cx) + int64_t(b) * k.width + c;
  if (row < 0 || row >= g.mh || col < 0 || (col + 1) * k.elem > g.mw) return -1;
  return g.baseOffset + row * g.mp + col * k.elem;
}

// What each invocation of a subgroup loads: C blocks, one after the other.
std::vector<std::vector<uint64_t>> referenceLoad(const Block& k, const Region& g,
                                                 const std::vector<uint8_t>& mem, uint32_t sg) {
  std::vector<std::vector<uint64_t>> out(sg);
  for (uint32_t b = 0; b < k.count; ++b) {
    auto lists = distribute(processed(k,
                                      [&](uint32_t r, uint32_t c) {
                                        int64_t at = memoryAt(k, g, b, r, c);
                                        return at < 0 ? 0 : getBytes(mem, at, k.elem);
                                      }),
                            sg);
    for (uint32_t i = 0; i < sg; ++i) out[i].insert(out[i].end(), lists[i].begin(), lists[i].end());
  }
  return out;
}

// Elements per invocation (all blocks).
uint32_t perInvocation(const Block& k, uint32_t sg) {
  Block load = k;
  if (k.kind == Kind::Store || k.kind == Kind::Prefetch) load.kind = Kind::Load;
  return static_cast<uint32_t>(
             distribute(processed(load, [](uint32_t, uint32_t) { return 0; }), sg)[0].size()) *
         k.count;
}

// A store: memory after invocation i's element j (of all blocks) is stored; padding and out-of-bounds
// elements are ignored. Positions are found by distributing tags (r, c) + 1, 0 being padding.
void referenceStore(const Block& k, const Region& g, std::vector<uint8_t>& mem,
                    const std::function<uint64_t(uint32_t, uint32_t)>& src, uint32_t sg) {
  Block plain = k;
  plain.kind = Kind::Load;
  auto tags =
      distribute(processed(plain, [](uint32_t r, uint32_t c) { return (uint64_t(r) << 32 | c) + 1; }), sg);
  const uint32_t n = static_cast<uint32_t>(tags[0].size());
  for (uint32_t b = 0; b < k.count; ++b)
    for (uint32_t i = 0; i < sg; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        if (tags[i][j] == 0) continue;
        uint32_t r = static_cast<uint32_t>((tags[i][j] - 1) >> 32), c = static_cast<uint32_t>(tags[i][j] - 1);
        int64_t at = memoryAt(k, g, b, r, c);
        if (at >= 0) putBytes(mem, at, src(i, b * n + j), k.elem);
      }
}

// A setup with the same region in every work-item, random memory covering it (and a little more) and
// the per-invocation array sized for the block.
Setup makeSetup(const Block& k, const Region& g, uint32_t sg, uint32_t seed) {
  Setup s;
  s.blk = k;
  s.sg = s.local = s.global = sg;
  s.params.assign(sg, {g.mw, g.mh, g.mp, g.cx, g.cy, g.baseOffset, g.privOffset, 0});
  size_t bytes = (g.baseOffset + size_t(g.mh) * g.mp + 64 + 7) / 8 * 8;
  std::mt19937 rng(seed);
  s.mem.resize(bytes);
  for (auto& byte : s.mem) byte = static_cast<uint8_t>(rng());
  s.privLen = perInvocation(k, sg);
  s.io.resize(size_t(s.global) * s.privLen * k.privBytes());
  if (k.kind == Kind::Store)
    for (auto& byte : s.io) byte = static_cast<uint8_t>(rng());
  return s;
}

// Runs a load and compares every invocation's storage with the reference.
void checkLoad(const Block& k, const Region& g, uint32_t sg, uint32_t seed) {
  CAPTURE(opName(k.kind));
  CAPTURE(k.elem);
  CAPTURE(k.width);
  CAPTURE(k.height);
  CAPTURE(k.count);
  CAPTURE(sg);
  CAPTURE(g.cx);
  CAPTURE(g.cy);
  Setup s = makeSetup(k, g, sg, seed);
  auto want = referenceLoad(k, g, s.mem, sg);
  REQUIRE(want[0].size() == s.privLen);
  InterpResult r = run(s);
  const auto& io = r.buffers[1];
  for (uint32_t i = 0; i < sg; ++i)
    for (uint32_t j = 0; j < s.privLen; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(getBytes(io, (size_t(i) * s.privLen + j) * k.privBytes(), k.privBytes()) == want[i][j]);
    }
  CHECK(r.buffers[0] == s.mem); // loads do not write memory
}

// Runs a store and compares the memory with the reference; returns whether the store changed memory.
bool checkStore(const Block& k, const Region& g, uint32_t sg, uint32_t seed) {
  CAPTURE(k.elem);
  CAPTURE(k.width);
  CAPTURE(k.height);
  CAPTURE(k.count);
  CAPTURE(sg);
  CAPTURE(g.cx);
  CAPTURE(g.cy);
  Setup s = makeSetup(k, g, sg, seed);
  std::vector<uint8_t> want = s.mem;
  referenceStore(
      k, g, want,
      [&](uint32_t i, uint32_t j) { return getBytes(s.io, (size_t(i) * s.privLen + j) * k.elem, k.elem); },
      sg);
  InterpResult r = run(s);
  CHECK(r.buffers[0] == want);
  return want != s.mem;
}

// A buffer whose element (row r, column c) of a Memory Width of 64 bytes is 0x10 * r + c, for the
// spec's examples: "r,c" in the spec is rc(r, c) here.
uint64_t rc(uint64_t r, uint64_t c) {
  return 0x10 * r + c;
}
Setup exampleSetup(const Block& k) {
  Region g; // 64 bytes wide, 8 rows, pitch 64, at (0, 0)
  Setup s = makeSetup(k, g, 4, 1);
  for (uint32_t r = 0; r < 8; ++r)
    for (uint32_t c = 0; c < 64 / k.elem; ++c) putBytes(s.mem, r * 64 + c * k.elem, rc(r, c), k.elem);
  return s;
}
std::vector<std::vector<uint64_t>> loaded(const Setup& s) {
  InterpResult r = run(s);
  std::vector<std::vector<uint64_t>> out(s.global);
  for (uint32_t i = 0; i < s.global; ++i)
    for (uint32_t j = 0; j < s.privLen; ++j)
      out[i].push_back(
          getBytes(r.buffers[1], (size_t(i) * s.privLen + j) * s.blk.privBytes(), s.blk.privBytes()));
  return out;
}

using Lists = std::vector<std::vector<uint64_t>>;

} // namespace

TEST_CASE("interp block2d: the spec's examples (subgroup size 4)") {
  SUBCASE("2 x 4 block: padded width equals the subgroup size") {
    CHECK(loaded(exampleSetup({Kind::Load, 4, 4, 2, 1})) ==
          Lists{{rc(0, 0), rc(1, 0)}, {rc(0, 1), rc(1, 1)}, {rc(0, 2), rc(1, 2)}, {rc(0, 3), rc(1, 3)}});
  }
  SUBCASE("4 x 2 block: padded width below the subgroup size") {
    CHECK(loaded(exampleSetup({Kind::Load, 4, 2, 4, 1})) ==
          Lists{{rc(0, 0), rc(2, 0)}, {rc(0, 1), rc(2, 1)}, {rc(1, 0), rc(3, 0)}, {rc(1, 1), rc(3, 1)}});
  }
  SUBCASE("2 x 8 block: padded width above the subgroup size") {
    CHECK(loaded(exampleSetup({Kind::Load, 4, 8, 2, 1})) == Lists{{rc(0, 0), rc(0, 1), rc(1, 0), rc(1, 1)},
                                                                  {rc(0, 2), rc(0, 3), rc(1, 2), rc(1, 3)},
                                                                  {rc(0, 4), rc(0, 5), rc(1, 4), rc(1, 5)},
                                                                  {rc(0, 6), rc(0, 7), rc(1, 6), rc(1, 7)}});
  }
  SUBCASE("4 x 2 block, transposed") {
    CHECK(loaded(exampleSetup({Kind::Transpose, 4, 2, 4, 1})) ==
          Lists{{rc(0, 0), rc(0, 1)}, {rc(1, 0), rc(1, 1)}, {rc(2, 0), rc(2, 1)}, {rc(3, 0), rc(3, 1)}});
  }
  SUBCASE("2 x 4 block of 2-byte elements, transformed") {
    CHECK(loaded(exampleSetup({Kind::Transform, 2, 4, 2, 1})) == Lists{{rc(1, 0) << 16 | rc(0, 0)},
                                                                       {rc(1, 1) << 16 | rc(0, 1)},
                                                                       {rc(1, 2) << 16 | rc(0, 2)},
                                                                       {rc(1, 3) << 16 | rc(0, 3)}});
  }
  SUBCASE("4 x 4 block of 1-byte elements, transformed") {
    // The spec's text says "Block Height equals two" but shows (and means) four rows.
    auto packed = [](uint64_t c) { return rc(3, c) << 24 | rc(2, c) << 16 | rc(1, c) << 8 | rc(0, c); };
    CHECK(loaded(exampleSetup({Kind::Transform, 1, 4, 4, 1})) ==
          Lists{{packed(0)}, {packed(1)}, {packed(2)}, {packed(3)}});
  }
  SUBCASE("the first example with the reference") {
    Setup s = exampleSetup({Kind::Load, 4, 4, 2, 1});
    CHECK(loaded(s) == referenceLoad(s.blk, Region{}, s.mem, 4));
  }
}

TEST_CASE("interp block2d: padding, block counts, all element sizes, subgroup sizes 4, 8 and 16") {
  uint32_t seed = 10;
  for (uint32_t sg : {4u, 8u, 16u})
    for (uint32_t e : {1u, 2u, 4u, 8u}) {
      const uint32_t m = e == 1 ? 4 : e == 2 ? 2 : 1; // Block Width multiple
      Region g;
      g.mw = 128, g.mh = 12, g.mp = 144, g.cx = 4 * m, g.cy = 1; // pitch > width: bytes between are not read
      for (uint32_t w : {m, 3 * m, 4 * m, 5 * m, 16 / e * m})
        for (uint32_t h : {1u, 3u, 4u})
          for (uint32_t c : {1u, 2u}) checkLoad({Kind::Load, e, w, h, c}, g, sg, ++seed);
    }
}

TEST_CASE("interp block2d: transpose pads the height; block count > 1") {
  uint32_t seed = 100;
  for (uint32_t sg : {4u, 8u, 16u})
    for (uint32_t e : {4u, 8u, 2u}) {
      const uint32_t m = e == 2 ? 2 : 1;
      Region g;
      g.mw = 256, g.mh = 20, g.mp = 256, g.cx = 2 * m, g.cy = 2;
      for (uint32_t w : {m, 2 * m, 3 * m, 8 * m})
        for (uint32_t h : {1u, 3u, 4u, 5u, 8u, 16u})
          for (uint32_t c : {1u, 2u}) checkLoad({Kind::Transpose, e, w, h, c}, g, sg, ++seed);
    }
}

TEST_CASE("interp block2d: transform of 1- and 2-byte elements pads the height to a multiple of 4 / 2") {
  uint32_t seed = 200;
  for (uint32_t sg : {4u, 8u, 16u})
    for (uint32_t e : {1u, 2u}) {
      Region g;
      g.mw = 128, g.mh = 24, g.mp = 128, g.cx = 8, g.cy = 3;
      for (uint32_t w : {4u, 8u, 12u, 16u, 32u})
        for (uint32_t h : {1u, 2u, 3u, 4u, 5u, 8u, 10u})
          for (uint32_t c : {1u, 2u, 3u}) checkLoad({Kind::Transform, e, w, h, c}, g, sg, ++seed);
    }
}

TEST_CASE("interp block2d: out-of-bounds elements load as zero") {
  uint32_t seed = 300;
  // Left of, above, right of and below the region (Memory Width 64 bytes, 6 rows), and far outside.
  const std::array<std::array<int32_t, 2>, 6> corners{
      {{-8, -1}, {-4, 4}, {12, -3}, {14, 5}, {-1000, 0}, {0, 100}}};
  for (Kind kind : {Kind::Load, Kind::Transpose, Kind::Transform})
    for (uint32_t e : {1u, 2u, 4u})
      for (auto [x, y] : corners) {
        if (kind == Kind::Transform && e == 4) continue;
        Region g;
        g.mw = 64, g.mh = 6, g.mp = 80;
        g.cx = x * 4 / static_cast<int32_t>(e),
        g.cy = y; // x counted in 4-byte columns: aligned for every size
        const uint32_t w = e == 1 ? 8 : 4;
        checkLoad({kind, e, w, 4, 2}, g, 8, ++seed);
      }
  // A block entirely outside: all zeros, even in memory that exists (rows beyond Memory Height).
  Region g;
  g.mw = 64, g.mh = 2, g.mp = 64, g.cy = 2;
  Setup s = makeSetup({Kind::Load, 4, 4, 2, 1}, g, 4, 1);
  CHECK(loaded(s) == Lists(4, std::vector<uint64_t>(2, 0)));
}

TEST_CASE("interp block2d: stores, with padding and out-of-bounds elements ignored") {
  uint32_t seed = 400, runs = 0, changed = 0;
  for (uint32_t sg : {4u, 8u, 16u})
    for (uint32_t e : {1u, 2u, 4u, 8u}) {
      const uint32_t m = e == 1 ? 4 : e == 2 ? 2 : 1;
      for (auto [x, y] : std::array<std::array<int32_t, 2>, 3>{{{1, 1}, {-2, -1}, {14, 6}}}) {
        Region g;
        g.mw = 64, g.mh = 8, g.mp = 96; // the bytes between width and pitch must survive
        g.cx = x * 4 / static_cast<int32_t>(e) / int32_t(m) * int32_t(m), g.cy = y;
        for (uint32_t w : {m, 3 * m, 4 * m})
          for (uint32_t h : {1u, 3u})
            for (uint32_t c : {1u, 2u}) {
              ++runs;
              changed += checkStore({Kind::Store, e, w, h, c}, g, sg, ++seed);
            }
      }
    }
  CHECK(changed > runs / 2); // not a vacuous comparison: most blocks are partly in bounds
  // The spec's first example as a store: invocation i's two values go to column i of rows 0 and 1.
  Setup s = exampleSetup({Kind::Store, 4, 4, 2, 1});
  std::vector<uint8_t> mem = s.mem;
  for (uint32_t i = 0; i < 4; ++i)
    for (uint32_t j = 0; j < 2; ++j) putBytes(s.io, (i * 2 + j) * 4, 1000 * (i + 1) + j, 4);
  auto out = run(s).buffers[0];
  for (uint32_t r = 0; r < 8; ++r)
    for (uint32_t c = 0; c < 16; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(getBytes(out, r * 64 + c * 4, 4) == (r < 2 && c < 4 ? 1000 * (c + 1) + r : rc(r, c)));
    }
}

TEST_CASE("interp block2d: stores read only the elements they write") {
  // Element 1 (block row 1) of every invocation is never written: storing it is an error, but a block
  // whose rows are all out of bounds reads none of the elements.
  Region g;
  g.mw = 64, g.mh = 8, g.mp = 64;
  Setup s = makeSetup({Kind::Store, 4, 4, 2, 1}, g, 4, 1);
  s.skipInit = 1;
  std::string e = runError(s);
  checkContains(e, "OpSubgroup2DBlockStoreINTEL");
  checkContains(e, "reads uninitialised memory");
  for (auto& p : s.params) p[4] = -2; // rows -2 and -1: out of bounds, nothing is stored or read
  CHECK(run(s).buffers[0] == s.mem);
}

TEST_CASE("interp block2d: prefetch has no effect on results") {
  uint32_t seed = 500;
  for (uint32_t e : {1u, 2u, 4u, 8u}) {
    Region g;
    g.mw = 128, g.mh = 4, g.mp = 128, g.cx = -4, g.cy = 2;
    Setup s = makeSetup({Kind::Prefetch, e, e <= 2 ? 8u : 3u, 4, 2}, g, 8, ++seed);
    InterpResult r = run(s);
    CHECK(r.buffers[0] == s.mem);
    CHECK(r.buffers[1] == s.io);
  }
}

TEST_CASE("interp block2d: subgroups of a work-group use their own operands") {
  // Two subgroups of 4 in a work-group of 8, each loading a different block of the same memory.
  Region g;
  Setup s = makeSetup({Kind::Load, 4, 4, 2, 1}, g, 4, 7);
  s.local = s.global = 8;
  s.params.resize(8);
  for (uint32_t i = 0; i < 8; ++i) s.params[i] = {64, 8, 64, i < 4 ? 0 : 8, i < 4 ? 0 : 3, 0, 0, 0};
  s.io.resize(8 * s.privLen * 4);
  auto out = loaded(s);
  Region second = g;
  second.cx = 8, second.cy = 3;
  auto want0 = referenceLoad(s.blk, g, s.mem, 4), want1 = referenceLoad(s.blk, second, s.mem, 4);
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(out[i] == want0[i]);
    CHECK(out[4 + i] == want1[i]);
  }
}

TEST_CASE("interp block2d: the subgroup must be full and a power of two") {
  Setup s = makeSetup({Kind::Load, 4, 4, 2, 1}, Region{}, 4, 1);
  s.sg = s.local = s.global = 3;
  s.params.resize(3);
  checkContains(runError(s), "SubgroupMaxSize is 3, not a power of two");
  s.sg = 4, s.local = s.global = 6; // subgroups of 4 and 2
  s.params.resize(6, s.params[0]);
  s.io.resize(6 * s.privLen * 4);
  checkContains(
      runError(s),
      "the subgroup has 2 invocations but SubgroupMaxSize is 4: 2D block instructions need a full subgroup");
}

TEST_CASE("interp block2d: operands must be dynamically uniform") {
  const std::array<const char*, 6> names{"Memory Width",
                                         "Memory Height",
                                         "Memory Pitch",
                                         "Coordinate (component 0)",
                                         "Coordinate (component 1)",
                                         ""};
  for (Kind kind : {Kind::Load, Kind::Transpose, Kind::Transform, Kind::Prefetch, Kind::Store}) {
    CAPTURE(opName(kind));
    Block k{kind, 2, 4, 2, 1};
    Region g;
    g.mw = 128, g.mh = 8, g.mp = 128;
    for (int p = 0; p < 6; ++p) { // p = 5: the base pointer (64 bytes further in invocation 2)
      CAPTURE(p);
      Setup s = makeSetup(k, g, 4, 1);
      int32_t before = s.params[2][p];
      s.params[2][p] += 64;
      std::string e = runError(s);
      checkContains(e, opName(kind));
      std::string name = p < 5                    ? names[p]
                         : kind == Kind::Store    ? "Dst Base Pointer"
                         : kind == Kind::Prefetch ? "Src Pointer"
                                                  : "Src Base Pointer";
      checkContains(e, name + " is not dynamically uniform: invocation 0 has ");
      if (p < 5)
        checkContains(e, fmt::format("has {}, invocation 2 has {}", before, before + 64));
      else
        checkContains(e, "invocation 2 has byte offset 64 of argument 0 'mem'");
    }
  }
}

TEST_CASE("interp block2d: restrictions on the 2D region are errors") {
  struct Bad {
    uint32_t elem;
    Region g;
    const char* message; // {base}: the base pointer operand's name
  };
  auto region = [](int32_t mw, int32_t mh, int32_t mp, int32_t cx = 0, int32_t baseOffset = 0) {
    Region g;
    g.mw = mw, g.mh = mh, g.mp = mp, g.cx = cx, g.baseOffset = baseOffset;
    return g;
  };
  const std::vector<Bad> bad = {
      {4, region(64, 4, 64, 0, 16), "{base} is at byte offset 16 of argument 0 'mem'"},
      {4, region(32, 4, 64), "Memory Width is 32 bytes; it must be at least 64 and at most 2^24"},
      {4, region((1 << 24) + 64, 1, (1 << 24) + 64),
       "Memory Width is 16777280 bytes; it must be at least 64"},
      {2, region(66, 4, 80), "Memory Width is 66 bytes; for 2-byte elements it must be a multiple of 4"},
      {1, region(65, 4, 80), "Memory Width is 65 bytes; for 1-byte elements it must be a multiple of 4"},
      {8, region(68, 4, 80), "Memory Width is 68 bytes; for 8-byte elements it must be a multiple of 8"},
      {4, region(64, 0, 64), "Memory Height is 0 rows; it must be greater than 0 and at most 2^24"},
      {4, region(64, -3, 64), "Memory Height is -3 rows"},
      {4, region(64, (1 << 24) + 1, 64), "Memory Height is 16777217 rows"},
      {4, region(128, 4, 64),
       "Memory Pitch is 64 bytes; it must be at least the Memory Width (128) and a multiple of 16"},
      {4, region(64, 4, 72), "Memory Pitch is 72 bytes"},
      {1, region(64, 4, 64, 2),
       "Coordinate component 0 is 2; for 1-byte elements it must be a multiple of 4"},
      {2, region(64, 4, 64, 1),
       "Coordinate component 0 is 1; for 2-byte elements it must be a multiple of 2"},
      {2, region(64, 4, 64, -3), "Coordinate component 0 is -3"},
  };
  for (Kind kind : {Kind::Load, Kind::Transpose, Kind::Transform, Kind::Prefetch, Kind::Store})
    for (const Bad& b : bad) {
      if (kind == Kind::Transform && b.elem > 2) continue;
      CAPTURE(opName(kind));
      CAPTURE(b.message);
      // A small buffer (default region): the operands are checked before any element is accessed.
      Setup s = makeSetup({kind, b.elem, b.elem == 1 ? 4u : 2u, 2, 1}, Region{}, 4, 1);
      for (auto& p : s.params) p = {b.g.mw, b.g.mh, b.g.mp, b.g.cx, b.g.cy, b.g.baseOffset, 0, 0};
      std::string e = runError(s);
      checkContains(e, opName(kind));
      const char* base = kind == Kind::Store      ? "Dst Base Pointer"
                         : kind == Kind::Prefetch ? "Src Pointer"
                                                  : "Src Base Pointer";
      checkContains(e, fmt::format(fmt::runtime(b.message), fmt::arg("base", base)));
      checkContains(e, "undefined");
    }
}

TEST_CASE("interp block2d: null base, and a 2D region larger than its buffer") {
  for (Kind kind : {Kind::Load, Kind::Prefetch, Kind::Store}) {
    CAPTURE(opName(kind));
    Setup s = makeSetup({kind, 4, 4, 2, 1}, Region{}, 4, 1);
    s.nullBase = true;
    checkContains(runError(s), kind == Kind::Store      ? "Dst Base Pointer is null"
                              : kind == Kind::Prefetch ? "Src Pointer is null"
                                                       : "Src Base Pointer is null");
    s.nullBase = false;
    s.mem.resize(4 * 64); // 4 rows, but the region claims 8 and the block starts at row 3
    for (auto& p : s.params) p[4] = 3;
    std::string e = runError(s);
    checkContains(
        e,
        "element (row 1, column 0) of block 0 is inside the 2D region but at byte offset 256, beyond the end "
        "of argument 0 'mem'");
  }
}

TEST_CASE("interp block2d: a base pointer before its buffer is fine; elements before it are errors") {
  // Pointers may leave their object (issue 11): the region starts a row (64 bytes) before the buffer,
  // the block starts at row 1, the buffer's first byte.
  Region g;
  g.mw = 64, g.mh = 8, g.mp = 64, g.cy = 1, g.baseOffset = -64;
  for (Kind kind : {Kind::Load, Kind::Transpose}) checkLoad({kind, 4, 4, 2, 1}, g, 4, 900);
  CHECK(checkStore({Kind::Store, 4, 4, 2, 1}, g, 4, 901));
  for (Kind kind : {Kind::Load, Kind::Prefetch, Kind::Store}) {
    CAPTURE(opName(kind));
    Setup s = makeSetup({kind, 4, 4, 2, 1}, g, 4, 1);
    for (auto& p : s.params) p[4] = 0; // the block starts at row 0, before the buffer
    checkContains(runError(s), "element (row 0, column 0) of block 0 is inside the 2D region but at byte offset -64, "
                               "before the start of argument 0 'mem'");
  }
  for (Kind kind : {Kind::Load, Kind::Store}) {
    CAPTURE(opName(kind));
    Setup s = makeSetup({kind, 4, 4, 2, 1}, Region{}, 4, 1);
    for (auto& p : s.params) p[6] = -4; // the per-invocation storage starts an element before its array
    checkContains(runError(s), fmt::format("{} of invocation 0 is at byte offset -4, before the start of variable",
                                           kind == Kind::Store ? "Src Pointer" : "Dst Pointer"));
  }
}

TEST_CASE("interp block2d: a store to a constant buffer is an error; loads from it are fine") {
  Setup s = makeSetup({Kind::Store, 4, 4, 2, 1}, Region{}, 4, 1);
  s.constMem = true; // a UniformConstant buffer cast to a CrossWorkgroup pointer
  checkContains(runError(s), "2D block store to read-only argument 0 'mem'");
  Setup l = exampleSetup({Kind::Load, 4, 4, 2, 1});
  l.constMem = true;
  CHECK(loaded(l) == referenceLoad(l.blk, Region{}, l.mem, 4));
}

TEST_CASE("interp block2d: the per-invocation storage must be aligned and large enough") {
  for (Kind kind : {Kind::Load, Kind::Transpose, Kind::Transform, Kind::Store}) {
    CAPTURE(opName(kind));
    Block k{kind, 2, 8, 4, 2};
    Region g;
    Setup s = makeSetup(k, g, 4, 1);
    const std::string what = kind == Kind::Store ? "Src Pointer" : "Dst Pointer";
    const uint32_t bytes = k.privBytes();
    for (auto& p : s.params) p[6] = static_cast<int32_t>(bytes / 2); // half an element in
    std::string e = runError(s);
    checkContains(e, fmt::format("{} of invocation 0 is at byte offset {} of variable", what, bytes / 2));
    checkContains(e, fmt::format("it must be aligned to {} bytes", bytes));
    for (auto& p : s.params)
      p[6] = static_cast<int32_t>(bytes); // one element in: the last element does not fit
    e = runError(s);
    checkContains(e, fmt::format("{} of invocation 0 is at byte offset {} of variable", what, bytes));
    checkContains(
        e, fmt::format(
               "too small: the {} needs {} elements of {} bytes per invocation (2 blocks of {}), {} bytes",
               kind == Kind::Store ? "store" : "load", s.privLen, bytes, s.privLen / 2, s.privLen * bytes));
  }
}

TEST_CASE("interp block2d: block shapes the interpreter rejects when decoding") {
  Setup s = makeSetup({Kind::Load, 4, 4, 2, 1}, Region{}, 4, 1);
  for (int which = 0; which < 3; ++which) {
    Setup z = s;
    (which == 0 ? z.blk.width : which == 1 ? z.blk.height : z.blk.count) = 0;
    checkContains(runError(z), "each must be at least 1");
  }
  Setup big = s;
  big.blk.width = 65536, big.blk.height = 65537; // 65536 x 131072 padded
  checkContains(runError(big), "more than 2^32 padded elements are not supported by the interpreter");
  for (uint32_t e : {4u, 8u}) {
    Setup t = s;
    t.blk = {Kind::Transform, e, 4, 2, 1};
    t.io.assign(4 * 4 * 4, 0);
    checkContains(runError(t),
                  fmt::format("the transform packs 1- or 2-byte elements into 32-bit values; it is undefined "
                              "for Element Size {}",
                              e));
  }
}
