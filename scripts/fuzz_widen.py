#!/usr/bin/env python3
"""Random unrolled bodies, to test wide accesses (ir/lower_widen.cpp) against the interpreter.

Each kernel has one or two loops over blocks of K elements (K = 2, 4 or 8, an inner loop fully
unrolled) of buffers of one element type (char, short, int, long, float). Each unrolled copy k runs
two to four statements drawn from: a load of element K*i + k (+ a small offset, which may break the
alignment), a store of a value computed from the loads to K*i + k or to another element of the block
(K*i + (k + r) % K: the copies read and write each other's elements, so the order of loads and stores
matters), an update in place, a store under a condition on loaded data, a store to a second buffer.
Half the loops add a run-time multiple of K to the block's index, after the copy's constant (T is then
a sum of two values).
Half the kernels work on an on-chip copy of a instead (a private or local array filled from a before
the loops and copied back after them), whose RAM's words are as wide as its widest access.
Each is built with clang-15 -O0 or -O2 + llvm-spirv-15 and run through `spvhls sim --check-cycles`
(the RTL against the interpreter, bit for bit, at fixed latency against the prediction and with
random latency and back-pressure) in a random cluster kind. Prints each kernel's outcome and how many
accesses became wide ones, and a summary; exits 1 if any kernel failed (its source is kept in
OUT/<seed>/).

    python3 scripts/fuzz_widen.py --spvhls build/spvhls --out /tmp/fuzz_widen --count 40 --seed 1
"""
import sys

from fuzz_common import fuzz

BLOCKS = 6  # blocks of K elements each buffer holds (plus K spare elements for offsets)
TYPES = {"char": ("i8", -100, 100), "short": ("i16", -1000, 1000), "int": ("i32", -10**6, 10**6),
         "long": ("i64", -10**9, 10**9), "float": ("f32", -3.0, 3.0)}


def gen(rng):
    t = rng.choice(list(TYPES))
    lines = [f"kernel void k(global {t}* a, global {t}* b, global const int* x, int n) {{"]
    elements = (BLOCKS + 1) * 8  # a's elements of the widest type; every index stays below
    onchip = rng.random() < 0.5
    if onchip:
        lines.append(f"  {rng.choice(['', 'local '])}{t} p[{elements}];")
        lines.append(f"  for (int j = 0; j < {elements}; ++j) p[j] = a[j];")
    for l in range(rng.randint(1, 2)):
        K = rng.choice([2, 4, 4, 8])
        # Element `e` of the block, e = k + something: K * i + e, or m + (K * i + e) with m 0 or K
        # from data (the copy's constant is added before the sum of two values).
        at = lambda e: f"{K} * i + {e}"
        if rng.random() < 0.5:
            lines.append(f"  int m{l} = (x[{BLOCKS}] & 1) ? {K} : 0;")
            at = lambda e, l=l: f"m{l} + ({K} * i + {e})"
        body = []
        for s in range(rng.randint(2, 4)):
            kind = rng.random()
            off = rng.choice([0, 0, 0, 1, K])
            src = f"a[{at(f'k + {off}')}]"
            val = f"({t})({src} {rng.choice(['+', '*'])} ({t})(k + {rng.randint(1, 9)}))"
            if t != "float" and rng.random() < 0.4:
                val = f"({t})({src} ^ ({t})x[i])"
            if kind < 0.3:
                body.append(f"a[{at('k')}] = {val};")
            elif kind < 0.5:
                r = rng.randint(1, K - 1)
                body.append(f"a[{at(f'(k + {r}) % {K}')}] = {val};")
            elif kind < 0.65:
                body.append(f"a[{at('k')}] += ({t})(k + 1);")
            elif kind < 0.8:
                body.append(f"if (x[i] > {rng.randint(-50, 50)}) b[{at('k')}] = {val};")
            else:
                body.append(f"b[{at('k')}] = {val};")
        bound = rng.choice(["n", str(BLOCKS - 1)])
        lines.append(f"  for (int i = 0; i < {bound}; ++i) {{")
        lines.append("#pragma unroll")
        text = ' '.join(body)
        lines.append(f"    for (int k = 0; k < {K}; ++k) {{ {text.replace('a[', 'p[') if onchip else text} }}")
        lines.append("  }")
    if onchip:
        lines.append(f"  for (int j = 0; j < {elements}; ++j) a[j] = p[j];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def spec(rng):
    # The element type is read back from the source by the caller's seed: one spec serves every type
    # (buffers of 8-byte elements are read as the kernel's type, the bytes random).
    length = (BLOCKS + 1) * 8 * 8  # bytes: BLOCKS + 1 blocks of up to 8 elements of up to 8 bytes
    def buf(name):
        return {"name": name, "buffer": {"type": "i8", "length": length,
                                         "init": {"random": {"seed": rng.randint(1, 10**6), "min": -100, "max": 100}}}}
    return {"kernel": "k", "args": [
        buf("a"), buf("b"),
        {"name": "x", "buffer": {"type": "i32", "length": BLOCKS + 1,
                                 "init": {"random": {"seed": rng.randint(1, 10**6), "min": -100, "max": 100}}}},
        {"name": "n", "value": rng.randint(0, BLOCKS - 1)}]}


def tally(report):
    d = report["datapath_optimisations"]
    return d["widened_accesses"], f"{d['widened_accesses']} access(es) into {d['wide_accesses']} wide one(s)"


if __name__ == "__main__":
    sys.exit(fuzz(gen, spec, tally, "access(es) made wide"))
