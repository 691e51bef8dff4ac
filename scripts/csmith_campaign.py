#!/usr/bin/env python3
"""Random-program campaign: csmith programs as single-task OpenCL C kernels through spvhls.

For each program (a csmith seed and a feature profile) the script
  1. generates it with csmith (no volatiles, bit-fields, packed structs, floats, argc; few, small
     functions; by default no global variables, with --globals csmith declares them: program-scope
     variables, which the hardware keeps in on-chip memories);
  2. wraps it as `kernel void k(global uint *r)` that calls func_1() and stores the CRC-32 of its
     64-bit result in r[0] and the result itself in r[1] (low) and r[2] (high). Without globals func_1's
     result is all a csmith program computes: its main() would print the CRC of no variable at all.
     With --globals the program is generated with checksums and its main() becomes the kernel's body:
     after func_1(), each of its transparent_crc(g, ...) calls (one per global, struct field and array
     element that csmith checksums; pointers are not) folds g's value as 8 bytes of uint64_t into a
     CRC-32 that the kernel stores in r[3]; csmith's printing and platform hooks are dropped. The native
     build runs the same kernel text, so native vs interpreter compares the globals through r[3], and
     `spvhls sim` also compares the final contents of every program-scope variable with the interpreter.
     The runtime is tests/native/csmith_prelude.h + csmith's safe_math.h (`unsigned long long` spelled
     uint64_t) + the program with `LL` literal suffixes made `L` (`long long` is 128 bits in OpenCL C),
     pasted into one self-contained kernel.cl;
  3. builds and runs it natively with gcc (UBSan + ASan; tests/e2e/check_native.py) -> expected buffer;
  4. clang-15 + llvm-spirv-15 -> kernel.spv, checked with spirv-val;
  5. `spvhls run` vs the native buffer; `spvhls compile`; lint of the Verilog; `spvhls sim` (random latency and back-pressure)
     vs the interpreter;
and classifies it into exactly one outcome (first failing step wins):
  pass            native = interpreter = RTL
  wrong-interp    `spvhls run` differs from native (or reports an error other than "not supported")
  wrong-rtl       `spvhls sim` reports a mismatch (FAIL) or a deadlock/timeout inside the simulation
  internal-error  exit 3, "internal compiler error" in the output, or a signal, in any spvhls step, or
                  generated Verilog that Verilator cannot build
  lint            generated Verilog with a `verilator --lint-only -Wall` warning or error
  hang            a spvhls step exceeded --timeout
  unsupported     a clean exit-1 diagnostic from `spvhls compile` (or "not supported" from `spvhls run`)
  frontend-reject csmith, gcc, clang-15, llvm-spirv-15 or spirv-val failed, or func_1 returns a
                  struct/union (not wrapped: its padding has no value to compare; with --globals it is
                  wrapped, func_1's result unused and only the globals compared), or (--globals) a
                  main() the wrapper does not recognise
  native-timeout  the native program exceeded --native-timeout (excluded)
  native-ub       the sanitizers stopped the native program (excluded)

Prints a table (profile x outcome), the failing programs with their first diagnostic line, and the
unsupported messages by frequency; writes OUT/results.json; keeps OUT/cases/<id>/ for every non-pass
program (kernel.cl, run.json, outputs, repro.sh). Reproduce one program with
  python3 scripts/csmith_campaign.py --spvhls build/spvhls --out /tmp/one --seed-start SEED --count 1 --profiles P [--globals]
Setup: csmith and its runtime headers (`apt-get install -y csmith libcsmith-dev`, scripts/setup-campaign.sh).
"""
import argparse, collections, concurrent.futures, json, os, re, shlex, shutil, subprocess, sys, threading, time, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import check_native  # noqa: E402

PRELUDE = os.path.join(ROOT, "tests", "native", "csmith_prelude.h")
SAFE_MATH = "/usr/include/csmith/safe_math.h"

COMMON = ["--no-global-variables", "--no-argc", "--no-volatiles", "--no-volatile-pointers", "--no-bitfields",
          "--no-packed-struct", "--no-float", "--no-builtins", "--no-checksum", "--concise",
          "--max-funcs", "3", "--max-block-depth", "3", "--max-block-size", "3", "--max-expr-complexity", "6",
          "--max-array-dim", "2", "--max-array-len-per-dim", "4", "--max-struct-fields", "4",
          "--max-union-fields", "3", "--max-pointer-depth", "2"]


