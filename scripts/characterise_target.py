#!/usr/bin/env python3
"""Characterises the combinational delay of the operators spvhls builds inline (the ones the scheduler
may chain within a clock cycle) for a target, and writes the target's delay table (targets/NAME.json),
which the operator library reads (scheduler/operator_library.cpp, docs/scheduling.md).

Each operator at each width is synthesised alone (operands and result as ports) by yosys
`synth -flatten -lut 6` and its longest path counted in LUT levels (`ltp -noff`); the delay is the
levels times the per-level delay (--ns-per-level, default 0.5 ns: a LUT and its local routing on a
6-LUT fabric). The register overhead (clock-to-out and setup, --overhead-ns, default 0.6 ns) is what a
cycle loses besides the logic.

    python3 scripts/characterise_target.py --target generic-6lut-300mhz --spvhls build/spvhls \
        [-o targets/generic-6lut-300mhz.json]

With --spvhls, the pipelined units spvhls instances (dividers, floating-point units, conversions:
the modules a kernel that uses them all compiles to) are characterised too, by their longest path
between registers in LUT levels (`ltp -noff` on the unit alone): a unit's slowest stage, which bounds
the clock and, as the logic before its first register, what may chain into it ("units" in the table).

Operators: the names of ir::OpKind in lower case that the library builds inline.
"""
import argparse, concurrent.futures, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
WIDTHS = [1, 8, 16, 32, 64]

# Verilog of each operator: operands a, b, c (c: the select's condition), result y of width W (or 1).
OPS = {
    "add": ("a + b", 2, "W"), "sub": ("a - b", 2, "W"), "neg": ("-a", 1, "W"),
    "not": ("~a", 1, "W"), "and": ("a & b", 2, "W"), "or": ("a | b", 2, "W"), "xor": ("a ^ b", 2, "W"),
    "select": ("c ? a : b", 2, "W"),
    "shl": ("a << b", 2, "W"), "lshr": ("a >> b", 2, "W"), "ashr": ("$signed(a) >>> b", 2, "W"),
    "eq": ("a == b", 2, "1"), "ne": ("a != b", 2, "1"),
    "ult": ("a < b", 2, "1"), "ule": ("a <= b", 2, "1"),
    "slt": ("$signed(a) < $signed(b)", 2, "1"), "sle": ("$signed(a) <= $signed(b)", 2, "1"),
    "mul": ("a * b", 2, "W"),
}


def run(cmd, cwd, timeout=600):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd, timeout=timeout)


def combinational(op, w):
    """The operator alone, operands and result as ports: ltp then counts its LUTs on the longest path."""
    expr, nops, yw = OPS[op]
    yw = w if yw == "W" else 1
    ins = [f"input wire [{w - 1}:0] a"] + ([f"input wire [{w - 1}:0] b"] if nops > 1 else [])
    ins += ["input wire c"] if op == "select" else []
    return (f"module top ({', '.join(ins)}, output wire [{yw - 1}:0] y);\n  assign y = {expr};\nendmodule\n")


def lut6_levels(op, w, work):
    d = tempfile.mkdtemp(dir=work)
    open(os.path.join(d, "t.v"), "w").write(combinational(op, w))
    r = run(["yosys", "-q", "-p", "read_verilog t.v; synth -flatten -top top -lut 6; tee -q -o ltp.log ltp -noff"], d)
    text = open(os.path.join(d, "ltp.log")).read() if os.path.exists(os.path.join(d, "ltp.log")) else r.stdout
    m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", text)
    if not m:
        sys.exit(f"yosys gave no longest path for {op} {w}:\n{r.stdout}")
    return int(m.group(1))


# One kernel whose operations instance every pipelined unit: scripts/bench_fp_units.py's floating-point
# kernel, the integer dividers and multipliers at 32 and 64 bits.
sys.path.insert(0, HERE)
from bench_fp_units import KERNEL as FP_KERNEL  # noqa: E402

UNITS_KERNEL = FP_KERNEL.rstrip()[:-1] + r"""
  i[2] = i[3] / i[4]; i[5] = i[6] % i[7]; l[2] = l[3] / l[4]; l[5] = l[6] % l[7];
  i[8] = (int)((uint)i[9] / (uint)i[10]); l[8] = (long)((ulong)l[9] % (ulong)l[10]);
  i[11] = i[12] * i[13]; l[11] = l[12] * l[13];
}
"""


def unit_levels(spvhls, work, jobs):
    """{unit module: LUT levels of its slowest stage}, from a kernel that instances them all."""
    d = tempfile.mkdtemp(dir=work)
    cl, bc, spv, out = (os.path.join(d, n) for n in ("units.cl", "units.bc", "units.spv", "out"))
    open(cl, "w").write(UNITS_KERNEL)
    for cmd in (["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
                 "-no-opaque-pointers", "-O0", "-ffp-contract=off", "-emit-llvm-bc", cl, "-o", bc],
                ["llvm-spirv-15", "--spirv-ext=+all", bc, "-o", spv], [spvhls, "compile", spv, "-o", out]):
        r = run(cmd, d)
        if r.returncode:
            sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout}")
    files = sorted(f for f in os.listdir(out) if f.startswith("spvhls_") and f.endswith(".v"))

    def levels(f):
        m = f[:-2]
        log = os.path.join(d, m + ".ltp")
        run(["yosys", "-q", "-p", f"read_verilog {f}; synth -flatten -top {m} -lut 6; tee -q -o {log} ltp -noff"], out,
            timeout=3600)
        found = re.search(r"length=(\d+)", open(log).read() if os.path.exists(log) else "")
        if not found:
            sys.exit(f"yosys gave no longest path for unit {m}")
        return m, int(found.group(1))

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        return dict(ex.map(levels, files))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", required=True, choices=["generic-6lut-300mhz"])
    ap.add_argument("-o", "--output")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ns-per-level", type=float, default=0.5)
    ap.add_argument("--overhead-ns", type=float, default=0.6)
    ap.add_argument("--ops", help="comma-separated subset (default: all)")
    ap.add_argument("--spvhls", help="also characterise the pipelined units this compiler generates")
    a = ap.parse_args()
    out = a.output or os.path.join(ROOT, "targets", a.target + ".json")
    ops = a.ops.split(",") if a.ops else list(OPS)
    work = tempfile.mkdtemp(prefix="spvhls-char-")
    jobs = [(op, w) for op in ops for w in WIDTHS if not (op in ("select", "shl", "lshr", "ashr", "mul", "neg") and w == 1)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        results = dict(zip(jobs, ex.map(lambda j: lut6_levels(*j, work), jobs)))
    table = {}
    overhead, how = a.overhead_ns, f"yosys synth -lut 6, ltp -noff: LUT levels x {a.ns_per_level} ns"
    for (op, w), levels in results.items():
        table.setdefault(op, {})[str(w)] = round(levels * a.ns_per_level, 3)
    doc = {"target": a.target, "method": how, "register_overhead_ns": overhead,
           "widths": WIDTHS, "delay_ns": table}
    if a.spvhls:
        doc["unit_stage_ns"] = {m: round(l * a.ns_per_level, 3) for m, l in sorted(unit_levels(a.spvhls, work, a.jobs).items())}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
