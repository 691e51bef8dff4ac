// The IR evaluator (see ir/ir_eval.h).
#include "ir/ir_eval.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>

#include "ir/lower_internal.h"

namespace spvhls::ir {
namespace {

using lower::widthMask;

// Bits [at, at + n) of the little-endian `bytes` (n <= 64).
uint64_t bitsAt(const std::vector<uint8_t>& bytes, uint64_t at, uint32_t n) {
  uint64_t x = 0;
  for (uint32_t i = 0; i < n; ++i, ++at)
    x |= uint64_t((bytes[at / 8] >> (at % 8)) & 1) << i;
  return x;
}

// ORs the low n bits of x (n <= 64) into the little-endian `bytes` from bit `at` on.
void putBits(std::vector<uint8_t>& bytes, uint64_t at, uint64_t x, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i, ++at)
    bytes[at / 8] |= uint8_t(((x >> i) & 1) << (at % 8));
}

// A memory as the evaluated kernel sees it: bytes from `base` on (a task body's pointer parameter
// sees its caller's memory from the offset the async passed).
struct MemView {
  std::vector<uint8_t>* bytes = nullptr;
  uint64_t base = 0;
};

class Evaluator {
public:
  Evaluator(const Kernel& k, const std::vector<uint64_t>& args, std::vector<std::vector<uint8_t>>& buffers,
            uint64_t maxSteps, const std::map<uint32_t, std::vector<uint8_t>>& preload)
      : k_(k), args_(args), maxSteps_(maxSteps) {
    for (const Memory& m : k.memories) {
      if (m.kind == Memory::Kind::Argument) {
        if (m.argIndex >= buffers.size())
          throw DiagnosticError(k.loc, "kernel " + k.name, fmt::format("no buffer for argument {}", m.name));
        own_.push_back(std::move(buffers[m.argIndex]));
      } else {
        own_.push_back(m.initialContents());
      }
      mem_.push_back({&own_.back(), 0});
    }
    for (const auto& [m, bytes] : preload) {
      if (m >= mem_.size() || k.memories[m].kind == Memory::Kind::Argument || bytes.size() != mem_[m].bytes->size())
        throw DiagnosticError(k.loc, "kernel " + k.name,
                              fmt::format("no memory {} of {} bytes to preload", m, bytes.size()));
      *mem_[m].bytes = bytes;
    }
    init();
  }

  // A task body (Kernel::tasks) run by an async of its caller: its memories bound to the caller's
  // are views of them, its own start from their initial contents.
  Evaluator(const Kernel& body, const Process& p, const std::vector<uint64_t>& args, const std::vector<MemView>& caller,
            uint64_t maxSteps)
      : k_(body), args_(args), maxSteps_(maxSteps) {
    for (uint32_t m = 0; m < body.memories.size(); ++m) {
      const Memory& mem = body.memories[m];
      if (p.memoryMap.at(m) == kNoMemory) {
        own_.push_back(mem.initialContents());
        mem_.push_back({&own_.back(), 0});
        continue;
      }
      MemView v = caller.at(p.memoryMap[m]);
      if (mem.kind == Memory::Kind::Argument) v.base += args.at(mem.argIndex);
      mem_.push_back(v);
    }
    if (p.served) { // its loop pops this one invocation, the arguments end to end, the first lowest
      uint32_t bits = 0;
      for (const Type& t : p.params)
        bits += t.width();
      invocation_.assign((bits + 7) / 8, 0);
      for (size_t i = 0, at = 0; i < args.size(); at += p.params.at(i).width(), ++i)
        putBits(invocation_, at, args[i], p.params.at(i).width());
      pending_ = true;
    }
    init();
  }

  uint64_t steps() const { return r_.steps; }
  uint64_t runTask() {
    vals_.assign(k_.ops.size(), 0);
    loopOuts_.assign(k_.ops.size(), {});
    const uint64_t r = runFrom(0);
    return served_ ? servedResult_ : r;
  }

  void recordPredicatesOf(std::vector<bool> loops) { recordPredicates_ = std::move(loops); }
  void recordTaskPredicatesOf(std::vector<std::vector<bool>> perProcess) {
    taskRecord_ = std::move(perProcess);
  }

