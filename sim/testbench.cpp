// The Verilator simulation harness: test-bench generation, building (verilator --build) and running.
#include "sim/testbench.h"

#include <atomic>
#include <chrono>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "frontend/diagnostics.h"
#include "sim/systemc.h"

extern char** environ;

namespace spvhls::sim {
namespace {

namespace fs = std::filesystem;

#ifndef SPVHLS_SIM_DIR
#error "SPVHLS_SIM_DIR must point at the directory holding tb_template.cpp.in"
#endif

[[noreturn]] void fail(const std::string& file, const std::string& construct, const std::string& message) {
  SourceLoc loc;
  loc.file = file;
  throw DiagnosticError(loc, construct, message);
}

bool readFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

void writeFile(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  if (!out) fail(path, "simulation", fmt::format("cannot write file: {}", std::strerror(errno)));
}

// Writes only when the contents differ, so that make does not rebuild an unchanged bench.
void writeFileIfChanged(const std::string& path, const std::string& data) {
  std::string old;
  if (readFile(path, old) && old == data) return;
  writeFile(path, data);
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s)
    h = (h ^ c) * 0x100000001b3ull;
  return h;
}

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_')) return false;
  return true;
}

std::string lastLines(const std::string& text, size_t n) {
  size_t pos = text.size();
  if (pos && text[pos - 1] == '\n') --pos;
  for (size_t i = 0; i < n && pos != std::string::npos && pos > 0; ++i)
    pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

// The lines of a build log that say what went wrong (compiler and Verilator errors), else its end.
std::string errorSummary(const std::string& log) {
  std::string errors;
  size_t count = 0;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line) && count < 20;)
    if (line.find("%Error") != std::string::npos || line.find("error:") != std::string::npos)
      errors += line + "\n", ++count;
  return errors.empty() ? lastLines(log, 40) : errors;
}

// Runs argv[0] (looked up in PATH) with stdout and stderr written to logPath; returns the exit
// status, or 128 + signal when it was killed.
int runProcess(const std::vector<std::string>& argv, const std::string& logPath, const std::string& cwd = "",
               const std::function<void()>& whileWaiting = {}) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  posix_spawn_file_actions_addopen(&fa, 1, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<char*> args;
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The C locale keeps compiler messages plain ASCII and stable for diagnostics and tests.
  std::vector<std::string> envStrings = {"LC_ALL=C"};
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "LC_ALL=", 7) != 0) envStrings.push_back(*e);
  std::vector<char*> env;
  for (auto& e : envStrings)
    env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) fail(argv[0], "simulation", fmt::format("cannot start {}: {}", argv[0], std::strerror(rc)));
  int status = 0;
  // With whileWaiting, polled every 50 ms; whileWaiting runs about once a second until the process exits.
  for (int polls = 1;; ++polls) {
    const pid_t done = waitpid(pid, &status, whileWaiting ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR)
      fail(argv[0], "simulation", fmt::format("waitpid failed: {}", std::strerror(errno)));
    if (done != 0) continue;
    usleep(50'000);
    if (polls % 20 == 0) whileWaiting();
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// " OBJCACHE=ccache" when ccache is on the PATH, else "". Verilator's runtime (verilated.cpp: 13 s of
// g++ -O1 on 2 cores under the test suite's load) is the same for every model and was most
// of a small kernel's build (vadd: 5.9 s, 2.2 s with it cached): ccache compiles it once.
std::string objCache() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && access((dir + "/ccache").c_str(), X_OK) == 0) return " OBJCACHE=ccache";
  return "";
}