def csmith_options(globals_):
    """COMMON, or with --globals COMMON without --no-global-variables and --no-checksum (csmith's main()
    then folds every global into its checksum, which the wrapper keeps)."""
    if not globals_:
        return COMMON
    return [o for o in COMMON if o not in ("--no-global-variables", "--no-checksum")]


PROFILES = {
    "1": ("scalars", ["--no-pointers", "--no-structs", "--no-unions"]),
    "2": ("pointers", ["--pointers", "--no-structs", "--no-unions"]),
    "3": ("structs", ["--no-pointers", "--structs", "--unions"]),
    "4": ("all", ["--pointers", "--structs", "--unions"]),
}
OUTCOMES = ["pass", "wrong-interp", "wrong-rtl", "internal-error", "lint", "hang", "unsupported",
            "frontend-reject", "native-timeout", "native-ub"]

SPEC = {"kernel": "k", "args": [{"name": "r", "buffer": {"type": "u32", "length": 4, "init": "zeros"}}]}

KERNEL = """
/* ---- spvhls campaign wrapper: the single-task kernel ---- */
kernel void k(global uint *r) {
  uint64_t v = (uint64_t)func_1();
  r[0] = spvhls_crc32_bytes(0xFFFFFFFFU, v, 8) ^ 0xFFFFFFFFU;
  r[1] = (uint32_t)v;
  r[2] = (uint32_t)(v >> 32);
}
"""

# With --globals: csmith's main() (func_1(), then transparent_crc of every global) becomes the body of
# the kernel; the CRC of the globals goes to r[3].
KERNEL_GLOBALS = """
/* ---- spvhls campaign wrapper: the single-task kernel (csmith's main() with globals) ---- */
kernel void k(global uint *r) {
  uint64_t spvhls_v = 0;
  uint32_t spvhls_gcrc = 0xFFFFFFFFU;
  {
%s
  }
  r[0] = spvhls_crc32_bytes(0xFFFFFFFFU, spvhls_v, 8) ^ 0xFFFFFFFFU;
  r[1] = (uint32_t)spvhls_v;
  r[2] = (uint32_t)(spvhls_v >> 32);
  r[3] = spvhls_gcrc ^ 0xFFFFFFFFU;
}
"""


class WrapError(Exception):
    pass


def wrap_main(main_text, keep_result=True):
    """csmith's main() (generated with checksums) -> the statements of the kernel body: func_1()'s
    result kept in spvhls_v, every transparent_crc(x, "name", print_hash_value) folded into spvhls_gcrc
    with the prelude's spvhls_crc32_bytes (the CRC-32 of x's 8 bytes as uint64_t, as csmith's own
    transparent_crc does), the printing and the platform hooks dropped. keep_result=False (func_1
    returns a struct or union) leaves func_1's result unused: r[0..2] are then constant."""
    open_brace, close_brace = main_text.find("{"), main_text.rfind("}")
    if open_brace < 0 or close_brace < open_brace:
        raise WrapError("main() has no body")
    body = main_text[open_brace + 1:close_brace]
    body, n = re.subn(r"^(\s*)func_1\(\);", r"\1spvhls_v = (uint64_t)func_1();" if keep_result else r"\1func_1();",
                      body, flags=re.M)
    if n != 1:
        raise WrapError(f"main() calls func_1() {n} times")
    body = re.sub(r'^(\s*)transparent_crc\((.*), "[^"]*", print_hash_value\);',
                  r"\1spvhls_gcrc = spvhls_crc32_bytes(spvhls_gcrc, (uint64_t)(\2), 8);", body, flags=re.M)
    body = re.sub(r"^\s*if \(print_hash_value\) printf\(.*\);\s*$", "", body, flags=re.M)
    body = re.sub(r"^\s*(int print_hash_value = 0;|platform_main_begin\(\);|crc32_gentab\(\);|"
                  r"platform_main_end\(.*\);|return 0;)\s*$", "", body, flags=re.M)
    for word in ("transparent_crc", "printf", "print_hash_value", "platform_", "crc32_"):
        if re.search(r"\b" + word, body):
            raise WrapError(f"main() has an unexpected {word}")
    return "\n".join(l for l in body.splitlines() if l.strip())