  EvalResult run() {
    vals_.assign(k_.ops.size(), 0);
    loopOuts_.assign(k_.ops.size(), {});
    runFrom(0);
    return finish();
  }

private:
  const Kernel& k_;
  const std::vector<uint64_t>& args_;
  uint64_t maxSteps_;
  std::deque<std::vector<uint8_t>> own_; // the memories this kernel owns (stable addresses)
  std::vector<MemView> mem_;             // per memory
  std::vector<std::deque<uint64_t>> taskResults_; // per process: results not yet retrieved
  // A served body (Process::served): the one invocation its loop pops, and the result it pushes.
  std::vector<uint8_t> invocation_;
  bool pending_ = false, served_ = false;
  uint64_t servedResult_ = 0;
  struct Idle {}; // a served body's loop found no invocation: it has served its one
  uint64_t predicateWords_ = 0;
  std::vector<bool> recordPredicates_; // per loop: record its iterations' predicates (EvalResult)
  std::vector<std::vector<bool>> taskRecord_; // per process: recordPredicates_ of its body's runs

  void init() {
    r_.loopIterations.assign(k_.loops.size(), 0);
    r_.loopMinIterations.assign(k_.loops.size(), UINT64_MAX);
    r_.loopMaxIterations.assign(k_.loops.size(), 0);
    r_.loopCallIterations.assign(k_.loops.size(), {});
    r_.loopIterationPredicates.assign(k_.loops.size(), {});
    r_.blockCounts.assign(k_.blocks.size(), 0);
    taskResults_.assign(k_.processes.size(), {});
  }

  uint8_t& byteAt(uint32_t m, uint64_t off) { return (*mem_[m].bytes)[mem_[m].base + off]; }

  // An async runs its task at once, to its end (one of the schedules the extension allows, the
  // interpreter's): its result waits for a get.
  void runTask(const Op& op, const std::vector<uint64_t>& vals) {
    std::vector<uint64_t> args;
    for (ValueId o : op.operands) args.push_back(vals[o]);
    EvalResult profile = invoke(op.index, args);
    if (tracing()) {
      r_.trace.push_back({op.block, ValueId(&op - k_.ops.data()), uint32_t(r_.invocations.size())});
      keep(op.index, std::move(profile));
    }
  }
  EvalResult invoke(uint32_t process, const std::vector<uint64_t>& args) {
    const Process& p = k_.processes.at(process);
    const Kernel& body = k_.tasks.at(p.body);
    Evaluator task(body, p, args, mem_, maxSteps_ - r_.steps);
    if (p.served)
      task.recordPredicatesOf(std::vector<bool>(body.loops.size(), true));
    else if (process < taskRecord_.size())
      task.recordPredicatesOf(taskRecord_[process]);
    taskResults_[process].push_back(task.runTask());
    r_.steps += task.steps();
    return task.profile();
  }
  void keep(uint32_t process, EvalResult profile) {
    r_.processInvocations.resize(k_.processes.size());
    r_.processInvocations[process].push_back(uint32_t(r_.invocations.size()));
    r_.invocations.push_back(std::move(profile));
  }

  // A pipelined loop's access to a task queue (Memory::Kind::Queue): a store is an async whose
  // arguments are the data's bits, the first lowest; a load is a get.
  uint64_t queueAccess(const Op& op, const std::vector<Op>& list, const std::vector<uint64_t>& vals) {
    const Memory& q = k_.memories[op.memory];
    if (q.ownQueue()) return ownQueueAccess(op, list, vals);
    if (op.kind == OpKind::Load) {
      if (op.operands[1] != kNone && !(vals[op.operands[1]] & 1)) return 0;
      return taskGet(q.queueProcess, op.loc);
    }
    if (op.operands[2] != kNone && !(vals[op.operands[2]] & 1)) return 0;
    const std::vector<uint8_t> bytes = bytesOf(list, op.operands[1], vals);
    std::vector<uint64_t> args;
    uint32_t at = 0;
    for (const Type& t : k_.processes.at(q.queueProcess).params) {
      args.push_back(bitsAt(bytes, at, t.width()));
      at += t.width();
    }
    EvalResult profile = invoke(q.queueProcess, args);
    if (tracing()) keep(q.queueProcess, std::move(profile));
    return 0;
  }

