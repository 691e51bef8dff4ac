#!/usr/bin/env python3
"""Runs `spvhls compile` on an input the hardware must reject with a clear diagnostic: exit code 1, no
"internal compiler error" text (some internal errors still exit 1 with it), and the message matching
every --expect-re (a Python regular expression, case-insensitive, e.g. "program-scope|global variable"
when the exact wording is not settled)."""
import argparse, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--spvhls", required=True)
ap.add_argument("--input", required=True)
ap.add_argument("--out", required=True)
ap.add_argument("--expect-re", action="append", default=[], required=True)
ap.add_argument("--timeout", type=float, default=120)
args = ap.parse_args()

try:
    r = subprocess.run([args.spvhls, "compile", args.input, "-o", args.out], text=True, capture_output=True,
                       timeout=args.timeout)
except subprocess.TimeoutExpired:
    print(f"FAIL: spvhls compile exceeded {args.timeout} s")
    sys.exit(1)
print(r.stdout, r.stderr)
ok = True
if r.returncode != 1:
    print(f"expected exit code 1 (diagnostic), got {r.returncode}")
    ok = False
if "internal compiler error" in (r.stdout + r.stderr).lower():
    print("the diagnostic is an internal compiler error, expected a clear rejection")
    ok = False
for e in args.expect_re:
    if not re.search(e, r.stderr, re.IGNORECASE):
        print(f"the diagnostic does not match {e!r}")
        ok = False
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
