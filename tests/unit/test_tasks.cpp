// Task sequences in hardware (docs/task-sequences.md): lowering (a Task process per create, its
// channels and the memories it shares), the IR evaluator against the interpreter, the verifier's
// rules, what cannot be bound named as an error, and the kernel's top module around the task
// instances. Kernels: tests/e2e/tasks/ (OpenCL C made into task sequences by make_tasks.py).
#include <doctest/doctest.h>

#include <string>

#include "ir/hls_ir.h"
#include "lower_test_util.h"
#include "rtlgen/plan.h"
#include "rtlgen/rtlgen.h"
#include "scheduler/kernel_schedule.h"

using namespace lower_test;
namespace nl = spvhls::rtl::nl;

namespace {

Loaded taskFile(const std::string& name) {
  return loadModule(spirv::readModuleFile(std::string(SPVHLS_SOURCE_DIR) + "/tests/e2e/tasks/" + name));
}

uint32_t memoryNamed(const ir::Kernel& k, const std::string& name) {
  for (uint32_t m = 0; m < k.memories.size(); ++m)
    if (k.memories[m].name == name) return m;
  FAIL("no memory " << name);
  return 0;
}

std::string verifyError(const ir::Kernel& k) {
  try {
    ir::verifyKernel(k);
  } catch (const DiagnosticError& e) {
    return e.what();
  }
  return "";
}

// What every hand-written task module here starts with: its capabilities, the extension, the memory
// model, the entry point %k "k" and %void.
constexpr const char* kTaskModuleHead = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability TaskSequenceINTEL
OpExtension "SPV_INTEL_task_sequence"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
)";

// A kernel passing %q (a pointer, edited per test) to a task reading through it.
std::string bindingKernel(const std::string& body) {
  return kTaskModuleHead + std::string(R"(%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_4 = OpConstant %uint 4
%gptr = OpTypePointer CrossWorkgroup %uint
%arr = OpTypeArray %uint %uint_4
%parr = OpTypePointer Function %arr
%fptr = OpTypePointer Function %uint
%ts = OpTypeTaskSequenceINTEL
%taskty = OpTypeFunction %uint %gptr
%ftaskty = OpTypeFunction %uint %fptr
%kty = OpTypeFunction %void %gptr %gptr %uint
%task = OpFunction %uint None %taskty
%p = OpFunctionParameter %gptr
%tl = OpLabel
%x = OpLoad %uint %p Aligned 4
OpReturnValue %x
OpFunctionEnd
%ftask = OpFunction %uint None %ftaskty
%fp = OpFunctionParameter %fptr
%ftl = OpLabel
%fx = OpLoad %uint %fp Aligned 4
OpReturnValue %fx
OpFunctionEnd
%k = OpFunction %void None %kty
%a = OpFunctionParameter %gptr
%b = OpFunctionParameter %gptr
%n = OpFunctionParameter %uint
%e = OpLabel
%s = OpTaskSequenceCreateINTEL %ts %task -1 -1 1 1
%c = OpINotEqual %bool %n %uint_0
)" + body + R"(
%r = OpTaskSequenceGetINTEL %uint %s
OpStore %a %r Aligned 4
OpReturn
OpFunctionEnd
)");
}

} // namespace

