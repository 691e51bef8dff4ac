// ND-range kernels: the work-item built-ins as WorkItem ops (translation), and the loop that runs the
// kernel's body once per work-item (streamWorkItems, before loop extraction).
//
// The hardware streams work-items through one pipeline, the way FPGA flows build ND-range kernels:
//
//   entry:         the kernel's arguments, then br workitem
//   workitem:      phis: local ids l0..l2, group bases g0..g2 (group id x local size), group ids
//                  w0..w2; the built-ins the body reads, from them; br body
//   body:          the kernel's blocks; every return goes to workitem.next
//   workitem.next: the next work-item's counters; br (the last one) exit, workitem
//   exit:          return
//
// Work-items run in the interpreter's order (docs/interpreter.md): work-groups one after another,
// dimension 0 fastest, and in a group the local ids in linear order. The ND-range's sizes are
// arguments of the generated module (kNdRangeArgs). Work-items do not see each other's accesses to
// global memory without a barrier (OpenCL's memory model), so the loop carries no dependence through
// those memories; private memories (one per work-item in the source, one RAM shared by the
// work-items in flight here) keep theirs.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>

#include "frontend/grammar.h"
#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace bi = spirv::spv::BuiltIn;

namespace {

const char* shortName(uint32_t builtin) {
  switch (builtin) {
  case bi::GlobalInvocationId:
    return "global_id";
  case bi::LocalInvocationId:
    return "local_id";
  case bi::WorkgroupId:
    return "group_id";
  case bi::GlobalSize:
    return "global_size";
  case bi::WorkgroupSize:
    return "local_size";
  case bi::EnqueuedWorkgroupSize:
    return "enqueued_local_size";
  case bi::NumWorkgroups:
    return "num_groups";
  case bi::GlobalOffset:
    return "global_offset";
  case bi::WorkDim:
    return "work_dim";
  case bi::GlobalLinearId:
    return "global_linear_id";
  case bi::LocalInvocationIndex:
    return "local_linear_id";
  case bi::SubgroupSize:
    return "sub_group_size";
  case bi::SubgroupMaxSize:
    return "max_sub_group_size";
  case bi::NumSubgroups:
    return "num_sub_groups";
  case bi::NumEnqueuedSubgroups:
    return "enqueued_num_sub_groups";
  case bi::SubgroupId:
    return "sub_group_id";
  case bi::SubgroupLocalInvocationId:
    return "sub_group_local_id";
  default:
    return nullptr; // not built in hardware
  }
}

std::string builtinName(uint32_t builtin) {
  return spirv::grammar::enumName(spirv::OperandKind::BuiltIn, builtin);
}

} // namespace

bool isSubgroupBuiltin(uint32_t builtin) {
  return builtin == bi::SubgroupSize || builtin == bi::SubgroupMaxSize || builtin == bi::NumSubgroups ||
         builtin == bi::NumEnqueuedSubgroups || builtin == bi::SubgroupId ||
         builtin == bi::SubgroupLocalInvocationId;
}

std::optional<uint32_t> Translator::builtinOf(Id var) const {
  auto it = c_.mv.decorations.find(var);
  if (it == c_.mv.decorations.end()) return std::nullopt;
  for (const auto& dec : it->second)
    if (dec.kind == spirv::spv::Decoration::BuiltIn && !dec.literals.empty()) return dec.literals[0];
  return std::nullopt;
}

