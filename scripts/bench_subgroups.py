#!/usr/bin/env python3
"""Subgroup lanes benchmark (issue 16): one kernel with shuffles and a reduction
(tests/bench/subgroups/lanes.cl) built with S = 1, 8 and 16 lanes per iteration of the loop over
work-items (`--subgroup-size`), simulated at a fixed memory latency without back-pressure (the
report's prediction conditions) over 4,096 work-items: the II, the cycles, work-items per cycle, and
the design's size for a generic 6-LUT FPGA (yosys `synth -flatten -lut 6`; `--no-synth` leaves it
out, it takes minutes at 16 lanes).

    python3 scripts/bench_subgroups.py --spvhls build/spvhls [--lanes 1,8,16] [--no-synth]

Prints a markdown table. Not a test.
"""
import argparse, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
SRC = os.path.join(ROOT, "tests", "bench", "subgroups")


def run(cmd, timeout=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--lanes", default="1,8,16")
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--llvm-spirv", default="llvm-spirv-15")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="bench_subgroups.")
    bc, spv = os.path.join(work, "lanes.bc"), os.path.join(work, "lanes.spv")
    for cmd in ([args.clang, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
                 "-no-opaque-pointers", "-O0", "-ffp-contract=off", "-emit-llvm-bc", os.path.join(SRC, "lanes.cl"),
                 "-o", bc], [args.llvm_spirv, "--spirv-ext=+all", bc, "-o", spv]):
        r = run(cmd)
        if r.returncode != 0:
            sys.exit(f"{' '.join(cmd)}:\n{r.stdout}")
    spec = json.load(open(os.path.join(SRC, "lanes.run.json")))
    items = spec["global_size"][0]
    rows = []
    for lanes in [int(x) for x in args.lanes.split(",")]:
        spec["subgroup_size"] = lanes
        spec_path = os.path.join(work, f"lanes{lanes}.run.json")
        json.dump(spec, open(spec_path, "w"))
        out = os.path.join(work, f"s{lanes}")
        r = run([args.spvhls, "sim", spv, "--run", spec_path, "--subgroup-size", str(lanes), "-o", out,
                 "--check-cycles", "--seeds", "1", "--cluster", "stall-enable"])
        if r.returncode != 0:
            sys.exit(f"spvhls sim at {lanes} lanes failed:\n{r.stdout}")
        ii = re.search(r"II: +achieved (\d+)", r.stdout).group(1)
        m = re.search(r"PASS fixed-latency=\d+ no-backpressure cycles=(\d+)", r.stdout)
        cycles = int(m.group(1))
        luts = ffs = "-"
        if not args.no_synth:
            files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".v"))
            y = run(["yosys", "-p", "synth -flatten -lut 6 -top lanes; stat"] + files, timeout=3600)
            last = y.stdout[y.stdout.rfind("=== lanes ==="):]  # the final stat (synth prints its own too)
            lut = re.findall(r"\$lut\s+(\d+)", last)
            ff = sum(int(n) for n in re.findall(r"\$_(?:S?DFF|DFFE|SDFFE|SDFFCE|DFFSRE?|ALDFFE?)\w*\s+(\d+)", last))
            luts, ffs = (lut[-1] if lut else "?"), ff
        rows.append((lanes, ii, cycles, items / cycles, luts, ffs))
    print("| lanes | II | cycles | work-items per cycle | LUT6 | FF |")
    print("|---|---|---|---|---|---|")
    for lanes, ii, cycles, rate, luts, ffs in rows:
        print(f"| {lanes} | {ii} | {cycles:,} | {rate:.2f} | {luts} | {ffs} |")


if __name__ == "__main__":
    main()