  // A served body's end of its queues: its one invocation, popped once (a second pop ends the
  // loop: Idle), and its result.
  uint64_t ownQueueAccess(const Op& op, const std::vector<Op>& list, const std::vector<uint64_t>& vals) {
    if (op.kind == OpKind::Store) {
      if (op.operands[2] != kNone && !(vals[op.operands[2]] & 1)) return 0;
      servedResult_ = vals[op.operands[1]] & widthMask(list[op.operands[1]].width());
      return 0;
    }
    if (op.operands[1] != kNone && !(vals[op.operands[1]] & 1)) return 0;
    if (!pending_) throw Idle{};
    pending_ = false;
    served_ = true;
    std::vector<uint8_t> word = invocation_;
    word.resize(op.size, 0);
    if (op.width() > 64) {
      wide_[&op] = word;
      return 0;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < word.size() && i < 8; ++i) x |= uint64_t(word[i]) << (8 * i);
    return x;
  }

  bool tracing() {
    if (k_.tasks.empty() || r_.traceTruncated) return false;
    if (r_.trace.size() < kMaxTraceEvents && r_.invocations.size() < kMaxTraceEvents) return true;
    r_.traceTruncated = true;
    r_.trace.clear();
    r_.invocations.clear();
    r_.processInvocations.clear();
    return false;
  }
  void traceOp(const Op& op) {
    if (tracing()) r_.trace.push_back({op.block, ValueId(&op - k_.ops.data()), 0});
  }

public:
  // A task invocation's profile (buffers are its caller's).
  EvalResult profile() { return std::move(r_); }

private:

  uint64_t taskGet(uint32_t process, const SourceLoc& loc) {
    auto& q = taskResults_.at(process);
    if (q.empty())
      throw DiagnosticError(loc, "TaskGet",
                            fmt::format("{} has no result to get (no async outstanding)", k_.processes[process].name));
    const uint64_t x = q.front();
    q.pop_front();
    return x;
  }
  std::map<const Op*, std::vector<uint8_t>> wide_; // values wider than 64 bits, by op (computeWide)
  EvalResult r_;
  std::vector<uint64_t> vals_;
  std::vector<std::vector<uint64_t>> loopOuts_;

  // Runs the part of the CFG entered at `entry` (the kernel's, or a shared function's) to its Return;
  // the returned value (0 for none). Values live in one slot per op: a function has one activation
  // at a time, as in hardware.
  uint64_t runFrom(uint32_t entry) {
    std::vector<uint64_t>& vals = vals_;
    std::vector<std::vector<uint64_t>>& loopOuts = loopOuts_;
    uint32_t b = entry, prev = UINT32_MAX;
    for (;;) {
      const BasicBlock& bb = k_.blocks[b];
      ++r_.blockCounts[b];
      if (tracing()) r_.trace.push_back({b, kNone, 0});
      // Phis read their operands as of the end of the predecessor, all at once.
      std::vector<std::pair<ValueId, uint64_t>> phiVals;
      for (ValueId v : bb.ops) {
        const Op& op = k_.ops[v];
        if (op.kind != OpKind::Phi) break;
        for (size_t i = 0; i < op.phiBlocks.size(); ++i)
          if (op.phiBlocks[i] == prev) phiVals.push_back({v, vals[op.operands[i]]});
      }
      for (auto [v, x] : phiVals) vals[v] = x;
      for (ValueId v : bb.ops) {
        const Op& op = k_.ops[v];
        step(op);
        switch (op.kind) {
        case OpKind::Phi: break;
        case OpKind::Arg: vals[v] = args_.at(op.index) & widthMask(op.width()); break;
        case OpKind::LoopCall: loopOuts[v] = callLoop(op, vals); break;
        case OpKind::LoopOut: vals[v] = loopOuts[op.operands[0]].at(op.index); break;
        case OpKind::Param:
          break; // written by the Call
        case OpKind::TaskAsync: runTask(op, vals); break;
        case OpKind::TaskGet:
          vals[v] = taskGet(op.index, op.loc);
          traceOp(op);
          break;
        case OpKind::TaskRelease:
          taskResults_.at(op.index).clear();
          traceOp(op);
          break;
        case OpKind::Call: {
          const Function& fn = k_.functions.at(op.index);
          for (ValueId p : k_.blocks[fn.entry].ops)
            if (k_.ops[p].kind == OpKind::Param) vals[p] = vals[op.operands.at(k_.ops[p].index)];
          vals[v] = runFrom(fn.entry);
          break;
        }
        default: vals[v] = compute(op, k_.ops, vals); break;
        }
      }
      const Terminator& t = bb.term;
      prev = b;
      switch (t.kind) {
      case Terminator::Kind::Branch: b = t.targets[0]; break;
      case Terminator::Kind::CondBranch: b = (vals[t.cond] & 1) ? t.targets[0] : t.targets[1]; break;
      case Terminator::Kind::Switch: {
        b = t.targets[0];
        for (size_t i = 0; i < t.caseValues.size(); ++i)
          if (t.caseValues[i] == vals[t.cond]) {
            b = t.targets[i + 1];
            break;
          }
        break;
      }
      case Terminator::Kind::Return:
        return t.cond == kNone ? 0 : vals[t.cond];
      case Terminator::Kind::Unreachable:
        throw DiagnosticError(t.loc, "block " + bb.name, "reached an Unreachable terminator");
      }
    }
  }

