// The cycle model of pipelines without a closed form (rtlgen/pipeline_timing.h): it must reproduce the
// closed form where there is one, read the IR evaluator's record of each iteration's predicates, and
// the scheduler must keep two inner loops on one port from running at once (the model's invariant).
// Its exactness against the simulated hardware is the e2e tests' (outer pipelines, waiting gates,
// every kernel's --check-cycles).
#include <doctest/doctest.h>

#include <string>

#include "ir/ir_eval.h"
#include "plan_test_util.h"
#include "rtlgen/pipeline_timing.h"
#include "sim/runspec.h"

using namespace plan_test;

namespace {

// The IR evaluator's run of `p` on its example's run spec with the scalar `n` replaced, recording the
// predicates of every loop.
ir::EvalResult profileOf(const Planned& p, const std::string& specPath, uint64_t n) {
  sim::RunSpec spec = sim::loadRunSpec(specPath);
  std::vector<uint64_t> args;
  for (sim::ArgSpec& a : spec.args) {
    if (a.name == "n") a.scalar = n;
    args.push_back(a.scalar);
  }
  return ir::evaluateKernel(p.kernel, args, sim::initialBuffers(spec), 200'000'000, {},
                            std::vector<bool>(p.kernel.loops.size(), true));
}

} // namespace

TEST_CASE("the cycle model steps a loop to the cycles of its closed form") {
  // Plain loops, a stall-free one whose recurrence gate never waits (histogram), II > 1 (histogram at
  // II 7), in both kinds, at several trip counts including none.
  for (const char* example : {"vadd", "dot", "lut", "histogram"})
    for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
      CAPTURE(example);
      CAPTURE(rtl::clusterModeName(mode));
      auto p = plan(example, mode);
      const rtl::RtlResult r = rtl::generateVerilog(p->kernel, p->schedule, p->plan);
      for (uint64_t n : {0, 1, 2, 7, 40}) {
        CAPTURE(n);
        const ir::EvalResult profile =
            profileOf(*p, std::string(SPVHLS_SOURCE_DIR) + "/examples/" + example + ".run.json", n);
        rtl::PipelineTiming timing(p->kernel, r, profile);
        for (uint32_t l = 0; l < p->kernel.loops.size(); ++l) {
          const rtl::LoopHardware& hw = r.loops[l];
          REQUIRE(hw.model);
          CHECK(rtl::unmodelledReason(p->kernel, r, l).empty());
          for (uint64_t iterations : profile.loopCallIterations[l]) {
            std::string why;
            const std::optional<int64_t> stepped = timing.callCycles(l, why);
            INFO(why);
            REQUIRE(stepped);
            if (hw.predictable) CHECK(*stepped == rtl::loopCallCycles(hw, iterations));
          }
        }
      }
    }
}

