// The run spec: which kernel to run and with which arguments. Shared by `spvhls run` (interpreter)
// and `spvhls sim` (RTL simulation) so that both see exactly the same inputs.
//
// JSON form (docs/cli.md has the full description):
// {
//   "kernel": "vadd",
//   "args": [                                  // in kernel parameter order
//     {"name": "a", "buffer": {"type": "i32", "length": 64, "init": {"random": {"seed": 1, "min": -100,
//     "max": 100}}}},
//     {"name": "b", "buffer": {"type": "i32", "length": 64, "init": [1, 2, 3]}},   // rest zero
//     {"name": "c", "buffer": {"type": "u8",  "length": 64, "init": "zeros"}},
//     {"name": "d", "buffer": {"type": "f32", "length": 4,  "init": {"file": "d.bin"}}}, // raw little-endian
//     {"name": "n", "value": 64}
//   ]
// }
// Element types: i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64.
//
// Optional "globals": what the host writes into program-scope global (CrossWorkgroup) variables
// before the run, by name, as a buffer: its length * element bytes replace the variable's first
// bytes (the rest keeps its initializer):
//   "globals": [{"name": "table", "buffer": {"type": "u32", "length": 4, "init": [9, 8, 7, 6]}}]
//
// Optional ND-range keys (the interpreter runs this ND-range; defaults give a single work-item):
//   "global_size": [x] | [x, y] | [x, y, z]   work-items per dimension (default [1]); the number of
//                                             entries is the work dimension (get_work_dim())
//   "local_size":  [...]                      work-group size, same number of entries as global_size
//                                             (default all 1); must divide global_size
//   "subgroup_size": n                        maximum subgroup size (default 8): a work-group's
//                                             work-items, in linear local id order, form subgroups
//                                             of n (the last one may be smaller)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace spvhls::sim {

struct ElemType {
  std::string name = "i32"; // as written in the spec
  uint32_t bytes = 4;
  bool isFloat = false, isSigned = true;
};

struct ArgSpec {
  std::string name;
  bool isBuffer = false;
  uint64_t scalar = 0;         // scalar value (two's complement / IEEE bits), zero-extended
  ElemType elem;               // buffer element type
  uint64_t length = 0;         // buffer length in elements
  std::vector<uint8_t> init;   // buffer initial bytes (length * elem.bytes)
};

struct RunSpec {
  std::string path;            // file it came from (for diagnostics and relative "file" inits)
  std::string kernel;
  std::vector<ArgSpec> args;
  std::vector<ArgSpec> globals;             // host writes into program-scope globals (buffers, by name)
  uint32_t workDim = 1;                     // entries given in "global_size"
  std::array<uint64_t, 3> globalSize{1, 1, 1};
  std::array<uint64_t, 3> localSize{1, 1, 1};
  uint32_t subgroupSize = 8;
};

// Throws DiagnosticError (file, JSON path such as args[2].buffer.type, what was expected).
RunSpec parseRunSpec(const std::string& jsonText, const std::string& path);
RunSpec loadRunSpec(const std::string& path);

// Final contents of every buffer argument (empty vector for scalars), in argument order.
using BufferSet = std::vector<std::vector<uint8_t>>;
BufferSet initialBuffers(const RunSpec& spec);

// Bit-for-bit comparison. Returns "" when equal, else a readable report of the first mismatches
// (argument name, element index, expected and actual values formatted by element type).
// lastWrite (optional, per buffer and byte: 1 + the cycle of the last write, 0: never) adds to each
// mismatching element when the hardware last wrote it.
std::string compareBuffers(const RunSpec& spec, const BufferSet& expected, const BufferSet& actual,
                           size_t maxReported = 10, const std::vector<std::vector<uint32_t>>* lastWrite = nullptr);
// Distance in units in the last place between two floats of `bytes` (2, 4, 8) given as bits: how many
// representable values lie between them (0: equal, or both NaN; +0 and -0 are 0 apart; a NaN against a
// number: UINT64_MAX).
uint64_t ulpDistance(uint64_t a, uint64_t b, uint32_t bytes);
// Float buffers compared in ulps, the others bit for bit. `maxUlps` gets the largest distance (UINT64_MAX
// for a mismatch of a non-float buffer or of sizes); returns a line per buffer that differs.
std::string compareUlps(const RunSpec& spec, const BufferSet& expected, const BufferSet& actual,
                        uint64_t& maxUlps);
// Prints buffers in a readable form (used by `spvhls run`).
std::string formatBuffers(const RunSpec& spec, const BufferSet& buffers, size_t maxElems = 64);

} // namespace spvhls::sim
