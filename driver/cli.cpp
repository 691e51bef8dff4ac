// The command line's shared parts (driver/cli.h).
#include "driver/cli.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace fs = std::filesystem;

namespace spvhls::driver {

namespace {

const char* kUsage = R"(usage:
  spvhls compile <in.spv|in.spvasm> [-o DIR] [--kernel K] [--cluster auto|stall-free|stall-enable]
                 [--mem-latency N] [--on-chip-budget BYTES] [--inline auto|always|never] [--fp-reassociate]
                 [--share-units on|off] [--fusion on|off] [--datapath-opt on|off] [--ram-ports 1|2] [--ram-read-ports N] [--outer-loops fsm|pipelined] [--ndrange] [--subgroup-size N] [--max-work-group-size N] [--dump-ir] [--area]
                 [--scheduler auto|heuristic|exact] [--time-limit SECONDS] [--dump-problems DIR]
                 [--target NAME] [--clock-period NS | --fmax MHZ]
  spvhls run     <in> --run SPEC.json [--kernel K] [--full]
  spvhls sim     <in> --run SPEC.json [-o DIR] [--kernel K] [--cluster MODE] [--mem-latency N]
                 [--on-chip-budget BYTES] [--inline MODE] [--seeds 1,2,3] [--latency MIN:MAX] [--ready-prob P] [--check-cycles]
                 [--max-cycles N] [--trace FILE.vcd|FILE.fst] [--fp-reassociate [--fp-max-ulps N]] [--share-units on|off] [--fusion on|off]
                 [--datapath-opt on|off] [--ram-ports 1|2] [--ram-read-ports N] [--outer-loops fsm|pipelined] [--ndrange] [--subgroup-size N] [--max-work-group-size N] [--jobs N] [--systemc] [--speed] [--target NAME]
                 [--clock-period NS | --fmax MHZ] [--scheduler MODE] [--time-limit SECONDS] [--rtl A.v[,B.v...]]
  spvhls schedule <PROBLEM.json> [-o RESULT.json] [--scheduler exact|heuristic|auto] [--time-limit SECONDS]
  spvhls as      <in.spvasm> -o <out.spv>
  spvhls dis     <in.spv> [-o out.spvasm]
Run 'spvhls <command> --help' or see docs/cli.md.
)";

} // namespace

[[noreturn]] void usageError(const std::string& msg) {
  std::cerr << "spvhls: " << msg << "\n" << kUsage;
  std::exit(2);
}

Args parseArgs(int argc, char** argv) {
  static const std::map<std::string, bool> known = {{"-o", true},
                                                    {"--kernel", true},
                                                    {"--cluster", true},
                                                    {"--mem-latency", true},
                                                    {"--run", true},
                                                    {"--seeds", true},
                                                    {"--latency", true},
                                                    {"--ready-prob", true},
                                                    {"--check-cycles", false},
                                                    {"--max-cycles", true},
                                                    {"--trace", true},
                                                    {"--systemc", false},
                                                    {"--speed", false},
                                                    {"--area", false},
                                                    {"--help", false},
                                                    {"--dump-ir", false},
                                                    {"--full", false},
                                                    {"--on-chip-budget", true},
                                                    {"--inline", true},
                                                    {"--fp-reassociate", false},
                                                    {"--share-units", true},
                                                    {"--fusion", true},
                                                    {"--datapath-opt", true},
                                                    {"--ram-ports", true},
                                                    {"--ram-read-ports", true},
                                                    {"--outer-loops", true},
                                                    {"--ndrange", false},
                                                    {"--subgroup-size", true},
                                                    {"--max-work-group-size", true},
                                                    {"--scheduler", true},
                                                    {"--time-limit", true},
                                                    {"--dump-problems", true},
                                                    {"--target", true},
                                                    {"--clock-period", true},
                                                    {"--fmax", true},
                                                    {"--jobs", true},
                                                    {"--fp-max-ulps", true},
                                                    {"--rtl", true}};
  Args a;
  if (argc < 2) usageError("no command");
  a.command = argv[1];
  // An unknown command is named before its options are looked at (`spvhls frobnicate --help` is an
  // error, not the general help).
  static const std::set<std::string> commands = {"compile", "run", "sim", "schedule", "as", "dis"};
  if (a.command == "--help" || a.command == "-h" || a.command == "help") {
    std::cout << kUsage;
    std::exit(0);
  }
  if (!commands.count(a.command)) usageError("unknown command '" + a.command + "'");
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    if (s.size() > 1 && s[0] == '-') {
      auto it = known.find(s);
      if (it == known.end()) usageError("unknown option " + s);
      if (it->second) {
        if (i + 1 >= argc) usageError("option " + s + " needs a value");
        a.opts[s] = argv[++i];
      } else {
        a.opts[s] = "1";
      }
    } else if (a.input.empty()) {
      a.input = s;
    } else {
      usageError("unexpected argument " + s);
    }
  }
  if (a.has("--help")) {
    std::cout << kUsage;
    std::exit(0);
  }
  if (a.input.empty()) usageError("no input file");
  return a;
}

