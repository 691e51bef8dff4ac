#!/usr/bin/env python3
"""Random loop nests, to test outer-loop pipelining (an outer loop as one pipeline, its inner loops
sub-pipelines: docs/loop-controls.md "Outer loops as pipelines") against the interpreter.

Each kernel is one nest of depth 2 or 3 over three int buffers of 64 elements (every index masked
with & 63) and an out buffer. The outer bodies have code before and after their inner loops (loads,
stores, arithmetic with an occasional / or % by (x | 1)), sometimes two inner loops in one body,
sometimes an inner loop inside an if; inner bounds are constants, arguments, the enclosing index
(triangular) or loaded / computed values clamped small (& 7); inner loops carry reductions that the
enclosing body uses, store what the body later reads and read what earlier outer iterations stored
(so the memory order between inner and outer loops matters), and sometimes break.

Per kernel, at random: clang-15 -O0 or -O2 (+ llvm-spirv-15), cluster kind stall-free,
stall-enable or auto (an outer pipeline's inner loops stall-enable, the rest mostly stall-free), and either `--outer-loops pipelined` or a control on the outermost loop added with
tests/e2e/loops/add_controls.py (MaxConcurrencyINTEL 1 / 2 / 3, InitiationIntervalINTEL 2,
PipelineEnableINTEL 1; MaxConcurrencyINTEL 1 does not ask for a pipeline, so it comes with
`--outer-loops pipelined`). Then `spvhls sim --check-cycles` with random latency and back-pressure.

Outcomes: pass (exit 0, "0 failed"); skipped (-O2 left no loop for the control, or llvm-spirv-15 cannot
translate the module, e.g. a freeze); rejected (a clean diagnostic: non-zero exit, an error message, no
"internal compiler error", no simulation run); FAIL (a mismatch, an internal error, a crash, a
timeout, or a front-end failure of the generator). Failing kernels are kept in OUT/<seed>/ (k.cl,
k.run.json, cmd.txt, log.txt); passing ones are removed unless --keep. Prints each kernel's outcome
and whether it got an outer pipeline (report.txt mentions sub-pipelines), and a summary; exits 1 if
any kernel failed.

    python3 scripts/fuzz_nests.py --spvhls build/spvhls --out /tmp/fuzz_nests --count 60 --seed 100 --jobs 2

Note: at -O2 llvm-spirv-15 writes the OpLoopMerge of some `#pragma unroll 1` loops twice, or ahead of
other instructions of its block (invalid SPIR-V); the script repairs both before spvhls reads the module.
"""
import argparse, concurrent.futures, json, os, random, re, shutil, subprocess, sys, threading

