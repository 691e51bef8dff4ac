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
// Checked element by element, a load reads each element the lane needs at an address clamped into
// the surface (its base) when the element is outside it or padding, and keeps zero for those: the
// hardware never accesses memory outside the surface. A store writes each element inside the surface
// in a block of its own (CFG stores take no predicate). Where the block's shape allows, a fast way
// next to that (see translateBlock2D) reads or writes whole rows, checking rows only. A prefetch has
// nothing to warm (there is no cache between the kernel and its memory ports), so it builds nothing.
#include <fmt/format.h>

#include <bit>

#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace {
// The most element accesses one lane makes for one 2D block instruction (each is a memory access of
// its own until the lanes' accesses are merged into wide ones).
constexpr uint64_t kMaxBlockElements = 256;
} // namespace

void Translator::runIf(ValueId cond, const std::string& what, const std::function<void()>& body) {
  const std::string base = k_.blocks[current_].name;
  const uint32_t then = newBlock(base + "." + what), join = newBlock(base + "." + what + ".done");
  k_.blocks[current_].term = Terminator{Terminator::Kind::CondBranch, cond, {then, join}, {}, b_.loc};
  current_ = b_.block = then;
  body();
  k_.blocks[current_].term = Terminator{Terminator::Kind::Branch, kNone, {join}, {}, b_.loc};
  current_ = b_.block = join;
}

void Translator::runOnce(const std::string& name, const std::function<void()>& body) {
  const uint32_t entry = current_, loop = newBlock(name), exit = newBlock(name + ".done");
  k_.blocks[entry].term = Terminator{Terminator::Kind::Branch, kNone, {loop}, {}, b_.loc};
  current_ = b_.block = loop;
  const ValueId first = b_.phi(Type::bits(1), "first");
  addPhiEntry(k_, first, entry, b_.constant(1, 1));
  body();
  const uint32_t latch = current_;
  addPhiEntry(k_, first, latch, b_.constant(1, 0));
  k_.blocks[latch].term = Terminator{Terminator::Kind::CondBranch, first, {exit, loop}, {}, b_.loc};
  current_ = b_.block = exit;
}

void Translator::storeIf(ValueId cond, const Ptr& at, ValueId data, uint32_t size, const LInst& in,
                         const std::string& what) {
  runIf(cond, what, [&] { emitStore(at, data, size, in); });
}

