// Tests of the Verilator harness (sim/testbench.h) with hand-written Verilog fixtures in
// tests/unit/data/testbench/: a correct vector-add kernel and a kernel with selectable faults.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "frontend/diagnostics.h"
#include "sim/systemc.h"
#include "sim/testbench.h"

using namespace spvhls;
using namespace spvhls::sim;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(SPVHLS_SOURCE_DIR) + "/tests/unit/data/testbench";
const std::string kWork = std::string(SPVHLS_BINARY_DIR) + "/testbench_work";

ArgSpec bufferArg(const std::string& name, const std::vector<int32_t>& values) {
  ArgSpec a;
  a.name = name;
  a.isBuffer = true;
  a.length = values.size();
  a.init.resize(values.size() * 4);
  std::memcpy(a.init.data(), values.data(), a.init.size());
  return a;
}

ArgSpec scalarArg(const std::string& name, uint64_t v) {
  ArgSpec a;
  a.name = name;
  a.scalar = v;
  return a;
}

BufferSet buffersOf(const RunSpec& spec) {
  BufferSet b;
  for (const auto& a : spec.args)
    b.push_back(a.isBuffer ? a.init : std::vector<uint8_t>{});
  return b;
}

std::vector<int32_t> ints(const std::vector<uint8_t>& bytes) {
  std::vector<int32_t> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

std::vector<int32_t> randomInts(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int32_t> v(n);
  for (auto& x : v)
    x = int32_t(rng()); // full range: the sum wraps like the hardware's
  return v;
}

// The vadd fixture is split over two files (top module first).
std::vector<std::string> vaddFiles() {
  return {kData + "/vadd.v", kData + "/vadd_reader.v"};
}

// vadd(a, b, c, n): ports in kernel parameter order.
SimInterface vaddInterface() {
  return {"vadd", {{"a", true, 64, 0}, {"b", true, 64, 1}, {"c", true, 64, 2}, {"n", false, 32, 3}}};
}

struct Vadd {
  RunSpec spec;
  std::vector<int32_t> a, b, c0;
  uint32_t n;
};

// c has 3 extra elements holding a sentinel that the kernel must not touch.
Vadd makeVadd(uint32_t n, uint32_t seed) {
  Vadd v;
  v.n = n;
  v.a = randomInts(n, seed);
  v.b = randomInts(n, seed + 1000);
  v.c0.assign(n + 3, 0x77777777);
  v.spec.path = "vadd.run.json";
  v.spec.kernel = "vadd";
  v.spec.args = {bufferArg("a", v.a), bufferArg("b", v.b), bufferArg("c", v.c0), scalarArg("n", n)};
  return v;
}

void checkVaddResult(const Vadd& v, const SimResult& r) {
  REQUIRE_MESSAGE(r.finished, r.error);
  CHECK(r.error.empty());
  REQUIRE(r.buffers.size() == 4);
  CHECK(ints(r.buffers[0]) == v.a);
  CHECK(ints(r.buffers[1]) == v.b);
  CHECK(r.buffers[3].empty());
  std::vector<int32_t> expected = v.c0;
  for (uint32_t i = 0; i < v.n; ++i)
    expected[i] = int32_t(uint32_t(v.a[i]) + uint32_t(v.b[i]));
  CHECK(ints(r.buffers[2]) == expected);
}

const std::string& vaddSim() {
  static const std::string exe = buildSimulator(vaddFiles(), vaddInterface(), kWork + "/vadd", true);
  return exe;
}

// faulty(a, out, n, mode)
SimInterface faultyInterface() {
  return {"faulty", {{"a", true, 64, 0}, {"out", true, 64, 1}, {"n", false, 32, 2}, {"mode", false, 8, 3}}};
}

const std::string& faultySim() {
  static const std::string exe =
      buildSimulator(kData + "/faulty.v", faultyInterface(), kWork + "/faulty", false);
  return exe;
}

RunSpec faultySpec(uint32_t n, uint32_t mode) {
  RunSpec s;
  s.path = "faulty.run.json";
  s.kernel = "faulty";
  std::vector<int32_t> a(n);
  for (uint32_t i = 0; i < n; ++i)
    a[i] = int32_t(i * 7 + 1);
  s.args = {bufferArg("a", a), bufferArg("out", {0}), scalarArg("n", n), scalarArg("mode", mode)};
  return s;
}

SimResult runFaulty(uint32_t n, uint32_t mode, SimOptions o = {}) {
  RunSpec s = faultySpec(n, mode);
  return runSimulator(faultySim(), faultyInterface(), s, buffersOf(s), o);
}

// probed(out, hang): the FSM and loop signals the bench watches (probed.v).
SimInterface probedInterface() {
  SimInterface i{"probed", {{"out", true, 64, 0}, {"hang", false, 8, 1}}};
  i.loops = {"inner"};
  i.blocks = {"entry", "for.cond.loop", "latch", "store"};
  return i;
}

SimResult runProbed(uint32_t hang, SimOptions o = {}) {
  static const std::string exe =
      buildSimulator(kData + "/probed.v", probedInterface(), kWork + "/probed", false);
  RunSpec s;
  s.path = "probed.run.json";
  s.kernel = "probed";
  s.args = {bufferArg("out", {0}), scalarArg("hang", hang)};
  return runSimulator(exe, probedInterface(), s, buffersOf(s), o);
}

} // namespace