# llvm-spirv-15 writes SPIR-V 1.4 without listing every global in the entry point's interface (1.4
# requires it); that is the translator's, not the program's, fault, so this one rule is tolerated.
SPIRV_VAL_TOLERATED = re.compile(r"is not listed as an interface")


def make_kernel(csmith_c, globals_=False, keep_result=True):
    prog = open(csmith_c).read().replace('#include "csmith.h"', "")
    cut = prog.find("int main (void)")
    if cut < 0:
        cut = prog.find("int main(void)")
    main_text = prog[cut:] if cut >= 0 else ""
    if cut >= 0:
        prog = prog[:cut]
    if globals_:
        if not main_text:
            raise WrapError("no main()")
        kernel = KERNEL_GLOBALS % wrap_main(main_text, keep_result)
    else:
        kernel = KERNEL
    prog = re.sub(r"\b(0[xX][0-9A-Fa-f]+|\d+)([uU]?)(?:LL|ll)\b", r"\1\2L", prog)
    safe = open(SAFE_MATH).read().replace("unsigned long long", "uint64_t")
    return (open(PRELUDE).read() + "\n/* ---- csmith safe_math.h ---- */\n" + safe +
            "\n/* ---- csmith program ---- */\n" + prog + kernel)


def first_line(text, prefer=("error", "internal")):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for key in prefer:
        for l in lines:
            if key in l.lower():
                return l[:300]
    return lines[0][:300] if lines else ""


def is_internal(rc, text):
    return rc == 3 or rc < 0 or "internal compiler error" in text.lower()


class Case:
    def __init__(self, seed, profile, cluster, args, out):
        self.seed, self.profile, self.cluster, self.args = seed, profile, cluster, args
        self.id = f"p{profile}_s{seed}"
        self.dir = os.path.join(out, "cases", self.id)
        self.times = {}
        self.log = []

    def run(self, step, cmd, timeout, **kw):
        t0 = time.time()
        self.log.append("+ " + shlex.join(cmd))
        try:
            r = subprocess.run(cmd, text=True, capture_output=True, timeout=timeout, errors="replace", **kw)
            rc, out = r.returncode, r.stdout + r.stderr
        except subprocess.TimeoutExpired as e:
            rc, out = None, f"timed out after {timeout} s"
        self.times[step] = round(time.time() - t0, 2)
        with open(os.path.join(self.dir, f"{step}.log"), "w") as f:
            f.write("+ " + shlex.join(cmd) + "\n" + out)
        return rc, out

    def result(self, outcome, step="", detail=""):
        return {"id": self.id, "seed": self.seed, "profile": self.profile, "cluster": self.cluster,
                "outcome": outcome, "step": step, "detail": detail, "times": self.times,
                "total_time": round(sum(self.times.values()), 2)}


SIM_LOCK = None


