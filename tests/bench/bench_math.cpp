// The f32 exp/log expansions (ir/lower_math.cpp) swept over the f32 range: every `stride`-th bit
// pattern from `start` (stride 1: all 2^32), each checked as tests/unit/test_math_expansion.cpp
// checks its inputs (tests/unit/math_check.h): special values bit for bit against glibc, the rest
// within the bound of the correctly rounded result. Not a ctest test (an exhaustive sweep takes about
// an hour per function on one core):
//   ninja bench_math && ./tests/bench/bench_math [--stride N] [--start S] [--threads T] [exp exp2 ...]
// `rsqrt` sweeps the float rsqrt op list (ir/lower_math_exact.cpp) over the positive finite floats
// instead, against the exactly decided correctly rounded result (mathcheck::rsqrtCorrect).
// `pow` and `atan2` check `--pairs N` operand pairs drawn as the unit test draws them
// (mathcheck::powInputs, atan2Inputs; seed `--start`) instead: two operands leave no sweep of the range.
// Exits 1 if any input is off by more than the bound (rsqrt: by anything).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "tests/unit/math_check_pow.h"

using namespace spvhls::mathcheck;

// Runs body(t, stats) on `threads` threads, t = 0 .. threads - 1, and merges their statistics.
template <typename Body> Stats onThreads(unsigned threads, Body body) {
  std::vector<Stats> part(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] { body(t, part[t]); });
  for (auto& th : pool)
    th.join();
  Stats s;
  for (const Stats& q : part)
    s.merge(q);
  return s;
}

int main(int argc, char** argv) {
  uint64_t stride = 257, start = 0;
  unsigned threads = 1;
  std::vector<MathFn> fns;
  bool rsqrt = false;
  std::vector<MathFn> binary; // pow, atan2
  uint64_t pairs = 10'000'000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--stride" && i + 1 < argc)
      stride = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--start" && i + 1 < argc)
      start = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--threads" && i + 1 < argc)
      threads = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else if (a == "--pairs" && i + 1 < argc)
      pairs = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "rsqrt")
      rsqrt = true;
    else if (a == "pow")
      binary.push_back(MathFn::Pow);
    else if (a == "atan2")
      binary.push_back(MathFn::Atan2);
    else {
      bool found = false;
      for (MathFn fn : kAllFns)
        if (a == spvhls::ir::lower::mathFnName(fn)) fns.push_back(fn), found = true;
      if (!found) {
        std::fprintf(
            stderr,
            "usage: bench_math [--stride N] [--start S] [--threads T] "
            "[--pairs N] [exp|exp2|exp10|log|log2|log10|sin|cos|tan|atan|asin|acos|rsqrt|pow|atan2]...\n");
        return 2;
      }
    }
  }
  if (fns.empty() && !rsqrt && binary.empty()) fns.assign(std::begin(kAllFns), std::end(kAllFns));
  if (stride == 0 || threads == 0) return 2;
  bool ok = true;
  if (rsqrt) {
    std::vector<uint64_t> checked(threads), wrong(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        Program p = rsqrtProgram(32);
        for (uint64_t x = std::max<uint64_t>(start, 1) + t * stride; x < 0x7f800000; x += threads * stride) {
          ++checked[t];
          if (p.runArgs({x}) != rsqrtCorrect(x, 32) && ++wrong[t] <= 5)
            std::printf("  rsqrt 0x%08llx wrong\n", (unsigned long long)x);
        }
      });
    for (auto& th : pool)
      th.join();
    uint64_t c = 0, bad = 0;
    for (unsigned t = 0; t < threads; ++t)
      c += checked[t], bad += wrong[t];
    std::printf("rsqrt  %llu positive finite inputs (stride %llu): %llu not correctly rounded\n",
                (unsigned long long)c, (unsigned long long)stride, (unsigned long long)bad);
    ok = bad == 0;
  }
  for (MathFn fn : binary) {
    const auto in = fn == MathFn::Pow ? powInputs(size_t(pairs), uint32_t(start))
                                      : atan2Inputs(size_t(pairs), uint32_t(start));
    const Stats s = onThreads(threads, [&](unsigned t, Stats& part) {
      Program p = math2Program(fn);
      for (size_t k = t; k < in.size(); k += threads)
        checkMath2(p, fn, in[k].first, in[k].second, spvhls::ir::lower::mathMaxUlps(fn), part);
    });
    std::printf(
        "%-6s %llu pairs: max %llu ulp from correctly rounded, %llu not correctly rounded, max error "
        "%.4f ulp; %llu special mismatches; vs glibc %llu differ, max %llu ulp; glibc itself %llu not "
        "correctly rounded\n",
        spvhls::ir::lower::mathFnName(fn), (unsigned long long)s.inputs, (unsigned long long)s.maxUlps,
        (unsigned long long)s.notCorrectlyRounded, s.maxError, (unsigned long long)s.specialMismatches,
        (unsigned long long)s.differFromGlibc, (unsigned long long)s.maxUlpsVsGlibc,
        (unsigned long long)s.glibcNotCorrectlyRounded);
    for (const std::string& pr : s.problems)
      std::printf("  %s\n", pr.c_str());
    if (s.maxUlps > 1 || s.specialMismatches) ok = false;
  }
  for (MathFn fn : fns) {
    const uint32_t bound = spvhls::ir::lower::mathMaxUlps(fn);
    const Stats s = onThreads(threads, [&](unsigned t, Stats& part) {
      Program p(fn);
      for (uint64_t x = start + t * stride; x <= 0xffffffffull; x += threads * stride)
        checkOne(p, fn, uint32_t(x), bound, part);
    });
    std::printf(
        "%-6s %llu inputs (stride %llu from %llu): max %llu ulp from correctly rounded (at 0x%08x), %llu not "
        "correctly rounded, max error %.4f ulp; %llu special mismatches; vs glibc %llu differ, max %llu ulp "
        "(at 0x%08x)\n",
        spvhls::ir::lower::mathFnName(fn), (unsigned long long)s.inputs, (unsigned long long)stride,
        (unsigned long long)start, (unsigned long long)s.maxUlps, s.worst,
        (unsigned long long)s.notCorrectlyRounded, s.maxError, (unsigned long long)s.specialMismatches,
        (unsigned long long)s.differFromGlibc, (unsigned long long)s.maxUlpsVsGlibc, s.worstVsGlibc);
    for (const std::string& pr : s.problems)
      std::printf("  %s\n", pr.c_str());
    std::fflush(stdout);
    if (s.maxUlps > bound || s.specialMismatches) ok = false;
  }
  return ok ? 0 : 1;
}