TEST_CASE("every create is a task process with its queues and the memories it shares") {
  const Loaded l = taskFile("parallel4.spvasm");
  const ir::Kernel k = lower(l, "parallel4");
  REQUIRE(k.processes.size() == 5);
  REQUIRE(k.tasks.size() == 4);
  CHECK(k.channels.size() == 8);
  const uint32_t a = memoryNamed(k, "a");
  for (uint32_t p = 1; p < 5; ++p) {
    const ir::Process& pr = k.processes[p];
    CHECK(pr.kind == ir::Process::Kind::Task);
    CHECK(pr.function == "sum_range");
    CHECK(pr.getCapacity == 1);
    CHECK(pr.asyncCapacity == 1);
    CHECK(pr.pipelined == -1);
    CHECK(pr.clusterMode == -1);
    // sum_range(global const int* a, int lo, int hi): a pointer bound to the kernel's a, two scalars.
    CHECK(pr.argMemory == std::vector<uint32_t>{a, ir::kNoMemory, ir::kNoMemory});
    const ir::Kernel& body = k.tasks[pr.body];
    CHECK(body.result == ir::Type::bits(32));
    REQUIRE(body.memories.size() == 1);
    CHECK(pr.memoryMap == std::vector<uint32_t>{a});
    const ir::Channel &inv = k.channels[pr.invocation], &res = k.channels[pr.result];
    CHECK(inv.element == ir::Type::bits(64 + 32 + 32));
    CHECK(inv.depth == 1);
    CHECK(res.element == ir::Type::bits(32));
    CHECK((inv.producer == 0 && inv.consumer == p && res.producer == p && res.consumer == 0));
  }
  // A release at every create (a new sequence on the instance) and at every release; the asyncs and
  // gets name their processes in program order.
  CHECK(countKind(k.ops, OpKind::TaskRelease) == 8);
  const auto asyncs = opsOf(k.ops, OpKind::TaskAsync), gets = opsOf(k.ops, OpKind::TaskGet);
  REQUIRE(asyncs.size() == 4);
  REQUIRE(gets.size() == 4);
  for (uint32_t i = 0; i < 4; ++i) {
    CHECK(k.ops[asyncs[i]].index == i + 1);
    CHECK(k.ops[asyncs[i]].operands.size() == 3);
    CHECK(k.ops[gets[i]].index == i + 1);
    CHECK(k.ops[gets[i]].type == ir::Type::bits(32));
  }
}

TEST_CASE("a task's globals are the kernel's memories; its constants and arrays its own") {
  const Loaded l = taskFile("globals.spvasm");
  const ir::Kernel k = lower(l, "globals");
  REQUIRE(k.processes.size() == 2);
  const ir::Process& pr = k.processes[1];
  const ir::Kernel& body = k.tasks[pr.body];
  for (uint32_t bm = 0; bm < body.memories.size(); ++bm) {
    const ir::Memory& mem = body.memories[bm];
    INFO("body memory " << mem.name);
    if (mem.name == "acc" || mem.name == "hist") {
      // Shared: a port of the task's module onto the kernel's memory of the same variable.
      CHECK(mem.kind == ir::Memory::Kind::External);
      REQUIRE(pr.memoryMap[bm] != ir::kNoMemory);
      CHECK(k.memories[pr.memoryMap[bm]].name == mem.name);
      CHECK(k.memories[pr.memoryMap[bm]].persistent);
      CHECK(k.memories[pr.memoryMap[bm]].onChip());
    } else if (mem.name == "tbl") {
      CHECK(pr.memoryMap[bm] == ir::kNoMemory); // a constant: the task's own ROM
      CHECK(mem.onChip());
    }
  }
  // The kernel's memory of hist is written by the task: its port says so even if the kernel only reads.
  const ir::Memory& hist = k.memories[memoryNamed(k, "hist")];
  REQUIRE(hist.ports.size() == 1);
  CHECK(hist.ports[0].access == ir::PortAccess::ReadWrite);
}

TEST_CASE("the IR evaluator runs the tasks as the interpreter does and traces the kernel") {
  SUBCASE("four objects of one function") {
    const Loaded l = taskFile("parallel4.spvasm");
    const ir::Kernel k = lower(l, "parallel4");
    const ir::EvalResult r =
        runBoth(l, k, {ints("a", pseudoRandom(64, 41, -1000, 1000)), ints("out", std::vector<int32_t>(5, 0)),
                       scalar("n", 64)});
    CHECK(r.invocations.size() == 4);
    size_t asyncs = 0;
    for (const auto& e : r.trace) asyncs += e.op != kNone && k.ops[e.op].kind == OpKind::TaskAsync;
    CHECK(asyncs == 4);
    for (const ir::EvalResult& inv : r.invocations) CHECK(inv.loopIterations.size() == 1);
  }
  SUBCASE("pointer offsets, two pointers into one buffer") {
    const Loaded l = taskFile("offsets.spvasm");
    const ir::Kernel k = lower(l, "offsets");
    runBoth(l, k,
            {ints("a", pseudoRandom(64, 1, -100, 100)), ints("b", std::vector<int32_t>(64, 0)),
             ints("c", pseudoRandom(32, 2, -100, 100)), scalar("len", 16)});
  }
}

