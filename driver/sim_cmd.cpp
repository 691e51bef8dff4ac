// `spvhls sim` (driver/sim_cmd.h).
#include "driver/sim_cmd.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "driver/report.h"
#include "ir/ir_eval.h"
#include "rtlgen/pipeline_timing.h"
#include "rtlgen/task_timing.h"
#include "sim/interp.h"
#include "sim/runspec.h"
#include "sim/systemc.h"

namespace spvhls::driver {

namespace {

// The memories whose final contents a simulation returns, in SimInterface::memories order: on-chip
// program-scope variables (their RAMs' dumps; not those holding pointers, which the interpreter
// encodes differently) and every external memory (the bench models its port, so it needs its image).
std::vector<uint32_t> simulatedMemories(const driver::Compiled& c) {
  std::vector<uint32_t> out;
  for (size_t m = 0; m < c.kernel.memories.size(); ++m) {
    const ir::Memory& mem = c.kernel.memories[m];
    // Local memory's contents are undefined once its work-group is done.
    if (mem.kind == ir::Memory::Kind::External ||
        (mem.onChip() && mem.spirvVar && !mem.holdsPointers && mem.kind != ir::Memory::Kind::WorkGroup))
      out.push_back(uint32_t(m));
  }
  return out;
}

// The SPIR-V variable each is compared with, and its name, in the same order (0: not compared, an
// external private array or one holding pointers).
std::vector<std::pair<uint32_t, std::string>> programScopeVars(const driver::Compiled& c) {
  std::vector<std::pair<uint32_t, std::string>> out;
  for (uint32_t m : simulatedMemories(c)) {
    const ir::Memory& mem = c.kernel.memories[m];
    out.emplace_back(mem.holdsPointers ? 0 : mem.spirvVar, mem.name);
  }
  return out;
}

// The run spec's "globals" (what the host writes into program-scope globals before the run) as the
// contents of the kernel's memories they land in: over an external memory's image, or an on-chip
// RAM's configured contents. The interpreter applied the same writes; a variable the kernel does not
// use has no memory.
std::map<uint32_t, std::vector<uint8_t>> hostGlobalImages(const driver::Compiled& c, const sim::RunSpec& spec,
                                                          const sim::InterpResult& golden) {
  std::map<uint32_t, std::vector<uint8_t>> images;
  for (size_t i = 0; i < spec.globals.size(); ++i) {
    const sim::ArgSpec& g = spec.globals[i];
    auto var = std::find_if(golden.globals.begin(), golden.globals.end(),
                            [&](const sim::InterpResult::Global& x) { return x.name == g.name; });
    if (var == golden.globals.end()) continue; // the interpreter checked the name
    for (uint32_t m = 0; m < c.kernel.memories.size(); ++m) {
      const ir::Memory& mem = c.kernel.memories[m];
      if (mem.spirvVar != var->var) continue;
      if (mem.holdsPointers)
        throw DiagnosticError(
            SourceLoc{spec.path}, fmt::format("globals[{}]", i),
            fmt::format("'{}' holds pointers, whose encoding in hardware is the compiler's; the "
                        "run spec cannot set it",
                        g.name));
      std::vector<uint8_t> image = mem.initialContents();
      std::copy(g.init.begin(), g.init.begin() + std::min<size_t>(g.init.size(), image.size()),
                image.begin());
      images[m] = std::move(image);
    }
  }
  return images;
}

// LoopCountINTEL min / max against every invocation's trip count in this run (the IR evaluator's
// run: the RTL's loops run the same iterations, its results being compared bit for bit). A violation
// is a warning: the count is a hint for reports, and the hardware does not depend on it.
void printLoopCountChecks(const ir::Kernel& k, const std::function<const ir::EvalResult&()>& irRun) {
  bool any = false;
  for (const ir::Loop& lp : k.loops)
    any = any || lp.controls.loopCountMin || lp.controls.loopCountMax;
  if (!any) return;
  const ir::EvalResult& r = irRun();
  for (size_t l = 0; l < k.loops.size(); ++l) {
    const ir::Loop& lp = k.loops[l];
    const ir::LoopControls& c = lp.controls;
    if ((!c.loopCountMin && !c.loopCountMax) || r.loopMaxIterations[l] == 0) continue;
    // Iterations -> trip counts: a top-tested loop's last iteration runs only its header; with exits
    // from the header and from the body the last one may have run the body or not.
    const int64_t lo = int64_t(r.loopMinIterations[l]) - (lp.exitsFromHeader && !lp.exitsFromBody ? 1 : 0);
    const int64_t hi = int64_t(r.loopMaxIterations[l]) - (lp.exitsFromHeader && !lp.exitsFromBody ? 1 : 0);
    // Certain violations only: the largest trip count the shortest invocation may have had, and the
    // smallest the longest one may have had.
    const int64_t loMost = lo, hiLeast = int64_t(r.loopMaxIterations[l]) - (lp.exitsFromHeader ? 1 : 0);
    const std::string range = lo == hi ? std::to_string(lo) : fmt::format("{}..{}", lo, hi);
    std::string bad;
    if (c.loopCountMax && hiLeast > *c.loopCountMax)
      bad = fmt::format("an invocation ran {} iterations, more than max {}", hiLeast, *c.loopCountMax);
    else if (c.loopCountMin && loMost < *c.loopCountMin)
      bad = fmt::format("an invocation ran {} iterations, fewer than min {}", loMost, *c.loopCountMin);
    std::cout << fmt::format(
        "{} LoopCountINTEL loop '{}' ({}): trip counts {} per invocation in this run; {}\n",
        bad.empty() ? "CHECK" : "WARNING", lp.name, lp.loc.str(), range,
        bad.empty() ? "within min and max" : bad);
  }
}

// The run spec as the generated module takes it: an ND-range kernel's sizes follow its own arguments
// (ir::kNdRangeArgs). A kernel compiled as one work-item runs a single-work-item spec only.
sim::RunSpec hardwareRunSpec(sim::RunSpec spec, const ir::Kernel& k) {
  const uint64_t items = spec.globalSize[0] * spec.globalSize[1] * spec.globalSize[2];
  if (!k.ndRange) {
    if (items != 1)
      throw DiagnosticError(
          SourceLoc{spec.path}, "global_size",
          fmt::format("kernel '{}' reads no work-item built-in, so it was compiled as a single "
                      "work-item; this run spec asks for {} work-items (--ndrange compiles it "
                      "to run its body once per work-item)",
                      k.name, items));
    return spec;
  }
  if (const uint32_t lanes = k.subgroupLanes; k.subgroups) {
    if (spec.subgroupSize != lanes)
      throw DiagnosticError(
          SourceLoc{spec.path}, "subgroup_size",
          fmt::format("is {}; the hardware was built with subgroups of {} lane(s) (the kernel's "
                      "SubgroupSize, or --subgroup-size)",
                      spec.subgroupSize, lanes));
    if (spec.localSize[0] % lanes)
      throw DiagnosticError(
          SourceLoc{spec.path}, "local_size",
          fmt::format("[0] = {} is no multiple of the {} lanes of a subgroup; the hardware runs "
                      "whole subgroups along dimension 0",
                      spec.localSize[0], lanes));
  }
  if (const uint64_t group = spec.localSize[0] * spec.localSize[1] * spec.localSize[2];
      k.maxWorkGroupItems && group > k.maxWorkGroupItems)
    throw DiagnosticError(
        SourceLoc{spec.path}, "local_size",
        fmt::format("asks for work-groups of {} work-items; the hardware's barrier buffers hold {} (the "
                    "kernel's reqd_work_group_size or max_work_group_size, else --max-work-group-size)",
                    group, k.maxWorkGroupItems));
  const char* names[2] = {"global_size", "local_size"};
  for (int s = 0; s < 2; ++s)
    for (int d = 0; d < 3; ++d) {
      const uint64_t v = (s == 0 ? spec.globalSize : spec.localSize)[d];
      if (v > UINT32_MAX)
        throw DiagnosticError(SourceLoc{spec.path}, names[s],
                              fmt::format("[{}] = {}: the hardware takes ND-range sizes of 32 bits", d, v));
      sim::ArgSpec arg;
      arg.name = fmt::format("{}_{}", names[s], d);
      arg.scalar = v;
      spec.args.push_back(arg);
    }
  sim::ArgSpec dim;
  dim.name = "work_dim";
  dim.scalar = spec.workDim;
  spec.args.push_back(dim);
  return spec;
}

// --rtl A.v,B.v: Verilog of the user's in place of the generated, with the generated top's name and
// ports (docs/hardware-interface.md). The bench then watches no loop, FSM or task inside it.
std::vector<std::string> handWrittenRtl(const std::string& list, sim::SimInterface& iface) {
  std::vector<std::string> files;
  std::stringstream ss(list);
  for (std::string f; std::getline(ss, f, ',');)
    if (!f.empty()) files.push_back(f);
  if (files.empty()) usageError("--rtl expects Verilog files, separated by commas");
  for (const sim::SimMemory& m : iface.memories)
    if (!m.module.empty())
      usageError(
          fmt::format("--rtl: the kernel keeps a program-scope variable on chip (RAM module {}), whose "
                      "final contents the bench reads from the generated RAM; only kernels whose "
                      "memories are all behind ports can be simulated from other Verilog",
                      m.module));
  iface.loops.clear();
  iface.loopCallers.clear();
  iface.loopCopies.clear();
  iface.loopReinvocable.clear();
  iface.blocks.clear();
  iface.tasks.clear();
  iface.waits.clear();
  return files;
}

} // namespace

// `hostImages`: hostGlobalImages, loaded into the RAMs and external memories they name.
sim::SimInterface simInterface(const driver::Compiled& c,
                               const std::map<uint32_t, std::vector<uint8_t>>& hostImages) {
  sim::SimInterface iface;
  iface.module = c.rtl.moduleName;
  for (size_t i = 0; i < c.kernel.args.size(); ++i) {
    const ir::KernelArg& arg = c.kernel.args[i];
    const uint32_t width = arg.isPointer ? c.kernel.memories.at(arg.memory).wordBits : arg.width();
    iface.ports.push_back(sim::SimPort{c.rtl.argNames[i], arg.isPointer, width, uint32_t(i)});
  }
  for (uint32_t m : simulatedMemories(c)) {
    const ir::Memory& mem = c.kernel.memories[m];
    auto host = hostImages.find(m);
    std::vector<uint8_t> image = host != hostImages.end() ? host->second : std::vector<uint8_t>{};
    if (mem.kind == ir::Memory::Kind::External) {
      // The host's copy of the variable: its initial image (zeros without an initializer).
      iface.ports.push_back(
          sim::SimPort{c.rtl.externalNames.at(m), true, mem.wordBits, 0, int32_t(iface.memories.size())});
      iface.memories.push_back(
          {"", mem.sizeBytes, 1, image.empty() ? mem.initialContents() : std::move(image)});
    } else {
      iface.memories.push_back(
          {c.rtl.ramModules.at(m), mem.sizeBytes, c.rtl.ramWordBytes.at(m), std::move(image)});
    }
  }
  const std::vector<int> callers = ir::loopCallers(c.kernel.loops);
  for (uint32_t l = 0; l < c.kernel.loops.size(); ++l) {
    iface.loops.push_back(c.kernel.loops[l].name);
    std::pair<int, uint32_t> caller{-1, 0};
    if (callers[l] >= 0) {
      const auto& ops = c.kernel.loops[size_t(callers[l])].ops;
      for (uint32_t v = 0; v < ops.size(); ++v)
        if (ops[v].kind == ir::OpKind::LoopCall && ops[v].index == l) caller = {callers[l], v};
    }
    iface.loopCallers.push_back(caller);
    iface.loopCopies.push_back(c.kernel.loops[l].copies);
    iface.loopReinvocable.push_back(c.rtl.loops[l].model && c.rtl.loops[l].model->reinvocable);
  }
  for (const ir::BasicBlock& b : c.kernel.blocks)
    iface.blocks.push_back(b.name);
  // Where the FSM waits for a task instance, named when a simulation stops without done.
  const std::vector<int> functionOf = ir::functionOfBlocks(c.kernel);
  for (uint32_t p = 1; p < c.kernel.processes.size(); ++p)
    iface.tasks.push_back(c.kernel.processes[p].name);
  for (ir::ValueId v = 0; v < c.kernel.ops.size(); ++v) {
    const ir::Op& op = c.kernel.ops[v];
    const uint32_t cycle = uint32_t(c.plan.fsm.formCycle[v]);
    if (op.kind == ir::OpKind::TaskAsync)
      iface.waits.push_back({op.block, cycle,
                             "an async of " + c.kernel.processes[op.index].name +
                                 " (it waits while the invocation queue is full)"});
    else if (op.kind == ir::OpKind::TaskGet)
      iface.waits.push_back(
          {op.block, cycle,
           "a get of " + c.kernel.processes[op.index].name + " (it waits while no result is queued)"});
    else if (op.kind == ir::OpKind::TaskRelease)
      iface.waits.push_back(
          {op.block, cycle,
           "a release of " + c.kernel.processes[op.index].name + " (it waits until the task is idle)"});
  }
  if (!c.kernel.tasks.empty())
    for (uint32_t b = 0; b < c.kernel.blocks.size(); ++b)
      if (c.kernel.blocks[b].term.kind == ir::Terminator::Kind::Return && functionOf[b] < 0)
        iface.waits.push_back(
            {b, c.rtl.blockCycles[b] - 1, "the kernel's end (it waits until every task is idle)"});
  return iface;
}

int simCommand(const Args& a) {
  if (!a.has("--run")) usageError("sim needs --run SPEC.json");
  sim::RunSpec spec = sim::loadRunSpec(a.get("--run"));
  driver::LoadedModule m = driver::loadModule(a.input);
  std::string kernel = driver::pickKernel(*m.view, a.get("--kernel", spec.kernel), a.input);
  spec.kernel = kernel;
  driver::Compiled c = driver::compile(m, a.input, compileOptions(a, kernel));
  sim::RunSpec hardwareSpec = hardwareRunSpec(spec, c.kernel); // checked before the interpreter runs
  std::string dir = a.get("-o", defaultOutDir(a.input));
  auto files = driver::writeVerilog(c, dir);
  std::string text = driver::reportText(c);
  writeFile(dir + "/report.txt", text);
  writeFile(dir + "/report.json", driver::reportJson(c).dump(2) + "\n");
  std::cout << text << "\n";

  sim::InterpResult golden = sim::interpret(*m.view, spec);
  spec = std::move(hardwareSpec); // from here on, the module's arguments
  golden.buffers.resize(spec.args.size());
  sim::BufferSet init = sim::initialBuffers(spec);
  const std::map<uint32_t, std::vector<uint8_t>> hostImages = hostGlobalImages(c, spec, golden);
  std::vector<uint64_t> scalarArgs;
  for (const sim::ArgSpec& arg : spec.args)
    scalarArgs.push_back(arg.scalar);
  // Reassociated float sums and approximated functions round differently from the source: the RTL
  // must equal the kernel's IR, run by the IR evaluator, bit for bit; that run is compared with the
  // interpreter in ulps, within --fp-max-ulps or else the approximations' documented bound.
  // The kernel's IR run by the IR evaluator on the same inputs, once, for whatever needs it (the
  // reference of approximated kernels, the LoopCountINTEL checks, the cycle prediction's profile).
  std::optional<ir::EvalResult> irResult;
  auto irRun = [&]() -> const ir::EvalResult& {
    if (!irResult) {
      std::vector<std::vector<bool>> taskRecord = {{}}; // per process: its body's loops the model steps
      for (const driver::Compiled& t : c.tasks)
        taskRecord.push_back(rtl::predicateProfile(t.kernel, t.rtl));
      irResult = ir::evaluateKernel(c.kernel, scalarArgs, init, 200'000'000, hostImages,
                                    rtl::predicateProfile(c.kernel, c.rtl), taskRecord);
    }
    return *irResult;
  };
  sim::BufferSet expected = golden.buffers;
  const std::vector<ir::Approximation>& approx = c.kernel.approximations;
  if (c.reassociated || !approx.empty()) {
    expected = irRun().buffers;
    std::optional<uint64_t> limit;
    std::string what;
    if (c.reassociated) what = "reassociated float sums (--fp-reassociate)";
    // "exp f32" -> the expansion's bound and the interpreter's own error, both against the correctly
    // rounded result: the two can differ by their sum without either breaking its bound.
    std::map<std::string, std::pair<uint32_t, uint32_t>> bounds;
    for (const ir::Approximation& ap : approx)
      bounds[fmt::format("{} f{}", ap.function, ap.width)] = {ap.maxUlps, ap.referenceUlps};
    for (const auto& [fn, b] : bounds) {
      const uint32_t allowed = b.first + b.second;
      what +=
          fmt::format("{}{} (within {} ulp of the correctly rounded result, the interpreter's libm within "
                      "{}: compared within {} ulp)",
                      what.empty() ? "approximated functions: " : ", ", fn, b.first, b.second, allowed);
      if (!c.reassociated) limit = std::max<uint64_t>(limit.value_or(0), allowed);
    }
    if (a.has("--fp-max-ulps")) limit = parseNumber("--fp-max-ulps", a.get("--fp-max-ulps"));
    uint64_t ulps = 0;
    const std::string diff = sim::compareUlps(spec, golden.buffers, expected, ulps);
    std::cout << what << ": the RTL is compared bit for bit with the IR evaluator's run of the kernel; "
              << "that run against the interpreter: " << (diff.empty() ? "identical\n" : "\n" + diff);
    if (limit && ulps > *limit) {
      std::cout << fmt::format(
          "FAIL approximation: {} from the interpreter's result, above the bound of {} ulp{}\n",
          ulps == UINT64_MAX ? std::string("not a float difference") : fmt::format("{} ulp", ulps), *limit,
          a.has("--fp-max-ulps") ? " (--fp-max-ulps)" : "");
      return 1;
    }
  } else if (a.has("--fp-max-ulps")) {
    usageError("--fp-max-ulps applies when float sums were reassociated or functions approximated");
  }
  printLoopCountChecks(c.kernel, irRun);
  sim::SimInterface iface = simInterface(c, hostImages);
  if (a.has("--rtl")) files = handWrittenRtl(a.get("--rtl"), iface);
  bool trace = a.has("--trace");
  const bool systemc = a.has("--systemc");
  if (systemc && trace) usageError("--trace writes waveforms from the C++ bench; leave out --systemc for it");
  // A short run (every regression kernel: at most tens of thousands of instructions) spends far
  // longer compiling the model than simulating it: -O0 compiles it in about two thirds of the time
  // (ftrig stall-free: 25 -> 17 s of g++). A long one (the whole programs: 140,000 to 2,000,000)
  // keeps -O1.
  constexpr uint64_t kOptimizeFromInstructions = 100'000;
  std::string exe = sim::buildSimulator(files, iface, dir + (systemc ? "/sim_systemc" : "/sim"), trace,
                                        golden.instructions >= kOptimizeFromInstructions,
                                        systemc ? sim::Bench::SystemC : sim::Bench::Cpp,
                                        trace && a.get("--trace").ends_with(".fst"));
  if (systemc) std::cout << "SystemC bench: " << exe << " (the kernel's SystemC wrapper, TLM-2.0 memories)\n";

  int passed = 0, failed = 0;
  const auto programScope = programScopeVars(c); // compared after every run, in iface.memories order
  // One run's verdict, printed: bit-exact results, and under the prediction's conditions
  // (expectCycles) the cycles and the reinvocation delays.
  auto judge = [&](const std::string& label, const sim::SimResult& r, std::optional<uint64_t> expectCycles) {
    std::string problem = r.finished ? sim::compareBuffers(spec, expected, r.buffers, 10, &r.lastWrite) +
                                           sim::compareGlobals(golden, programScope, r.memories)
                                     : r.error;
    if (problem.empty() && expectCycles && r.cycles != *expectCycles)
      problem =
          fmt::format("cycle count {} differs from the report's prediction {}", r.cycles, *expectCycles);
    // Under the prediction's conditions, every reinvocation delay lies within the report's.
    for (size_t l = 0; problem.empty() && expectCycles && l < r.loops.size(); ++l) {
      const rtl::ReinvocationDelay& d = c.reinvocation.at(l);
      const sim::LoopLaunches& m = r.loops[l];
      // A sub-pipeline's report speaks of the reinvocations whose call waited (the others are the
      // caller's timing).
      const bool sub = !d.caller.empty();
      const uint64_t n = sub ? m.waited : m.reinvocations, least = sub ? m.waitedMin : m.minDelay;
      const bool outside = d.kind == rtl::ReinvocationDelay::Kind::Once
                               ? m.invocations > 1
                               : d.kind == rtl::ReinvocationDelay::Kind::Known && n &&
                                     (int64_t(least) < d.min || (d.max && int64_t(m.maxDelay) > *d.max));
      if (outside)
        problem = fmt::format(
            "loop {}: {} invocations, reinvocation delays {}..{} cycles{}, outside the report's: {}",
            c.kernel.loops[l].name, m.invocations, m.minDelay, m.maxDelay,
            sub ? fmt::format(" ({} whose call waited: {}..{})", m.waited, m.waitedMin, m.waitedMax) : "",
            d.kind == rtl::ReinvocationDelay::Kind::Once
                ? std::string("at most one invocation")
                : fmt::format("{}..{}", d.min, d.max ? std::to_string(*d.max) : "?"));
    }
    if (problem.empty()) {
      ++passed;
      std::cout << fmt::format("PASS {} cycles={}{}\n", label, r.cycles,
                               expectCycles ? fmt::format(" (predicted {})", *expectCycles) : "");
      if (a.has("--speed"))
        std::cout << fmt::format("  speed: {} cycles in {:.3f} s: {:.0f} cycles/s ({} bench)\n", r.cycles,
                                 r.seconds, r.seconds > 0 ? double(r.cycles) / r.seconds : 0.0,
                                 systemc ? "SystemC" : "C++");
      for (size_t l = 0; l < r.loops.size(); ++l) {
        const sim::LoopLaunches& m = r.loops[l];
        if (c.kernel.loops[l].copies > 1 && m.invocations) // its copies' launches interleave: no delays
          std::cout << fmt::format("  loop '{}': {} invocations on {} copies\n", c.kernel.loops[l].name,
                                   m.invocations, c.kernel.loops[l].copies);
        if (!m.reinvocations) continue;
        const bool sub = !c.reinvocation.at(l).caller.empty();
        std::cout << fmt::format(
            "  loop '{}': {} invocations, reinvocation delay {}..{} cycles{}\n", c.kernel.loops[l].name,
            m.invocations, m.minDelay, m.maxDelay,
            sub ? fmt::format(", {} whose call waited: {}..{} cycles", m.waited, m.waitedMin, m.waitedMax)
                : "");
        // MaxReinvocationDelayINTEL against the run that the report's prediction describes.
        if (!expectCycles) continue;
        // A sub-pipeline's own delays are those of the calls that waited for it.
        const uint64_t count = sub ? m.waited : m.reinvocations, most = sub ? m.waitedMax : m.maxDelay;
        const std::string over = sub ? fmt::format("the {} reinvocations whose call waited", count)
                                     : fmt::format("{} reinvocations", count);
        for (const ir::LoopControlRequest& req : c.kernel.loops[l].controls.requests) {
          if (req.name != "MaxReinvocationDelayINTEL") continue;
          const std::string& name = c.kernel.loops[l].name;
          std::cout << (!count
                            ? fmt::format("NOTE MaxReinvocationDelayINTEL loop '{}': no call waited for the "
                                          "loop in this run (each came after it could start)\n",
                                          name)
                        : most <= std::stoull(req.value)
                            ? fmt::format("CHECK MaxReinvocationDelayINTEL loop '{}': measured at most {} "
                                          "cycles over {}, within {}\n",
                                          name, most, over, req.value)
                            : fmt::format("WARNING MaxReinvocationDelayINTEL loop '{}': measured up to {} "
                                          "cycles over {}, more than {}\n",
                                          name, most, over, req.value));
        }
      }
    } else {
      ++failed;
      std::cout << fmt::format("FAIL {} cycles={}: {}\n", label, r.cycles, problem);
      if (!r.log.empty()) std::cout << r.log << "\n";
    }
  };
  auto check = [&](const std::string& label, const sim::SimOptions& so,
                   std::optional<uint64_t> expectCycles) {
    judge(label, sim::runSimulator(exe, iface, spec, init, so), expectCycles);
  };
  sim::SimOptions base;
  if (a.has("--max-cycles")) base.maxCycles = parseNumber("--max-cycles", a.get("--max-cycles"));
  if (a.has("--check-cycles")) {
    std::string why;
    std::optional<uint64_t> predicted;
    // The run's profile on the kernel's IR: it counts synthesized blocks too (dispatches, copy
    // loops, functions inlined at several call sites), which the interpreter's profile cannot name.
    try {
      const ir::EvalResult& profile = irRun();
      if (c.kernel.tasks.empty()) {
        predicted = rtl::predictCycles(c.kernel, c.rtl, profile, why);
      } else {
        std::vector<const rtl::RtlResult*> bodies = {nullptr};
        for (const driver::Compiled& t : c.tasks)
          bodies.push_back(&t.rtl);
        predicted = rtl::predictTaskCycles(c.kernel, c.rtl, bodies, profile, why);
      }
    } catch (const DiagnosticError& e) {
      why = fmt::format("the kernel's IR could not be profiled: {}", e.what());
    }
    if (a.has("--rtl")) {
      predicted.reset();
      why = "--rtl simulates other Verilog than the report describes";
    }
    if (!predicted)
      std::cout << fmt::format("SKIP cycle check: the report does not predict this kernel's cycles: {}\n",
                               why);
    // The prediction's conditions are run either way: a comparison of two kernels' cycles needs them.
    sim::SimOptions so = base;
    so.minLatency = so.maxLatency = c.target.memLatency;
    so.readyProb = 1.0;
    check(fmt::format("fixed-latency={} no-backpressure", c.target.memLatency), so, predicted);
  }
  std::string seeds = a.get("--seeds", "1");
  std::string lat = a.get("--latency", "1:8");
  auto colon = lat.find(':');
  if (colon == std::string::npos) usageError("--latency expects MIN:MAX");
  uint64_t minLat = parseNumber("--latency", lat.substr(0, colon)),
           maxLat = parseNumber("--latency", lat.substr(colon + 1));
  if (minLat < 1 || maxLat < minLat) usageError("--latency needs 1 <= MIN <= MAX");
  double readyProb = parseFraction("--ready-prob", a.get("--ready-prob", "0.8"));
  if (!(readyProb > 0.0 && readyProb <= 1.0)) usageError("--ready-prob must be in (0, 1]");
  std::stringstream ss(seeds);
  std::vector<sim::SimOptions> runs;
  for (std::string item; std::getline(ss, item, ',');) {
    sim::SimOptions so = base;
    so.seed = parseNumber("--seeds", item);
    so.minLatency = uint32_t(minLat);
    so.maxLatency = uint32_t(maxLat);
    so.readyProb = readyProb;
    if (trace) so.traceFile = a.get("--trace");
    runs.push_back(so);
  }
  // The seeds run side by side, --jobs at a time (default: the machine's cores; one at a time with
  // --trace, which every run would write), and are reported in the order given.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const uint64_t jobs = trace ? 1 : a.has("--jobs") ? parseNumber("--jobs", a.get("--jobs")) : cores;
  if (jobs < 1) usageError("--jobs must be at least 1");
  std::vector<sim::SimResult> results(runs.size());
  std::vector<std::exception_ptr> errors(runs.size());
  std::atomic<size_t> next{0};
  // A run longer than a few seconds says where it is every five seconds or so.
  std::mutex progressOut;
  for (sim::SimOptions& so : runs)
    so.onProgress = [&progressOut, seed = so.seed, shown = 0.0](uint64_t cycle, double seconds) mutable {
      if (seconds < 5 || seconds - shown < 5) return;
      shown = seconds;
      std::lock_guard<std::mutex> lock(progressOut);
      std::cout << fmt::format("  seed={}: cycle {} after {:.0f} s ({:.0f} cycles/s)\n", seed, cycle, seconds,
                               double(cycle) / seconds)
                << std::flush;
    };
  auto worker = [&] {
    for (size_t i; (i = next++) < runs.size();) {
      try {
        results[i] = sim::runSimulator(exe, iface, spec, init, runs[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (uint64_t t = 0; t < std::min<uint64_t>(jobs, runs.size()); ++t)
    pool.emplace_back(worker);
  for (std::thread& t : pool)
    t.join();
  for (size_t i = 0; i < runs.size(); ++i) {
    if (errors[i]) std::rethrow_exception(errors[i]);
    judge(fmt::format("seed={} latency={}:{} ready-prob={}", runs[i].seed, minLat, maxLat, readyProb),
          results[i], std::nullopt);
  }
  std::cout << fmt::format("sim: {} passed, {} failed\n", passed, failed);
  return failed ? 1 : 0;
}

} // namespace spvhls::driver
