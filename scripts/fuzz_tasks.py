#!/usr/bin/env python3
"""Random kernels with task sequences (SPV_INTEL_task_sequence), to test their hardware against the interpreter.

Each kernel has one to three task functions: void, int, long, short or uint results; one to four
parameters among const input pointers, an output pointer and int / long / short / uint scalars; a
straight-line body or a loop `for (i = 0; i < len; ++i)` reading its inputs at i +- c and writing its
output at i (sometimes read-modify-write, under a condition, with a constant table, a private array,
an inner loop or a call of a noinline helper). One to four task objects (creates) of them get random
Pipelined (-1..2), ClusterMode (-1..1), GetCapacity and AsyncCapacity (1..4), and the kernel issues a
random sequence of operations that respects the capacities as the interpreter models them
(docs/interpreter.md: at most GetCapacity + AsyncCapacity asyncs outstanding, a get only when one is
outstanding): single asyncs and gets (some under `if (n > K)`), async loops and get loops (counts
constant or from kernel arguments), loops that interleave an async and a get, a sequence created (and
maybe released) in each iteration of a kernel loop, kernel work between them (loops reading the inputs
and writing the kernel's own region of `out`, plain calls of the task functions), results used as the
arguments of later asyncs, reads of a task's output region once nothing of it is outstanding, releases
with results not yet retrieved, and objects left with results nobody gets at the kernel's end. Every
get's result is stored to `res`. Each task object writes only its own 16 elements of `out`
(out + 16*j, with a constant or run-time offset below 4); tasks read in0, in1 and a region of `out` the
kernel writes first and never again, so there are no races.

Task operations are written as the marker calls of tests/e2e/tasks/make_tasks.py, which turns the
OpenCL C into SPIR-V text. Each kernel is run by `spvhls run` first (the reference: an error there is a
generator bug, reported as GEN and not counted), then by `spvhls sim --check-cycles --seeds 1,2` in
a random cluster mode. A kernel passes when sim exits 0 and prints no line starting with FAIL. Prints
each kernel's outcome (a pass says whether its cycles were as predicted, or why they were not
predicted) and a summary; exits 1 if any kernel failed or was a generator error (OUT/<seed>/
keeps k.cl, k.spvasm, k.run.json and sim.log; passing kernels' directories are removed unless --keep).
A task object with two pointer parameters into one memory is not cycle-predicted (its two requesters
share one arbiter port): a cycle-count failure of such a kernel is marked as such, as older builds
predicted it wrongly; --distinct generates no such objects.

    python3 scripts/fuzz_tasks.py --spvhls build/spvhls --out /tmp/fuzz_tasks --count 150 --seed 1 --jobs 2
    python3 scripts/fuzz_tasks.py --seed 17 --count 1 --print   # print one kernel's source and spec
"""
import argparse, json, os, random, re, shutil, subprocess, sys, threading
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_TASKS = os.path.join(HERE, "..", "tests", "e2e", "tasks", "make_tasks.py")

IN_LEN = 64       # elements of in0 / in1 (offsets <= 32, index <= offset + 12 + 3)
REGION = 16       # elements of out per task object: out[16*j, 16*j + 16)
MAX_OBJS = 4      # task objects created once (a fifth region is for a sequence created in a loop)
KREGION = REGION * (MAX_OBJS + 1)   # the kernel's own region of out: [80, 112)
KLEN = 32
PREGION = KREGION + KLEN            # written by the kernel first, then only read (by tasks too): [112, 144)
HREGION = PREGION + 32              # hand-off slots: each written by the kernel right before one async reads it
HSLOT, HSLOTS = 20, 8               # (the task reads at most 4 before and 15 after the pointer it gets: slot + 4)
OUT_LEN = HREGION + HSLOT * HSLOTS
MAX_LEN = 12      # task loop trip counts (n and constants) stay <= 12: offset <= 4 + 12 <= 16

RET_TYPES = ["void", "int", "long", "short", "uint"]
SCALAR_TYPES = ["int", "long", "short", "uint"]
WORK_TYPES = ["int", "long", "uint"]


