#!/usr/bin/env python3
"""Whole-program benchmark (issue 11): for each SPIR-V input, the SPIR-V instruction count, compile
time (`spvhls compile`, best of --repeat runs, each a fresh process), the compile's peak resident set
size (wait4's rusage of that process), the Verilog it writes (bytes, lines), and what yosys makes of
it for a real FPGA family: `synth_ice40` LUTs (SB_LUT4), flip-flops (SB_DFF*), carry cells and block
RAMs (SB_RAM40_4K, 4 kbit each).

    python3 scripts/bench_programs.py --spvhls build/spvhls [--repeat 3] [--no-yosys] [--json out.json] \\
        [inputs...]            # default: build/programs/*.spv (the whole programs, -O0 and -O2)

Prints a markdown table. Not a test: numbers depend on the machine and its load.
"""
import argparse, glob, json, os, re, shutil, struct, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))


def count_instructions(path):
    data = open(path, "rb").read()
    words = struct.unpack(f"<{len(data) // 4}I", data)
    pos, count = 5, 0
    while pos < len(words) and words[pos] >> 16:
        pos += words[pos] >> 16
        count += 1
    return count


def timed(cmd):
    """Runs cmd; returns (seconds, peak RSS in MB, exit status, stderr)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - t0
    err = p.stderr.read()
    p.stderr.close()
    return seconds, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), err


def yosys_ice40(files, top, log, timeout):
    try:
        r = subprocess.run(["yosys", "-q", "-l", log, "-p",
                            f"read_verilog {' '.join(files)}; synth_ice40 -top {top}; stat"],
                           text=True, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"yosys": f"timeout {timeout} s"}
    if r.returncode != 0:
        return {"yosys": "error: " + " ".join((r.stderr or r.stdout).strip().splitlines()[-1:])}
    text = open(log).read()
    # The last `stat` block is the whole design (synth_ice40 flattens the hierarchy).
    block = text[text.rfind("Number of cells"):]
    cells = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(SB_\w+)\s+(\d+)\s*$", block, re.M)}
    ffs = sum(v for k, v in cells.items() if k.startswith("SB_DFF"))
    rams = cells.get("SB_RAM40_4K", 0)
    return {"lut": cells.get("SB_LUT4", 0), "ff": ffs, "carry": cells.get("SB_CARRY", 0), "ram": rams,
            "ram_bits": rams * 4096}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", default=os.path.join(ROOT, "build", "spvhls"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-yosys", action="store_true")
    ap.add_argument("--yosys-timeout", type=int, default=1800, help="seconds per design")
    ap.add_argument("--json")
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
            s, mb, code, err = timed([args.spvhls, "compile", path, "-o", out])
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
                row.update(yosys_ice40(files, top, os.path.join(out, "yosys.log"), args.yosys_timeout))
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    shutil.rmtree(work, ignore_errors=True)

    cols = ["input", "spirv_instructions", "compile_s", "peak_mb", "verilog_bytes", "verilog_lines"]
    if not args.no_yosys:
        cols += ["lut", "ff", "carry", "ram", "ram_bits", "yosys"]
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
