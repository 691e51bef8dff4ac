// Datapath optimisations (ir/lower_datapath.cpp): every rewrite of an operation with a constant
// operand against the operation itself (foldConstant, the IR's semantics), exhaustively at 8 bits,
// over every divisor at 16 bits and over random and edge divisors at 32 and 64 bits; and what the
// rewrites cost (no divider or multiplier left, at most two adders for a multiplication by a constant).
// And redundant loads (ir/lower_loads.cpp): which loads take an earlier access's value. And known bits
// (ir/lower_bits.cpp): random expressions against their rewrites, and what becomes wires. And wide
// accesses (ir/lower_widen.cpp): which consecutive accesses become one.
#include <functional>
#include <optional>
#include <random>
#include <tuple>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ir/dependence.h"
#include "ir/lower_internal.h"
#include "loop_builder.h"

using namespace spvhls;
using ir::Op;
using ir::OpKind;
using ir::ValueId;

namespace {

struct Rewritten {
  std::vector<Op> ops;
  ValueId result = ir::kNone; // kNone: kept as it is
};

// `x <kind> c` (or `c <kind> x` when `constFirst`) for an unknown w-bit x, rewritten.
Rewritten rewrite(OpKind kind, uint32_t w, uint64_t c, bool constFirst = false) {
  Rewritten r;
  Op x;
  x.kind = OpKind::Arg;
  x.type = ir::Type::bits(w);
  r.ops.push_back(x);
  ir::lower::Builder b(r.ops, nullptr);
  const ValueId cv = b.constant(w, c);
  Op op;
  op.kind = kind;
  op.type = ir::Type::bits(w);
  op.operands = constFirst ? std::vector<ValueId>{cv, 0} : std::vector<ValueId>{0, cv};
  r.result = ir::lower::reduceOperation(b, op);
  return r;
}

// The value of `v` for argument values `args` (Arg i is args[i]), op by op.
uint64_t evaluateArgs(const std::vector<Op>& ops, ValueId v, const std::vector<uint64_t>& args) {
  std::vector<uint64_t> val(ops.size(), 0);
  for (ValueId i = 0; i <= v; ++i) {
    const Op& op = ops[i];
    const uint64_t mask = ir::lower::widthMask(op.width());
    switch (op.kind) {
    case OpKind::Arg:
      val[i] = args.at(op.index) & mask;
      break;
    case OpKind::Const:
      val[i] = op.imm & mask;
      break;
    case OpKind::Extract:
      val[i] = (val[op.operands[0]] >> op.imm) & mask;
      break;
    case OpKind::Select:
      val[i] = val[op.operands[0]] & 1 ? val[op.operands[1]] : val[op.operands[2]];
      break;
    case OpKind::Concat: {
      uint64_t acc = 0;
      uint32_t at = 0;
      for (ValueId o : op.operands) {
        acc |= val[o] << at;
        at += ops[o].width();
      }
      val[i] = acc & mask;
      break;
    }
    default: {
      std::vector<uint64_t> in;
      for (ValueId o : op.operands)
        in.push_back(val[o]);
      const uint32_t ow = ops[op.operands.back()].width();
      auto r = ir::lower::foldConstant(op.kind, op.width(), in, ow);
      REQUIRE_MESSAGE(r.has_value(), std::string(ir::opKindName(op.kind)) << " width " << op.width());
      val[i] = *r & mask;
    }
    }
  }
  return val[v];
}
// The value of `v` for x = `xv`.
uint64_t evaluate(const std::vector<Op>& ops, ValueId v, uint64_t xv) {
  return evaluateArgs(ops, v, {xv});
}

struct Cost {
  uint32_t adders = 0, multipliers = 0, dividers = 0;
};
Cost costOf(const Rewritten& r) {
  Cost c;
  for (const Op& op : r.ops) {
    const auto cls = ir::opInfo(op.kind).opClass;
    if (op.kind == OpKind::Add || op.kind == OpKind::Sub || op.kind == OpKind::Neg) ++c.adders;
    if (cls == ir::OpClass::Multiply) ++c.multipliers;
    if (cls == ir::OpClass::Divide) ++c.dividers;
    CHECK(cls != ir::OpClass::Shift); // shifts by a constant are wires
  }
  return c;
}

// Checks the rewrite of `kind` by `c` at width w for every x in `xs`; returns whether it was rewritten.
bool check(OpKind kind, uint32_t w, uint64_t c, const std::vector<uint64_t>& xs) {
  const Rewritten r = rewrite(kind, w, c);
  if (r.result == ir::kNone) return false;
  CHECK(r.ops[r.result].width() == w);
  const Cost cost = costOf(r);
  CHECK(cost.dividers == 0);
  CHECK(cost.multipliers == 0); // the reciprocals of divisions are shifted adds too
  if (kind == OpKind::Mul) CHECK(cost.adders <= 2);
  for (uint64_t x : xs) {
    auto expected = ir::lower::foldConstant(kind, w, {x, c}, w);
    if (!expected) continue; // INT_MIN / -1
    const uint64_t got = evaluate(r.ops, r.result, x);
    if (got != *expected)
      FAIL_CHECK(std::string(ir::opKindName(kind))
                 << " i" << w << " x=" << x << " c=" << c << ": " << got << " expected " << *expected);
  }
  return true;
}

const OpKind kDivides[] = {OpKind::UDiv, OpKind::URem, OpKind::SDiv, OpKind::SRem, OpKind::SMod};

// Edge values of a w-bit operand and around multiples of c.
std::vector<uint64_t> edges(uint32_t w, uint64_t c, std::mt19937_64& rng, size_t random) {
  const uint64_t m = ir::lower::widthMask(w), top = uint64_t(1) << (w - 1);
  std::vector<uint64_t> xs = {0,     1,     2,         m,     m - 1, top,    top - 1, top + 1, c,
                              c - 1, c + 1, 2 * c - 1, 2 * c, -c,    -c + 1, -c - 1,  m - c};
  for (size_t i = 0; i < random; ++i)
    xs.push_back(rng());
  for (uint64_t& x : xs)
    x &= m;
  return xs;
}

} // namespace

