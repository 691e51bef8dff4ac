// The Verilator simulation harness: verilates a generated kernel module together with a generated C++
// test bench, then runs it against models of the argument buffers. Independent of the HLS IR: all it
// needs is the module's port list (docs/hardware-interface.md) and a run spec.
//
// Cycle convention. After a few reset cycles, cycle 0 is the cycle in which `start` is high (the
// scalar arguments are valid only in that cycle; afterwards they are driven with seeded garbage, so a
// kernel that forgets to latch them fails). SimResult::cycles is the index of the cycle in which
// `done` is high. Every cycle: set the inputs (start, args, req_ready, resp_valid/resp_data) with clk
// low and evaluate; read the outputs and perform the handshakes; raise clk and evaluate.
//
// Memory model, per pointer argument (memory port):
//  * req_ready is drawn at random with probability readyProb every cycle (seeded, one generator per
//    port), before and independently of req_valid;
//  * a request is accepted in a cycle where req_valid and req_ready are both high; it must have size
//    1, 2, 4 or 8, be naturally aligned and lie inside the buffer, else the simulation stops with an
//    error naming the port, the address, the size and the cycle;
//  * a write takes effect at acceptance; a read samples the buffer at acceptance and its response is
//    delivered after a random latency in [minLatency, maxLatency], in order and at most one per cycle
//    (due = max(accept + latency, previous due + 1));
//  * resp_data carries seeded garbage when resp_valid is low and above the access size, so a kernel
//    that uses stale or unextended data fails.
// The run stops with an error when: no request is accepted, no response delivered, done is not raised
// and no register, RAM or FIFO of the model changes for watchdogCycles ("deadlock: ..."), maxCycles is
// reached, the RTL executes $stop / $error / $fatal / $finish, or done is raised while read responses are
// still outstanding or while a request is offered but not accepted (every store must have been accepted by
// done).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/runspec.h"