TEST_CASE("the IR evaluator keeps each process's invocations in async order for the cycle model") {
  SUBCASE("asyncs made by a pipelined loop (queue stores)") {
    const Loaded l = taskFile("reuse.spvasm"); // n / 16 asyncs in a loop, then the gets in another
    const ir::Kernel k = lower(l, "reuse");
    const ir::EvalResult r = runBoth(
        l, k,
        {ints("a", pseudoRandom(64, 3, -100, 100)), ints("b", std::vector<int32_t>(64, 0)), scalar("n", 64)});
    REQUIRE(r.processInvocations.size() == k.processes.size());
    CHECK(r.processInvocations[1] == std::vector<uint32_t>{0, 1, 2, 3});
    CHECK(r.invocations.size() == 4);
    // The body's loops' predicates only where asked for (the loops the cycle model steps).
    for (const ir::EvalResult& inv : r.invocations)
      CHECK(inv.loopIterationPredicates.at(0).empty());
    std::vector<uint64_t> scalars = {0, 0, 64};
    std::vector<std::vector<uint8_t>> buffers = {
        std::vector<uint8_t>(256, 1), std::vector<uint8_t>(256, 0), {}};
    const ir::EvalResult asked = ir::evaluateKernel(k, scalars, buffers, 1'000'000, {}, {}, {{}, {true}});
    REQUIRE(asked.invocations.size() == 4);
    const ir::Kernel& body = k.tasks[k.processes[1].body];
    for (const ir::EvalResult& inv : asked.invocations)
      CHECK(inv.loopIterationPredicates.at(0).size() ==
            inv.loopIterations.at(0) * ir::predicateWords(body.loops[0]));
  }
  SUBCASE("a served body records its loop's one iteration per invocation") {
    const Loaded l = taskFile("pipelined_1.spvasm");
    const ir::Kernel k = lower(l, "pipelined");
    const ir::EvalResult r = runBoth(l, k,
                                     {ints("a", pseudoRandom(16, 5, -300, 300)),
                                      ints("out", std::vector<int32_t>(16, 0)), scalar("n", 16)});
    REQUIRE(r.processInvocations.size() == 2);
    CHECK(r.processInvocations[1].size() == 16);
    for (const ir::EvalResult& inv : r.invocations)
      CHECK(inv.loopIterationPredicates.at(0) == std::vector<uint64_t>{0b11}); // the pop and the push
  }
}

TEST_CASE("a pipelined loop reaches a task's queues as memories of kind Queue") {
  const Loaded l = taskFile("reuse.spvasm"); // an async loop, then a (void) get loop
  const ir::Kernel k = lower(l, "reuse");
  REQUIRE(k.loops.size() == 2);
  std::vector<uint32_t> queues;
  for (uint32_t m = 0; m < k.memories.size(); ++m)
    if (k.memories[m].kind == ir::Memory::Kind::Queue) queues.push_back(m);
  REQUIRE(queues.size() == 2);
  const ir::Memory &inv = k.memories[queues[0]], &res = k.memories[queues[1]];
  CHECK((inv.queueProcess == 1 && !inv.queueResults && res.queueProcess == 1 && res.queueResults));
  CHECK(!inv.onChip());
  // The async: one store of the arguments (a, b: 64-bit offsets; base, len: 32 bits) padded to 32 bytes;
  // the void get: a load kept although nothing reads it (it pops).
  const auto stores = opsOf(k.loops[0].ops, OpKind::Store);
  REQUIRE(stores.size() == 1);
  CHECK(k.loops[0].ops[stores[0]].memory == queues[0]);
  CHECK(k.loops[0].ops[stores[0]].size == 32);
  const auto loads = opsOf(k.loops[1].ops, OpKind::Load);
  REQUIRE(loads.size() == 1);
  CHECK(k.loops[1].ops[loads[0]].memory == queues[1]);
  CHECK(countKind(k.ops, OpKind::TaskAsync) == 0);
  runBoth(l, k, {ints("a", pseudoRandom(64, 3, -100, 100)), ints("b", std::vector<int32_t>(64, 0)), scalar("n", 64)});
}