ValueId Translator::loadIf(ValueId cond, const Ptr& at, uint32_t size, const LInst& in,
                           const std::string& what) {
  const uint32_t from = current_;
  uint32_t read = 0;
  ValueId v = kNone;
  runIf(cond, what, [&] {
    read = current_;
    v = emitLoad(at, size, in);
  });
  const ValueId r = b_.phi(Type::bits(8 * size));
  addPhiEntry(k_, r, read, v);
  addPhiEntry(k_, r, from, b_.constant(8 * size, 0));
  return r;
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

  // Element (r, c) of block b (bx = b * Block Width): whether it is inside the block and the surface,
  // and its address.
  auto inside = [&](ValueId bx, ValueId r, ValueId c, ValueId& addr) {
    const ValueId y = add(cy, r), x = add(cx, add(bx, c));
    ValueId ok = b_.predAnd(b_.binary(OpKind::ULt, r, k64(height)), b_.binary(OpKind::ULt, c, k64(width)));
    ok = b_.predAnd(ok, b_.binary(OpKind::SGe, y, zero));
    ok = b_.predAnd(ok, b_.binary(OpKind::SLt, y, mh));
    ok = b_.predAnd(ok, b_.binary(OpKind::SGe, x, zero));
    ok = b_.predAnd(ok, b_.binary(OpKind::SLe, b_.mulConst(add(x, k64(1)), e), mw));
    addr = add(base.offset, add(b_.binary(OpKind::Mul, y, mp), b_.mulConst(x, e)));
    return ok;
  };
  // A load reads inside the surface only; outside it (and padding) the element is zero.
  auto element = [&](ValueId bx, ValueId r, ValueId c) {
    ValueId addr = kNone;
    const ValueId ok = inside(bx, r, c, addr);
    const ValueId v =
        emitLoad(Ptr{base.memory, b_.select(ok, addr, base.offset), -1}, static_cast<uint32_t>(e), in);
    return b_.select(ok, v, b_.constant(8 * static_cast<uint32_t>(e), 0));
  };
  auto shr = [&](ValueId a, uint64_t pow2) {
    return b_.binary(OpKind::LShr, a, k64(std::countr_zero(pow2)));
  };
  auto low = [&](ValueId a, uint64_t pow2) { return b_.binary(OpKind::And, a, k64(pow2 - 1)); };

  // Lane `lane`'s element j of block b (values: constants when unrolled, counters in a loop), each
  // element checked against the surface: a load's value (zero outside), or a store of `data`.
  auto checkedElement = [&](ValueId lane, ValueId b, ValueId j, ValueId data) {
    // Its row and column of the processed block.
    ValueId row, col, valid = kNone;
    if (cols >= sg) {
      const uint64_t each = cols / sg;
      row = shr(j, each);
      col = add(b_.mulConst(lane, each), low(j, each));
    } else {
      row = add(b_.mulConst(j, sg / cols), shr(lane, cols));
      col = low(lane, cols);
      valid = b_.binary(OpKind::ULt, row, k64(rows));
    }
    const ValueId bx = b_.mulConst(b, width);
    if (store) {
      ValueId addr = kNone;
      const ValueId ok = b_.predAnd(valid, inside(bx, row, col, addr));
      storeIf(ok, Ptr{base.memory, addr, -1}, data, static_cast<uint32_t>(e), in, "block2d.store");
      return kNone;
    }
    const uint32_t bits = 8 * static_cast<uint32_t>(dstBytes);
    ValueId v = kNone;
    if (transpose) {
      v = element(bx, col, row);
    } else if (transform) {
      for (uint64_t q = 0; q < pack; ++q) {
        const ValueId part = b_.resize(element(bx, add(b_.mulConst(row, pack), k64(q)), col), bits, false);
        v = q == 0 ? part
                   : b_.binary(OpKind::Or, v, b_.binary(OpKind::Shl, part, b_.constant(bits, 8 * e * q)));
      }
    } else {
      v = element(bx, row, col);
    }
    return valid != kNone ? b_.select(valid, v, b_.constant(bits, 0)) : v;
  };
  // Slot t of the lane's private storage.
  const uint64_t n = count * perBlock;
  auto slot = [&](uint64_t t) { return Ptr{own.memory, add(own.offset, k64(t * dstBytes)), -1}; };
  const uint32_t slotBytes = static_cast<uint32_t>(dstBytes);

  // A load or store whose rows are a whole number of lanes wide (each lane takes cols / S
  // consecutive elements of every row), or a transposed load of rows a power of two wide (each lane
  // takes whole rows of the surface), is built twice. A block whose columns are all inside the
  // surface, at an address aligned to its row (up to 128 bytes) with an aligned pitch, takes the fast
  // way: the rows checked, the elements not, so that the lanes' accesses to a row become one wide
  // access (a transposed lane's row, one access of its own); aligned to 16 bytes only, the same rows
  // in 16-byte accesses (below). Any other block (a column outside the surface, a coordinate not
  // aligned to 16 bytes) takes a loop over the lane's elements, each checked;
  // as a loop of its own it runs only when needed, and its accesses take no slot of the enclosing
  // pipeline's schedule. The loop carries the lane's elements as a shift register, so that the
  // private storage is accessed at constant offsets only (and may become registers).
  const bool rowWise = cols >= sg && (transpose ? std::has_single_bit(width) : cols == width);
  if (!rowWise) {
    const ValueId lane = b_.resize(b_.emit(laneOp()), 64, false);
    for (uint64_t b = 0; b < count; ++b)
      for (uint64_t j = 0; j < perBlock; ++j) {
        const uint64_t t = b * perBlock + j;
        if (store)
          checkedElement(lane, k64(b), k64(j), emitLoad(slot(t), slotBytes, in));
        else
          emitStore(slot(t), checkedElement(lane, k64(b), k64(j), kNone), slotBytes, in);
      }
    return true;
  }
  std::vector<ValueId> data(n, kNone); // a store's elements
  if (store)
    for (uint64_t t = 0; t < n; ++t)
      data[t] = emitLoad(slot(t), slotBytes, in);
  const uint64_t rowBytes = width * e, align = std::min<uint64_t>(rowBytes, 128);
  const ValueId origin = add(base.offset, add(b_.binary(OpKind::Mul, cy, mp), b_.mulConst(cx, e)));
  auto aligned = [&](ValueId a, uint64_t to) { return b_.binary(OpKind::Eq, low(a, to), zero); };
  ValueId columns = b_.binary(OpKind::SGe, cx, zero);
  columns = b_.predAnd(columns, b_.binary(OpKind::SLe, b_.mulConst(add(cx, k64(count * width)), e), mw));
  auto alignedRows = [&](uint64_t to) {
    return b_.predAnd(columns, b_.predAnd(aligned(origin, to), aligned(mp, to)));
  };

  // The rows at once, at addresses aligned to `to` bytes (the branch into here checked it): the
  // addresses with their known low zero bits, each row under its own check (the same in every lane):
  // rows above or below the surface are skipped. A load's elements, in the lane's order.
  auto rowsAt = [&](uint64_t to) {
    std::vector<ValueId> values(n, kNone);
    const ValueId lane = b_.resize(b_.emit(laneOp()), 64, false);
    const ValueId mask = k64(~(to - 1));
    const ValueId rowOrigin = b_.binary(OpKind::And, origin, mask), pitch = b_.binary(OpKind::And, mp, mask);
    const uint64_t each = cols / sg;
    for (uint64_t t = 0; t < n; ++t) {
      const uint64_t b = t / perBlock, j = t % perBlock;
      // The lane's column of the processed block (a transposed block's is the surface's row).
      const ValueId col = add(b_.mulConst(lane, each), k64(j % each));
      // Row r (a value) and column c of the surface's block b: whether the row is inside, and the
      // element's address.
      auto at = [&](ValueId r, ValueId c, ValueId& addr) {
        const ValueId y = add(cy, r);
        const auto rc = b_.constValue(r);
        const ValueId down = rc ? b_.mulConst(pitch, *rc) : b_.binary(OpKind::Mul, pitch, r);
        addr = add(add(rowOrigin, down), b_.mulConst(add(k64(b * width), c), e));
        return b_.predAnd(b_.binary(OpKind::SGe, y, zero), b_.binary(OpKind::SLt, y, mh));
      };
      ValueId addr = kNone;
      if (store) {
        const ValueId ok = at(k64(j / each), col, addr);
        storeIf(ok, Ptr{base.memory, addr, -1}, data[t], static_cast<uint32_t>(e), in, "block2d.row");
        continue;
      }
      if (transpose) { // the lane's own rows of the surface (the padding rows past the height are zero)
        const ValueId ok = b_.predAnd(b_.binary(OpKind::ULt, col, k64(height)), at(col, k64(j / each), addr));
        values[t] = loadIf(ok, Ptr{base.memory, addr, -1}, static_cast<uint32_t>(e), in, "block2d.row");
        continue;
      }
      // A transformed element packs `pack` rows' elements (rows past the block's height are zero).
      ValueId v = kNone;
      for (uint64_t q = 0; q < pack && (j / each) * pack + q < height; ++q) {
        const ValueId ok = at(k64((j / each) * pack + q), col, addr);
        const ValueId part =
            b_.resize(loadIf(ok, Ptr{base.memory, addr, -1}, static_cast<uint32_t>(e), in, "block2d.row"),
                      8 * slotBytes, false);
        v = q == 0 ? part
                   : b_.binary(OpKind::Or, v,
                               b_.binary(OpKind::Shl, part, b_.constant(8 * slotBytes, 8 * e * q)));
      }
      values[t] = v;
    }
    return values;
  };
  // Blocks whose rows are aligned to their size take the fast way; blocks whose rows are aligned to
  // 16 bytes only (a Memory Pitch is a multiple of 16, so with an aligned Coordinate.x every other
  // row misses a 32-byte alignment) take the same way in 16-byte accesses, as a loop of one
  // iteration: in the pipeline its accesses would take slots that the fast way needs.
  constexpr uint64_t kPitchAlign = 16;
  const bool chunked = align > kPitchAlign;
  const std::string name = k_.blocks[current_].name;
  const uint32_t fastBlock = newBlock(name + ".block2d.rows"), slowEntry = newBlock(name + ".block2d.edge"),
                 slow = newBlock(name + ".block2d.elements"),
                 slowExit = newBlock(name + ".block2d.elements.done"),
                 join = newBlock(name + ".block2d.done");
  const uint32_t notFast = chunked ? newBlock(name + ".block2d.misaligned") : slowEntry;
  k_.blocks[current_].term =
      Terminator{Terminator::Kind::CondBranch, alignedRows(align), {fastBlock, notFast}, {}, b_.loc};
  current_ = b_.block = fastBlock;
  const std::vector<ValueId> fastValues = rowsAt(align);
  const uint32_t fastEnd = current_;
  k_.blocks[fastEnd].term = Terminator{Terminator::Kind::Branch, kNone, {join}, {}, b_.loc};

  std::vector<ValueId> chunkValues;
  uint32_t chunkExit = 0;
  if (chunked) {
    const uint32_t chunkEntry = newBlock(name + ".block2d.chunks.entry");
    current_ = b_.block = notFast;
    k_.blocks[notFast].term = Terminator{
        Terminator::Kind::CondBranch, alignedRows(kPitchAlign), {chunkEntry, slowEntry}, {}, b_.loc};
    current_ = b_.block = chunkEntry;
    runOnce(name + ".block2d.chunks", [&] { chunkValues = rowsAt(kPitchAlign); });
    chunkExit = current_;
    k_.blocks[chunkExit].term = Terminator{Terminator::Kind::Branch, kNone, {join}, {}, b_.loc};
  }

  // The checked way: a loop over t = b * perBlock + j, carrying the elements (shifted down by one
  // each iteration: a store's next element, or a load's elements so far, is always at one end).
  current_ = b_.block = slowEntry;
  k_.blocks[slowEntry].term = Terminator{Terminator::Kind::Branch, kNone, {slow}, {}, b_.loc};
  const ValueId zeroElement = b_.constant(8 * slotBytes, 0);
  current_ = b_.block = slow;
  auto phi = [&](Type type, const std::string& label, ValueId initial) {
    const ValueId v = b_.phi(type, label);
    addPhiEntry(k_, v, slowEntry, initial);
    return v;
  };
  const ValueId t = phi(Type::bits(64), "block2d.t", zero), bb = phi(Type::bits(64), "block2d.b", zero),
                j = phi(Type::bits(64), "block2d.j", zero);
  std::vector<ValueId> carried(n);
  for (uint64_t i = 0; i < n; ++i)
    carried[i] = phi(Type::bits(8 * slotBytes), fmt::format("block2d.e{}", i), store ? data[i] : zeroElement);
  const ValueId got =
      checkedElement(b_.resize(b_.emit(laneOp()), 64, false), bb, j, store ? carried[0] : kNone);
  const uint32_t latch = current_;
  std::vector<ValueId> next(n);
  for (uint64_t i = 0; i + 1 < n; ++i)
    next[i] = carried[i + 1];
  next[n - 1] = store ? zeroElement : got;
  const ValueId nextJ = add(j, k64(1)), wrap = b_.binary(OpKind::Eq, nextJ, k64(perBlock));
  const ValueId nextT = add(t, k64(1));
  addPhiEntry(k_, t, latch, nextT);
  addPhiEntry(k_, bb, latch, b_.select(wrap, add(bb, k64(1)), bb));
  addPhiEntry(k_, j, latch, b_.select(wrap, zero, nextJ));
  for (uint64_t i = 0; i < n; ++i)
    addPhiEntry(k_, carried[i], latch, next[i]);
  k_.blocks[latch].term = Terminator{
      Terminator::Kind::CondBranch, b_.binary(OpKind::ULt, nextT, k64(n)), {slow, slowExit}, {}, b_.loc};
  current_ = b_.block = slowExit;
  k_.blocks[slowExit].term = Terminator{Terminator::Kind::Branch, kNone, {join}, {}, b_.loc};

  // A load's elements, from either way, go to the private storage.
  current_ = b_.block = join;
  if (store) return true;
  std::vector<ValueId> values(n);
  for (uint64_t i = 0; i < n; ++i) {
    values[i] = b_.phi(Type::bits(8 * slotBytes), fmt::format("block2d.v{}", i));
    addPhiEntry(k_, values[i], fastEnd, fastValues[i]);
    addPhiEntry(k_, values[i], slowExit, next[i]);
    if (chunked) addPhiEntry(k_, values[i], chunkExit, chunkValues[i]);
  }
  for (uint64_t i = 0; i < n; ++i)
    emitStore(slot(i), values[i], slotBytes, in);
  return true;
}

} // namespace spvhls::ir::lower