  void step(const Op& op) {
    if (++r_.steps > maxSteps_)
      throw DiagnosticError(op.loc, "kernel " + k_.name, fmt::format("more than {} operations evaluated", maxSteps_));
  }

  EvalResult finish() {
    r_.buffers.assign(k_.args.size(), {});
    for (size_t m = 0; m < k_.memories.size(); ++m)
      if (k_.memories[m].kind == Memory::Kind::Argument)
        r_.buffers[k_.memories[m].argIndex] = std::move(*mem_[m].bytes);
    return std::move(r_);
  }

  void checkAccess(const Op& op, uint64_t off) const {
    const MemView& v = mem_[op.memory];
    // A task's pointer argument may point into its buffer, and the task may access below it (p[i - 3]):
    // the offset is checked where it lands in the buffer.
    const uint64_t at = v.base + off, n = v.bytes->size();
    if (at > n || n - at < op.size)
      throw DiagnosticError(op.loc, opKindName(op.kind),
                            fmt::format("{} bytes at offset {} of {}, whose bytes are at offsets {} to {}",
                                        op.size, int64_t(off), k_.memories[op.memory].name, -int64_t(v.base),
                                        int64_t(n - v.base) - 1));
    if (off % op.size != 0)
      throw DiagnosticError(op.loc, opKindName(op.kind),
                            fmt::format("offset {} of {} is not aligned to the access size {}", off,
                                        k_.memories[op.memory].name, op.size));
  }

  // The bits of a value of `list` as little-endian bytes: a wide value's from wide_, else its word's.
  std::vector<uint8_t> bytesOf(const std::vector<Op>& list, ValueId o,
                               const std::vector<uint64_t>& vals) const {
    const uint32_t w = list[o].width();
    if (w > 64) return wide_.at(&list[o]);
    std::vector<uint8_t> b((w + 7) / 8);
    for (size_t i = 0; i < b.size(); ++i)
      b[i] = static_cast<uint8_t>(vals[o] >> (8 * i));
    return b;
  }

  // Wide values (a vector loaded or stored whole) live as bytes in wide_, by op; only Load, Concat,
  // Undef and Extract make them and only Extract, Concat and Store read them (ir::checkHardwareSupport), so
  // the word computed for them is 0.
  uint64_t computeWide(const Op& op, const std::vector<Op>& list, const std::vector<uint64_t>& vals) {
    std::vector<uint8_t>& out = wide_[&op];
    out.assign((op.width() + 7) / 8, 0);
    switch (op.kind) {
    case OpKind::Undef:
      break;
    case OpKind::Load:
      if (op.operands[1] == kNone || (vals[op.operands[1]] & 1)) {
        const uint64_t off = vals[op.operands[0]];
        checkAccess(op, off);
        std::copy_n(&byteAt(op.memory, off), op.size, out.begin());
      }
      break;
    case OpKind::Concat: {
      uint32_t at = 0; // bit by bit: a struct's members or a task's arguments need not fill whole bytes
      for (ValueId o : op.operands) {
        const std::vector<uint8_t> b = bytesOf(list, o, vals);
        const uint32_t w = list[o].width();
        for (uint32_t i = 0; i < w; i += 64) {
          const uint32_t n = std::min(64u, w - i);
          putBits(out, at + i, bitsAt(b, i, n), n);
        }
        at += w;
      }
      break;
    }
    case OpKind::Extract: { // a part of a wider access
      const std::vector<uint8_t> b = bytesOf(list, op.operands[0], vals);
      for (uint32_t i = 0; i < op.width(); i += 64) {
        const uint32_t n = std::min(64u, op.width() - i);
        putBits(out, i, bitsAt(b, static_cast<uint32_t>(op.imm) + i, n), n);
      }
      break;
    }
    default:
      throw InternalError(
          op.loc, opKindName(op.kind),
          fmt::format("the IR evaluator computes no {} of {} bits", opKindName(op.kind), op.width()));
    }
    return 0;
  }

