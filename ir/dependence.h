// Memory dependence analysis of a loop body: which accesses of one memory may touch a common byte,
// and how many iterations apart. Each access's offset is written as an affine function of the
// iteration number t (induction variables with constant steps, loop invariants, at most one sign or
// zero extension of a narrower such function), exactly modulo the widths it is computed in, so the
// answer holds whatever the values wrap to; offsets it cannot write so are assumed to conflict.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "ir/hls_ir.h"

namespace spvhls::ir {

// Distances are reported up to this: a conflict found further back is reported at it. Iterations this
// far apart are never in one pipeline at once (rtl::LoopPlan's in-flight bound), so the order such a
// dependence asks for always holds.
constexpr uint32_t kMaxDependenceDistance = 1024;

class DependenceAnalysis {
public:
  explicit DependenceAnalysis(const Loop& loop);

  // The smallest distance d >= minDistance at which access `first` (a Load or Store of the body) of
  // iteration t - d and access `second` of iteration t may touch a common byte (capped at
  // kMaxDependenceDistance); nullopt if they never do. minDistance when the offsets are not affine
  // functions it can compare.
  std::optional<uint32_t> firstConflict(ValueId first, ValueId second, uint32_t minDistance) const;

  // Whether load `load` of iteration t reads exactly the bytes store `store` wrote in iteration t - d,
  // for every t: the same size, and offsets whose forms agree once the store's is taken d iterations
  // back (its loop invariants stay; a value varying in no known way has no known earlier value).
  bool readsWrittenBefore(ValueId load, ValueId store, uint32_t d) const;

  // An offset, or a part of one, at `width` bits: c + step * t + sum(coefficient * term) + sum over
  // extensions, all modulo 2^width. Terms are values: loop invariants (an induction variable's term is
  // its initial value) or values that vary in no known way. (Public for the tests' sake.)
  struct Linear {
    uint32_t width = 0;
    uint64_t c = 0, step = 0;
    std::map<ValueId, uint64_t> terms;
    bool operator==(const Linear&) const = default;
    bool operator<(const Linear& o) const;
  };
  struct Ext {
    bool sign = false;
    Linear inner; // the narrower value extended (its own width), no extensions inside
    bool operator==(const Ext&) const = default;
    bool operator<(const Ext& o) const;
  };
  struct Form {
    bool ok = false; // false: not affine in a way this analysis follows
    Linear lin;
    std::map<Ext, uint64_t> exts; // each extension's coefficient, modulo 2^lin.width
  };
  const Form& form(ValueId v) const { return forms_.at(v); }

private:
  const Loop& loop_;
  std::vector<bool> varying_; // per value: an opaque term that changes from iteration to iteration
  std::vector<Form> forms_;
  std::vector<std::optional<uint64_t>> inductionStep_; // per LoopPhi op

  void computeForms(bool withInductions);
  Form formOf(ValueId v, bool withInductions) const;
};

// The loop-carried distance the controls give a memory's accesses (IVDep safelen, DependencyArray,
// DependencyLength; 0: no loop-carried dependence at all; 1 without a control).
uint32_t controlDistance(const LoopControls& c, uint32_t memory);

// The order two accesses of one memory keep (`first` before `second` in the body, at least one a
// store): the distance at which first must precede second (0: within the iteration) and at which
// second must precede first (>= 1), from the analysis and the loop controls; nullopt: no order.
// `relaxed`: the analysis removed or lengthened an order the controls alone would keep (first before
// second in the iteration, second before first at the control's distance).
struct MemoryOrder {
  std::optional<uint32_t> firstToSecond, secondToFirst;
  bool relaxed = false;
};
// Whether `load` runs only in iterations right after one where `store` did not run: its predicate is
// !p, or an And chain with !p, for a carried p whose next value is the store's predicate (true when
// the store always runs). ir/lower_forward.cpp guards a load so when it forwards the store's value
// to it; that store then never precedes that load at distance 1.
bool skipsAfterStore(const Loop& loop, ValueId load, ValueId store);

MemoryOrder memoryOrder(const DependenceAnalysis& a, const Loop& loop, ValueId first, ValueId second);

// The pairs of loads and stores of one memory, at least one a store, each in body order: those that
// keep an order (memoryOrder).
std::vector<std::pair<ValueId, ValueId>> orderedAccessPairs(const Loop& loop);

} // namespace spvhls::ir
