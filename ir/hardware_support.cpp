// checkHardwareSupport: what the IR represents but the back end cannot build yet (see ir/hls_ir.h).
// Each later feature (floating-point units, wide datapaths, nested pipelines, task sequences) removes
// its line here when its hardware exists.
#include <fmt/format.h>

#include "ir/hls_ir.h"

namespace spvhls::ir {
namespace {

constexpr uint32_t kMaxHardwareBits = 64;

bool buildable(Type t) {
  return t.isNone() || (t.isBits() && t.width() <= kMaxHardwareBits);
}

// A wide value (a vector accessed whole) only travels from its Load or Concat (or an Undef, a load that
// never runs, or an Extract: a part of a wider access) to Extracts and Stores: no operation computes
// on it.
bool wideProducer(OpKind k) {
  return k == OpKind::Load || k == OpKind::Concat || k == OpKind::Undef || k == OpKind::Extract;
}
bool wideConsumer(const Op& op, size_t operand) {
  return op.kind == OpKind::Extract || op.kind == OpKind::Concat ||
         (op.kind == OpKind::Store && operand == 1);
}

[[noreturn]] void unsupported(const SourceLoc& loc, const std::string& construct, const std::string& what) {
  throw DiagnosticError(loc, construct, what + " is not supported yet by the hardware generator");
}

std::string opConstruct(const Op& op) {
  return op.name.empty() ? opKindName(op.kind) : fmt::format("{} %{}", opKindName(op.kind), op.name);
}

void checkOps(const std::vector<Op>& ops) {
  for (const Op& op : ops) {
    const bool wide = op.type.isBits() && op.type.width() <= 8 * kMaxAccessBytes && wideProducer(op.kind);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const ValueId o = op.operands[i];
      if (o != kNone && o < ops.size() && ops[o].width() > kMaxHardwareBits && !wideConsumer(op, i))
        unsupported(
            op.loc, opConstruct(op),
            fmt::format("an operation on a {}-bit value (only wide loads and stores are)", ops[o].width()));
    }
    if (!wide && !buildable(op.type))
      unsupported(op.loc, opConstruct(op),
                  fmt::format("a value of type {} (hardware builds bits of 1..{})", typeName(op.type),
                              kMaxHardwareBits));
  }
}

} // namespace

void checkHardwareSupport(const Kernel& k) {
  for (const KernelArg& a : k.args)
    if (!buildable(a.type))
      unsupported(k.loc, "kernel argument " + a.name,
                  fmt::format("an argument of type {}", typeName(a.type)));
  for (const Memory& m : k.memories) {
    if (m.wordBits < kMaxHardwareBits || m.wordBits > 8 * kMaxAccessBytes)
      unsupported(
          k.loc, "memory " + m.name,
          fmt::format("a memory port of {} bits (ports carry 64 to {})", m.wordBits, 8 * kMaxAccessBytes));
  }
  checkOps(k.ops);
  for (const Loop& lp : k.loops) {
    checkOps(lp.ops);
    for (const LoopPhi& p : lp.phis)
      if (!buildable(p.type))
        unsupported(lp.loc, "loop " + lp.name,
                    fmt::format("a loop-carried value of type {}", typeName(p.type)));
  }
  // Task processes are built from their bodies, each checked as a kernel where it is scheduled; their
  // channels are FIFOs of bits of any width.
}

} // namespace spvhls::ir