TEST_CASE("a loop's pops of one queue keep their order in and across iterations") {
  const Loaded l = taskFile("fuse_deadlock.spvasm"); // two gets per iteration
  const ir::Kernel k = lower(l, "fuse_deadlock");
  uint32_t loop = 0;
  while (loop < k.loops.size() && opsOf(k.loops[loop].ops, OpKind::Load).size() < 2) ++loop;
  REQUIRE(loop < k.loops.size());
  const sched::OperatorLibrary lib;
  const sched::Problem p = sched::buildLoopProblem(k, loop, lib);
  const auto loads = opsOf(k.loops[loop].ops, OpKind::Load);
  bool forward = false, back = false;
  for (const sched::Dependence& d : p.deps) {
    forward |= d.from == loads[0] && d.to == loads[1] && d.distance == 0;
    back |= d.from == loads[1] && d.to == loads[0] && d.distance == 1;
  }
  CHECK(forward);
  CHECK(back);
}

TEST_CASE("the verifier checks task processes and operations") {
  const Loaded l = taskFile("parallel4.spvasm");
  const ir::Kernel good = lower(l, "parallel4");
  auto broken = [&](const std::string& expect, auto edit) {
    ir::Kernel k = good;
    edit(k);
    CHECK_MESSAGE(verifyError(k).find(expect) != std::string::npos, verifyError(k));
  };
  broken("the task's result is i32", [](ir::Kernel& k) { k.ops[opsOf(k.ops, OpKind::TaskGet)[0]].type = ir::Type::bits(16); });
  broken("arguments for 3 parameters", [](ir::Kernel& k) { k.ops[opsOf(k.ops, OpKind::TaskAsync)[0]].operands.pop_back(); });
  broken("is not a task process", [](ir::Kernel& k) { k.ops[opsOf(k.ops, OpKind::TaskGet)[0]].index = 0; });
  broken("is bound to kernel memory", [](ir::Kernel& k) { k.processes[1].memoryMap[0] = ir::kNoMemory; });
  broken("is not its result channel", [](ir::Kernel& k) { k.channels[k.processes[1].result].producer = 0; });
  broken("returns i32, expected i8", [](ir::Kernel& k) { k.tasks[0].result = ir::Type::bits(8); });
}

TEST_CASE("what the hardware cannot bind is an error that names it") {
  CHECK_NOTHROW(lower(loadText(bindingKernel("%q = OpCopyObject %gptr %a\nOpTaskSequenceAsyncINTEL %s %q")), "k"));
  // No async: nothing says which memory the (pipelined) task's pointer parameter is.
  CHECK(lowerError(loadText(bindingKernel("")), "k").find("no async binds its pointer parameter 'p'") !=
        std::string::npos);
  CHECK(lowerError(loadText(bindingKernel("%q = OpSelect %gptr %c %a %b\nOpTaskSequenceAsyncINTEL %s %q")), "k")
            .find("may point into several memories") != std::string::npos);
  CHECK(lowerError(loadText(bindingKernel("OpTaskSequenceAsyncINTEL %s %a\nOpTaskSequenceAsyncINTEL %s %b")), "k")
            .find("an earlier async of task1_task passed a pointer into 'a'") != std::string::npos);
  // The caller's private memory: a task thread may not access it.
  const std::string priv = "%v = OpVariable %parr Function\n%q = OpInBoundsPtrAccessChain %fptr %v %uint_0 "
                           "%uint_0\n%fs = OpTaskSequenceCreateINTEL %ts %ftask -1 -1 1 1\n"
                           "OpTaskSequenceAsyncINTEL %fs %q\nOpTaskSequenceAsyncINTEL %s %a";
  CHECK(lowerError(loadText(bindingKernel(priv)), "k").find("the caller's own memory") != std::string::npos);
  // A sequence chosen at run time.
  const std::string phi = R"(OpBranchConditional %c %l1 %l2
%l1 = OpLabel
%s1 = OpTaskSequenceCreateINTEL %ts %task -1 -1 1 1
OpBranch %j
%l2 = OpLabel
OpBranch %j
%j = OpLabel
%sq = OpPhi %ts %s %l2 %s1 %l1
OpTaskSequenceAsyncINTEL %sq %a)";
  CHECK(lowerError(loadText(bindingKernel(phi)), "k").find("a task sequence chosen at run time") != std::string::npos);
}

