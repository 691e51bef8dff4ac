// Scheduling: the operator library (target), scheduling problems with their input check(), the
// algorithms (MII, modulo scheduling, sequential block scheduling) and an independent verify() of
// every solution. Modelled on CIRCT's scheduling library: a problem is data, algorithms are separate,
// and a solution is only ever used after verify() accepted it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/hls_ir.h"

namespace spvhls::sched {

// ---------------------------------------------------------------------------------------------
// Target / operator library.

struct Target {
  std::string name = "generic-6lut-300mhz";
  double clockMHz = 300.0;
  // Assumed memory latency in cycles from request acceptance to response valid. Loads are scheduled
  // with latency memLatency + 1 (the response is registered). Real latency may differ: the hardware
  // stalls, it does not break.
  uint32_t memLatency = 4;
  uint32_t mulLatency = 3;   // up to 32 bits; 64-bit multiplies take mulLatency + 2
  uint32_t requestsPerPortPerCycle = 1;
  // Chaining: with a clock period (ns, 0 = none) single-cycle operations whose delays fit are chained
  // within a cycle; the scheduler registers values only where a cycle's combinational delay (the
  // period less the register overhead) would be exceeded. Without one every operation's result is
  // registered, as if each took a full cycle.
  double clockPeriodNs = 0.0;
  // The target's delay table (targets/<name>.json, characterised by scripts/characterise_target.py):
  // per operator (ir::OpKind name in lower case) and characterised width, the combinational delay in ns.
  struct DelayTable {
    std::string method;              // how it was characterised
    double registerOverheadNs = 0.0; // clock-to-out, setup and routing of a register-to-register path
    std::vector<uint32_t> widths;    // ascending
    std::vector<std::pair<std::string, std::vector<double>>> ops; // per operator, per width (< 0: none)
    // Per pipelined unit module (spvhls_fadd_32, ...): the delay of its slowest stage.
    std::vector<std::pair<std::string, double>> unitStages;
    // Delay of `op` at `width`: the first characterised width at or above it (the widest if none).
    // nullopt if the table has no entry for the operator.
    std::optional<double> delay(std::string_view op, uint32_t width) const;
    std::optional<double> unitStage(std::string_view module) const;
  };
  DelayTable delays;
};
// The targets the compiler knows (their delay tables are built in from targets/*.json).
std::vector<std::string> targetNames();
// The named target with its delay table; a DiagnosticError naming the known ones if there is none.
Target targetNamed(std::string_view name);

// How an operation's hardware is built.
enum class UnitBuild {
  Wire,        // no logic: constants, arguments, live-ins, phis, extensions, truncations
  Inline,      // a combinational expression of its operands, registered as the context needs
  Instance,    // an instance of a generated module with clock and enable (Unit::module)
  MemoryPort,  // a request on the memory's shared port (loads and stores)
  Fsm,         // the kernel FSM starts a loop module and waits for its done (LoopCall), or runs a
               // shared function as a subroutine (Call)
  SubPipeline, // a LoopCall in a loop body: the inner loop's module started at start, its results
               // captured resultOffset later (the pipeline waits for them), like a load's response
};
const char* unitBuildName(UnitBuild b);
// Name of the generated module of an Instance unit: "spvhls_sdiv_32".
std::string unitModuleName(ir::OpKind kind, uint32_t width);

// The operator unit one operation runs on: everything the scheduler, the microarchitecture plan and
// the generators know about its timing and cost. OperatorLibrary::unit() is the only place these
// numbers are decided.
struct Unit {
  uint32_t latency = 0;       // cycles from operands read (start) to result readable from a register
  uint32_t ii = 1;            // the unit's own initiation interval: 1 = pipelined, > 1 = blocking
  // Combinational delay (ns) from its operands to its first register or port, in its start cycle:
  // all of its logic for Inline units (a multiply is formed in its start cycle), a stage's estimate for
  // Instance units, the request multiplexer for memory ports, a multiplexer for loop phis.
  double delayNs = 0.0;
  // A single-cycle Inline unit whose result may be used in the very cycle it is formed (chained):
  // with a clock period, the problem builders give it latency 0 where its delay fits the cycle.
  bool chainable = false;
  int resource = -1;          // resource class: -1 = unlimited, else the memory index of its port
  uint32_t resourceLimit = 0; // uses per cycle of that resource (0 when unlimited)
  UnitBuild build = UnitBuild::Wire;
  // The generated module that implements it (dividers: spvhls_sdiv_32, ...), empty if none. Today
  // dividers are still printed Inline; the module (rtlgen/units/divider.h) has the same timing and
  // becomes their build when the generators instance units.
  std::string module;
  // Offset from start at which the result is on a wire when the operands are valid only at start
  // (a pipeline position): Inline and Wire 0 (the value is then carried through registers), Instance
  // latency - 1 (combinational out of its last stage), MemoryPort memLatency for loads (the response
  // is there; the kernel FSM captures it into a register).
  uint32_t resultOffset = 0;
  // The result waits in a queue until it is taken (an external memory's response, in its response
  // FIFO): a pipeline takes it where it is first readable, start + latency, and reads the queue's head
  // there instead of registering it a cycle earlier: with a clock period that fits an add behind the
  // queue's head. Without one (every result registered), or under a tighter one, the response is
  // registered as it arrives. An on-chip RAM's read data is not held.
  bool queued = false;
  // A queued result's delay from the queue to its wire where a pipeline reads it: the queue's read
  // multiplexer and bypass (Operation::resultDelayNs).
  double resultDelayNs = 0.0;