bool Translator::translateBuiltin(const LInst& in) {
  auto rootOf = [&](Id p) -> std::optional<std::pair<uint32_t, int>> {
    if (auto it = builtinPtrs_.find(p); it != builtinPtrs_.end()) return it->second;
    if (auto b = builtinOf(p)) return std::pair<uint32_t, int>{*b, -1};
    return std::nullopt;
  };
  auto constantIndex = [&](Id id) -> std::optional<uint64_t> {
    const spirv::Constant* k = c_.mv.findConstant(id);
    if (!k || k->isUndef || k->expr || !k->constituents.empty()) return std::nullopt;
    return k->bits;
  };
  switch (in.op) {
  case SpvOp::OpAccessChain:
  case SpvOp::OpInBoundsAccessChain:
  case SpvOp::OpPtrAccessChain:
  case SpvOp::OpInBoundsPtrAccessChain: {
    auto r = rootOf(in.ids.at(0));
    if (!r) return false;
    std::vector<Id> idx(in.ids.begin() + 1, in.ids.end());
    if (in.op == SpvOp::OpPtrAccessChain || in.op == SpvOp::OpInBoundsPtrAccessChain) {
      if (idx.empty() || constantIndex(idx[0]) != 0u)
        c_.failAt(in, fmt::format("steps off built-in {}; expected element 0", builtinName(r->first)));
      idx.erase(idx.begin());
    }
    if (!idx.empty()) {
      const auto comp = constantIndex(idx[0]);
      if (idx.size() != 1 || r->second >= 0 || !comp || *comp > 2)
        c_.failAt(in, fmt::format("selects a component of built-in {} other than by a constant 0, 1 or 2; "
                                  "that is not supported in hardware",
                                  builtinName(r->first)));
      r->second = static_cast<int>(*comp);
    }
    builtinPtrs_[in.result] = *r;
    return true;
  }
  case SpvOp::OpPtrCastToGeneric:
  case SpvOp::OpGenericCastToPtr:
  case SpvOp::OpCopyObject:
  case SpvOp::OpBitcast: {
    auto r = rootOf(in.ids.at(0));
    if (!r) return false;
    builtinPtrs_[in.result] = *r;
    return true;
  }
  case SpvOp::OpLoad: {
    auto r = rootOf(in.ids.at(0));
    if (!r) return false;
    const uint32_t builtin = r->first;
    const char* name = shortName(builtin);
    if (!name)
      c_.failAt(in,
                fmt::format("reads built-in {}, which an OpenCL kernel does not have", builtinName(builtin)));
    auto workItem = [&](uint32_t comp, Id type) {
      Op op;
      op.kind = OpKind::WorkItem;
      op.type = Type::bits(widthOf(type, in));
      op.index = builtin;
      op.imm = comp;
      op.name = fmt::format("{}{}", name, comp);
      return b_.emit(std::move(op));
    };
    if (const spirv::Type* vt = vectorType(in.type); vt && r->second < 0) {
      const std::vector<Id>& lanes = lanesFor(in.result, in);
      if (lanes.size() > 3) c_.failAt(in, fmt::format("loads {} components of a built-in", lanes.size()));
      for (uint32_t i = 0; i < lanes.size(); ++i)
        vals_[lanes[i]] = workItem(i, vt->elem);
    } else {
      vals_[in.result] = workItem(static_cast<uint32_t>(std::max(0, r->second)), in.type);
    }
    return true;
  }
  default:
    for (Id id : in.ids)
      if (auto r = rootOf(id))
        c_.failAt(in,
                  fmt::format("uses built-in {} other than by loading it; that is not supported in hardware",
                              builtinName(r->first)));
    return false;
  }
}

bool hasWorkItems(const Kernel& k) {
  return std::any_of(k.ops.begin(), k.ops.end(), [](const Op& op) { return op.kind == OpKind::WorkItem; });
}