TEST_CASE("datapath: every 8-bit division, remainder, multiplication and shift by a constant") {
  std::vector<uint64_t> all(256);
  for (uint64_t x = 0; x < 256; ++x)
    all[x] = x;
  for (uint64_t c = 0; c < 256; ++c) {
    for (OpKind k : kDivides) {
      const bool rewritten = check(k, 8, c, all);
      // Kept only for division by zero and (signed) a negative divisor.
      const bool expectKept = c == 0 || (k != OpKind::UDiv && k != OpKind::URem && c >= 128);
      CHECK_MESSAGE(rewritten != expectKept, std::string(ir::opKindName(k)) << " by " << c);
    }
    check(OpKind::Mul, 8, c, all);
    for (OpKind k : {OpKind::Shl, OpKind::LShr, OpKind::AShr})
      CHECK(check(k, 8, c, all));
  }
}

TEST_CASE("datapath: 16-bit divisions by every constant, 32-bit by random and edge constants") {
  std::mt19937_64 rng(16);
  for (uint64_t c = 1; c < 65536; ++c)
    for (OpKind k : kDivides)
      check(k, 16, c, edges(16, c, rng, 4));
  std::vector<uint64_t> divisors = {
      3,   5,   6,    7,       10,         11,         12,         25,         60,         100,
      125, 641, 1000, 6700417, 0x7fffffff, 0x80000001, 0xfffffffe, 0xffffffff, 0x55555555, 0x40000001};
  for (int i = 0; i < 400; ++i)
    divisors.push_back(rng() >> (32 + rng() % 32));
  for (uint64_t c : divisors)
    for (OpKind k : kDivides)
      check(k, 32, c, edges(32, c, rng, 64));
}

TEST_CASE("datapath: what stays a divider or multiplier") {
  // 64-bit division by a constant other than a power of two: the reciprocal's product would need 128
  // bits.
  CHECK(rewrite(OpKind::UDiv, 64, 10).result == ir::kNone);
  CHECK(rewrite(OpKind::SRem, 64, 10).result == ir::kNone);
  std::mt19937_64 rng(64);
  for (OpKind k : kDivides)
    CHECK(check(k, 64, 1024, edges(64, 1024, rng, 64)));
  // A constant dividend divides by an unknown value: kept.
  CHECK(rewrite(OpKind::UDiv, 32, 10, true).result == ir::kNone);
  // Multiplications by constants of at most three signed digits become shifts and adds (either
  // operand order); others stay multiplications.
  for (uint64_t c : {3ull, 5ull, 7ull, 15ull, 0x101ull, 0xffffffffull, 0xfffffff0ull, 0x1010001ull}) {
    const Rewritten r = rewrite(OpKind::Mul, 32, c, c & 1);
    REQUIRE(r.result != ir::kNone);
    CHECK(costOf(r).multipliers == 0);
    for (uint64_t x : edges(32, c, rng, 64))
      CHECK(evaluate(r.ops, r.result, x) == ((x * c) & 0xffffffff));
  }
  for (uint64_t c : {0x55ull, 0x12345ull})
    CHECK(rewrite(OpKind::Mul, 32, c).result == ir::kNone);
  // 64-bit shifts and multiplications by constants, every amount.
  for (uint64_t s = 0; s < 130; ++s)
    for (OpKind k : {OpKind::Shl, OpKind::LShr, OpKind::AShr, OpKind::Mul})
      check(k, 64, s, edges(64, s, rng, 16));
}

// ---------------------------------------------------------------------------------------------
// Known bits (ir/lower_bits.cpp).

namespace {

struct BitsRewrite {
  std::vector<Op> out;
  std::vector<ValueId> map; // original value -> its value in `out`
  size_t rewritten = 0;
};

// `ops` rewritten op by op as the datapath pass does for a loop body.
BitsRewrite rewriteBits(const std::vector<Op>& ops) {
  BitsRewrite r;
  ir::lower::Builder b(r.out, nullptr);
  ir::lower::BitRewriter bits(r.out, ops);
  r.map.assign(ops.size(), ir::kNone);
  for (ValueId v = 0; v < ops.size(); ++v) {
    Op op = ops[v];
    for (ValueId& o : op.operands)
      if (o != ir::kNone) o = r.map[o];
    if (const ValueId n = bits.rewrite(b, v, op); n != ir::kNone) {
      r.map[v] = n;
      ++r.rewritten;
      continue;
    }
    r.map[v] = ValueId(r.out.size());
    r.out.push_back(std::move(op));
  }
  return r;
}

// Operations with logic (not wires) that `v` depends on.
size_t gatesUnder(const std::vector<Op>& ops, ValueId v) {
  std::vector<uint8_t> seen(ops.size(), 0);
  std::vector<ValueId> work{v};
  size_t gates = 0;
  while (!work.empty()) {
    const ValueId u = work.back();
    work.pop_back();
    if (u == ir::kNone || seen[u]) continue;
    seen[u] = 1;
    gates += ir::opInfo(ops[u].kind).opClass != ir::OpClass::Wire && ops[u].kind != OpKind::Const &&
             ops[u].kind != OpKind::Arg;
    for (ValueId o : ops[u].operands)
      work.push_back(o);
  }
  return gates;
}

Op argOp(uint32_t index, uint32_t width) {
  Op a;
  a.kind = OpKind::Arg;
  a.index = index;
  a.type = ir::Type::bits(width);
  return a;
}

} // namespace