  // Offset of the cycle the result is formed in (and registered at the end of, when latency > 0).
  // operandsHeld: the operands stay valid from start until the result is read (the kernel FSM keeps
  // every value in a register), so an Inline unit is evaluated in its last cycle, latency - 1, and
  // needs no register chain. In a pipeline (operandsHeld false) it is resultOffset, or latency for a
  // queued result.
  uint32_t formOffset(bool operandsHeld) const {
    if (operandsHeld && build != UnitBuild::MemoryPort && build != UnitBuild::SubPipeline)
      return latency > 0 ? latency - 1 : 0;
    if (!operandsHeld && queued) return latency;
    return resultOffset;
  }
};

// The operator library of a target: the Unit of every operation, type and width.
class OperatorLibrary {
public:
  explicit OperatorLibrary(Target t = {}) : target_(std::move(t)) {}
  const Target& target() const { return target_; }
  // operandWidth: the operands' width, which sets a comparison's delay (0: unknown, taken as 64).
  Unit unit(const ir::Op& op, uint32_t operandWidth = 0) const;
  // Shorthands for unit(op).latency / unit(op).resource.
  uint32_t latency(const ir::Op& op) const { return unit(op).latency; }
  int resource(const ir::Op& op) const { return unit(op).resource; }
  // Uses per cycle of the port of one memory (the resource class of its loads and stores).
  uint32_t memoryPortLimit() const { return target_.requestsPerPortPerCycle; }

private:
  Unit unitTiming(const ir::Op& op) const; // latency, build, resource; delays as estimates
  double delayOf(std::string_view op, uint32_t width, double estimate) const;
  Target target_;
};

// ---------------------------------------------------------------------------------------------
// Problems.

struct Dependence {
  // Timing: a chain of operations within one cycle would exceed the clock period, so `to` starts at
  // least a cycle after `from` (addChainBreaks).
  enum class Kind { Data, LoopCarried, Memory, Control, PhiOrder, Timing };
  // Data and LoopCarried dependences carry the value of `from` to `to`: the value lives in
  // registers until `to` reads it (registerBits); the others only order.
  bool carriesValue() const { return kind == Kind::Data || kind == Kind::LoopCarried; }
  uint32_t from = 0, to = 0;
  int latency = 0;        // start[to] + ii * distance >= start[from] + latency
  uint32_t distance = 0;  // iterations
  Kind kind = Kind::Data;
};

struct Resource {
  std::string name;
  uint32_t limit = 1;     // uses per cycle (modulo II for loops)
};

struct Operation {
  std::string name;       // for reports: e.g. "%add = Add"
  uint32_t latency = 0;
  int resource = -1;
  // Cycles the operation holds one unit of its resource from its start (a blocking unit: a
  // non-pipelined divider of 8 cycles holds it 8). Modulo II, so a blocking time above II wraps.
  uint32_t blocking = 1;
  uint32_t bits = 0; // result width: what a register holding it costs (0: no value)
  // Combinational delay (ns) in its start cycle, from its operands to its result (latency 0) or to its
  // first register (latency > 0). With a latency of 0 its result is on a wire in that cycle, and an
  // operation reading it in the same cycle is chained behind it (Problem::clockPeriodNs).
  double delayNs = 0.0;
  // With a latency above 0: a result readable at start + latency through logic (a queue's head
  // multiplexer) rather than from a register, so an operation reading it then is chained behind this
  // delay. 0: from a register.
  double resultDelayNs = 0.0;
  // Is the value on a wire, with a delay, where it is first readable (chains can start from it)?
  bool onWire() const { return latency == 0 || resultDelayNs > 0; }
};

// One scheduling problem: a loop body (modulo) or a basic block (sequential, distances all 0).
struct Problem {
  std::vector<Operation> ops;
  std::vector<Dependence> deps;
  std::vector<Resource> resources;
  // The combinational delay one cycle allows (ns): the clock period less the register overhead; 0 = no
  // timing constraint. A chain is a path of value dependences whose producers have latency 0, read in
  // the cycle they are formed (for distance d: II * d cycles later in the producer's iteration, i.e.
  // forwarded); along every chain the delays sum to at most this. An operation whose own delay
  // exceeds it alone is not a schedule error: it bounds the clock (criticalChain).
  double clockPeriodNs = 0.0;
  // Checks the inputs: indices in range, resource ids valid, no cycle with total distance 0 and
  // positive latency (it could never be scheduled). Throws DiagnosticError naming the offending ops.
  void check() const;
};

struct Schedule {
  uint32_t ii = 0;               // 0 for sequential schedules
  std::vector<int> start;        // per operation
  int length = 0;                // cycles until every result is readable: max(start + latency)
  uint32_t stages() const;       // ceil(length / ii) for modulo schedules
};

// Moves the operations marked `movable` that have no latency and no resource (wires: extensions, bit
// selections) later, toward their readers, wherever that lowers registerBits (the pipeline then
// carries their operands instead); returns the bits saved. Precedence, resources, the II and the
// length stay as they were (scheduler/register_sink.cpp).
uint64_t sinkWires(const Problem& p, Schedule& s, const std::vector<uint8_t>& movable);

// Independent verifier: precedence (latency and II * distance) and resource use modulo II (or per
// cycle when ii == 0), each operation holding its resource `blocking` cycles. Throws DiagnosticError
// naming the violated constraint and the operations.
void verify(const Problem& p, const Schedule& s);

// The longest chain of a schedule (Problem::clockPeriodNs): its operations in order and its delay (ns).
// The operations' own delays count whether or not the problem has a clock period.
struct TimingPath {
  std::vector<uint32_t> ops;
  double delayNs = 0.0;
  uint32_t chainedOps = 0; // operations with a delay whose result is read in the cycle it is formed
};
TimingPath criticalChain(const Problem& p, const Schedule& s);

// Register pressure of a schedule: Σ over values of bits × the cycles the value is held after its
// result is ready (start + latency) until its last reader starts (a reader `distance` iterations later
// starts II * distance after). The hardware keeps one register per such cycle, so this is the
// pipeline register bits the values cost.
uint64_t registerBits(const Problem& p, const Schedule& s);

// ---------------------------------------------------------------------------------------------
// Algorithms.

struct MIIResult {
  uint32_t resMII = 1, recMII = 1;
  uint32_t mii() const { return resMII > recMII ? resMII : recMII; }
  std::vector<uint32_t> criticalCycle; // ops of the recurrence that sets recMII (empty if acyclic)
  // The dependences along criticalCycle: deps[criticalCycleDeps[k]] goes from criticalCycle[k] to
  // criticalCycle[(k + 1) % size]. The cycle starts after its first loop-carried (distance > 0) edge.
  std::vector<uint32_t> criticalCycleDeps;
  int criticalResource = -1;           // resource that sets resMII, -1 if none limits
  std::vector<uint32_t> criticalResourceOps;
};
MIIResult computeMII(const Problem& p);

// Modulo schedule at exactly `ii`; nullopt if none was found at this II.
std::optional<Schedule> moduloSchedule(const Problem& p, uint32_t ii);
// Sequential (list) schedule of an acyclic problem (all distances 0).
Schedule listSchedule(const Problem& p);

// Exact modulo scheduling at one II (scheduler/exact_scheduler.cpp): an integer linear program solved
// by CBC. Among the schedules whose start times lie in [0, exactHorizon(p, ii)] it finds one (Any) or
// one with the fewest registerBits and, among those, the shortest length (Registers). The horizon is no
// restriction for feasibility: if any schedule exists at ii, one exists within it (docs/scheduling.md).
struct ExactOptions {
  double timeLimitSeconds = 10.0; // per solve; the solver stops there with what it has
  // The compiler's limit per loop under --scheduler auto (no --time-limit): the exact method must not
  // make an ordinary compile slow (the 10 s above made a 40-loop decoder take 168 s).
  static constexpr double kAutoTimeLimitSeconds = 2.0;
  enum class Objective {
    Any,       // any schedule: a feasibility question, much faster to prove either way
    Registers, // the fewest register bits, then the shortest length
  };
  Objective objective = Objective::Registers;
};
struct ExactResult {
  enum class Status {
    Optimal,    // a schedule, proven optimal for the objective (for Any: found)
    Feasible,   // a schedule, the time limit came before the proof of optimality
    Infeasible, // proven: no modulo schedule at this II
    Unknown,    // the time limit came before a schedule or a proof
  };
  Status status = Status::Unknown;
  std::optional<Schedule> schedule; // verified
  double seconds = 0;
};
const char* exactStatusName(ExactResult::Status s);
ExactResult exactModuloSchedule(const Problem& p, uint32_t ii, const ExactOptions& opts = {});
int64_t exactHorizon(const Problem& p, uint32_t ii);

// The smallest II with a schedule, by the chosen method, and how sure the answer is.
enum class SchedulerKind {
  Heuristic, // iterative modulo scheduling from the MII upwards
  Exact,     // the exact method at every II from the MII upwards, then register bits minimised at the
             // II found (within the time limit; the heuristic's schedule if that has fewer)
  Auto,      // the heuristic; where it misses the MII, the exact method below the heuristic's II
};
const char* schedulerKindName(SchedulerKind k);
struct MinIIOptions {
  SchedulerKind kind = SchedulerKind::Auto;
  ExactOptions exact;
  uint32_t maxIISearch = 64; // IIs tried above the MII before giving up
};
struct MinIIResult {
  std::optional<Schedule> schedule;    // the smallest II found, verified; nullopt if none up to the search
  bool iiProvenMinimal = false;        // every smaller II is proven infeasible (or the II is the MII)
  bool registersProvenMinimal = false; // the exact method proved the register bits minimal at this II
  std::string method;                  // what produced the schedule: "heuristic" or "exact"
  std::string proof;                   // why the II is (not) proven minimal, for reports
  double exactSeconds = 0;             // time spent in the exact method
};
// Schedules at exactly `ii` (a requested II) with the given method; Auto tries the heuristic first.
MinIIResult scheduleAtII(const Problem& p, uint32_t ii, const MinIIOptions& opts);
MinIIResult scheduleMinII(const Problem& p, const MIIResult& mii, const MinIIOptions& opts);

// ---------------------------------------------------------------------------------------------
// Helpers shared by the problem builders and the algorithms (verify() deliberately uses none).

// Readable name of IR value `index`: "%sum", "%17" (SPIR-V id) or "#3" (index) when it has neither.
std::string valueName(const ir::Op& op, uint32_t index);
// "Add %sum", for reports.
std::string opLabel(const ir::Op& op, uint32_t index);
// Dependences (indices into p.deps) forming a cycle whose total latency - ii * distance is positive,
// in order along the cycle; empty if there is none. With zeroDistanceOnly, only distance-0 dependences
// are considered (ii is then irrelevant). Requires valid indices.
std::vector<uint32_t> findPositiveCycle(const Problem& p, uint32_t ii, bool zeroDistanceOnly = false);
// Adds the Timing dependences that keep every chain within p.clockPeriodNs (none if it is 0): for each
// operation u of latency 0 and each v reached from it through value dependences of delay 0 whose
// producers have latency 0 (over D iterations: a value forwarded on a wire), if the longest such
// path's delay (u's and v's included) exceeds the period, a dependence u -> v of delay 1 at distance D
// keeps them out of one cycle (Cong & Zhang's SDC formulation; only the first such v on a path, the
// longer paths follow through it). Exact: a schedule meets these iff every chain fits the period.
void addChainBreaks(Problem& p);
// Unit-cycles each resource is held per iteration: Σ blocking over its operations (what ResMII divides).
std::vector<uint64_t> unitCyclesHeld(const Problem& p);
// The cheap proofs that no modulo schedule exists at ii: a resource held more than limit * ii
// unit-cycles, or a recurrence longer than ii. Both schedulers ask this first.
bool provablyInfeasible(const Problem& p, uint32_t ii);

} // namespace spvhls::sched
