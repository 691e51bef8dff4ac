// Work-group barriers in hardware: the loop over work-items split at every barrier.
//
// FPGA flows build a barrier by splitting the pipeline at it: a work-group's items wait in a buffer
// until all have arrived. Here the kernel's body is cut at each OpControlBarrier (Workgroup scope)
// into stretches, each starting at the kernel's entry or right after a barrier and running up to the
// next barrier or a return; the hardware runs, for each work-group, one loop over the group's
// work-items per stretch, the next stretch starting when every work-item has finished the one before:
//
//   entry:                 arguments, ND-range sizes; br workgroup
//   workgroup:             phis: group bases and ids; br workitem
//   workitem:              phis: local ids; built-ins; br <stretch 0>      (one such loop per stretch)
//   <stretch 0>            the kernel's blocks from its entry; an edge into a barrier or a return
//                          goes to a block of its own that names where the work-item stops
//   workitem.next:         which = where it stopped; next local ids; br (last work-item) workitem.done
//   workitem.done:         switch which: the stretch after that barrier's loop, or workgroup.next
//   workgroup.next:        next group; br (last) exit, workgroup
//
// A block reached from several barriers (a loop around one) is copied into each stretch that reaches
// it. Every work-item of a group reaches the same barriers in the same order (OpenCL requires it), so
// where the last work-item stopped is where every one did, and a loop around a barrier runs as a loop
// of stretches in the FSM. Values a work-item computes before a barrier and uses after it wait in a
// buffer of one entry per work-item (a Private memory indexed by the local linear id); a private
// array used on both sides of a barrier gets one slice per work-item. Local (Workgroup) memory is one
// RAM: one work-group is in flight at a time.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <boost/dynamic_bitset.hpp>
#include <map>

#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

namespace bi = spirv::spv::BuiltIn;

namespace {
constexpr uint64_t kSubgroupScope = 3, kWorkgroupScope = 2;
// The most operations a value live across a barrier is computed again with (else it is buffered).
constexpr uint32_t kMaxRecompute = 16;
} // namespace

bool Translator::translateBarrier(const LInst& in) {
  // Within a work-item the hardware keeps its accesses in order; between work-items only a control
  // barrier orders them, so a memory barrier alone has nothing to do.
  if (in.op == SpvOp::OpMemoryBarrier) return true;
  if (in.op != SpvOp::OpControlBarrier) return false;
  const spirv::Constant* scope = c_.mv.findConstant(in.ids.at(0));
  if (!scope || scope->isUndef || scope->expr)
    c_.failAt(in, "expected a constant execution scope (Workgroup or Subgroup)");
  // A subgroup's lanes run side by side in one iteration (or it is one work-item): always together.
  if (scope->bits == kSubgroupScope) return true;
  if (scope->bits != kWorkgroupScope)
    c_.failAt(in, fmt::format("execution scope {}; expected Workgroup (2) or Subgroup (3)", scope->bits));
  Op op;
  op.kind = OpKind::Barrier;
  op.name = "barrier";
  b_.emit(std::move(op));
  return true;
}

bool hasBarriers(const Kernel& k) {
  return std::any_of(k.ops.begin(), k.ops.end(), [](const Op& op) { return op.kind == OpKind::Barrier; });
}

