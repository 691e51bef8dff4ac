#!/usr/bin/env python3
"""End-to-end check of one example in one cluster mode.

1. `spvhls sim`: compile to Verilog, run the golden interpreter, simulate the RTL in Verilator with
   several seeds of random memory latency and back-pressure, compare every buffer bit for bit, and
   (--check-cycles) compare the cycle count with the report's prediction at fixed latency.
2. The report's II (and pipelining) for the first loop matches what the example is meant to show.
3. The generated text keeps the generator's rules (bounded lines, no part-select of a literal), and
   `verilator --lint-only -Wall` on it gives no warning at all.
4. yosys elaborates it with its netlist checks as errors (--yosys-full: the
   generic `synth`, mapped to gates).
"""
import argparse, glob, json, os, re, subprocess, sys, time


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    start = time.monotonic()
    r = subprocess.run(cmd, text=True, capture_output=True, **kw)
    print(f"  ({cmd[1] if cmd[0].endswith('spvhls') else os.path.basename(cmd[0])}: {time.monotonic() - start:.1f} s)", flush=True)
    return r


# The generator's own rules for its text (rtlgen/verilog_util.h, verilogTextProblems): bounded lines,
# and no part-select of a literal (Verilator rejects both).
MAX_LINE_CHARS = 1000
LITERAL_SELECT = re.compile(r"\d+\s*'[sS]?[hHdDbBoO]\s*[0-9a-fA-FxXzZ_?]+\s*\[")


def verilog_text_problems(text):
    problems = []
    for n, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE_CHARS:
            problems.append(f"line {n}: {len(line)} characters (limit {MAX_LINE_CHARS})")
        elif LITERAL_SELECT.search(line):
            problems.append(f"line {n}: part-select of a literal: {line.strip()}")
    return problems


def compare_args(text):
    """--compare-args "--opt=value,--flag": spvhls options, each split at its first '='."""
    out = []
    for item in (t for t in text.split(",") if t):
        out += item.split("=", 1)
    return out