void validateInterface(const SimInterface& iface, const std::string& file) {
  if (!isIdentifier(iface.module))
    fail(file, "simulation interface",
         fmt::format("module name '{}' is not a Verilog identifier", iface.module));
  std::set<std::string> seen;
  for (const auto& p : iface.ports) {
    if (!seen.insert(p.name).second)
      fail(file, "simulation interface", fmt::format("port name '{}' appears twice", p.name));
    if (!isIdentifier(p.name))
      fail(file, "simulation interface", fmt::format("port name '{}' is not a Verilog identifier", p.name));
    if (!p.isPointer && (p.width < 1 || p.width > 64))
      fail(file, "simulation interface",
           fmt::format("scalar argument '{}' is {} bits wide; the test bench supports 1 to 64", p.name,
                       p.width));
    if (p.isPointer && p.width != 0 && (p.width < 64 || p.width > 1024 || !std::has_single_bit(p.width)))
      fail(file, "simulation interface",
           fmt::format("memory port '{}' is {} bits wide; expected 64 or a wider power of two up to 1024",
                       p.name, p.width));
  }
}

// C++ statements that bind the Verilated model's ports to the bench's port tables.
std::string bindPortsCode(const SimInterface& iface) {
  std::string code;
  for (const auto& p : iface.ports) {
    if (!p.isPointer) {
      uint32_t bytes = p.width <= 8 ? 1 : p.width <= 16 ? 2 : p.width <= 32 ? 4 : 8; // Verilator's C type
      code +=
          fmt::format("  static_assert(sizeof(top->arg_{0}) == {1}, \"arg_{0} must be {2} bits wide\");\n",
                      p.name, bytes, p.width);
      code +=
          fmt::format("  scalars.push_back(ScalarArg{{\"{0}\", {1}, [top](uint64_t v) {{ top->arg_{0} = v & "
                      "widthMask({1}); }}}});\n",
                      p.name, p.width);
      continue;
    }
    // Readable compile errors for ports whose width does not match docs/hardware-interface.md. The
    // data ports are QData at 64 bits and VlWide above: their bytes, in order, on a little-endian host.
    const uint32_t dataBytes = (p.width ? p.width : 64) / 8;
    code +=
        fmt::format("  static_assert(sizeof(top->mem_{0}_req_addr) == 8, \"mem_{0}_req_addr must be 64 bits "
                    "wide\");\n",
                    p.name);
    for (const char* sig : {"req_wdata", "resp_data"})
      code += fmt::format("  static_assert(sizeof(top->mem_{0}_{1}) == {2}, \"mem_{0}_{1} must be {3} bits "
                          "wide\");\n",
                          p.name, sig, dataBytes, 8 * dataBytes);
    for (const char* sig : {"req_valid", "req_ready", "req_write", "req_size", "resp_valid"})
      code += fmt::format(
          "  static_assert(sizeof(top->mem_{0}_{1}) == 1, \"mem_{0}_{1} must be at most 8 bits wide\");\n",
          p.name, sig);
    code +=
        fmt::format("  mems.push_back(MemPort{{\"{0}\", &top->mem_{0}_req_valid, &top->mem_{0}_req_ready, "
                    "&top->mem_{0}_req_write, &top->mem_{0}_req_addr, &top->mem_{0}_req_size, "
                    "reinterpret_cast<uint8_t*>(&top->mem_{0}_req_wdata), &top->mem_{0}_resp_valid, "
                    "reinterpret_cast<uint8_t*>(&top->mem_{0}_resp_data), {1}, {{}}}});\n",
                    p.name, dataBytes);
  }
  return code;
}


// A Verilog identifier as Verilator names it in C++ (a second underscore of a pair and `$` escaped).
std::string verilatorName(const std::string& id) {
  std::string out;
  for (size_t i = 0; i < id.size(); ++i) {
    if (id[i] == '_' && i + 1 < id.size() && id[i + 1] == '_') {
      out += "___05F";
      ++i;
    } else if (id[i] == '$') {
      out += "__024";
    } else {
      out += id[i];
    }
  }
  return out;
}

void putU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(char(uint8_t(v >> (8 * i))));
}

bool getU64(const std::string& in, size_t& pos, uint64_t& v) {
  if (in.size() - pos < 8) return false;
  v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | uint8_t(in[pos + i]);
  pos += 8;
  return true;
}

// A C++ string literal holding `s`.
std::string cString(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) < 0x20) out += fmt::format("\\x{:02x}", int(ch));
    else out += ch;
  }
  return out + "\"";
}