namespace {

using Bits = boost::dynamic_bitset<>;

// Ops built by hand into a block at a position (not through a Builder: its common subexpressions
// could hand back an op placed after the insertion point).
class Insert {
public:
  Insert(Kernel& k, uint32_t block, SourceLoc loc) : k_(k), block_(block), loc_(std::move(loc)) {}
  ValueId add(OpKind kind, uint32_t width, std::vector<ValueId> operands, uint64_t imm = 0) {
    Op op;
    op.kind = kind;
    if (width) op.type = Type::bits(width);
    op.operands = std::move(operands);
    op.imm = imm;
    op.block = block_;
    op.loc = loc_;
    k_.ops.push_back(std::move(op));
    ids_.push_back(static_cast<ValueId>(k_.ops.size() - 1));
    return ids_.back();
  }
  // This work-item's entry of a buffer of `bytes` per work-item: its byte offset (64 bits).
  ValueId slot(uint64_t bytes) {
    const ValueId id = add(OpKind::WorkItem, 32, {}, 0);
    k_.ops[id].index = bi::LocalInvocationIndex;
    k_.ops[id].name = "local_linear_id0";
    const ValueId wide = add(OpKind::ZExt, 64, {id});
    if (std::has_single_bit(bytes))
      return bytes == 1 ? wide
                        : add(OpKind::Shl, 64, {wide, add(OpKind::Const, 64, {}, std::countr_zero(bytes))});
    return add(OpKind::Mul, 64, {wide, add(OpKind::Const, 64, {}, bytes)});
  }
  ValueId access(OpKind kind, uint32_t memory, uint32_t bytes, std::vector<ValueId> operands) {
    const ValueId v = add(kind, kind == OpKind::Load ? 8 * bytes : 0, std::move(operands));
    k_.ops[v].memory = memory;
    k_.ops[v].size = static_cast<uint8_t>(bytes);
    return v;
  }
  uint32_t block() const { return block_; }
  // Into the block's ops before position `pos` (its end: size()).
  void before(size_t pos) {
    auto& ops = k_.blocks[block_].ops;
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(pos), ids_.begin(), ids_.end());
    ids_.clear();
  }

private:
  Kernel& k_;
  uint32_t block_;
  SourceLoc loc_;
  std::vector<ValueId> ids_;
};

// The buffer holding a value across barriers: one entry of `bytes` per work-item.
struct Buffer {
  uint32_t memory = 0;
  uint32_t bytes = 0;
};

class WorkGroups {
public:
  WorkGroups(Kernel& k, uint64_t maxItems) : k_(k), maxItems_(maxItems) {}
  void run();

private:
  void splitAtBarriers();
  void findStretches();
  Bits liveAtBarriers() const;
  void bufferValues(const Bits& live);
  void sliceArraysPerWorkItem();
  void wireStretch(uint32_t r);
  void readAcrossBarriers(uint32_t r, const std::vector<int>& idom);
  bool recomputable(ValueId v);
  ValueId recompute(Insert& ins, ValueId v);
  uint32_t builtStart(uint32_t r) const { return r == 0 ? starts_[0] : copies_[r].block.at(starts_[r]); }

  Kernel& k_;
  uint64_t maxItems_;
  NdRange nd_;
  std::vector<int> fnOf_;
  uint32_t end_ = 0;             // where returns lead while the stretches are found
  std::vector<uint32_t> starts_; // stretch r begins at starts_[r]: the body, then after each barrier
  std::vector<int> startOf_;     // per block: its stretch if it starts one, else -1
  std::vector<std::vector<uint32_t>> stretch_; // blocks of each stretch (the originals)
  std::vector<std::vector<uint32_t>> built_;   // ... as built: originals for stretch 0, copies after
  std::vector<std::vector<uint32_t>> exits_;   // per stretch: stretches it leads to (starts_.size(): the end)
  std::vector<uint32_t> begin_, head_, next_, done_; // per stretch: its loop's blocks
  std::vector<ValueId> which_; // per stretch: where the work-item stopped (kNone: one place)
  std::vector<WorkItemIds> ids_;
  std::map<ValueId, Buffer> buffers_;                         // values kept across barriers
  std::vector<uint8_t> perItem_;                              // per memory: each work-item owns its slice
  std::vector<BlockCopy> copies_;                             // per stretch (none for stretch 0)
  std::map<ValueId, std::pair<bool, uint32_t>> recomputable_; // and the operations a copy takes
};

