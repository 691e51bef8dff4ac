#!/usr/bin/env python3
"""Native differential check of a single-work-item OpenCL C kernel.

`spvhls sim` compares the RTL with the golden interpreter; a defect that both share (say, wrong
by-value struct semantics in the lowering both start from) is invisible there. This check compiles the
same .cl natively with gcc, through tests/native/opencl_shim.h (address spaces and `kernel` vanish,
`uint`/`ulong`/... become the C types of the same width), with a generated main() that builds every
buffer and scalar from the run spec exactly as spvhls does (docs/cli.md: "zeros", lists, {"random":
...} reproduced here bit for bit: std::mt19937_64 + rejection sampling as in sim/runspec.cpp, {"file":
...}), calls the kernel once and dumps the buffers. They are compared element by element with what
`spvhls run` prints.

Every element is compared (`spvhls run --full`). Limits: one work-item (ND-range specs are refused); f16 buffers are not supported; OpenCL C
semantics that C lacks (shift counts taken modulo the width, vector types, builtins other than the
work-item functions) are the kernel author's business: write plain C.

Exit status: 0 same results, 1 different results or a failing step (the message says which), 2 bad
command line or a spec this check cannot reproduce.

Also used as a module by scripts/csmith_campaign.py (build_native, run_native, compare_outputs).
"""
import argparse, json, math, os, re, shlex, struct, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.normpath(os.path.join(HERE, "..", "native", "opencl_shim.h"))
MAX_PRINTED = 64  # sim/runspec.h formatBuffers default

# name -> (bytes, signed, float, C type)
TYPES = {
    "i8": (1, True, False, "int8_t"), "i16": (2, True, False, "int16_t"),
    "i32": (4, True, False, "int32_t"), "i64": (8, True, False, "int64_t"),
    "u8": (1, False, False, "uint8_t"), "u16": (2, False, False, "uint16_t"),
    "u32": (4, False, False, "uint32_t"), "u64": (8, False, False, "uint64_t"),
    "f32": (4, True, True, "float"), "f64": (8, True, True, "double"),
}


class Unsupported(Exception):
    """The spec uses something this check does not reproduce (exit 2)."""


class MT19937_64:
    """std::mt19937_64 (the 64-bit Mersenne Twister of the C++ standard, default seeding)."""

    def __init__(self, seed):
        self.mt = [0] * 312
        self.mt[0] = seed & 0xFFFFFFFFFFFFFFFF
        for i in range(1, 312):
            prev = self.mt[i - 1]
            self.mt[i] = (6364136223846793005 * (prev ^ (prev >> 62)) + i) & 0xFFFFFFFFFFFFFFFF
        self.idx = 312

    def _twist(self):
        mt = self.mt
        for i in range(312):
            x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % 312] & 0x7FFFFFFF)
            xa = x >> 1
            if x & 1:
                xa ^= 0xB5026F5AA96619E9
            mt[i] = mt[(i + 156) % 312] ^ xa
        self.idx = 0

    def __call__(self):
        if self.idx >= 312:
            self._twist()
        y = self.mt[self.idx]
        self.idx += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & 0xFFFFFFFFFFFFFFFF


def mask(nbytes):
    return (1 << (8 * nbytes)) - 1


def float_bits(value, nbytes):
    return struct.unpack("<I", struct.pack("<f", value))[0] if nbytes == 4 else struct.unpack("<Q", struct.pack("<d", value))[0]


def bits_float(bits, nbytes):
    return struct.unpack("<f", struct.pack("<I", bits))[0] if nbytes == 4 else struct.unpack("<d", struct.pack("<Q", bits))[0]