TEST_CASE("known bits: random expressions equal their rewrites for random and edge inputs") {
  std::mt19937_64 rng(2026);
  auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
  size_t rewritten = 0;
  for (int trial = 0; trial < 600; ++trial) {
    std::vector<Op> ops;
    ops.push_back(argOp(0, 1 + pick(64)));
    ops.push_back(argOp(1, 1 + pick(64)));
    ir::lower::Builder b(ops, nullptr);
    auto any = [&] { return ValueId(pick(uint32_t(ops.size()))); };
    // A value of width w from v: zero or sign extended, truncated, or a constant with a random mask.
    auto as = [&](ValueId v, uint32_t w) -> ValueId {
      switch (pick(4)) {
      case 0: {
        const uint64_t m = ir::lower::widthMask(w);
        const uint64_t masks[] = {0xff, 0xffff, m >> pick(w), m << pick(w), rng(), 0, m, 1, 0xff00};
        return b.constant(w, masks[pick(9)] & m);
      }
      default:
        return b.width(v) >= w ? b.extract(v, 0, w) : b.resize(v, w, pick(2));
      }
    };
    for (int step = 0; step < 14; ++step) {
      const ValueId v = any();
      const uint32_t w = b.width(v);
      switch (pick(8)) {
      case 0:
        if (w < 64) b.resize(v, w + 1 + pick(64 - w), pick(2));
        break;
      case 1:
        if (w > 1) {
          const uint32_t lo = pick(w);
          b.extract(v, lo, 1 + pick(w - lo));
        }
        break;
      case 2:
        if (w < 64) b.concat({b.constant(1 + pick(64 - w), 0), v}); // a shift left
        break;
      case 3:
        if (const ValueId u = any(); w + b.width(u) <= 64) b.concat({v, u});
        break;
      case 4:
        b.unary(OpKind::Not, v);
        break;
      case 5:
        b.select(as(any(), 1), v, as(any(), w));
        break;
      default: {
        const OpKind kinds[] = {OpKind::And, OpKind::Or, OpKind::Xor, OpKind::Add, OpKind::Mul};
        b.binary(kinds[pick(5)], v, as(any(), w));
        break;
      }
      }
    }
    const BitsRewrite r = rewriteBits(ops);
    rewritten += r.rewritten;
    std::vector<std::vector<uint64_t>> inputs = {{0, 0}, {~0ull, ~0ull}, {0, ~0ull}, {~0ull, 0}};
    for (int i = 0; i < 48; ++i)
      inputs.push_back({rng() >> pick(64), rng() >> pick(64)});
    for (ValueId v = 0; v < ops.size(); ++v) {
      REQUIRE(r.out[r.map[v]].width() == ops[v].width());
      for (const auto& in : inputs) {
        const uint64_t want = evaluateArgs(ops, v, in), got = evaluateArgs(r.out, r.map[v], in);
        if (want != got)
          FAIL_CHECK("trial " << trial << " value " << v << " (" << ir::opKindName(ops[v].kind) << " i"
                              << ops[v].width() << ") x=" << in[0] << " y=" << in[1] << ": " << got
                              << " expected " << want);
      }
    }
  }
  CHECK(rewritten > 300); // the generator makes known bits often enough to test the rewrites
}