void WorkGroups::run() {
  fnOf_ = functionOfBlocks(k_);
  Builder b(k_.ops, &k_.blocks);
  b.loc = k_.loc;
  nd_ = beginNdRange(k_, b, k_.subgroupLanes);
  k_.blocks[0].term = Terminator{Terminator::Kind::Branch, kNone, {nd_.body}, {}, k_.loc};
  fnOf_.resize(k_.blocks.size(), -1);
  end_ = static_cast<uint32_t>(k_.blocks.size());
  k_.blocks.emplace_back();
  k_.blocks[end_].name = "workgroup.end";
  fnOf_.push_back(-1);
  for (uint32_t bb = 1; bb < end_; ++bb)
    if (fnOf_[bb] < 0 && k_.blocks[bb].term.kind == Terminator::Kind::Return)
      k_.blocks[bb].term = Terminator{Terminator::Kind::Branch, kNone, {end_}, {}, k_.blocks[bb].term.loc};
  splitAtBarriers();
  findStretches();
  perItem_.assign(k_.memories.size(), 0);
  sliceArraysPerWorkItem(); // before the buffers exist: they are sliced already
  bufferValues(liveAtBarriers());
  perItem_.resize(k_.memories.size(), 1); // the buffers

  // Stretches after the first run on copies of their blocks (made before any is rewired).
  built_.resize(starts_.size());
  copies_.resize(starts_.size());
  built_[0] = stretch_[0];
  for (uint32_t r = 1; r < starts_.size(); ++r) {
    copies_[r] = cloneBlocks(k_, stretch_[r], fmt::format(".{}", r));
    for (uint32_t bb : stretch_[r])
      built_[r].push_back(copies_[r].block.at(bb));
  }

  // The loop over work-groups around the stretches' loops.
  const SourceLoc loc = k_.loc;
  auto newBlock = [&](std::string name, Terminator term) {
    k_.blocks.emplace_back();
    k_.blocks.back().name = std::move(name);
    k_.blocks.back().term = std::move(term);
    return static_cast<uint32_t>(k_.blocks.size() - 1);
  };
  const uint32_t group = newBlock("workgroup", {});
  const uint32_t groupNext = newBlock("workgroup.next", {});
  const uint32_t exit = newBlock("workgroup.exit", Terminator{Terminator::Kind::Return, kNone, {}, {}, loc});
  k_.blocks[0].term = Terminator{Terminator::Kind::Branch, kNone, {group}, {}, loc};
  WorkItemIds groupIds;
  groupIds.base = counterPhis(b, group, "group_base");
  groupIds.group = counterPhis(b, group, "group_id");
  begin_.resize(starts_.size());
  head_.resize(starts_.size());
  next_.resize(starts_.size());
  done_.resize(starts_.size());
  which_.assign(starts_.size(), kNone);
  ids_.assign(starts_.size(), groupIds);
  for (uint32_t r = 0; r < starts_.size(); ++r) {
    const std::string suffix = r ? fmt::format(".{}", r) : "";
    begin_[r] = newBlock(fmt::format("stretch{}", r), {});
    head_[r] =
        newBlock("workitem" + suffix, Terminator{Terminator::Kind::Branch, kNone, {builtStart(r)}, {}, loc});
    next_[r] = newBlock("workitem.next" + suffix, {});
    done_[r] = newBlock("workitem.done" + suffix, {});
    k_.blocks[begin_[r]].term = Terminator{Terminator::Kind::Branch, kNone, {head_[r]}, {}, loc};
  }
  k_.blocks[group].term = Terminator{Terminator::Kind::Branch, kNone, {begin_[0]}, {}, loc};
  for (uint32_t r = 0; r < starts_.size(); ++r)
    wireStretch(r);
  {
    Builder g(k_.ops, &k_.blocks);
    g.loc = loc;
    g.block = groupNext;
    std::array<ValueId, 3> nextBase{}, nextGroup{};
    const ValueId last = stepGroups(g, nd_, groupIds.base, groupIds.group, kNone, nextBase, nextGroup);
    k_.blocks[groupNext].term = Terminator{Terminator::Kind::CondBranch, last, {exit, group}, {}, loc};
    closeCounters(k_, nd_, groupIds.base, 0, groupNext, nextBase);
    closeCounters(k_, nd_, groupIds.group, 0, groupNext, nextGroup);
  }
  // Where each stretch's loop goes when its last work-item is done: a block of the next stretch's
  // own before its loop, so that a loop around a barrier is a loop of its own around the loop over
  // work-items (not more iterations of it, which would carry no dependence across the barrier).
  for (uint32_t r = 0; r < starts_.size(); ++r) {
    auto targetOf = [&](uint32_t e) { return e == starts_.size() ? groupNext : begin_[e]; };
    Terminator& t = k_.blocks[done_[r]].term;
    t.loc = loc;
    if (exits_[r].size() == 1) {
      t.kind = Terminator::Kind::Branch;
      t.targets = {targetOf(exits_[r][0])};
    } else {
      t.kind = Terminator::Kind::Switch;
      t.cond = which_[r];
      t.targets = {targetOf(exits_[r].back())};
      for (uint32_t i = 0; i + 1 < exits_[r].size(); ++i) {
        t.targets.push_back(targetOf(exits_[r][i]));
        t.caseValues.push_back(i);
      }
    }
  }

  detachUnreachable(k_);
  const std::vector<int> idom = immediateDominators(kernelSuccessors(k_), 0);
  // Every stretch reads what crosses its barriers before any built-in is replaced (values computed
  // again copy the original built-ins).
  for (uint32_t r = 0; r < starts_.size(); ++r)
    readAcrossBarriers(r, idom);
  const LoopControls controls = workItemControls(k_, k_.subgroupLanes, perItem_);
  for (uint32_t r = 0; r < starts_.size(); ++r) {
    Builder rb(k_.ops, &k_.blocks);
    rb.loc = loc;
    replaceWorkItems(k_, rb, nd_, ids_[r], head_[r], built_[r]);
    k_.blocks[head_[r]].loopControls = controls;
    k_.barrierLoops.push_back(k_.blocks[head_[r]].name);
  }
  retireWorkItemOps(k_);
  k_.workItemLoop = k_.blocks[group].name;
  k_.maxWorkGroupItems = maxItems_;
}

