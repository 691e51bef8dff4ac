#!/usr/bin/env python3
"""Generated against hand-written hardware (issue 15): vadd and dot as spvhls builds them next to
examples/handwritten/{vadd,dot}.v, the obvious streaming pipelines on the same kernel interface.

Both are first simulated against the interpreter (`spvhls sim --rtl` for the hand-written ones, on a
run spec of --elements elements), which gives the cycles: at the memory latency the compiler assumes
(4) without back-pressure, and at each latency of --latencies, fixed, without back-pressure. Then
area and speed, each design alone: LUTs and flip-flops for a generic 6-LUT FPGA (yosys `synth
-flatten -lut 6`; memories become flip-flops), iCE40 LUT4s, flip-flops and block RAMs (`synth_ice40`),
and the Fmax of nextpnr-ice40 on an HX8K inside bench_qor.py's pin shell (median over --seeds).

    bash scripts/setup.sh nextpnr-ice40 fpga-icestorm     # place and route tools (not needed by tests)
    python3 scripts/bench_handwritten.py --spvhls build/spvhls --build build [--elements 4096]
        [--latencies 8,16] [--seeds 1,2,3] [--clock-period 0] [--no-pnr] [--json out.json]

Prints a markdown table and, per kernel, the generated design's ratios to the hand-written one. Not a
test: the numbers depend on the tools' versions and on the place-and-route seed.
"""
import argparse, json, os, re, shutil, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from bench_qor import ice40, lut6, run, shell  # noqa: E402

KERNELS = ["vadd", "dot"]


def run_spec(kernel, elements, path):
    """n random elements in a and b (the examples' specs, longer)."""
    outs = [{"name": "c", "buffer": {"type": "i32", "length": elements, "init": "zeros"}}] if kernel == "vadd" else \
        [{"name": "out", "buffer": {"type": "i32", "length": 1, "init": "zeros"}}]
    spec = {"kernel": kernel, "args": [
        {"name": "a", "buffer": {"type": "i32", "length": elements, "init": {"random": {"seed": 1, "min": -1000, "max": 1000}}}},
        {"name": "b", "buffer": {"type": "i32", "length": elements, "init": {"random": {"seed": 2, "min": -1000, "max": 1000}}}},
        *outs, {"name": "n", "value": elements}]}
    json.dump(spec, open(path, "w"))


def cycles(spvhls, spv, spec, work, rtl, latencies, clock):
    """{latency: cycles} of bit-exact runs without back-pressure; exits on a mismatch."""
    out = {}
    for lat in [None] + latencies:
        cmd = [spvhls, "sim", spv, "--run", spec, "-o", os.path.join(work, "sim"), "--clock-period", clock]
        cmd += ["--rtl", rtl] if rtl else []
        cmd += ["--check-cycles", "--seeds", "1", "--latency", "4:4"] if lat is None else \
            ["--seeds", "1", "--latency", f"{lat}:{lat}", "--ready-prob", "1"]
        r = run(cmd)
        if r.returncode:
            sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout}")
        found = re.findall(r"^PASS (?:fixed-latency=4|seed=1) .*?cycles=(\d+)", r.stdout, re.M)
        out[4 if lat is None else lat] = int(found[0])
    return out


def ice40_alone(files, top, work):
    """(LUT4, FF, BRAM) of `top` alone, its ports as pins."""
    log = os.path.join(work, f"ice40_{top}.log")
    run(["yosys", "-q", "-p", f"read_verilog {' '.join(files)}; synth_ice40 -top {top}; tee -q -o {log} stat"],
        cwd=work, timeout=3600)
    text = open(log).read() if os.path.exists(log) else ""
    count = lambda pat: sum(int(m.group(1)) for m in re.finditer(pat + r"\s+(\d+)", text))
    return count(r"SB_LUT4"), count(r"SB_DFF\w*"), count(r"SB_RAM40_4K\w*")


def fmax(files, top, work, seeds):
    """nextpnr-ice40 Fmax of `top` in bench_qor.py's pin shell (its synthesis and place and route)."""
    shell_file = os.path.join(work, "bench_top.v")
    open(shell_file, "w").write(shell("".join(open(f).read() for f in files), top))
    return ice40(files + [shell_file], work, seeds)["fmax"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--build", required=True, help="the build directory (its examples/)")
    ap.add_argument("--elements", type=int, default=4096)
    ap.add_argument("--latencies", default="8,16")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--clock-period", default="0", help="spvhls's --clock-period for the generated designs")
    ap.add_argument("--only")
    ap.add_argument("--no-pnr", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    if not a.no_pnr and not shutil.which("nextpnr-ice40"):
        sys.exit("nextpnr-ice40 not found: bash scripts/setup.sh nextpnr-ice40 fpga-icestorm, or --no-pnr")
    latencies = [int(x) for x in a.latencies.split(",") if x]
    seeds = [int(s) for s in a.seeds.split(",")]
    rows = []
    for k in KERNELS:
        if a.only and k not in a.only.split(","):
            continue
        spv = os.path.join(a.build, "examples", k + ".spv")
        for design in ["generated", "hand-written"]:
            work = tempfile.mkdtemp(prefix=f"spvhls-hand-{k}-")
            spec = os.path.join(work, "run.json")
            run_spec(k, a.elements, spec)
            if design == "generated":
                out = os.path.join(work, "out")
                r = run([a.spvhls, "compile", spv, "-o", out, "--clock-period", a.clock_period])
                if r.returncode:
                    sys.exit(f"spvhls compile {k} failed:\n{r.stdout}")
                files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".v"))
                rtl = None
            else:
                files = [os.path.join(ROOT, "examples", "handwritten", k + ".v")]
                rtl = files[0]
            row = {"kernel": k, "design": design, "cycles": cycles(a.spvhls, spv, spec, work, rtl, latencies, a.clock_period)}
            row["lut6"], row["ff6"] = lut6(files, k, work)
            row["lut4"], row["ff4"], row["bram"] = ice40_alone(files, k, work)
            row["fmax"] = None if a.no_pnr else fmax(files, k, work, seeds)
            rows.append(row)
            print(f"{k} {design}: {row}", file=sys.stderr)
    lats = [4] + latencies
    print(f"| kernel | design | LUT6 | FF | iCE40 LUT4 | iCE40 FF | BRAM | iCE40 Fmax (MHz) | "
          + " | ".join(f"cycles, latency {l}" for l in lats) + " |")
    print("|---|---|---|---|---|---|---|---|" + "---|" * len(lats))
    for r in rows:
        f = f"{r['fmax']:.1f}" if r["fmax"] else "-"
        print(f"| {r['kernel']} | {r['design']} | {r['lut6']:,} | {r['ff6']:,} | {r['lut4']:,} | {r['ff4']:,} | {r['bram']} | {f} | "
              + " | ".join(f"{r['cycles'][l]:,}" for l in lats) + " |")
    print()
    for k in KERNELS:
        g = next((r for r in rows if r["kernel"] == k and r["design"] == "generated"), None)
        h = next((r for r in rows if r["kernel"] == k and r["design"] == "hand-written"), None)
        if not g or not h:
            continue
        ratio = lambda key: f"{g[key] / h[key]:.2f}x" if h[key] else "-"
        print(f"{k}: generated / hand-written: LUT6 {ratio('lut6')}, FF {ratio('ff6')}, iCE40 LUT4 {ratio('lut4')}, "
              f"iCE40 FF {ratio('ff4')}, cycles " + ", ".join(f"{g['cycles'][l] / h['cycles'][l]:.3f}x at latency {l}" for l in lats))
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