class Fn:
    def __init__(self, name):
        self.name = name
        self.ret = "void"
        self.params = []   # (kind, ctype, name): kind in in / out / len / scalar
        self.body = []
        self.loop = False
        self.table = None  # values of a constant table the body reads
        self.direct = False  # also called by the kernel

    def sig(self):
        return ", ".join(f"{t} {n}" for _, t, n in self.params)

    def decl_params(self):
        return ", ".join(t for _, t, _ in self.params)

    def kinds(self):
        return [k for k, _, _ in self.params]


def expr(rng, atoms, depth=0):
    """A random integer expression over atoms (strings, already of the work type or promotable)."""
    if depth >= 2 or rng.random() < 0.35:
        a = rng.choice(atoms)
        return a
    op = rng.choice(["+", "-", "*", "^", "&", "|", "+", "-", ">>", "/", "%", "<<"])
    l = expr(rng, atoms, depth + 1)
    if op in (">>", "<<"):
        return f"(({l}) {op} {rng.randint(1, 3)})"
    if op in ("/", "%"):
        return f"(({l}) {op} {rng.choice([3, 5, 7, 16])})"
    r = expr(rng, atoms, depth + 1) if rng.random() < 0.7 else str(rng.randint(-9, 9))
    return f"({l} {op} {r})"


def gen_fn(rng, name):
    f = Fn(name)
    f.ret = rng.choice(RET_TYPES)
    nparams = rng.randint(1, 4)
    f.loop = rng.random() < 0.6 and nparams >= 2
    kinds = []
    if f.loop:
        kinds.append("len")
    # A void task without an output pointer has no effect: usually give it one.
    want_out = rng.random() < (0.9 if f.ret == "void" else 0.5)
    if want_out and len(kinds) < nparams:
        kinds.append("out")
    nin = 0
    while len(kinds) < nparams:
        k = rng.choice(["in", "in", "scalar", "scalar"])
        if k == "in" and nin >= 2:
            k = "scalar"
        nin += k == "in"
        kinds.append(k)
    rng.shuffle(kinds)
    for i, k in enumerate(kinds):
        if k == "in":
            f.params.append(("in", "global const int*", f"p{i}"))
        elif k == "out":
            f.params.append(("out", "global int*", f"o{i}"))
        elif k == "len":
            f.params.append(("len", "int", f"len{i}"))
        else:
            f.params.append(("scalar", rng.choice(SCALAR_TYPES), f"s{i}"))
    W = rng.choice(WORK_TYPES)
    ins = [n for k, _, n in f.params if k == "in"]
    outs = [n for k, _, n in f.params if k == "out"]
    scal = [n for k, _, n in f.params if k == "scalar"]
    lens = [n for k, _, n in f.params if k == "len"]
    if rng.random() < 0.2:
        f.table = [rng.randint(-300, 300) for _ in range(8)]
    tab = f"tab_{name}"
    b = f.body
    if f.loop:
        L = lens[0]
        acc_t = rng.choice(["int", "long", "uint"])
        b.append(f"  {acc_t} acc = {rng.randint(-5, 5)};")
        priv = rng.random() < 0.15   # a private array: the task's own RAM
        if priv:
            b.append(f"  int tmp[8];")
            b.append(f"  for (int q = 0; q < 8; ++q) tmp[q] = q * {rng.randint(1, 9)};")
        b.append(f"  for (int i = 0; i < {L}; ++i) {{")
        atoms = [f"({W})i", str(rng.randint(1, 9))]
        atoms += [f"({W}){p}[i {rng.choice(['+', '-'])} {rng.randint(0, 3)}]" for p in ins for _ in range(2)]
        atoms += [f"({W}){s}" for s in scal for _ in range(2)]
        if f.table:
            atoms.append(f"({W}){tab}[i & 7]")
        if outs and rng.random() < 0.25:
            atoms.append(f"({W}){outs[0]}[i]")   # read-modify-write of its own region
        first = [a for a in atoms if "[" in a or "s" in a] or atoms   # an input read or a scalar
        b.append(f"    {W} x = {rng.choice(first)} {rng.choice(['+', '-', '^', '*'])} {expr(rng, atoms)};")
        atoms.append("x")
        if ins and rng.random() < 0.15:   # a loop nest: the inner loop pipelined, the outer one in the FSM
            b.append(f"    for (int q = 0; q <= (i & 1); ++q) x += ({W}){ins[0]}[i + q] * {rng.randint(1, 5)};")
        if rng.random() < 0.15:
            b.append(f"    x = ({W})mixh((int)x, {rng.randint(1, 9)});")
        if priv:
            b.append(f"    tmp[i & 7] += (int)x;")
        if f.table and rng.random() < 0.5:
            atoms.append(f"({W}){tab}[x & 7]")
        if rng.random() < 0.5:
            b.append(f"    {W} y = {expr(rng, atoms)};")
            atoms.append("y")
        for o in outs:
            st = f"{o}[i] = (int)({expr(rng, atoms)});"
            if rng.random() < 0.3:
                st = f"if (x > {rng.randint(-50, 50)}) {st}"
            b.append(f"    {st}")
        upd = rng.choice(["acc += x;", "acc ^= x + i;", "acc = acc * 3 + x;", "acc += x * x;",
                          "if (x > acc) acc = x;", "if (x & 1) acc += x; else acc -= i;"])
        b.append(f"    {upd}")
        b.append("  }")
        if rng.random() < 0.3 and outs:
            b.append(f"  {outs[0]}[{rng.randint(0, 3)}] += (int)acc;")
        res = f"acc + {rng.randint(0, 99)}" + (" + tmp[(int)acc & 7]" if priv else "")
    else:
        atoms = [str(rng.randint(1, 9))]
        atoms += [f"({W}){p}[{rng.randint(0, 3)}]" for p in ins for _ in range(2)]
        atoms += [f"({W}){s}" for s in scal for _ in range(2)]
        first = [a for a in atoms if "[" in a or "s" in a] or atoms
        b.append(f"  {W} v0 = {rng.choice(first)} {rng.choice(['+', '-', '^', '*'])} {expr(rng, atoms)};")
        atoms.append("v0")
        if f.table:
            atoms.append(f"({W}){tab}[v0 & 7]")
        b.append(f"  {W} v1 = {expr(rng, atoms)};")
        atoms.append("v1")
        if rng.random() < 0.15:
            atoms.append("mixh((int)v0, (int)v1)")
        if rng.random() < 0.3:
            b.append(f"  if (v1 > {rng.randint(-50, 50)}) v0 = {expr(rng, atoms)};")
        for o in outs:
            for c in rng.sample(range(4), rng.randint(1, 3)):
                b.append(f"  {o}[{c}] = (int)({expr(rng, atoms)});")
        res = expr(rng, atoms)
    if f.ret != "void":
        b.append(f"  return ({f.ret})({res});")
    return f