uint64_t parseNumber(const std::string& opt, const std::string& v) {
  try {
    size_t pos = 0;
    unsigned long long n = std::stoull(v, &pos, 0);
    if (pos != v.size()) throw std::invalid_argument(v);
    return n;
  } catch (const std::exception&) {
    usageError(fmt::format("{} expects a number, got '{}'", opt, v));
  }
}

// A bad number on the command line is the user's error (exit 1), not an escaping std::invalid_argument.
double parseFraction(const std::string& opt, const std::string& v) {
  try {
    size_t pos = 0;
    double d = std::stod(v, &pos);
    if (pos == v.size()) return d;
  } catch (const std::exception&) {
  }
  usageError(fmt::format("{} expects a number, got '{}'", opt, v));
}

// --scheduler and --time-limit.
sched::MinIIOptions minIIOptions(const Args& a, sched::SchedulerKind dflt) {
  sched::MinIIOptions o;
  o.kind = dflt;
  if (a.has("--scheduler")) {
    const std::string k = a.get("--scheduler");
    if (k == "auto")
      o.kind = sched::SchedulerKind::Auto;
    else if (k == "heuristic")
      o.kind = sched::SchedulerKind::Heuristic;
    else if (k == "exact")
      o.kind = sched::SchedulerKind::Exact;
    else
      usageError("--scheduler expects auto, heuristic or exact, got '" + k + "'");
  }
  if (a.has("--time-limit")) {
    const double t = parseFraction("--time-limit", a.get("--time-limit"));
    if (!(t > 0 && t <= 86400)) usageError("--time-limit expects seconds in (0, 86400]");
    o.exact.timeLimitSeconds = t;
  } else if (o.kind == sched::SchedulerKind::Auto) {
    o.exact.timeLimitSeconds = sched::ExactOptions::kAutoTimeLimitSeconds;
  }
  return o;
}