  // One op over the values of its op list (the kernel's or a loop body's).
  uint64_t compute(const Op& op, const std::vector<Op>& list, const std::vector<uint64_t>& vals) {
    if ((op.kind == OpKind::Load || op.kind == OpKind::Store) &&
        k_.memories[op.memory].kind == Memory::Kind::Queue)
      return queueAccess(op, list, vals); // a task's queue, whatever the width
    if (op.width() > 64) return computeWide(op, list, vals);
    auto val = [&](ValueId o) { return vals[o]; };
    auto pred = [&](size_t i) { return op.operands[i] == kNone || (val(op.operands[i]) & 1); };
    switch (op.kind) {
    case OpKind::Const: return op.imm;
    case OpKind::Undef: return 0;
    case OpKind::Select: return (val(op.operands[0]) & 1) ? val(op.operands[1]) : val(op.operands[2]);
    case OpKind::Load: {
      if (!pred(1)) return 0; // not executed
      uint64_t off = val(op.operands[0]);
      checkAccess(op, off);
      uint64_t x = 0;
      for (uint32_t i = 0; i < op.size; ++i) x |= static_cast<uint64_t>(byteAt(op.memory, off + i)) << (8 * i);
      return x;
    }
    case OpKind::Store: {
      if (!pred(2)) return 0;
      uint64_t off = val(op.operands[0]);
      checkAccess(op, off);
      if (list[op.operands[1]].width() > 64) {
        const std::vector<uint8_t>& x = wide_.at(&list[op.operands[1]]);
        std::copy_n(x.begin(), op.size, &byteAt(op.memory, off));
        return 0;
      }
      const uint64_t x = val(op.operands[1]);
      for (uint32_t i = 0; i < op.size; ++i)
        byteAt(op.memory, off + i) = static_cast<uint8_t>(x >> (8 * i));
      return 0;
    }
    case OpKind::Extract:
      return bitsAt(bytesOf(list, op.operands[0], vals), op.imm, op.width());
    case OpKind::Concat: {
      uint64_t x = 0;
      uint32_t at = 0;
      for (ValueId o : op.operands) {
        x |= (val(o) & widthMask(list[o].width())) << at;
        at += list[o].width();
      }
      return x;
    }
    default: break;
    }
    for (ValueId o : op.operands)
      if (list[o].width() > 64)
        throw InternalError(
            op.loc, opKindName(op.kind),
            fmt::format("the IR evaluator computes no {} on {} bits", opKindName(op.kind), list[o].width()));
    std::vector<uint64_t> xs;
    for (ValueId o : op.operands) xs.push_back(val(o));
    const uint32_t ow = op.operands.empty() ? op.width() : list[op.operands[0]].width();
    if (auto r = lower::foldConstant(op.kind, op.width(), xs, ow, op.rounding)) return *r;
    // Hardware results where the fold refuses: division by zero gives 0, INT_MIN / -1 wraps.
    if (op.kind == OpKind::SDiv && xs.size() == 2 && (xs[1] & widthMask(ow)) != 0) return xs[0] & widthMask(op.width());
    return 0;
  }

  std::vector<uint64_t> callLoop(const Op& call, const std::vector<uint64_t>& vals) {
    std::vector<uint64_t> ins; // its live-ins (in a loop body its predicate follows)
    for (size_t i = 0; i < k_.loops[call.index].liveIns.size(); ++i)
      ins.push_back(vals[call.operands[i]]);
    return runLoop(call.index, ins);
  }