def run_case(seed, profile, cluster, a, out):
    c = Case(seed, profile, cluster, a, out)
    shutil.rmtree(c.dir, ignore_errors=True)
    os.makedirs(c.dir)
    T = a.timeout
    prog = os.path.join(c.dir, "csmith.c")
    rc, o = c.run("csmith", ["csmith", "--seed", str(seed), "-o", prog] + csmith_options(a.globals) + PROFILES[profile][1],
                  T, cwd=c.dir)
    if rc != 0:
        return c.result("frontend-reject", "csmith", first_line(o))
    m = re.search(r"^static\s+([^;(]*?)\s*func_1\s*\(void\);", open(prog).read(), re.M)
    returns_aggregate = bool(m and re.match(r"(const\s+)?(struct|union)\b", m.group(1)))
    if returns_aggregate and not a.globals:
        # Its bytes (with padding) have no portable value to compare; not wrapped.
        return c.result("frontend-reject", "wrap", f"func_1 returns {m.group(1)}: not wrapped")
    cl = os.path.join(c.dir, "kernel.cl")
    try:
        text = make_kernel(prog, a.globals, keep_result=not returns_aggregate)
    except WrapError as e:
        return c.result("frontend-reject", "wrap", f"not wrapped: {e}")
    with open(cl, "w") as f:
        f.write(text)
    spec = os.path.join(c.dir, "run.json")
    with open(spec, "w") as f:
        json.dump(SPEC, f, indent=1)
    with open(os.path.join(c.dir, "repro.sh"), "w") as f:
        f.write(f"# one program of the campaign, all steps:\npython3 {shlex.quote(os.path.join(ROOT, 'scripts', 'csmith_campaign.py'))} "
                f"--spvhls {shlex.quote(a.spvhls)} --out /tmp/csmith_repro --seed-start {seed} --count 1 --profiles {profile} "
                f"--cluster {cluster}{' --globals' if a.globals else ''}"
                f"{' --on-chip-budget ' + a.on_chip_budget if a.on_chip_budget is not None else ''}"
                f"{' --inline ' + a.inline if a.inline is not None else ''}\n")

    # native
    t0 = time.time()
    ok, log, spec_args = check_native.build_native(cl, spec, c.dir, sanitize=True, timeout=T)
    c.times["native-cc"] = round(time.time() - t0, 2)
    open(os.path.join(c.dir, "native-cc.log"), "w").write(log)
    if not ok:
        return c.result("frontend-reject", "native-cc", first_line(log))
    t0 = time.time()
    status, native = check_native.run_native(c.dir, spec_args, a.native_timeout)
    c.times["native-run"] = round(time.time() - t0, 2)
    if status == "timeout":
        return c.result("native-timeout", "native-run", native)
    if status != "ok":
        open(os.path.join(c.dir, "native-run.log"), "w").write(native)
        return c.result("native-ub", "native-run", first_line(native, ("runtime error", "error", "sanitizer")))

    # SPIR-V
    t0 = time.time()
    spv, log = check_native.compile_spv(cl, c.dir, "clang-15", "llvm-spirv-15", T)
    c.times["clang"] = round(time.time() - t0, 2)
    open(os.path.join(c.dir, "clang.log"), "w").write(log)
    if not spv:
        return c.result("frontend-reject", "clang", first_line(log))
    rc, o = c.run("spirv-val", ["spirv-val", spv], T)
    if rc != 0:
        errs = [l for l in o.splitlines() if l.startswith("error")]
        if not errs or not all(SPIRV_VAL_TOLERATED.search(l) for l in errs):
            return c.result("frontend-reject", "spirv-val", first_line(o))

    # interpreter vs native
    rc, o = c.run("run", [a.spvhls, "run", spv, "--run", spec, "--full"], T)
    if rc is None:
        return c.result("hang", "run", o)
    if is_internal(rc, o):
        return c.result("internal-error", "run", f"exit {rc}: " + first_line(o))
    if rc != 0:
        if "not supported" in o or "unsupported" in o:
            return c.result("unsupported", "run", first_line(o))
        return c.result("wrong-interp", "run", f"interpreter error on a program native runs cleanly: {first_line(o)}")
    diffs, _ = check_native.compare_outputs(o, native)
    if diffs:
        return c.result("wrong-interp", "run", "; ".join(diffs))

    # hardware
    comp_dir = os.path.join(c.dir, "rtl")
    budget = ["--on-chip-budget", a.on_chip_budget] if a.on_chip_budget is not None else []
    budget += ["--inline", a.inline] if a.inline is not None else []
    rc, o = c.run("compile", [a.spvhls, "compile", spv, "-o", comp_dir, "--cluster", cluster] + budget, T)
    if rc is None:
        return c.result("hang", "compile", o)
    if is_internal(rc, o):
        return c.result("internal-error", "compile", f"exit {rc}: " + first_line(o))
    if rc != 0:
        return c.result("unsupported", "compile", first_line(o))
    # Every generated Verilog must be `verilator --lint-only -Wall` clean.
    top = json.load(open(os.path.join(comp_dir, "report.json")))["module"]
    files = sorted(os.path.join(comp_dir, f) for f in os.listdir(comp_dir) if f.endswith(".v"))
    rc, o = c.run("lint", ["verilator", "--lint-only", "-Wall", "--top-module", top] + files, T)
    if rc != 0 or "%Warning" in (o or ""):
        return c.result("lint", "lint", first_line(o, ("%warning", "%error")))
    if a.no_sim:
        return c.result("pass", "compile", "not simulated (--no-sim)")
    sim_cmd = [a.spvhls, "sim", spv, "--run", spec, "--cluster", cluster, "-o", comp_dir, "--seeds", a.sim_seeds,
               "--latency", "1:12", "--ready-prob", "0.6", "--max-cycles", str(a.max_cycles)] + budget
    with SIM_LOCK:
        rc, o = c.run("sim", sim_cmd, T)
    if rc is None:
        return c.result("hang", "sim", o)
    if is_internal(rc, o):
        return c.result("internal-error", "sim", f"exit {rc}: " + first_line(o))
    if rc != 0 and "building the simulator failed" in o:
        # The generated Verilog does not build in Verilator: a compiler bug, not a wrong result.
        return c.result("internal-error", "sim", "Verilator build: " + first_line(o))
    if rc != 0:
        return c.result("wrong-rtl", "sim", first_line(o, ("assertion failed", "deadlock", "fail", "error")))
    return c.result("pass", "sim")


