"""The loop the kernel fuzzers share (fuzz_fusion.py, fuzz_forward.py): per seed, a random OpenCL C kernel
and its run spec in OUT/<seed>/, built with clang-15 -O0 or -O2 + llvm-spirv-15, then `spvhls sim
--check-cycles --seeds 1,2` in a random cluster kind (the RTL against the interpreter, bit for bit, at
fixed latency against the prediction and with random latency and back-pressure)."""
import argparse, json, os, random, subprocess


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)


def fuzz(gen, spec, tally, total_label):
    """gen(rng) -> kernel source; spec(rng) -> run spec; tally(report.json, {} if none) -> (count, text for the
    kernel's line). Prints each kernel's outcome and a summary; returns the exit status (1 if any failed)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    spvhls = os.path.abspath(a.spvhls)
    failed, total = [], 0
    for s in range(a.seed, a.seed + a.count):
        rng = random.Random(s)
        d = os.path.join(a.out, str(s))
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, "k.cl"), "w").write(gen(rng))
        json.dump(spec(rng), open(os.path.join(d, "k.run.json"), "w"), indent=1)
        mode = rng.choice(["stall-enable", "stall-free", "auto"])
        opt = rng.choice(["-O0", "-O2"])
        r = run(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
                 "-no-opaque-pointers", opt, "-emit-llvm-bc", "k.cl", "-o", "k.bc"], d)
        if r.returncode == 0:
            r = run(["llvm-spirv-15", "--spirv-ext=+all", "k.bc", "-o", "k.spv"], d)
        if r.returncode != 0:
            print(f"{s}: frontend failed: {r.stderr.strip()[:200]}")
            failed.append(s)
            continue
        r = run([spvhls, "sim", "k.spv", "--run", "k.run.json", "--cluster", mode, "--check-cycles", "--seeds", "1,2",
                 "-o", "out"], d)
        try:
            report = json.load(open(os.path.join(d, "out", "report.json")))
        except (OSError, ValueError):
            report = {}
        try:
            count, text = tally(report)
        except KeyError:
            count, text = 0, "no report"
        total += count
        ok = r.returncode == 0 and "sim: " in r.stdout and " 0 failed" in r.stdout
        print(f"{s}: {'pass' if ok else 'FAIL'} ({opt}, {mode}, {text})")
        if not ok:
            failed.append(s)
            print((r.stdout + r.stderr)[-1500:])
    print(f"{a.count - len(failed)} of {a.count} passed; {total} {total_label} in all")
    if failed:
        print("failed seeds: " + " ".join(map(str, failed)))
    return 1 if failed else 0
