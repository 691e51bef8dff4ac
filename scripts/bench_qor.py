#!/usr/bin/env python3
"""Quality-of-results benchmark (issue 15): the hardware spvhls generates for the examples and test
kernels, built with every result registered and with operations chained for a clock period: LUTs and
flip-flops of the design alone for a generic 6-LUT FPGA (yosys `synth -flatten -lut 6`), and on an
iCE40 HX8K (yosys `synth_ice40`, nextpnr-ice40; the shell below included): logic cells, flip-flops,
block RAMs and Fmax (median over the seeds), next to the II, the iteration latency and the Fmax the
report estimates (for the generic 6-LUT target's delay table: not the iCE40's, whose LUT4s and routing
are slower).

The generated top module is wrapped in a shell with one serial input and one output pin: its inputs
come from a shift register, its outputs are registered and xor-reduced in a tree with a register
after every 4-input level, so that pins do not limit the design and the shell adds no long path.

    bash scripts/setup.sh nextpnr-ice40 fpga-icestorm     # place and route tools (not needed by tests)
    python3 scripts/bench_qor.py --spvhls build/spvhls --build build [--clocks 0,3.33,5] [--seeds 1,2,3]
        [--datapath-opt on,off] [--only vadd,chain10] [--no-pnr] [--json out.json]

Clock 0 is every result registered (no chaining). --datapath-opt lists the settings of spvhls's
datapath optimisations to build each kernel with (default: on, the compiler's default). Prints a
markdown table. Not a test: numbers depend
on the tools' versions and, for place and route, on the seed.
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))

# (name, input relative to the build directory, the report's loop to quote)
KERNELS = [("vadd", "examples/vadd.spv"), ("dot", "examples/dot.spv"), ("fir", "examples/fir.spv"),
           ("histogram", "examples/histogram.spv"), ("lut", "examples/lut.spv"),
           ("chain10", "loops/chain10_free.spvasm"), ("constdiv", "regress/constdiv.spv"),
           ("imatmul", "regress/imatmul.spv")]


def run(cmd, cwd=None, timeout=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd, timeout=timeout)


def ports(text, module):
    """(direction, name, width) of `module`'s ports, from spvhls's port list."""
    body = text[text.index(f"module {module} ("):]
    body = body[:body.index(");")]
    out = []
    for m in re.finditer(r"(input|output) (?:wire|reg) (?:\[(\d+):0\] )?(\w+)", body):
        out.append((m.group(1), m.group(3), int(m.group(2)) + 1 if m.group(2) else 1))
    return out


def shell(text, module):
    ps = ports(text, module)
    ins = [(n, w) for d, n, w in ps if d == "input" and n != "clk"]
    outs = [(n, w) for d, n, w in ps if d == "output"]
    total_in = max(sum(w for _, w in ins), 2)
    total_out = sum(w for _, w in outs)
    lines = ["module bench_top (input wire clk, input wire din, output wire dout);",
             f"  reg [{total_in - 1}:0] sh;", f"  always @(posedge clk) sh <= {{sh[{total_in - 2}:0], din}};"]
    conns, pos = [".clk(clk)"], 0
    for n, w in ins:
        conns.append(f".{n}(sh[{pos + w - 1}:{pos}])")
        pos += w
    wires = []
    for n, w in outs:
        lines.append(f"  wire [{w - 1}:0] o_{n};")
        conns.append(f".{n}(o_{n})")
        wires.append(f"o_{n}")
    lines.append(f"  {module} dut ({', '.join(conns)});")
    # Registered outputs, then an xor tree of 4-input LUTs with a register after each level.
    lines.append(f"  reg [{total_out - 1}:0] l0;")
    lines.append(f"  always @(posedge clk) l0 <= {{{', '.join(wires)}}};")
    level, width = 0, total_out
    while width > 1:
        nw = (width + 3) // 4
        lines.append(f"  reg [{nw - 1}:0] l{level + 1};")
        lines.append("  integer i%d;" % (level + 1))
        lines.append(f"  always @(posedge clk) for (i{level + 1} = 0; i{level + 1} < {nw}; i{level + 1} = i{level + 1} + 1)")
        lines.append(f"    l{level + 1}[i{level + 1}] <= ^(({{{4 * nw - width}'b0, l{level}}} >> (4 * i{level + 1})) & 4'hf);"
                     if 4 * nw > width else
                     f"    l{level + 1}[i{level + 1}] <= ^((l{level} >> (4 * i{level + 1})) & 4'hf);")
        level, width = level + 1, nw
    lines.append(f"  assign dout = l{level}[0];")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def lut6(files, top, work):
    log = os.path.join(work, "lut6.log")
    run(["yosys", "-q", "-p", f"read_verilog {' '.join(files)}; synth -flatten -top {top} -lut 6; "
         f"tee -q -o {log} stat"], cwd=work, timeout=3600)
    text = open(log).read() if os.path.exists(log) else ""
    luts = sum(int(m.group(1)) for m in re.finditer(r"\$lut\s+(\d+)", text))
    ffs = sum(int(m.group(1)) for m in re.finditer(r"\$_S?DFF\w*\s+(\d+)", text))
    return luts, ffs


def ice40(files, work, seeds):
    js, log = os.path.join(work, "ice40.json"), os.path.join(work, "ice40.log")
    for _ in range(3):  # ABC aborts now and then on a design it maps the next time
        r = run(["yosys", "-q", "-p", f"read_verilog {' '.join(files)}; synth_ice40 -top bench_top -json {js}; "
                 f"tee -q -o {log} stat"], cwd=work, timeout=3600)
        if not r.returncode:
            break
    text = open(log).read() if os.path.exists(log) else ""
    cells = sum(int(m.group(1)) for m in re.finditer(r"SB_LUT4\s+(\d+)", text))
    ffs = sum(int(m.group(1)) for m in re.finditer(r"SB_DFF\w*\s+(\d+)", text))
    brams = sum(int(m.group(1)) for m in re.finditer(r"SB_RAM40_4K\w*\s+(\d+)", text))
    res = {"lut4": cells, "ff": ffs, "bram": brams, "fmax": None, "why": ""}
    if r.returncode:
        res["why"] = "synthesis failed"
        return res
    if max(cells, ffs) > 7680:
        res["why"] = "does not fit"
        return res
    pcf = os.path.join(work, "bench.pcf")
    open(pcf, "w").write("set_io clk J3\nset_io din B1\nset_io dout B2\n")
    fmax = []
    for seed in seeds:
        p = run(["nextpnr-ice40", "--hx8k", "--package", "ct256", "--json", js, "--pcf", pcf, "--freq", "100",
                 "--seed", str(seed)], cwd=work, timeout=3600)
        found = re.findall(r"Max frequency for clock\s+'[^']*':\s+([\d.]+) MHz", p.stdout)
        if found:
            fmax.append(float(found[-1]))
        else:
            res["why"] = "place and route failed"
    res["fmax"] = statistics.median(fmax) if fmax else None
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--build", required=True, help="the build directory (its examples/ and loops/)")
    ap.add_argument("--clocks", default="0,3.33,5")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--datapath-opt", default="on")
    ap.add_argument("--only")
    ap.add_argument("--no-pnr", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    if not a.no_pnr and not shutil.which("nextpnr-ice40"):
        sys.exit("nextpnr-ice40 not found: bash scripts/setup.sh nextpnr-ice40 fpga-icestorm, or --no-pnr")
    seeds = [int(s) for s in a.seeds.split(",")]
    rows = []
    for name, rel in KERNELS:
        if a.only and name not in a.only.split(","):
            continue
        for clock, datapath in [(c, d) for c in a.clocks.split(",") for d in a.datapath_opt.split(",")]:
            work = tempfile.mkdtemp(prefix=f"spvhls-qor-{name}-")
            out = os.path.join(work, "out")
            r = run([a.spvhls, "compile", os.path.join(a.build, rel), "-o", out, "--clock-period", clock,
                     "--datapath-opt", datapath])
            if r.returncode:
                sys.exit(f"spvhls compile {name} --clock-period {clock} --datapath-opt {datapath} failed:\n{r.stdout}")
            rep = json.load(open(os.path.join(out, "report.json")))
            files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".v"))
            top = rep["module"]
            open(os.path.join(work, "bench_top.v"), "w").write(shell(open(os.path.join(out, top + ".v")).read(), top))
            files.append(os.path.join(work, "bench_top.v"))
            row = {"kernel": name, "clock_ns": float(clock), "datapath_opt": datapath}
            loops = rep["loops"]
            row["ii"] = ",".join(str(l["ii"]["achieved"]) for l in loops)
            row["latency"] = ",".join(str(l["iteration_latency"]) for l in loops)
            est = [l["timing"]["estimated_fmax_mhz"] for l in loops] + [rep["fsm_timing"]["estimated_fmax_mhz"]]
            row["estimated_fmax"] = round(min(est), 1)
            row["lut6"], row["ff6"] = lut6(files[:-1], top, work)  # the design alone, its ports as pins
            if not a.no_pnr:
                row["ice40"] = ice40(files, work, seeds)
            rows.append(row)
            print(f"{name} clock {clock}: {row}", file=sys.stderr)
    print("| kernel | clock (ns) | datapath opt | II | iteration latency | estimated Fmax (MHz) | LUT6 | FF | iCE40 LUT4 | iCE40 FF | BRAM | iCE40 Fmax (MHz) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        i = r.get("ice40") or {}
        fmax = f"{i['fmax']:.1f}" if i.get("fmax") else (i.get("why") or "-")
        clock = "registered" if r["clock_ns"] == 0 else f"{r['clock_ns']:g}"
        print(f"| {r['kernel']} | {clock} | {r['datapath_opt']} | {r['ii']} | {r['latency']} | {r['estimated_fmax']} | {r['lut6']:,} | "
              f"{r['ff6']:,} | {i.get('lut4', '-')} | {i.get('ff', '-')} | {i.get('bram', '-')} | {fmax} |")
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