// Each barrier ends its block: what follows it moves to a block of its own, where a stretch starts.
void WorkGroups::splitAtBarriers() {
  starts_ = {nd_.body};
  const std::vector<uint32_t> order = reversePostOrder(kernelSuccessors(k_), 0u);
  for (uint32_t bb : order) {
    if (fnOf_[bb] >= 0) continue;
    for (uint32_t cur = bb;;) {
      auto& ops = k_.blocks[cur].ops;
      auto it =
          std::find_if(ops.begin(), ops.end(), [&](ValueId v) { return k_.ops[v].kind == OpKind::Barrier; });
      if (it == ops.end()) break;
      const ValueId barrier = *it;
      const uint32_t after = static_cast<uint32_t>(k_.blocks.size());
      BasicBlock nb;
      nb.name = fmt::format("{}.barrier{}", k_.blocks[cur].name, starts_.size());
      nb.ops.assign(it + 1, ops.end());
      ops.erase(it + 1, ops.end());
      nb.term = k_.blocks[cur].term;
      const SourceLoc at = k_.ops[barrier].loc;
      k_.blocks[cur].term = Terminator{Terminator::Kind::Branch, kNone, {after}, {}, at};
      for (ValueId v : nb.ops)
        k_.ops[v].block = after;
      k_.blocks.push_back(std::move(nb));
      fnOf_.push_back(-1);
      for (uint32_t s : k_.blocks[after].term.targets) // (a target named twice: renamed the first time)
        renamePhiEntries(k_, s, cur, after);
      neutralize(k_, barrier); // the barrier itself is gone
      k_.ops[barrier].type = Type::bits(1);
      starts_.push_back(after);
      cur = after;
    }
  }
}

// Each stretch: the blocks reached from its start without passing a barrier or a return.
void WorkGroups::findStretches() {
  startOf_.assign(k_.blocks.size(), -1);
  for (uint32_t r = 0; r < starts_.size(); ++r)
    startOf_[starts_[r]] = static_cast<int>(r);
  const Succs succ = kernelSuccessors(k_);
  stretch_.assign(starts_.size(), {});
  exits_.assign(starts_.size(), {});
  for (uint32_t r = 0; r < starts_.size(); ++r) {
    std::vector<uint8_t> seen(k_.blocks.size(), 0);
    std::vector<uint32_t> work{starts_[r]};
    seen[starts_[r]] = 1;
    while (!work.empty()) {
      const uint32_t bb = work.back();
      work.pop_back();
      stretch_[r].push_back(bb);
      for (uint32_t s : succ[bb]) {
        const uint32_t exitTo = s == end_          ? static_cast<uint32_t>(starts_.size())
                                : startOf_[s] >= 0 ? static_cast<uint32_t>(startOf_[s])
                                                   : ~0u;
        if (exitTo != ~0u) {
          if (std::find(exits_[r].begin(), exits_[r].end(), exitTo) == exits_[r].end())
            exits_[r].push_back(exitTo);
          continue;
        }
        if (!seen[s]) {
          seen[s] = 1;
          work.push_back(s);
        }
      }
    }
    std::sort(stretch_[r].begin(), stretch_[r].end());
    if (exits_[r].empty())
      throw DiagnosticError(k_.blocks[starts_[r]].term.loc, "OpControlBarrier",
                            "the kernel never returns after this barrier (an endless loop around it); "
                            "that is not supported in hardware");
  }
}