// Statements binding the loop, FSM and task probes to the model `top` (its root's signals).
std::string probesCode(const SimInterface& iface) {
  const std::string root = "top->rootp->" + verilatorName(iface.module) + "__DOT__";
  std::string probes;
  // A loop's instance path below the top: u_loop<l>, or its caller's path then u_sub<op>.
  auto copied = [&](size_t l) { return l < iface.loopCopies.size() && iface.loopCopies[l] > 1; };
  std::function<std::string(size_t)> instance = [&](size_t l) -> std::string {
    if (l >= iface.loopCallers.size() || iface.loopCallers[l].first < 0) return fmt::format("u_loop{}", l);
    return instance(size_t(iface.loopCallers[l].first)) +
           fmt::format("__DOT__u_sub{}{}", iface.loopCallers[l].second, copied(l) ? "_0" : "");
  };
  for (size_t l = 0; l < iface.loops.size(); ++l) {
    std::string start = fmt::format("lp{}_start", l), started = fmt::format("lp{}_started", l);
    std::string ready = "nullptr, false";
    if (l < iface.loopCallers.size() && iface.loopCallers[l].first >= 0) {
      const std::string caller = instance(size_t(iface.loopCallers[l].first));
      start = fmt::format("{}__DOT__sp{}_start", caller, iface.loopCallers[l].second);
      started = fmt::format("{}__DOT__sp{}_busy", caller, iface.loopCallers[l].second);
      const bool reinvocable = l < iface.loopReinvocable.size() && iface.loopReinvocable[l];
      if (!copied(l))
        ready = fmt::format("&{}{}__DOT__sp{}_{}, {}", root, caller, iface.loopCallers[l].second,
                            reinvocable ? "accept" : "done", reinvocable ? "true" : "false");
    }
    probes += fmt::format(
        "  loops.push_back(LoopProbe{{&{0}{1}, &{0}{2}, &{0}{3}__DOT__issue, {4}, {5}, {6}}});\n", root,
        start, started, instance(l), cString(iface.loops[l]), copied(l) ? "false" : "true", ready);
  }
  if (!iface.blocks.empty()) {
    probes += fmt::format("  fsm.block = [top] {{ return uint64_t({0}blk); }};\n  fsm.cycle = [top] {{ return "
                          "uint64_t({0}cyc); }};\n",
                          root);
    for (const std::string& b : iface.blocks)
      probes += fmt::format("  fsm.names.push_back({});\n", cString(b));
    for (const SimInterface::Wait& w : iface.waits)
      probes += fmt::format("  fsm.waits.push_back({{{}, {}, {}}});\n", w.block, w.cycle, cString(w.what));
  }
  for (size_t t = 0; t < iface.tasks.size(); ++t)
    probes += fmt::format("  tasks.push_back(TaskProbe{{[top] {{ return uint64_t({0}tk{1}_run); }}, [top] {{ return "
                          "uint64_t({0}tk{1}_fin); }}, [top] {{ return uint64_t({0}tk{1}_queued); }}, [top] {{ return "
                          "uint64_t({0}tk{1}_results); }}, {2}}});\n",
                          root, t + 1, cString(iface.tasks[t]));
  return probes;
}

} // namespace

