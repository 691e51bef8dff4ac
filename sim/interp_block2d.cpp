// Golden interpreter: SPV_INTEL_2d_block_io. The five instructions are subgroup operations: every
// work-item stops at them and they run once for the whole subgroup (interp_ndrange.cpp,
// interp_subgroup.cpp).
//
// The extension's data model, as implemented here:
//  * Block b (0 <= b < Block Count) covers the Block Width x Block Height elements of Element Size
//    bytes whose memory element column is Coordinate.x + b * Block Width + c and whose row is
//    Coordinate.y + r, at base + row * Memory Pitch + column * Element Size. Elements outside Memory
//    Width (bytes) x Memory Height (rows), including negative coordinates, are out of bounds: loads
//    read zero, stores and prefetches ignore them.
//  * The block is padded (width to a power of two; transpose: height to a power of two; transform:
//    height to a multiple of 4 / 2 for 1- / 2-byte elements), then transposed (column i becomes row
//    i) or transformed (each group of 4 / 2 rows is packed into one row of 32-bit values, lower rows
//    in lower bits). The result has `rows` rows of `cols` (a power of two) elements.
//  * Rows go to the invocations: with cols >= SubgroupMaxSize (sg) each invocation takes cols / sg
//    consecutive elements of every row; with fewer columns a row takes cols invocations and sg / cols
//    rows share one element index. Invocation k's element j of block b is at index
//    b * perBlock + j of its per-invocation storage. When the rows do not fill the last element index
//    (fewer columns than invocations), the missing rows are padding too.
// Padding reads as zero and is never read from a store's per-invocation storage.
#include "sim/interp_block2d.h"

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "frontend/grammar.h"
#include "sim/interp_exec.h"