TEST_CASE("known bits: byte packing and selection are wires, a narrow sum a narrow adder") {
  std::vector<Op> ops;
  for (uint32_t i = 0; i < 4; ++i)
    ops.push_back(argOp(i, 8));
  ir::lower::Builder b(ops, nullptr);
  // (uint)b0 << 24 | (uint)b1 << 16 | (uint)b2 << 8 | b3, as clang -O0 writes it.
  auto shifted = [&](ValueId v, uint32_t s) {
    const ValueId wide = b.resize(v, 32, false);
    return s ? b.concat({b.constant(s, 0), b.extract(wide, 0, 32 - s)}) : wide;
  };
  const ValueId word = b.binary(
      OpKind::Or, b.binary(OpKind::Or, b.binary(OpKind::Or, shifted(0, 24), shifted(1, 16)), shifted(2, 8)),
      shifted(3, 0));
  // (word >> 8) & 0xff
  const ValueId byte =
      b.binary(OpKind::And, b.resize(b.extract(word, 8, 24), 32, false), b.constant(32, 0xff));
  // (uint)b0 + (uint)b1: 9 bits of adder
  const ValueId sum = b.binary(OpKind::Add, b.resize(0, 32, false), b.resize(1, 32, false));
  // The sum's carry out of 8 bits meets b2 << 8: an OR on that bit.
  const ValueId carry = b.binary(OpKind::Or, sum, shifted(2, 8));
  // Products and sums of extended bytes: a 16-bit multiplier, a 9-bit adder, sign extended for
  // signed operands.
  const ValueId uprod = b.binary(OpKind::Mul, b.resize(0, 32, false), b.resize(1, 32, false));
  const ValueId sprod = b.binary(OpKind::Mul, b.resize(0, 32, true), b.resize(1, 32, true));
  const ValueId ssum = b.binary(OpKind::Add, b.resize(0, 32, true), b.resize(1, 32, true));
  // (uint)b0 | (uint)b1: an OR of 8 bits; b0 | b1: kept
  const ValueId low = b.binary(OpKind::Or, b.resize(0, 32, false), b.resize(1, 32, false));
  const ValueId both = b.binary(OpKind::Or, 0, 1);
  const BitsRewrite r = rewriteBits(ops);
  CHECK(gatesUnder(r.out, r.map[word]) == 0);
  CHECK(gatesUnder(r.out, r.map[byte]) == 0);
  CHECK(gatesUnder(r.out, r.map[sum]) == 1);
  CHECK(r.out[r.map[sum]].kind == OpKind::ZExt);
  CHECK(r.out[r.out[r.map[sum]].operands[0]].kind == OpKind::Add);
  CHECK(r.out[r.out[r.map[sum]].operands[0]].width() == 9);
  CHECK(gatesUnder(r.out, r.map[low]) == 1);
  for (const Op& op : r.out)
    if (op.kind == OpKind::Or) CHECK((op.width() == 8 || op.width() == 1)); // low, both; carry
  CHECK(r.out[r.map[both]].kind == OpKind::Or);
  CHECK(r.out[r.map[both]].operands == std::vector<ValueId>{0, 1});
  for (auto [v, kind, ext, width] :
       {std::tuple{uprod, OpKind::Mul, OpKind::ZExt, 16u}, std::tuple{sprod, OpKind::Mul, OpKind::SExt, 16u},
        std::tuple{ssum, OpKind::Add, OpKind::SExt, 9u}}) {
    REQUIRE(r.out[r.map[v]].kind == ext);
    const Op& narrow = r.out[r.out[r.map[v]].operands[0]];
    CHECK(narrow.kind == kind);
    CHECK(narrow.width() == width);
  }
  for (uint64_t i = 0; i < 64; ++i) {
    const std::vector<uint64_t> in = {i * 37 & 0xff, i * 101 & 0xff, i * 7 & 0xff, 255 - i};
    CHECK(evaluateArgs(r.out, r.map[word], in) == (in[0] << 24 | in[1] << 16 | in[2] << 8 | in[3]));
    CHECK(evaluateArgs(r.out, r.map[byte], in) == in[2]);
    CHECK(evaluateArgs(r.out, r.map[sum], in) == in[0] + in[1]);
    CHECK(evaluateArgs(r.out, r.map[carry], in) == ((in[0] + in[1]) | in[2] << 8));
    const int64_t s0 = int8_t(in[0]), s1 = int8_t(in[1]);
    CHECK(evaluateArgs(r.out, r.map[uprod], in) == in[0] * in[1]);
    CHECK(evaluateArgs(r.out, r.map[sprod], in) == uint64_t(s0 * s1) % (uint64_t(1) << 32));
    CHECK(evaluateArgs(r.out, r.map[ssum], in) == uint64_t(s0 + s1) % (uint64_t(1) << 32));
  }
}

TEST_CASE("known bits: addresses into a stored memory stay sums for the dependence analysis") {
  for (bool stored : {true, false}) {
    spvhls::testing::LoopBuilder lb;
    const ValueId i = lb.phi(32, "i");
    // Offset 8i + 4 as -O0 forms it: ((zext i) << 3) | 4.
    const ValueId base = lb.add(OpKind::Concat, 64, {lb.constant(0, 3), lb.add(OpKind::ZExt, 61, {i})});
    const ValueId offset = lb.add(OpKind::Or, 64, {base, lb.constant(4, 64)});
    const ValueId x = lb.load(0, offset, 4, "x");
    if (stored) lb.store(0, base, x, 4);
    const BitsRewrite r = rewriteBits(lb.loop.ops);
    CHECK(r.out[r.map[offset]].kind == (stored ? OpKind::Or : OpKind::Concat));
  }
}

// ---------------------------------------------------------------------------------------------
// Redundant loads (ir/lower_loads.cpp).

namespace {

using spvhls::testing::LoopBuilder;

// A kernel of one loop over `memories` pointer arguments (memory 0, 1, ...).
ir::Kernel kernelOf(LoopBuilder& b, uint32_t memories = 2) {
  ir::Kernel k;
  for (uint32_t m = 0; m < memories; ++m) {
    ir::Memory mem;
    mem.name = fmt::format("m{}", m);
    mem.argIndex = m;
    k.memories.push_back(mem);
  }
  k.loops.push_back(std::move(b.loop));
  return k;
}

// The loads left in the loop that something reads (compaction drops the others).
size_t usedLoads(const ir::Loop& loop) {
  std::vector<uint8_t> used(loop.ops.size(), 0);
  for (const Op& op : loop.ops)
    for (ValueId o : op.operands)
      if (o != ir::kNone) used[o] = 1;
  for (ValueId o : loop.liveOuts)
    used[o] = 1;
  size_t n = 0;
  for (ValueId v = 0; v < loop.ops.size(); ++v)
    n += loop.ops[v].kind == OpKind::Load && used[v];
  return n;
}

} // namespace

