// Golden interpreter: SPV_INTEL_subgroups shuffles and buffer block reads/writes, executed once for a
// whole subgroup after every work-item of it has stopped at the instruction (interp_ndrange.cpp).
//
// Out-of-range shuffle indices have undefined results in the extension; the interpreter reports them
// as errors, as it does for an index naming an invocation that a partial (last) subgroup lacks. Block
// reads/writes require the same pointer in every invocation (cl_intel_subgroups) and access
// Ptr[SubgroupLocalInvocationId + k * SubgroupMaxSize] for component k.
#include <cstring>

#include <fmt/format.h>

#include "sim/interp_block2d.h"
#include "sim/interp_exec.h"

namespace spvhls::sim::interp {

void Executor::subgroup(const std::vector<WorkItem*>& items, uint64_t maxSize) {
  const DInst& in = stoppedAt(*items.front());
  if (isBlock2D(in.op)) return block2d(items, maxSize);
  const uint64_t size = items.size();
  std::vector<uint64_t*> regs;
  for (WorkItem* wi : items) regs.push_back(wi->values.data() + wi->frames.back().base);

  // Source invocation `src` for invocation `k`, checked against the subgroup.
  auto source = [&](uint64_t k, int64_t src, const char* what) {
    if (src < 0 || static_cast<uint64_t>(src) >= maxSize)
      fail(in, fmt::format("invocation {}: {} {} is out of range for SubgroupMaxSize {} (undefined)", k, what, src, maxSize));
    if (static_cast<uint64_t>(src) >= size)
      fail(in, fmt::format("invocation {}: {} {} names an invocation this subgroup of {} does not have", k, what, src, size));
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
      uint64_t s = in.op == X::SgShuffle ? source(k, static_cast<int64_t>(v), "InvocationId")
                                         : source(k, static_cast<int64_t>(k ^ v), "SubgroupLocalInvocationId XOR Value =");
      for (uint32_t i = 0; i < in.n; ++i) out[k * in.n + i] = regs[s][in.a + i];
    }
    break;
  case X::SgShuffleDown:
    for (uint64_t k = 0; k < size; ++k) {
      uint64_t s = k + (regs[k][in.c] & 0xffffffffu); // unsigned shuffle index
      if (s >= 2 * maxSize)
        fail(in, fmt::format("invocation {}: shuffle index {} (id + Delta) is out of range: not below twice SubgroupMaxSize {} (undefined)",
                             k, s, maxSize));
      bool next = s >= maxSize;
      uint64_t j = source(k, static_cast<int64_t>(next ? s - maxSize : s), next ? "Next index" : "Current index");
      for (uint32_t i = 0; i < in.n; ++i) out[k * in.n + i] = regs[j][(next ? in.b : in.a) + i];
    }
    break;
  case X::SgShuffleUp:
    for (uint64_t k = 0; k < size; ++k) {
      int64_t s = static_cast<int64_t>(k) - static_cast<int64_t>(regs[k][in.c] & 0xffffffffu); // signed shuffle index
      if (s < -static_cast<int64_t>(maxSize))
        fail(in, fmt::format("invocation {}: shuffle index {} (id - Delta) is out of range: below -SubgroupMaxSize {} (undefined)",
                             k, s, maxSize));
      bool prev = s < 0;
      uint64_t j = source(k, prev ? s + static_cast<int64_t>(maxSize) : s, prev ? "Previous index" : "Current index");
      for (uint32_t i = 0; i < in.n; ++i) out[k * in.n + i] = regs[j][(prev ? in.a : in.b) + i];
    }
    break;
  case X::SgBlockRead:
  case X::SgBlockWrite: {
    bool write = in.op == X::SgBlockWrite;
    uint64_t ptr = regs[0][in.a];
    for (uint64_t k = 1; k < size; ++k)
      if (regs[k][in.a] != ptr)
        fail(in, fmt::format("Ptr differs between invocations 0 and {} of the subgroup (block {} needs one pointer for the subgroup)",
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
  default: fail(in, "internal error: not a subgroup instruction");
  }
  for (uint64_t k = 0; k < size; ++k)
    for (uint32_t i = 0; i < in.n; ++i) regs[k][in.dst + i] = out[k * in.n + i];
}

} // namespace spvhls::sim::interp
