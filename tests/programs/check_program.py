#!/usr/bin/env python3
"""Whole-program check (issue 11): one self-checking OpenCL C program at one optimisation level.

1. The .spv holds at least --min-instructions SPIR-V instructions (counted from the binary's word
   stream, every instruction of the module), so the program stays as large as the suite claims.
2. `spvhls run`: the golden interpreter's result buffer --result holds 0 in its first element (the
   program's own mismatch count) -- the program's self-check passes.
3. tests/e2e/check_example.py: compile, simulate in Verilator under random memory latency and
   back-pressure bit-exact with the interpreter (every buffer and every program-scope variable), lint,
   yosys's elaboration and netlist checks (the full mapping of a whole program takes tens of minutes; it is
   scripts/bench_programs.py's job).
The native gcc comparison is a separate test (native.program.*).
"""
import argparse, os, re, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK_EXAMPLE = os.path.normpath(os.path.join(HERE, "..", "e2e", "check_example.py"))


def count_instructions(path):
    data = open(path, "rb").read()
    if len(data) < 20 or len(data) % 4:
        raise SystemExit(f"{path}: not a SPIR-V binary")
    words = struct.unpack(f"<{len(data) // 4}I", data)
    if words[0] != 0x07230203:
        raise SystemExit(f"{path}: bad magic {words[0]:#x}")
    pos, count = 5, 0
    while pos < len(words):
        n = words[pos] >> 16
        if n == 0:
            raise SystemExit(f"{path}: zero word count at word {pos}")
        pos += n
        count += 1
    return count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--input", required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--cluster", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--result", default="result", help="the buffer whose first element is the mismatch count")
    ap.add_argument("--min-instructions", type=int, default=0)
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--inline", help="passed on to spvhls sim (auto, always, never)")
    ap.add_argument("--shared-count", type=int, help="the number of shared functions the report must list")
    args = ap.parse_args()
    extra = (["--inline", args.inline] if args.inline else []) + \
        (["--shared-count", str(args.shared_count)] if args.shared_count is not None else [])

    failures = []
    n = count_instructions(args.input)
    print(f"{args.input}: {n} SPIR-V instructions")
    if n < args.min_instructions:
        failures.append(f"{n} SPIR-V instructions, the program is meant to have at least {args.min_instructions}")

    r = subprocess.run([args.spvhls, "run", args.input, "--run", args.spec], text=True, capture_output=True)
    print(r.stdout, r.stderr)
    m = re.search(rf"^{re.escape(args.result)} \([^)]*\): (\S+)", r.stdout, re.M)
    if r.returncode != 0:
        failures.append(f"spvhls run exited {r.returncode}")
    elif not m:
        failures.append(f"spvhls run printed no buffer {args.result}")
    elif int(m.group(1), 0) != 0:
        failures.append(f"the program's self-check failed: {args.result}[0] = {m.group(1)}")

    e = subprocess.run([sys.executable, CHECK_EXAMPLE, "--spvhls", args.spvhls, "--input", args.input,
                        "--spec", args.spec, "--cluster", args.cluster, "--out", args.out, "--no-loop-ok",
                        "--seeds", args.seeds, "--unpredicted-ok"] + extra, text=True,
                       capture_output=True)
    print(e.stdout, e.stderr)
    if e.returncode != 0:
        failures.append("check_example.py failed (above)")

    if failures:
        print("PROGRAM FAIL:\n" + "\n".join(failures))
        return 1
    print("PROGRAM PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