class Obj:
    def __init__(self, idx, fn, rng, distinct):
        self.idx = idx
        self.fn = fn
        self.h = f"h{idx}"
        self.pipelined = rng.choice([-1, 0, 1, 2])
        self.cluster = rng.choice([-1, 0, 1])
        self.G = rng.randint(1, 4)
        self.A = rng.randint(1, 4)
        # The buffer each input pointer parameter points into (one per sequence: the hardware binds it):
        # in0, in1 or pre (the kernel's pre-region of out). With distinct, no two pointer parameters of
        # one task point into one buffer.
        choices = ["in0", "in1", "pre"]
        if distinct and "out" in fn.kinds():
            choices.remove("pre")
        self.bind = {}
        for k, _, n in fn.params:
            if k == "in":
                c = rng.choice(choices)
                if distinct:
                    choices.remove(c)
                self.bind[n] = c
        self.created = False
        self.released = False
        self.out = 0       # asyncs not yet retrieved by a get
        self.asyncs = 0
        self.looped = False

    def cap(self):
        return self.G + self.A


class Kernel:
    def __init__(self, rng, distinct=False):
        self.rng = rng
        self.distinct = distinct
        self.fns = [gen_fn(rng, f"t{i}") for i in range(rng.randint(1, 3))]
        self.objs = [Obj(j, rng.choice(self.fns), rng, distinct) for j in range(rng.randint(1, MAX_OBJS))]
        self.n = rng.randint(0, MAX_LEN)
        self.counts = []      # values of the kernel's count arguments c0, c1, ...
        self.lines = []
        self.slot = 1         # next free element of res (res[0]: the kernel's accumulator)
        self.results = []     # (name, type) of get results in scope
        self.kwork = 0        # next free element of the kernel's region (of KLEN)
        self.rid = 0
        self.looped_done = False
        self.hslots = 0       # hand-off slots used

    def emit(self, s, ind=1):
        self.lines.append("  " * ind + s)

    def count_expr(self, v):
        """A loop count of value v: a constant (clang may unroll) or a kernel argument."""
        if self.rng.random() < 0.5:
            return str(v)
        self.counts.append(v)
        return f"c{len(self.counts) - 1}"

    def new_slots(self, k):
        s = self.slot
        self.slot += k
        return s

    def ensure_created(self, o):
        if not o.created:
            self.emit(f"int {o.h} = {self.create(o)};")
            o.created = True

    def create(self, o):
        return f"ts_create__{o.fn.name}({o.pipelined}, {o.cluster}, {o.G}u, {o.A}u)"

    def async_args(self, o, j=None):
        rng = self.rng
        args = [o.h]
        for k, t, n in o.fn.params:
            if k == "in":
                b = o.bind[n]
                buf, lim = ("out + " + str(PREGION), 4) if b == "pre" else (b, 8)
                if b == "pre" and j is None and self.hslots < HSLOTS and rng.random() < 0.5:
                    # A hand-off: the kernel writes the slot just before the async that reads it.
                    h = HREGION + HSLOT * self.hslots
                    self.hslots += 1
                    self.emit(f"for (int i = 0; i < n + 8; ++i) out[{h} + i] = in1[i] + (int)kacc + {rng.randint(-9, 9)};")
                    args.append(f"out + {h + 4}")
                elif j is None or rng.random() < 0.5:
                    args.append(f"{buf} + {rng.randint(1, lim) * 4}")
                else:
                    args.append(f"{buf} + 4 * ({j} & 3) + 4" if b == "pre" else f"{buf} + 4 * {j} + 4")
            elif k == "out":
                off = rng.choice([str(rng.randint(0, 4))] * 4 + ["(n & 3)"])
                args.append(f"out + {REGION * o.idx} + {off}")
            elif k == "len":
                ch = [("n", 3), (str(rng.randint(0, MAX_LEN)), 2)]
                if j is not None:
                    ch.append((f"{j} % 4 + {rng.randint(0, 3)}", 2))
                args.append(rng.choices([c for c, _ in ch], [w for _, w in ch])[0])
            else:
                ch = [str(rng.randint(-50, 50)), "n", f"in1[{rng.randint(0, IN_LEN - 1)}]", "kacc"]
                if j is not None:
                    ch += [f"{j} * {rng.randint(1, 7)} - 3", j]
                if self.results:
                    ch += [self.rng.choice(self.results)[0]] * 2
                args.append(f"({t})({rng.choice(ch)})")
        return ", ".join(args)

    def store_get(self, o, ind, j=None):
        """A get of o whose result goes to res (or nothing, for a void task)."""
        g = f"ts_get__{o.fn.name}({o.h})"
        if o.fn.ret == "void":
            self.emit(f"{g};", ind)
            return
        if j is None:
            name = f"r{self.rid}"
            self.rid += 1
            self.emit(f"{o.fn.ret} {name} = {g};", ind)
            if ind == 1:
                self.results.append((name, o.fn.ret))
            how = self.rng.random()
            if how < 0.6 or len(self.results) < 2:
                self.emit(f"res[{self.new_slots(1)}] = (long){name};", ind)
            else:
                other = self.rng.choice(self.results[:-1])[0]
                self.emit(f"res[{self.new_slots(1)}] = (long){name} * 3 + (long){other};", ind)
            return
        return g

    def kernel_work(self, ind=1, j=None):
        rng = self.rng
        if rng.random() < 0.5 and self.kwork + MAX_LEN <= KLEN:
            base = KREGION + self.kwork
            self.kwork += MAX_LEN
            src = rng.choice(["in0", "in1"])
            e = rng.choice([f"{src}[i + {rng.randint(0, 8)}] * {rng.randint(1, 5)} + (int)kacc",
                            f"({src}[i] ^ i) - {rng.randint(0, 9)}"])
            self.emit(f"for (int i = 0; i < n; ++i) {{ out[{base} + i] = {e}; kacc += {src}[i + 1]; }}", ind)
        elif rng.random() < 0.5:
            c = rng.randint(0, KLEN + 31)   # the kernel's own region or the pre-region
            self.emit(f"kacc = kacc * 5 + out[{KREGION + c}];", ind)
        else:
            idx = rng.randint(0, IN_LEN - 1) if j is None else f"{j} + {rng.randint(0, 8)}"
            self.emit(f"kacc += in0[{idx}] * {rng.randint(1, 9)};", ind)

    def cond(self):
        """Maybe a condition on n (whose value the generator knows): (text, taken) or None."""
        if self.rng.random() < 0.2:
            k = self.rng.randint(0, MAX_LEN)
            return f"if (n > {k}) ", self.n > k
        return None

    def direct_call(self):
        """A plain call of a task function by the kernel, writing the kernel's own region."""
        rng = self.rng
        f = rng.choice(self.fns)
        if self.kwork + REGION > KLEN:
            return
        f.direct = True
        args = []
        for k, t, n in f.params:
            if k == "in":
                args.append(f"{rng.choice(['in0', 'in1'])} + {rng.randint(1, 8) * 4}")
            elif k == "out":
                args.append(f"out + {KREGION + self.kwork}")
            elif k == "len":
                args.append(rng.choice(["n", str(rng.randint(0, MAX_LEN))]))
            else:
                args.append(f"({t})({rng.choice([str(rng.randint(-50, 50)), 'n', 'kacc'])})")
        if "out" in f.kinds():
            self.kwork += REGION
        call = f"{f.name}({', '.join(args)})"
        self.emit(f"{call};" if f.ret == "void" else f"res[{self.new_slots(1)}] = (long){call};")

    def looped_create(self):
        """A sequence created (and maybe released) in each iteration of a kernel loop."""
        rng = self.rng
        if self.looped_done or len(self.objs) > MAX_OBJS:
            return
        self.looped_done = True
        o = Obj(MAX_OBJS, rng.choice(self.fns), rng, self.distinct)
        o.h = "hl"
        o.looped = True
        self.objs.append(o)
        k = rng.randint(1, 3)
        m = rng.randint(1, o.cap())
        g = rng.randint(0, m)
        # Without a release or a get of every thread, an iteration's threads may still run when the next
        # iteration's start (clang may unroll the loop: one instance per create), so a task that writes
        # its region needs one or the other.
        rel = rng.random() < 0.6
        if "out" in o.fn.kinds() and not rel and rng.random() < 0.5:
            g = m
        elif "out" in o.fn.kinds() and not rel:
            rel = True
        s = self.new_slots(k * g)
        self.emit(f"for (int j = 0; j < {self.count_expr(k)}; ++j) {{")
        self.emit(f"int {o.h} = {self.create(o)};", 2)
        for _ in range(m):
            self.emit(f"ts_async__{o.fn.name}({self.async_args(o, 'j')});", 2)
        if rng.random() < 0.3:
            self.kernel_work(2, "j")
        for t in range(g):
            gg = self.store_get(o, 2, "j")
            if gg:
                self.emit(f"res[{s + t} + {g} * j] = (long){gg};", 2)
        if rel:
            self.emit(f"ts_release({o.h});", 2)
        self.emit("}")
        o.created = True
        o.released = True   # no further operations: the handle is out of scope
        o.asyncs = k * m
        o.out = 0 if (rel or g == m) else m - g   # what the kernel's end discards

    def step(self):
        rng = self.rng
        live = [o for o in self.objs if not o.released]
        kinds = ["work", "sync", "looped", "direct"]
        if live:
            kinds += ["async", "async", "async", "asyncloop", "interleave", "get", "get", "get", "getloop",
                      "release"]
        kind = rng.choice(kinds)
        if kind == "work":
            self.kernel_work()
            return
        if kind == "looped":
            self.looped_create()
            return
        if kind == "direct":
            self.direct_call()
            return
        if kind == "sync":
            done = [o for o in self.objs if o.created and o.asyncs and (o.released or o.out == 0)
                    and "out" in o.fn.kinds() and (not o.looped or o.out == 0)]
            if done:
                o = rng.choice(done)
                c = rng.randint(0, REGION - 1)
                self.emit(f"res[{self.new_slots(1)}] = out[{REGION * o.idx + c}];")
            return
        o = rng.choice(live)
        if kind == "async":
            if o.out < o.cap():
                self.ensure_created(o)
                c = self.cond()
                self.emit(f"{c[0] if c else ''}ts_async__{o.fn.name}({self.async_args(o)});")
                if not c or c[1]:
                    o.out += 1
                    o.asyncs += 1
        elif kind == "asyncloop":
            room = o.cap() - o.out
            if room >= 1:
                self.ensure_created(o)
                k = rng.randint(1, room)
                self.emit(f"for (int j = 0; j < {self.count_expr(k)}; ++j) {{")
                self.emit(f"ts_async__{o.fn.name}({self.async_args(o, 'j')});", 2)
                if rng.random() < 0.3:
                    self.kernel_work(2, "j")
                self.emit("}")
                o.out += k
                o.asyncs += k
        elif kind == "interleave":
            # An async and a get each iteration (with `pre` asyncs issued before and retrieved after).
            if o.cap() - 1 - o.out < 0:
                return
            pre = rng.randint(0, min(2, o.cap() - 1 - o.out))
            self.ensure_created(o)
            for _ in range(pre):
                self.emit(f"ts_async__{o.fn.name}({self.async_args(o)});")
            k = rng.randint(1, 6)
            s = self.new_slots(k)
            self.emit(f"for (int j = 0; j < {self.count_expr(k)}; ++j) {{")
            self.emit(f"ts_async__{o.fn.name}({self.async_args(o, 'j')});", 2)
            if rng.random() < 0.4:
                self.kernel_work(2, "j")
            g = self.store_get(o, 2, "j")
            if g:
                self.emit(f"res[{s} + j] = (long){g} - j;", 2)
            self.emit("}")
            o.out += pre
            o.asyncs += pre + k
            for _ in range(rng.randint(0, pre)):
                self.store_get(o, 1)
                o.out -= 1
        elif kind == "get":
            if o.out >= 1:
                c = self.cond()
                if c and o.fn.ret == "void":
                    self.emit(f"{c[0]}ts_get__{o.fn.name}({o.h});")
                elif c:
                    self.emit(f"{c[0]}res[{self.new_slots(1)}] = (long)ts_get__{o.fn.name}({o.h}) + 1;")
                else:
                    self.store_get(o, 1)
                if not c or c[1]:
                    o.out -= 1
        elif kind == "getloop":
            if o.out >= 1:
                k = rng.randint(1, o.out)
                s = self.new_slots(k)
                self.emit(f"for (int j = 0; j < {self.count_expr(k)}; ++j) {{")
                g = self.store_get(o, 2, "j")
                if g:
                    if rng.random() < 0.5:
                        self.emit(f"res[{s} + j] = (long){g} * (j + 1);", 2)
                    else:
                        self.emit(f"kacc = kacc * 7 + (long){g};", 2)
                if rng.random() < 0.3:
                    self.kernel_work(2, "j")
                self.emit("}")
                o.out -= k
        elif kind == "release":
            # Usually only once something was done with it; sometimes with results not yet retrieved.
            if o.created and (o.out == 0 or rng.random() < 0.5):
                c = self.cond()
                self.emit(f"{c[0] if c else ''}ts_release({o.h});")
                if not c or c[1]:
                    o.released = True

    def build(self):
        rng = self.rng
        self.emit("long kacc = 0;")
        if any(b == "pre" for o in self.objs for b in o.bind.values()) or rng.random() < 0.2:
            self.emit(f"for (int i = 0; i < n + 20; ++i) out[{PREGION} + i] = in0[i] * {rng.randint(2, 9)} - i;")
        for _ in range(rng.randint(4, 16)):
            self.step()
        # The end: each object's results retrieved, released, or left behind.
        for o in self.objs:
            if not o.created:
                if rng.random() < 0.5:
                    continue
                self.ensure_created(o)
                self.emit(f"ts_async__{o.fn.name}({self.async_args(o)});")
                o.out += 1
                o.asyncs += 1
            if o.released:
                continue
            end = rng.random()
            if end < 0.5:
                while o.out:
                    self.store_get(o, 1)
                    o.out -= 1
                if rng.random() < 0.7:
                    self.emit(f"ts_release({o.h});")
                    o.released = True
            elif end < 0.75:
                self.emit(f"ts_release({o.h});")   # results (if any) discarded
                o.released = True
            # else: left as is (the kernel's end waits for its threads)
        self.emit(f"res[0] = kacc;")

    def source(self):
        out = ["// Generated by scripts/fuzz_tasks.py.",
               "// Markers (rewritten by tests/e2e/tasks/make_tasks.py, see the top of that script):"]
        tasks = [f for f in self.fns if any(o.fn is f and o.created for o in self.objs)]
        used = [f for f in self.fns if f in tasks or f.direct]
        if any("mixh" in l for f in used for l in f.body):
            out.append("__attribute__((noinline)) int mixh(int a, int b) { return (a ^ (b << 2)) - b * 3; }")
        for f in tasks:
            out.append(f"int ts_create__{f.name}(int pipelined, int cluster, uint getcap, uint asynccap);")
            out.append(f"void ts_async__{f.name}(int h, {f.decl_params()});")
            out.append(f"{f.ret} ts_get__{f.name}(int h);")
        out.append("void ts_release(int h);")
        out.append("")
        for f in used:
            if f.table:
                out.append(f"constant int tab_{f.name}[8] = {{{', '.join(map(str, f.table))}}};")
            out.append(f"__attribute__((noinline)) {f.ret} {f.name}({f.sig()}) {{")
            out += f.body
            out.append("}")
            out.append("")
        cargs = "".join(f", int c{i}" for i in range(len(self.counts)))
        out.append(f"kernel void k(global const int* in0, global const int* in1, global int* out, global long* res, "
                   f"int n{cargs}) {{")
        out += self.lines
        out.append("}")
        return "\n".join(out) + "\n"

    def spec(self):
        rng = self.rng

        def rand(name, lo, hi):
            return {"name": name, "buffer": {"type": "i32", "length": IN_LEN,
                                             "init": {"random": {"seed": rng.randint(1, 10**6), "min": lo, "max": hi}}}}
        return {"kernel": "k", "args": [rand("in0", -100, 100), rand("in1", -100, 100),
                                        {"name": "out", "buffer": {"type": "i32", "length": OUT_LEN, "init": "zeros"}},
                                        {"name": "res", "buffer": {"type": "i64", "length": max(self.slot, 1),
                                                                   "init": "zeros"}},
                                        {"name": "n", "value": self.n}] +
                [{"name": f"c{i}", "value": v} for i, v in enumerate(self.counts)]}


