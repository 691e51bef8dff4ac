// Memory dependence analysis (ir/dependence.h): the distances it finds for the address patterns OpenCL C
// compiles to (in place, a fixed distance, interleaved halves, a wrapping narrow index, mixed sign and
// zero extension, a value that varies in no known way), what the loop controls add (memoryOrder), and
// a seeded property test: on random affine offsets, no conflict that evaluating the offsets finds is
// closer than the distance the analysis reports.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <random>

#include "ir/dependence.h"
#include "loop_builder.h"

using namespace spvhls;
using ir::DependenceAnalysis;
using ir::kMaxDependenceDistance;
using ir::OpKind;
using ir::ValueId;
using spvhls::testing::LoopBuilder;

namespace {

// for (i = init; ...; i += step): the phi and its next value.
ValueId counter(LoopBuilder& b, uint8_t width, uint64_t step) {
  ValueId i = b.phi(width, "i");
  b.setNext(i, b.add(OpKind::Add, width, {i, b.constant(step, width)}));
  return i;
}

// 4 * ext64(index), as the datapath optimisations leave it: Concat(2'b0, ext62(index)).
ValueId times4(LoopBuilder& b, ValueId index, bool sign) {
  ValueId wide = b.add(sign ? OpKind::SExt : OpKind::ZExt, 62, {index});
  return b.add(OpKind::Concat, 64, {b.constant(0, 2), wide});
}

} // namespace

TEST_CASE("in place: a load and a store of a[i] meet within the iteration only") {
  LoopBuilder b;
  ValueId i = counter(b, 32, 1);
  ValueId off = times4(b, i, false);
  ValueId ld = b.load(0, off, 4, "x");
  ValueId st = b.store(0, off, ld, 4);
  DependenceAnalysis a(b.loop);
  CHECK(a.firstConflict(ld, st, 0) == 0u);
  // Only 2^32 iterations apart (the 32-bit index wraps): reported at the cap.
  CHECK(a.firstConflict(st, ld, 1) == kMaxDependenceDistance);
  const ir::MemoryOrder o = ir::memoryOrder(a, b.loop, ld, st);
  CHECK(o.firstToSecond == 0u);
  CHECK(o.secondToFirst == kMaxDependenceDistance);
  CHECK(o.relaxed);
}

namespace {

// b[i] = b[i - 2]: the load's index sign-extended, the store's zero-extended (as clang emits them).
struct BackTwo {
  LoopBuilder b;
  ValueId ld, st;
  BackTwo() {
    ValueId i = counter(b, 32, 1);
    ValueId back = b.add(OpKind::Add, 32, {i, b.constant(uint32_t(-2), 32)});
    ld = b.load(0, times4(b, back, true), 4, "x");
    st = b.store(0, times4(b, i, false), ld, 4);
  }
};

} // namespace

TEST_CASE("b[i] = b[i - 2]: sign- and zero-extended indices meet two iterations apart") {
  BackTwo t;
  const ValueId ld = t.ld, st = t.st;
  DependenceAnalysis a(t.b.loop);
  CHECK(a.firstConflict(st, ld, 1) == 2u);
  CHECK(a.firstConflict(ld, st, 0) == kMaxDependenceDistance); // a[i - 2] is read before a[i] is written
}

