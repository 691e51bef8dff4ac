#!/usr/bin/env python3
"""The hand-written yardsticks (examples/handwritten/<kernel>.v) that scripts/bench_handwritten.py
measures the generated hardware against:

1. `verilator --lint-only -Wall` gives no warning, and yosys synthesizes it (generic `synth`);
2. `spvhls sim --rtl` runs it against the interpreter, bit for bit, under random latencies and
   back-pressure, and at the fixed latency without back-pressure it streams: at most
   elements + --slack cycles;
3. the same run on a copy with one operator changed fails: --rtl really simulates the file given.
"""
import argparse, os, re, subprocess, sys


def run(cmd):
    print("+", " ".join(cmd), flush=True)
    return subprocess.run(cmd, text=True, capture_output=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--spv", required=True)
    ap.add_argument("--run", required=True)
    ap.add_argument("--verilog", required=True)
    ap.add_argument("--mutate", required=True, help="FROM=>TO: a change of the Verilog text that breaks it")
    ap.add_argument("--elements", type=int, required=True)
    ap.add_argument("--slack", type=int, default=12)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    top = os.path.splitext(os.path.basename(a.verilog))[0]
    failures = []

    r = run(["verilator", "--lint-only", "-Wall", a.verilog])
    if r.returncode or r.stderr.strip():
        failures.append(f"verilator -Wall:\n{r.stderr}")
    r = run(["yosys", "-q", "-p", f"read_verilog {a.verilog}; synth -top {top}"])
    if r.returncode:
        failures.append(f"yosys synth:\n{r.stdout}{r.stderr}")

    sim = [a.spvhls, "sim", a.spv, "--run", a.run, "--seeds", "1,2,3", "--check-cycles"]
    r = run(sim + ["-o", os.path.join(a.out, "good"), "--rtl", a.verilog])
    print(r.stdout[-3000:])
    if r.returncode or "sim: 4 passed, 0 failed" not in r.stdout:
        failures.append(f"spvhls sim --rtl {a.verilog} did not pass:\n{r.stdout[-2000:]}{r.stderr}")
    m = re.search(r"^PASS fixed-latency=\d+ no-backpressure cycles=(\d+)", r.stdout, re.M)
    if not m:
        failures.append("no fixed-latency run in the output")
    elif int(m.group(1)) > a.elements + a.slack:
        failures.append(f"{m.group(1)} cycles at the fixed latency for {a.elements} elements: it does not stream "
                        f"(at most {a.elements + a.slack})")

    src, dst = a.mutate.split("=>")
    text = open(a.verilog).read()
    if src not in text:
        failures.append(f"the mutation's text '{src}' is not in {a.verilog}")
    else:
        bad = os.path.join(a.out, os.path.basename(a.verilog))
        open(bad, "w").write(text.replace(src, dst, 1))
        r = run(sim + ["-o", os.path.join(a.out, "bad"), "--rtl", bad])
        if r.returncode != 1 or "FAIL" not in r.stdout:
            failures.append(f"the broken copy ({src} -> {dst}) was not caught:\n{r.stdout[-2000:]}{r.stderr}")

    for f in failures:
        print("FAIL", f)
    if not failures:
        print("PASS")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