// The values live where a stretch after a barrier starts (standard liveness over the kernel's blocks;
// a phi's operand is used at the end of its predecessor).
Bits WorkGroups::liveAtBarriers() const {
  const size_t n = k_.ops.size(), nb = k_.blocks.size();
  std::vector<Bits> use(nb, Bits(n)), def(nb, Bits(n)), phiUse(nb, Bits(n)), in(nb, Bits(n));
  for (uint32_t bb = 0; bb < nb; ++bb) {
    if (fnOf_[bb] >= 0) continue;
    for (ValueId v : k_.blocks[bb].ops) {
      const Op& op = k_.ops[v];
      for (size_t i = 0; i < op.operands.size(); ++i) {
        const ValueId o = op.operands[i];
        if (o == kNone) continue;
        if (op.kind == OpKind::Phi)
          phiUse[op.phiBlocks[i]].set(o);
        else if (!def[bb][o])
          use[bb].set(o);
      }
      def[bb].set(v);
    }
    if (const ValueId c = k_.blocks[bb].term.cond; c != kNone && !def[bb][c]) use[bb].set(c);
  }
  const Succs succ = kernelSuccessors(k_);
  std::vector<uint32_t> order = reversePostOrder(succ, 0u);
  std::reverse(order.begin(), order.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t bb : order) {
      Bits out = phiUse[bb];
      for (uint32_t s : succ[bb])
        out |= in[s];
      Bits live = use[bb] | (out - def[bb]);
      if (live != in[bb]) {
        in[bb] = std::move(live);
        changed = true;
      }
    }
  }
  Bits live(n);
  for (uint32_t r = 1; r < starts_.size(); ++r)
    live |= in[starts_[r]];
  return live;
}

// Each value live across a barrier gets a buffer, written where the value is computed.
void WorkGroups::bufferValues(const Bits& live) {
  for (size_t v = live.find_first(); v != Bits::npos; v = live.find_next(v)) {
    const Op& op = k_.ops[v];
    // Constants and arguments are the same after the barrier; the built-ins are counted again.
    if (recomputable(static_cast<ValueId>(v))) continue;
    const uint32_t width = op.width();
    if (width == 0 || width > 64)
      throw DiagnosticError(op.loc, op.name.empty() ? std::string(opKindName(op.kind)) : "%" + op.name,
                            fmt::format("a value of {} bits is live across a barrier; buffers hold values of "
                                        "up to 64 bits per work-item",
                                        width));
    const uint32_t bytes = std::bit_ceil((width + 7) / 8);
    Memory m;
    m.kind = Memory::Kind::Private;
    m.name = fmt::format("across_barrier.{}", op.name.empty() ? fmt::format("v{}", v) : op.name);
    m.sizeBytes = maxItems_ * bytes;
    m.elemBytes = bytes;
    m.perWorkItem = true;
    const uint32_t memory = static_cast<uint32_t>(k_.memories.size());
    k_.memories.push_back(std::move(m));
    buffers_[static_cast<ValueId>(v)] = Buffer{memory, bytes};
    k_.barrierBufferBits += 8 * bytes;
    const uint32_t block = op.block;
    const SourceLoc loc = op.loc;
    auto& ops = k_.blocks[block].ops;
    size_t pos =
        static_cast<size_t>(std::find(ops.begin(), ops.end(), static_cast<ValueId>(v)) - ops.begin()) + 1;
    if (op.kind == OpKind::Phi)
      while (pos < ops.size() && k_.ops[ops[pos]].kind == OpKind::Phi)
        ++pos;
    Insert ins(k_, block, loc);
    const ValueId offset = ins.slot(bytes);
    ValueId data = static_cast<ValueId>(v);
    if (width < 8 * bytes) data = ins.add(OpKind::ZExt, 8 * bytes, {data});
    ins.access(OpKind::Store, memory, bytes, {offset, data, kNone});
    ins.before(pos);
  }
}

