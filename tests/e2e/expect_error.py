#!/usr/bin/env python3
"""Runs `spvhls compile` on an input that must be rejected: exit code 1 (a diagnostic, not a crash:
internal errors exit 3 and signals are negative) and every expected text in the message.
With --expect-from-file the expectations are the input's first lines starting with `; expect: `
(text inputs) or the sibling file <input>.expect (binary inputs), one per line."""
import argparse, os, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--spvhls", required=True)
ap.add_argument("--input", required=True)
ap.add_argument("--out", required=True)
ap.add_argument("--expect", action="append", default=[])
ap.add_argument("--expect-from-file", action="store_true")
args = ap.parse_args()

expect = list(args.expect)
if args.expect_from_file:
    side = args.input + ".expect"
    if os.path.exists(side):
        expect += [l.strip() for l in open(side) if l.strip()]
    else:
        for line in open(args.input, errors="replace"):
            if line.startswith("; expect: "):
                expect.append(line[len("; expect: "):].strip())
if not expect:
    print("no expectation given for", args.input)
    sys.exit(1)
r = subprocess.run([args.spvhls, "compile", args.input, "-o", args.out], text=True, capture_output=True)
print(r.stdout, r.stderr)
ok = r.returncode == 1
if not ok:
    print(f"expected exit code 1 (diagnostic), got {r.returncode}")
for e in expect:
    if e not in r.stderr:
        print(f"missing in the diagnostic: {e!r}")
        ok = False
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
