#!/usr/bin/env python3
"""What the hardware of every e2e kernel achieves, as comparable text: per kernel and cluster mode, the
report's IIs, latencies, cluster kinds, FIFO depths, predicted cycles and FSM block lengths, and the
simulated cycle counts (fixed latency and seeded random stalls). A refactoring of the back end that must
not change the hardware (issue 10) is checked by diffing two snapshots:

    python3 scripts/results_snapshot.py --build build > /tmp/before.txt   # on the old tree
    python3 scripts/results_snapshot.py --build build > /tmp/after.txt    # on the new tree
    diff /tmp/before.txt /tmp/after.txt
"""
import argparse, glob, os, re, subprocess, sys, tempfile

KEEP = re.compile(r"^\s*(loop '|pipelined:|II:|latency:|clusters:|positions|load .*FIFO|exit FIFO|predicted cycles:|"
                  r"FSM:|PASS|FAIL|SKIP|sim:)|^\s+\S+\s+\d+ cycle\(s\)")


def kernels(root, build):
    ex = os.path.join(root, "examples")
    out = []
    for stem in ["vadd", "dot", "fir", "histogram", "lut"]:
        out.append((stem, os.path.join(build, "examples", stem + ".spv"), os.path.join(ex, stem + ".run.json")))
    for stem in ["ii4", "nopipe"]:
        out.append((stem, os.path.join(ex, stem + ".spvasm"), os.path.join(ex, stem + ".run.json")))
    reg = os.path.join(root, "tests", "e2e", "regress")
    for spv in sorted(glob.glob(os.path.join(build, "regress", "*.spv"))):
        stem = os.path.basename(spv)[:-4]
        spec = os.path.join(reg, stem + ".run.json")
        out.append((stem, spv, spec if os.path.exists(spec) else os.path.join(reg, "r4.run.json")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--only", help="regular expression: only kernels whose name matches")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spvhls = os.path.join(args.build, "spvhls")
    with tempfile.TemporaryDirectory() as tmp:
        for stem, inp, spec in kernels(root, args.build):
            if args.only and not re.search(args.only, stem):
                continue
            for mode in ["stall-free", "stall-enable"]:
                r = subprocess.run([spvhls, "sim", inp, "--run", spec, "--cluster", mode, "-o",
                                    os.path.join(tmp, stem + mode), "--seeds", args.seeds, "--latency", "1:12",
                                    "--ready-prob", "0.6", "--check-cycles"], text=True, capture_output=True)
                print(f"== {stem} {mode} (exit {r.returncode})")
                for line in r.stdout.splitlines():
                    if KEEP.search(line):
                        print("  " + line.strip())
                if r.returncode != 0:
                    print("  stderr: " + r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "  (no stderr)")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
