#!/usr/bin/env python3
"""Simulation speed of the C++ bench and the SystemC bench on the same kernels (issue 17).

Each kernel is simulated by `spvhls sim --speed` with the C++ bench (Verilator --cc) and with
`--systemc` (Verilator --sc, the kernel in its SystemC wrapper, TLM-2.0 memory targets), one seed of
random latency 1..8 and back-pressure 0.8, after a first run that builds the simulator; the speed is
the simulated cycles over the wall-clock time of the simulator's run (its start-up included, so short
runs understate it).

    python3 scripts/bench_systemc.py [--spvhls build/spvhls] [--out /tmp/bench_systemc] [--n 200000]
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")


def vadd_spec(out, n):
    spec = {"kernel": "vadd", "args": [
        {"name": "a", "buffer": {"type": "i32", "length": n, "init": {"random": {"seed": 1, "min": -1000, "max": 1000}}}},
        {"name": "b", "buffer": {"type": "i32", "length": n, "init": {"random": {"seed": 2, "min": -1000, "max": 1000}}}},
        {"name": "c", "buffer": {"type": "i32", "length": n, "init": "zeros"}},
        {"name": "n", "value": n}]}
    path = os.path.join(out, "vadd_big.run.json")
    json.dump(spec, open(path, "w"))
    return path


def speed(spvhls, input_, spec, out, systemc):
    cmd = [spvhls, "sim", input_, "--run", spec, "-o", out, "--seeds", "1", "--jobs", "1", "--speed"]
    if systemc:
        cmd.append("--systemc")
    for _ in range(2):  # the first run builds the simulator
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout[-3000:]}\n{r.stderr}")
    m = re.search(r"speed: (\d+) cycles in ([\d.]+) s: (\d+) cycles/s", r.stdout)
    if not m:
        sys.exit(f"no speed line in:\n{r.stdout[-2000:]}")
    return int(m.group(1)), float(m.group(2)), int(m.group(3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", default=os.path.join(BUILD, "spvhls"))
    ap.add_argument("--out", default="/tmp/bench_systemc")
    ap.add_argument("--n", type=int, default=200000, help="vadd's length")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    kernels = [
        ("vadd", os.path.join(BUILD, "examples", "vadd.spv"), vadd_spec(a.out, a.n)),
        ("stencil3_plain", os.path.join(BUILD, "loops", "stencil3_plain.spv"),
         os.path.join(ROOT, "tests", "e2e", "loops", "stencil3.run.json")),
        ("split4", os.path.join(ROOT, "tests", "e2e", "tasks", "split4.spvasm"),
         os.path.join(ROOT, "tests", "e2e", "tasks", "split4.run.json")),
    ]
    print(f"{'kernel':<16} {'cycles':>9} {'C++ s':>8} {'C++ cycles/s':>13} {'SystemC s':>10} {'SystemC cycles/s':>17}"
          f" {'ratio':>6}")
    for name, input_, spec in kernels:
        c1, s1, v1 = speed(a.spvhls, input_, spec, os.path.join(a.out, name + "_cpp"), False)
        c2, s2, v2 = speed(a.spvhls, input_, spec, os.path.join(a.out, name + "_sc"), True)
        print(f"{name:<16} {c1:>9} {s1:>8.3f} {v1:>13} {s2:>10.3f} {v2:>17} {v1 / max(1, v2):>6.1f}"
              + ("" if c1 == c2 else f"  (SystemC run: {c2} cycles)"))


if __name__ == "__main__":
    main()