namespace spvhls::sim {

struct SimPort {
  std::string name;       // sanitised argument name as used in the Verilog ports (arg_<name> / mem_<name>_*)
  bool isPointer = false; // true: memory port mem_<name>_*; false: scalar input arg_<name>
  // Scalar: its width in bits (1..64). Pointer: its port's data width, 64 or a wider power of two
  // (0 means 64; docs/hardware-interface.md).
  uint32_t width = 0;
  uint32_t argIndex = 0;  // index of the argument in the run spec (kernel parameter order)
  // An external memory's port (a variable past the on-chip budget), not a run-spec argument: its
  // buffer is SimInterface::memories[memory].image, and its final contents SimResult::memories[memory].
  int32_t memory = -1;
};

// A memory whose final contents the run reads back. On chip (a program-scope variable): its RAM
// module writes them to <module>.hex in the simulator's working directory when the simulation ends
// (Verilog `final`, enabled by +spvhls_dump_memories). External: the bench models its port (the
// SimPort naming it) on a buffer loaded with `image`.
struct SimMemory {
  std::string module; // on chip: the RAM module; empty for an external memory
  uint64_t sizeBytes = 0;
  uint32_t wordBytes = 1;     // its RAM's word width: the dump holds words, little-endian
  // External: the buffer's contents at the start (sizeBytes). On chip: empty, or the contents the
  // RAM is loaded with before the run (a host write), replacing its configured ones.
  std::vector<uint8_t> image;
};

struct SimInterface {
  std::string module;     // Verilog module name (the top)
  std::vector<SimPort> ports;
  std::vector<SimMemory> memories;
  // Pipelined loops by loop number: the bench watches each one's starts (the top's lp<l>_start),
  // launches (u_loop<l>.issue) and whether it runs (lp<l>_started), reports LoopLaunches, and names
  // the running loops when the simulation stops without done.
  std::vector<std::string> loops;
  // Per loop run by another loop's body (a sub-pipeline): that loop and the LoopCall operation in its
  // body ({-1, 0}: the top's FSM runs it). Its probes are inside the caller's module: sp<op>_start,
  // sp<op>_busy and u_sub<op>.issue. Empty: every loop is the top's.
  std::vector<std::pair<int, uint32_t>> loopCallers;
  // Per loop: its copies (ir::Loop::copies; empty: one each). A loop built several times has its
  // calls counted at the caller (sp<op>_start) and no reinvocation delays (its copies' launches
  // interleave): u_sub<op>_0 stands for its instance.
  std::vector<uint32_t> loopCopies;
  // Per loop run by another loop's body: whether it takes its next call while it drains (its caller's
  // sp<op>_accept tells when it can; else sp<op>_done). Empty: none.
  std::vector<uint8_t> loopReinvocable;
  // The FSM's blocks by number (its `blk` register), named when the simulation stops without done;
  // empty: the design has no such FSM to watch.
  std::vector<std::string> blocks;
  // Task instances by process number - 1 (the top's tk<p>_run, _fin, _queued, _results): their state
  // is named when the simulation stops without done, and so is the task operation the FSM waits at
  // (block, cycle within it, what it is).
  std::vector<std::string> tasks;
  struct Wait {
    uint32_t block = 0, cycle = 0;
    std::string what;
  };
  std::vector<Wait> waits;
};

// One loop's invocations in a run, seen from its launches: the reinvocation delay is the number of
// cycles from an invocation's last launch to the next invocation's first (SPV_INTEL_fpga_loop_controls
// MaxReinvocationDelayINTEL).
struct LoopLaunches {
  uint64_t invocations = 0, reinvocations = 0;
  uint64_t minDelay = 0, maxDelay = 0; // over the reinvocations (0 when there are none)
  // An outer pipeline's inner loop: the reinvocations whose call waited for the loop (SimInterface::
  // loopReinvocable), and their delays.
  uint64_t waited = 0, waitedMin = 0, waitedMax = 0;
};

struct SimOptions {
  uint64_t seed = 1;
  uint32_t minLatency = 1, maxLatency = 1; // read latency range in cycles, 1 <= min <= max
  double readyProb = 1.0;                  // probability that req_ready is high in a cycle, (0, 1]
  uint64_t maxCycles = 10'000'000;
  uint64_t watchdogCycles = 100'000;
  std::string traceFile;                   // VCD (or FST) output; requires a simulator built with trace
  // Called about once a second while the simulation runs, with the cycle the simulator last reported
  // (it reports every two seconds or so) and the seconds since it started.
  std::function<void(uint64_t cycle, double seconds)> onProgress;
};

struct SimResult {
  bool finished = false;  // done was raised and every check passed
  std::string error;      // why the simulation failed (empty when finished)
  BufferSet buffers;      // final buffer contents in argument order (scalars: empty)
  BufferSet memories;     // final contents of SimInterface::memories, in that order (empty if unfinished)
  uint64_t cycles = 0;    // cycle of done (or of the failure)
  std::vector<LoopLaunches> loops; // per SimInterface loop, up to the run's end (done or failure)
  std::string log;        // the simulator's console output ($display, Verilator messages)
  double seconds = 0;     // wall-clock time of the simulator's run (its start-up included)
  // Per buffer argument, per byte: 1 + the cycle of the kernel's last write to it, 0: never written
  // (empty when the bench does not record it: the SystemC bench).
  std::vector<std::vector<uint32_t>> lastWrite;
};

// Verilates `verilogFile` with a generated C++ test bench into workDir (rebuilds only if the Verilog,
// the interface, the bench template or the options changed) and returns the simulator executable's
// path. Throws DiagnosticError with verilator's output on failure.
std::string buildSimulator(const std::string& verilogFile, const SimInterface& iface,
                           const std::string& workDir, bool trace);
// The same for a design split over several files (e.g. the top module and its library modules).
// optimize: the model and the bench compiled with -O1 (else -O0, which compiles in about two thirds of
// the time and runs several times slower: for short simulations).
// bench: the C++ bench, or the SystemC one (sim/systemc.h: verilator --sc, the model in the kernel's
// SystemC wrapper, TLM-2.0 memory targets; the same protocol, so runSimulator runs either).
// traceFst: with trace, the waveforms are FST (verilator --trace-fst) instead of VCD.
enum class Bench { Cpp, SystemC };
std::string buildSimulator(const std::vector<std::string>& verilogFiles, const SimInterface& iface,
                           const std::string& workDir, bool trace, bool optimize = true, Bench bench = Bench::Cpp,
                           bool traceFst = false);

// Runs a simulator built by buildSimulator for `iface` with the arguments of `spec` and the initial
// buffer contents `init` (argument order, as from initialBuffers). Simulation failures are reported in
// SimResult::error; a mismatch between spec and interface or a simulator that cannot be run throws
// DiagnosticError.
SimResult runSimulator(const std::string& exe, const SimInterface& iface, const RunSpec& spec,
                       const BufferSet& init, const SimOptions& o);

// The C++ test bench generated for `iface` (exposed for inspection and tests).
std::string generateTestbench(const SimInterface& iface);

namespace detail { // shared by the C++ and the SystemC benches (sim/systemc.cpp)
std::string benchFile(const std::string& name); // a file of the sim/ source directory
// A bench template of sim/ with the shared code (bench_common.inc), the module and the probes filled in.
std::string benchTemplate(const std::string& name, const SimInterface& iface);
void replaceAll(std::string& s, const std::string& from, const std::string& to);
} // namespace detail

} // namespace spvhls::sim
