// Exact modulo scheduling at a given II: an integer linear program solved by CBC (COIN-OR).
//
// Variables: a start time t_i in [0, H] per operation; for an operation on a limited resource, binaries
// x_is (its MRT slot s in 0..II-1) and a stage k_i with t_i = II * k_i + Σ s * x_is; per value with
// readers, its lifetime L_v; the schedule length T. Constraints: t_j - t_i >= latency - II * distance
// per dependence; per resource and slot, the units held there (an operation started in slot s holds
// slots s .. s + blocking - 1, modulo II) at most the limit; L_v >= t_j + II * distance - t_v - latency_v
// per value-carrying dependence; T >= t_i + latency_i. Only operations on resources get binaries, so
// the model stays small for loop bodies: 40 operations with 8 memory accesses at II 8 are 64 binaries.
//
// Objective: none (Any: is there a schedule?), or lexicographic in two solves: the fewest register
// bits Σ bits_v * L_v, then (bits capped at that optimum) the shortest T. Horizon: with every operation's
// slot fixed, the feasible start times are closed under componentwise minimum, and in the least solution each
// start is reached from a start below II through a simple path of tight constraints, each adding at most
// max(0, latency - II * distance) + II - 1; so H = n * (maxW + II) loses no feasible slot assignment,
// and an infeasibility proof within [0, H] is a proof for all start times.
#include <Cbc_C_Interface.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "scheduler/schedule.h"

namespace spvhls::sched {
namespace {

using Clock = std::chrono::steady_clock;

struct Model {
  std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> cbc{Cbc_newModel(), Cbc_deleteModel};
  int cols = 0;
  std::vector<int> t, k, lifetime; // column of t_i, k_i (-1 if none), L_v (-1 if none)
  std::vector<std::vector<int>> x; // x[i][s], empty if op i has no resource
  int length = -1;                 // T

