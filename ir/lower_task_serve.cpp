// A pipelined task's body as one loop serving its invocations (Process::served).
//
// SPV_INTEL_task_sequence's Pipelined N lets a new invocation start every N cycles. A body without
// loops of its own becomes, before loop extraction, the CFG
//
//   entry:  br serve
//   serve:  w = pop(invocations); the parameters are bit fields of w; br (always) body, exit
//   body:   the function's blocks; every return pushes its value to `results` and goes to serve
//   exit:   return (never taken: the loop runs for as long as the hardware does)
//
// which extraction if-converts into a pipelined loop like any other: the pop is an acquire (every
// access of the invocation after it), the push a release (after every access of the invocation),
// the scheduler's rules for task queues (scheduler/problem_builder.cpp). Pointer parameters become
// ports onto the caller's memories addressed with the offsets the invocation carries (the body adds
// them itself: invocations in flight together have different ones); parameters pointing into one
// memory share one port, so their accesses keep their order.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

#include "ir/lower_internal.h"

namespace spvhls::ir::lower {

namespace {

void replaceUses(Kernel& k, ValueId from, ValueId to) {
  for (Op& op : k.ops)
    for (ValueId& o : op.operands)
      if (o == from) o = to;
  for (BasicBlock& b : k.blocks)
    if (b.term.cond == from) b.term.cond = to;
}

// Moves `made`, just emitted (last in its block), to just before `before` in the same block.
void moveBefore(Kernel& k, ValueId made, ValueId before) {
  std::vector<ValueId>& ops = k.blocks[k.ops[made].block].ops;
  ops.pop_back();
  ops.insert(std::find(ops.begin(), ops.end(), before), made);
}

} // namespace

std::string serveInvocations(Kernel& k, const Process& p, const LoopForest& forest) {
  if (!forest.loops.empty())
    return fmt::format(
        "the task function has a loop of its own ({}); its invocations run one at a time (pipelining "
        "them would make that an outer loop, not built yet)",
        k.blocks[forest.loops[0].header].name);
  if (!forest.irreducible.empty()) return "the task function has irreducible control flow";
  if (!k.processes.empty()) return "the task function creates task sequences of its own";
  if (!k.functions.empty())
    return fmt::format("the task function calls {}, a shared function (--inline always inlines it)",
                       k.functions[0].name);
  for (const Memory& mem : k.memories) // (lowerTaskBodies names it as an error)
    if (mem.kind == Memory::Kind::Argument && p.argMemory.at(mem.argIndex) == kNoMemory)
      return fmt::format("no async binds its pointer parameter '{}'", mem.name);
  uint32_t argBits = 0;
  for (const Type& t : p.params)
    argBits += t.width();
  const uint32_t invBytes = std::bit_ceil(std::max(1u, (argBits + 7) / 8));
  if (invBytes > kMaxAccessBytes)
    return fmt::format("its parameters take {} bits; a pipelined task takes at most {}", argBits,
                       8 * kMaxAccessBytes);
  const uint32_t resBits = std::max(1u, k.result.width());
  const uint32_t resBytes = std::bit_ceil((resBits + 7) / 8);

  auto queue = [&](const char* name, bool results, uint32_t bytes) {
    Memory q;
    q.kind = Memory::Kind::Queue;
    q.queueOwn = true;
    q.queueResults = results;
    q.name = name;
    q.elemBytes = bytes;
    k.memories.push_back(std::move(q));
    return static_cast<uint32_t>(k.memories.size() - 1);
  };
  const uint32_t invQ = queue("invocations", false, invBytes), resQ = queue("results", true, resBytes);

  const uint32_t body = moveEntryOps(k, {OpKind::Const, OpKind::Undef});
  const uint32_t serve = static_cast<uint32_t>(k.blocks.size());
  const uint32_t exit = serve + 1;
  k.blocks.resize(exit + 1);
  const SourceLoc loc = k.blocks[body].term.loc;
  k.blocks[0].term = Terminator{Terminator::Kind::Branch, kNone, {serve}, {}, loc};
  k.blocks[serve].name = "task.serve";
  k.blocks[exit].name = "task.serve.exit";
  k.blocks[exit].term = Terminator{Terminator::Kind::Return, kNone, {}, {}, loc};

  Builder b(k.ops, &k.blocks);
  b.loc = loc;
  b.block = serve;
  const ValueId zero = b.constant(64, 0), always = b.constant(1, 1);
  Op pop;
  pop.kind = OpKind::Load;
  pop.type = Type::bits(8 * invBytes);
  pop.size = static_cast<uint8_t>(invBytes);
  pop.memory = invQ;
  pop.name = "invocation";
  pop.operands = {zero, kNone};
  const ValueId word = b.emit(std::move(pop));
  std::vector<ValueId> field;
  for (uint32_t i = 0, at = 0; i < p.params.size(); at += p.params[i].width(), ++i) {
    field.push_back(b.extract(word, at, p.params[i].width()));
    if (k.ops[field.back()].name.empty()) k.ops[field.back()].name = i < k.args.size() ? k.args[i].name : "";
  }
  k.blocks[serve].term = Terminator{Terminator::Kind::CondBranch, always, {body, exit}, {}, loc};

  // Scalar parameters: the invocation's fields.
  for (ValueId v = 0; v < k.ops.size(); ++v)
    if (k.ops[v].kind == OpKind::Arg) {
      replaceUses(k, v, field.at(k.ops[v].index));
      k.ops[v].kind = OpKind::Undef; // unused now (compaction drops it); no argument to read
    }
  // Pointer parameters: one port per caller memory, at the invocation's offset.
  std::map<uint32_t, uint32_t> portOf; // caller memory -> the body memory that is its port
  std::vector<uint32_t> remap(k.memories.size());
  for (uint32_t m = 0; m < k.memories.size(); ++m) {
    remap[m] = m;
    Memory& mem = k.memories[m];
    if (mem.kind != Memory::Kind::Argument) continue;
    const uint32_t target = p.argMemory.at(mem.argIndex);
    remap[m] = portOf.emplace(target, m).first->second;
    mem.boundTo = target;
    mem.kind = Memory::Kind::External;
  }
  const std::vector<ValueId> snapshot = [&] {
    std::vector<ValueId> all;
    for (const BasicBlock& bb : k.blocks)
      all.insert(all.end(), bb.ops.begin(), bb.ops.end());
    return all;
  }();
  for (ValueId v : snapshot) {
    const Op op = k.ops[v];
    if ((op.kind != OpKind::Load && op.kind != OpKind::Store) || op.memory == invQ || op.memory == resQ)
      continue;
    const Memory& mem = k.memories[op.memory];
    if (mem.boundTo == ~0u) continue;
    b.block = op.block;
    const size_t made = k.ops.size();
    const ValueId addr = b.binary(OpKind::Add, field.at(mem.argIndex), op.operands[0]);
    if (k.ops.size() > made) moveBefore(k, addr, v); // else an earlier access's, before this one
    k.ops[v].operands[0] = addr;
    k.ops[v].memory = remap[op.memory];
  }
  k.args.clear();

  // Every return goes to one block that pushes the result (a completion for a void task) and serves
  // the next invocation: one push per iteration, so the result queue's port does not limit the II.
  std::vector<uint32_t> returns;
  for (uint32_t bb = 0; bb < k.blocks.size(); ++bb)
    if (k.blocks[bb].term.kind == Terminator::Kind::Return && bb != exit) returns.push_back(bb);
  const uint32_t done = static_cast<uint32_t>(k.blocks.size());
  k.blocks.emplace_back();
  k.blocks[done].name = "task.serve.result";
  b.block = done;
  ValueId value = always;
  if (!k.result.isNone()) {
    Op phi;
    phi.kind = OpKind::Phi;
    phi.type = k.result;
    phi.name = "result";
    for (uint32_t bb : returns) {
      phi.operands.push_back(k.blocks[bb].term.cond);
      phi.phiBlocks.push_back(bb);
    }
    value = returns.size() == 1 ? k.blocks[returns[0]].term.cond : b.emit(std::move(phi));
  }
  for (uint32_t bb : returns)
    k.blocks[bb].term = Terminator{Terminator::Kind::Branch, kNone, {done}, {}, k.blocks[bb].term.loc};
  if (k.ops[value].width() < 8 * resBytes) value = b.resize(value, 8 * resBytes, false);
  Op push;
  push.kind = OpKind::Store;
  push.size = static_cast<uint8_t>(resBytes);
  push.memory = resQ;
  push.name = "result";
  push.operands = {zero, value, kNone};
  b.emit(std::move(push));
  k.blocks[done].term = Terminator{Terminator::Kind::Branch, kNone, {serve}, {}, loc};
  k.result = Type{};

  LoopControls controls;
  if (p.pipelined > 0) controls.ii = static_cast<uint32_t>(p.pipelined);
  LoopControlRequest r;
  r.name = "Pipelined (task sequence)";
  r.value = std::to_string(p.pipelined);
  r.status = LoopControlRequest::Status::Honoured;
  r.note = p.pipelined > 0
               ? fmt::format("the create asks for a new invocation every {} cycle(s)", p.pipelined)
               : "the compiler's choice of initiation interval";
  controls.requests.push_back(std::move(r));
  k.blocks[serve].loopControls = std::move(controls);
  return {};
}

} // namespace spvhls::ir::lower