TEST_CASE("two inner loops reading one buffer: ordered calls, predicates recorded, cycles stepped") {
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
    CAPTURE(rtl::clusterModeName(mode));
    auto p = plan("regress/nest_shared_read", mode, true, /*outerLoops=*/true);
    uint32_t outer = UINT32_MAX;
    for (uint32_t l = 0; l < p->kernel.loops.size(); ++l)
      for (const ir::Op& op : p->kernel.loops[l].ops)
        if (op.kind == OpKind::LoopCall) outer = l;
    REQUIRE(outer != UINT32_MAX);
    const ir::Loop& loop = p->kernel.loops[outer];
    std::vector<ir::ValueId> calls;
    for (ir::ValueId v = 0; v < loop.ops.size(); ++v)
      if (loop.ops[v].kind == OpKind::LoopCall) calls.push_back(v);
    REQUIRE(calls.size() == 2);
    // Neither writes, so no memory order joins them; the shared port does: the second call follows
    // the first's results, and the next iteration's first the second's.
    const sched::Problem& problem = p->schedule.loops[outer].problem;
    bool forward = false, back = false;
    for (const sched::Dependence& d : problem.deps) {
      forward = forward || (d.from == calls[0] && d.to == calls[1] && d.distance == 0);
      back = back || (d.from == calls[1] && d.to == calls[0] && d.distance == 1);
    }
    CHECK(forward);
    CHECK(back);
    const rtl::LoopPlan& lp = p->plan.loops[outer];
    CHECK(lp.start[calls[1]] >= lp.compPos[calls[0]]);

    const rtl::RtlResult r = rtl::generateVerilog(p->kernel, p->schedule, p->plan);
    CHECK_FALSE(r.loops[outer].predictable);
    CHECK(rtl::unmodelledReason(p->kernel, r, outer).empty());
    const std::vector<bool> record = rtl::predicateProfile(p->kernel, r);
    for (uint32_t l = 0; l < p->kernel.loops.size(); ++l)
      CHECK(record[l]); // the outer loop and the two it runs
    const std::string spec = std::string(SPVHLS_SOURCE_DIR) + "/tests/e2e/regress/nest_shared_read.run.json";
    const ir::EvalResult profile = profileOf(*p, spec, 0);
    // 12 rows: 13 iterations of the outer loop, each call made in the 12 that run the body.
    REQUIRE(profile.loopCallIterations[outer] == std::vector<uint64_t>{13});
    REQUIRE(ir::predicateWords(loop) == 1);
    const std::vector<uint64_t>& words = profile.loopIterationPredicates[outer];
    REQUIRE(words.size() == 13);
    uint32_t bit = 0, bit0 = 0, bit1 = 0;
    for (ir::ValueId v = 0; v < loop.ops.size(); ++v) {
      if (!ir::timedOperation(loop.ops[v])) continue;
      if (v == calls[0]) bit0 = bit;
      if (v == calls[1]) bit1 = bit;
      ++bit;
    }
    auto calledIn = [&](size_t iteration, uint32_t b) { return ((words[iteration] >> b) & 1) != 0; };
    for (size_t i = 0; i < 12; ++i) {
      CHECK(calledIn(i, bit0));
      CHECK(calledIn(i, bit1));
    }
    CHECK_FALSE(calledIn(12, bit0));
    rtl::PipelineTiming timing(p->kernel, r, profile);
    std::string why;
    const std::optional<int64_t> cycles = timing.callCycles(outer, why);
    INFO(why);
    REQUIRE(cycles);
    // At least each row's two inner loops one after the other: (r & 7) + 2 and 4 iterations.
    int64_t innerIterations = 0;
    for (uint64_t row = 0; row < 12; ++row)
      innerIterations += int64_t((row & 7) + 2 + 4);
    CHECK(*cycles > innerIterations);
    // Another call than the run made is not made up.
    CHECK_FALSE(timing.callCycles(outer, why));
    CHECK(why.find("more often than the run did") != std::string::npos);
  }
}

TEST_CASE("MaxInterleavingINTEL 2 builds an inner loop twice; the model takes the calls in turn") {
  for (rtl::ClusterMode mode : {rtl::ClusterMode::StallFree, rtl::ClusterMode::StallEnable}) {
    CAPTURE(rtl::clusterModeName(mode));
    auto two = plan("loops/interleave_2.spvasm", mode);
    auto one = plan("loops/interleave_1.spvasm", mode);
    const std::vector<int> callers = ir::loopCallers(two->kernel.loops);
    uint32_t inner = UINT32_MAX;
    for (uint32_t l = 0; l < callers.size(); ++l)
      if (callers[l] >= 0) inner = l;
    REQUIRE(inner != UINT32_MAX);
    CHECK(two->kernel.loops[inner].copies == 2);
    CHECK(one->kernel.loops[inner].copies == 1);
    for (const ir::LoopControlRequest& r : two->kernel.loops[inner].controls.requests)
      if (r.name == "MaxInterleavingINTEL") CHECK(r.note.find("built as 2 copies") != std::string::npos);
    // The verifier takes copies only on a loop that accesses no memory and that a loop runs.
    ir::Kernel bad = two->kernel;
    bad.loops[callers[inner]].copies = 2;
    CHECK_THROWS(ir::verifyKernel(bad));

    // Two calls run at once: the model predicts about half the cycles.
    const std::string spec = std::string(SPVHLS_SOURCE_DIR) + "/tests/e2e/loops/interleave.run.json";
    auto cycles = [&](const Planned& p) {
      const rtl::RtlResult r = rtl::generateVerilog(p.kernel, p.schedule, p.plan);
      const ir::EvalResult profile = profileOf(p, spec, 0);
      std::string why;
      const std::optional<uint64_t> c = rtl::predictCycles(p.kernel, r, profile, why);
      INFO(why);
      REQUIRE(c);
      return *c;
    };
    const uint64_t c1 = cycles(*one), c2 = cycles(*two);
    CHECK(c2 * 100 < c1 * 55);
    CHECK(c2 * 100 > c1 * 45);
  }
}