TEST_CASE("vadd fixture: random latency and back-pressure give the exact sums for several seeds") {
  Vadd v = makeVadd(100, 7);
  std::set<uint64_t> cycleCounts;
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    CAPTURE(seed);
    SimOptions o;
    o.seed = seed;
    o.minLatency = 1;
    o.maxLatency = 10;
    o.readyProb = 0.5;
    SimResult r = runSimulator(vaddSim(), vaddInterface(), v.spec, buffersOf(v.spec), o);
    checkVaddResult(v, r);
    // 100 writes at a 50% ready rate cannot complete in fewer than 100 cycles.
    CHECK(r.cycles > 100);
    cycleCounts.insert(r.cycles);
  }
  CHECK(cycleCounts.size() > 1); // the seed changes the memory's timing
}

TEST_CASE(
    "harness: an external memory's port is loaded with its image and read back, not from the run spec") {
  // vadd's port c modelled as an external memory (a variable past the on-chip budget): the same
  // Verilog, the same port order, but c's buffer comes from the interface's image and its final
  // contents from SimResult::memories. The run spec has only a, b and n.
  Vadd v = makeVadd(40, 11);
  SimInterface iface = vaddInterface();
  iface.ports[2].memory = 0;
  iface.ports[3].argIndex = 2;
  std::vector<uint8_t> image(v.c0.size() * 4);
  std::memcpy(image.data(), v.c0.data(), image.size());
  iface.memories.push_back({"", image.size(), 1, image});
  RunSpec s = v.spec;
  s.args.erase(s.args.begin() + 2);
  SimOptions o;
  o.seed = 3, o.minLatency = 1, o.maxLatency = 6, o.readyProb = 0.7;
  SimResult r = runSimulator(vaddSim(), iface, s, buffersOf(s), o);
  REQUIRE_MESSAGE(r.finished, r.error);
  REQUIRE(r.memories.size() == 1);
  std::vector<int32_t> expected = v.c0;
  for (uint32_t i = 0; i < v.n; ++i)
    expected[i] = int32_t(uint32_t(v.a[i]) + uint32_t(v.b[i]));
  CHECK(ints(r.memories[0]) == expected); // the sentinels past n come from the image
  CHECK(ints(r.buffers[0]) == v.a);
  // An image of the wrong size is the interface's error, not a crash.
  iface.memories[0].image.pop_back();
  CHECK_THROWS_AS(runSimulator(vaddSim(), iface, s, buffersOf(s), o), DiagnosticError);
}

TEST_CASE("vadd fixture: a seed reproduces its run; an ideal memory gives full throughput") {
  Vadd v = makeVadd(150, 11);
  SimOptions slow;
  slow.seed = 42;
  slow.minLatency = 2;
  slow.maxLatency = 9;
  slow.readyProb = 0.6;
  SimResult r1 = runSimulator(vaddSim(), vaddInterface(), v.spec, buffersOf(v.spec), slow);
  SimResult r2 = runSimulator(vaddSim(), vaddInterface(), v.spec, buffersOf(v.spec), slow);
  checkVaddResult(v, r1);
  checkVaddResult(v, r2);
  CHECK(r1.cycles == r2.cycles);

  SimResult fast = runSimulator(vaddSim(), vaddInterface(), v.spec, buffersOf(v.spec), SimOptions{});
  checkVaddResult(v, fast);
  // Always ready, latency 1: one element per cycle plus a few cycles of pipeline fill and done.
  CHECK(fast.cycles >= 150);
  CHECK(fast.cycles <= 160);
  CHECK(fast.cycles < r1.cycles);
}

