#!/usr/bin/env python3
"""SystemC co-simulation checks (docs/systemc.md).

  check_systemc.py --spvhls S --sim INPUT SPEC --out DIR [--unpredicted]
      spvhls sim --systemc: the kernel in its SystemC wrapper with TLM-2.0 memories, two seeds of random
      latency and back-pressure bit-exact with the interpreter, and the fixed-latency run at the
      report's predicted cycles (unless --unpredicted: then the prediction must be skipped).
  check_systemc.py --spvhls S --platform VADD.spv --out DIR
      the user's side: spvhls compile writes the wrapper; the worked example of docs/systemc.md
      (examples/systemc/vadd_platform.cpp) and the generated <kernel>_sc_main.cpp build with
      verilator --sc and run to done, the worked example checking its sums.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check_sim(a):
    input_, spec = a.sim
    r = run([a.spvhls, "sim", input_, "--run", spec, "-o", a.out, "--systemc", "--check-cycles", "--seeds", "1,2",
             "--latency", "1:12", "--ready-prob", "0.6"])
    out = r.stdout
    print("\n".join(l for l in out.splitlines() if not l.startswith("  |")), r.stderr)
    problems = []
    if r.returncode != 0:
        problems.append(f"spvhls sim --systemc exited {r.returncode}")
    if "SystemC bench:" not in out:
        problems.append("the SystemC bench was not used")
    passes = re.findall(r"^PASS ", out, re.M)
    if len(passes) != 3 or re.search(r"^FAIL", out, re.M):
        problems.append(f"expected 3 PASS lines (fixed latency, seeds 1 and 2), got {len(passes)}")
    predicted = re.search(r"^PASS fixed-latency=\d+ no-backpressure cycles=(\d+) \(predicted (\d+)\)$", out, re.M)
    if a.unpredicted:
        if "SKIP cycle check" not in out:
            problems.append("expected the cycle prediction to be skipped")
    elif not predicted or predicted.group(1) != predicted.group(2):
        problems.append("the fixed-latency run did not meet the report's predicted cycles")
    return problems


def build_and_run(sources, include, workdir, top, exe, expect):
    env = dict(os.environ, SYSTEMC_INCLUDE=os.environ.get("SYSTEMC_INCLUDE", "/usr/include"),
               SYSTEMC_LIBDIR=os.environ.get("SYSTEMC_LIBDIR", "/usr/lib/x86_64-linux-gnu"))
    os.makedirs(workdir, exist_ok=True)
    r = run(["verilator", "--sc", "--exe", "--build", "-j", "2", "-Wno-fatal", "--top-module", top,
             "-Mdir", os.path.join(workdir, "obj"), "-CFLAGS", "-I" + include, "-o", exe] + sources, env=env)
    if r.returncode != 0:
        return [f"building {exe} failed:\n{r.stdout[-3000:]}{r.stderr[-3000:]}"]
    r = run([os.path.join(workdir, "obj", exe)])
    print(r.stdout[-2000:], r.stderr[-2000:])
    if r.returncode != 0 or not re.search(expect, r.stdout, re.M):
        return [f"{exe} exited {r.returncode} without a line matching {expect!r}"]
    return []


def check_platform(a):
    out = os.path.join(a.out, "rtl")
    r = run([a.spvhls, "compile", a.platform, "-o", out])
    if r.returncode != 0:
        return [f"spvhls compile failed:\n{r.stderr}"]
    verilog = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".v"))
    problems = build_and_run(verilog + [os.path.join(ROOT, "examples", "systemc", "vadd_platform.cpp")], out,
                             os.path.join(a.out, "worked"), "vadd", "vadd_platform",
                             r"^vadd: 64 of 64 sums correct, done at ")
    problems += build_and_run(verilog + [os.path.join(out, "vadd_sc_main.cpp")], out, os.path.join(a.out, "generated"),
                              "vadd", "vadd_sc_main", r"^done at ")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sim", nargs=2, metavar=("INPUT", "SPEC"))
    ap.add_argument("--unpredicted", action="store_true")
    ap.add_argument("--platform", metavar="VADD_SPV")
    a = ap.parse_args()
    problems = check_sim(a) if a.sim else check_platform(a) if a.platform else ["nothing to check"]
    if problems:
        print("SYSTEMC FAIL:\n" + "\n".join(problems))
        return 1
    print("SYSTEMC PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