// A private array accessed in several stretches holds one array per work-item: each work-item's
// accesses go to its own slice.
void WorkGroups::sliceArraysPerWorkItem() {
  std::vector<std::vector<uint32_t>> stretchesOf(k_.blocks.size());
  for (uint32_t r = 0; r < stretch_.size(); ++r)
    for (uint32_t bb : stretch_[r])
      stretchesOf[bb].push_back(r);
  std::vector<std::vector<uint32_t>> used(k_.memories.size());
  for (uint32_t bb = 0; bb < k_.blocks.size(); ++bb)
    for (ValueId v : k_.blocks[bb].ops) {
      const Op& op = k_.ops[v];
      if (op.kind != OpKind::Load && op.kind != OpKind::Store) continue;
      auto& u = used[op.memory];
      u.insert(u.end(), stretchesOf[bb].begin(), stretchesOf[bb].end());
    }
  for (uint32_t m = 0; m < k_.memories.size(); ++m) {
    Memory& mem = k_.memories[m];
    auto& u = used[m];
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    if (u.size() < 2) continue;
    if (mem.kind == Memory::Kind::External && !mem.persistent)
      throw DiagnosticError(
          k_.loc, "private array " + mem.name,
          "is used on both sides of a barrier but did not fit the on-chip budget; an external "
          "private array across barriers is not supported yet (raise --on-chip-budget)");
    if (mem.kind != Memory::Kind::Private) continue;
    const uint64_t size = mem.sizeBytes;
    if (!mem.init.empty()) {
      std::vector<uint8_t> init;
      for (uint64_t i = 0; i < maxItems_; ++i)
        init.insert(init.end(), mem.init.begin(), mem.init.end());
      mem.init = std::move(init);
    }
    mem.sizeBytes = size * maxItems_;
    mem.perWorkItem = true;
    perItem_[m] = 1;
    k_.barrierBufferBits += 8 * size;
    for (uint32_t bb = 0; bb < k_.blocks.size(); ++bb)
      for (size_t i = 0; i < k_.blocks[bb].ops.size(); ++i) {
        const ValueId v = k_.blocks[bb].ops[i];
        if ((k_.ops[v].kind != OpKind::Load && k_.ops[v].kind != OpKind::Store) || k_.ops[v].memory != m)
          continue;
        Insert ins(k_, bb, k_.ops[v].loc);
        const ValueId offset = ins.add(OpKind::Add, 64, {k_.ops[v].operands[0], ins.slot(size)});
        k_.ops[v].operands[0] = offset;
        const size_t before = k_.blocks[bb].ops.size();
        ins.before(i);
        i += k_.blocks[bb].ops.size() - before;
      }
  }
}