TEST_CASE("vadd fixture: the bench records the cycle of each byte's last write, for mismatch reports") {
  Vadd v = makeVadd(20, 9);
  SimOptions o;
  o.seed = 3;
  o.readyProb = 0.7;
  SimResult r = runSimulator(vaddSim(), vaddInterface(), v.spec, buffersOf(v.spec), o);
  checkVaddResult(v, r);
  REQUIRE(r.lastWrite.size() == 4);
  CHECK(std::all_of(r.lastWrite[0].begin(), r.lastWrite[0].end(), [](uint32_t w) { return w == 0; })); // a: read
  const std::vector<uint32_t>& c = r.lastWrite[2];
  REQUIRE(c.size() == 4 * 23);
  for (size_t b = 0; b < c.size(); ++b) {
    CAPTURE(b);
    if (b < 4 * 20) CHECK((c[b] > 0 && c[b] <= r.cycles + 1)); // written, before done
    else CHECK(c[b] == 0);                                    // the sentinel after c[n - 1]
  }
  // A mismatch names the write's cycle (or that there was none).
  BufferSet wrong = r.buffers;
  wrong[2][4 * 5] ^= 1;
  wrong[2][4 * 21] ^= 1;
  const std::string report = compareBuffers(v.spec, wrong, r.buffers, 10, &r.lastWrite);
  CHECK(report.find(fmt::format("element 5: expected")) != std::string::npos);
  CHECK(report.find(fmt::format("(last written at cycle {})", c[20] - 1)) != std::string::npos);
  CHECK(report.find("element 21: expected") != std::string::npos);
  CHECK(report.find("(never written by the kernel)") != std::string::npos);
}

TEST_CASE("vadd fixture: n = 0 finishes without touching memory") {
  Vadd v = makeVadd(0, 3);
  SimResult r = runSimulator(vaddSim(), vaddInterface(), v.spec, buffersOf(v.spec), SimOptions{});
  checkVaddResult(v, r);
  CHECK(r.cycles < 5);
}

TEST_CASE("vadd fixture: VCD trace and build cache") {
  Vadd v = makeVadd(8, 5);
  SimOptions o;
  o.traceFile = kWork + "/vadd_trace.vcd";
  fs::remove(o.traceFile);
  SimResult r = runSimulator(vaddSim(), vaddInterface(), v.spec, buffersOf(v.spec), o);
  checkVaddResult(v, r);
  std::ifstream in(o.traceFile);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str().find("$enddefinitions") != std::string::npos);
  CHECK(ss.str().find("mem_a_req_valid") != std::string::npos);

  // Unchanged inputs: no rebuild.
  auto stamp = fs::last_write_time(vaddSim());
  std::string again = buildSimulator(vaddFiles(), vaddInterface(), kWork + "/vadd", true);
  CHECK(again == vaddSim());
  CHECK(fs::last_write_time(again) == stamp);

  // FST instead (verilator --trace-fst): a binary file starting with its header block, not VCD text.
  const std::string fst = buildSimulator(vaddFiles(), vaddInterface(), kWork + "/vadd_fst", true, false,
                                         Bench::Cpp, true);
  o.traceFile = kWork + "/vadd_trace.fst";
  fs::remove(o.traceFile);
  checkVaddResult(v, runSimulator(fst, vaddInterface(), v.spec, buffersOf(v.spec), o));
  std::ifstream f(o.traceFile, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 1000);
  CHECK(bytes[0] == 0); // FST_BL_HDR
  CHECK(bytes.find("$enddefinitions") == std::string::npos);
}

TEST_CASE("faulty fixture: the correct mode works under back-pressure") {
  SimOptions o;
  o.seed = 9;
  o.maxLatency = 6;
  o.readyProb = 0.5;
  SimResult r = runFaulty(20, 0, o);
  REQUIRE_MESSAGE(r.finished, r.error);
  int32_t sum = 0;
  for (int32_t i = 0; i < 20; ++i)
    sum += i * 7 + 1;
  CHECK(ints(r.buffers[1]) == std::vector<int32_t>{sum});
}

TEST_CASE("faulty fixture: a kernel that never raises done is reported as a deadlock") {
  SimOptions o;
  o.watchdogCycles = 2000;
  SimResult r = runFaulty(10, 1, o);
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("deadlock: no progress for 2000 cycles at cycle") != std::string::npos);
  CHECK(r.error.find("memory port 'a': no request pending") != std::string::npos);
  CHECK(r.error.find("memory port 'out'") != std::string::npos);
  CHECK(r.cycles > 2000);
  // The store before the hang did take effect.
  CHECK(ints(r.buffers[1]) != std::vector<int32_t>{0});

  o.watchdogCycles = 100'000;
  o.maxCycles = 500;
  r = runFaulty(10, 1, o);
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("no done after 500 cycles") != std::string::npos);
}