TEST_CASE("c[2i | 1] and c[2i] never meet; a step of -1 is followed too") {
  LoopBuilder b;
  ValueId i = counter(b, 32, 1);
  ValueId twice = b.add(OpKind::Shl, 32, {i, b.constant(1, 32)});
  ValueId odd = b.add(OpKind::Or, 32, {twice, b.constant(1, 32)});
  ValueId ld = b.load(0, times4(b, twice, false), 4, "x");
  ValueId st = b.store(0, times4(b, odd, false), ld, 4);
  DependenceAnalysis a(b.loop);
  CHECK(a.firstConflict(ld, st, 0) == std::nullopt);
  CHECK(a.firstConflict(st, ld, 1) == std::nullopt);

  LoopBuilder down;
  ValueId j = counter(down, 64, uint64_t(-1));
  ValueId off = down.add(OpKind::Shl, 64, {j, down.constant(3, 64)});
  ValueId next = down.add(OpKind::Add, 64, {off, down.constant(8, 64)});
  ValueId l = down.load(0, next, 8, "y"); // a[j + 1], written by the iteration before
  ValueId s = down.store(0, off, l, 8);
  DependenceAnalysis d(down.loop);
  CHECK(d.firstConflict(s, l, 1) == 1u);
  CHECK(d.firstConflict(l, s, 0) == kMaxDependenceDistance); // only 2^61 iterations apart
}

TEST_CASE("an 8-bit index wraps: w[(uchar)(i * 64)] meets itself four iterations back") {
  LoopBuilder b;
  ValueId i = counter(b, 32, 1);
  ValueId j = b.add(OpKind::Trunc, 8, {b.add(OpKind::Mul, 32, {i, b.constant(64, 32)})});
  ValueId off = times4(b, j, false);
  ValueId ld = b.load(0, off, 4, "x");
  ValueId st = b.store(0, off, ld, 4);
  DependenceAnalysis a(b.loop);
  CHECK(a.firstConflict(st, ld, 1) == 4u);
  CHECK(a.firstConflict(ld, st, 0) == 0u);
}

TEST_CASE("sizes: an 8-byte access overlaps a 4-byte one inside it and the next one's first half") {
  LoopBuilder b;
  ValueId i = counter(b, 64, 1);
  ValueId base = b.add(OpKind::Shl, 64, {i, b.constant(3, 64)});
  ValueId wide = b.load(0, base, 8, "w");
  ValueId high = b.add(OpKind::Add, 64, {base, b.constant(4, 64)});
  ValueId st = b.store(0, high, b.constant(0, 32), 4);
  ValueId after = b.add(OpKind::Add, 64, {base, b.constant(8, 64)});
  ValueId st2 = b.store(0, after, b.constant(0, 32), 4);
  DependenceAnalysis a(b.loop);
  CHECK(a.firstConflict(wide, st, 0) == 0u);
  CHECK(a.firstConflict(st2, wide, 1) == 1u); // the next iteration reads what this one wrote at 8i + 8
  CHECK(a.firstConflict(wide, st2, 0) == kMaxDependenceDistance); // read before the store: 2^61 apart
}

TEST_CASE("not followed: a reversed index, a loaded index, a product of two variables") {
  LoopBuilder b;
  ValueId i = counter(b, 32, 1);
  ValueId n = b.liveIn(32, "n");
  ValueId rev = b.add(OpKind::Sub, 32, {n, i});
  ValueId l1 = b.load(0, times4(b, i, false), 4, "x");
  ValueId s1 = b.store(0, times4(b, rev, false), l1, 4);
  ValueId idx = b.load(1, times4(b, i, false), 4, "idx");
  ValueId l2 = b.load(0, times4(b, idx, false), 4, "y");
  ValueId idx1 = b.add(OpKind::Add, 32, {idx, b.constant(1, 32)});
  ValueId s2 = b.store(0, times4(b, idx1, false), l2, 4);
  ValueId sq = b.add(OpKind::Mul, 32, {i, i});
  ValueId s3 = b.store(0, times4(b, sq, false), l2, 4);
  DependenceAnalysis a(b.loop);
  CHECK(a.firstConflict(l1, s1, 0) == 0u);
  CHECK(a.firstConflict(s1, l1, 1) == 1u);
  // y[idx] and y[idx + 1] differ within an iteration, not across: the next iteration may meet.
  CHECK(a.firstConflict(l2, s2, 0) == 1u);
  CHECK(a.firstConflict(s2, l2, 1) == 1u);
  CHECK(a.firstConflict(l2, s3, 0) == 0u);
}