TEST_CASE("the kernel's top module instances each task with its queues and shares memories") {
  const Loaded l = taskFile("parallel4.spvasm");
  ir::Kernel k = lower(l, "parallel4");
  const sched::OperatorLibrary lib;
  auto build = [&](const ir::Kernel& kernel, const std::vector<rtl::TaskInstance>& tasks, const std::string& name) {
    const rtl::ClusterChoice choice = rtl::chooseClusterKinds(kernel, rtl::ClusterMode::StallEnable, "test");
    sched::ScheduleOptions so;
    so.exitBeforeMemory = rtl::exitBeforeMemory(choice.loops);
    const sched::KernelSchedule s = sched::scheduleKernel(kernel, so);
    const rtl::KernelPlan plan = rtl::planKernel(kernel, s, lib, choice.loops);
    return rtl::generateVerilog(kernel, s, plan, true, tasks, name);
  };
  std::vector<rtl::TaskInstance> instances(k.processes.size());
  for (uint32_t p = 1; p < k.processes.size(); ++p) {
    const ir::Kernel& body = k.tasks[k.processes[p].body];
    const rtl::RtlResult r = build(body, {}, "parallel4_" + k.processes[p].name);
    CHECK(r.modules[0].find("result")); // the body returns its value
    instances[p] = rtl::taskInstance(body, r);
    CHECK(instances[p].argPorts == std::vector<std::string>{"mem_a", "arg_lo", "arg_hi"});
    CHECK(instances[p].resultBits == 32);
  }
  const rtl::RtlResult top = build(k, instances, "");
  const nl::Module& m = top.modules[0];
  for (uint32_t p = 1; p <= 4; ++p) {
    const nl::Instance* inst = m.findInstance("u_task" + std::to_string(p));
    REQUIRE(inst);
    CHECK(inst->module == "parallel4_task" + std::to_string(p) + "_sum_range");
    const nl::Fifo* inv = m.findFifo("tk" + std::to_string(p) + "_inv");
    const nl::Fifo* res = m.findFifo("tk" + std::to_string(p) + "_res");
    REQUIRE((inv && res));
    CHECK(inv->depth == 2); // AsyncCapacity 1, as a FIFO of at least two entries
    CHECK(inv->width == 128);
    CHECK(res->width == 32);
    // Each task's requests on a: a skid FIFO that passes requests straight on when uncontended.
    const nl::Fifo* skid = m.findFifo("arb0_t" + std::to_string(p - 1));
    REQUIRE(skid);
    CHECK(skid->bypass);
  }
  CHECK(m.findFifo("arb0_tag")); // responses routed back in order
  CHECK(m.find("tasks_idle"));   // done waits for the tasks
}

