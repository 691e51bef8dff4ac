// Golden interpreter: SPV_INTEL_subgroups shuffles and buffer block reads/writes, and the core group
// instructions (OpGroupAll, Any, Broadcast, IAdd ... SMax) at Subgroup scope, executed once for a
// whole subgroup after every work-item of it has stopped at the instruction (interp_ndrange.cpp); the
// group instructions at Workgroup scope likewise for the whole work-group (Executor::workgroup).
//
// Out-of-range shuffle indices have undefined results in the extension; the interpreter reports them
// as errors, as it does for an index naming an invocation that a partial (last) subgroup lacks. Block
// reads/writes require the same pointer in every invocation (cl_intel_subgroups) and access
// Ptr[SubgroupLocalInvocationId + k * SubgroupMaxSize] for component k.
#include <algorithm>
#include <array>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/interp_block2d.h"
#include "sim/interp_exec.h"

namespace spvhls::sim::interp {

// The core group instructions over `items` in local order (a subgroup's, or a work-group's). Broadcast's LocalId names the source: the subgroup local id
// (Subgroup scope) or the local id, components beyond LocalId's being 0 (Workgroup scope); it must be
// the same in every invocation and name one of them. The arithmetic runs in local order, every step
// rounded (floats) or wrapped (integers); an exclusive scan starts from the operation's identity.
void Executor::collective(const DInst& in, const std::vector<WorkItem*>& items) {
  const std::vector<uint64_t*> regs = registersOf(items);
  const size_t size = items.size();
  std::vector<uint64_t> out(size * in.n);
  switch (in.op) {
  case X::GroupAll:
  case X::GroupAny: {
    bool all = true, any = false;
    for (uint64_t* r : regs)
      all = all && (r[in.a] & 1), any = any || (r[in.a] & 1);
    std::fill(out.begin(), out.end(), in.op == X::GroupAll ? all : any);
    break;
  }
  case X::GroupElect:
    out[0] = 1; // the first invocation (all are active: uniform control flow)
    break;
  case X::GroupAllEqual: {
    bool equal = true;
    for (size_t k = 1; k < size; ++k)
      for (uint32_t i = 0; i < in.n; ++i)
        equal = equal && regs[k][in.a + i] == regs[0][in.a + i];
    for (size_t k = 0; k < size; ++k)
      regs[k][in.dst] = equal; // one bool, while n counts the compared value's slots
    return;
  }
  case X::GroupBroadcast: {
    std::array<uint64_t, 3> id{}; // w2 = 0: BroadcastFirst, from invocation 0
    for (uint32_t c = 0; c < in.w2; ++c)
      id[c] = regs[0][in.b + c] & widthMask(in.w);
    for (size_t k = 1; k < size; ++k)
      for (uint32_t c = 0; c < in.w2; ++c)
        if ((regs[k][in.b + c] & widthMask(in.w)) != id[c])
          fail(in, fmt::format("LocalId differs between invocations 0 and {} of the {} (undefined)", k,
                               atSubgroupScope(in) ? "subgroup" : "work-group"));
    size_t from = size;
    for (size_t k = 0; k < size && from == size; ++k)
      if (atSubgroupScope(in) ? id[0] == k : items[k]->localId == id) from = k;
    if (from == size)
      fail(in, fmt::format("LocalId ({}) names no invocation of this {} of {} (undefined)",
                           fmt::join(std::vector<uint64_t>(id.begin(), id.begin() + in.w2), ", "),
                           atSubgroupScope(in) ? "subgroup" : "work-group", size));
    for (size_t k = 0; k < size; ++k)
      for (uint32_t i = 0; i < in.n; ++i)
        out[k * in.n + i] = regs[from][in.a + i];
    break;
  }
  case X::GroupArith: {
    const GroupArith a = GroupArith(in.w2);
    const unsigned w = in.w;
    const uint64_t mask = widthMask(w), signBit = uint64_t(1) << (w - 1);
    auto sext = [&](uint64_t v) { return int64_t(v << (64 - w)) >> (64 - w); };
    auto floatOp = [&](X op, uint64_t x, uint64_t y) {
      uint64_t r[3] = {x, y, 0};
      DInst d{op};
      d.w = uint8_t(w);
      d.a = 0, d.b = 1, d.dst = 2;
      floatInst(d, r);
      return r[2];
    };
    auto step = [&](uint64_t x, uint64_t y) -> uint64_t {
      switch (a) {
      case GroupArith::IAdd:
        return (x + y) & mask;
      case GroupArith::UMin:
        return std::min(x & mask, y & mask);
      case GroupArith::UMax:
        return std::max(x & mask, y & mask);
      case GroupArith::SMin:
        return sext(x) <= sext(y) ? x & mask : y & mask;
      case GroupArith::SMax:
        return sext(x) >= sext(y) ? x & mask : y & mask;
      case GroupArith::FAdd:
        return floatOp(X::FAdd, x, y);
      case GroupArith::FMin:
        return floatOp(X::Fmin, x, y);
      case GroupArith::FMax:
        return floatOp(X::Fmax, x, y);
      case GroupArith::IMul:
        return (x * y) & mask;
      case GroupArith::FMul:
        return floatOp(X::FMul, x, y);
      case GroupArith::BitwiseAnd:
      case GroupArith::LogicalAnd:
        return x & y & mask;
      case GroupArith::BitwiseOr:
      case GroupArith::LogicalOr:
        return (x | y) & mask;
      case GroupArith::BitwiseXor:
      case GroupArith::LogicalXor:
        return (x ^ y) & mask;
      }
      return 0;
    };
    // Identities: 0; all ones (UMin, BitwiseAnd); the largest / smallest signed; +0.0; +inf (FMin),
    // -inf (FMax); 1 (IMul, LogicalAnd), 1.0 (FMul).
    const uint64_t inf = w == 16 ? 0x7c00 : w == 32 ? 0x7f800000 : 0x7ff0000000000000;
    const uint64_t one = w == 16 ? 0x3c00 : w == 32 ? 0x3f800000 : 0x3ff0000000000000;
    uint64_t acc = 0;
    if (a == GroupArith::UMin || a == GroupArith::BitwiseAnd) acc = mask;
    if (a == GroupArith::SMin) acc = mask >> 1;
    if (a == GroupArith::SMax) acc = signBit;
    if (a == GroupArith::FMin) acc = inf;
    if (a == GroupArith::FMax) acc = inf | signBit;
    if (a == GroupArith::IMul || a == GroupArith::LogicalAnd) acc = 1;
    if (a == GroupArith::FMul) acc = one;
    for (size_t k = 0; k < size; ++k) {
      const uint64_t before = acc;
      acc = k == 0 ? regs[k][in.a] & mask : step(acc, regs[k][in.a]); // from the first, in local order
      out[k] = in.b == 2 ? before : acc;                              // exclusive: what came before
    }
    if (in.b == 0) std::fill(out.begin(), out.end(), acc); // reduce
    break;
  }
  default:
    fail(in, "internal error: not a group instruction");
  }
  for (size_t k = 0; k < size; ++k)
    for (uint32_t i = 0; i < in.n; ++i)
      regs[k][in.dst + i] = out[k * in.n + i];
}

void Executor::workgroup(const std::vector<WorkItem*>& items) { collective(stoppedAt(*items.front()), items); }

void Executor::subgroup(const std::vector<WorkItem*>& items, uint64_t maxSize) {
  const DInst& in = stoppedAt(*items.front());
  if (isBlock2D(in.op)) return block2d(items, maxSize);
  if (isGroupOp(in.op)) return collective(in, items);
  const uint64_t size = items.size();
  const std::vector<uint64_t*> regs = registersOf(items);

  // Source invocation `src` for invocation `k`, checked against the subgroup.
  auto source = [&](uint64_t k, int64_t src, const char* what) {
    if (src < 0 || static_cast<uint64_t>(src) >= maxSize)
      fail(in, fmt::format("invocation {}: {} {} is out of range for SubgroupMaxSize {} (undefined)", k, what,
                           src, maxSize));
    if (static_cast<uint64_t>(src) >= size)
      fail(in, fmt::format("invocation {}: {} {} names an invocation this subgroup of {} does not have", k,
                           what, src, size));
    return static_cast<uint64_t>(src);
  };
  // Results are computed for all invocations before any is written (a result never aliases an
  // operand in SSA, but keep the shuffle obviously simultaneous).
  std::vector<uint64_t> out(size * in.n);
  switch (in.op) {
  case X::SgShuffle:
  case X::SgShuffleXor:
    for (uint64_t k = 0; k < size; ++k) {
      uint64_t v = regs[k][in.b] & 0xffffffffu;
      uint64_t s = in.op == X::SgShuffle
                       ? source(k, static_cast<int64_t>(v), "InvocationId")
                       : source(k, static_cast<int64_t>(k ^ v), "SubgroupLocalInvocationId XOR Value =");
      for (uint32_t i = 0; i < in.n; ++i)
        out[k * in.n + i] = regs[s][in.a + i];
    }
    break;
  case X::SgShuffleDown:
    for (uint64_t k = 0; k < size; ++k) {
      uint64_t s = k + (regs[k][in.c] & 0xffffffffu); // unsigned shuffle index
      if (s >= 2 * maxSize)
        fail(in, fmt::format("invocation {}: shuffle index {} (id + Delta) is out of range: not below twice "
                             "SubgroupMaxSize {} (undefined)",
                             k, s, maxSize));
      bool next = s >= maxSize;
      uint64_t j =
          source(k, static_cast<int64_t>(next ? s - maxSize : s), next ? "Next index" : "Current index");
      for (uint32_t i = 0; i < in.n; ++i)
        out[k * in.n + i] = regs[j][(next ? in.b : in.a) + i];
    }
    break;
  case X::SgShuffleUp:
    for (uint64_t k = 0; k < size; ++k) {
      int64_t s =
          static_cast<int64_t>(k) - static_cast<int64_t>(regs[k][in.c] & 0xffffffffu); // signed shuffle index
      if (s < -static_cast<int64_t>(maxSize))
        fail(in, fmt::format("invocation {}: shuffle index {} (id - Delta) is out of range: below "
                             "-SubgroupMaxSize {} (undefined)",
                             k, s, maxSize));
      bool prev = s < 0;
      uint64_t j =
          source(k, prev ? s + static_cast<int64_t>(maxSize) : s, prev ? "Previous index" : "Current index");
      for (uint32_t i = 0; i < in.n; ++i)
        out[k * in.n + i] = regs[j][(prev ? in.a : in.b) + i];
    }
    break;
  case X::SgBlockRead:
  case X::SgBlockWrite: {
    bool write = in.op == X::SgBlockWrite;
    uint64_t ptr = regs[0][in.a];
    for (uint64_t k = 1; k < size; ++k)
      if (regs[k][in.a] != ptr)
        fail(in, fmt::format("Ptr differs between invocations 0 and {} of the subgroup (block {} needs one "
                             "pointer for the subgroup)",
                             k, write ? "writes" : "reads"));
    for (uint64_t k = 0; k < size; ++k)
      for (uint32_t i = 0; i < in.n; ++i) {
        uint64_t elem = k + i * maxSize, addr = ptr + elem * in.w2;
        MemObject& o = access(*items[k], addr, in.w2, in, write ? "block write" : "block read", write);
        const uint64_t off = byteOffset(addr);
        if (write) {
          uint64_t v = regs[k][in.b + i];
          std::memcpy(o.bytes.data() + off, &v, in.w2);
          markDefined(o, off, in.w2);
        } else {
          uint64_t v = 0;
          checkDefined(o, off, in.w2, in);
          std::memcpy(&v, o.bytes.data() + off, in.w2);
          out[k * in.n + i] = v & widthMask(in.w);
        }
      }
    if (write) return;
    break;
  }
  default:
    fail(in, "internal error: not a subgroup instruction");
  }
  for (uint64_t k = 0; k < size; ++k)
    for (uint32_t i = 0; i < in.n; ++i)
      regs[k][in.dst + i] = out[k * in.n + i];
}

} // namespace spvhls::sim::interp