namespace spvhls::sim::interp {

using spirv::Op;
using spirv::Type;

namespace {

std::optional<X> opOf(Op op) {
  switch (op) {
  case Op::OpSubgroup2DBlockLoadINTEL: return X::Block2DLoad;
  case Op::OpSubgroup2DBlockLoadTransposeINTEL: return X::Block2DLoadTranspose;
  case Op::OpSubgroup2DBlockLoadTransformINTEL: return X::Block2DLoadTransform;
  case Op::OpSubgroup2DBlockPrefetchINTEL: return X::Block2DPrefetch;
  case Op::OpSubgroup2DBlockStoreINTEL: return X::Block2DStore;
  default: return std::nullopt;
  }
}

// The spec's operand names, for diagnostics.
const char* baseName(X op) {
  return op == X::Block2DStore      ? "Dst Base Pointer"
         : op == X::Block2DPrefetch ? "Src Pointer"
                                    : "Src Base Pointer";
}
const char* privateName(X op) {
  return op == X::Block2DStore ? "Src Pointer" : "Dst Pointer";
}

constexpr int64_t kMaxMemory = int64_t(1) << 24; // Memory Width (bytes) and Height (rows) limit

// The padded and transposed/transformed block, and how it is spread over the invocations.
struct Shape {
  uint64_t rows = 0, cols = 0; // after padding and transpose/transform; cols is a power of two
  uint64_t pack = 1;           // transform: block rows per 32-bit row (4 / Element Size)
  uint64_t perBlock = 0;       // elements per invocation per block
  uint64_t dstBytes = 0;       // bytes of one per-invocation element
};

Shape shapeOf(X op, const Block2DOperands& o, uint64_t sg) {
  Shape s;
  const uint64_t w = o.blockWidth, h = o.blockHeight;
  s.dstBytes = o.elementSize;
  if (op == X::Block2DLoadTranspose) {
    s.rows = w;
    s.cols = std::bit_ceil(h);
  } else if (op == X::Block2DLoadTransform) {
    s.pack = 4 / o.elementSize;
    s.rows = (h + s.pack - 1) / s.pack;
    s.cols = std::bit_ceil(w);
    s.dstBytes = 4;
  } else {
    s.rows = h;
    s.cols = std::bit_ceil(w);
  }
  s.perBlock = s.cols >= sg ? s.rows * (s.cols / sg) : (s.rows + sg / s.cols - 1) / (sg / s.cols);
  return s;
}

} // namespace

bool isBlock2D(X op) {
  return op == X::Block2DLoad || op == X::Block2DLoadTranspose || op == X::Block2DLoadTransform ||
         op == X::Block2DPrefetch || op == X::Block2DStore;
}

// The frontend has checked the operand types, that Element Size and the block shape are 32-bit
// integer constants, Element Size is 1, 2, 4 or 8, and the Block Width multiple
// (validate_extensions.cpp).
std::optional<DInst> decodeBlock2D(Program& p, uint32_t where, std::vector<uint32_t>& extra,
                                   const std::function<uint32_t(Id)>& slotOf) {
  const spirv::ModuleView& mv = p.mv;
  const spirv::Instruction& inst = mv.inst(where);
  const std::optional<X> decoded = opOf(inst.op());
  if (!decoded) return std::nullopt;
  const X op = *decoded;
  const auto& ops = inst.operands;
  if (ops.size() != (op == X::Block2DPrefetch ? 9u : 10u)) failAt(p, where, "wrong number of operands");
  auto constant = [&](size_t k) {
    const spirv::Constant* c = mv.findConstant(ops[k]);
    if (!c || c->isUndef || !c->constituents.empty() || c->expr)
      failAt(p, where, fmt::format("operand {} must be an integer constant", k + 1));
    return static_cast<uint32_t>(c->bits);
  };
  auto intWidth = [&](Id value) {
    const spirv::Instruction* d = mv.defInst(value);
    const Type* t = d && d->resultType ? mv.findType(d->resultType) : nullptr;
    if (t && t->kind == Type::Kind::Vector) t = mv.findType(t->elem);
    if (!t || t->kind != Type::Kind::Int || t->width < 1 || t->width > 64)
      failAt(p, where, fmt::format("{} must be an integer of at most 64 bits", mv.nameOf(value)));
    return t->width;
  };

  Block2DOperands o{};
  o.elementSize = constant(0);
  o.blockWidth = constant(1);
  o.blockHeight = constant(2);
  o.blockCount = constant(3);
  if (o.elementSize != 1 && o.elementSize != 2 && o.elementSize != 4 && o.elementSize != 8)
    failAt(p, where, fmt::format("internal error: Element Size {} passed validation", o.elementSize));
  if (o.blockWidth == 0 || o.blockHeight == 0 || o.blockCount == 0)
    failAt(p, where,
           fmt::format("Block Width {}, Block Height {}, Block Count {}: each must be at least 1 (a block "
                       "of no elements is not meaningful)",
                       o.blockWidth, o.blockHeight, o.blockCount));
  // The padded size of all blocks bounds the per-invocation storage; keep it within 32-bit indices.
  unsigned __int128 padded = static_cast<unsigned __int128>(std::bit_ceil(uint64_t(o.blockWidth))) *
                             std::bit_ceil(uint64_t(o.blockHeight)) * o.blockCount;
  if (padded > (uint64_t(1) << 32))
    failAt(p, where,
           fmt::format("a block of {} x {} elements, {} blocks: more than 2^32 padded elements are not "
                       "supported by the interpreter",
                       o.blockWidth, o.blockHeight, o.blockCount));
  if (op == X::Block2DLoadTransform && o.elementSize > 2)
    failAt(p, where,
           fmt::format("the transform packs 1- or 2-byte elements into 32-bit values; it is undefined for "
                       "Element Size {}",
                       o.elementSize));

  const size_t memory = op == X::Block2DStore ? 6 : 5; // Memory Width, Height, Pitch, Coordinate
  o.memoryWidth = slotOf(ops[memory]);
  o.memoryHeight = slotOf(ops[memory + 1]);
  o.memoryPitch = slotOf(ops[memory + 2]);
  o.coordinate = slotOf(ops[memory + 3]);
  o.widthBits = intWidth(ops[memory]);
  o.heightBits = intWidth(ops[memory + 1]);
  o.pitchBits = intWidth(ops[memory + 2]);
  o.coordinateBits = intWidth(ops[memory + 3]);

  DInst d{op};
  d.src = where;
  d.a = slotOf(ops[op == X::Block2DStore ? 5 : 4]);
  if (op == X::Block2DStore)
    d.c = slotOf(ops[4]);
  else if (op != X::Block2DPrefetch)
    d.c = slotOf(ops[9]);
  d.b = static_cast<uint32_t>(extra.size());
  uint32_t words[Block2DOperands::kWords];
  static_assert(sizeof(words) == sizeof(Block2DOperands));
  std::memcpy(words, &o, sizeof o);
  extra.insert(extra.end(), words, words + Block2DOperands::kWords);
  return d;
}

void Executor::block2d(const std::vector<WorkItem*>& items, uint64_t maxSize) {
  const DInst& in = stoppedAt(*items.front());
  const X op = in.op;
  Block2DOperands o{};
  std::memcpy(&o, p_.functions[items.front()->frames.back().fn].extra.data() + in.b, sizeof o);
  const uint64_t size = items.size(), sg = maxSize;
  const std::vector<uint64_t*> regs = registersOf(items);

  // The subgroup: the mapping of rows to invocations needs a full subgroup of a power-of-two size.
  if (!std::has_single_bit(sg))
    fail(in,
         fmt::format("SubgroupMaxSize is {}, not a power of two (undefined for 2D block instructions)", sg));
  if (size != sg)
    fail(in, fmt::format(
                 "the subgroup has {} invocations but SubgroupMaxSize is {}: 2D block instructions need a "
                 "full subgroup (SubgroupSize equal to SubgroupMaxSize; undefined otherwise)",
                 size, sg));

  // Operands that must be dynamically uniform.
  auto pointerText = [&](uint64_t addr) {
    MemObject* obj = objectAt(*items.front(), addr);
    if (!obj) return std::string(addressObject(addr) == 0 ? "null" : "a dangling pointer");
    return fmt::format("byte offset {} of {}", addressOffset(addr), describe(*obj));
  };
  auto uniform = [&](const char* name, uint32_t slot, unsigned bits, bool pointer) {
    for (uint64_t k = 1; k < size; ++k)
      if (regs[k][slot] != regs[0][slot])
        fail(in,
             fmt::format(
                 "{} is not dynamically uniform: invocation 0 has {}, invocation {} has {} (undefined "
                 "behaviour; it must be the same in every invocation of the subgroup)",
                 name, pointer ? pointerText(regs[0][slot]) : fmt::format("{}", sext(regs[0][slot], bits)), k,
                 pointer ? pointerText(regs[k][slot]) : fmt::format("{}", sext(regs[k][slot], bits))));
    return sext(regs[0][slot], bits);
  };
  uniform(baseName(op), in.a, 64, true);
  const int64_t mw = uniform("Memory Width", o.memoryWidth, o.widthBits, false);
  const int64_t mh = uniform("Memory Height", o.memoryHeight, o.heightBits, false);
  const int64_t mp = uniform("Memory Pitch", o.memoryPitch, o.pitchBits, false);
  const int64_t cx = uniform("Coordinate (component 0)", o.coordinate, o.coordinateBits, false);
  const int64_t cy = uniform("Coordinate (component 1)", o.coordinate + 1, o.coordinateBits, false);

  // The Restrictions section of the extension.
  const int64_t e = o.elementSize;
  const uint64_t base = regs[0][in.a];
  const int64_t baseOff = addressOffset(base); // may be outside the object: the region's elements are checked
  MemObject* mem = objectAt(*items.front(), base);
  if (!mem)
    fail(in,
         fmt::format("{} is {}", baseName(op), addressObject(base) == 0 ? "null" : "a dangling pointer"));
  if (baseOff % 64 != 0)
    fail(in, fmt::format(
                 "{} is at byte offset {} of {}: the per-subgroup base address must be 64-byte (cache-line) "
                 "aligned (undefined otherwise; memory objects start 64-byte aligned)",
                 baseName(op), baseOff, describe(*mem)));
  if (mw < 64 || mw > kMaxMemory)
    fail(in,
         fmt::format(
             "Memory Width is {} bytes; it must be at least 64 and at most 2^24 (undefined otherwise)", mw));
  const int64_t widthMultiple = e <= 2 ? 4 : e;
  if (mw % widthMultiple != 0)
    fail(in,
         fmt::format("Memory Width is {} bytes; for {}-byte elements it must be a multiple of {} (undefined "
                     "otherwise)",
                     mw, e, widthMultiple));
  if (mh <= 0 || mh > kMaxMemory)
    fail(in, fmt::format(
                 "Memory Height is {} rows; it must be greater than 0 and at most 2^24 (undefined otherwise)",
                 mh));
  if (mp < mw || mp % 16 != 0)
    fail(in, fmt::format(
                 "Memory Pitch is {} bytes; it must be at least the Memory Width ({}) and a multiple of 16 "
                 "(undefined otherwise)",
                 mp, mw));
  if (e <= 2 && cx % (e == 1 ? 4 : 2) != 0)
    fail(in, fmt::format(
                 "Coordinate component 0 is {}; for {}-byte elements it must be a multiple of {} (undefined "
                 "otherwise)",
                 cx, e, e == 1 ? 4 : 2));
  if (op == X::Block2DStore && mem->info.readOnly)
    fail(in, fmt::format("2D block store to read-only {}", describe(*mem)));

  const Shape s = shapeOf(op, o, sg);
  const uint64_t perInvocation = s.perBlock * o.blockCount, privateBytes = perInvocation * s.dstBytes;
  // The per-invocation storage: aligned to its element size and large enough for every block.
  std::vector<MemObject*> priv(size, nullptr);
  if (op != X::Block2DPrefetch)
    for (uint64_t k = 0; k < size; ++k) {
      const uint64_t addr = regs[k][in.c];
      const int64_t off = addressOffset(addr);
      priv[k] = objectAt(*items[k], addr);
      if (!priv[k])
        fail(in, fmt::format("{} of invocation {} is {}", privateName(op), k,
                             addressObject(addr) == 0 ? "null" : "a dangling pointer"));
      if (off < 0)
        fail(in, fmt::format("{} of invocation {} is at byte offset {}, before the start of {}", privateName(op), k, off,
                             describe(*priv[k])));
      if (off % s.dstBytes != 0)
        fail(
            in,
            fmt::format(
                "{} of invocation {} is at byte offset {} of {}: it must be aligned to {} bytes (the element "
                "size; undefined otherwise)",
                privateName(op), k, off, describe(*priv[k]), s.dstBytes));
      if (static_cast<uint64_t>(off) + privateBytes > priv[k]->bytes.size())
        fail(in,
             fmt::format(
                 "{} of invocation {} is at byte offset {} of {}, too small: the {} needs {} elements of {} "
                 "bytes per invocation ({} blocks of {}), {} bytes",
                 privateName(op), k, off, describe(*priv[k]), op == X::Block2DStore ? "store" : "load",
                 perInvocation, s.dstBytes, o.blockCount, s.perBlock, privateBytes));
    }

  // Block element (r, c) of block b in memory: its byte offset in `mem`, or -1 when out of bounds.
  auto memoryOffset = [&](uint64_t b, uint64_t r, uint64_t c) -> int64_t {
    __int128 row = static_cast<__int128>(cy) + r, col = static_cast<__int128>(cx) + b * o.blockWidth + c;
    if (row < 0 || row >= mh || col < 0 || (col + 1) * e > mw) return -1;
    __int128 at = static_cast<__int128>(baseOff) + row * mp + col * e;
    if (at < 0)
      fail(in, fmt::format("element (row {}, column {}) of block {} is inside the 2D region but at byte offset {}, "
                           "before the start of {} (the base pointer is outside it)",
                           r, c, b, static_cast<int64_t>(at), describe(*mem)));
    if (at + e > static_cast<__int128>(mem->bytes.size()))
      fail(in, fmt::format(
                   "element (row {}, column {}) of block {} is inside the 2D region but at byte offset {}, "
                   "beyond the end of {} (Memory Height and Pitch describe more memory than there is)",
                   r, c, b, static_cast<int64_t>(at), describe(*mem)));
    return static_cast<int64_t>(at);
  };
  auto memoryElement = [&](uint64_t b, uint64_t r, uint64_t c) -> uint64_t {
    if (r >= o.blockHeight || c >= o.blockWidth) return 0; // padding
    int64_t at = memoryOffset(b, r, c);
    if (at < 0) return 0;
    uint64_t v = 0;
    checkDefined(*mem, at, e, in);
    std::memcpy(&v, mem->bytes.data() + at, e);
    return v;
  };
  // Invocation k's element j of a block: (row, column) of the processed block; false for padding.
  auto position = [&](uint64_t k, uint64_t j, uint64_t& row, uint64_t& col) {
    if (s.cols >= sg) {
      uint64_t each = s.cols / sg;
      row = j / each;
      col = k * each + j % each;
    } else {
      uint64_t rowsPerIndex = sg / s.cols;
      row = j * rowsPerIndex + k / s.cols;
      col = k % s.cols;
    }
    return row < s.rows;
  };

  if (op == X::Block2DStore) {
    for (uint64_t k = 0; k < size; ++k)
      for (uint64_t b = 0; b < o.blockCount; ++b)
        for (uint64_t j = 0; j < s.perBlock; ++j) {
          uint64_t row, col;
          if (!position(k, j, row, col) || col >= o.blockWidth) continue; // padding is ignored
          int64_t at = memoryOffset(b, row, col);
          if (at < 0) continue; // out of bounds: ignored
          uint64_t from = byteOffset(regs[k][in.c]) + (b * s.perBlock + j) * e, v = 0;
          checkDefined(*priv[k], from, e, in);
          std::memcpy(&v, priv[k]->bytes.data() + from, e);
          std::memcpy(mem->bytes.data() + at, &v, e);
          markDefined(*mem, at, e);
        }
    return;
  }
  if (op == X::Block2DPrefetch) { // no effect, but the region must be memory
    for (uint64_t b = 0; b < o.blockCount; ++b)
      for (uint64_t r = 0; r < o.blockHeight; ++r)
        for (uint64_t c = 0; c < o.blockWidth; ++c) memoryOffset(b, r, c);
    return;
  }
  // Loads: read everything, then write every invocation's storage (padding as zero).
  std::vector<uint64_t> out(size * perInvocation, 0);
  for (uint64_t k = 0; k < size; ++k)
    for (uint64_t b = 0; b < o.blockCount; ++b)
      for (uint64_t j = 0; j < s.perBlock; ++j) {
        uint64_t row, col, v = 0;
        if (!position(k, j, row, col)) continue;
        if (op == X::Block2DLoadTranspose) {
          v = memoryElement(b, col, row);
        } else if (op == X::Block2DLoadTransform) {
          for (uint64_t q = 0; q < s.pack; ++q) v |= memoryElement(b, row * s.pack + q, col) << (8 * e * q);
        } else {
          v = memoryElement(b, row, col);
        }
        out[k * perInvocation + b * s.perBlock + j] = v;
      }
  for (uint64_t k = 0; k < size; ++k) {
    uint64_t off = byteOffset(regs[k][in.c]);
    for (uint64_t i = 0; i < perInvocation; ++i)
      std::memcpy(priv[k]->bytes.data() + off + i * s.dstBytes, &out[k * perInvocation + i], s.dstBytes);
    markDefined(*priv[k], off, privateBytes);
  }
}

} // namespace spvhls::sim::interp