TEST_CASE("load reuse: the same bytes read again, or read after a store, take the earlier value") {
  LoopBuilder b;
  const ValueId i = b.liveIn(32, "i");
  const ValueId off = b.offset4(i);
  const ValueId x1 = b.load(0, off, 4, "x1");
  const ValueId x2 = b.load(0, off, 4, "x2"); // reuses x1
  const ValueId sum = b.add(OpKind::Add, 32, {x1, x2});
  b.store(1, off, sum, 4);
  const ValueId y = b.load(1, off, 4, "y");       // the stored sum
  const ValueId half = b.load(0, off, 2, "half"); // other size: a load of its own
  b.loop.liveOuts = {y, half};
  ir::Kernel k = kernelOf(b);
  REQUIRE(ir::lower::reuseLoads(k));
  const ir::Loop& l = k.loops[0];
  CHECK(k.datapath.reusedLoads == 2);
  CHECK(l.ops[sum].operands == std::vector<ValueId>{x1, x1});
  CHECK(l.liveOuts == std::vector<ValueId>{sum, half});
  CHECK(usedLoads(l) == 2);
}

TEST_CASE("load reuse: what may change the bytes in between, and predicates") {
  auto build = [](auto&& between, bool pred1, bool pred2) {
    LoopBuilder b;
    const ValueId i = b.liveIn(32, "i"), j = b.liveIn(32, "j");
    const ValueId p = b.liveIn(1, "p"), q = b.liveIn(1, "q");
    const ValueId pq = b.add(OpKind::And, 1, {p, q});
    const ValueId off = b.offset4(i);
    const ValueId x1 = b.load(0, off, 4, "x1");
    if (pred1) b.loop.ops[x1].operands[1] = p;
    between(b, b.offset4(j));
    const ValueId x2 = b.load(0, off, 4, "x2");
    if (pred2) b.loop.ops[x2].operands[1] = pq;
    b.loop.liveOuts = {x1, x2};
    return kernelOf(b, 3);
  };
  auto nothing = [](LoopBuilder&, ValueId) {};
  // A store to the memory at another offset may write the same bytes; to another memory it may not.
  auto storeSame = [](LoopBuilder& b, ValueId o) { b.store(0, o, b.constant(7, 32), 4); };
  auto storeOther = [](LoopBuilder& b, ValueId o) { b.store(2, o, b.constant(7, 32), 4); };
  auto innerLoop = [](LoopBuilder& b, ValueId) { b.add(OpKind::LoopCall, 0, {ir::kNone}); };
  auto reused = [](ir::Kernel k) { return ir::lower::reuseLoads(k); };
  CHECK(reused(build(nothing, false, false)));
  CHECK_FALSE(reused(build(storeSame, false, false)));
  CHECK(reused(build(storeOther, false, false)));
  CHECK_FALSE(reused(build(innerLoop, false, false)));
  // The first load's predicate must hold wherever the second runs: p covers p & q, nothing covers all.
  CHECK(reused(build(nothing, true, true)));
  CHECK(reused(build(nothing, false, true)));
  CHECK_FALSE(reused(build(nothing, true, false)));
  // A volatile access anywhere in the kernel: every load stays.
  ir::Kernel v = build(nothing, false, false);
  v.volatileAccess = true;
  CHECK_FALSE(reused(v));
  // A task's queue in between: the task may have written the memory.
  ir::Kernel qk = build([](LoopBuilder& b, ValueId o) { b.store(2, o, b.constant(7, 32), 4); }, false, false);
  qk.memories[2].kind = ir::Memory::Kind::Queue;
  CHECK_FALSE(reused(qk));
}

namespace {

// The caller of loop 0: constants and an argument, and the LoopCall that runs the loop.
void addCaller(ir::Kernel& k, const std::vector<std::pair<OpKind, uint64_t>>& values) {
  for (auto [kind, imm] : values) {
    Op op;
    op.kind = kind;
    op.type = ir::Type::bits(32);
    op.imm = imm;
    k.ops.push_back(op);
  }
  Op call;
  call.kind = OpKind::LoopCall;
  call.index = 0;
  k.ops.push_back(call);
}

} // namespace

