#!/usr/bin/env python3
"""Random recurrences through memory, to test store forwarding (ir/lower_forward.cpp) and value merging
(ir/lower_gvn.cpp) against the interpreter.

Each kernel has one to three loops, each running up or down over a buffer of a random element type
(char, short, int, long, float) in global memory or in a private array, and storing an element computed
from one it loads one, two or zero elements back (forwarded only at one), sometimes under a
condition, sometimes with a second store to the buffer (nothing forwarded) or a second load. Each is
built with clang-15 -O0 or -O2 + llvm-spirv-15 and run through `spvhls sim --check-cycles` (the RTL
against the interpreter, bit for bit, at fixed latency against the prediction and with random latency
and back-pressure) in a random cluster kind. Prints each kernel's outcome and how many loads were
forwarded, and a summary; exits 1 if any kernel failed (its source is kept in OUT/<seed>/).

    python3 scripts/fuzz_forward.py --spvhls build/spvhls --out /tmp/fuzz_forward --count 40 --seed 1
"""
import argparse, json, os, random, subprocess, sys

LEN = 48  # elements per buffer; loops touch [1, 40]
TYPES = ["char", "short", "int", "long", "float"]


def gen(rng):
    lines = ["kernel void k(global const int* x, global char* bc, global short* bs, global int* bi, "
             "global long* bl, global float* bf, global long* out, int n) {"]
    for l in range(rng.randint(1, 3)):
        t = rng.choice(TYPES)
        private = rng.random() < 0.3
        buf = f"p{l}" if private else {"char": "bc", "short": "bs", "int": "bi", "long": "bl", "float": "bf"}[t]
        if private:
            lines.append(f"  {t} {buf}[{LEN}];")
            lines.append(f"  for (int j = 0; j < {LEN}; ++j) {buf}[j] = ({t})(x[j] * {rng.randint(1, 5)});")
        up = rng.random() < 0.6
        back = rng.choice([1] * 6 + [0, 2])  # how far back the load reads
        src = f"i - {back}" if up else f"i + {back}"
        if back == 0:
            src = "i"
        op = rng.choice(["+", "-", "*", "^"]) if t != "float" else rng.choice(["+", "*"])
        expr = f"{buf}[{src}] {op} ({t})(x[i] {rng.choice(['+', '^'])} i)"
        if t == "float":
            expr = f"{buf}[{src}] {op} 0.5f + (float)x[i]"
        stmt = f"{buf}[i] = {expr};"
        if rng.random() < 0.3:
            stmt = f"if (x[i] & {rng.choice([1, 2, 3])}) {stmt}"
        extra = rng.random()
        if extra < 0.15:
            stmt += f" {buf}[{rng.randint(0, LEN - 1)}] = ({t})i;"  # a second store: nothing forwarded
        elif extra < 0.3:
            stmt += f" out[{l}] += (long){buf}[{src}];"  # a second load of the same bytes
        bound = rng.choice(["n", "40"])
        if up:
            lines.append(f"  for (int i = {max(back, 1)}; i < {bound}; ++i) {{ {stmt} }}")
        else:
            lines.append(f"  for (int i = {bound} - 1 - {back}; i >= 0; --i) {{ {stmt} }}")
        if private:
            lines.append(f"  for (int j = 0; j < {LEN}; ++j) out[4 + j] += (long){buf}[j];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def spec(rng):
    def buf(name, typ, lo, hi, length=LEN):
        init = {"random": {"seed": rng.randint(1, 10**6), "min": lo, "max": hi}}
        return {"name": name, "buffer": {"type": typ, "length": length, "init": init}}
    return {"kernel": "k", "args": [
        buf("x", "i32", -100, 100), buf("bc", "i8", -100, 100), buf("bs", "i16", -1000, 1000),
        buf("bi", "i32", -10**6, 10**6), buf("bl", "i64", -10**9, 10**9), buf("bf", "f32", -3.0, 3.0),
        {"name": "out", "buffer": {"type": "i64", "length": 4 + LEN, "init": "zeros"}},
        {"name": "n", "value": rng.randint(0, 40)}]}


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    spvhls = os.path.abspath(a.spvhls)
    failed, forwardedTotal = [], 0
    for s in range(a.seed, a.seed + a.count):
        rng = random.Random(s)
        d = os.path.join(a.out, str(s))
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, "k.cl"), "w").write(gen(rng))
        json.dump(spec(rng), open(os.path.join(d, "k.run.json"), "w"), indent=1)
        mode = rng.choice(["stall-enable", "stall-free", "auto"])
        opt = rng.choice(["-O0", "-O2"])
        r = run(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
                 "-no-opaque-pointers", opt, "-emit-llvm-bc", "k.cl", "-o", "k.bc"], d)
        if r.returncode == 0:
            r = run(["llvm-spirv-15", "--spirv-ext=+all", "k.bc", "-o", "k.spv"], d)
        if r.returncode != 0:
            print(f"{s}: frontend failed: {r.stderr.strip()[:200]}")
            failed.append(s)
            continue
        r = run([spvhls, "sim", "k.spv", "--run", "k.run.json", "--cluster", mode, "--check-cycles", "--seeds", "1,2",
                 "-o", "out"], d)
        forwarded = merged = 0
        try:
            rep = json.load(open(os.path.join(d, "out", "report.json")))
            forwarded = rep["datapath_optimisations"]["forwarded_loads"]
            merged = rep["datapath_optimisations"]["merged_values"]
        except (OSError, ValueError, KeyError):
            pass
        forwardedTotal += forwarded
        ok = r.returncode == 0 and "sim: " in r.stdout and " 0 failed" in r.stdout
        print(f"{s}: {'pass' if ok else 'FAIL'} ({opt}, {mode}, {forwarded} load(s) forwarded, {merged} value(s) merged)")
        if not ok:
            failed.append(s)
            print((r.stdout + r.stderr)[-1500:])
    print(f"{a.count - len(failed)} of {a.count} passed; {forwardedTotal} load(s) forwarded in all")
    if failed:
        print("failed seeds: " + " ".join(map(str, failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