NdRange beginNdRange(Kernel& k, Builder& b, uint32_t lanes) {
  NdRange nd;
  nd.lanes = lanes;
  // The ND-range's sizes, arguments after the kernel's own.
  const char* names[kNdRangeArgs] = {"global_size_0", "global_size_1", "global_size_2", "local_size_0",
                                     "local_size_1",  "local_size_2",  "work_dim"};
  b.block = 0;
  for (uint32_t i = 0; i < kNdRangeArgs; ++i) {
    KernelArg arg;
    arg.name = names[i];
    arg.type = Type::bits(32);
    k.args.push_back(arg);
    Op op;
    op.kind = OpKind::Arg;
    op.type = arg.type;
    op.index = static_cast<uint32_t>(k.args.size() - 1);
    op.name = arg.name;
    nd.size[i] = b.emit(std::move(op));
  }
  nd.body = moveEntryOps(k, {OpKind::Const, OpKind::Undef, OpKind::Arg});
  // Loop-invariant values, in the entry block: the last local id and the last group base per
  // dimension (global size less local size), so that the counters compare their current value.
  // With subgroups (`lanes` > 1) dimension 0 steps a subgroup at a time.
  nd.zero = b.constant(32, 0);
  nd.one = b.constant(32, 1);
  nd.laneCount = b.constant(32, lanes);
  // The hardware runs whole subgroups along dimension 0 (spvhls sim rejects other local sizes), and
  // a local size divides its global size, so both sizes' low bits are zero: said here, they make lane
  // 0's work-item ids provably multiples of the lanes, and the lanes' accesses to consecutive elements
  // one aligned wide access (lower_subgroups.cpp).
  if (lanes > 1)
    for (int d : {0, 3})
      nd.size[d] = b.binary(OpKind::And, nd.size[d], b.constant(32, ~uint64_t(lanes - 1) & 0xffffffffu));
  for (int d = 0; d < 3; ++d) {
    nd.lastLocal[d] = b.binary(OpKind::Sub, nd.size[3 + d], d == 0 ? nd.laneCount : nd.one);
    nd.lastBase[d] = b.binary(OpKind::Sub, nd.size[d], nd.size[3 + d]);
  }
  return nd;
}

std::array<ValueId, 3> counterPhis(Builder& b, uint32_t header, const std::string& name) {
  std::array<ValueId, 3> phis{};
  b.block = header;
  for (int d = 0; d < 3; ++d)
    phis[d] = b.phi(Type::bits(32), fmt::format("{}{}", name, d));
  return phis;
}

void addPhiEntry(Kernel& k, ValueId phi, uint32_t from, ValueId value) {
  k.ops[phi].operands.push_back(value);
  k.ops[phi].phiBlocks.push_back(from);
}

void closeCounters(Kernel& k, const NdRange& nd, const std::array<ValueId, 3>& phis, uint32_t entry,
                   uint32_t latch, const std::array<ValueId, 3>& next) {
  for (int d = 0; d < 3; ++d) {
    addPhiEntry(k, phis[d], entry, nd.zero);
    addPhiEntry(k, phis[d], latch, next[d]);
  }
}

// The next work-item: dimension 0 of the local id always steps (with `carry` kNone); a counter steps
// when every one before it wraps (`carry`); the last one is where all of them wrap. A counter's
// recurrence is one comparison (of the counter and the carry together: carry && counter == last)
// and one multiplexer, so the loop's II is 2 with every result registered, 1 with chaining.
namespace {
ValueId wrapsNow(Builder& b, ValueId carry, ValueId counter, ValueId last) {
  return carry == kNone
             ? b.binary(OpKind::Eq, counter, last)
             : b.binary(OpKind::Eq, b.concat({carry, counter}), b.concat({b.constant(1, 1), last}));
}
ValueId stepBy(Builder& b, const NdRange& nd, ValueId carry, ValueId by) {
  return carry == kNone ? by : b.select(carry, by, nd.zero);
}
} // namespace

ValueId stepLocalIds(Builder& b, const NdRange& nd, const std::array<ValueId, 3>& local, ValueId carry,
                     std::array<ValueId, 3>& next) {
  for (int d = 0; d < 3; ++d) {
    const ValueId wraps = wrapsNow(b, carry, local[d], nd.lastLocal[d]);
    next[d] = b.select(wraps, nd.zero,
                       b.binary(OpKind::Add, local[d], stepBy(b, nd, carry, d == 0 ? nd.laneCount : nd.one)));
    carry = wraps;
  }
  return carry;
}