namespace detail {

std::string benchFile(const std::string& name) {
  const std::string path = std::string(SPVHLS_SIM_DIR) + "/" + name;
  std::string text;
  if (!readFile(path, text))
    fail(path, "simulation", "cannot read the test-bench template (is the source tree present?)");
  return text;
}

std::string benchTemplate(const std::string& name, const SimInterface& iface) {
  std::string tmpl = benchFile(name);
  validateInterface(iface, name);
  replaceAll(tmpl, "@COMMON@", benchFile("bench_common.inc"));
  replaceAll(tmpl, "@MODULE@", iface.module);
  replaceAll(tmpl, "@BIND_LOOPS@", probesCode(iface));
  return tmpl;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

} // namespace detail

std::string generateTestbench(const SimInterface& iface) {
  std::string tmpl = detail::benchTemplate("tb_template.cpp.in", iface);
  detail::replaceAll(tmpl, "@BIND_PORTS@", bindPortsCode(iface));
  return tmpl;
}

std::string buildSimulator(const std::string& verilogFile, const SimInterface& iface,
                           const std::string& workDir, bool trace) {
  return buildSimulator(std::vector<std::string>{verilogFile}, iface, workDir, trace);
}

std::string buildSimulator(const std::vector<std::string>& verilogFiles, const SimInterface& iface,
                           const std::string& workDir, bool trace, bool optimize, Bench kind, bool traceFst) {
  if (verilogFiles.empty()) fail(workDir, "simulation", "no Verilog files to simulate");
  const std::string& verilogFile = verilogFiles.front(); // named in diagnostics
  std::string verilog; // every file's name and contents: part of the rebuild key
  for (const auto& f : verilogFiles) {
    std::string text;
    if (!readFile(f, text)) fail(f, "simulation", "cannot read the Verilog file");
    verilog += f + '\0' + text + '\0';
  }
  validateInterface(iface, verilogFile);
  const bool systemc = kind == Bench::SystemC;
  std::string bench = systemc ? generateScBench(iface) : generateTestbench(iface);

  std::error_code ec;
  fs::create_directories(workDir, ec);
  if (ec) fail(workDir, "simulation", fmt::format("cannot create the work directory: {}", ec.message()));
  std::string dir = fs::absolute(workDir).lexically_normal().string();
  std::string benchPath = dir + (systemc ? "/tb_sc_" : "/tb_") + iface.module + ".cpp";
  std::string objDir = dir + "/obj";
  std::string exe = objDir + "/sim";
  writeFileIfChanged(benchPath, bench);
  if (systemc) { // the wrapper the bench instances, as a platform would
    const std::string wrapper = generateScWrapper(iface), tlm = tlmHeader();
    writeFileIfChanged(dir + "/" + iface.module + "_sc.h", wrapper);
    writeFileIfChanged(dir + "/spvhls_tlm.h", tlm);
    bench += wrapper + tlm; // part of the rebuild key
    // Where Debian keeps SystemC, unless the environment says otherwise (verilated.mk reads these).
    setenv("SYSTEMC_INCLUDE", "/usr/include", 0);
    setenv("SYSTEMC_LIBDIR", "/usr/lib/x86_64-linux-gnu", 0);
  }

  const char* opt = optimize ? "-O1" : "-O0";
  std::vector<std::string> cmd = {
      "verilator", systemc ? "--sc" : "--cc", "--exe", "--build", "-j", "2", "--assert", "-Wno-fatal",
      // random values for X assignments and uninitialised state (seeded at run time)
      "--x-assign", "unique", "--x-initial", "unique", "--top-module", iface.module, "--prefix",
      systemc ? "V" + iface.module : std::string("Vtop"), "-Mdir", objDir, "-o", "sim",
      // the model is small: low optimisation keeps the build short (the runtime, OPT_GLOBAL, is
      // the same for every model: -O1, compiled once through ccache)
      "-CFLAGS", fmt::format("{} -DVL_USER_FATAL{}", opt, systemc ? " -I" + dir : ""), "-MAKEFLAGS",
      fmt::format("OPT_FAST={0} OPT_SLOW={0} OPT_GLOBAL=-O1{1}", opt, objCache())};
  if (trace) cmd.push_back(traceFst ? "--trace-fst" : "--trace");
  cmd.push_back(benchPath);
  for (const auto& f : verilogFiles)
    cmd.push_back(fs::absolute(f).lexically_normal().string());

  std::string cmdLine;
  for (const auto& a : cmd)
    cmdLine += a + "\x1f";
  std::string key = fmt::format("{:016x} {:016x} {:016x}\n", fnv1a(verilog), fnv1a(bench), fnv1a(cmdLine));
  std::string keyPath = dir + "/build.key", oldKey;
  if (readFile(keyPath, oldKey) && oldKey == key && fs::exists(exe)) return exe;

  fs::remove(keyPath, ec);
  std::string logPath = dir + "/build.log";
  int rc = runProcess(cmd, logPath);
  std::string log;
  readFile(logPath, log);
  if (rc != 0 || !fs::exists(exe))
    fail(verilogFile, "verilator",
         fmt::format("building the simulator failed (exit status {}; full log in {}):\n{}", rc, logPath,
                     errorSummary(log)));
  writeFile(keyPath, key);
  return exe;
}

// A memory of wordBytes-byte words written by $writememh: one hex value per line; `//` comments and
// `@address` lines (word addresses, which Verilator and other simulators may write) are understood.
// The first `size` bytes, each word little-endian.
std::vector<uint8_t> readMemoryDump(const std::string& path, uint64_t size, uint32_t wordBytes) {
  std::string text;
  if (!readFile(path, text)) fail(path, "simulation", "the RAM module wrote no final contents ($writememh)");
  std::vector<uint8_t> bytes(size, 0);
  std::istringstream in(text);
  uint64_t at = 0;
  for (std::string tok; in >> tok;) {
    if (tok.rfind("//", 0) == 0) {
      std::getline(in, tok);
      continue;
    }
    const bool address = tok[0] == '@';
    const std::string digits = tok.substr(address);
    if (digits.empty() || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      fail(path, "simulation", fmt::format("unexpected '{}' in a memory dump", tok));
    if (address) {
      at = std::strtoull(digits.c_str(), nullptr, 16);
      continue;
    }
    // A word of any width (a RAM accessed by whole vectors has words above 64 bits): hex digits, most
    // significant first.
    const size_t significant = digits.size() - std::min(digits.find_first_not_of('0'), digits.size() - 1);
    if (significant > 2 * size_t(wordBytes))
      fail(path, "simulation",
           fmt::format("value {} in a dump of a memory of {}-byte words", tok, wordBytes));
    for (size_t d = 0; d < significant; ++d) {
      const char c = digits[digits.size() - 1 - d];
      const uint32_t nibble = uint32_t(std::isdigit(c) ? c - '0' : std::tolower(c) - 'a' + 10);
      const uint64_t byte = at * wordBytes + d / 2;
      if (byte < size) bytes[byte] = uint8_t(bytes[byte] | (nibble << (4 * (d % 2))));
    }
    ++at;
  }
  if (at * wordBytes < size)
    fail(path, "simulation", fmt::format("the dump holds {} of the memory's {} bytes", at * wordBytes, size));
  return bytes;
}

SimResult runSimulator(const std::string& exe, const SimInterface& iface, const RunSpec& spec,
                       const BufferSet& init, const SimOptions& o) {
  auto specError = [&](const std::string& msg) { fail(spec.path, "run spec", msg); };
  if (o.minLatency < 1 || o.maxLatency < o.minLatency)
    fail(exe, "simulation options",
         fmt::format("read latency range [{}, {}] is invalid: need 1 <= min <= max", o.minLatency,
                     o.maxLatency));
  if (!(o.readyProb > 0.0 && o.readyProb <= 1.0))
    fail(exe, "simulation options",
         fmt::format("ready probability {} is invalid: need 0 < p <= 1", o.readyProb));
  if (init.size() != spec.args.size())
    specError(fmt::format("{} initial buffers given for {} arguments", init.size(), spec.args.size()));

  // Input file: scalar values, then buffers, each group in interface order (see tb_template.cpp.in).
  std::string in, buffers;
  std::vector<const SimPort*> pointerPorts;
  bool ramDumps = false;
  for (const SimMemory& m : iface.memories)
    ramDumps |= !m.module.empty();
  for (const auto& p : iface.ports) {
    if (p.memory >= 0) { // an external memory, loaded with its image
      if (size_t(p.memory) >= iface.memories.size() ||
          iface.memories[p.memory].image.size() != iface.memories[p.memory].sizeBytes)
        fail(exe, "simulation interface",
             fmt::format("port '{}' names no external memory with an image", p.name));
      pointerPorts.push_back(&p);
      putU64(buffers, iface.memories[p.memory].image.size());
      buffers.append(iface.memories[p.memory].image.begin(), iface.memories[p.memory].image.end());
      continue;
    }
    if (p.argIndex >= spec.args.size())
      specError(fmt::format("the kernel's port '{}' is argument {}, but the run spec has only {} arguments",
                            p.name, p.argIndex, spec.args.size()));
    const ArgSpec& a = spec.args[p.argIndex];
    if (a.isBuffer != p.isPointer)
      specError(fmt::format("argument {} ('{}'): the kernel expects a {}, the run spec gives a {}",
                            p.argIndex, a.name, p.isPointer ? "buffer" : "scalar value",
                            a.isBuffer ? "buffer" : "scalar value"));
    if (p.isPointer) {
      pointerPorts.push_back(&p);
      putU64(buffers, init[p.argIndex].size());
      buffers.append(init[p.argIndex].begin(), init[p.argIndex].end());
    } else {
      putU64(in, a.scalar);
    }
  }
  in += buffers;

  static std::atomic<uint64_t> counter{0};
  // Absolute paths: the simulator runs in a directory of its own when it dumps memories.
  const std::string exePath = fs::absolute(exe).string();
  std::string base =
      fmt::format("{}/run-{}-{}", fs::path(exePath).parent_path().string(), getpid(), counter++);
  std::string inPath = base + ".in", outPath = base + ".out", statusPath = base + ".status",
              logPath = base + ".log", writesPath = base + ".writes", progressPath = base + ".progress";
  writeFile(inPath, in);
  std::vector<std::string> cmd = {exePath,
                                  "--in",
                                  inPath,
                                  "--out",
                                  outPath,
                                  "--status",
                                  statusPath,
                                  "--seed",
                                  std::to_string(o.seed),
                                  "--min-lat",
                                  std::to_string(o.minLatency),
                                  "--max-lat",
                                  std::to_string(o.maxLatency),
                                  "--ready-prob",
                                  fmt::format("{:.17g}", o.readyProb),
                                  "--max-cycles",
                                  std::to_string(o.maxCycles),
                                  "--watchdog",
                                  std::to_string(o.watchdogCycles),
                                  "--writes",
                                  writesPath};
  if (o.onProgress) cmd.insert(cmd.end(), {"--progress", progressPath});
  if (!o.traceFile.empty()) cmd.insert(cmd.end(), {"--trace", fs::absolute(o.traceFile).string()});
  const std::string memDir = base + ".mem";
  bool ramLoads = false;
  for (const SimMemory& m : iface.memories) {
    if (m.module.empty() || m.image.empty()) continue;
    // The words of the RAM as $readmemh reads them (little-endian bytes in each word).
    if (m.image.size() != m.sizeBytes || m.wordBytes == 0 || m.wordBytes > 128)
      fail(exe, "simulation interface",
           fmt::format("RAM {}: an image of {} bytes for {} bytes", m.module, m.image.size(), m.sizeBytes));
    fs::create_directories(memDir);
    std::string hex;
    for (uint64_t w = 0; w * m.wordBytes < m.sizeBytes; ++w) {
      for (uint32_t k = m.wordBytes; k-- > 0;) { // most significant byte first
        const uint64_t at = w * m.wordBytes + k;
        hex += fmt::format("{:02x}", at < m.sizeBytes ? m.image[at] : 0);
      }
      hex += '\n';
    }
    writeFile(memDir + "/" + m.module + ".init.hex", hex);
    cmd.insert(cmd.end(), {"--plusarg", "spvhls_load_" + m.module});
    ramLoads = true;
  }
  if (ramDumps) {
    fs::create_directories(memDir);
    cmd.insert(cmd.end(), {"--plusarg", "spvhls_dump_memories"});
  }
  const auto began = std::chrono::steady_clock::now();
  std::function<void()> poll;
  if (o.onProgress)
    poll = [&] {
      std::string text;
      uint64_t cycle = 0;
      if (readFile(progressPath, text) && std::sscanf(text.c_str(), "cycle %lu", &cycle) == 1)
        o.onProgress(cycle, std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    };
  int rc = runProcess(cmd, logPath, ramDumps || ramLoads ? memDir : "", poll);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();

  SimResult r;
  r.seconds = seconds;
  std::string status, out;
  readFile(logPath, r.log);
  bool haveStatus = readFile(statusPath, status);
  bool haveOut = readFile(outPath, out);
  std::string writes; // the SystemC bench writes none
  const bool haveWrites = readFile(writesPath, writes);
  for (const auto& p : {inPath, outPath, statusPath, logPath, writesPath, progressPath})
    std::remove(p.c_str());
  if (!haveStatus)
    fail(exe, "simulation",
         fmt::format("the simulator exited with status {} without a result:\n{}", rc, lastLines(r.log, 20)));

  // status file: "status ok|error\ncycles N\nloops K\n<K lines: invocations reinvocations min max waited
  // waited-min waited-max>
  // \nmessage\n<message>"
  std::istringstream ss(status);
  std::string word, state;
  uint64_t loops = 0;
  ss >> word >> state >> word >> r.cycles >> word >> loops;
  for (uint64_t l = 0; ss && l < loops; ++l) {
    LoopLaunches x;
    ss >> x.invocations >> x.reinvocations >> x.minDelay >> x.maxDelay >> x.waited >> x.waitedMin >>
        x.waitedMax;
    r.loops.push_back(x);
  }
  ss >> word;
  if (!ss || (state != "ok" && state != "error") || loops != iface.loops.size())
    fail(statusPath, "simulation", "malformed simulator status file");
  std::getline(ss, word);
  r.error.assign(std::istreambuf_iterator<char>(ss), {});
  r.finished = state == "ok";
  if (!r.finished && r.error.empty()) r.error = "simulation failed without a message";
  if (!r.finished && !r.log.empty()) r.error += "\nsimulator output:\n" + lastLines(r.log, 20);

  r.buffers = init;
  r.memories.resize(iface.memories.size());
  if (haveOut) {
    size_t pos = 0;
    for (const SimPort* p : pointerPorts) {
      std::vector<uint8_t>& to = p->memory >= 0 ? r.memories[p->memory] : r.buffers[p->argIndex];
      const uint64_t expected =
          p->memory >= 0 ? iface.memories[p->memory].sizeBytes : init[p->argIndex].size();
      uint64_t len = 0;
      if (!getU64(out, pos, len) || out.size() - pos < len || len != expected)
        fail(outPath, "simulation", "malformed simulator output file");
      to.assign(out.begin() + pos, out.begin() + pos + len);
      pos += len;
    }
  } else if (r.finished) {
    fail(outPath, "simulation", "the simulator finished without writing its buffers");
  }
  if (haveWrites) {
    r.lastWrite.assign(init.size(), {});
    size_t pos = 0;
    for (const SimPort* p : pointerPorts) {
      uint64_t len = 0;
      if (!getU64(writes, pos, len) || (writes.size() - pos) / 4 < len)
        fail(writesPath, "simulation", "malformed simulator write-cycle file");
      if (p->memory < 0) {
        std::vector<uint32_t>& to = r.lastWrite[p->argIndex];
        to.resize(len);
        std::memcpy(to.data(), writes.data() + pos, 4 * len);
      }
      pos += 4 * len;
    }
  }
  for (size_t i = 0; i < iface.memories.size(); ++i) {
    const SimMemory& m = iface.memories[i];
    if (r.finished && !m.module.empty())
      r.memories[i] = readMemoryDump(memDir + "/" + m.module + ".hex", m.sizeBytes, m.wordBytes);
  }
  if (ramDumps || ramLoads) fs::remove_all(memDir);
  return r;
}

} // namespace spvhls::sim