BUFS = ["a", "b", "c"]
LEN = 64
MASK = LEN - 1
OUTLEN = 16
VARS = ["r", "j", "i"]
HERE = os.path.dirname(os.path.abspath(__file__))
ADD_CONTROLS = os.path.join(HERE, "..", "tests", "e2e", "loops", "add_controls.py")
CONTROLS = ["MaxConcurrencyINTEL 1", "MaxConcurrencyINTEL 2", "MaxConcurrencyINTEL 3",
            "InitiationIntervalINTEL 2", "PipelineEnableINTEL 1"]


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.nscalar = 0
        self.nacc = 0
        self.lines = []
        self.top_accs = []

    # ---- leaves and expressions -------------------------------------------------------------
    def idx(self, vars, scalars):
        rng = self.rng
        opts = []
        for v in vars:
            opts += [v, v, f"({v} + {rng.randint(1, 3)}) & {MASK}", f"({v} + k) & {MASK}"]
        if len(vars) >= 2:
            o, w = rng.sample(vars, 2)
            opts += [f"({o} * 8 + {w}) & {MASK}", f"({o} + {w}) & {MASK}", f"({o} - {w}) & {MASK}"]
        if scalars:
            opts.append(f"{rng.choice(scalars)} & {MASK}")
        opts.append(str(rng.randint(0, 9)))
        return rng.choice(opts)

    def load(self, vars, scalars):
        return f"{self.rng.choice(BUFS)}[{self.idx(vars, scalars)}]"

    def leaf(self, vars, scalars):
        rng = self.rng
        x = rng.random()
        if x < 0.4:
            return self.load(vars, scalars)
        if x < 0.6 and vars:
            return rng.choice(vars)
        if x < 0.75 and scalars:
            return rng.choice(scalars)
        if x < 0.85:
            return rng.choice(["n", "m", "k"])
        return str(rng.randint(-5, 9))

    def expr(self, vars, scalars, d=2):
        rng = self.rng
        if d == 0 or rng.random() < 0.3:
            return self.leaf(vars, scalars)
        x, y = self.expr(vars, scalars, d - 1), self.expr(vars, scalars, d - 1)
        r = rng.random()
        if r < 0.08:
            return f"({x} / ({y} | 1))"
        if r < 0.14:
            return f"({x} % ({y} | 1))"
        op = rng.choice(["+", "+", "-", "*", "^", "&", "|"])
        return f"({x} {op} {y})"

    def cond(self, vars, scalars):
        rng = self.rng
        return f"{self.expr(vars, scalars, 1)} {rng.choice(['>', '<', '!=', '>='])} {rng.randint(-10, 10)}"

    def store(self, vars, scalars):
        return f"{self.rng.choice(BUFS)}[{self.idx(vars, scalars)}] = {self.expr(vars, scalars)};"

    # ---- statements ---------------------------------------------------------------------------
    def emit(self, ind, s):
        self.lines.append("  " * ind + s)

    def plain_stmt(self, ind, vars, scalars, accs):
        """A statement of an outer body (before or after its inner loops)."""
        rng = self.rng
        x = rng.random()
        if x < 0.35:
            name = f"t{self.nscalar}"
            self.nscalar += 1
            self.emit(ind, f"int {name} = {self.expr(vars, scalars)};")
            scalars.append(name)
        elif x < 0.7:
            self.emit(ind, self.store(vars, scalars))
        elif x < 0.85:
            self.emit(ind, f"if ({self.cond(vars, scalars)}) {self.store(vars, scalars)}")
        elif accs:
            self.emit(ind, f"{rng.choice(accs)} += {self.expr(vars, scalars)};")
        else:
            self.emit(ind, self.store(vars, scalars))

    def bound(self, vars, scalars):
        rng = self.rng
        opts = [str(rng.randint(1, 6)), "n", "m"]
        if vars:
            v = vars[-1]
            opts += [v, f"{v} + 1", f"{v} + 1"]
            opts.append(f"({rng.choice(BUFS)}[{self.idx(vars, scalars)}] & 7)")
        if scalars:
            opts.append(f"({rng.choice(scalars)} & 7)")
        return rng.choice(opts)

    def loop(self, level, depth, ind, vars, scalars, accs, pragma):
        """A loop at nesting level `level` (0 = outermost) of a nest of `depth` levels. `accs` are the
        accumulators of the enclosing body the loop may update."""
        rng = self.rng
        v = VARS[level] if depth == 3 else ["r", "i"][level]
        start = rng.choice(["0"] * 5 + ["1"])
        b = self.bound(vars, scalars) if level > 0 else rng.choice(["rows"] * 4 + ["n", str(rng.randint(2, 7))])
        if pragma:
            self.emit(ind, "#pragma unroll 1")
        self.emit(ind, f"for (int {v} = {start}; {v} < {b}; ++{v}) {{")
        vars = vars + [v]
        scalars = list(scalars)
        if level == depth - 1:
            self.inner_body(ind + 1, vars, scalars, accs)
        else:
            self.outer_body(level, depth, ind + 1, vars, scalars, accs)
        self.emit(ind, "}")

    def inner_body(self, ind, vars, scalars, accs):
        rng = self.rng
        stmts = []
        before = list(scalars)  # what a break placed anywhere in the body may use
        n = rng.randint(1, 3)
        did_acc = False
        for _ in range(n):
            x = rng.random()
            if x < 0.4 and accs:
                a = rng.choice(accs)
                if rng.random() < 0.7:
                    stmts.append(f"{a} += {self.expr(vars, scalars)};")
                else:
                    stmts.append(f"{a} = ({a} ^ {self.expr(vars, scalars, 1)}) + {vars[-1]};")
                did_acc = True
            elif x < 0.75:
                stmts.append(self.store(vars, scalars))
            elif x < 0.9:
                stmts.append(f"if ({self.cond(vars, scalars)}) {self.store(vars, scalars)}")
            else:
                name = f"t{self.nscalar}"
                self.nscalar += 1
                stmts.append(f"int {name} = {self.expr(vars, scalars)};")
                scalars.append(name)
        if accs and not did_acc:
            stmts.append(f"{rng.choice(accs)} += {self.expr(vars, scalars)};")
        if rng.random() < 0.2:
            c = rng.choice([f"{self.load(vars, before)} > {rng.randint(0, 15)}"] +
                           ([f"{accs[0]} > {rng.randint(10, 60)}"] if accs else []))
            stmts.insert(rng.randint(0, len(stmts)), f"if ({c}) break;")
        for s in stmts:
            self.emit(ind, s)

    def outer_body(self, level, depth, ind, vars, scalars, accs):
        rng = self.rng
        for _ in range(rng.randint(0, 3)):
            self.plain_stmt(ind, vars, scalars, accs)
        for _ in range(2 if rng.random() < 0.25 else 1):
            acc = f"s{self.nacc}"
            self.nacc += 1
            guarded = rng.random() < 0.25
            cur = ind
            if guarded:
                self.emit(ind, f"if ({self.cond(vars, scalars)}) {{")
                cur = ind + 1
            init = rng.choice(["0", "0", str(rng.randint(-3, 5)), self.leaf(vars, scalars)])
            self.emit(cur, f"int {acc} = {init};")
            inner_pragma = rng.random() < 0.6
            self.loop(level + 1, depth, cur, vars, scalars, [acc] + ([a for a in accs if rng.random() < 0.3]),
                      inner_pragma)
            # Use the reduction: store it where this or a later outer iteration reads, or fold it in.
            x = rng.random()
            if x < 0.5:
                self.emit(cur, f"{rng.choice(BUFS)}[{self.idx(vars, scalars)}] = {acc} + {self.leaf(vars, scalars)};")
            elif x < 0.8 and accs:
                self.emit(cur, f"{rng.choice(accs)} += {acc};")
            else:
                self.emit(cur, f"{rng.choice(BUFS)}[{self.idx(vars, scalars)}] = {acc} ^ {self.load(vars, scalars)};")
            if guarded:
                self.emit(ind, "}")
            elif rng.random() < 0.4:
                scalars.append(acc)
        for _ in range(rng.randint(0, 2)):
            self.plain_stmt(ind, vars, scalars, accs)
        if accs and rng.random() < 0.5:
            self.emit(ind, f"{accs[0]} += {self.load(vars, scalars)};")

    def kernel(self, pragma_outer):
        rng = self.rng
        depth = rng.choice([2, 2, 3])
        self.emit(0, "kernel void k(global int* a, global int* b, global int* c, global int* out, "
                     "int rows, int n, int m, int k) {")
        top = ["o0"]
        self.emit(1, f"int o0 = {rng.randint(-2, 3)};")
        if rng.random() < 0.3:
            self.emit(1, f"b[{rng.randint(0, 9)}] = a[{rng.randint(0, 9)}] + n;")
        self.loop(0, depth, 1, [], [], top, pragma_outer)
        if rng.random() < 0.3:
            self.emit(1, f"o0 += {rng.choice(BUFS)}[{rng.randint(0, 9)}];")
        self.emit(1, "out[0] = o0;")
        self.emit(0, "}")
        return depth, "\n".join(self.lines) + "\n"