ValueId stepGroups(Builder& b, const NdRange& nd, const std::array<ValueId, 3>& base,
                   const std::array<ValueId, 3>& group, ValueId carry, std::array<ValueId, 3>& nextBase,
                   std::array<ValueId, 3>& nextGroup) {
  for (int d = 0; d < 3; ++d) {
    const ValueId wraps = wrapsNow(b, carry, base[d], nd.lastBase[d]);
    nextBase[d] =
        b.select(wraps, nd.zero, b.binary(OpKind::Add, base[d], stepBy(b, nd, carry, nd.size[3 + d])));
    nextGroup[d] = b.select(wraps, nd.zero, b.binary(OpKind::Add, group[d], stepBy(b, nd, carry, nd.one)));
    carry = wraps;
  }
  return carry;
}

void replaceWorkItems(Kernel& k, Builder& b, const NdRange& nd, const WorkItemIds& ids, uint32_t block,
                      const std::vector<uint32_t>& blocks) {
  b.block = block;
  // A subgroup's lanes differ in dimension 0 of the local id only (its local size is a multiple of
  // the lanes); the lane's index is a Lane op until the lanes are built (lower_subgroups.cpp).
  ValueId lane = nd.zero;
  std::array<ValueId, 3> local = ids.local;
  const ValueId counter0 = local[0];
  if (nd.lanes > 1) {
    lane = b.emit(laneOp());
    local[0] = b.binary(OpKind::Add, counter0, lane);
  }
  std::array<ValueId, 3> global{};
  for (int d = 0; d < 3; ++d)
    global[d] = b.binary(OpKind::Add, ids.base[d], local[d]);
  const uint32_t laneBits = static_cast<uint32_t>(std::countr_zero(nd.lanes));
  auto inEntry = [&](auto make) { // once, before the work-items
    const uint32_t saved = b.block;
    b.block = 0;
    const ValueId v = make();
    b.block = saved;
    return v;
  };
  const auto& size = nd.size;
  // Subgroups per work-group row (dimension 0) and per work-group.
  auto rowSubgroups = [&] { return b.binary(OpKind::LShr, size[3], b.constant(32, laneBits)); };
  auto linear = [&](const std::array<ValueId, 3>& id, ValueId sx, ValueId sy) {
    return b.binary(
        OpKind::Add, id[0],
        b.binary(OpKind::Mul, b.binary(OpKind::Add, id[1], b.binary(OpKind::Mul, id[2], sy)), sx));
  };
  auto valueOf = [&](const Op& op) -> ValueId {
    const uint32_t d = static_cast<uint32_t>(op.imm);
    switch (op.index) {
    case bi::GlobalInvocationId:
      return global[d];
    case bi::LocalInvocationId:
      return local[d];
    case bi::WorkgroupId:
      return ids.group[d];
    case bi::GlobalSize:
      return size[d];
    case bi::WorkgroupSize:
    case bi::EnqueuedWorkgroupSize:
      return size[3 + d];
    case bi::NumWorkgroups:
      return inEntry([&] { return b.binary(OpKind::UDiv, size[d], size[3 + d]); });
    case bi::SubgroupSize:
    case bi::SubgroupMaxSize:
      return nd.laneCount;
    case bi::NumSubgroups:
    case bi::NumEnqueuedSubgroups:
      return inEntry(
          [&] { return b.binary(OpKind::Mul, b.binary(OpKind::Mul, rowSubgroups(), size[4]), size[5]); });
    case bi::SubgroupLocalInvocationId:
      return lane;
    case bi::SubgroupId: {
      const ValueId row = inEntry(rowSubgroups);
      const ValueId inRow = b.binary(OpKind::LShr, counter0, b.constant(32, laneBits));
      return b.binary(OpKind::Add, inRow,
                      b.binary(OpKind::Mul,
                               b.binary(OpKind::Add, local[1], b.binary(OpKind::Mul, local[2], size[4])),
                               row));
    }
    case bi::GlobalOffset:
      return nd.zero;
    case bi::WorkDim:
      return size[6];
    case bi::GlobalLinearId:
      return linear(global, size[0], size[1]);
    case bi::LocalInvocationIndex:
      return linear(local, size[3], size[4]);
    default:
      throw InternalError(op.loc, "built-in " + builtinName(op.index), "not a work-item built-in");
    }
  };
  // Each built-in once, in `block`, where the blocks read it.
  std::map<std::pair<uint32_t, uint64_t>, ValueId> made;
  std::map<std::pair<ValueId, uint32_t>, ValueId> resized;
  auto replace = [&](ValueId& o) {
    if (o >= k.ops.size() || k.ops[o].kind != OpKind::WorkItem) return;
    const Op op = k.ops[o];
    auto [it, fresh] = made.emplace(std::pair{op.index, op.imm}, kNone);
    if (fresh) it->second = valueOf(op);
    auto [r, first] = resized.emplace(std::pair{it->second, op.width()}, kNone);
    if (first) r->second = b.resize(it->second, op.width(), false);
    o = r->second;
  };
  for (uint32_t bb : blocks) {
    for (size_t i = 0; i < k.blocks[bb].ops.size(); ++i) {
      const ValueId v = k.blocks[bb].ops[i];
      for (size_t j = 0; j < k.ops[v].operands.size(); ++j) {
        ValueId o = k.ops[v].operands[j];
        replace(o); // may grow k.ops
        k.ops[v].operands[j] = o;
      }
    }
    ValueId cond = k.blocks[bb].term.cond;
    replace(cond);
    k.blocks[bb].term.cond = cond;
  }
}