TEST_CASE("memoryOrder: the loop controls' distance and the analysis' together") {
  BackTwo t;
  LoopBuilder& b = t.b;
  const ValueId ld = t.ld, st = t.st;
  {
    DependenceAnalysis a(b.loop);
    const ir::MemoryOrder o = ir::memoryOrder(a, b.loop, ld, st);
    CHECK(o.secondToFirst == 2u);
    CHECK(o.firstToSecond == kMaxDependenceDistance);
    CHECK(o.relaxed);
  }
  b.loop.controls.dependencyLengthAll = 4; // safelen 4: nothing closer than 4
  {
    DependenceAnalysis a(b.loop);
    CHECK(ir::memoryOrder(a, b.loop, ld, st).secondToFirst == 4u);
  }
  b.loop.controls.dependencyLengthAll = 0; // no carried dependence at all
  {
    DependenceAnalysis a(b.loop);
    const ir::MemoryOrder o = ir::memoryOrder(a, b.loop, ld, st);
    CHECK(o.secondToFirst == std::nullopt);
    CHECK(o.firstToSecond == std::nullopt);
  }
}

namespace {

uint64_t maskOf(uint32_t w) {
  return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
}

// Evaluates the body's integer ops of one iteration (phis and live-ins given).
std::vector<uint64_t> evaluate(const ir::Loop& loop, const std::vector<uint64_t>& phis,
                               const std::vector<uint64_t>& ins) {
  std::vector<uint64_t> v(loop.ops.size(), 0);
  for (ValueId x = 0; x < loop.ops.size(); ++x) {
    const ir::Op& op = loop.ops[x];
    const uint32_t w = op.width();
    auto in = [&](size_t k) { return v[op.operands[k]]; };
    auto inW = [&](size_t k) { return loop.ops[op.operands[k]].width(); };
    uint64_t r = 0;
    switch (op.kind) {
    case OpKind::Const:
      r = op.imm;
      break;
    case OpKind::LiveIn:
      r = ins[op.index];
      break;
    case OpKind::LoopPhi:
      r = phis[op.index];
      break;
    case OpKind::Add:
      r = in(0) + in(1);
      break;
    case OpKind::Sub:
      r = in(0) - in(1);
      break;
    case OpKind::Mul:
      r = in(0) * in(1);
      break;
    case OpKind::Or:
      r = in(0) | in(1);
      break;
    case OpKind::Shl:
      r = in(1) >= w ? 0 : in(0) << in(1);
      break;
    case OpKind::ZExt:
    case OpKind::Trunc:
      r = in(0);
      break;
    case OpKind::SExt: {
      const uint32_t from = inW(0);
      r = (in(0) >> (from - 1)) & 1 ? in(0) | ~maskOf(from) : in(0);
      break;
    }
    case OpKind::Concat: {
      uint32_t at = 0;
      for (size_t k = 0; k < op.operands.size(); ++k)
        r |= in(k) << at, at += inW(k);
      break;
    }
    default:
      break;
    }
    v[x] = r & maskOf(w ? w : 64);
  }
  return v;
}

// A random index expression over the counter and a live-in, at a random width, extended to 64 bits and
// scaled. The shape comes from `shape` (shared by the two offsets of a trial, most of the time: the
// analysis follows offsets of one shape), the constants from `rng`.
ValueId randomOffset(LoopBuilder& b, std::mt19937& rng, uint32_t shape, ValueId i, ValueId n, uint8_t width) {
  auto bit = [&](int k) { return (shape >> k) & 1; };
  ValueId x = i;
  if (bit(0)) x = b.add(OpKind::Mul, width, {x, b.constant(uint64_t((shape >> 8) % 9) - 4, width)});
  if (rng() % 2) x = b.add(OpKind::Add, width, {x, b.constant(uint64_t(rng() % 7) - 3, width)});
  if (bit(1)) x = b.add(OpKind::Add, width, {x, n});
  if (bit(2))
    x = b.add(OpKind::Or, width,
              {b.add(OpKind::Shl, width, {x, b.constant(1, width)}), b.constant(rng() % 2, width)});
  if (bit(3) && width > 4) {
    const uint8_t narrow = uint8_t(width - 1 - (shape >> 12) % 3);
    x = b.add(OpKind::Trunc, narrow, {x});
  }
  const OpKind ext = bit(4) ? OpKind::SExt : OpKind::ZExt;
  const uint32_t s = (shape >> 16) % 4;
  if (bit(5)) return b.add(OpKind::Shl, 64, {b.add(ext, 64, {x}), b.constant(s, 64)});
  if (s == 0) return b.add(ext, 64, {x});
  ValueId wide = b.add(ext, uint8_t(64 - s), {x});
  return b.add(OpKind::Concat, 64, {b.constant(0, uint8_t(s)), wide});
}

} // namespace