def spec(rng):
    def buf(name):
        return {"name": name, "buffer": {"type": "i32", "length": LEN,
                                         "init": {"random": {"seed": rng.randint(1, 10**6), "min": -20, "max": 20}}}}
    return {"kernel": "k", "args": [buf(x) for x in BUFS] +
            [{"name": "out", "buffer": {"type": "i32", "length": OUTLEN, "init": "zeros"}},
             {"name": "rows", "value": rng.choice([0, 1] + [rng.randint(2, 12)] * 6)},
             {"name": "n", "value": rng.randint(0, 8)}, {"name": "m", "value": rng.randint(0, 8)},
             {"name": "k", "value": rng.randint(0, 3)}]}


def run(cmd, cwd, timeout=600):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def fix_loop_merges(text):
    """Repairs two llvm-spirv-15 -O2 defects of `#pragma unroll 1` loops: an OpLoopMerge written twice, and
    one written before other instructions of its block rather than right before the terminator. Drops the
    repeated line and moves the merge down to the terminator; returns (text, number of repairs)."""
    lines, fixed, out, prev = text.splitlines(), 0, [], None
    for line in lines:
        if "OpLoopMerge" in line and line == prev:
            fixed += 1
            continue
        out.append(line)
        prev = line
    i = 0
    while i < len(out):
        if "OpLoopMerge" in out[i]:
            j = i + 1
            while j < len(out) and not re.match(r"\s*(OpBranch|OpBranchConditional|OpSwitch)\b", out[j]):
                j += 1
            if j > i + 1 and j < len(out):
                merge = out.pop(i)
                out.insert(j - 1, merge)
                fixed += 1
                continue
        i += 1
    return "\n".join(out) + "\n", fixed


