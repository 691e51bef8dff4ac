// spvhls command line: compile | run | sim | as | dis. docs/cli.md documents every option.
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <string>

#include "driver/cli.h"
#include "driver/pipeline.h"
#include "driver/report.h"
#include "driver/schedule_cmd.h"
#include "driver/sim_cmd.h"
#include "scheduler/problem_json.h"
#include "sim/interp.h"
#include "sim/runspec.h"
#include "sim/systemc.h"
using namespace spvhls;

namespace {

using driver::Args;
using driver::usageError;
using driver::writeFile;

// Every loop's scheduling problem as a file of `spvhls schedule`'s format: <module>.loop<l>.json.
void dumpProblems(const driver::Compiled& c, const std::string& dir) {
  auto dump = [&](const driver::Compiled& k) {
    for (size_t l = 0; l < k.schedule.loops.size(); ++l) {
      const std::string name = fmt::format("{}.loop{}", k.rtl.moduleName, l);
      writeFile(dir + "/" + name + ".json", sched::problemToJson(k.schedule.loops[l].problem,
                                                                 name + " (" + k.kernel.loops[l].name + ")"));
    }
  };
  dump(c);
  for (const driver::Compiled& t : c.tasks)
    dump(t);
}

int cmdSchedule(const Args& a) {
  driver::ScheduleCommandOptions o;
  o.minII = driver::minIIOptions(a, sched::SchedulerKind::Exact);
  o.output = a.get("-o");
  return driver::scheduleCommand(a.input, o);
}

int cmdCompile(const Args& a) {
  driver::LoadedModule m = driver::loadModule(a.input);
  driver::Compiled c = driver::compile(m, a.input, driver::compileOptions(a, a.get("--kernel")));
  if (a.has("--dump-ir")) std::cout << ir::printKernel(c.kernel) << "\n";
  if (a.has("--dump-problems")) dumpProblems(c, a.get("--dump-problems"));
  std::string dir = a.get("-o", driver::defaultOutDir(a.input));
  auto files = driver::writeVerilog(c, dir);
  std::string text = driver::reportText(c);
  writeFile(dir + "/report.txt", text);
  writeFile(dir + "/report.json", driver::reportJson(c).dump(2) + "\n");
  std::map<std::string, driver::Area> loopArea; // --area: each loop module through yosys
  if (a.has("--area")) {
    std::vector<std::pair<std::string, size_t>> loops; // module, loop count
    loops.emplace_back(c.rtl.moduleName, c.kernel.loops.size());
    for (const driver::Compiled& t : c.tasks) loops.emplace_back(t.rtl.moduleName, t.kernel.loops.size());
    for (const auto& [mod, n] : loops)
      for (size_t l = 0; l < n; ++l) {
        const std::string top = fmt::format("{}_loop{}", mod, l);
        std::string why;
        if (auto area = driver::yosysArea(files, top, dir + "/" + top + ".yosys.log", why)) loopArea[top] = *area;
        else std::cerr << "warning: no area for " << top << ": " << why << "\n";
      }
  }
  writeFile(dir + "/report.html", driver::reportHtml(c, a.has("--area") ? &loopArea : nullptr));
  // The SystemC wrapper for platforms, an example platform and the TLM adapter (docs/systemc.md).
  const sim::SimInterface iface = driver::simInterface(c, {});
  const std::string& mod = c.rtl.moduleName;
  writeFile(dir + "/" + mod + "_sc.h", sim::generateScWrapper(iface));
  writeFile(dir + "/" + mod + "_sc_main.cpp", sim::generateScExample(iface));
  writeFile(dir + "/spvhls_tlm.h", sim::tlmHeader());
  for (const Diagnostic& w : c.warnings) std::cerr << w.str() << "\n";
  std::cout << text;
  std::cout << fmt::format("\nwrote {} Verilog file(s), report.txt, report.json and report.html, and the SystemC wrapper {}_sc.h "
                           "(with {}_sc_main.cpp and spvhls_tlm.h) to {}\n",
                           files.size(), mod, mod, dir);
  return 0;
}

int cmdRun(const Args& a) {
  if (!a.has("--run")) usageError("run needs --run SPEC.json");
  sim::RunSpec spec = sim::loadRunSpec(a.get("--run"));
  driver::LoadedModule m = driver::loadModule(a.input);
  if (a.has("--kernel")) spec.kernel = a.get("--kernel");
  spec.kernel = driver::pickKernel(*m.view, spec.kernel, a.input);
  sim::InterpResult r = sim::interpret(*m.view, spec);
  if (std::string limit = spirv::registerLimitOf(*m.view, m.view->findEntryPoint(spec.kernel)->function); !limit.empty())
    std::cout << fmt::format("kernel '{}' requests {}: accepted; it does not change results\n", spec.kernel, limit);
  // The first 64 elements of each buffer unless --full (differential tests compare everything).
  std::cout << sim::formatBuffers(spec, r.buffers, a.has("--full") ? SIZE_MAX : 64);
  std::cout << sim::formatGlobals(r, a.has("--full") ? SIZE_MAX : 64);
  std::cout << fmt::format("executed {} SPIR-V instructions\n", r.instructions);
  return 0;
}

int cmdAs(const Args& a) {
  if (!a.has("-o")) usageError("as needs -o OUT.spv");
  spirv::Module m = spirv::readModuleFile(a.input);
  std::vector<uint32_t> words = spirv::writeBinary(m);
  writeFile(a.get("-o"), std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
  return 0;
}

int cmdDis(const Args& a) {
  spirv::Module m = spirv::readModuleFile(a.input);
  std::string text = spirv::writeText(m);
  if (a.has("-o")) writeFile(a.get("-o"), text);
  else std::cout << text;
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  Args a = driver::parseArgs(argc, argv);
  try {
    if (a.command == "compile") return cmdCompile(a);
    if (a.command == "run") return cmdRun(a);
    if (a.command == "schedule") return cmdSchedule(a);
    if (a.command == "sim") return driver::simCommand(a);
    if (a.command == "as") return cmdAs(a);
    if (a.command == "dis") return cmdDis(a);
    usageError("unknown command '" + a.command + "'");
  } catch (const InternalError& e) {
    for (const Diagnostic& d : e.diagnostics()) std::cerr << d.str() << "\n";
    return 3;
  } catch (const DiagnosticError& e) {
    for (const Diagnostic& d : e.diagnostics()) std::cerr << d.str() << "\n";
    return 1;
  } catch (const std::exception& e) {
    // Any other exception is a compiler bug: reported like an InternalError, at the input.
    const InternalError ie(SourceLoc{a.input}, a.command, e.what());
    for (const Diagnostic& d : ie.diagnostics()) std::cerr << d.str() << "\n";
    return 3;
  }
}
