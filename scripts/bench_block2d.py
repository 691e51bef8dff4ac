#!/usr/bin/env python3
"""2D block copy benchmark (issue 16): tests/bench/block2d/copy2d.spvasm copies a surface of 4-byte
elements tile by tile, each subgroup of 8 lanes one 8 x 8 tile with one OpSubgroup2DBlockLoadINTEL
and one OpSubgroup2DBlockStoreINTEL. Each row of a tile inside the surface is one 32-byte access
(the fast way), so a tile is 8 read beats on `src` and 8 write beats on `dst`.

For each surface (64 elements wide, the given numbers of rows, pitch 256 bytes; every tile inside)
the kernel is simulated at a fixed memory latency without back-pressure (the report's prediction
conditions, `--check-cycles`), in both cluster kinds. The steady state is measured, not assumed:
between two surfaces, the extra cycles per extra tile; one beat per cycle on each port is 8 cycles per
tile. The last rows do the same with the pitch 272 (a multiple of 16 but not of 32, so the pitch is
not aligned to a row's 32 bytes: every tile takes the rows in 16-byte accesses, a loop of one
iteration for the load and one for the store). The same again with
the load transposed (OpSubgroup2DBlockLoadTransposeINTEL: each lane's row of the tile one 32-byte
access of its own, still 8 reads per tile).

    python3 scripts/bench_block2d.py --spvhls build/spvhls [--rows 64,128] [--synth]

`--synth` adds the design's size for a generic 6-LUT FPGA (yosys `synth -flatten -lut 6`; minutes).
Prints a markdown table. Not a test.
"""
import argparse, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
KERNEL = os.path.join(ROOT, "tests", "bench", "block2d", "copy2d.spvasm")
WIDTH = 256  # bytes: 64 elements, 8 tiles


def run(cmd, timeout=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)


def spec(rows, pitch):
    return {"kernel": "copy2d", "args": [
        {"name": "src", "buffer": {"type": "u32", "length": pitch * rows // 4,
                                   "init": {"random": {"seed": 3, "min": 0, "max": 4000000000}}}},
        {"name": "dst", "buffer": {"type": "u32", "length": pitch * rows // 4,
                                   "init": {"random": {"seed": 4, "min": 0, "max": 4000000000}}}},
        {"name": "width", "value": WIDTH}, {"name": "height", "value": rows}, {"name": "pitch", "value": pitch}],
        "global_size": [WIDTH // 4, rows // 8], "local_size": [8, 1], "subgroup_size": 8}


def transposed(work):
    """copy2d.spvasm with its load transposed."""
    text = open(KERNEL).read()
    text = text.replace("OpCapability Subgroup2DBlockIOINTEL\n",
                        "OpCapability Subgroup2DBlockIOINTEL\nOpCapability Subgroup2DBlockTransposeINTEL\n")
    text = text.replace("OpSubgroup2DBlockLoadINTEL", "OpSubgroup2DBlockLoadTransposeINTEL")
    path = os.path.join(work, "copy2d_transposed.spvasm")
    open(path, "w").write(text)
    return path


def simulate(args, work, kernel, rows, pitch, cluster):
    path = os.path.join(work, f"copy{rows}_{pitch}.run.json")
    json.dump(spec(rows, pitch), open(path, "w"))
    out = os.path.join(work, f"out{rows}_{pitch}_{cluster}_{os.path.basename(kernel)}")
    r = run([args.spvhls, "sim", kernel, "--run", path, "-o", out, "--check-cycles", "--seeds", "1",
             "--cluster", cluster])
    if r.returncode != 0:
        sys.exit(f"spvhls sim ({rows} rows, pitch {pitch}, {cluster}) failed:\n{r.stdout}")
    cycles = int(re.search(r"PASS fixed-latency=\d+ no-backpressure cycles=(\d+)", r.stdout).group(1))
    ii = re.findall(r"II: +achieved (\d+)", r.stdout)[-1]  # the loop over work-items is reported last
    return cycles, ii, out


def synth(out):
    files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".v"))
    y = run(["yosys", "-p", "synth -flatten -lut 6 -top copy2d; stat"] + files, timeout=3600)
    last = y.stdout[y.stdout.rfind("=== copy2d ==="):]
    lut = re.findall(r"\$lut\s+(\d+)", last)
    ff = sum(int(n) for n in re.findall(r"\$_(?:S?DFF|DFFE|SDFFE|SDFFCE|DFFSRE?|ALDFFE?)\w*\s+(\d+)", last))
    return (lut[-1] if lut else "?"), ff


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--rows", default="64,128", help="surface heights in rows (multiples of 8), two or more")
    ap.add_argument("--synth", action="store_true")
    args = ap.parse_args()
    heights = [int(x) for x in args.rows.split(",")]
    if len(heights) < 2 or any(h % 8 for h in heights):
        sys.exit("--rows: two or more heights, multiples of 8")
    work = tempfile.mkdtemp(prefix="bench_block2d.")
    print("| load | cluster | pitch | rows | tiles | II | cycles | tile rows per cycle (whole run) |"
          " cycles per extra tile | tile rows per cycle (steady state) | LUT6 | FF |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, kernel in (("plain", KERNEL), ("transposed", transposed(work))):
        for cluster in ("stall-enable", "stall-free"):
            for pitch in (256, 272):
                hs = heights if pitch == 256 else heights[:2]
                last = None
                for h in hs:
                    cycles, ii, out = simulate(args, work, kernel, h, pitch, cluster)
                    tiles = (WIDTH // 32) * (h // 8)
                    slope = steady = "-"
                    if last:
                        per = (cycles - last[1]) / (tiles - last[0])
                        slope, steady = f"{per:.2f}", f"{8 / per:.2f}"
                    luts = ffs = "-"
                    if args.synth and last is None and pitch == 256:
                        luts, ffs = synth(out)
                    print(f"| {name} | {cluster} | {pitch} | {h} | {tiles} | {ii} | {cycles:,} |"
                          f" {8 * tiles / cycles:.2f} | {slope} | {steady} | {luts} | {ffs} |")
                    last = (tiles, cycles)


if __name__ == "__main__":
    main()
