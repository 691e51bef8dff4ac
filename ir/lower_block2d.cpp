// SPV_INTEL_2d_block_io in hardware: each 2D block instruction, an operation of a whole subgroup, as
// every lane's own element accesses (translation, before the lanes are built; lower_subgroups.cpp).
//
// The data model is the interpreter's (sim/interp_block2d.cpp, after the extension's text): block b
// covers Block Width x Block Height elements at column Coordinate.x + b * Block Width + c and row
// Coordinate.y + r of the 2D surface (base, Memory Width bytes, Memory Height rows, Memory Pitch bytes
// per row); it is padded (and transposed, or transformed: rows packed into 32-bit values), and its rows
// go to the lanes: with at least as many columns as lanes each lane takes cols / S consecutive
// elements of every row, otherwise a row spans `cols` lanes and S / cols rows share an element index.
// Lane k's element j of block b lands at index b * perBlock + j of its private storage.
//
// A load reads each element the lane needs at an address clamped into the surface (its base) when
// the element is outside it or padding, and keeps zero for those: the hardware never accesses
// memory outside the surface. A store writes each element inside the surface in a block of its own
// (CFG stores take no predicate). A prefetch has nothing to warm (there is no cache between the kernel
// and its memory ports), so it builds nothing.
#include <fmt/format.h>

#include <bit>

#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace {
// The most element accesses one lane makes for one 2D block instruction (each is a memory access of
// its own until the lanes' accesses are merged into wide ones).
constexpr uint64_t kMaxBlockElements = 256;
} // namespace

void Translator::storeIf(ValueId cond, const Ptr& at, ValueId data, uint32_t size, const LInst& in,
                         const std::string& what) {
  const uint32_t from = current_;
  const std::string base = k_.blocks[from].name;
  const uint32_t write = newBlock(base + "." + what), join = newBlock(base + "." + what + ".done");
  k_.blocks[from].term = Terminator{Terminator::Kind::CondBranch, cond, {write, join}, {}, b_.loc};
  current_ = b_.block = write;
  emitStore(at, data, size, in);
  k_.blocks[write].term = Terminator{Terminator::Kind::Branch, kNone, {join}, {}, b_.loc};
  current_ = b_.block = join;
}