// Stretch r's loop over the work-items: its counters, the blocks naming where each work-item stopped.
void WorkGroups::wireStretch(uint32_t r) {
  const SourceLoc loc = k_.loc;
  Builder b(k_.ops, &k_.blocks);
  b.loc = loc;
  ids_[r].local = counterPhis(b, head_[r], "local_id");
  std::vector<uint32_t> stop(exits_[r].size());
  for (uint32_t i = 0; i < exits_[r].size(); ++i) {
    const uint32_t e = exits_[r][i];
    k_.blocks.emplace_back();
    stop[i] = static_cast<uint32_t>(k_.blocks.size() - 1);
    k_.blocks[stop[i]].name = e == starts_.size()
                                  ? fmt::format("workitem.returns{}", r ? fmt::format(".{}", r) : "")
                                  : fmt::format("workitem.at.barrier{}{}", e, r ? fmt::format(".{}", r) : "");
    k_.blocks[stop[i]].term = Terminator{Terminator::Kind::Branch, kNone, {next_[r]}, {}, loc};
  }
  // An edge into the stretch's own start passes its barrier again (a loop around it).
  const uint32_t ownStart = builtStart(r);
  auto stopOf = [&](uint32_t target) -> uint32_t {
    const uint32_t e = target == end_       ? static_cast<uint32_t>(starts_.size())
                       : target == ownStart ? r
                                            : static_cast<uint32_t>(startOf_[target]);
    return stop[std::find(exits_[r].begin(), exits_[r].end(), e) - exits_[r].begin()];
  };
  std::vector<uint8_t> in(k_.blocks.size(), 0);
  for (uint32_t bb : built_[r])
    in[bb] = 1;
  std::vector<std::vector<uint32_t>> preds(k_.blocks.size());
  for (uint32_t bb : built_[r])
    for (uint32_t& t : k_.blocks[bb].term.targets) {
      if (t == end_ || t == ownStart || (t < startOf_.size() && startOf_[t] >= 0 && !in[t]))
        t = stopOf(t);
      else
        preds[t].push_back(bb);
    }
  for (uint32_t bb : built_[r])
    keepPhiEntriesFrom(k_, bb, preds[bb]);
  // Where it stopped, and the next work-item.
  b.block = next_[r];
  if (stop.size() > 1) {
    which_[r] = b.phi(Type::bits(32), "stopped_at");
    for (uint32_t i = 0; i < stop.size(); ++i) {
      b.block = 0;
      const ValueId c = b.constant(32, i);
      addPhiEntry(k_, which_[r], stop[i], c);
    }
    b.block = next_[r];
  }
  std::array<ValueId, 3> nextLocal{};
  const ValueId last = stepLocalIds(b, nd_, ids_[r].local, kNone, nextLocal);
  k_.blocks[next_[r]].term = Terminator{Terminator::Kind::CondBranch, last, {done_[r], head_[r]}, {}, loc};
  closeCounters(k_, nd_, ids_[r].local, begin_[r], next_[r], nextLocal);
}

// In stretch r, a value computed where the use does not see it (before a barrier, or in an earlier
// stretch) is computed again when it follows from the built-ins, arguments and constants alone,
// and read from its buffer otherwise: once at the stretch's start when the stretch does not compute
// it (so the buffer does not change during the stretch), else where it is used (after the latest
// write, which follows each computation).
void WorkGroups::readAcrossBarriers(uint32_t r, const std::vector<int>& idom) {
  std::vector<uint8_t> in(k_.blocks.size(), 0);
  for (uint32_t bb : built_[r])
    in[bb] = 1;
  std::vector<uint8_t> computedHere(k_.blocks.size(), 0); // original blocks of the stretch
  for (uint32_t bb : stretch_[r])
    computedHere[bb] = 1;
  std::map<ValueId, ValueId> original;
  for (const auto& [from, to] : copies_[r].value)
    original[to] = from;
  auto originalOf = [&](ValueId v) {
    auto o = original.find(v);
    return o == original.end() ? v : o->second;
  };
  auto sees = [&](ValueId v, uint32_t at) {
    const uint32_t d = k_.ops[v].block;
    return d == 0 || (in[d] && dominates(idom, d, at));
  };
  const uint32_t start = builtStart(r);
  std::map<ValueId, ValueId> atStart;                      // buffer reads at the stretch's start
  std::map<std::pair<uint32_t, ValueId>, ValueId> inBlock; // and in a block, before its first use
  // Reads `v` in block `at` before position `pos` (its end for a phi's operand); returns the value.
  auto read = [&](ValueId v, uint32_t at, size_t pos, bool phiOperand) -> ValueId {
    const ValueId from = originalOf(v);
    if (recomputable(from)) {
      Insert ins(k_, at, k_.ops[v].loc);
      const ValueId again = recompute(ins, from);
      ins.before(pos);
      return again;
    }
    auto it = buffers_.find(from);
    if (it == buffers_.end())
      throw InternalError(k_.ops[v].loc,
                          k_.ops[v].name.empty() ? std::string(opKindName(k_.ops[v].kind))
                                                 : "%" + k_.ops[v].name,
                          "used across a barrier but not kept in a buffer");
    const uint32_t width = k_.ops[v].width();
    const bool once = !computedHere[k_.ops[from].block];
    if (once) {
      if (auto c = atStart.find(from); c != atStart.end()) return c->second;
      at = start;
      pos = 0;
    } else if (!phiOperand) {
      if (auto c = inBlock.find({at, from}); c != inBlock.end()) return c->second;
    }
    Insert ins(k_, at, k_.ops[v].loc);
    ValueId loaded =
        ins.access(OpKind::Load, it->second.memory, it->second.bytes, {ins.slot(it->second.bytes), kNone});
    if (width < 8 * it->second.bytes) loaded = ins.add(OpKind::Trunc, width, {loaded});
    ins.before(pos);
    if (once)
      atStart[from] = loaded;
    else if (!phiOperand)
      inBlock[{at, from}] = loaded;
    return loaded;
  };
  for (uint32_t bb : built_[r]) {
    for (size_t i = 0; i < k_.blocks[bb].ops.size(); ++i) {
      const ValueId v = k_.blocks[bb].ops[i];
      const bool phi = k_.ops[v].kind == OpKind::Phi;
      for (size_t j = 0; j < k_.ops[v].operands.size(); ++j) {
        const ValueId o = k_.ops[v].operands[j];
        if (o == kNone || k_.ops[o].kind == OpKind::WorkItem) continue;
        const uint32_t at = phi ? k_.ops[v].phiBlocks[j] : bb;
        if ((!phi && k_.ops[o].block == bb) || sees(o, at)) continue;
        const ValueId got = read(o, at, phi ? k_.blocks[at].ops.size() : i, phi);
        k_.ops[v].operands[j] = got;
        while (k_.blocks[bb].ops[i] != v)
          ++i; // past what went in before it
      }
    }
    const ValueId c = k_.blocks[bb].term.cond;
    if (c != kNone && k_.ops[c].kind != OpKind::WorkItem && k_.ops[c].block != bb && !sees(c, bb))
      k_.blocks[bb].term.cond = read(c, bb, k_.blocks[bb].ops.size(), true);
  }
}

