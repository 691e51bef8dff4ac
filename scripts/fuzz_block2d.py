#!/usr/bin/env python3
"""Random 2D block IO kernels (issue 16): per seed, one SPIR-V kernel (clang-15 has no built-ins for
SPV_INTEL_2d_block_io) with a random instruction (load, transform, transpose or store), element size,
block shape, subgroup size and surface, and tile coordinates that put some subgroups' blocks inside
the surface, some across its edges and some outside; the surface parameters come from the run spec's
scalars, so each subgroup's block takes the rows-at-once way or the element loop at run time. A load
writes each lane's storage to `out`; a store fills it from the work-item id first. `spvhls sim
--check-cycles --seeds 1,2` in a random cluster kind compares the RTL with the interpreter, bit for
bit (`dst`'s bytes outside the surface included).

    python3 scripts/fuzz_block2d.py --spvhls build/spvhls --out /tmp/fb [--count 20] [--seed 1]
"""
import argparse, json, os, random, subprocess

from gen_block2d_test import shape  # the interpreter's per-lane shape


def kernel(kind, e, w, h, c, sg, n, bytes_, items_x):
    bits, ebits = 8 * bytes_, 8 * e
    op = {"load": "OpSubgroup2DBlockLoadINTEL", "transform": "OpSubgroup2DBlockLoadTransformINTEL",
          "transpose": "OpSubgroup2DBlockLoadTransposeINTEL", "store": "OpSubgroup2DBlockStoreINTEL"}[kind]
    caps = ["Addresses", "Kernel", "Int8", "Int16", "Int64", "SubgroupDispatch", "Subgroup2DBlockIOINTEL"]
    if kind == "transform":
        caps.append("Subgroup2DBlockTransformINTEL")
    if kind == "transpose":
        caps.append("Subgroup2DBlockTransposeINTEL")
    L = [f"OpCapability {x}" for x in caps]
    L += ['OpExtension "SPV_INTEL_2d_block_io"', "OpMemoryModel Physical64 OpenCL",
          'OpEntryPoint Kernel %k "fz" %wg %gid', f"OpExecutionMode %k SubgroupSize {sg}",
          "OpDecorate %wg BuiltIn WorkgroupId", "OpDecorate %wg Constant",
          "OpDecorate %gid BuiltIn GlobalInvocationId", "OpDecorate %gid Constant",
          "%void = OpTypeVoid", "%u32 = OpTypeInt 32 0", "%u64 = OpTypeInt 64 0"]
    for b in sorted({ebits, bits} - {32, 64}):
        L.append(f"%u{b} = OpTypeInt {b} 0")
    L += ["%v2 = OpTypeVector %u32 2", "%v3 = OpTypeVector %u64 3", "%in_v3 = OpTypePointer Input %v3",
          "%wg = OpVariable %in_v3 Input", "%gid = OpVariable %in_v3 Input",
          f"%gpe = OpTypePointer CrossWorkgroup %u{ebits}", f"%fpd = OpTypePointer Function %u{bits}",
          f"%gpd = OpTypePointer CrossWorkgroup %u{bits}", "%gp32 = OpTypePointer CrossWorkgroup %u32"]
    L += [f"%c{x} = OpConstant %u32 {x}" for x in sorted({e, w, h, c, n} | set(range(7)))]
    L += [f"%ct{t} = OpConstant %u32 {t}" for t in range(n)] + [f"%lt{t} = OpConstant %u64 {t}" for t in range(n)]
    L += [f"%gsl = OpConstant %u64 {items_x}", f"%nl = OpConstant %u64 {n}"]
    L += [f"%arr = OpTypeArray %u{bits} %c{n}", "%parr = OpTypePointer Function %arr",
          "%fn = OpTypeFunction %void %gpe %gpd %gp32", "%k = OpFunction %void None %fn",
          "%src = OpFunctionParameter %gpe", "%out = OpFunctionParameter %gpd", "%prm = OpFunctionParameter %gp32",
          "%entry = OpLabel", "%var = OpVariable %parr Function"]
    # prm: width, height, pitch, step x, step y, offset x, offset y (coordinates of group (x, y)).
    for i, name in enumerate(["mw", "mh", "mp", "sx", "sy", "ox", "oy"]):
        L += [f"%pp{name} = OpInBoundsPtrAccessChain %gp32 %prm %c{i}", f"%{name} = OpLoad %u32 %pp{name}"]
    L += ["%w3 = OpLoad %v3 %wg", "%gx64 = OpCompositeExtract %u64 %w3 0", "%gy64 = OpCompositeExtract %u64 %w3 1",
          "%gx = OpUConvert %u32 %gx64", "%gy = OpUConvert %u32 %gy64", "%tx = OpIMul %u32 %gx %sx",
          "%ty = OpIMul %u32 %gy %sy", "%cx = OpIAdd %u32 %tx %ox", "%cy = OpIAdd %u32 %ty %oy",
          "%coord = OpCompositeConstruct %v2 %cx %cy", "%g3 = OpLoad %v3 %gid",
          "%id64 = OpCompositeExtract %u64 %g3 0", "%id = OpUConvert %u32 %id64",
          "%idy64 = OpCompositeExtract %u64 %g3 1", "%idy = OpUConvert %u32 %idy64",
          "%priv = OpInBoundsAccessChain %fpd %var %c0"]
    shape_ops = f"%c{e} %c{w} %c{h} %c{c}"
    surface = "%mw %mh %mp %coord"
    if kind == "store":
        for t in range(n):  # the work-item's values: (x id * n + t) ^ y id
            L += [f"%sa{t} = OpIMul %u32 %id %c{n}", f"%sb{t} = OpIAdd %u32 %sa{t} %ct{t}",
                  f"%sk{t} = OpBitwiseXor %u32 %sb{t} %idy"]
            v = f"%sk{t}"
            if bits != 32:
                L.append(f"%st{t} = OpUConvert %u{bits} {v}")
                v = f"%st{t}"
            L += [f"%sp{t} = OpInBoundsAccessChain %fpd %var %ct{t}", f"OpStore %sp{t} {v}"]
        L.append(f"{op} {shape_ops} %priv %src {surface}")
    else:
        L.append(f"{op} {shape_ops} %src {surface} %priv")
        L += ["%idl = OpUConvert %u64 %id", "%idyl = OpUConvert %u64 %idy", "%rowl = OpIMul %u64 %idyl %gsl",
              "%lin = OpIAdd %u64 %rowl %idl", "%ob = OpIMul %u64 %lin %nl"]
        for t in range(n):
            L += [f"%la{t} = OpInBoundsAccessChain %fpd %var %ct{t}", f"%lv{t} = OpLoad %u{bits} %la{t}",
                  f"%li{t} = OpIAdd %u64 %ob %lt{t}", f"%lp{t} = OpInBoundsPtrAccessChain %gpd %out %li{t}",
                  f"OpStore %lp{t} %lv{t}"]
    L += ["OpReturn", "OpFunctionEnd"]
    return "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    spvhls = os.path.abspath(a.spvhls)
    failed = []
    for s in range(a.seed, a.seed + a.count):
        rng = random.Random(s)
        d = os.path.join(a.out, str(s))
        os.makedirs(d, exist_ok=True)
        kind = rng.choice(["load", "load", "store", "store", "transform", "transpose"])
        sg = rng.choice([8, 8, 16] if kind != "transpose" else [8])
        e = rng.choice({"transform": [1, 2], "transpose": [4, 8]}.get(kind, [1, 2, 4, 8]))
        mult = {1: 4, 2: 2}.get(e, 1)
        w = rng.choice([x for x in [sg // 2, sg, sg, 2 * sg, 12, 6, 4] if x > 0 and x % mult == 0])
        h = rng.choice([1, 2, 3, 4, 8] if kind != "transpose" else [sg, sg // 2, 4])
        c = rng.choice([1, 1, 2]) if kind in ("load", "transform") else 1
        per, bytes_ = shape(kind, e, w, h, sg)
        if per * c > 64:
            c = 1
        n = per * c
        mw = rng.choice([64, 128, 96, 200]) // mult * mult
        mw -= mw % e
        mh = rng.randint(3, 24)
        mp = max(mw, 16) + rng.choice([0, 16, 48, 64])
        mp += (-mp) % 16
        gx, gy = rng.randint(1, 4), rng.randint(1, 3)
        sx = w * c if rng.random() < 0.7 else w * c + mult
        sy = h if rng.random() < 0.7 else rng.randint(1, h + 2)
        ox = rng.choice([0, 0, -mult * rng.randint(1, 3), mult * rng.randint(1, 3)])
        oy = rng.choice([0, 0, -1, 2])
        src_len = mp * mh + 64
        text = kernel(kind, e, w, h, c, sg, n, bytes_, gx * sg)
        open(os.path.join(d, "k.spvasm"), "w").write(text)
        prm = [mw, mh, mp, sx, sy, ox & 0xFFFFFFFF, oy & 0xFFFFFFFF]
        items = gx * sg * gy
        args = [{"name": "src", "buffer": {"type": "u8", "length": src_len,
                                           "init": {"random": {"seed": s, "min": 0, "max": 255}}}}]
        if kind == "store":
            args.append({"name": "out", "buffer": {"type": f"u{8 * bytes_}", "length": 4, "init": "zeros"}})
        else:
            args.append({"name": "out", "buffer": {"type": f"u{8 * bytes_}", "length": items * n, "init": "zeros"}})
        args.append({"name": "prm", "buffer": {"type": "u32", "length": len(prm), "init": prm}})
        spec = {"kernel": "fz", "args": args, "global_size": [gx * sg, gy], "local_size": [sg, 1],
                "subgroup_size": sg}
        json.dump(spec, open(os.path.join(d, "k.run.json"), "w"), indent=1)
        mode = rng.choice(["stall-enable", "stall-free"])
        desc = f"{kind} e={e} {w}x{h}x{c} S={sg} surface {mw}x{mh} pitch {mp} tiles {sx},{sy}+({ox},{oy}), {mode}"
        r = subprocess.run([spvhls, "run", "k.spvasm", "--run", "k.run.json"], cwd=d, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{s}: skipped ({desc}): the interpreter rejects it: {(r.stdout + r.stderr).strip()[-300:]}")
            continue
        r = subprocess.run([spvhls, "sim", "k.spvasm", "--run", "k.run.json", "--cluster", mode, "--check-cycles",
                            "--seeds", "1,2", "-o", "o"], cwd=d, capture_output=True, text=True, timeout=1200)
        ok = r.returncode == 0 and " 0 failed" in r.stdout
        print(f"{s}: {'pass' if ok else 'FAIL'} ({desc})")
        if not ok:
            failed.append(s)
            print((r.stdout + r.stderr)[-1500:])
    print(f"{a.count - len(failed)} of {a.count} ran without a failure")
    if failed:
        print("failed seeds: " + " ".join(map(str, failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