def fixed_latency_cycles(out, unpredicted=False):
    """The cycles of `spvhls sim --check-cycles`'s fixed-latency run: when checked against the prediction,
    or with `unpredicted` when the report predicts none (the run is made anyway)."""
    m = re.search(r"PASS fixed-latency=\d+ no-backpressure cycles=(\d+)( \(predicted (\d+)\))?$", out, re.M)
    if not m:
        return None
    if m.group(2) is None:
        return int(m.group(1)) if unpredicted and "SKIP cycle check" in out else None
    return int(m.group(1)) if m.group(1) == m.group(3) else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--input", required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--cluster", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ii", type=int, help="expected achieved II of loop 0")
    ap.add_argument("--loop-ii", help="expected achieved II of every loop in report order, comma-separated "
                                      "('-': not checked)")
    ap.add_argument("--not-pipelined", action="store_true")
    ap.add_argument("--cluster-kind", help="expected cluster kind built for loop 0")
    ap.add_argument("--every-loop-kind", help="expected cluster kind built for every loop (the report's cluster_kind)")
    ap.add_argument("--min-side-fifos", type=int, default=0,
                    help="at least this many side FIFOs (unit spans across stall-free cluster cuts) in the report")
    ap.add_argument("--min-side-fifo-span", type=int, default=0,
                    help="some side FIFO carries a result across at least this many cluster cuts")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--no-loop-ok", action="store_true",
                    help="the kernel may have no pipelined loop (straight-line or FSM-only regression kernels); "
                         "every other check still applies, and --ii/--not-pipelined/--cluster-kind still need loop 0")
    ap.add_argument("--unpredicted", action="store_true",
                    help="the report is known not to predict the cycles (the run must say SKIP)")
    ap.add_argument("--yosys-full", action="store_true",
                    help="map to gates with yosys's generic synth (the examples) instead of stopping at "
                         "an elaboration checked for latches, loops and drivers")
    ap.add_argument("--unpredicted-ok", action="store_true",
                    help="the cycles may be predicted (then they are checked) or not (whole programs)")
    ap.add_argument("--on-chip-budget", help="passed to spvhls sim (0: every array an external memory)")
    ap.add_argument("--inline", help="passed to spvhls sim (auto, always, never)")
    ap.add_argument("--expect-shared", default="",
                    help="comma-separated functions the report must list as shared units (the others inlined)")
    ap.add_argument("--shared-count", type=int, help="instead: how many functions the report lists as shared")
    ap.add_argument("--fp-reassociate", type=int, metavar="N",
                    help="pass --fp-reassociate; the report must list N float sums split into partial sums")
    ap.add_argument("--fp-max-ulps", help="passed to spvhls sim (the reassociated result against the interpreter)")
    ap.add_argument("--share-units", help="passed to spvhls sim (on, off)")
    ap.add_argument("--outer-loops", help="passed to spvhls sim (fsm, pipelined)")
    ap.add_argument("--scheduler", help="passed to spvhls sim (auto, heuristic, exact)")
    ap.add_argument("--clock-period", help="passed to spvhls sim (ns: operations chained within a cycle)")
    ap.add_argument("--subgroup-size", help="passed to spvhls sim (lanes of a subgroup without a SubgroupSize mode)")
    ap.add_argument("--datapath-opt", help="passed to spvhls sim (on, off)")
    ap.add_argument("--no-module", action="append", default=[], metavar="REGEX",
                    help="no module of the generated Verilog has a name matching this (e.g. no divider)")
    ap.add_argument("--units", default="",
                    help="MODULE=N,...: loop 0 must build exactly N instances of each MODULE (units_built), "
                         "holding every operation of that module the loop's units list")
    ap.add_argument("--control", action="append", default=[], metavar="NAME=STATUS",
                    help="some loop (pipelined or in the FSM) reports control NAME with this status")
    ap.add_argument("--transform", action="append", default=[], metavar="CONTROL",
                    help="the report's loop_transforms has an entry whose control starts with this")
    ap.add_argument("--ram-ports", help="passed to spvhls sim (1, 2)")
    ap.add_argument("--compare-args", default="", metavar="ARGS",
                    help="spvhls sim options of the --compare-with run only (e.g. --ram-ports=1), comma-separated")
    ap.add_argument("--compare-with", metavar="INPUT",
                    help="the same kernel without the control: its fixed-latency cycles (checked against "
                         "its own prediction) are compared with this one's")
    ap.add_argument("--max-cycle-ratio", type=float,
                    help="with --compare-with: this kernel's cycles / the other's at most this")
    ap.add_argument("--min-cycle-ratio", type=float,
                    help="with --compare-with: this kernel's cycles / the other's at least this")
    ap.add_argument("--expect-stdout", action="append", default=[], metavar="REGEX",
                    help="spvhls sim's output has a line matching this")
    ap.add_argument("--lane-accesses", metavar="JOINED,PER_LANE",
                    help="the subgroup lanes' memory accesses made once for the lanes and once per lane "
                         "(report.json nd_range.lane_accesses)")
    ap.add_argument("--lane-logic", metavar="BUILT=N,...",
                    help="how many subgroup operations became wires, crossbars and chains "
                         "(report.json nd_range.lane_logic[].built)")
    ap.add_argument("--speculated", type=int,
                    help="loop 0 starts this many iterations before an iteration's exit condition is known")
    args = ap.parse_args()

    failures = []
    budget = ["--on-chip-budget", args.on_chip_budget] if args.on_chip_budget is not None else []
    if args.inline is not None:
        budget += ["--inline", args.inline]
    if args.fp_reassociate is not None:
        budget += ["--fp-reassociate"]
    if args.fp_max_ulps is not None:
        budget += ["--fp-max-ulps", args.fp_max_ulps]
    if args.share_units is not None:
        budget += ["--share-units", args.share_units]
    if args.outer_loops is not None:
        budget += ["--outer-loops", args.outer_loops]
    if args.scheduler is not None:
        budget += ["--scheduler", args.scheduler]
    if args.clock_period is not None:
        budget += ["--clock-period", args.clock_period]
    if args.subgroup_size is not None:
        budget += ["--subgroup-size", args.subgroup_size]
    if args.datapath_opt is not None:
        budget += ["--datapath-opt", args.datapath_opt]
    if args.ram_ports is not None:
        budget += ["--ram-ports", args.ram_ports]
    r = run([args.spvhls, "sim", args.input, "--run", args.spec, "--cluster", args.cluster, "-o", args.out,
             "--seeds", args.seeds, "--latency", "1:12", "--ready-prob", "0.6", "--check-cycles"] + budget)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        failures.append(f"spvhls sim exited {r.returncode}")
    if args.unpredicted:
        if "SKIP cycle check" not in r.stdout:
            failures.append("expected the cycle check to be skipped as unpredicted")
    elif "(predicted " not in r.stdout and not (args.unpredicted_ok and "SKIP cycle check" in r.stdout):
        failures.append("the fixed-latency run did not check the predicted cycle count")

    for pattern in args.expect_stdout:
        if not re.search(pattern, r.stdout, re.M):
            failures.append(f"no line of spvhls sim's output matches {pattern!r}")
    if args.compare_with:
        mine = fixed_latency_cycles(r.stdout, args.unpredicted)
        other = run([args.spvhls, "sim", args.compare_with, "--run", args.spec, "--cluster", args.cluster,
                     "-o", args.out + ".compare", "--seeds", "1", "--latency", "1:12", "--ready-prob", "0.6",
                     "--check-cycles"] + budget + compare_args(args.compare_args))
        print(other.stdout, other.stderr)
        theirs = fixed_latency_cycles(other.stdout, args.unpredicted)
        if other.returncode != 0 or mine is None or theirs is None:
            failures.append(f"cycle comparison: no predicted fixed-latency cycles (this {mine}, other {theirs})")
        else:
            ratio = mine / theirs
            print(f"cycles at fixed latency: {mine} with the control, {theirs} without: ratio {ratio:.3f}")
            if args.max_cycle_ratio is not None and ratio > args.max_cycle_ratio:
                failures.append(f"cycles {mine} vs {theirs} without the control: ratio {ratio:.3f}, expected at "
                                f"most {args.max_cycle_ratio}")
            if args.min_cycle_ratio is not None and ratio < args.min_cycle_ratio:
                failures.append(f"cycles {mine} vs {theirs} without the control: ratio {ratio:.3f}, expected at "
                                f"least {args.min_cycle_ratio}")

    report_path = os.path.join(args.out, "report.json")
    if os.path.exists(report_path):
        rep = json.load(open(report_path))
        loop = rep["loops"][0] if rep["loops"] else None
        if loop is None:
            if not args.no_loop_ok or args.ii is not None or args.not_pipelined or args.cluster_kind:
                failures.append("no pipelined loop in the report")
        else:
            if args.speculated is not None and loop["speculated_iterations"] != args.speculated:
                failures.append(f"{loop['speculated_iterations']} speculated iterations, expected {args.speculated}")
            if args.ii is not None and loop["ii"]["achieved"] != args.ii:
                failures.append(f"II {loop['ii']['achieved']}, expected {args.ii}")
            if loop["ii"]["achieved"] < loop["ii"]["mii"]:
                failures.append("II below MII")
            if args.not_pipelined and loop["pipelined"]:
                failures.append("loop is pipelined, expected not")
            if args.cluster_kind and loop["cluster_kind"] != args.cluster_kind:
                failures.append(f"cluster kind {loop['cluster_kind']}, expected {args.cluster_kind}")
            built = {u["module"]: u for u in loop["units_built"]}
            for want in (w for w in args.units.split(",") if w):
                module, n = want.split("=")
                got = built.get(module)
                ops = sum(1 for u in loop["units"] if u["module"] == module)
                if got is None or got["instances"] != int(n) or got["ops"] != ops:
                    failures.append(f"loop 0 builds {got} for {ops} {module} operations, expected {n} instances")
        if args.lane_accesses:
            got = rep.get("nd_range", {}).get("lane_accesses")
            want = [int(n) for n in args.lane_accesses.split(",")]
            if got is None or [got["joined"], got["per_lane"]] != want:
                failures.append(f"lane accesses {got}, expected joined {want[0]}, per lane {want[1]}")
        if args.lane_logic:
            built = [l["built"] for l in rep.get("nd_range", {}).get("lane_logic", [])]
            got = {b: built.count(b) for b in set(built)}
            want = {b: int(n) for b, n in (w.split("=") for w in args.lane_logic.split(","))}
            if got != want:
                failures.append(f"subgroup operations built as {got}, expected {want}")
        if args.loop_ii:
            want = args.loop_ii.split(",")
            got = [str(lp["ii"]["achieved"]) for lp in rep["loops"]]
            if len(want) != len(got) or any(w != "-" and w != g for w, g in zip(want, got)):
                failures.append(f"loop IIs {','.join(got)}, expected {args.loop_ii}")
        split = sum(1 for lp in rep["loops"] for fs in lp["float_sums"] if fs["partial_sums"] > 0)
        if split != (args.fp_reassociate or 0):
            failures.append(f"{split} float sums reassociated, expected {args.fp_reassociate or 0}")
        if args.fp_reassociate and "reassociated float sums" not in r.stdout:
            failures.append("the simulation did not say how the reassociated result compares with the interpreter")
        if args.every_loop_kind:
            for n, lp in enumerate(rep["loops"]):
                if lp["cluster_kind"] != args.every_loop_kind:
                    failures.append(f"loop {n} ({lp['name']}) built {lp['cluster_kind']}, expected "
                                    f"{args.every_loop_kind}: {lp['cluster_reason']}")
        for lp in rep["loops"]:
            # Each recurrence gate is named and lies in the loop's clusters; one that waits at the assumed
            # latency leaves the cycles unpredicted.
            gates = lp.get("recurrence_gates", [])
            said = re.search(r"(\d+) recurrence gate", lp.get("cluster_reason", ""))
            if len(gates) != (int(said.group(1)) if said else 0):
                failures.append(f"loop {lp['name']}: {len(gates)} recurrence gates listed, the reason says "
                                f"{lp.get('cluster_reason')!r}")
            waits = any(g["waits"] for g in gates)
            if gates and (lp["cluster_kind"] != "stall-free" or (waits and lp["predicted_cycles"] is not None) or
                          any(not 0 <= g["cluster"] < len(lp["clusters"]) for g in gates)):
                failures.append(f"loop {lp['name']}: recurrence gates {gates} in a loop that is "
                                f"{lp['cluster_kind']}, predicted {lp['predicted_cycles']}")
        side = [f for lp in rep["loops"] for f in lp.get("side_fifos", [])]
        if len(side) < args.min_side_fifos:
            failures.append(f"{len(side)} side FIFOs, expected at least {args.min_side_fifos}")
        span = max((f["to_cluster"] - f["from_cluster"] for f in side), default=0)
        if span < args.min_side_fifo_span:
            failures.append(f"the widest side FIFO crosses {span} cluster cuts, expected at least "
                            f"{args.min_side_fifo_span}")
        shared = sorted(f["name"] for f in rep["functions"] if f["shared"])
        expected = sorted(n for n in args.expect_shared.split(",") if n)
        if args.shared_count is not None:
            if len(shared) != args.shared_count:
                failures.append(f"{len(shared)} shared functions {shared}, expected {args.shared_count}")
        elif shared != expected:
            failures.append(f"shared functions {shared}, expected {expected}")
        controls = [c for lp in rep["loops"] for c in lp["loop_controls"]] + \
                   [c for b in rep["fsm_blocks"] for c in b.get("loop_controls", [])]
        for want in args.control:
            name, status = want.split("=")
            got = [c["status"] for c in controls if c["control"] == name]
            if status not in got:
                failures.append(f"control {name}: statuses {got}, expected one {status}")
        for want in args.transform:
            if not any(t["control"].startswith(want) for t in rep["loop_transforms"]):
                failures.append(f"no loop transformation by {want}: {rep['loop_transforms']}")
        top = rep["module"]
        files = sorted(glob.glob(os.path.join(args.out, "*.v")))
        for f in files:
            failures += [f"{os.path.basename(f)}: {p}" for p in verilog_text_problems(open(f).read())]
        modules = [m for f in files for m in re.findall(r"^\s*module\s+(\w+)", open(f).read(), re.M)]
        for pattern in args.no_module:
            if any(re.fullmatch(pattern, m) for m in modules):
                failures.append(f"a module matches {pattern!r}: {[m for m in modules if re.fullmatch(pattern, m)]}")
        lint = run(["verilator", "--lint-only", "-Wall", "--top-module", top] + files)
        if lint.returncode != 0 or lint.stderr.strip():
            failures.append("verilator lint:\n" + lint.stderr)
        # yosys's elaboration with its netlist checks as errors: processes without latches, memories
        # inferred, then no combinational loop, conflicting or missing driver (check -assert). Not the
        # mapping to gates and abc: that was 70% of the suite's time (a loop with two dividers: 40 s
        # against 5 s; tens of minutes for a whole program or a kernel of f64 units) and checks the
        # unit library more than the kernel; the examples and the kernels that hold every kind of unit
        # map fully (--yosys-full), and scripts/bench_qor.py, bench_programs.py and bench_fp_units.py
        # map everything. Nor the optimisation passes of synth's coarse script (fsm, opt, wreduce,
        # alumacc, share), which check nothing (yosys was still two thirds of the suite's time with
        # them; block2d stall-free: 226 s with them, 114 s without). opt_dff + opt_clean are the start
        # of synth's next step: where memory_dff has merged a ROM's output register into its read
        # port, the bits left in the register have undriven inputs until then, which check would report.
        elaborate = (f"hierarchy -check -top {top}; proc; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr; "
                     "opt_clean; memory -nomap")
        synth = (f"{elaborate}; opt_dff; opt_clean; check -assert" if not args.yosys_full else f"synth -top {top}")
        ys = run(["yosys", "-q", "-p", f"read_verilog {' '.join(files)}; {synth}; stat"])
        if ys.returncode != 0:
            failures.append("yosys:\n" + ys.stdout + ys.stderr)
    else:
        failures.append("no report.json written")

    if failures:
        print("E2E FAIL:\n" + "\n".join(failures))
        return 1
    print("E2E PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