void retireWorkItemOps(Kernel& k) {
  for (Op& op : k.ops)
    if (op.kind == OpKind::WorkItem) op.kind = OpKind::Undef; // unused now (compaction drops it)
}

LoopControls workItemControls(const Kernel& k, uint32_t lanes, const std::vector<uint8_t>& alsoFree) {
  // No dependence between work-items through memories they share (arguments, program-scope
  // globals, local memory: none without a barrier, in OpenCL) or through the slices each work-item
  // owns (`alsoFree`); private arrays keep theirs.
  LoopControls controls;
  std::string shared, own;
  for (uint32_t m = 0; m < k.memories.size(); ++m) {
    const Memory& mem = k.memories[m];
    const bool slices = m < alsoFree.size() && alsoFree[m];
    const bool local = mem.kind == Memory::Kind::WorkGroup && !mem.collective;
    if (!slices && mem.kind != Memory::Kind::Argument && !local && !mem.persistent) continue;
    controls.memoryDependenceDistance.emplace_back(m, 0);
    std::string& list = slices ? own : shared;
    list += (list.empty() ? "" : ", ") + mem.name;
  }
  LoopControlRequest r;
  r.name = "ND-range work-items";
  r.value = lanes > 1 ? fmt::format("a subgroup of {} per iteration", lanes) : "one per iteration";
  r.status = LoopControlRequest::Status::Honoured;
  r.note = "the kernel's body runs once per work-item";
  if (!shared.empty())
    r.note +=
        fmt::format("; work-items see no dependence through {} (none without a barrier, in OpenCL)", shared);
  if (!own.empty()) r.note += fmt::format("; each work-item has its own entries of {}", own);
  controls.requests.push_back(std::move(r));
  return controls;
}