def control_on_outer(report, control):
    """Whether the depth-1 loop's section of report.txt lists the control, and its verdict."""
    name = control.split()[0]
    for sec in re.split(r"\n(?=loop ')", report):
        if sec.startswith("loop '") and ", depth 1" in sec.splitlines()[0]:
            for line in sec.splitlines():
                if line.strip().startswith("loop control") and name in line:
                    return line.split(":", 1)[1].strip()
            return "not in the outermost loop's report"
    return "not reported (the outermost loop is not pipelined)"


def one(seed, a, spvhls):
    rng = random.Random(seed)
    d = os.path.join(a.out, str(seed))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    opt = rng.choice(["-O0", "-O2"])
    mode = rng.choice(["stall-free", "stall-enable", "auto"])
    how = rng.choice(["flag", "flag"] + CONTROLS)
    control = None if how == "flag" else how
    flag = how == "flag" or how == "MaxConcurrencyINTEL 1" or (control and rng.random() < 0.25)
    g = Gen(rng)
    depth, src = g.kernel(pragma_outer=control is not None or rng.random() < 0.5)
    if control:
        src = f"// controls: 0={control}\n" + src
    open(os.path.join(d, "k.cl"), "w").write(src)
    json.dump(spec(rng), open(os.path.join(d, "k.run.json"), "w"), indent=1)
    res = {"seed": seed, "opt": opt, "mode": mode, "control": control, "flag": flag, "depth": depth,
           "outer": 0, "repairs": 0, "landed": None}
    try:
        r = run(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
                 "-no-opaque-pointers", opt, "-emit-llvm-bc", "k.cl", "-o", "k.bc"], d)
        if r.returncode == 0:
            r = run(["llvm-spirv-15", "--spirv-ext=+all", "k.bc", "-o", "k0.spv"], d)
        if r.returncode == 0:
            r = run(["spirv-dis", "--raw-id", "k0.spv", "-o", "k0.spvasm"], d)
        if r.returncode == 0:
            text, res["repairs"] = fix_loop_merges(open(os.path.join(d, "k0.spvasm")).read())
            open(os.path.join(d, "k1.spvasm"), "w").write(text)
            r = run(["spirv-as", "k1.spvasm", "-o", "k.spv"], d)
        inp = "k.spv"
        if r.returncode == 0 and control:
            r = run([sys.executable, ADD_CONTROLS, "--cl", "k.cl", "--spv", "k.spv", "--out", "k.spvasm"], d)
            inp = "k.spvasm"
        if r.returncode != 0:
            if "has 0 OpLoopMerge" in r.stderr:  # -O2 removed or fully unrolled the whole nest
                res.update(outcome="skipped", why="no loop left for the control: " + r.stderr.strip()[:200])
            elif "Can't translate llvm instruction" in r.stdout + r.stderr:  # llvm-spirv-15 (e.g. freeze at -O2)
                res.update(outcome="skipped", why="llvm-spirv-15 cannot translate the module: " +
                           (r.stdout + r.stderr).strip()[:200])
            else:
                res.update(outcome="FAIL", why="frontend: " + (r.stdout + r.stderr).strip()[:300])
            return res
        cmd = [spvhls, "sim", inp, "--run", "k.run.json", "-o", "out", "--cluster", mode, "--seeds", "1,2",
               "--latency", "1:12", "--ready-prob", "0.6", "--check-cycles", "--jobs", "1"]
        if flag:
            cmd += ["--outer-loops", "pipelined"]
        open(os.path.join(d, "cmd.txt"), "w").write(" ".join(cmd) + "\n")
        try:
            r = run(cmd, d, timeout=a.timeout)
        except subprocess.TimeoutExpired:
            res.update(outcome="FAIL", why=f"timeout after {a.timeout} s")
            return res
        log = r.stdout + r.stderr
        open(os.path.join(d, "log.txt"), "w").write(log)
        try:
            rep = open(os.path.join(d, "out", "report.txt")).read()
            res["outer"] = rep.count("a sub-pipeline;")
            if control:
                res["landed"] = control_on_outer(rep, control)
        except OSError:
            pass
        simmed = re.search(r"^sim: \d+ passed", r.stdout, re.M) is not None
        if r.returncode == 0 and simmed and " 0 failed" in r.stdout:
            res.update(outcome="pass", why="")
        elif (r.returncode > 0 and not simmed and "internal compiler error" not in log.lower()
              and "error" in r.stderr.lower() and not re.search(r"^FAIL", r.stdout, re.M)):
            msg = [l for l in r.stderr.splitlines() if "error" in l.lower()]
            res.update(outcome="rejected", why=(msg[0] if msg else r.stderr.strip().splitlines()[0])[:300])
        else:
            res.update(outcome="FAIL", why=f"exit {r.returncode}: " + log.strip()[-600:])
        return res
    finally:
        if res.get("outcome") == "pass" and not a.keep:
            shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="kernels at a time (each spvhls sim runs --jobs 1)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per spvhls sim")
    ap.add_argument("--keep", action="store_true", help="keep the passing kernels' directories too")
    a = ap.parse_args()
    spvhls = os.path.abspath(a.spvhls)
    os.makedirs(a.out, exist_ok=True)
    lock = threading.Lock()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(one, s, a, spvhls): s for s in range(a.seed, a.seed + a.count)}
        for f in concurrent.futures.as_completed(futs):
            try:
                res = f.result()
            except Exception as e:  # a bug of the script itself
                res = {"seed": futs[f], "outcome": "FAIL", "why": f"script error: {e!r}", "opt": "?", "mode": "?",
                       "control": None, "flag": False, "depth": 0, "outer": 0, "repairs": 0, "landed": None}
            with lock:
                results.append(res)
                how = (res["control"] or "") + (" + " if res["control"] and res["flag"] else "") + \
                      ("--outer-loops pipelined" if res["flag"] else "")
                extra = f", control: {res['landed'] or '-'}" if res["control"] else ""
                extra += f", {res['repairs']} OpLoopMerge repair(s)" if res["repairs"] else ""
                print(f"{res['seed']}: {res['outcome']} ({res['opt']}, {res['mode']}, depth {res['depth']}, {how}, "
                      f"{res['outer']} sub-pipeline(s){extra})" + (f"\n  {res['why']}" if res["why"] else ""),
                      flush=True)
    results.sort(key=lambda r: r["seed"])
    by = {k: [r for r in results if r["outcome"] == k] for k in ("pass", "rejected", "skipped", "FAIL")}
    reasons = {}
    for r in by["rejected"]:
        why = re.sub(r"^\S+:\d+:\d+: ", "", r["why"])
        why = re.sub(r"\d+", "N", re.sub(r"(cannot be met).*", r"\1", why))
        reasons.setdefault(re.sub(r"loop \S+:", "loop L:", why)[:160], []).append(r["seed"])
    print(f"\n{len(by['pass'])} passed, {len(by['rejected'])} rejected, {len(by['FAIL'])} failed, "
          f"{len(by['skipped'])} skipped (no loop left at -O2, or llvm-spirv-15 failed) of {len(results)}; "
          f"{sum(1 for r in results if r['outer'])} kernel(s) got an outer pipeline "
          f"({sum(1 for r in by['pass'] if r['outer'])} of them passed)")
    for why, seeds in reasons.items():
        print(f"  rejected {len(seeds)}x: {why} (seeds {', '.join(map(str, seeds))})")
    if by["FAIL"]:
        print(f"  failed seeds: {', '.join(str(r['seed']) for r in by['FAIL'])} (kept in {a.out}/<seed>/)")
    return 1 if by["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