driver::CompileOptions compileOptions(const Args& a, const std::string& kernel) {
  driver::CompileOptions o;
  o.kernel = kernel;
  std::string c = a.get("--cluster", "auto");
  if (c == "auto")
    o.cluster = rtl::ClusterMode::Auto;
  else if (c == "stall-free")
    o.cluster = rtl::ClusterMode::StallFree;
  else if (c == "stall-enable")
    o.cluster = rtl::ClusterMode::StallEnable;
  else
    usageError("--cluster expects auto, stall-free or stall-enable, got '" + c + "'");
  o.target = sched::targetNamed(a.get("--target", "generic-6lut-300mhz"));
  if (a.has("--clock-period") && a.has("--fmax")) usageError("give --clock-period or --fmax, not both");
  // The clock the schedule chains operations for; none (or 0) registers every result.
  if (a.has("--clock-period")) {
    const double ns = parseFraction("--clock-period", a.get("--clock-period"));
    if (!(ns >= 0 && ns <= 1e6))
      usageError("--clock-period expects nanoseconds in [0, 1000000] (0: no chaining)");
    o.target.clockPeriodNs = ns;
  } else if (a.has("--fmax")) {
    const double mhz = parseFraction("--fmax", a.get("--fmax"));
    if (!(mhz > 0 && mhz <= 1e5)) usageError("--fmax expects MHz in (0, 100000]");
    o.target.clockPeriodNs = 1000.0 / mhz;
  }
  if (o.target.clockPeriodNs > 0) o.target.clockMHz = 1000.0 / o.target.clockPeriodNs;
  if (a.has("--mem-latency")) {
    uint64_t l = parseNumber("--mem-latency", a.get("--mem-latency"));
    if (l < 1 || l > 1000) usageError("--mem-latency must be in 1..1000");
    o.target.memLatency = uint32_t(l);
  }
  if (a.has("--on-chip-budget")) {
    // Bytes, or KiB / MiB with a K or M suffix.
    std::string v = a.get("--on-chip-budget");
    uint64_t unit = 1;
    if (!v.empty() && (v.back() == 'K' || v.back() == 'k'))
      unit = 1024, v.pop_back();
    else if (!v.empty() && (v.back() == 'M' || v.back() == 'm'))
      unit = 1024 * 1024, v.pop_back();
    const uint64_t n = parseNumber("--on-chip-budget", v);
    if (n > (uint64_t(1) << 40) / unit) usageError("--on-chip-budget is larger than 1 TiB");
    o.onChipBudget = n * unit;
  }
  std::string inl = a.get("--inline", "auto");
  if (inl == "auto")
    o.inlinePolicy = ir::InlinePolicy::Auto;
  else if (inl == "always")
    o.inlinePolicy = ir::InlinePolicy::Always;
  else if (inl == "never")
    o.inlinePolicy = ir::InlinePolicy::Never;
  else
    usageError("--inline expects auto, always or never, got '" + inl + "'");
  o.fpReassociate = a.has("--fp-reassociate");
  const std::string share = a.get("--share-units", "on");
  if (share != "on" && share != "off") usageError("--share-units expects on or off, got '" + share + "'");
  o.shareUnits = share == "on";
  const std::string fusion = a.get("--fusion", "on");
  if (fusion != "on" && fusion != "off") usageError("--fusion expects on or off, got '" + fusion + "'");
  o.fuseLoops = fusion == "on";
  const std::string datapath = a.get("--datapath-opt", "on");
  if (datapath != "on" && datapath != "off")
    usageError("--datapath-opt expects on or off, got '" + datapath + "'");
  o.optimizeDatapath = datapath == "on";
  const std::string ramPorts = a.get("--ram-ports", "2");
  if (ramPorts != "1" && ramPorts != "2") usageError("--ram-ports expects 1 or 2, got '" + ramPorts + "'");
  o.ramPorts = ramPorts == "1" ? 1 : 2;
  if (a.has("--ram-read-ports")) {
    o.ramReadPorts = static_cast<uint32_t>(parseNumber("--ram-read-ports", a.get("--ram-read-ports")));
    if (o.ramReadPorts < 1 || o.ramReadPorts > 16)
      usageError("--ram-read-ports expects 1 to 16, got " + a.get("--ram-read-ports"));
  }
  const std::string outer = a.get("--outer-loops", "fsm");
  if (outer != "fsm" && outer != "pipelined")
    usageError("--outer-loops expects fsm or pipelined, got '" + outer + "'");
  o.pipelineOuterLoops = outer == "pipelined";
  o.ndRange = a.has("--ndrange");
  if (a.has("--subgroup-size"))
    o.subgroupSize = static_cast<uint32_t>(parseNumber("--subgroup-size", a.get("--subgroup-size")));
  if (a.has("--max-work-group-size")) {
    o.maxWorkGroupSize = parseNumber("--max-work-group-size", a.get("--max-work-group-size"));
    if (o.maxWorkGroupSize < 1 || o.maxWorkGroupSize > (1u << 20))
      usageError("--max-work-group-size expects 1 to 1048576 work-items");
  }
  o.minII = minIIOptions(a, sched::SchedulerKind::Auto);
  return o;
}

void writeFile(const std::string& path, const std::string& text) {
  if (auto dir = fs::path(path).parent_path(); !dir.empty()) fs::create_directories(dir);
  std::ofstream f(path, std::ios::binary);
  if (!f) throw DiagnosticError(SourceLoc{path}, "", "cannot write the file");
  f << text;
}

std::string defaultOutDir(const std::string& input) {
  return (fs::path("out") / fs::path(input).stem()).string();
}

} // namespace spvhls::driver