TEST_CASE("property: no conflict found by evaluation is closer than the analysis' distance") {
  std::mt19937 rng(20261128);
  int followed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    LoopBuilder b;
    const uint8_t width = uint8_t(std::vector<int>{6, 8, 12, 16, 32}[rng() % 5]);
    const uint64_t step =
        (rng() % 2 ? uint64_t(rng() % 5) + 1 : uint64_t(-int64_t(rng() % 3) - 1)) & maskOf(width);
    ValueId i = counter(b, width, step);
    ValueId n = b.liveIn(width, "n");
    const uint32_t shape = rng();
    ValueId offF = randomOffset(b, rng, shape, i, n, width);
    ValueId offS = randomOffset(b, rng, rng() % 4 ? shape : shape ^ uint32_t(rng()), i, n, width);
    const uint8_t sizeF = uint8_t(1 << (rng() % 4)), sizeS = uint8_t(1 << (rng() % 4));
    ValueId first = b.load(0, offF, sizeF, "f");
    ValueId second = b.store(0, offS, first, sizeS);
    DependenceAnalysis a(b.loop);
    for (uint32_t minDistance : {0u, 1u}) {
      const std::optional<uint32_t> d = a.firstConflict(first, second, minDistance);
      followed += d != minDistance;
      for (int init = 0; init < 3; ++init) {
        const uint64_t i0 = rng() & maskOf(width), n0 = rng() & maskOf(width);
        constexpr uint64_t T = 700;
        std::vector<uint64_t> f(T), s(T);
        for (uint64_t t = 0; t < T; ++t) {
          const std::vector<uint64_t> v = evaluate(b.loop, {(i0 + step * t) & maskOf(width)}, {n0});
          f[t] = v[offF], s[t] = v[offS];
        }
        for (uint64_t t = 0; t < T; ++t)
          for (uint64_t back = minDistance; back <= t; ++back) {
            const uint64_t diff = s[t] - f[t - back];
            const bool meet = diff < sizeF || diff > ~uint64_t(0) - sizeS + 1; // in (-sizeS, sizeF)
            if (meet && (!d || back < *d)) {
              for (ValueId x = 0; x < b.loop.ops.size(); ++x) {
                const ir::Op& op = b.loop.ops[x];
                std::string ops;
                for (ValueId o : op.operands)
                  ops += fmt::format(" {}", o == ir::kNone ? -1 : int(o));
                MESSAGE(fmt::format("%{} = {} i{}{} imm {}", x, ir::opKindName(op.kind), op.width(), ops,
                                    op.imm));
              }
              FAIL(fmt::format(
                  "trial {}: width {}, step {}, i0 {}, n {}: first at t - {} and second at t = {} "
                  "meet (offsets {:#x}, {:#x}), analysis says {}",
                  trial, width, step, i0, n0, back, t, f[t - back], s[t], d ? std::to_string(*d) : "never"));
              return;
            }
          }
      }
    }
  }
  // Most random offsets are followed (the distance differs from the conservative answer).
  MESSAGE(fmt::format("{} of 800 answers followed the offsets", followed));
  CHECK(followed > 400);
}
