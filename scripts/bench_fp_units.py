#!/usr/bin/env python3
"""Floating-point unit benchmark (issue 12): for every IEEE unit spvhls generates (as the operator
library configures it: the modules `spvhls compile` writes), its latency, its size for a generic
6-LUT FPGA (yosys `synth -flatten -lut 6`: LUTs, flip-flops, and the longest path in LUT levels
between registers, `ltp -noff`), and its Fmax on an iCE40 HX8K from place and route (yosys
`synth_ice40`, nextpnr-ice40; units that do not fit the part are marked so). Each unit is wrapped in a
small shell that shifts its operands in serially and xor-reduces its result into one registered pin,
so that the part's pin count does not limit the width; the shell's registers drive the unit's inputs.
Also the float matrix multiply's simulated cycles against its loops' `trip count x II + depth`.

    bash scripts/setup.sh nextpnr-ice40 fpga-icestorm     # place and route tools (not needed by tests)
    python3 scripts/bench_fp_units.py --spvhls build/spvhls [--no-pnr] [--only fadd_32,fmul_32] [--json out.json]

Prints markdown tables. Not a test: numbers depend on the tools' versions and, for place and route, on
the seed (--seeds, default 1,2,3: the median is reported).
"""
import argparse, glob, json, os, re, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
CLANG = "clang-15"
LLVM_SPIRV = "llvm-spirv-15"

# One kernel per format whose operations instance every unit of that format (and the conversions).
KERNEL = r"""
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void units(global half* h, global float* f, global double* d, global int* i, global long* l) {
  h[0] = h[1] + h[2]; h[3] = h[4] - h[5]; h[6] = h[7] * h[8]; h[9] = h[10] / h[11]; h[12] = sqrt(h[13]);
  f[0] = f[1] + f[2]; f[3] = f[4] - f[5]; f[6] = f[7] * f[8]; f[9] = f[10] / f[11]; f[12] = sqrt(f[13]);
  d[0] = d[1] + d[2]; d[3] = d[4] - d[5]; d[6] = d[7] * d[8]; d[9] = d[10] / d[11]; d[12] = sqrt(d[13]);
  f[14] = fma(f[15], f[16], f[17]); d[14] = fma(d[15], d[16], d[17]); h[14] = fma(h[15], h[16], h[17]);
  f[18] = (float)i[0]; i[1] = convert_int_sat(f[19]); d[18] = (double)f[20]; f[21] = (float)d[19];
  d[20] = (double)l[0]; l[1] = convert_long_sat(d[21]); f[22] = (float)h[18]; h[19] = (half)f[23];
}
"""


def run(cmd, timeout=None, cwd=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout, cwd=cwd)


def unit_files(spvhls, work, kernel=KERNEL):
    """Compiles KERNEL and returns {module name: (file, latency)} of the units it instanced."""
    cl = os.path.join(work, "units.cl")
    open(cl, "w").write(kernel)
    bc, spv, out = (os.path.join(work, n) for n in ("units.bc", "units.spv", "out"))
    for cmd in ([CLANG, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
                 "-no-opaque-pointers", "-O0", "-ffp-contract=off", "-emit-llvm-bc", cl, "-o", bc],
                [LLVM_SPIRV, "--spirv-ext=+all", bc, "-o", spv]):
        r = run(cmd)
        if r.returncode:
            sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout}")
    r = run([spvhls, "compile", spv, "-o", out])
    if r.returncode and "fma" in r.stdout and "fma(" in kernel:
        print("note: this spvhls does not build fma; its units are left out", file=sys.stderr)
        return unit_files(spvhls, work, "\n".join(l for l in kernel.splitlines() if "fma(" not in l))
    if r.returncode:
        sys.exit(f"spvhls compile failed:\n{r.stdout}")
    units = {}
    for f in sorted(glob.glob(os.path.join(out, "spvhls_*.v"))):
        text = open(f).read()
        m = re.search(r"module (\w+)", text)
        lat = re.search(r"latency (\d+)", text)
        units[m.group(1)] = (f, int(lat.group(1)) if lat else None)
    return units