void streamWorkItems(Kernel& k, uint32_t lanes, bool subgroups, uint64_t maxWorkGroupItems) {
  const std::vector<int> fnOf = functionOfBlocks(k);
  for (const Op& op : k.ops)
    if ((op.kind == OpKind::WorkItem || op.kind == OpKind::Barrier) && fnOf[op.block] >= 0)
      throw DiagnosticError(
          op.loc,
          op.kind == OpKind::Barrier ? std::string("OpControlBarrier") : "built-in " + builtinName(op.index),
          fmt::format("is {} in {}, a function kept shared (not inlined); work-item built-ins and barriers "
                      "are read in the kernel only (--inline always inlines it)",
                      op.kind == OpKind::Barrier ? "called" : "read", k.functions[fnOf[op.block]].name));
  if (!k.processes.empty())
    throw DiagnosticError(k.processes[0].loc, "task " + k.processes[0].name,
                          "an ND-range kernel that creates task sequences is not supported in hardware yet");
  if (subgroups)
    for (const Memory& mem : k.memories)
      if (mem.collective)
        throw DiagnosticError(k.loc, "kernel " + k.name,
                              "uses subgroups and work-group collectives; work-group collectives in a kernel "
                              "with subgroups are not built in hardware yet");
  k.ndRange = true;
  k.subgroupLanes = lanes;
  k.subgroups = subgroups;
  if (std::any_of(k.ops.begin(), k.ops.end(), [](const Op& op) { return op.kind == OpKind::Barrier; })) {
    streamWorkGroups(k, maxWorkGroupItems);
    return;
  }
  const SourceLoc loc = k.loc;
  Builder b(k.ops, &k.blocks);
  b.loc = loc;
  const NdRange nd = beginNdRange(k, b, lanes);
  const uint32_t body = nd.body;
  std::vector<uint32_t> returns;
  for (uint32_t bb = 1; bb < k.blocks.size(); ++bb)
    if (k.blocks[bb].term.kind == Terminator::Kind::Return && fnOf.size() > bb && fnOf[bb] < 0)
      returns.push_back(bb);
  if (k.blocks[body].term.kind == Terminator::Kind::Return) returns.push_back(body);
  const uint32_t header = static_cast<uint32_t>(k.blocks.size()), latch = header + 1, exit = header + 2;
  k.blocks.resize(exit + 1);
  k.blocks[0].term = Terminator{Terminator::Kind::Branch, kNone, {header}, {}, loc};
  k.blocks[header].name = "workitem";
  k.blocks[header].term = Terminator{Terminator::Kind::Branch, kNone, {body}, {}, loc};
  k.blocks[latch].name = "workitem.next";
  k.blocks[exit].name = "workitem.exit";
  k.blocks[exit].term = Terminator{Terminator::Kind::Return, kNone, {}, {}, loc};
  for (uint32_t bb : returns)
    k.blocks[bb].term = Terminator{Terminator::Kind::Branch, kNone, {latch}, {}, k.blocks[bb].term.loc};

  // The counters: phis in the header, from 0 and from the latch.
  WorkItemIds ids;
  ids.local = counterPhis(b, header, "local_id");
  ids.base = counterPhis(b, header, "group_base");
  ids.group = counterPhis(b, header, "group_id");
  b.block = latch;
  std::array<ValueId, 3> nextLocal{}, nextBase{}, nextGroup{};
  ValueId carry = stepLocalIds(b, nd, ids.local, kNone, nextLocal);
  carry = stepGroups(b, nd, ids.base, ids.group, carry, nextBase, nextGroup);
  k.blocks[latch].term = Terminator{Terminator::Kind::CondBranch, carry, {exit, header}, {}, loc};
  closeCounters(k, nd, ids.local, 0, latch, nextLocal);
  closeCounters(k, nd, ids.base, 0, latch, nextBase);
  closeCounters(k, nd, ids.group, 0, latch, nextGroup);

  // The built-ins, computed in the header (it dominates the body) where the body reads them.
  std::vector<uint32_t> all(k.blocks.size());
  for (uint32_t bb = 0; bb < all.size(); ++bb)
    all[bb] = bb;
  replaceWorkItems(k, b, nd, ids, header, all);
  retireWorkItemOps(k);
  k.blocks[header].loopControls = workItemControls(k, lanes, {});
  k.workItemLoop = k.blocks[header].name;
}

} // namespace spvhls::ir::lower