def generate(seed, distinct=False):
    rng = random.Random(seed)
    while True:
        k = Kernel(rng, distinct)
        k.build()
        if any(o.created for o in k.objs):
            break
    return k.source(), k.spec(), rng.choice(["auto", "stall-free", "stall-enable"])


def run(cmd, cwd, timeout=900):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, 124, e.stdout or "", (e.stderr or "") + f"\nTIMEOUT after {timeout} s")


def one(seed, a, spvhls):
    """Returns (status, text): status pass / FAIL / GEN."""
    src, spec, mode = generate(seed, a.distinct)
    d = os.path.join(a.out, str(seed))
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "k.cl"), "w").write(src)
    json.dump(spec, open(os.path.join(d, "k.run.json"), "w"), indent=1)
    r = run([sys.executable, MAKE_TASKS, "k.cl", "-o", "k.spvasm"], d)
    if r.returncode != 0:
        return "GEN", f"make_tasks.py failed: {(r.stdout + r.stderr).strip()[-1500:]}", mode
    r = run([spvhls, "run", "k.spvasm", "--run", "k.run.json"], d)
    if r.returncode != 0:
        return "GEN", f"the interpreter rejects the kernel (rc {r.returncode}): {(r.stdout + r.stderr).strip()[-1500:]}", mode
    cmd = [spvhls, "sim", "k.spvasm", "--run", "k.run.json", "-o", "out", "--seeds", "1,2", "--check-cycles",
           "--cluster", mode, "--jobs", str(a.sim_jobs)] + a.sim_args.split()
    r = run(cmd, d)
    out = r.stdout + r.stderr
    # A Pipelined N the task cannot meet is the user's error, named with the II that works: the kernel
    # is run again with every create's Pipelined -1 (the compiler's choice).
    if r.returncode == 1 and re.search(r"Pipelined \d+ cannot be met: .*Use Pipelined \d+", out):
        open(os.path.join(d, "k.cl"), "w").write(re.sub(r"(ts_create__\w+\()\d+,", r"\1-1,", src))
        r = run([sys.executable, MAKE_TASKS, "k.cl", "-o", "k.spvasm"], d)
        if r.returncode != 0:
            return "GEN", f"make_tasks.py failed: {(r.stdout + r.stderr).strip()[-1500:]}", mode
        r = run(cmd, d)
        out = r.stdout + r.stderr
    open(os.path.join(d, "sim.log"), "w").write(f"$ {' '.join(cmd)}\n(rc {r.returncode})\n{out}")
    fails = [l for l in out.splitlines() if l.startswith("FAIL")]
    if r.returncode == 0 and not fails:
        if not a.keep:
            shutil.rmtree(d, ignore_errors=True)
        # Whether the cycles were checked against the prediction, or why not.
        skip = re.search(r"^SKIP cycle check: the report does not predict this kernel's cycles: (.*)$", out, re.M)
        return "pass", "", mode + (f", unpredicted: {skip.group(1)[:100]}" if skip else ", predicted")
    tail = "\n".join(fails) if fails else "\n".join(out.strip().splitlines()[-15:])
    shared = shared_memories(out)
    if shared and all("differs from the report's prediction" in l for l in fails) and fails:
        tail += (f"\n(only the cycle count differs, and a task object has two pointer parameters into one memory: "
                 f"{'; '.join(shared)})")
    return "FAIL", f"(rc {r.returncode})\n{tail}", mode