  int addCol(double lb, double ub, bool integer) {
    Cbc_addCol(cbc.get(), "", lb, ub, 0.0, integer ? 1 : 0, 0, nullptr, nullptr);
    return cols++;
  }
  void addRow(const std::vector<std::pair<int, double>>& terms, char sense, double rhs) {
    std::vector<int> idx;
    std::vector<double> val;
    for (auto [c, v] : terms)
      if (v != 0) idx.push_back(c), val.push_back(v);
    Cbc_addRow(cbc.get(), "", int(idx.size()), idx.data(), val.data(), sense, rhs);
  }
};

// The constraints; the objective is set by the caller.
Model buildModel(const Problem& p, uint32_t ii) {
  Model m;
  const size_t n = p.ops.size();
  const double horizon = double(exactHorizon(p, ii));
  m.t.resize(n);
  m.k.assign(n, -1);
  m.x.resize(n);
  m.lifetime.assign(n, -1);
  for (size_t i = 0; i < n; ++i)
    m.t[i] = m.addCol(0, horizon, true);
  for (size_t i = 0; i < n; ++i) {
    if (p.ops[i].resource < 0) continue;
    m.k[i] = m.addCol(0, std::floor(horizon / ii), true);
    std::vector<std::pair<int, double>> def{{m.t[i], 1.0}, {m.k[i], -double(ii)}}, one;
    for (uint32_t s = 0; s < ii; ++s) {
      m.x[i].push_back(m.addCol(0, 1, true));
      def.push_back({m.x[i][s], -double(s)});
      one.push_back({m.x[i][s], 1.0});
    }
    m.addRow(def, 'E', 0);
    m.addRow(one, 'E', 1);
  }
  for (size_t r = 0; r < p.resources.size(); ++r)
    for (uint32_t s = 0; s < ii; ++s) {
      // Op i started in slot s0 holds s iff (s - s0) mod II < blocking, as often as that repeats.
      std::vector<std::pair<int, double>> held;
      for (size_t i = 0; i < n; ++i) {
        if (p.ops[i].resource != int(r)) continue;
        for (uint32_t s0 = 0; s0 < ii; ++s0) {
          const uint32_t offset = (s + ii - s0) % ii;
          const uint32_t b = p.ops[i].blocking;
          const uint32_t times = b > offset ? (b - offset - 1) / ii + 1 : 0;
          if (times) held.push_back({m.x[i][s0], double(times)});
        }
      }
      if (!held.empty()) m.addRow(held, 'L', p.resources[r].limit);
    }
  for (const Dependence& d : p.deps) {
    const double rhs = double(d.latency) - double(ii) * d.distance;
    if (d.from == d.to) continue; // II * distance >= latency: checked before the model is built
    m.addRow({{m.t[d.to], 1.0}, {m.t[d.from], -1.0}}, 'G', rhs);
  }
  for (const Dependence& d : p.deps) {
    if (!d.carriesValue() || p.ops[d.from].bits == 0) continue;
    int& l = m.lifetime[d.from];
    if (l < 0) l = m.addCol(0, 1e12, false);
    // L_v - t_to + t_v >= II * distance - latency_v (a self-dependence has t_to = t_v).
    std::vector<std::pair<int, double>> terms{{l, 1.0}};
    if (d.to != d.from) terms.push_back({m.t[d.to], -1.0}), terms.push_back({m.t[d.from], 1.0});
    m.addRow(terms, 'G', double(ii) * d.distance - double(p.ops[d.from].latency));
  }
  m.length = m.addCol(1, 1e12, false);
  for (size_t i = 0; i < n; ++i)
    m.addRow({{m.length, 1.0}, {m.t[i], -1.0}}, 'G', p.ops[i].latency);
  return m;
}

struct Solve {
  ExactResult::Status status = ExactResult::Status::Unknown;
  std::vector<double> solution;
  double objective = 0;
};

Solve solve(Model& m, double seconds) {
  Cbc_Model* c = m.cbc.get();
  Cbc_setLogLevel(c, 0);
  Cbc_setParameter(c, "slogLevel", "0"); // the LP solver's own log (Clp's presolve lines)
  Cbc_setMaximumSeconds(c, std::max(0.01, seconds));
  // Integral objectives: a gap below 1 proves optimality.
  Cbc_setAllowableGap(c, 0.5);
  Cbc_solve(c);
  Solve s;
  const double* best = Cbc_bestSolution(c);
  if (best) s.solution.assign(best, best + m.cols), s.objective = Cbc_getObjValue(c);
  if (Cbc_isProvenOptimal(c) && best)
    s.status = ExactResult::Status::Optimal;
  else if (Cbc_isProvenInfeasible(c))
    s.status = ExactResult::Status::Infeasible;
  else if (best)
    s.status = ExactResult::Status::Feasible;
  return s;
}

Schedule scheduleFrom(const Problem& p, const Model& m, const std::vector<double>& sol, uint32_t ii) {
  Schedule s;
  s.ii = ii;
  s.length = 1;
  for (size_t i = 0; i < p.ops.size(); ++i) {
    s.start.push_back(int(std::llround(sol[m.t[i]])));
    s.length = std::max<int>(s.length, s.start.back() + int(p.ops[i].latency));
  }
  return s;
}

enum class Goal { Any, Length, Registers };

void setObjective(Model& m, const Problem& p, Goal goal) {
  for (int c = 0; c < m.cols; ++c)
    Cbc_setObjCoeff(m.cbc.get(), c, 0.0);
  if (goal == Goal::Any) return;
  if (goal == Goal::Length) {
    Cbc_setObjCoeff(m.cbc.get(), m.length, 1.0);
    return;
  }
  for (size_t v = 0; v < p.ops.size(); ++v)
    if (m.lifetime[v] >= 0) Cbc_setObjCoeff(m.cbc.get(), m.lifetime[v], double(p.ops[v].bits));
}

} // namespace

const char* exactStatusName(ExactResult::Status s) {
  switch (s) {
  case ExactResult::Status::Optimal:
    return "optimal";
  case ExactResult::Status::Feasible:
    return "feasible (time limit)";
  case ExactResult::Status::Infeasible:
    return "infeasible";
  case ExactResult::Status::Unknown:
    return "unknown (time limit)";
  }
  return "?";
}

int64_t exactHorizon(const Problem& p, uint32_t ii) {
  int64_t maxW = 0;
  for (const Dependence& d : p.deps)
    maxW = std::max(maxW, int64_t(d.latency) - int64_t(ii) * d.distance);
  return int64_t(std::max<size_t>(p.ops.size(), 1)) * (maxW + ii);
}

ExactResult exactModuloSchedule(const Problem& p, uint32_t ii, const ExactOptions& opts) {
  if (ii == 0)
    throw InternalError(SourceLoc{}, "exact modulo scheduler", "asked for a modulo schedule at II 0");
  p.check();
  const auto begin = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - begin).count(); };
  ExactResult r;
  if (provablyInfeasible(p, ii)) { // the cheap proofs first, as the heuristic does
    r.status = ExactResult::Status::Infeasible;
    r.seconds = elapsed();
    return r;
  }

  const bool registers = opts.objective == ExactOptions::Objective::Registers &&
                         std::any_of(p.deps.begin(), p.deps.end(), [&](const Dependence& d) {
                           return d.carriesValue() && p.ops[d.from].bits > 0;
                         });
  Model m = buildModel(p, ii);
  setObjective(m, p,
               registers ? Goal::Registers
               : opts.objective == ExactOptions::Objective::Registers
                   ? Goal::Length // no values: the shortest
                   : Goal::Any);
  Solve first = solve(m, opts.timeLimitSeconds);
  r.status = first.status;
  std::vector<double> best = first.solution;
  if (registers && first.status == ExactResult::Status::Optimal) {
    // Second solve: the shortest schedule among those with the fewest register bits.
    Model m2 = buildModel(p, ii);
    std::vector<std::pair<int, double>> bits;
    for (size_t v = 0; v < p.ops.size(); ++v)
      if (m2.lifetime[v] >= 0) bits.push_back({m2.lifetime[v], double(p.ops[v].bits)});
    m2.addRow(bits, 'L', std::round(first.objective) + 0.5);
    setObjective(m2, p, Goal::Length);
    Solve second = solve(m2, std::max(0.01, opts.timeLimitSeconds - elapsed()));
    if (!second.solution.empty()) best = second.solution;
    if (second.status != ExactResult::Status::Optimal) r.status = ExactResult::Status::Feasible;
  }
  if (!best.empty()) {
    Schedule s = scheduleFrom(p, m, best, ii);
    try {
      verify(p, s);
    } catch (const DiagnosticError& e) {
      throw InternalError(SourceLoc{}, "exact modulo scheduler",
                          fmt::format("the solver's schedule at II {} fails verification: {}", ii, e.what()));
    }
    r.schedule = std::move(s);
  }
  r.seconds = elapsed();
  return r;
}

} // namespace spvhls::sched