bool Translator::translateBlock2D(const LInst& in) {
  using O = SpvOp;
  const bool load = in.op == O::OpSubgroup2DBlockLoadINTEL ||
                    in.op == O::OpSubgroup2DBlockLoadTransposeINTEL ||
                    in.op == O::OpSubgroup2DBlockLoadTransformINTEL;
  const bool store = in.op == O::OpSubgroup2DBlockStoreINTEL,
             prefetch = in.op == O::OpSubgroup2DBlockPrefetchINTEL;
  if (!load && !store && !prefetch) return false;
  const bool transpose = in.op == O::OpSubgroup2DBlockLoadTransposeINTEL;
  const bool transform = in.op == O::OpSubgroup2DBlockLoadTransformINTEL;
  // The frontend checked the shape operands are 32-bit constants, the element size and the width's
  // multiple (validate_extensions.cpp).
  auto constant = [&](size_t i) -> uint64_t {
    const spirv::Constant* k = c_.mv.findConstant(in.ids.at(i));
    if (!k || k->isUndef || k->expr || !k->constituents.empty())
      c_.failAt(in, fmt::format("operand {} must be an integer constant", i + 1));
    return k->bits;
  };
  const uint64_t e = constant(0), width = constant(1), height = constant(2), count = constant(3);
  if (width == 0 || height == 0 || count == 0)
    c_.failAt(in, fmt::format("Block Width {}, Block Height {}, Block Count {}: each must be at least 1",
                              width, height, count));
  if (transform && e > 2)
    c_.failAt(in, fmt::format("the transform packs 1- or 2-byte elements into 32-bit values; it is undefined "
                              "for Element Size {}",
                              e));
  if (prefetch) return true;

  // The block as the lanes receive it.
  const uint64_t sg = c_.subgroupLanes;
  const uint64_t pack = transform ? 4 / e : 1;
  const uint64_t rows = transpose ? width : transform ? (height + pack - 1) / pack : height;
  const uint64_t cols = std::bit_ceil(transpose ? height : width);
  const uint64_t perBlock = cols >= sg ? rows * (cols / sg) : (rows + sg / cols - 1) / (sg / cols);
  const uint64_t dstBytes = transform ? 4 : e;
  if (count * perBlock * (store ? 1 : pack) > kMaxBlockElements)
    c_.failAt(
        in, fmt::format("a block of {} x {} elements, {} blocks, on {} lanes: {} accesses per lane; the "
                        "hardware builds 2D block instructions of up to {} element accesses per lane",
                        width, height, count, sg, count * perBlock * (store ? 1 : pack), kMaxBlockElements));

  const size_t memOps = store ? 6 : 5;
  const Ptr base = ptrOf(in.ids.at(store ? 5 : 4), in);
  const Ptr own = ptrOf(in.ids.at(store ? 4 : 9), in);
  if (base.set >= 0 || own.set >= 0)
    c_.failAt(
        in,
        "the base pointer and the private pointer must each point into one memory (not chosen at run time)");
  auto wide = [&](Id id) { return b_.resize(valueOf(id, in), 64, true); };
  const ValueId mw = wide(in.ids.at(memOps)), mh = wide(in.ids.at(memOps + 1)),
                mp = wide(in.ids.at(memOps + 2));
  const std::vector<Id> coord = lanesOf(in.ids.at(memOps + 3), in);
  const ValueId cx = wide(coord.at(0)), cy = wide(coord.at(1));
  const ValueId zero = b_.constant(64, 0);
  auto k64 = [&](uint64_t v) { return b_.constant(64, v); };
  auto add = [&](ValueId a, ValueId b) { return b_.binary(OpKind::Add, a, b); };

  // Element (r, c) of block b: whether it is inside the block and the surface, and its address.
  auto inside = [&](uint64_t b, ValueId r, ValueId c, ValueId& addr) {
    const ValueId y = add(cy, r), x = add(cx, add(k64(b * width), c));
    ValueId ok = b_.predAnd(b_.binary(OpKind::ULt, r, k64(height)), b_.binary(OpKind::ULt, c, k64(width)));
    ok = b_.predAnd(ok, b_.binary(OpKind::SGe, y, zero));
    ok = b_.predAnd(ok, b_.binary(OpKind::SLt, y, mh));
    ok = b_.predAnd(ok, b_.binary(OpKind::SGe, x, zero));
    ok = b_.predAnd(ok, b_.binary(OpKind::SLe, b_.mulConst(add(x, k64(1)), e), mw));
    addr = add(base.offset, add(b_.binary(OpKind::Mul, y, mp), b_.mulConst(x, e)));
    return ok;
  };
  // A load reads inside the surface only; outside it (and padding) the element is zero.
  auto element = [&](uint64_t b, ValueId r, ValueId c) {
    ValueId addr = kNone;
    const ValueId ok = inside(b, r, c, addr);
    const ValueId v =
        emitLoad(Ptr{base.memory, b_.select(ok, addr, base.offset), -1}, static_cast<uint32_t>(e), in);
    return b_.select(ok, v, b_.constant(8 * static_cast<uint32_t>(e), 0));
  };

  const ValueId lane = b_.resize(b_.emit(laneOp()), 64, false);
  for (uint64_t b = 0; b < count; ++b)
    for (uint64_t j = 0; j < perBlock; ++j) {
      // Lane k's element j: its row and column of the processed block.
      ValueId row, col, valid = kNone;
      if (cols >= sg) {
        const uint64_t each = cols / sg;
        row = k64(j / each);
        col = add(b_.mulConst(lane, each), k64(j % each));
      } else {
        row = add(k64(j * (sg / cols)), b_.binary(OpKind::LShr, lane, k64(std::countr_zero(cols))));
        col = b_.binary(OpKind::And, lane, k64(cols - 1));
        valid = b_.binary(OpKind::ULt, row, k64(rows));
      }
      const Ptr slot{own.memory, add(own.offset, k64((b * perBlock + j) * dstBytes)), -1};
      if (store) {
        ValueId addr = kNone;
        const ValueId ok = b_.predAnd(valid, inside(b, row, col, addr));
        const ValueId data = emitLoad(slot, static_cast<uint32_t>(e), in);
        storeIf(ok, Ptr{base.memory, addr, -1}, data, static_cast<uint32_t>(e), in, "block2d.store");
        continue;
      }
      const uint32_t bits = 8 * static_cast<uint32_t>(dstBytes);
      ValueId v = kNone;
      if (transpose) {
        v = element(b, col, row);
      } else if (transform) {
        for (uint64_t q = 0; q < pack; ++q) {
          const ValueId part = b_.resize(element(b, add(b_.mulConst(row, pack), k64(q)), col), bits, false);
          v = q == 0 ? part
                     : b_.binary(OpKind::Or, v, b_.binary(OpKind::Shl, part, b_.constant(bits, 8 * e * q)));
        }
      } else {
        v = element(b, row, col);
      }
      if (valid != kNone) v = b_.select(valid, v, b_.constant(bits, 0));
      emitStore(slot, v, static_cast<uint32_t>(dstBytes), in);
    }
  return true;
}

} // namespace spvhls::ir::lower