TEST_CASE("a pipelined task's body is one endless loop serving its invocations") {
  SUBCASE("Pipelined 1: a straight-line task") {
    const Loaded l = taskFile("pipelined_1.spvasm");
    const ir::Kernel k = lower(l, "pipelined");
    const ir::Process& pr = k.processes.at(1);
    CHECK(pr.served);
    CHECK(pr.notServed.empty());
    CHECK(pr.params == std::vector<ir::Type>{ir::Type::bits(32)});
    const ir::Kernel& body = k.tasks[pr.body];
    // Its parameters come from its invocation queue, its results go to its result queue.
    CHECK(body.args.empty());
    CHECK(body.result.isNone());
    REQUIRE(body.loops.size() == 1);
    const ir::Loop& loop = body.loops[0];
    CHECK(loop.endless());
    CHECK(loop.controls.ii == 1u);
    const auto loads = opsOf(loop.ops, OpKind::Load), stores = opsOf(loop.ops, OpKind::Store);
    REQUIRE((loads.size() == 1 && stores.size() == 1));
    const ir::Memory &inv = body.memories[loop.ops[loads[0]].memory], &res = body.memories[loop.ops[stores[0]].memory];
    CHECK((inv.ownQueue() && !inv.queueResults && res.ownQueue() && res.queueResults));
    CHECK(pr.memoryMap[loop.ops[loads[0]].memory] == ir::kNoMemory);
    // The pop and the push are independent across iterations (invocations overlap): II 1 is reachable.
    const sched::OperatorLibrary lib;
    const sched::Problem p = sched::buildLoopProblem(body, 0, lib);
    for (const sched::Dependence& d : p.deps) CHECK_FALSE((d.from == stores[0] && d.to == loads[0]));
    const sched::KernelSchedule s = sched::scheduleKernel(body, {});
    CHECK(s.loops[0].schedule.ii == 1);
    CHECK(s.loops[0].schedule.start[loads[0]] == 0);
    // The IR evaluator serves one invocation per async, as the interpreter runs it.
    runBoth(l, k, {ints("a", pseudoRandom(16, 5, -300, 300)), ints("out", std::vector<int32_t>(16, 0)), scalar("n", 16)});
  }
  SUBCASE("Pipelined 0, or a task with a loop: one invocation at a time, and why") {
    const Loaded l0 = taskFile("pipelined_0.spvasm");
    const ir::Kernel k0 = lower(l0, "pipelined");
    CHECK_FALSE(k0.processes.at(1).served);
    CHECK(k0.processes.at(1).notServed.empty());
    const Loaded lp = taskFile("parallel4.spvasm"); // sum_range has a loop, Pipelined -1
    const ir::Kernel kp = lower(lp, "parallel4");
    CHECK_FALSE(kp.processes.at(1).served);
    CHECK(kp.processes.at(1).notServed.find("has a loop of its own") != std::string::npos);
  }
  SUBCASE("two pointer parameters into one buffer share one port, at each invocation's offsets") {
    const Loaded l = taskFile("served.spvasm");
    const ir::Kernel k = lower(l, "served");
    const ir::Process& mac = k.processes.at(1);
    REQUIRE(mac.served);
    const ir::Kernel& body = k.tasks[mac.body];
    uint32_t ports = 0;
    for (uint32_t bm = 0; bm < body.memories.size(); ++bm)
      if (body.memories[bm].boundTo != ir::kNoMemory) {
        ++ports;
        CHECK(mac.memoryMap[bm] == memoryNamed(k, "a"));
      }
    CHECK(ports == 1);
    // Three accesses to a per invocation (a[i + 1], a[i], a[i] =), on the one port in program order.
    CHECK(opsOf(body.loops[0].ops, OpKind::Load).size() == 3); // the pop and two reads
    runBoth(l, k,
            {ints("a", pseudoRandom(25, 61, -1000, 1000)), ints("w", pseudoRandom(24, 62, -50, 50)),
             ints("out", std::vector<int32_t>(24, 0)), ints("out2", std::vector<int32_t>(24, 0)), scalar("n", 24)});
  }
}