def print_table(results, profiles):
    cols = [o for o in OUTCOMES if any(r["outcome"] == o for r in results)] or ["pass"]
    w = max(len(o) for o in cols) + 1
    head = f"{'profile':<14}" + "".join(f"{o:>{w}}" for o in cols) + f"{'total':>7}"
    print(head)
    print("-" * len(head))
    for p in profiles + ["all"]:
        rs = [r for r in results if p == "all" or r["profile"] == p]
        name = "all" if p == "all" else f"{p} {PROFILES[p][0]}"
        print(f"{name:<14}" + "".join(f"{sum(r['outcome'] == o for r in rs):>{w}}" for o in cols) + f"{len(rs):>7}")


def normalise(msg):
    """A diagnostic without its location and numbers, to group messages."""
    msg = re.sub(r"^.*?error:\s*", "", msg)
    msg = re.sub(r"\([^)]*\)", "(#)", msg)
    msg = re.sub(r"%\w+|\b\d+\b|'[^']*'|\"[^\"]*\"", "#", msg)
    return msg[:160]


def main():
    ap = argparse.ArgumentParser(description="csmith random-program campaign for spvhls (see the module docstring)")
    ap.add_argument("--spvhls", required=True, help="the spvhls binary")
    ap.add_argument("--out", required=True, help="output directory (results.json, cases/)")
    ap.add_argument("--count", type=int, default=20, help="number of programs")
    ap.add_argument("--seed-start", type=int, default=1, help="csmith seed of the first program; program i uses seed-start + i")
    ap.add_argument("--profiles", default="1,2,3,4", help="comma-separated profiles, used round-robin: " +
                    ", ".join(f"{k} {v[0]}" for k, v in PROFILES.items()))
    ap.add_argument("--jobs", type=int, default=2, help="programs in flight; simulations are serialised by --sim-jobs")
    ap.add_argument("--sim-jobs", type=int, default=1, help="simulations at a time (each Verilator build uses make -j 2)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per step")
    ap.add_argument("--native-timeout", type=float, default=10, help="seconds for the native run")
    ap.add_argument("--cluster", default="alternate", choices=["alternate", "stall-free", "stall-enable", "both"],
                    help="cluster kind(s) of compile/sim; alternate: one kind per program, chosen by a hash of the seed")
    ap.add_argument("--sim-seeds", default="1", help="`spvhls sim --seeds`")
    ap.add_argument("--max-cycles", type=int, default=20000000, help="`spvhls sim --max-cycles`")
    ap.add_argument("--no-sim", action="store_true", help="stop after `spvhls compile`")
    ap.add_argument("--globals", action="store_true",
                    help="let csmith declare global variables (program-scope variables) and fold them into r[3]")
    ap.add_argument("--keep-all", action="store_true", help="keep the files of passing programs too")
    ap.add_argument("--on-chip-budget", help="`spvhls compile/sim --on-chip-budget` (0: every array an "
                    "external memory)")
    ap.add_argument("--inline", choices=["auto", "always", "never"],
                    help="`spvhls compile/sim --inline` (never: every function with scalar parameters shared)")
    a = ap.parse_args()
    a.spvhls = os.path.abspath(a.spvhls)
    profiles = [p.strip() for p in a.profiles.split(",") if p.strip()]
    for p in profiles:
        if p not in PROFILES:
            ap.error(f"unknown profile {p}")
    for tool in ("csmith", "gcc", "clang-15", "llvm-spirv-15", "spirv-val", "verilator"):
        if not shutil.which(tool):
            ap.error(f"{tool} not found (scripts/setup-campaign.sh)")
    if not os.path.exists(SAFE_MATH):
        ap.error(f"{SAFE_MATH} not found: apt-get install -y libcsmith-dev")
    global SIM_LOCK
    SIM_LOCK = threading.Semaphore(max(1, a.sim_jobs))

    jobs = []
    for i in range(a.count):
        seed, profile = a.seed_start + i, profiles[i % len(profiles)]
        if a.cluster == "both":
            kinds = ["stall-free", "stall-enable"]
        elif a.cluster == "alternate":
            # From a hash of the seed, not its parity: with round-robin profiles the parity would tie
            # each profile to one cluster kind.
            kinds = ["stall-free" if zlib.crc32(str(seed).encode()) & 1 == 0 else "stall-enable"]
        else:
            kinds = [a.cluster]
        for k in kinds:
            jobs.append((seed, profile, k))
    os.makedirs(a.out, exist_ok=True)
    t_start = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {}
        for seed, profile, kind in jobs:
            out = a.out if a.cluster != "both" else os.path.join(a.out, kind)
            futs[ex.submit(run_case, seed, profile, kind, a, out)] = (seed, profile, kind, out)
        for f in concurrent.futures.as_completed(futs):
            seed, profile, kind, out = futs[f]
            try:
                r = f.result()
            except Exception as e:  # a bug in this script: report it as such, keep going
                r = {"id": f"p{profile}_s{seed}", "seed": seed, "profile": profile, "cluster": kind,
                     "outcome": "frontend-reject", "step": "campaign", "detail": f"campaign script error: {e!r}",
                     "times": {}, "total_time": 0}
            results.append(r)
            print(f"[{len(results)}/{len(jobs)}] {r['id']} {kind}: {r['outcome']} {r['step']} "
                  f"({r['total_time']} s) {r['detail'][:150]}", flush=True)
            if r["outcome"] == "pass" and not a.keep_all:
                shutil.rmtree(os.path.join(out, "cases", r["id"]), ignore_errors=True)
    wall = time.time() - t_start
    results.sort(key=lambda r: (r["seed"], r["cluster"]))

    print()
    print_table(results, profiles)
    failing = [r for r in results if r["outcome"] in ("wrong-interp", "wrong-rtl", "internal-error", "lint", "hang")]
    if failing:
        print("\nfailing programs (seed, profile, cluster, step: first diagnostic line):")
        for r in failing:
            print(f"  {r['outcome']:<15} seed {r['seed']} profile {r['profile']} {r['cluster']} {r['step']}: {r['detail'][:200]}")
    uns = collections.Counter(normalise(r["detail"]) for r in results if r["outcome"] == "unsupported")
    if uns:
        print("\nunsupported diagnostics by frequency:")
        for msg, n in uns.most_common():
            ex_seed = next(r["seed"] for r in results if r["outcome"] == "unsupported" and normalise(r["detail"]) == msg)
            print(f"  {n:>3}x  {msg}   (e.g. seed {ex_seed})")
    others = [r for r in results if r["outcome"] in ("frontend-reject", "native-ub", "native-timeout")]
    if others:
        print("\nexcluded / rejected before spvhls:")
        for r in others:
            print(f"  {r['outcome']:<15} seed {r['seed']} profile {r['profile']} {r['step']}: {r['detail'][:160]}")
    timed = [r["total_time"] for r in results if r["outcome"] == "pass"]
    per = sum(timed) / len(timed) if timed else 0.0
    print(f"\n{len(results)} runs in {wall:.0f} s wall ({wall / max(1, len(results)):.1f} s per run); "
          f"a passing run takes {per:.1f} s of steps on average")
    if per:
        print(f"estimate for 300 programs at this mix: {300 * wall / max(1, len(results)) / 60:.0f} min wall with --jobs {a.jobs}")
    summary = {"args": vars(a), "wall_seconds": round(wall, 1), "results": results,
               "counts": {p: collections.Counter(r["outcome"] for r in results if r["profile"] == p) for p in profiles}}
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"results: {os.path.join(a.out, 'results.json')}; failing cases kept under {os.path.join(a.out, 'cases')}/")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
