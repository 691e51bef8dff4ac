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
import sys

from fuzz_common import fuzz

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


def tally(report):
    d = report["datapath_optimisations"]
    return d["forwarded_loads"], f"{d['forwarded_loads']} load(s) forwarded, {d['merged_values']} value(s) merged"


if __name__ == "__main__":
    sys.exit(fuzz(gen, spec, tally, "load(s) forwarded"))