TEST_CASE("equal values: fused loops' induction variables become one, and the store's value is reused") {
  LoopBuilder b;
  // Carried values from caller values 0: 0, 1: 0 (another constant 0), 2: an argument.
  auto phiFrom = [&](uint32_t init, const char* name) {
    const ValueId p = b.phi(32, name);
    b.loop.phis.back().initLiveIn = init;
    return p;
  };
  const ValueId i = phiFrom(0, "i"), j = phiFrom(1, "j"), s = phiFrom(2, "s");
  const ValueId w = phiFrom(0, "w"), a = phiFrom(0, "a"), c = phiFrom(0, "c");
  const ValueId u = phiFrom(0, "u"), v = phiFrom(1, "v");
  b.setNext(i, b.add(OpKind::Add, 32, {i, b.constant(1, 32)}));
  b.setNext(j, b.add(OpKind::Add, 32, {b.constant(1, 32), j})); // the same sum, operands swapped
  b.setNext(s, b.add(OpKind::Add, 32, {s, b.constant(1, 32)})); // starts elsewhere
  b.setNext(w, b.add(OpKind::Add, 32, {w, b.constant(2, 32)})); // steps by 2
  // a and c swap each iteration: equal only when assumed equal (the optimistic start finds them).
  b.setNext(a, c);
  b.setNext(c, a);
  // u and v swap too, but u takes v + 1: 0, 1, 1, 2, ... against 0, 0, 1, 1, ...
  b.setNext(u, b.add(OpKind::Add, 32, {v, b.constant(1, 32)}));
  b.setNext(v, u);
  const ValueId x = b.load(0, b.offset4(i), 4, "x");
  const ValueId st = b.store(1, b.offset4(i), x, 4);
  const ValueId y = b.load(1, b.offset4(j), 4, "y"); // b[j] is b[i]: the stored value
  b.loop.liveOuts = {y, s, w, a, c, u, v};
  b.loop.liveIns = {0, 1, 2};
  ir::Kernel k = kernelOf(b);
  addCaller(k, {{OpKind::Const, 0}, {OpKind::Const, 0}, {OpKind::Arg, 0}});
  REQUIRE(ir::lower::mergeEqualValues(k));
  const ir::Loop& l = k.loops[0];
  // j and its sum merged into i's, c into a, and the three addresses into x's; nothing else.
  CHECK(l.liveOuts == std::vector<ValueId>{y, s, w, a, a, u, v});
  CHECK(l.ops[y].operands[0] == l.ops[x].operands[0]);
  CHECK(l.ops[st].operands[0] == l.ops[x].operands[0]);
  CHECK(k.datapath.mergedValues == 7); // j, j + 1, c, two zexts and two shifts
  REQUIRE(ir::lower::reuseLoads(k));
  CHECK(k.datapath.reusedLoads == 1);
  CHECK(usedLoads(k.loops[0]) == 1);
}

namespace {

// t[i] = t[i - dist] + x[i] (memory 0: t, 1: x), run by a LoopCall of the CFG; `extra` adds to the body.
ir::Kernel runningSum(int64_t dist, const std::function<void(LoopBuilder&, ValueId)>& extra = {}) {
  LoopBuilder b;
  const ValueId i = b.phi(32, "i");
  b.setNext(i, b.add(OpKind::Add, 32, {i, b.constant(1, 32)}));
  const ValueId back = b.add(OpKind::Sub, 32, {i, b.constant(uint64_t(dist), 32)});
  const ValueId prev = b.load(0, b.offset4(back), 4, "prev");
  const ValueId sum = b.add(OpKind::Add, 32, {prev, b.load(1, b.offset4(i), 4, "x")});
  b.store(0, b.offset4(i), sum, 4);
  if (extra) extra(b, i);
  b.loop.liveIns = {0};
  b.loop.continueCond = b.add(OpKind::SLt, 1, {i, b.constant(63, 32)});
  ir::Kernel k = kernelOf(b);
  addCaller(k, {{OpKind::Const, 1}});
  k.ops.back().operands = {0};
  k.blocks.resize(1);
  k.blocks[0].loopCall = 0;
  k.blocks[0].ops = {0, 1};
  return k;
}

// The distance at which t's store orders the load before it in the body (nullopt: none).
std::optional<uint32_t> storeToLoad(const ir::Loop& l) {
  ValueId load = ir::kNone, store = ir::kNone;
  for (ValueId v = 0; v < l.ops.size(); ++v)
    if (l.ops[v].memory == 0 && (l.ops[v].kind == OpKind::Load || l.ops[v].kind == OpKind::Store))
      (l.ops[v].kind == OpKind::Load ? load : store) = v;
  REQUIRE(load < store);
  return ir::memoryOrder(ir::DependenceAnalysis(l), l, load, store).secondToFirst;
}

} // namespace

TEST_CASE("store forwarding: t[i - 1] takes the value stored the iteration before") {
  ir::Kernel k = runningSum(1);
  CHECK(storeToLoad(k.loops[0]) == std::optional<uint32_t>(1));
  REQUIRE(ir::lower::forwardStores(k));
  CHECK(k.datapath.forwardedLoads == 1);
  const ir::Loop& l = k.loops[0];
  // The load runs only where the store did not run the iteration before: no order at distance 1, and
  // the next conflict is where the 32-bit index wraps, beyond any pipeline (the analysis's cap).
  CHECK(storeToLoad(l) == std::optional<uint32_t>(ir::kMaxDependenceDistance));
  // Two carried values: did the store run (from false; next: true, it always runs), what it wrote.
  REQUIRE(l.phis.size() == 3);
  CHECK(k.ops[l.liveIns[l.phis[1].initLiveIn]].imm == 0);
  CHECK(l.ops[l.phis[1].next].kind == OpKind::Const);
  CHECK(l.ops[l.phis[2].next].kind == OpKind::Add);
  // The new initial values are computed before the call, in its block.
  CHECK(k.ops[1].kind == OpKind::LoopCall);
  CHECK(k.blocks[0].ops.back() == 1);
  CHECK(k.ops[1].operands == l.liveIns);

  // Not forwarded: two iterations back; a second store to t; an inner loop in the body; volatile.
  auto forwarded = [](ir::Kernel x) { return ir::lower::forwardStores(x); };
  ir::Kernel two = runningSum(2);
  CHECK(storeToLoad(two.loops[0]) == std::optional<uint32_t>(2));
  CHECK_FALSE(forwarded(two));
  CHECK_FALSE(forwarded(runningSum(1, [](LoopBuilder& b, ValueId i) {
    b.store(0, b.offset4(b.add(OpKind::Add, 32, {i, b.constant(9, 32)})), i, 4);
  })));
  CHECK_FALSE(
      forwarded(runningSum(1, [](LoopBuilder& b, ValueId) { b.add(OpKind::LoopCall, 0, {ir::kNone}); })));
  ir::Kernel v = runningSum(1);
  v.volatileAccess = true;
  CHECK_FALSE(forwarded(v));
}