TEST_CASE("faulty fixture: computing without memory traffic for longer than the watchdog is progress") {
  SimOptions o;
  o.watchdogCycles = 2000;
  SimResult r = runFaulty(10, 9, o); // 5000 cycles of counting between the last read and the store
  CHECK_MESSAGE(r.finished, r.error);
  CHECK(r.cycles > 5000);
  CHECK(ints(r.buffers[1]) == std::vector<int32_t>{10 * 9 / 2 * 7 + 10});
}

TEST_CASE("faulty fixture: bad requests name the port, address, size and cycle") {
  SimResult r = runFaulty(16, 2, SimOptions{});
  CHECK_FALSE(r.finished);
  CHECK(
      r.error.find(
          "memory port 'a': read of 4 bytes at address 0x40: out of bounds (buffer is 64 bytes) at cycle") !=
      std::string::npos);

  r = runFaulty(4, 3, SimOptions{});
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("memory port 'a': read of 4 bytes at address 0x2: not naturally aligned at cycle 1") !=
        std::string::npos);

  r = runFaulty(4, 7, SimOptions{});
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("memory port 'a': read of 3 bytes at address 0x0: size must be a power of two up to the "
                     "port's 8 bytes") != std::string::npos);
}

TEST_CASE("faulty fixture: $error, $finish and done with reads outstanding stop the simulation") {
  SimResult r = runFaulty(4, 4, SimOptions{});
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("the RTL stopped with an error") != std::string::npos);
  CHECK(r.error.find("faulty: mode 4 assertion fired") != std::string::npos);

  r = runFaulty(4, 6, SimOptions{});
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("the RTL executed $finish") != std::string::npos);

  SimOptions o;
  o.minLatency = o.maxLatency = 10;
  r = runFaulty(4, 5, o);
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("1 read responses still outstanding on memory port 'a'") != std::string::npos);

  // A store offered in the done cycle is fine if accepted there, an error if refused.
  int refused = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    o = {};
    o.seed = seed;
    o.readyProb = 0.5;
    r = runFaulty(4, 8, o);
    if (r.finished) continue;
    ++refused;
    CHECK(r.error.find("while memory port 'out' still offers a request that was not accepted") !=
          std::string::npos);
  }
  CHECK(refused > 0);
  CHECK(refused < 12);
}

TEST_CASE("harness: an on-chip RAM's final contents are read back from its dump") {
  SimInterface iface{"ram_dump", {{"x", false, 8, 0}}, {{"ram_dump_ram0", 7}}};
  const std::string exe = buildSimulator(kData + "/ram_dump.v", iface, kWork + "/ram_dump", false);
  RunSpec s;
  s.path = "ram_dump.run.json";
  s.kernel = "ram_dump";
  s.args = {scalarArg("x", 0x30)};
  SimResult r = runSimulator(exe, iface, s, buffersOf(s), {});
  REQUIRE_MESSAGE(r.finished, r.error);
  REQUIRE(r.memories.size() == 1);
  // Bytes 0..5 written with x + k, byte 6 as initialised (byte 7 is beyond the memory's size).
  CHECK(r.memories[0] == std::vector<uint8_t>{0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x5a});
  // A memory whose module wrote no dump is an error naming the file.
  SimInterface missing = iface;
  missing.memories[0].module = "no_such_ram";
  std::string error;
  try {
    runSimulator(exe, missing, s, buffersOf(s), {});
  } catch (const DiagnosticError& e) {
    error = e.what();
  }
  CHECK(error.find("no_such_ram.hex") != std::string::npos);
}