  void recordPredicates(uint32_t loop, const std::vector<uint64_t>& words) {
    if (r_.predicateTraceTruncated) return;
    predicateWords_ += words.size();
    if (predicateWords_ > kMaxTraceEvents) {
      r_.predicateTraceTruncated = true;
      return;
    }
    auto& to = r_.loopIterationPredicates[loop];
    to.insert(to.end(), words.begin(), words.end());
  }

  std::vector<uint64_t> runLoop(uint32_t index, const std::vector<uint64_t>& ins) {
    const Loop& lp = k_.loops[index];
    std::vector<uint64_t> vals(lp.ops.size(), 0), phis(lp.phis.size());
    std::vector<std::vector<uint64_t>> innerOuts(lp.ops.size()); // inner loops' live-outs, by LoopCall
    for (size_t i = 0; i < lp.phis.size(); ++i) phis[i] = ins[lp.phis[i].initLiveIn];
    // Each iteration's record of its timed operations' predicates, if asked for.
    std::vector<uint64_t> preds(
        index < recordPredicates_.size() && recordPredicates_[index] ? ir::predicateWords(lp) : 0, 0);
    uint64_t iterations = 0;
    for (;; ++iterations) {
      ++r_.loopIterations[index];
      std::fill(preds.begin(), preds.end(), 0);
      size_t timed = 0;
      auto record = [&](const Op& op, ValueId predicate) {
        if (!preds.empty() && (predicate == kNone || (vals[predicate] & 1)))
          preds[timed / 64] |= uint64_t(1) << (timed % 64);
        timed += ir::timedOperation(op);
      };
      try {
        for (ValueId v = 0; v < lp.ops.size(); ++v) {
          const Op& op = lp.ops[v];
          step(op);
          switch (op.kind) {
          case OpKind::LiveIn: vals[v] = ins[op.index]; break;
          case OpKind::LoopPhi: vals[v] = phis[op.index]; break;
          case OpKind::LoopCall: // an inner loop, in the iterations its predicate (last operand) holds
            record(op, op.operands.back());
            if (op.operands.back() == kNone || (vals[op.operands.back()] & 1))
              innerOuts[v] = callLoop(op, vals);
            else
              innerOuts[v].assign(k_.loops[op.index].liveOuts.size(), 0);
            break;
          case OpKind::LoopOut: vals[v] = innerOuts[op.operands[0]].at(op.index); break;
          default:
            vals[v] = compute(op, lp.ops, vals);
            if (op.kind == OpKind::Load) record(op, op.operands[1]);
            if (op.kind == OpKind::Store) record(op, op.operands[2]);
            break;
          }
        }
      } catch (const Idle&) { // a served body waits for its next invocation: nothing of this iteration ran
        --r_.loopIterations[index];
        return std::vector<uint64_t>(lp.liveOuts.size(), 0);
      }
      if (!preds.empty()) recordPredicates(index, preds);
      if (!(vals[lp.continueCond] & 1)) break;
      for (size_t i = 0; i < lp.phis.size(); ++i) phis[i] = vals[lp.phis[i].next];
    }
    r_.loopMinIterations[index] = std::min(r_.loopMinIterations[index], iterations + 1);
    r_.loopMaxIterations[index] = std::max(r_.loopMaxIterations[index], iterations + 1);
    r_.loopCallIterations[index].push_back(iterations + 1);
    std::vector<uint64_t> outs;
    for (ValueId o : lp.liveOuts) outs.push_back(vals[o]);
    return outs;
  }
};

} // namespace

EvalResult evaluateKernel(const Kernel& k, const std::vector<uint64_t>& args,
                          std::vector<std::vector<uint8_t>> buffers, uint64_t maxSteps,
                          const std::map<uint32_t, std::vector<uint8_t>>& preload,
                          const std::vector<bool>& recordPredicates,
                          const std::vector<std::vector<bool>>& taskRecordPredicates) {
  Evaluator e(k, args, buffers, maxSteps, preload);
  e.recordPredicatesOf(recordPredicates);
  e.recordTaskPredicatesOf(taskRecordPredicates);
  return e.run();
}

} // namespace spvhls::ir