// Whether `v` follows from work-item built-ins, arguments and constants alone through a few cheap
// operations: such a value is computed again after a barrier instead of being kept in a buffer.
bool WorkGroups::recomputable(ValueId v) {
  if (auto it = recomputable_.find(v); it != recomputable_.end()) return it->second.first;
  recomputable_[v] = {false, 0}; // (no cycles: phis are not recomputable)
  const Op& op = k_.ops[v];
  bool ok = false;
  uint32_t cost = 0; // operations a copy takes (shared operands counted each time)
  if (op.kind == OpKind::WorkItem || op.kind == OpKind::Const || op.kind == OpKind::Undef || op.block == 0) {
    ok = true;
  } else {
    const OpClass cls = opInfo(op.kind).opClass;
    ok = !hasSideEffect(op.kind) && op.kind != OpKind::Phi && op.kind != OpKind::Load &&
         (cls == OpClass::Wire || cls == OpClass::Logic || cls == OpClass::Arith || cls == OpClass::Shift ||
          cls == OpClass::Compare || cls == OpClass::Mux || cls == OpClass::Multiply) &&
         op.kind != OpKind::Arg && op.kind != OpKind::Param && op.kind != OpKind::LoopOut;
    const std::vector<ValueId> operands = op.operands;
    cost = 1;
    for (ValueId o : operands) {
      ok = ok && o != kNone && recomputable(o);
      if (ok) cost += recomputable_[o].second;
    }
    ok = ok && cost <= kMaxRecompute;
  }
  recomputable_[v] = {ok, cost};
  return ok;
}

// A copy of recomputable `v`'s operations (its built-ins as WorkItem ops again); entry values as
// they are.
ValueId WorkGroups::recompute(Insert& ins, ValueId v) {
  const Op& op = k_.ops[v];
  if (op.block == 0) return v;
  Op copy = op; // a leaf (constant, built-in) as it is
  for (ValueId& o : copy.operands)
    o = recompute(ins, o);
  const ValueId c = ins.add(copy.kind, copy.width(), {}, copy.imm);
  copy.block = ins.block();
  k_.ops[c] = std::move(copy);
  return c;
}

} // namespace

void streamWorkGroups(Kernel& k, uint64_t maxWorkGroupItems) {
  WorkGroups(k, maxWorkGroupItems).run();
}

} // namespace spvhls::ir::lower