TEST_CASE("harness: invalid options and mismatched run specs are diagnostics") {
  RunSpec s = faultySpec(4, 0);
  SimOptions o;
  o.readyProb = 0;
  CHECK_THROWS_AS(runSimulator(faultySim(), faultyInterface(), s, buffersOf(s), o), DiagnosticError);
  o = {};
  o.minLatency = 0;
  CHECK_THROWS_AS(runSimulator(faultySim(), faultyInterface(), s, buffersOf(s), o), DiagnosticError);

  // The run spec gives a scalar where the kernel has a buffer.
  RunSpec swapped = s;
  std::swap(swapped.args[0], swapped.args[2]);
  CHECK_THROWS_WITH_AS(
      runSimulator(faultySim(), faultyInterface(), swapped, buffersOf(swapped), SimOptions{}),
      doctest::Contains("the kernel expects a buffer, the run spec gives a scalar value"), DiagnosticError);
  RunSpec shortSpec = s;
  shortSpec.args.pop_back();
  CHECK_THROWS_WITH_AS(
      runSimulator(faultySim(), faultyInterface(), shortSpec, buffersOf(shortSpec), SimOptions{}),
      doctest::Contains("the run spec has only 3 arguments"), DiagnosticError);

  o = {};
  o.traceFile = kWork + "/never.vcd";
  SimResult r = runSimulator(faultySim(), faultyInterface(), s, buffersOf(s), o);
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("built without trace support") != std::string::npos);
}

TEST_CASE("harness: a changed Verilog file is rebuilt, an unchanged one is not") {
  fs::create_directories(kWork);
  std::string copy = kWork + "/faulty_copy.v";
  fs::copy_file(kData + "/faulty.v", copy, fs::copy_options::overwrite_existing);
  std::string exe = buildSimulator(copy, faultyInterface(), kWork + "/faulty_copy", false);
  auto first = fs::last_write_time(exe);
  CHECK(buildSimulator(copy, faultyInterface(), kWork + "/faulty_copy", false) == exe);
  CHECK(fs::last_write_time(exe) == first);
  std::ofstream(copy, std::ios::app) << "// changed\n";
  CHECK(buildSimulator(copy, faultyInterface(), kWork + "/faulty_copy", false) == exe);
  CHECK(fs::last_write_time(exe) > first);
}

TEST_CASE("harness: Verilog errors and interface mismatches are reported from the build") {
  fs::create_directories(kWork);
  std::string bad = kWork + "/syntax_error.v";
  std::ofstream(bad) << "module broken(input clk);\n  wire x = ;\nendmodule\n";
  CHECK_THROWS_WITH_AS(buildSimulator(bad, {"broken", {}}, kWork + "/broken", false),
                       doctest::Contains("syntax error"), DiagnosticError);

  // The interface names a memory port that the module does not have, and a scalar of the wrong width.
  SimInterface wrong = vaddInterface();
  wrong.ports.push_back({"d", true, 64, 4});
  wrong.ports[3].width = 16;
  std::string message;
  try {
    buildSimulator(vaddFiles(), wrong, kWork + "/vadd_wrong", false);
  } catch (const DiagnosticError& e) {
    message = e.what();
  }
  CHECK(message.find("verilator: building the simulator failed") != std::string::npos);
  CHECK(message.find("no member named 'mem_d_req_valid'") != std::string::npos);
  CHECK(message.find("arg_n must be 16 bits wide") != std::string::npos);

  CHECK_THROWS_AS(
      buildSimulator(kData + "/vadd.v", {"vadd", {{"bad name", false, 32, 0}}}, kWork + "/x", false),
      DiagnosticError);
  CHECK_THROWS_AS(buildSimulator(kData + "/vadd.v", {"vadd", {{"n", false, 65, 0}}}, kWork + "/x", false),
                  DiagnosticError);
  CHECK_THROWS_WITH_AS(buildSimulator(kData + "/vadd.v", {"vadd", {{"n", false, 32, 0}, {"n", false, 32, 1}}},
                                      kWork + "/x", false),
                       doctest::Contains("port name 'n' appears twice"), DiagnosticError);
}

