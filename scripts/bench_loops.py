#!/usr/bin/env python3
"""Loop-nest benchmark (issue 13): simulated cycles of loop nests against the bound
`total inner iterations x II + pipeline depth`.

Each kernel of tests/bench/loops/ is built twice with clang-15 + llvm-spirv-15: as written (the outer
loops run in the kernel's FSM, the innermost loop is pipelined) and with LoopCoalesceINTEL 0 (all
levels) on its outermost loop (tests/e2e/loops/add_controls.py). Both are simulated by `spvhls sim
--check-cycles` (fixed memory latency, no back-pressure: the cycles equal the report's prediction, which
is checked; one more run with random latency and back-pressure checks the results against the
interpreter). The bound takes the pipelined loop's achieved II and iteration latency from the report
and the number of innermost-body executions from the sizes. A third column simulates the kernel as
written with `--outer-loops pipelined` (every outer loop a pipeline, its inner loop a sub-pipeline;
its cycles too equal the prediction, which the cycle model steps through the run).

    python3 scripts/bench_loops.py [--spvhls build/spvhls] [--out /tmp/bench_loops] [--cluster stall-enable]
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOOPS = os.path.join(ROOT, "tests", "bench", "loops")
ADD_CONTROLS = os.path.join(ROOT, "tests", "e2e", "loops", "add_controls.py")


def ints(name, values):
    return {"name": name, "buffer": {"type": "i32", "length": len(values), "init": values}}


def scalar(name, v):
    return {"name": name, "value": v}


def rand(n, seed, lo=-100, hi=100):
    x, out = seed * 2654435761 + 1, []
    for _ in range(n):
        x = (x * 1664525 + 1013904223) & 0xFFFFFFFF
        out.append(lo + (x >> 8) % (hi - lo + 1))
    return out


def cases():
    """(kernel, run-spec args, innermost-body executions)"""
    r, c = 18, 66
    yield "stencil2d", [ints("in", rand(r * c, 1)), ints("out", [0] * (r * c)), scalar("rows", r),
                        scalar("cols", c)], (r - 2) * (c - 2)
    n = 40
    yield "triangle", [ints("in", rand(n * n, 2)), ints("out", [0] * n), scalar("n", n)], n * (n + 1) // 2
    rows = 32
    lens = [x % 40 for x in rand(rows, 3, 0, 1000)]
    starts = [sum(lens[:i]) for i in range(rows)]
    yield "ragged", [ints("len", lens), ints("start", starts), ints("val", rand(max(1, sum(lens)), 4)),
                     ints("out", [0] * rows), scalar("rows", rows)], sum(lens)
    n = 12
    yield "matmul", [ints("A", rand(n * n, 5)), ints("B", rand(n * n, 6)), ints("C", [0] * (n * n)),
                     scalar("n", n)], n ** 3


def build(stem, out, controls):
    bc, spv, asm = (os.path.join(out, f"{stem}{controls and '_co'}.{e}") for e in ("bc", "spv", "spvasm"))
    subprocess.run(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0",
                    "-finclude-default-header", "-no-opaque-pointers", "-O0", "-ffp-contract=off",
                    "-emit-llvm-bc", os.path.join(LOOPS, stem + ".cl"), "-o", bc], check=True)
    subprocess.run(["llvm-spirv-15", "--spirv-ext=+all", bc, "-o", spv], check=True)
    subprocess.run([sys.executable, ADD_CONTROLS, "--cl", os.path.join(LOOPS, stem + ".cl"), "--spv", spv,
                    "--out", asm, f"--controls={controls}"], check=True)
    return asm


def simulate(spvhls, asm, spec, out, cluster, extra=()):
    r = subprocess.run([spvhls, "sim", asm, "--run", spec, "-o", out, "--cluster", cluster, "--seeds", "1",
                        "--check-cycles", *extra], capture_output=True, text=True)
    m = re.search(r"PASS fixed-latency=\d+ no-backpressure cycles=(\d+)(?: \(predicted (\d+)\))?", r.stdout)
    if r.returncode != 0 or not m or m.group(1) != m.group(2) or "FAIL" in r.stdout:
        sys.exit(f"{asm}: simulation failed or unpredicted:\n{r.stdout}\n{r.stderr}")
    rep = json.load(open(os.path.join(out, "report.json")))
    return int(m.group(1)), rep


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", default=os.path.join(ROOT, "build", "spvhls"))
    ap.add_argument("--out", default="/tmp/bench_loops")
    ap.add_argument("--cluster", default="stall-enable")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for stem, args, inner in cases():
        spec = os.path.join(a.out, stem + ".run.json")
        json.dump({"kernel": stem, "args": args}, open(spec, "w"))
        plain_asm = build(stem, a.out, "")
        plain, _ = simulate(a.spvhls, plain_asm, spec, os.path.join(a.out, stem), a.cluster)
        outer, _ = simulate(a.spvhls, plain_asm, spec, os.path.join(a.out, stem + "_op"), a.cluster,
                            ("--outer-loops", "pipelined"))
        co_asm = build(stem, a.out, "0=LoopCoalesceINTEL 0")
        co, rep = simulate(a.spvhls, co_asm, spec, os.path.join(a.out, stem + "_co"), a.cluster)
        if len(rep["loops"]) != 1:
            sys.exit(f"{stem}: coalesced into {len(rep['loops'])} loops, expected 1")
        lp = rep["loops"][0]
        ii, depth = lp["ii"]["achieved"], lp["iteration_latency"]
        bound = inner * ii + depth
        rows.append((stem, inner, plain, outer, co, ii, depth, bound, co / bound, lp["limited_by"]))
    print(f"cluster kind: {a.cluster}; cycles at fixed memory latency, each equal to the report's prediction")
    print(f"{'nest':<10} {'inner it.':>9} {'as written':>10} {'outer pipe':>10} {'coalesced':>9} {'II':>3} "
          f"{'depth':>5} {'bound':>7} {'coalesced/bound':>15}")
    for stem, inner, plain, outer, co, ii, depth, bound, ratio, why in rows:
        print(f"{stem:<10} {inner:>9} {plain:>10} {outer:>10} {co:>9} {ii:>3} {depth:>5} {bound:>7} "
              f"{ratio:>15.3f}")
    print("\nwhat sets the coalesced loop's II:")
    for stem, *_, why in rows:
        print(f"  {stem}: {why}")


if __name__ == "__main__":
    main()