def float_number(j):
    if isinstance(j, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[j]
    return float(j)


def int_bits(j, nbytes):
    if not isinstance(j, int) or isinstance(j, bool):
        raise Unsupported(f"expected an integer, found {j!r}")
    return j & mask(nbytes)


def elem_bits(j, t):
    nbytes, _, isfloat, _ = TYPES[t]
    return float_bits(float_number(j), nbytes) if isfloat else int_bits(j, nbytes)


def random_fill(r, t, length):
    """sim/runspec.cpp randomFill(), element by element."""
    nbytes, signed, isfloat, _ = TYPES[t]
    rng = MT19937_64(int(r.get("seed", 0)))
    out = []
    if isfloat:
        lo = float_number(r.get("min", -1.0))
        hi = float_number(r.get("max", 1.0))
        for _ in range(length):
            u = float(rng() >> 11) * 2.0 ** -53
            out.append(float_bits(lo + u * (hi - lo), nbytes))
        return out
    w = 8 * nbytes
    shift = 64 - w
    type_lo = (1 << (w - 1)) if signed else 0
    lo = int_bits(r["min"], nbytes) if "min" in r else type_lo
    hi = int_bits(r["max"], nbytes) if "max" in r else (type_lo - 1) & mask(nbytes)

    def sext(bits):  # to 64-bit two's complement bits
        v = (bits << shift) & 0xFFFFFFFFFFFFFFFF
        if v >> 63:
            v -= 1 << 64
        return (v >> shift) & 0xFFFFFFFFFFFFFFFF

    lo_key = sext(lo) ^ (1 << 63) if signed else lo
    hi_key = sext(hi) ^ (1 << 63) if signed else hi
    if lo_key > hi_key:
        raise Unsupported("random: min > max")
    span = (hi_key - lo_key + 1) & 0xFFFFFFFFFFFFFFFF
    full = 0xFFFFFFFFFFFFFFFF
    limit = 0 if span == 0 else full - (((full % span) + 1) % span)
    for _ in range(length):
        v = rng()
        if span != 0:
            while v > limit:
                v = rng()
            v %= span
        out.append((lo + v) & mask(nbytes))
    return out


def load_spec(path):
    """The spec's arguments: [{'name', 'buffer': bool, 'type', 'length', 'elems': [bits]} | {'name', 'scalar': bits, 'type'}]."""
    spec = json.load(open(path))
    for key in ("global_size", "local_size", "subgroup_size"):
        if key in spec:
            raise Unsupported(f"ND-range spec ({key}): the native check runs one work-item")
    args = [parse_arg(a, f"arg{i}", path) for i, a in enumerate(spec.get("args", []))]
    return spec.get("kernel"), args


def load_globals(path):
    """The spec's "globals" (host writes into program-scope globals before the run): buffers by name."""
    spec = json.load(open(path))
    return [parse_arg(g, g.get("name"), path) for g in spec.get("globals", [])]


def parse_arg(a, default_name, path):
    name = a.get("name") or default_name
    if "buffer" in a:
        b = a["buffer"]
        t = b["type"]
        if t not in TYPES:
            raise Unsupported(f"buffer type {t} is not supported by the native check")
        n = int(b["length"])
        nbytes = TYPES[t][0]
        elems = [0] * n
        init = b.get("init", "zeros")
        if init == "zeros":
            pass
        elif isinstance(init, list):
            for k, v in enumerate(init):
                elems[k] = elem_bits(v, t)
        elif isinstance(init, dict) and "random" in init:
            elems = random_fill(init["random"], t, n)
        elif isinstance(init, dict) and "file" in init:
            p = init["file"]
            if not os.path.isabs(p):
                p = os.path.join(os.path.dirname(os.path.abspath(path)), p)
            data = open(p, "rb").read()
            if len(data) != n * nbytes:
                raise Unsupported(f"{p}: {len(data)} bytes, expected {n * nbytes}")
            elems = [int.from_bytes(data[k * nbytes:(k + 1) * nbytes], "little") for k in range(n)]
        else:
            raise Unsupported(f"unknown init {init!r}")
        return {"name": name, "buffer": True, "type": t, "length": n, "elems": elems}
    t = a.get("type")
    if t is not None and t not in TYPES:
        raise Unsupported(f"scalar type {t} is not supported by the native check")
    bits = elem_bits(a["value"], t) if t else int_bits(a["value"], 8)
    return {"name": name, "buffer": False, "type": t, "scalar": bits}


def kernel_name(cl_text):
    names = re.findall(r"(?:__kernel|\bkernel)\s+void\s+(\w+)\s*\(", cl_text)
    if len(names) != 1:
        raise Unsupported(f"expected exactly one kernel in the source, found {names}; give the spec a \"kernel\"")
    return names[0]


def generate_main(cl_path, kernel, args, host_globals=()):
    lines = ["/* generated by check_native.py */", f'#include "{os.path.abspath(cl_path)}"', "#include <stdio.h>"]
    call = []
    writes = []  # the host's writes into program-scope globals, before the call
    for i, g in enumerate(host_globals):
        nbytes = TYPES[g["type"]][0]
        data = b"".join(e.to_bytes(nbytes, "little") for e in g["elems"])
        lines.append(f"static const unsigned char spvhls_global{i}[{len(data)}] = {{{','.join(str(x) for x in data)}}};")
        writes.append(f"  memcpy((void *)&{g['name']}, spvhls_global{i}, sizeof spvhls_global{i});")
    for i, a in enumerate(args):
        if a["buffer"]:
            nbytes = TYPES[a["type"]][0]
            data = b"".join(e.to_bytes(nbytes, "little") for e in a["elems"])
            body = ",".join(str(x) for x in data)
            lines.append(f"static _Alignas(16) unsigned char spvhls_buf{i}[{len(data)}] = {{{body}}};")
            call.append(f"(void *)spvhls_buf{i}")
        else:
            t = a["type"]
            if t in ("f32", "f64"):
                ct, it = ("float", "uint32_t") if t == "f32" else ("double", "uint64_t")
                lines.append(f"static {ct} spvhls_arg{i}(void) {{ {it} b = {a['scalar']}u; {ct} f; memcpy(&f, &b, sizeof f); return f; }}")
                call.append(f"spvhls_arg{i}()")
            else:
                # 64-bit two's complement bits; the prototype converts (truncates) to the parameter's type.
                call.append(f"(long long)0x{a['scalar']:x}ull")
    lines.append("int main(void) {")
    lines += writes
    lines.append(f"  {kernel}({', '.join(call)});")
    for i, a in enumerate(args):
        if a["buffer"]:
            lines.append(f'  printf("B{i} ");')
            lines.append(f'  for (size_t k = 0; k < sizeof spvhls_buf{i}; k++) printf("%02x", spvhls_buf{i}[k]);')
            lines.append('  printf("\\n");')
    lines.append("  return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build_native(cl_path, spec_path, out_dir, cc="gcc", opt="-O0", sanitize=False, timeout=120, kernel=None):
    """Writes out_dir/native_main.c and builds out_dir/native. Returns (ok, log, args)."""
    spec_kernel, args = load_spec(spec_path)
    kernel = kernel or spec_kernel or kernel_name(open(cl_path, errors="replace").read())
    os.makedirs(out_dir, exist_ok=True)
    main_c = os.path.join(out_dir, "native_main.c")
    exe = os.path.join(out_dir, "native")
    with open(main_c, "w") as f:
        f.write(generate_main(cl_path, kernel, args, load_globals(spec_path)))
    cmd = [cc, "-std=gnu11", opt, "-fwrapv", "-fno-strict-aliasing", "-w", "-include", SHIM, main_c, "-o", exe, "-lm"]
    if sanitize:
        cmd[1:1] = ["-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-g"]
    try:
        r = subprocess.run(cmd, text=True, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, "native compile timed out: " + shlex.join(cmd), args
    return r.returncode == 0, shlex.join(cmd) + "\n" + r.stdout + r.stderr, args


def run_native(out_dir, args, timeout=60):
    """Runs out_dir/native. Returns (status, buffers or message); status is 'ok', 'timeout', 'error'."""
    exe = os.path.join(out_dir, "native")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="print_stacktrace=1")
    try:
        r = subprocess.run([exe], text=True, capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", f"native run exceeded {timeout} s"
    if r.returncode != 0:
        return "error", f"native run exited {r.returncode}\n{r.stderr[-3000:]}"
    bufs = {}
    for line in r.stdout.splitlines():
        if line.startswith("B") and " " in line:
            idx, hexdata = line[1:].split(" ", 1)
            bufs[int(idx)] = bytes.fromhex(hexdata.strip())
    out = []
    for i, a in enumerate(args):
        if not a["buffer"]:
            continue
        nbytes = TYPES[a["type"]][0]
        data = bufs.get(i)
        if data is None or len(data) != nbytes * a["length"]:
            return "error", f"native run printed no (complete) buffer {a['name']}"
        out.append((a, [int.from_bytes(data[k:k + nbytes], "little") for k in range(0, len(data), nbytes)]))
    return "ok", out


BUF_LINE = re.compile(r"^(.*) \((\w+)\[(\d+)\]\):(.*)$")


def parse_run_output(text):
    """`spvhls run` buffer lines -> {name: (type, length, [tokens])}."""
    out = {}
    for line in text.splitlines():
        m = BUF_LINE.match(line)
        if not m:
            continue
        toks = m.group(4).split()
        if "..." in toks:
            toks = toks[:toks.index("...")]
        out[m.group(1)] = (m.group(2), int(m.group(3)), toks)
    return out


def fmt_elem(t, bits):
    nbytes, signed, isfloat, _ = TYPES[t]
    if isfloat:
        return repr(bits_float(bits, nbytes))
    if signed and bits >> (8 * nbytes - 1):
        return str(bits - (1 << (8 * nbytes)))
    return str(bits)


def same_elem(t, token, bits):
    nbytes, signed, isfloat, _ = TYPES[t]
    if isfloat:
        try:
            got = float(token)
        except ValueError:
            return False
        want = bits_float(bits, nbytes)
        if math.isnan(want) or math.isnan(got):
            return math.isnan(want) and math.isnan(got)
        if nbytes == 4:
            got = bits_float(float_bits(got, 4), 4)
        return got == want
    return token == fmt_elem(t, bits)


def compare_outputs(run_stdout, native_bufs):
    """Returns (list of mismatch lines, number of elements compared, number not comparable)."""
    printed = parse_run_output(run_stdout)
    diffs, compared = [], 0
    for a, elems in native_bufs:
        line = printed.get(a["name"])
        if line is None:
            diffs.append(f"{a['name']}: not printed by spvhls run")
            continue
        t, n, toks = line
        if t != a["type"] or n != a["length"]:
            diffs.append(f"{a['name']}: spvhls run prints {t}[{n}], the spec says {a['type']}[{a['length']}]")
            continue
        for k, tok in enumerate(toks):
            compared += 1
            if not same_elem(t, tok, elems[k]):
                diffs.append(f"{a['name']}[{k}]: spvhls run {tok}, native {fmt_elem(t, elems[k])}")
        if len(toks) != n:
            diffs.append(f"{a['name']}: spvhls run printed {len(toks)} of {n} elements")
    return diffs, compared


def format_native(native_bufs):
    lines = []
    for a, elems in native_bufs:
        shown = " ".join(fmt_elem(a["type"], e) for e in elems[:MAX_PRINTED])
        more = f" ... ({len(elems) - MAX_PRINTED} more)" if len(elems) > MAX_PRINTED else ""
        lines.append(f"{a['name']} ({a['type']}[{a['length']}]): {shown}{more}")
    return "\n".join(lines)


def compile_spv(cl, out_dir, clang, llvm_spirv, timeout=120):
    """clang-15 + llvm-spirv-15 as in examples/CMakeLists.txt. Returns (spv path or None, log)."""
    stem = os.path.splitext(os.path.basename(cl))[0]
    bc, spv = os.path.join(out_dir, stem + ".bc"), os.path.join(out_dir, stem + ".spv")
    steps = [[clang, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
              "-no-opaque-pointers", "-O0", "-ffp-contract=off", "-emit-llvm-bc", cl, "-o", bc],
             [llvm_spirv, "--spirv-ext=+all", bc, "-o", spv]]
    log = ""
    for cmd in steps:
        try:
            r = subprocess.run(cmd, text=True, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, log + f"timed out: {shlex.join(cmd)}\n"
        log += shlex.join(cmd) + "\n" + r.stdout + r.stderr
        if r.returncode != 0:
            return None, log
    return spv, log


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spvhls", required=True)
    ap.add_argument("--cl", required=True, help="the OpenCL C source")
    ap.add_argument("--spec", required=True, help="the run spec")
    ap.add_argument("--spv", help="its SPIR-V (default: compiled here with clang-15 + llvm-spirv-15)")
    ap.add_argument("--out", required=True, help="work directory")
    ap.add_argument("--kernel")
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--opt", default="-O0", choices=["-O0", "-O1"])
    ap.add_argument("--sanitize", action="store_true", help="build the native program with UBSan + ASan")
    ap.add_argument("--clang", default="clang-15")
    ap.add_argument("--llvm-spirv", default="llvm-spirv-15")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per step")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    try:
        ok, log, spec_args = build_native(args.cl, args.spec, args.out, args.cc, args.opt, args.sanitize, args.timeout, args.kernel)
    except Unsupported as e:
        print(f"NATIVE UNSUPPORTED: {e}")
        return 2
    print(log)
    if not ok:
        print("NATIVE FAIL: the native build failed")
        return 1
    status, native = run_native(args.out, spec_args, args.timeout)
    if status != "ok":
        print(f"NATIVE FAIL: {native}")
        return 1

    spv = args.spv
    if not spv:
        spv, log = compile_spv(args.cl, args.out, args.clang, args.llvm_spirv, args.timeout)
        print(log)
        if not spv:
            print("NATIVE FAIL: clang-15 / llvm-spirv-15 failed")
            return 1
    cmd = [args.spvhls, "run", spv, "--run", args.spec, "--full"] + (["--kernel", args.kernel] if args.kernel else [])
    print("+", shlex.join(cmd), flush=True)
    try:
        r = subprocess.run(cmd, text=True, capture_output=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        print(f"NATIVE FAIL: spvhls run exceeded {args.timeout} s")
        return 1
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        print(f"NATIVE FAIL: spvhls run exited {r.returncode}")
        return 1
    diffs, compared = compare_outputs(r.stdout, native)
    print("native:\n" + format_native(native))
    if diffs:
        print("NATIVE FAIL: spvhls run and the native build differ:\n  " + "\n  ".join(diffs))
        return 1
    print(f"NATIVE PASS: {compared} elements equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