namespace {

// Loop body of accesses to memory 0 at elements 4i + k (i a live-in, i32 elements): the offset of
// element 4i + k as zext(i << 2 | k) << 2, so T = i << 2 with k or'ed into its zero bits.
struct Unrolled {
  LoopBuilder b;
  ValueId i = b.liveIn(32, "i");
  ValueId base = b.add(OpKind::Shl, 32, {i, b.constant(2, 32)});
  ValueId element(uint64_t k) {
    return b.offset4(k ? b.add(OpKind::Or, 32, {base, b.constant(k, 32)}) : base);
  }
};

size_t countOps(const ir::Loop& l, OpKind kind, uint8_t size) {
  return size_t(std::count_if(l.ops.begin(), l.ops.end(),
                              [&](const Op& op) { return op.kind == kind && op.size == size; }));
}

} // namespace

TEST_CASE("wide accesses: consecutive loads, and stores, of an unrolled body become one access each") {
  Unrolled u;
  std::vector<ValueId> x;
  for (uint64_t k = 0; k < 4; ++k)
    x.push_back(u.b.load(0, u.element(k), 4, fmt::format("x{}", k)));
  for (uint64_t k = 0; k < 4; ++k)
    u.b.store(1, u.element(k), x[3 - k], 4); // reversed into memory 1
  u.b.loop.liveOuts = {x[2]};
  ir::Kernel k = kernelOf(u.b);
  REQUIRE(ir::lower::widenAccesses(k));
  const ir::Loop& l = k.loops[0];
  CHECK(k.datapath.wideAccesses == 2);
  CHECK(k.datapath.widenedAccesses == 8);
  CHECK(countOps(l, OpKind::Load, 16) == 1);
  CHECK(countOps(l, OpKind::Store, 16) == 1);
  CHECK(countOps(l, OpKind::Load, 4) + countOps(l, OpKind::Store, 4) == 0);
  // The live-out reads bits 64..95 of the wide load (element 2); the store's data is x3, x2, x1, x0
  // from the lowest bits.
  const Op& out = l.ops[l.liveOuts[0]];
  CHECK(out.kind == OpKind::Extract);
  CHECK(out.imm == 64);
  CHECK(l.ops[out.operands[0]].size == 16);
  for (const Op& op : l.ops)
    if (op.kind == OpKind::Store) {
      const Op& data = l.ops[op.operands[1]];
      REQUIRE(data.kind == OpKind::Concat);
      REQUIRE(data.operands.size() == 4);
      CHECK(l.ops[data.operands[0]].imm == 96); // x3
      CHECK(l.ops[data.operands[3]].imm == 0);  // x0
    }
}

TEST_CASE("wide accesses: what keeps accesses apart") {
  // Loads of elements 4i + k for k in `ks`, under predicate p for those in `predicated`, with
  // `between` built after the first load.
  auto build = [](std::vector<uint64_t> ks, std::vector<bool> predicated, auto&& between) {
    Unrolled u;
    const ValueId p = u.b.liveIn(1, "p");
    std::vector<ValueId> loads;
    for (size_t j = 0; j < ks.size(); ++j) {
      loads.push_back(u.b.load(0, u.element(ks[j]), 4, "x"));
      if (predicated[j]) u.b.loop.ops[loads.back()].operands[1] = p;
      if (j == 0) between(u);
    }
    u.b.loop.liveOuts = loads;
    return kernelOf(u.b, 3);
  };
  auto nothing = [](Unrolled&) {};
  auto widened = [](ir::Kernel k) { return ir::lower::widenAccesses(k) ? k.datapath.widenedAccesses : 0u; };
  const std::vector<bool> none(4, false);
  CHECK(widened(build({0, 1, 2, 3}, none, nothing)) == 4);
  CHECK(widened(build({3, 1, 0, 2}, none, nothing)) == 4); // any order in the body
  CHECK(widened(build({0, 1}, {false, false}, nothing)) == 2);
  CHECK(widened(build({1, 2, 3, 4}, none, nothing)) == 2); // 1..4: only 2, 3 are aligned to 8 bytes
  CHECK(widened(build({0, 1, 2, 3}, {false, true, false, false}, nothing)) == 2); // 2, 3 alone share one
  CHECK(widened(build({0, 1, 2, 3}, {true, true, true, true}, nothing)) == 4);
  // Stores in between: to another memory, to element 0 (already read), to element 1 (read later).
  auto store = [](uint32_t memory, uint64_t k) {
    return [=](Unrolled& u) { u.b.store(memory, u.element(k), u.b.constant(7, 32), 4); };
  };
  CHECK(widened(build({0, 1, 2, 3}, none, store(2, 1))) == 4);
  CHECK(widened(build({0, 1, 2, 3}, none, store(0, 0))) == 4);
  CHECK(widened(build({0, 1, 2, 3}, none, store(0, 1))) == 2); // 2, 3 still move past it
  // An inner loop, a task's queue after element 0: nothing moves past them (2 and 3, both after, are
  // one access).
  CHECK(widened(build({0, 1, 2, 3}, none, [](Unrolled& u) { u.b.add(OpKind::LoopCall, 0, {ir::kNone}); })) ==
        2);
  ir::Kernel q = build({0, 1, 2, 3}, none, store(2, 1));
  q.memories[2].kind = ir::Memory::Kind::Queue;
  CHECK(widened(q) == 2);
  // A volatile access anywhere: every access as written.
  ir::Kernel v = build({0, 1, 2, 3}, none, nothing);
  v.volatileAccess = true;
  CHECK(widened(v) == 0);
}

