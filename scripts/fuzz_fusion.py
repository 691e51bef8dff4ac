#!/usr/bin/env python3
"""Random kernels of adjacent loops, to test loop fusion (ir/lower_loop_fusion.cpp) against the interpreter.

Each kernel has two to four loops in a row over four int buffers, with random bounds (the same or
not), start values, accesses at i, i + 1, i + k (k an argument) or a fixed element, sums read after a loop or by the next
loop, and code between the loops (a store, a pure computation, nothing). Each is built with clang-15
-O0 or -O2 + llvm-spirv-15 and run through `spvhls sim --check-cycles` (the RTL against the interpreter, bit
for bit, at fixed latency against the prediction and with random latency and back-pressure) in a
random cluster kind. Prints each kernel's outcome and how many loop pairs were fused, and a summary;
exits 1 if any kernel failed (its source is kept in OUT/<seed>/).

    python3 scripts/fuzz_fusion.py --spvhls build/spvhls --out /tmp/fuzz_fusion --count 40 --seed 1
"""
import sys

from fuzz_common import fuzz

BUFS = ["a", "b", "c", "d"]
LEN = 40  # elements per buffer: bounds stay below 32, accesses at most i + 1


def gen(rng):
    loops = rng.randint(2, 4)
    lines = ["kernel void k(global int* a, global int* b, global int* c, global int* d, global int* out, "
             "int n, int m, int k) {"]
    sums = []
    for l in range(loops):
        start = rng.choice(["0"] * 6 + ["1"])
        bound = rng.choice(["n"] * 6 + ["m", "n - 1"])
        acc = f"s{l}"
        lines.append(f"  int {acc} = {rng.randint(-3, 3)};")
        body = []
        for _ in range(rng.randint(1, 3)):
            dst, src = rng.choice(BUFS), rng.choice(BUFS)
            idx = rng.choice(["i"] * 5 + ["i + 1", "3", "i + k"])
            sidx = rng.choice(["i"] * 5 + ["i + 1", "2", "i + k"])
            kind = rng.random()
            if kind < 0.45:
                body.append(f"{dst}[{idx}] = {src}[{sidx}] * {rng.randint(1, 5)} + i;")
            elif kind < 0.75:
                body.append(f"{acc} += {src}[{sidx}] ^ i;")
            elif kind < 0.8 and sums:
                body.append(f"{dst}[{idx}] = {src}[{sidx}] + {rng.choice(sums)};")
            else:
                body.append(f"if ({src}[{sidx}] > 0) {dst}[{idx}] = i;")
        lines.append(f"  for (int i = {start}; i < {bound}; ++i) {{ " + " ".join(body) + " }")
        sums.append(acc)
        between = rng.random()
        if between < 0.15:
            lines.append(f"  out[{l}] = {acc};")
        elif between < 0.3:
            lines.append(f"  {acc} = {acc} * 3 + 1;")
    for l, s in enumerate(sums):
        lines.append(f"  out[{4 + l}] = {s};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def spec(rng):
    def buf(name):
        return {"name": name, "buffer": {"type": "i32", "length": LEN,
                                         "init": {"random": {"seed": rng.randint(1, 10**6), "min": -50, "max": 50}}}}
    n = rng.randint(0, 30)
    m = rng.choice([n, n, rng.randint(0, 30)])
    return {"kernel": "k", "args": [buf(b) for b in BUFS] +
            [{"name": "out", "buffer": {"type": "i32", "length": 8, "init": "zeros"}},
             {"name": "n", "value": n}, {"name": "m", "value": m}, {"name": "k", "value": rng.randint(0, 3)}]}


def tally(report):
    fused = sum(1 for t in report["loop_transforms"] if t["control"] == "fusion")
    return fused, f"{fused} pair(s) fused"


if __name__ == "__main__":
    sys.exit(fuzz(gen, spec, tally, "loop pairs fused"))
