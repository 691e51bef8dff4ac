#!/usr/bin/env python3
"""Random subgroup kernels with loops of their own, to test the lanes of an inner loop
(ir/lower_subgroups.cpp: uniform loops, masked loops) against the interpreter.

Each kernel runs with subgroups of S = 4, 8 or 16 lanes and has one to three loops, some nested, inside
the loop over work-items (a work-item writes only its own elements: no races). A loop's trip count is the same in every lane (the argument n, a constant)
or the lane's own (from the work-item id or from data); some walk a pointer carried per lane; some loops are entered by some lanes only
(`if` on the work-item id or on data) and some leave by a `break` on a lane's value. Bodies accumulate
per-lane loads, loads of an address the same in every lane, a private array's elements, and store to
the lane's own elements. Shuffles and reductions appear only where every lane of the subgroup is
running (OpenCL leaves them undefined elsewhere). Each is built with clang-15 -O0 or -O2 +
llvm-spirv-15 and run through `spvhls sim --check-cycles` (the RTL against the interpreter, bit for
bit, at fixed latency against the prediction and with random latency and back-pressure) in a random
cluster kind. Prints each kernel's outcome and how many of its loops are masked; exits 1 if any kernel
failed (its source is kept in OUT/<seed>/).

    python3 scripts/fuzz_subgroups.py --spvhls build/spvhls --out /tmp/fuzz_sg --count 40 --seed 1
"""
import sys

from fuzz_common import fuzz

LEN = 128  # elements of b (indices are masked to stay below); a has 4 per work-item
drawn = {}  # what gen drew that spec needs (fuzz_common calls gen, then spec)


class Gen:
    def __init__(self, rng, lanes):
        self.rng, self.lanes, self.loops = rng, lanes, 0

    def expr(self, i):
        """A value for lane-by-lane work in a body with induction variable i."""
        r = self.rng
        return r.choice([
            f"b[(g + {i}) & {LEN - 1}]",                 # the lane's own element
            f"b[({i} * 3) & {LEN - 1}]",                 # the same address in every lane
            f"a[g * 4 + (({i} + 1) & 3)]",              # the lane's own elements of a
            f"p[{i} & 3]",
            f"({i} * {r.randint(1, 9)} + (int)l)",
        ])

    def body(self, depth, uniform):
        """Statements of a loop body at nesting `depth`; `uniform`: every lane runs them."""
        r, i = self.rng, f"i{depth}"
        out = []
        for _ in range(r.randint(1, 3)):
            k = r.random()
            if k < 0.35:
                out.append(f"acc {r.choice(['+=', '^=', '-='])} {self.expr(i)};")
            elif k < 0.5:
                out.append(f"p[({i} + acc) & 3] += {self.expr(i)};")
            elif k < 0.6:
                out.append(f"a[g * 4 + ({i} & 3)] = acc + {i};")
            elif k < 0.7 and uniform:
                out.append(f"acc += intel_sub_group_shuffle(acc, (l + {i}) & {self.lanes - 1});")
            elif k < 0.75 and uniform:
                out.append(f"acc += sub_group_reduce_max(acc & 255);")
            elif k < 0.85 and depth < 2:
                out.extend(self.loop(depth + 1, uniform))
            else:
                out.append(f"if (acc {r.choice(['>', '<'])} {r.randint(-200, 200)}) acc = acc / 2 + {i};")
        return out

    def loop(self, depth, uniform):
        """A loop (maybe under a condition), its lines."""
        r, i = self.rng, f"i{depth}"
        self.loops += 1
        bound = r.choice(["n", str(r.randint(1, 5)), "(int)(g % 4)", "(b[g & 127] & 3)"])
        lane_bound = "g" in bound
        guarded = r.random() < 0.3
        brk = r.random() < 0.3
        inner_uniform = uniform and not lane_bound and not guarded and not brk
        lines = []
        if guarded:
            lines.append(f"if ({r.choice(['g & 1', 'b[g & 127] > 0', 'l < 3'])}) {{")
        # A pointer carried per lane (each lane's own start, stepping by 1 or by S elements: its lanes'
        # loads consecutive, aligned when it steps by S); at most 5 iterations keep it inside b. The
        # loop's number (self.loops) names it.
        walk = r.random() < 0.3
        if walk:
            lines.append(f"global const int* q{self.loops} = b + ((g + {r.choice([0, 0, 1])}) & 63);")
        lines.append(f"for (int {i} = 0; {i} < {bound}; ++{i}) {{")
        if walk:
            lines.append(f"acc += *q{self.loops}; q{self.loops} += {r.choice([1, self.lanes])};")
        lines.extend(self.body(depth, inner_uniform))
        if brk:
            lines.append(f"if (acc {r.choice(['>', '<'])} {r.randint(-300, 300)}) break;")
        lines.append("}")
        if guarded:
            lines.append("}")
        return lines


def gen(rng):
    lanes = rng.choice([4, 8, 16])
    drawn["lanes"] = lanes
    g = Gen(rng, lanes)
    lines = ["#pragma OPENCL EXTENSION cl_intel_subgroups : enable",
             f"__attribute__((intel_reqd_sub_group_size({lanes})))",
             "kernel void k(global int* a, global const int* b, global int* out, int n) {",
             "  size_t g = get_global_id(0);",
             "  uint l = get_sub_group_local_id();",
             "  int p[4];",
             "  for (int j = 0; j < 4; ++j) p[j] = b[(g + j) & 127];",
             "  int acc = (int)g;"]
    for _ in range(rng.randint(1, 3)):
        lines.extend("  " + x for x in g.loop(0, True))
    lines.append("  out[g] = acc + p[0] + p[3] + sub_group_reduce_add(acc);")
    lines.append("}")
    return "\n".join(lines) + "\n"


def spec(rng):
    local = rng.choice([16, 32])
    groups = rng.randint(1, 3)
    def buf(name, length, init):
        return {"name": name, "buffer": {"type": "i32", "length": length, "init": init}}
    rand = lambda: {"random": {"seed": rng.randint(1, 10**6), "min": -100, "max": 100}}
    return {"kernel": "k", "args": [
        buf("a", 4 * local * groups, rand()), buf("b", LEN, rand()),
        {"name": "out", "buffer": {"type": "i32", "length": local * groups, "init": "zeros"}},
        {"name": "n", "value": rng.randint(0, 4)}],
        "global_size": [local * groups], "local_size": [local], "subgroup_size": drawn["lanes"]}


def tally(report):
    loops = report["loops"]
    masked = sum(1 for l in loops if l["lanes_masked"])
    return masked, f"{len(loops)} loops, {masked} masked"


if __name__ == "__main__":
    sys.exit(fuzz(gen, spec, tally, "masked loops"))