TEST_CASE("struct results and parameters cross the queues as their members' bits") {
  const Loaded l = taskFile("structs.spvasm");
  const ir::Kernel k = lower(l, "structs");
  REQUIRE(k.processes.size() == 3);
  for (uint32_t p = 1; p <= 2; ++p) {
    const ir::Process& pr = k.processes[p];
    // struct rec { uint a; ushort b; bool c; }: 32 + 16 + 1 bits, the first member lowest.
    CHECK(pr.resultType == ir::Type::bits(49));
    CHECK(pr.params == std::vector<ir::Type>{ir::Type::bits(32), ir::Type::bits(49)});
    CHECK(k.channels[pr.invocation].element == ir::Type::bits(81));
  }
  CHECK(k.processes[1].served);
  CHECK_FALSE(k.processes[2].served);
  runBoth(l, k, {ints("in", pseudoRandom(12, 71, 0, 2000000000)), ints("out", std::vector<int32_t>(74, 0)),
                 scalar("n", 12)});
  // Wider than 64 bits, or with a member that is not a scalar: named, with what is expected.
  auto kernelWith = [](const std::string& members) {
    return kTaskModuleHead +
           std::string("%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%v2 = OpTypeVector %uint 2\n"
                       "%big = OpTypeStruct ") +
           members +
           "\n%fty = OpTypeFunction %big %big\n%kty = OpTypeFunction %void\n"
           "%ts = OpTypeTaskSequenceINTEL\n%f = OpFunction %big None %fty\n%fp = OpFunctionParameter %big\n"
           "%fl = OpLabel\nOpReturnValue %fp\nOpFunctionEnd\n%k = OpFunction %void None %kty\n%kl = OpLabel\n"
           "%s = OpTaskSequenceCreateINTEL %ts %f -1 -1 1 1\nOpTaskSequenceReleaseINTEL "
           "%s\nOpReturn\nOpFunctionEnd\n";
  };
  CHECK_NOTHROW(lower(loadText(kernelWith("%ulong")), "k"));
  CHECK(lowerError(loadText(kernelWith("%ulong %uint")), "k").find("struct values of 96 bits") != std::string::npos);
  CHECK(lowerError(loadText(kernelWith("%uint %v2")), "k").find("a member of type") != std::string::npos);
}

TEST_CASE("spvhls dis prints a create's Pipelined and ClusterMode signed, as the extension writes them") {
  const spirv::Module m = spirv::readModuleFile(std::string(SPVHLS_SOURCE_DIR) + "/tests/e2e/tasks/pipelined_m1.spvasm");
  const std::string text = spirv::writeText(m);
  CHECK(text.find("OpTaskSequenceCreateINTEL %TaskSeqType %poly -1 -1 16 16") != std::string::npos);
}

TEST_CASE("a pipelined task with several returns pushes its result once per invocation") {
  const std::string text = kTaskModuleHead + std::string(R"(%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%uint_7 = OpConstant %uint 7
%uint_100 = OpConstant %uint 100
%uint_250 = OpConstant %uint 250
%gptr = OpTypePointer CrossWorkgroup %uint
%fty = OpTypeFunction %uint %uint
%kty = OpTypeFunction %void %gptr
%ts = OpTypeTaskSequenceINTEL
%f = OpFunction %uint DontInline %fty
%x = OpFunctionParameter %uint
%e = OpLabel
%c = OpUGreaterThan %bool %x %uint_100
OpBranchConditional %c %big %small
%big = OpLabel
%m = OpIMul %uint %x %uint_3
OpReturnValue %m
%small = OpLabel
%a = OpIAdd %uint %x %uint_7
OpReturnValue %a
OpFunctionEnd
%k = OpFunction %void None %kty
%out = OpFunctionParameter %gptr
%kl = OpLabel
%s = OpTaskSequenceCreateINTEL %ts %f 1 -1 2 2
OpTaskSequenceAsyncINTEL %s %uint_7
OpTaskSequenceAsyncINTEL %s %uint_250
%r0 = OpTaskSequenceGetINTEL %uint %s
%r1 = OpTaskSequenceGetINTEL %uint %s
OpStore %out %r0 Aligned 4
%p1 = OpInBoundsPtrAccessChain %gptr %out %uint_1
OpStore %p1 %r1 Aligned 4
OpTaskSequenceReleaseINTEL %s
OpReturn
OpFunctionEnd
)");
  const Loaded l = loadText(text);
  const ir::Kernel k = lower(l, "k");
  const ir::Process& pr = k.processes.at(1);
  REQUIRE(pr.served);
  const ir::Kernel& body = k.tasks[pr.body];
  REQUIRE(body.loops.size() == 1);
  CHECK(opsOf(body.loops[0].ops, OpKind::Store).size() == 1); // one push, whichever return
  const sched::KernelSchedule s = sched::scheduleKernel(body, {});
  CHECK(s.loops[0].schedule.ii == 1);
  const ir::EvalResult r = runBoth(l, k, {ints("out", std::vector<int32_t>(2, 0))});
  CHECK(r.buffers.at(0) == std::vector<uint8_t>{14, 0, 0, 0, 238, 2, 0, 0}); // 7 + 7, 250 * 3
}