def ports(text):
    """(name, width) of the unit's data inputs and output, from its port list."""
    ins, out = [], None
    for m in re.finditer(r"(input|output) wire (?:\[(\d+):0\] )?(\w+)", text):
        w = int(m.group(2)) + 1 if m.group(2) else 1
        if m.group(3) in ("clk", "en"):
            continue
        if m.group(1) == "input":
            ins.append((m.group(3), w))
        else:
            out = (m.group(3), w)
    return ins, out


def shell(module, text):
    """A wrapper with one serial input and one output pin: operands shift in, the result xor-reduced."""
    ins, (oname, ow) = ports(text)
    total = sum(w for _, w in ins)
    lines = [f"module bench_top (input wire clk, input wire din, output reg dout);",
             f"  reg [{total - 1}:0] sh;", f"  wire [{ow - 1}:0] y;",
             "  always @(posedge clk) begin", f"    sh <= {{sh[{total - 2}:0], din}};" if total > 1 else "    sh <= din;",
             "    dout <= ^y;", "  end"]
    conns, pos = [".clk(clk)", ".en(1'b1)"], 0
    for name, w in ins:
        conns.append(f".{name}(sh[{pos + w - 1}:{pos}])")
        pos += w
    conns.append(f".{oname}(y)")
    lines.append(f"  {module} u ({', '.join(conns)});")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def lut6(f, module, work):
    log = os.path.join(work, f"{module}.lut6.log")
    run(["yosys", "-q", "-p", f"read_verilog {f}; synth -flatten -top {module} -lut 6; tee -q -o {log} stat; "
         f"tee -q -a {log} ltp -noff"], cwd=work)
    text = open(log).read() if os.path.exists(log) else ""
    luts = sum(int(m.group(1)) for m in re.finditer(r"\$lut\s+(\d+)", text))
    ffs = sum(int(m.group(1)) for m in re.finditer(r"\$_S?DFF\w*\s+(\d+)", text))
    levels = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", text)
    return luts, ffs, int(levels.group(1)) if levels else None


def ice40(f, module, work, seeds, timeout):
    """(LUT4s, median Fmax in MHz over the seeds, why there is none) on an HX8K."""
    top = os.path.join(work, f"{module}_top.v")
    open(top, "w").write(shell(module, open(f).read()))
    js = os.path.join(work, f"{module}.json")
    log = os.path.join(work, f"{module}.ice40.log")
    r = run(["yosys", "-q", "-p", f"read_verilog {f} {top}; synth_ice40 -top bench_top -json {js}; tee -q -o {log} stat"],
            cwd=work, timeout=timeout)
    text = open(log).read() if os.path.exists(log) else ""
    cells = sum(int(m.group(1)) for m in re.finditer(r"SB_LUT4\s+(\d+)", text))
    ffs = sum(int(m.group(1)) for m in re.finditer(r"SB_DFF\w*\s+(\d+)", text))
    if r.returncode or max(cells, ffs) > 7680:  # a logic cell holds one LUT4 and one flip-flop
        return cells, None, "does not fit" if max(cells, ffs) > 7680 else "synthesis failed"
    pcf = os.path.join(work, "bench.pcf")
    open(pcf, "w").write("set_io clk J3\nset_io din B1\nset_io dout B2\n")
    fmax, why = [], "place and route failed"
    for seed in seeds:
        try:
            p = run(["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", js, "--pcf", pcf, "--freq", "100",
                     "--seed", str(seed)], cwd=work, timeout=timeout)
        except subprocess.TimeoutExpired:
            why = f"place and route over {timeout} s"
            continue
        found = re.findall(r"Max frequency for clock\s+'[^']*':\s+([\d.]+) MHz", p.stdout)
        if found:
            fmax.append(float(found[-1]))
        elif lcs := re.search(r"of (\d+) ICESTORM_LCs", p.stdout):  # more LUT/FF pairs than the part has
            why = f"does not fit ({int(lcs.group(1)):,} logic cells of 7,680)"
        elif errors := re.findall(r"ERROR: (.*)", p.stdout):
            why = "place and route: " + errors[-1].strip().replace("|", "/")
    return cells, statistics.median(fmax) if fmax else None, why


