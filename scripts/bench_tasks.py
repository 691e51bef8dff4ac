#!/usr/bin/env python3
"""Task-sequence benchmark (issue 14): cycles and area of task-parallel kernels next to their other forms.

Pairs of tests/e2e/tasks/ kernels with the same interface and run spec:
  split4 / split4_seq  four task objects summing four buffers side by side, against four plain calls
                       (four loops one after the other);
  reuse / reuse4       one task object invoked four times (one instance of the datapath), against four
                       objects invoked once each (four instances);
  pipelined_1 / _4 / _0  16 invocations of one straight-line task with Pipelined 1, 4 and 0 (a body
                       serving overlapping invocations in one pipelined loop, against one at a time).
Each is simulated by `spvhls sim --check-cycles` (one run at fixed memory latency and no back-pressure,
whose cycles are the report's prediction when it makes one, and one with random latency and
back-pressure checked against the interpreter) and synthesised by yosys for a generic 6-LUT FPGA
(`synth -lut 6`, as scripts/bench_programs.py: LUTs and flip-flops of the whole hierarchy).

    python3 scripts/bench_tasks.py [--spvhls build/spvhls] [--out /tmp/bench_tasks] [--cluster stall-enable]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TASKS = os.path.join(ROOT, "tests", "e2e", "tasks")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from bench_programs import yosys_lut6  # noqa: E402

# (kernels, run spec): the first is compared with each of the others.
GROUPS = [(("split4", "split4_seq"), "split4"), (("reuse", "reuse4"), "reuse"),
          (("pipelined_1", "pipelined_4", "pipelined_0"), "pipelined_1")]


def measure(spvhls, stem, spec, out, cluster):
    r = subprocess.run([spvhls, "sim", os.path.join(TASKS, stem + ".spvasm"), "--run",
                        os.path.join(TASKS, spec + ".run.json"), "-o", out, "--cluster", cluster, "--seeds", "1",
                        "--check-cycles"], capture_output=True, text=True)
    if r.returncode != 0 or "FAIL" in r.stdout:
        sys.exit(f"{stem}: simulation failed:\n{r.stdout}\n{r.stderr}")
    # The fixed-latency run is made whether or not the report predicts its cycles.
    m = re.search(r"fixed-latency=\d+ no-backpressure cycles=(\d+)( \(predicted \d+\))?$", r.stdout, re.M)
    if not m:
        sys.exit(f"{stem}: no fixed-latency run:\n{r.stdout}\n{r.stderr}")
    cycles, predicted = int(m.group(1)), m.group(2) is not None
    files = sorted(glob.glob(os.path.join(out, "*.v")))
    top = open(os.path.join(out, "report.json")).read()
    top = re.search(r'"module": "([^"]+)"', top).group(1)
    area = yosys_lut6(files, top, os.path.join(out, "yosys.log"), 1800)
    if area.get("yosys") != "ok":
        sys.exit(f"{stem}: yosys: {area}")
    instances = len(re.findall(r"^task sequence ", r.stdout, re.M))
    return {"cycles": cycles, "predicted": predicted, "lut6": area["lut6"], "ff": area["ff"],
            "instances": instances}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", default=os.path.join(ROOT, "build", "spvhls"))
    ap.add_argument("--out", default="/tmp/bench_tasks")
    ap.add_argument("--cluster", default="stall-enable")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    print(f"cluster kind: {a.cluster}; cycles at fixed memory latency (* = the report's prediction, checked)")
    print(f"{'kernel':<12} {'task objects':>12} {'cycles':>8} {'LUT6':>7} {'FF':>7}")
    for stems, spec in GROUPS:
        rows = [(s, measure(a.spvhls, s, spec, os.path.join(a.out, s), a.cluster)) for s in stems]
        for stem, m in rows:
            cyc = f"{m['cycles']}{'*' if m['predicted'] else ' '}"
            print(f"{stem:<12} {m['instances']:>12} {cyc:>8} {m['lut6']:>7} {m['ff']:>7}")
        s1, m1 = rows[0]
        for s2, m2 in rows[1:]:
            print(f"  {s1} / {s2}: cycles x{m1['cycles'] / m2['cycles']:.2f}, "
                  f"LUT6 x{m1['lut6'] / max(1, m2['lut6']):.2f}, FF x{m1['ff'] / max(1, m2['ff']):.2f}")


if __name__ == "__main__":
    main()