TEST_CASE("harness: a 128-bit port and a RAM of 128-bit words (vectors accessed whole)") {
  // Port a is 128 bits wide (a VlWide in the model); the RAM's image and dump hold 16-byte words.
  SimInterface iface{"wide", {{"a", true, 128, 0}}, {{"wide_ram0", 32, 16, {}}}};
  for (uint8_t k = 0; k < 32; ++k)
    iface.memories[0].image.push_back(uint8_t(0xa0 + k));
  const std::string exe = buildSimulator(kData + "/wide.v", iface, kWork + "/wide", false);
  RunSpec s;
  s.path = "wide.run.json";
  s.kernel = "wide";
  ArgSpec a;
  a.name = "a";
  a.isBuffer = true;
  a.length = 48;
  for (uint8_t k = 0; k < 48; ++k)
    a.init.push_back(k);
  s.args = {a};
  std::vector<uint8_t> want = a.init;
  for (int k = 0; k < 8; ++k)
    want[16 + k] = uint8_t(8 + k), want[24 + k] = uint8_t(k);
  for (int k = 0; k < 4; ++k)
    want[k] = uint8_t(36 + k);
  std::vector<uint8_t> ram = iface.memories[0].image;
  for (int k = 0; k < 8; ++k)
    ram[16 + k] = ram[8 + k], ram[24 + k] = ram[k];
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    CAPTURE(seed);
    SimOptions o;
    o.seed = seed;
    o.readyProb = 0.5;
    o.maxLatency = 6;
    SimResult r = runSimulator(exe, iface, s, buffersOf(s), o);
    REQUIRE_MESSAGE(r.finished, r.error);
    CHECK(r.buffers[0] == want);
    REQUIRE(r.memories.size() == 1);
    CHECK(r.memories[0] == ram);
  }
  // A memory port's width is 64 or a wider power of two.
  SimInterface narrow = iface;
  narrow.ports[0].width = 48;
  CHECK_THROWS_WITH_AS(buildSimulator(kData + "/wide.v", narrow, kWork + "/wide_bad", false),
                       doctest::Contains("memory port 'a' is 48 bits wide"), DiagnosticError);
}

TEST_CASE("probed fixture: a loop's invocations and reinvocation delays, seen from its launches") {
  SimResult r = runProbed(0);
  REQUIRE_MESSAGE(r.finished, r.error);
  CHECK(ints(r.buffers[0]) == std::vector<int32_t>{12}); // 3 invocations of 4 launches
  REQUIRE(r.loops.size() == 1);
  CHECK(r.loops[0].invocations == 3);
  CHECK(r.loops[0].reinvocations == 2);
  // Last launch at s + 4, done at s + 7, the latch's two cycles, the next start at s + 10 and its
  // first launch at s + 11.
  CHECK(r.loops[0].minDelay == 7);
  CHECK(r.loops[0].maxDelay == 7);
}

TEST_CASE("probed fixture: a deadlock names the FSM's block and the loop that does not finish") {
  SimOptions o;
  o.watchdogCycles = 2000;
  SimResult r = runProbed(1, o);
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("deadlock: no progress for 2000 cycles") != std::string::npos);
  CHECK(r.error.find("FSM: in block 'for.cond.loop', its cycle 1") != std::string::npos);
  CHECK(r.error.find("loop 'inner': running (invocation 2), last launch at cycle") != std::string::npos);
}

TEST_CASE("SystemC bench: the vadd fixture in its wrapper with TLM-2.0 memories, and bad requests named") {
  const std::string exe =
      buildSimulator(vaddFiles(), vaddInterface(), kWork + "/vadd_sc", false, false, Bench::SystemC);
  Vadd v = makeVadd(100, 11);
  for (uint64_t seed : {1, 2}) {
    CAPTURE(seed);
    SimOptions o;
    o.seed = seed;
    o.minLatency = 1;
    o.maxLatency = 9;
    o.readyProb = 0.6;
    checkVaddResult(v, runSimulator(exe, vaddInterface(), v.spec, buffersOf(v.spec), o));
  }
  // The generated wrapper: one adapter per memory port, the scalar as Verilator's SystemC type.
  const std::string wrapper = generateScWrapper(vaddInterface());
  CHECK(wrapper.find("spvhls::MemoryPortToTlm<64> mem_c;") != std::string::npos);
  CHECK(wrapper.find("sc_core::sc_in<uint32_t> arg_n;") != std::string::npos);
  CHECK(wrapper.find("return {&mem_a, &mem_b, &mem_c};") != std::string::npos);

  // The adapter checks the protocol, the target the bounds.
  const std::string faulty =
      buildSimulator(std::vector<std::string>{kData + "/faulty.v"}, faultyInterface(), kWork + "/faulty_sc", false, false,
                     Bench::SystemC);
  auto run = [&](uint32_t n, uint32_t mode) {
    RunSpec s = faultySpec(n, mode);
    return runSimulator(faulty, faultyInterface(), s, buffersOf(s), SimOptions{});
  };
  SimResult r = run(16, 2);
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("dut.mem_a: read of 4 bytes at address 64 at cycle") != std::string::npos);
  CHECK(r.error.find("the target answered TLM_ADDRESS_ERROR_RESPONSE") != std::string::npos);
  r = run(4, 3);
  CHECK_FALSE(r.finished);
  CHECK(r.error.find("the size must be a power of two up to 8 bytes and the address aligned to it") !=
        std::string::npos);
  r = run(4, 0);
  CHECK(r.finished);
}
