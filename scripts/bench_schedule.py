#!/usr/bin/env python3
"""Benchmark of the exact modulo scheduler (`spvhls schedule`, docs/scheduling.md).

Problem set: every loop the test suite compiles (the kernels of the build directory's tests and the
examples, compiled in both cluster kinds with `spvhls compile --dump-problems`, duplicates removed),
plus random problems from a seeded generator. Each problem is solved by the exact method and by the
heuristic; the table reports how many IIs are proven minimal, where the heuristic misses the minimum,
register bits of both, and the total scheduling time. Exits 1 if a problem has no schedule, fails, or
gets an II that is not proven minimal.

    python3 scripts/bench_schedule.py --spvhls build/spvhls --build build [--random 60] [--jobs 2]
"""
import argparse
import glob
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def kernels(build):
    files = sorted(glob.glob(os.path.join(build, "**", "*.spv"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "examples", "*.spvasm")))
    return files


def dump_problems(spvhls, build, out, jobs):
    def one(args):
        i, f = args
        for cluster in ("stall-enable", "stall-free"):
            d = os.path.join(out, f"k{i}_{cluster}")
            r = subprocess.run([spvhls, "compile", f, "-o", os.path.join(out, "rtl", f"k{i}"), "--cluster", cluster,
                                "--dump-problems", d], capture_output=True, text=True)
            if r.returncode != 0 and r.returncode != 1:
                return f"{f}: exit {r.returncode}: {r.stderr[:300]}"
        return None

    with ThreadPoolExecutor(jobs) as ex:
        for err in ex.map(one, enumerate(kernels(build))):
            if err:
                print("compile failed:", err, file=sys.stderr)
    return unique(sorted(glob.glob(os.path.join(out, "k*", "*.json"))))


def unique(paths):
    """The paths whose problems differ (names aside)."""
    problems, seen = [], set()
    for p in paths:
        data = json.load(open(p))
        data.pop("name", None)
        key = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()
        if key not in seen:
            seen.add(key)
            problems.append(p)
    return problems


def random_problem(rng, n):
    """A loop body: forward data dependences, recurrences, a memory port shared by loads and stores,
    a non-pipelined divider, values of 1..64 bits."""
    types = [{"name": "load", "latency": 5, "resource": "mem"}, {"name": "store", "latency": 1, "resource": "mem"},
             {"name": "div", "latency": 6, "blocking": rng.randint(1, 3), "limit": 1}]
    types += [{"name": f"lat{l}", "latency": l} for l in (0, 1, 2, 3, 5)]
    ops = []
    for i in range(n):
        k = rng.randint(0, 9)
        t = "store" if k == 0 else "load" if k < 3 else "div" if k == 3 else f"lat{rng.choice((0, 1, 1, 1, 2, 3, 5))}"
        op = {"name": f"op{i}", "type": t}
        if rng.randint(0, 3):
            op["bits"] = rng.randint(1, 64)
        ops.append(op)
    lat = {t["name"]: t["latency"] for t in types}
    deps = []
    density = max(2, 30 // n)
    for i in range(n):
        for j in range(i + 1, n):
            if rng.randint(0, 99) < 5 * density:
                deps.append({"from": i, "to": j})
            if rng.randint(0, 99) < 2 * density:
                deps.append({"from": j, "to": i, "distance": rng.randint(1, 2)})
            if rng.randint(0, 99) < density:
                deps.append({"from": j, "to": i, "distance": 1, "delay": 1, "kind": "order"})
            if rng.randint(0, 99) < density:
                deps.append({"from": i, "to": j, "delay": -lat[ops[j]["type"]], "kind": "order"})
    return {"name": f"random{n}", "resources": [{"name": "mem", "limit": rng.randint(1, 2)}], "types": types,
            "operations": ops, "dependences": deps}


def solve(spvhls, problem, scheduler, time_limit):
    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    r = subprocess.run([spvhls, "schedule", problem, "--scheduler", scheduler, "--time-limit", str(time_limit), "-o", out],
                       capture_output=True, text=True)
    try:
        res = json.load(open(out)) if os.path.getsize(out) else None
    finally:
        os.unlink(out)
    return r.returncode, res, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spvhls", default=os.path.join(ROOT, "build", "spvhls"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory with the tests' .spv files")
    ap.add_argument("--problems", help="use the problem files in this directory instead of compiling the kernels")
    ap.add_argument("--random", type=int, default=60, help="random problems added to the set")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="bench_schedule_")
    if args.problems:
        loops = unique(sorted(glob.glob(os.path.join(args.problems, "**", "*.loop*.json"), recursive=True)))
    else:
        loops = dump_problems(args.spvhls, args.build, work, args.jobs)
    rng = random.Random(args.seed)
    randoms = []
    for i in range(args.random):
        path = os.path.join(work, f"random{i}.json")
        json.dump(random_problem(rng, rng.randint(4, 24)), open(path, "w"))
        randoms.append(path)

    rows, failures = [], []

    def run(p):
        rc, exact, err = solve(args.spvhls, p, "exact", args.time_limit)
        rch, heur, errh = solve(args.spvhls, p, "heuristic", args.time_limit)
        return p, rc, exact, err, rch, heur

    with ThreadPoolExecutor(args.jobs) as ex:
        for p, rc, exact, err, rch, heur in ex.map(run, loops + randoms):
            kind = "random" if p in randoms else "loop"
            if rc != 0 or not exact or exact.get("ii") is None:
                failures.append(f"{p}: exit {rc}: {err.strip()[:300]}")
                continue
            rows.append((kind, exact, heur if rch == 0 else None))
            if rch == 0 and heur["ii"] > exact["ii"]:
                print(f"heuristic above the minimum: {p}: {exact['operations']} operations, heuristic II {heur['ii']}, "
                      f"exact II {exact['ii']} ({exact['proof']}), {exact['seconds']:.2f} s")
            if not exact["ii_proven_minimal"]:
                failures.append(f"{p}: II {exact['ii']} not proven minimal ({exact['proof']})")

    def summary(kind):
        rs = [r for r in rows if kind in ("all", r[0])]
        n = len(rs)
        proven = sum(e["ii_proven_minimal"] for _, e, _ in rs)
        above = sum(e["ii"] > e["mii"] for _, e, _ in rs)
        missed = sum(1 for _, e, h in rs if h and h["ii"] > e["ii"])
        same = [(e, h) for _, e, h in rs if h and h["ii"] == e["ii"]]
        regs_proven = sum(e["register_bits_proven_minimal"] for _, e, _ in rs)
        bits_e = sum(e["register_bits"] for e, _ in same)
        bits_h = sum(h["register_bits"] for _, h in same)
        secs = sum(e["seconds"] for _, e, _ in rs)
        worst = max((e["seconds"] for _, e, _ in rs), default=0)
        ops = max((e["operations"] for _, e, _ in rs), default=0)
        print(f"{kind:7} {n:8} {ops:7} {proven:7} {above:8} {missed:9} {regs_proven:11} {bits_e:12} {bits_h:12} "
              f"{secs:9.1f} {worst:8.2f}")

    print("set     problems max ops  proven II>MII heur.miss regs proven  bits exact  bits heur.   total s    max s")
    for k in ("loop", "random", "all"):
        summary(k)
    for f in failures:
        print("FAIL", f)
    print(f"{len(rows)} problems scheduled, {len(failures)} failures; problems in {work}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
