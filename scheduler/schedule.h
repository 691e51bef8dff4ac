// Scheduling: the operator library (target), scheduling problems with their input check(), the
// algorithms (MII, modulo scheduling, sequential block scheduling) and an independent verify() of
// every solution. Modelled on CIRCT's scheduling library: a problem is data, algorithms are separate,
// and a solution is only ever used after verify() accepted it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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
};

// Latency (cycles from operands read to result readable) and resource class of one operation.
class OperatorLibrary {
public:
  explicit OperatorLibrary(Target t = {}) : target_(std::move(t)) {}
  const Target& target() const { return target_; }
  // 0 for wires (constants, live-ins, phis, extensions, truncations), >= 1 otherwise.
  uint32_t latency(const ir::Op& op) const;
  // Resource id: -1 for unlimited; memory operations use the resource of their memory (= memory index).
  int resource(const ir::Op& op) const;

private:
  Target target_;
};

// ---------------------------------------------------------------------------------------------
// Problems.

struct Dependence {
  enum class Kind { Data, LoopCarried, Memory, Control, PhiOrder };
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
};

// One scheduling problem: a loop body (modulo) or a basic block (sequential, distances all 0).
struct Problem {
  std::vector<Operation> ops;
  std::vector<Dependence> deps;
  std::vector<Resource> resources;
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

// Independent verifier: precedence (latency and II * distance) and resource use modulo II (or per
// cycle when ii == 0). Throws DiagnosticError naming the violated constraint and the operations.
void verify(const Problem& p, const Schedule& s);

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

} // namespace spvhls::sched
