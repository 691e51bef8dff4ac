// Task sequences (SPV_INTEL_task_sequence) in the kernel being translated: every
// OpTaskSequenceCreateINTEL becomes a Task process with an invocation and a result channel; asyncs,
// gets and releases become TaskAsync, TaskGet and TaskRelease ops naming it. The task function's body
// is lowered on its own afterwards (lower.cpp, lowerTaskBodies).
#include <fmt/format.h>

#include "ir/lower_translate.h"

namespace spvhls::ir::lower {

using K = spirv::Type::Kind;

// The type a task function's result or scalar parameter has in the hardware (none: void); a
// construct the hardware does not pass fails naming itself.
Type Translator::taskValueType(Id typeId, const LInst& at, const std::string& what) const {
  const spirv::Type& t = c_.type(typeId);
  switch (t.kind) {
  case K::Void:
    return Type();
  case K::Bool:
    return Type::bits(1);
  case K::Int:
  case K::Float:
    if (t.width >= 1 && t.width <= 64) return Type::bits(t.width);
    break;
  case K::Struct: // its members' bits end to end (lower_structs.cpp)
    return Type::bits(widthOf(typeId, at));
  default:
    break;
  }
  c_.failAt(at, fmt::format("{} of type {} is not supported in hardware yet (task functions take and return "
                            "scalars, structs of scalars and pointers to global memory)",
                            what, c_.typeName(typeId)));
}

uint32_t Translator::taskProcess(Id sequence, const LInst& at) const {
  auto it = taskOf_.find(sequence);
  if (it == taskOf_.end())
    c_.failAt(at, fmt::format("the Sequence operand {} is not the result of an OpTaskSequenceCreateINTEL of this "
                              "kernel; a task sequence chosen at run time (through a phi, a select or memory) is "
                              "not supported in hardware yet",
                              c_.ref(sequence)));
  return it->second;
}

void Translator::translateTask(const LInst& in) {
  switch (in.op) {
  case SpvOp::OpTaskSequenceCreateINTEL: {
    const spirv::Function* fn = c_.mv.findFunction(in.ids.at(0));
    if (!fn || fn->isDeclaration())
      c_.failAt(in, fmt::format("the task function {} has no body", c_.ref(in.ids.at(0))));
    auto literal = [&](size_t i) { return static_cast<int32_t>(static_cast<uint32_t>(in.lits.at(i))); };
    Process p;
    p.kind = Process::Kind::Task;
    p.region = kNoRegion; // its regions are its body's
    p.function = c_.nameOf(fn->id);
    p.spirvFunction = fn->id;
    p.loc = c_.locOf(in.src);
    p.pipelined = literal(0);
    p.clusterMode = literal(1);
    p.getCapacity = static_cast<uint32_t>(in.lits.at(2));
    p.asyncCapacity = static_cast<uint32_t>(in.lits.at(3));
    if (p.clusterMode < -1 || p.clusterMode > 1)
      c_.failAt(in, fmt::format("ClusterMode is {}; expected 0 (stall-free), 1 (stall-enable) or -1 (the compiler's "
                                "choice)",
                                p.clusterMode));
    if (p.pipelined < -1)
      c_.failAt(in, fmt::format("Pipelined is {}; expected 0 (not pipelined), an initiation interval N > 0 or -1 "
                                "(the compiler's choice)",
                                p.pipelined));
    if (k_.processes.empty()) { // the kernel's own comes first
      Process kp;
      kp.name = k_.name;
      kp.loc = k_.loc;
      k_.processes.push_back(std::move(kp));
    }
    const auto index = static_cast<uint32_t>(k_.processes.size());
    p.name = fmt::format("task{}_{}", index, p.function);
    // What crosses the channels: the parameters end to end (a pointer as its 64-bit byte offset),
    // and the result (one bit of completion for a void task).
    uint32_t argBits = 0;
    for (Id param : fn->params) {
      const Id t = c_.typeOf(param);
      p.params.push_back(c_.type(t).kind == K::Pointer
                             ? Type::bits(64)
                             : taskValueType(t, in, fmt::format("task function parameter {}", c_.ref(param))));
      argBits += p.params.back().width();
      p.argMemory.push_back(kNoMemory); // a pointer's: bound by the asyncs
    }
    const Type result = taskValueType(fn->resultType, in, fmt::format("the result of task function {}", p.function));
    auto channel = [&](Channel::Kind kind, const char* what, Type element, uint32_t depth, bool toTask) {
      Channel ch;
      ch.kind = kind;
      ch.name = fmt::format("{}_{}", p.name, what);
      ch.element = element;
      ch.depth = std::max<uint32_t>(1, depth);
      ch.producer = toTask ? 0 : index;
      ch.consumer = toTask ? index : 0;
      ch.loc = p.loc;
      k_.channels.push_back(std::move(ch));
      return static_cast<uint32_t>(k_.channels.size() - 1);
    };
    p.invocation = channel(Channel::Kind::Invocation, "invoke", Type::bits(std::max(1u, argBits)), p.asyncCapacity, true);
    p.result = channel(Channel::Kind::Result, "result", result.isNone() ? Type::bits(1) : result, p.getCapacity, false);
    p.resultType = result;
    k_.processes.push_back(std::move(p));
    taskOf_[in.result] = index;
    // A create starts a new sequence on the instance: what an earlier one left is waited for and
    // discarded, as a release would (a create executed again, or a second run of the kernel).
    Op op;
    op.kind = OpKind::TaskRelease;
    op.index = index;
    op.loc = c_.locOf(in.src);
    op.name = k_.processes[index].name;
    b_.emit(std::move(op));
    break;
  }
  case SpvOp::OpTaskSequenceAsyncINTEL: {
    const uint32_t index = taskProcess(in.ids.at(0), in);
    Process& p = k_.processes[index];
    const spirv::Function& fn = *c_.mv.findFunction(p.spirvFunction);
    if (p.asyncCapacity == 0)
      c_.failAt(in, fmt::format("deadlock: the task sequence {} (created at {}) has AsyncCapacity 0, so this async can "
                                "never start a task thread; use an AsyncCapacity of at least 1",
                                p.name, p.loc.str()));
    if (in.ids.size() - 1 != fn.params.size())
      c_.failAt(in, fmt::format("{} arguments passed to task function {}, which takes {}", in.ids.size() - 1,
                                p.function, fn.params.size()));
    Op op;
    op.kind = OpKind::TaskAsync;
    op.index = index;
    op.loc = c_.locOf(in.src);
    op.name = p.name;
    for (size_t i = 0; i < fn.params.size(); ++i) {
      const Id arg = in.ids[i + 1];
      if (c_.type(c_.typeOf(fn.params[i])).kind != K::Pointer) {
        op.operands.push_back(operandOf(arg, taskValueType(c_.typeOf(fn.params[i]), in, "an argument").width(), in));
        continue;
      }
      const Ptr ptr = ptrOf(arg, in);
      if (isMulti(ptr.set) || isNullOnly(ptr.set))
        c_.failAt(in, fmt::format("argument {} of the async may point into several memories (or is null); a task "
                                  "object's pointer parameter is bound to one memory in hardware",
                                  c_.ref(arg)));
      const Memory& mem = k_.memories[ptr.memory];
      if (mem.kind == Memory::Kind::Private || (mem.kind == Memory::Kind::ProgramScope && !mem.persistent))
        c_.failAt(in, fmt::format("argument {} points into {} '{}', the caller's own memory; a task thread may only "
                                  "access global (CrossWorkgroup) memory of its caller",
                                  c_.ref(arg), memoryKindName(mem.kind), mem.name));
      uint32_t& bound = p.argMemory[i];
      if (bound != kNoMemory && bound != ptr.memory)
        c_.failAt(in, fmt::format("argument {} points into '{}', an earlier async of {} passed a pointer into '{}'; a "
                                  "task object's pointer parameter is bound to one memory in hardware",
                                  c_.ref(arg), mem.name, p.name, k_.memories[bound].name));
      bound = ptr.memory;
      touched_[ptr.memory] = 1;
      op.operands.push_back(ptr.offset);
    }
    b_.emit(std::move(op));
    break;
  }
  case SpvOp::OpTaskSequenceGetINTEL: {
    const uint32_t index = taskProcess(in.ids.at(0), in);
    const Process& p = k_.processes[index];
    if (p.getCapacity == 0)
      c_.failAt(in, fmt::format("deadlock: the task sequence {} (created at {}) has GetCapacity 0, so no task thread "
                                "can store its result and this get blocks forever; use a GetCapacity of at least 1",
                                p.name, p.loc.str()));
    Op op;
    op.kind = OpKind::TaskGet;
    op.index = index;
    op.type = p.resultType;
    op.loc = c_.locOf(in.src);
    op.name = p.name;
    const ValueId v = b_.emit(std::move(op));
    if (!p.resultType.isNone()) vals_[in.result] = v;
    break;
  }
  case SpvOp::OpTaskSequenceReleaseINTEL: {
    Op op;
    op.kind = OpKind::TaskRelease;
    op.index = taskProcess(in.ids.at(0), in);
    op.loc = c_.locOf(in.src);
    op.name = k_.processes[op.index].name;
    b_.emit(std::move(op));
    break;
  }
  default:
    c_.failAt(in, "not a task-sequence instruction");
  }
}

} // namespace spvhls::ir::lower
