#!/usr/bin/env python3
"""Whole-program benchmark (issue 11): for each SPIR-V input, the SPIR-V instruction count, compile
time (`spvhls compile`, best of --repeat runs, each a fresh process), the compile's peak resident set
size (GNU time's %M of that process), the Verilog it writes (bytes, lines), and what yosys makes of
it: `synth -lut 6` (a generic 6-LUT FPGA) LUTs and flip-flops of the logic, with the on-chip RAM
modules read as black boxes, and the RAMs' bits counted from their text (`synth_ice40` of one whole
program did not finish in 13 minutes on this machine under load).

    python3 scripts/bench_programs.py --spvhls build/spvhls [--repeat 3] [--no-yosys] [--json out.json] \\
        [--inline auto|always|never] [inputs...]
                               # default: build/programs/*.spv (the whole programs, -O0 and -O2)
    python3 scripts/bench_programs.py --kernel main_kernel build/bench/bundle/bundle.spv
                               # two programs in one kernel, ~7,900 instructions (ninja bench_bundle_spv)

Prints a markdown table. Not a test: numbers depend on the machine and its load.
"""
import argparse, glob, json, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "programs"))
from check_program import count_instructions  # noqa: E402


GNU_TIME = "/usr/bin/time"  # Debian package `time` (scripts/setup.sh)


def timed(cmd):
    """Runs cmd; returns (seconds, peak RSS in MB, exit status, stderr). The peak comes from GNU time,
    which forks the command from its own small process: a child forked from this Python process would
    count Python's resident pages up to its exec (wait4's ru_maxrss read 15-36 MB for a 6 MB compile)."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        t0 = time.perf_counter()
        p = subprocess.run([GNU_TIME, "-f", "%M", "-o", rss.name] + cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        seconds = time.perf_counter() - t0
        kb = rss.read().strip().splitlines()
    peak = float(kb[-1]) / 1024.0 if kb and kb[-1].isdigit() else float("nan")
    return seconds, peak, p.returncode, p.stderr


def ram_bits(files):
    """Bits of the on-chip RAMs: `reg [W-1:0] ram_mem [0:D-1]` in each RAM module."""
    bits = 0
    for f in files:
        for m in re.finditer(r"reg \[(\d+):0\] ram_mem \[0:(\d+)\]", open(f).read()):
            bits += (int(m.group(1)) + 1) * (int(m.group(2)) + 1)
    return bits


def yosys_lut6(files, top, log, timeout):
    """Logic of the design for a generic 6-LUT FPGA (`synth -lut 6`): LUTs and flip-flops, the RAM modules
    read as black boxes (a RAM is a block RAM on any FPGA; its bits are counted from the text)."""
    rams = [f for f in files if re.search(r"_ram\d+\.v$", f)]
    logic = [f for f in files if f not in rams]
    script = f"read_verilog {' '.join(logic)}; "
    if rams:
        script += f"read_verilog -lib {' '.join(rams)}; "
    script += f"synth -top {top} -lut 6; stat"
    try:
        r = subprocess.run(["yosys", "-q", "-l", log, "-p", script], text=True, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"yosys": f"timeout {timeout} s"}
    if r.returncode != 0:
        return {"yosys": "error: " + " ".join((r.stderr or r.stdout).strip().splitlines()[-1:])}
    text = open(log).read()
    # The last `stat` (synth prints one of its own before): it ends with the whole hierarchy's cell counts
    # (instances multiplied out) when there is a hierarchy.
    tail = text[text.rfind("Printing statistics"):]
    if "design hierarchy" in tail:
        tail = tail[tail.find("design hierarchy"):]
    counts = {}
    for m in re.finditer(r"^\s+(\$\w+)\s+(\d+)\s*$", tail, re.M):
        counts[m.group(1)] = int(m.group(2))
    return {"lut6": counts.get("$lut", 0), "ff": sum(v for k, v in counts.items() if "DFF" in k.upper()),
            "ram_modules": len(rams), "ram_bits": ram_bits(rams), "yosys": "ok"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", default=os.path.join(ROOT, "build", "spvhls"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-yosys", action="store_true")
    ap.add_argument("--yosys-timeout", type=int, default=3600, help="seconds per design")
    ap.add_argument("--json")
    ap.add_argument("--kernel", help="the kernel of modules with several (e.g. tests/bench/bundle.cl)")
    ap.add_argument("--inline", help="passed to spvhls compile (auto, always, never: shared functions)")
    ap.add_argument("inputs", nargs="*")
    args = ap.parse_args()
    inputs = args.inputs or sorted(glob.glob(os.path.join(ROOT, "build", "programs", "*.spv")))
    if not inputs:
        sys.exit("no inputs (build the programs first: ninja -C build program_spv)")

    rows = []
    work = tempfile.mkdtemp(prefix="bench_programs.")
    for path in inputs:
        name = os.path.splitext(os.path.basename(path))[0]
        out = os.path.join(work, name)
        row = {"input": name, "spirv_instructions": count_instructions(path)}
        best, peak = None, 0.0
        for _ in range(max(1, args.repeat)):
            shutil.rmtree(out, ignore_errors=True)
            s, mb, code, err = timed([args.spvhls, "compile", path, "-o", out] +
                                     (["--kernel", args.kernel] if args.kernel else []) +
                                     (["--inline", args.inline] if args.inline else []))
            if code != 0:
                row["error"] = err.strip().splitlines()[0] if err.strip() else f"exit {code}"
                break
            best = s if best is None else min(best, s)
            peak = max(peak, mb)
        if "error" not in row:
            files = sorted(glob.glob(os.path.join(out, "*.v")))
            row.update(compile_s=round(best, 3), peak_mb=round(peak, 1),
                       verilog_bytes=sum(os.path.getsize(f) for f in files),
                       verilog_lines=sum(open(f).read().count("\n") for f in files))
            if not args.no_yosys:
                top = json.load(open(os.path.join(out, "report.json")))["module"]
                row.update(yosys_lut6(files, top, os.path.join(out, "yosys.log"), args.yosys_timeout))
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    shutil.rmtree(work, ignore_errors=True)

    cols = ["input", "spirv_instructions", "compile_s", "peak_mb", "verilog_bytes", "verilog_lines"]
    if not args.no_yosys:
        cols += ["lut6", "ff", "ram_modules", "ram_bits", "yosys"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        if "error" in r:
            print(f"| {r['input']} | {r['spirv_instructions']} | error: {r['error']} |")
        else:
            print("| " + " | ".join(str(r.get(c, "")) for c in cols) + " |")
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
