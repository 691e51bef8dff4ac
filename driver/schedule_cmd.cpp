// `spvhls schedule PROBLEM.json`: a standalone modulo scheduling problem (docs/scheduling.md) solved
// for its smallest II, verified, printed as text and optionally written as JSON.
#include "driver/schedule_cmd.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "scheduler/problem_json.h"

namespace spvhls::driver {

int scheduleCommand(const std::string& input, const ScheduleCommandOptions& o) {
  std::ifstream f(input, std::ios::binary);
  if (!f) throw DiagnosticError(SourceLoc{input}, "", "cannot read the file");
  std::stringstream text;
  text << f.rdbuf();
  const sched::ProblemFile pf = sched::problemFromJson(text.str(), input);
  const sched::Problem& p = pf.problem;

  const auto begin = std::chrono::steady_clock::now();
  const sched::MIIResult mii = sched::computeMII(p);
  sched::MinIIResult r =
      pf.ii ? sched::scheduleAtII(p, *pf.ii, o.minII) : sched::scheduleMinII(p, mii, o.minII);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (pf.ii && r.schedule) {
    r.iiProvenMinimal = false;
    r.proof = "requested";
  }

  nlohmann::json out;
  out["problem"] = pf.name.empty() ? input : pf.name;
  out["operations"] = p.ops.size();
  out["dependences"] = p.deps.size();
  out["mii"] = mii.mii();
  out["res_mii"] = mii.resMII;
  out["rec_mii"] = mii.recMII;
  out["scheduler"] = sched::schedulerKindName(o.minII.kind);
  out["seconds"] = seconds;
  out["exact_seconds"] = r.exactSeconds;
  std::cout << fmt::format("problem {}: {} operations, {} dependences, {} resource(s)\n",
                           out["problem"].get<std::string>(), p.ops.size(), p.deps.size(),
                           p.resources.size());
  std::cout << fmt::format("MII {} (ResMII {}, RecMII {})\n", mii.mii(), mii.resMII, mii.recMII);
  if (!r.schedule) {
    out["ii"] = nullptr;
    std::cout << (pf.ii ? fmt::format("no schedule at the requested II {} ({})\n", *pf.ii, r.proof)
                        : fmt::format("no schedule found up to II {}\n",
                                      uint64_t(mii.mii()) + o.minII.maxIISearch));
    if (!o.output.empty()) std::ofstream(o.output) << out.dump(1) << "\n";
    return 1;
  }
  const sched::Schedule& s = *r.schedule;
  sched::verify(p, s); // the algorithms verify too; the command says so only after its own check
  const uint64_t bits = sched::registerBits(p, s);
  out["ii"] = s.ii;
  out["ii_proven_minimal"] = r.iiProvenMinimal;
  out["proof"] = r.proof;
  out["method"] = r.method;
  out["register_bits"] = bits;
  out["register_bits_proven_minimal"] = r.registersProvenMinimal;
  out["length"] = s.length;
  out["stages"] = s.stages();
  nlohmann::json starts = nlohmann::json::object();
  for (size_t i = 0; i < p.ops.size(); ++i)
    starts[p.ops[i].name] = s.start[i];
  out["start"] = starts;
  out["verified"] = true;

  std::cout << fmt::format("II {}: {} ({})\n", s.ii,
                           r.iiProvenMinimal ? "proven minimal" : "not proven minimal", r.proof);
  std::cout << fmt::format("method {}, {:.3f} s ({:.3f} s in the exact method)\n", r.method, seconds,
                           r.exactSeconds);
  std::cout << fmt::format("register bits {} ({})\n", bits,
                           r.registersProvenMinimal ? "proven minimal at this II" : "not minimised");
  std::cout << fmt::format("length {} cycles, {} stages; verified\n", s.length, s.stages());
  std::cout << "start  slot  operation\n";
  for (size_t i = 0; i < p.ops.size(); ++i)
    std::cout << fmt::format("{:5}  {:4}  {}\n", s.start[i], s.start[i] % int(s.ii), p.ops[i].name);
  if (!o.output.empty()) {
    std::ofstream w(o.output, std::ios::binary);
    if (!w) throw DiagnosticError(SourceLoc{o.output}, "", "cannot write the file");
    w << out.dump(1) << "\n";
  }
  return 0;
}

} // namespace spvhls::driver