TEST_CASE("wide accesses: sums of values and strength-reduced multiplications are one T") {
  // i * 3 as written and as (i << 2) - i (the datapath optimisations' form): elements 3i and 3i + 1,
  // i a multiple of 8, so 12i is aligned to 8 bytes.
  {
    LoopBuilder b;
    const ValueId i = b.add(OpKind::Shl, 32, {b.liveIn(32, "i"), b.constant(3, 32)});
    const ValueId mul = b.add(OpKind::Mul, 32, {i, b.constant(3, 32)});
    const ValueId reduced = b.add(OpKind::Sub, 32, {b.add(OpKind::Shl, 32, {i, b.constant(2, 32)}), i});
    b.loop.liveOuts = {b.load(0, b.offset4(mul), 4, "x"),
                       b.load(0, b.offset4(b.add(OpKind::Add, 32, {reduced, b.constant(1, 32)})), 4, "y")};
    ir::Kernel k = kernelOf(b);
    REQUIRE(ir::lower::widenAccesses(k));
    CHECK(k.datapath.widenedAccesses == 2);
  }
  // A subgroup's stores o[3 * gid + k] (nd_sg_float): lane j's gid = g + (l + j), g and l multiples
  // of 8 (the work-item counters); 3 * gid as (x << 2) - x in 64 bits, the byte offset as {e[61:0],
  // 2'b0}. The 24 stores are bytes 0..95 from 12 * (g + l), 32-byte aligned: three stores of 32 bytes.
  LoopBuilder b;
  const ValueId g = b.add(OpKind::Shl, 32, {b.liveIn(32, "g"), b.constant(3, 32)});
  const ValueId l = b.add(OpKind::Shl, 32, {b.liveIn(32, "l"), b.constant(3, 32)});
  const ValueId data = b.liveIn(32, "data");
  for (uint64_t k = 0; k < 3; ++k)
    for (uint64_t j = 0; j < 8; ++j) {
      const ValueId gid = b.add(OpKind::Add, 32, {g, b.add(OpKind::Add, 32, {l, b.constant(j, 32)})});
      const ValueId x = b.add(OpKind::ZExt, 64, {gid});
      const ValueId x4 = b.add(OpKind::Concat, 64, {b.constant(0, 2), b.add(OpKind::ZExt, 62, {gid})});
      ValueId e = b.add(OpKind::Sub, 64, {x4, x});
      if (k) e = b.add(OpKind::Add, 64, {e, b.constant(k, 64)});
      const ValueId offset = b.add(OpKind::Concat, 64, {b.constant(0, 2), b.add(OpKind::Extract, 62, {e})});
      b.store(0, offset, data, 4);
    }
  ir::Kernel k = kernelOf(b);
  REQUIRE(ir::lower::widenAccesses(k));
  CHECK(k.datapath.widenedAccesses == 24);
  CHECK(k.datapath.wideAccesses == 3);
  CHECK(countOps(k.loops[0], OpKind::Store, 32) == 3);
  // g + l and g - l + 1 are different Ts: elements apart, not consecutive.
  LoopBuilder c;
  const ValueId cg = c.add(OpKind::Shl, 32, {c.liveIn(32, "g"), c.constant(3, 32)});
  const ValueId cl = c.add(OpKind::Shl, 32, {c.liveIn(32, "l"), c.constant(3, 32)});
  const ValueId diff = c.add(OpKind::Sub, 32, {cg, cl});
  c.loop.liveOuts = {c.load(0, c.offset4(c.add(OpKind::Add, 32, {cg, cl})), 4, "x"),
                     c.load(0, c.offset4(c.add(OpKind::Add, 32, {diff, c.constant(1, 32)})), 4, "y")};
  ir::Kernel apart = kernelOf(c);
  CHECK_FALSE(ir::lower::widenAccesses(apart));
}

TEST_CASE("folded additions: an unrolled body's x + 1 + 1 + 1 is x + 3") {
  LoopBuilder b;
  const ValueId i = b.liveIn(32, "i");
  const ValueId one = b.constant(1, 32);
  const ValueId a = b.add(OpKind::Add, 32, {i, one});
  const ValueId c = b.add(OpKind::Add, 32, {one, a}); // the constant first
  const ValueId d = b.add(OpKind::Sub, 32, {c, b.constant(5, 32)});
  b.loop.liveOuts = {a, c, d};
  b.loop.continueCond = b.constant(0, 1);
  ir::Kernel k = kernelOf(b);
  REQUIRE(ir::lower::optimizeDatapath(k));
  const ir::Loop& l = k.loops[0];
  CHECK(k.datapath.foldedAdds == 2);
  // Each live-out adds its constant to i itself: 1, 2 and -3.
  const std::vector<uint64_t> want = {1, 2, uint64_t(-3) & 0xffffffffu};
  for (size_t j = 0; j < 3; ++j) {
    const Op& op = l.ops[l.liveOuts[j]];
    REQUIRE(op.kind == OpKind::Add);
    CHECK(l.ops[op.operands[0]].kind == OpKind::LiveIn);
    CHECK(l.ops[op.operands[1]].imm == want[j]);
  }
}