def matmul(spvhls, work):
    """fmatmul (tests/e2e/regress): simulated cycles with the fixed memory latency against the loops'
    trip counts x II + depth."""
    reg = os.path.join(ROOT, "tests", "e2e", "regress")
    bc, spv, out = (os.path.join(work, n) for n in ("fm.bc", "fm.spv", "fm"))
    run([CLANG, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
         "-no-opaque-pointers", "-O0", "-ffp-contract=off", "-emit-llvm-bc", os.path.join(reg, "fmatmul.cl"), "-o", bc])
    run([LLVM_SPIRV, "--spirv-ext=+all", bc, "-o", spv])
    r = run([spvhls, "sim", spv, "--run", os.path.join(reg, "fmatmul.run.json"), "-o", out, "--check-cycles",
             "--seeds", "1"])
    cyc = re.search(r"PASS fixed-latency=\d+ no-backpressure cycles=(\d+) \(predicted (\d+)\)", r.stdout)
    rep = json.load(open(os.path.join(out, "report.json")))
    loop = rep["loops"][0]
    n = 12  # fmatmul.cl's N: the inner loop runs N times per (i, j), N * N times in all
    inner = n * n * (n * loop["ii"]["achieved"] + loop["iteration_latency"])
    return {"ii": loop["ii"]["achieved"], "depth": loop["iteration_latency"], "invocations": n * n,
            "trip": n, "inner_estimate": inner, "simulated": int(cyc.group(1)) if cyc else None,
            "predicted": int(cyc.group(2)) if cyc else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spvhls", default=os.path.join(ROOT, "build", "spvhls"))
    ap.add_argument("--no-pnr", action="store_true", help="skip place and route (no Fmax)")
    ap.add_argument("--only", help="comma-separated module-name substrings to keep")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per tool run")
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()
    if not args.no_pnr and not shutil.which("nextpnr-ice40"):
        sys.exit("nextpnr-ice40 not found: bash scripts/setup.sh nextpnr-ice40 fpga-icestorm, or --no-pnr")
    work = tempfile.mkdtemp(prefix="bench_fp_units_")
    units = unit_files(os.path.abspath(args.spvhls), work)
    keep = [k for k in (args.only.split(",") if args.only else []) if k]
    rows = []
    print("| unit | latency | LUT6 | FF | LUT levels | iCE40 LUT4 | Fmax iCE40 HX8K (MHz) |")
    print("|---|---|---|---|---|---|---|")
    for module, (f, lat) in sorted(units.items()):
        if keep and not any(k in module for k in keep):
            continue
        luts, ffs, levels = lut6(f, module, work)
        cells, fmax, why = (None, None, "") if args.no_pnr else ice40(
            f, module, work, [int(s) for s in args.seeds.split(",")], args.timeout)
        fm = "-" if args.no_pnr else (f"{fmax:.1f}" if fmax else why)
        print(f"| {module} | {lat} | {luts:,} | {ffs:,} | {levels} | {cells if cells is not None else '-'} | {fm} |",
              flush=True)
        rows.append({"unit": module, "latency": lat, "lut6": luts, "ff": ffs, "levels": levels, "ice40_cells": cells,
                     "fmax_mhz": fmax})
    mm = matmul(os.path.abspath(args.spvhls), work)
    print("\nfmatmul (12 x 12 x 12, tests/e2e/regress/fmatmul.cl): inner loop II {ii}, depth {depth} cycles, "
          "{invocations} invocations of {trip} iterations: trips x II + depth summed = {inner_estimate} cycles; "
          "simulated {simulated} cycles at the fixed memory latency (the report predicted {predicted}; the rest "
          "is the outer loops' FSM steps)".format(**mm))
    if args.json:
        json.dump({"units": rows, "fmatmul": mm}, open(args.json, "w"), indent=2)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
