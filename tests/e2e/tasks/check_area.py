#!/usr/bin/env python3
"""One task object invoked N times is one instance of its datapath: reuse.spvasm (one object, four
invocations) and reuse4.spvasm (four objects, one invocation each) are compiled, the reports must list
1 and 4 task instances, and yosys (`synth -lut 6`, the whole hierarchy) must find reuse's logic well
below reuse4's (four datapaths against one, the kernel and its queues alike).

    check_area.py --spvhls build/spvhls --out DIR [--max-ratio 0.8]

Four datapaths where one is meant would give a ratio of 1 or more; reuse's own kernel is larger than
reuse4's (its async and get loops are pipelines with a queue port each), so the ratio is about 0.65.
"""
import argparse
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
from bench_programs import yosys_lut6  # noqa: E402


def build(spvhls, stem, out):
    r = subprocess.run([spvhls, "compile", os.path.join(HERE, stem + ".spvasm"), "-o", out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{stem}: compile failed:\n{r.stdout}\n{r.stderr}")
    rep = json.load(open(os.path.join(out, "report.json")))
    area = yosys_lut6(sorted(glob.glob(os.path.join(out, "*.v"))), rep["module"], os.path.join(out, "yosys.log"),
                      1800)
    if area.get("yosys") != "ok":
        sys.exit(f"{stem}: yosys: {area}")
    return len(rep["task_sequences"]), area["lut6"], area["ff"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-ratio", type=float, default=0.8)
    a = ap.parse_args()
    one = build(a.spvhls, "reuse", os.path.join(a.out, "reuse"))
    four = build(a.spvhls, "reuse4", os.path.join(a.out, "reuse4"))
    print(f"reuse:  {one[0]} task instance(s), {one[1]} LUT6, {one[2]} FF")
    print(f"reuse4: {four[0]} task instance(s), {four[1]} LUT6, {four[2]} FF")
    failures = []
    if (one[0], four[0]) != (1, 4):
        failures.append(f"task instances {one[0]} and {four[0]}, expected 1 and 4")
    ratio = one[1] / max(1, four[1])
    if ratio > a.max_ratio:
        failures.append(f"LUT6 ratio {ratio:.2f}, expected at most {a.max_ratio}")
    print(f"LUT6 ratio {ratio:.2f}")
    if failures:
        print("FAIL: " + "; ".join(failures))
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