def shared_memories(report):
    """Task objects of the report with two pointer parameters bound to one kernel memory."""
    found, cur, mems = [], None, {}
    for l in report.splitlines() + ["task sequence <end>"]:
        if l.startswith("task sequence "):
            found += [f"{cur}: {', '.join(ps)} -> {m}" for m, ps in mems.items() if len(ps) > 1]
            cur, mems = l.split()[2], {}
        elif l.startswith("  memory:") and "the kernel's " in l:
            p = l.split()[1].rstrip(":")
            mems.setdefault(l.split("the kernel's ")[1].split()[0], []).append(p)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spvhls", default=os.path.join(HERE, "..", "build", "spvhls"))
    ap.add_argument("--out", default="/tmp/fuzz_tasks")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="kernels simulated side by side")
    ap.add_argument("--sim-jobs", type=int, default=1, help="spvhls sim --jobs (seeds side by side per kernel)")
    ap.add_argument("--sim-args", default="", metavar="'ARGS'",
                    help="more spvhls sim options, e.g. '--latency 1:24 --ready-prob 0.4' (a later --seeds wins)")
    ap.add_argument("--keep", action="store_true", help="keep the directories of passing kernels")
    ap.add_argument("--distinct", action="store_true",
                    help="no two pointer parameters of one task object point into one buffer (the cycle prediction "
                         "assumes one port per pointer parameter)")
    ap.add_argument("--print", action="store_true", help="only print the kernels and their run specs")
    a = ap.parse_args()
    seeds = range(a.seed, a.seed + a.count)
    if a.print:
        for s in seeds:
            src, spec, mode = generate(s, a.distinct)
            print(f"// seed {s}, --cluster {mode}\n{src}{json.dumps(spec)}\n")
        return 0
    spvhls = os.path.abspath(a.spvhls)
    lock = threading.Lock()
    tally = {"pass": [], "FAIL": [], "GEN": []}
    modes = {}

    def job(s):
        st, text, mode = one(s, a, spvhls)
        with lock:
            tally[st].append(s)
            if st == "pass":
                modes[s] = mode
            print(f"{s}: {st} ({mode})" + (f"\n  {text.replace(chr(10), chr(10) + '  ')}" if text else ""), flush=True)

    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        list(ex.map(job, seeds))
    predicted = sum(1 for m in modes.values() if m.endswith(", predicted"))
    print(f"{len(tally['pass'])} passed ({predicted} with their cycles as predicted), {len(tally['FAIL'])} failed"
          f"{' (seeds ' + ' '.join(map(str, sorted(tally['FAIL']))) + ')' if tally['FAIL'] else ''}, "
          f"{len(tally['GEN'])} generator errors not counted"
          f"{' (seeds ' + ' '.join(map(str, sorted(tally['GEN']))) + ')' if tally['GEN'] else ''}")
    return 1 if tally["FAIL"] or tally["GEN"] else 0


if __name__ == "__main__":
    sys.exit(main())
