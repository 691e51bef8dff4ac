#!/usr/bin/env python3
"""make_tasks.py: SPIR-V text kernels with SPV_INTEL_task_sequence, generated from OpenCL C.

clang-15 / llvm-spirv-15 cannot emit task sequences, so the OpenCL C source calls *marker
functions* instead, and this script rewrites those calls into the extension's instructions in the
spirv-dis text of the compiled module.

Usage (from anywhere):
    python3 tests/e2e/tasks/make_tasks.py X.cl [Y.cl ...]      # writes X.spvasm next to X.cl
    python3 tests/e2e/tasks/make_tasks.py X.cl -o OUT.spvasm   # one input, explicit output
    python3 tests/e2e/tasks/make_tasks.py X.cl -D PIPE=0 -o X_0.spvasm
                                         # -D/--define NAME[=VALUE] (repeatable) passed to clang as -D
    tests/e2e/tasks/regen.sh                                   # all kernels of this directory

Pipeline (the flags of examples/CMakeLists.txt, with -O2 instead of -O0 so that handles are SSA
values that flow straight from the create to their users instead of through allocas):
    clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header
             -no-opaque-pointers -O2 -ffp-contract=off -emit-llvm-bc X.cl -o X.bc
    llvm-spirv-15 --spirv-ext=+all X.bc -o X.spv
    spirv-dis X.spv                      (default friendly names)
then the rewrite below. Tools can be overridden with $CLANG, $LLVM_SPIRV, $SPIRV_DIS.

Marker convention in the OpenCL C source
----------------------------------------
FN is the name of the task function. It must be defined in the same .cl file, non-static (external
linkage) and __attribute__((noinline)), so that clang keeps it as a function of its own even though
nothing calls it directly. Markers are declared (prototypes only), never defined:

    int  ts_create__FN(int pipelined, int cluster, uint getcap, uint asynccap);
        -> %h = OpTaskSequenceCreateINTEL %TaskSeqType %FN <pipelined> <cluster> <getcap> <asynccap>
           The four arguments must be compile-time constants (they become literals; pipelined and
           cluster are written as signed 32-bit numbers, e.g. -1, the capacities as unsigned).
    void ts_async__FN(int h, <the parameters of FN>);
        -> OpTaskSequenceAsyncINTEL %h <args>
    T    ts_get__FN(int h);          (T = the return type of FN, void included)
        -> %r = OpTaskSequenceGetINTEL %T %h
           (a void get keeps the call's result id, of type %void, as the interpreter expects)
    void ts_release(int h);          (one marker for every task function)
        -> OpTaskSequenceReleaseINTEL %h

The `int` handle returned by ts_create__FN becomes a value of %TaskSeqType = OpTypeTaskSequenceINTEL
(declared once). It must flow directly from the create to the first argument of ts_async__FN /
ts_get__FN / ts_release calls (as it does at -O2 when it is a plain local variable): a handle that
goes through a phi, a select, memory or a function argument, or is used in any other way, is an
error, as is a handle of one task function passed to another's markers. Async argument types and
the get's result type are checked against the task function's signature.

The marker declarations (OpFunction ... OpFunctionEnd, their OpName and OpDecorate lines, e.g.
LinkageAttributes Import) are removed, and `OpCapability TaskSequenceINTEL` and
`OpExtension "SPV_INTEL_task_sequence"` are added.

Limitations: a task returning a struct by value cannot be expressed: clang returns aggregates
through an sret pointer to the caller's stack (Function memory), which a task thread may not touch.
The markers are opaque calls to clang, so it does not move memory accesses across them (they are
ordering points like the real instructions), and it cannot see that FN is used (hence noinline and
external linkage). spirv-as (SPIRV-Tools v2023.1) does not know the extension; `spvhls as` and
`spvhls run` read the output. At -O2 clang unrolls loops with small constant trip counts completely,
and `#pragma nounroll` makes llvm-spirv-15 put the OpLoopMerge of the rotated loop before the exit
compare instead of right before the branch, which the reader rejects: pass trip counts as arguments.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

SCRIPT = os.path.basename(__file__)
TYPE_ID = "%TaskSeqType"
CREATE, ASYNC, GET = "ts_create__", "ts_async__", "ts_get__"
RELEASE = "ts_release"

CLANG_FLAGS = ["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
               "-no-opaque-pointers", "-O2", "-ffp-contract=off", "-emit-llvm-bc"]
LLVM_SPIRV_FLAGS = ["--spirv-ext=+all"]


class ConvError(Exception):
    pass


def tokenize(text):
    """Splits the operands of a spirv-dis line into tokens, keeping quoted strings whole."""
    toks, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == ';':
            break
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            toks.append(text[i:j + 1])
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            toks.append(text[i:j])
            i = j
    return toks


LINE_RE = re.compile(r'^(\s*)(?:(%[^\s=]+)\s*=\s*)?(Op\w+)(.*)$')


class Line:
    """One line of spirv-dis text: `[%result =] OpCode operands`, or anything else (comments, blank)."""

    def __init__(self, no, text):
        self.no = no  # 1-based line number in the disassembly
        self.text = text
        m = LINE_RE.match(text)
        if m and not text.lstrip().startswith(';'):
            self.result, self.op = m.group(2), m.group(3)
            self.col = m.start(3)  # column of the opcode, to align rewritten lines
            self.ops = tokenize(m.group(4))
        else:
            self.result = self.op = None
            self.col, self.ops = 0, []

    def ids(self):
        return [t for t in self.ops if t.startswith('%')]


def fmt_line(col, result, op, operands):
    """A line in spirv-dis layout: opcodes in column `col`, result ids right-aligned before ' = '."""
    body = " ".join([op] + operands)
    if result is None:
        return " " * col + body
    head = f"{result} = "
    return (" " * max(0, col - len(head))) + head + body


def run_tool(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise ConvError(f"command failed ({p.returncode}): {shlex.join(cmd)}\n{p.stdout}{p.stderr}")
    return p.stdout


def compile_cl(cl, tmp, defines=()):
    clang = os.environ.get("CLANG", "clang-15")
    llvm_spirv = os.environ.get("LLVM_SPIRV", "llvm-spirv-15")
    spirv_dis = os.environ.get("SPIRV_DIS", "spirv-dis")
    stem = os.path.splitext(os.path.basename(cl))[0]
    bc, spv = os.path.join(tmp, stem + ".bc"), os.path.join(tmp, stem + ".spv")
    run_tool([clang] + CLANG_FLAGS + ["-D" + d for d in defines] + [cl, "-o", bc])
    run_tool([llvm_spirv] + LLVM_SPIRV_FLAGS + [bc, "-o", spv])
    return run_tool([spirv_dis, spv])


def literal_int(tok):
    try:
        return int(tok, 0)
    except ValueError:
        raise ConvError(f"cannot read the integer literal {tok!r}")


def convert(text, src_name):
    """Rewrites the marker calls of the spirv-dis text `text`; returns the new text."""
    lines = [Line(i + 1, t) for i, t in enumerate(text.split("\n"))]

    def where(ln):
        return f"disassembly line {ln.no}: `{ln.text.strip()}`"

    # ---- module tables ----
    names = {}          # id -> OpName string
    linkage = {}        # id -> (symbol, Import/Export)
    defs = {}           # id -> defining line
    types = {}          # type id -> line
    value_type = {}     # value id -> type id
    functions = {}      # function id -> {"line", "params": [ids], "body": bool, "lines": [Line], "ptypes"}
    cur = None
    for ln in lines:
        if ln.op is None:
            continue
        if ln.result:
            if ln.result in defs:
                raise ConvError(f"id {ln.result} defined twice ({where(ln)})")
            defs[ln.result] = ln
        if ln.op == "OpName" and len(ln.ops) >= 2:
            names[ln.ops[0]] = ln.ops[1].strip('"')
        elif ln.op == "OpDecorate" and len(ln.ops) >= 4 and ln.ops[1] == "LinkageAttributes":
            linkage[ln.ops[0]] = (ln.ops[2].strip('"'), ln.ops[3])
        elif ln.op.startswith("OpType"):
            types[ln.result] = ln
        if ln.op == "OpFunction":
            cur = {"id": ln.result, "line": ln, "params": [], "body": False, "lines": [ln],
                   "rtype": ln.ops[0]}
            functions[ln.result] = cur
            continue
        if cur is not None:
            cur["lines"].append(ln)
            if ln.op == "OpFunctionParameter":
                cur["params"].append(ln.result)
            elif ln.op == "OpLabel":
                cur["body"] = True
            elif ln.op == "OpFunctionEnd":
                cur = None
        if ln.result and ln.ops and not ln.op.startswith("OpType") and ln.op not in (
                "OpExtInstImport", "OpString", "OpLabel", "OpDecorationGroup", "OpFunction"):
            value_type[ln.result] = ln.ops[0]
    for f in functions.values():
        value_type[f["id"]] = None

    def symbol(fid):
        return linkage[fid][0] if fid in linkage else names.get(fid)

    def kind_of(sym):
        if sym is None:
            return None
        if sym == RELEASE:
            return ("release", None)
        for prefix, kind in ((CREATE, "create"), (ASYNC, "async"), (GET, "get")):
            if sym.startswith(prefix) and len(sym) > len(prefix):
                return (kind, sym[len(prefix):])
        return None

    markers = {}  # function id -> (kind, FN)
    for fid, f in functions.items():
        sym = symbol(fid)
        k = kind_of(sym)
        if k is None:
            if sym and sym.startswith("ts_") and not f["body"]:
                raise ConvError(f"{sym} is declared but is not a marker: expected {CREATE}FN, {ASYNC}FN, "
                                f"{GET}FN or {RELEASE} ({where(f['line'])})")
            continue
        if f["body"]:
            raise ConvError(f"marker {sym} is defined in {src_name}; markers must only be declared")
        markers[fid] = k

    task_fns = {}  # FN -> function id

    def task_function(fn, ln):
        if fn in task_fns:
            return task_fns[fn]
        cands = [fid for fid, f in functions.items() if symbol(fid) == fn and f["body"]]
        if not cands:
            raise ConvError(f"task function {fn!r} (used by {where(ln)}) is not defined in the module: define it in "
                            f"{src_name}, non-static and __attribute__((noinline))")
        if len(cands) > 1:
            raise ConvError(f"several functions are named {fn!r}: {cands}")
        task_fns[fn] = cands[0]
        return cands[0]

    def type_desc(t):
        d = types.get(t)
        return f"{t} ({d.op} {' '.join(d.ops)})".rstrip() if d else str(t)

    def const_value(tok, ln, what):
        d = defs.get(tok)
        if d is None or d.op not in ("OpConstant", "OpConstantNull"):
            raise ConvError(f"{what} of {where(ln)} is {tok}, not a constant: the arguments of "
                            f"{CREATE}FN must be integer constants in the source")
        if d.op == "OpConstantNull":
            return 0
        t = types.get(d.ops[0])
        if t is None or t.op != "OpTypeInt" or t.ops[0] != "32":
            raise ConvError(f"{what} of {where(ln)} is {tok}, not a 32-bit integer constant")
        return literal_int(d.ops[1]) & 0xFFFFFFFF

    def signed32(v):
        return v - (1 << 32) if v & 0x80000000 else v

    # ---- marker calls ----
    handles = {}    # handle id -> (FN, create line)
    rewrite = {}    # Line -> new text (None: delete)
    calls = []      # (line, kind, FN)
    marker_ref_ok = set()  # lines allowed to reference a marker function id
    for ln in lines:
        if ln.op == "OpFunctionCall" and len(ln.ops) >= 2 and ln.ops[1] in markers:
            kind, fn = markers[ln.ops[1]]
            calls.append((ln, kind, fn))
            marker_ref_ok.add(ln)
            if kind == "create":
                handles[ln.result] = (fn, ln)

    for ln, kind, fn in calls:
        args = ln.ops[2:]
        if kind == "create":
            fid = task_function(fn, ln)
            if len(args) != 4:
                raise ConvError(f"{where(ln)}: {CREATE}{fn} takes 4 arguments (pipelined, cluster, getcap, asynccap)")
            vals = [const_value(a, ln, w) for a, w in zip(args, ("pipelined", "cluster", "getcap", "asynccap"))]
            lits = [str(signed32(vals[0])), str(signed32(vals[1])), str(vals[2]), str(vals[3])]
            rewrite[ln] = fmt_line(ln.col, ln.result, "OpTaskSequenceCreateINTEL", [TYPE_ID, fid] + lits)
            continue
        if not args:
            raise ConvError(f"{where(ln)}: a marker call needs the handle as its first argument")
        h = args[0]
        if h not in handles:
            d = defs.get(h)
            how = f"defined by {d.op} at disassembly line {d.no}" if d else "not defined by an instruction"
            raise ConvError(f"{where(ln)}: the handle {h} is not the result of a {CREATE} call ({how}); the handle "
                            f"must flow directly from {CREATE}FN to its users (no phi, select, memory or "
                            f"function argument): keep it in a local variable of the function that creates it")
        hfn, hline = handles[h]
        if kind != "release" and hfn != fn:
            raise ConvError(f"{where(ln)}: the handle {h} was created by {CREATE}{hfn} (disassembly line "
                            f"{hline.no}), not {CREATE}{fn}")
        fid = task_function(hfn, ln)
        f = functions[fid]
        if kind == "async":
            ptypes = [value_type[p] for p in f["params"]]
            if len(args) - 1 != len(ptypes):
                raise ConvError(f"{where(ln)}: passes {len(args) - 1} arguments to {fn}, which takes {len(ptypes)}")
            for k, (a, pt) in enumerate(zip(args[1:], ptypes)):
                at = value_type.get(a)
                if at != pt:
                    raise ConvError(f"{where(ln)}: argument {k} ({a}) has type {type_desc(at)}; parameter {k} of "
                                    f"{fn} has type {type_desc(pt)}: declare {ASYNC}{fn} with {fn}'s parameters")
            rewrite[ln] = fmt_line(ln.col, None, "OpTaskSequenceAsyncINTEL", args)
        elif kind == "get":
            if len(args) != 1:
                raise ConvError(f"{where(ln)}: {GET}{fn} takes only the handle")
            if ln.ops[0] != f["rtype"]:
                raise ConvError(f"{where(ln)}: {GET}{fn} returns {type_desc(ln.ops[0])}; {fn} returns "
                                f"{type_desc(f['rtype'])}: declare the get with {fn}'s return type")
            rewrite[ln] = fmt_line(ln.col, ln.result, "OpTaskSequenceGetINTEL", [ln.ops[0], h])
        else:
            if len(args) != 1:
                raise ConvError(f"{where(ln)}: {RELEASE} takes only the handle")
            rewrite[ln] = fmt_line(ln.col, None, "OpTaskSequenceReleaseINTEL", [h])

    # Every use of a handle must be the handle operand of a marker call.
    handle_ok = {ln for ln, kind, _ in calls if kind != "create"}
    for ln in lines:
        if ln.op is None or ln.op == "OpName":
            continue
        for pos, t in enumerate(ln.ops):
            if t in handles and not (ln in handle_ok and pos == 2):
                fn, cl = handles[t]
                raise ConvError(f"{where(ln)} uses the handle {t} of {CREATE}{fn} (disassembly line {cl.no}) other "
                                f"than as the handle of {ASYNC}{fn} / {GET}{fn} / {RELEASE} (in a phi, select, "
                                f"memory, comparison or call?); the handle must flow directly from the create to its "
                                f"users: restructure the source so that it stays in one local variable")
            if t in markers and ln not in marker_ref_ok and ln.op not in ("OpDecorate",):
                raise ConvError(f"{where(ln)} refers to the marker function {t} other than by calling it")
    # Results of async/release calls disappear: nothing may use them.
    for ln, kind, _ in calls:
        if kind in ("async", "release"):
            for other in lines:
                if other.op not in (None, "OpName", "OpDecorate") and ln.result in other.ops:
                    raise ConvError(f"{where(other)} uses the result of {where(ln)}")

    # ---- remove the marker declarations ----
    removed = set()
    for fid in markers:
        for ln in functions[fid]["lines"]:
            rewrite[ln] = None
            if ln.result:
                removed.add(ln.result)
    for ln, kind, _ in calls:
        if kind in ("async", "release"):
            removed.add(ln.result)
    for ln in lines:
        if ln.op in ("OpName", "OpDecorate", "OpMemberName", "OpMemberDecorate") and ln.ops and ln.ops[0] in removed:
            rewrite[ln] = None
        elif ln.op == "OpGroupDecorate" and any(t in removed for t in ln.ops[1:]):
            raise ConvError(f"{where(ln)}: group decorations of marker functions are not handled")

    if not calls:
        raise ConvError(f"no marker calls ({CREATE}FN, {ASYNC}FN, {GET}FN, {RELEASE}) in {src_name}")
    if TYPE_ID in defs:
        raise ConvError(f"{TYPE_ID} is already an id of the module")
    if any(ln.op == "OpTypeTaskSequenceINTEL" for ln in lines):
        raise ConvError("the module already declares OpTypeTaskSequenceINTEL")

    # ---- where to add the capability, extension and type ----
    last_cap = max(i for i, ln in enumerate(lines) if ln.op == "OpCapability")
    exts = [i for i, ln in enumerate(lines) if ln.op == "OpExtension"]
    last_ext = max(exts) if exts else last_cap
    first_fn = min(i for i, ln in enumerate(lines) if ln.op == "OpFunction")
    col = next((ln.col for ln in lines if ln.op and ln.result is None), 15)
    add_after = {
        last_cap: [fmt_line(col, None, "OpCapability", ["TaskSequenceINTEL"])],
    }
    add_after.setdefault(last_ext, []).append(fmt_line(col, None, "OpExtension", ['"SPV_INTEL_task_sequence"']))
    type_line = fmt_line(col, TYPE_ID, "OpTypeTaskSequenceINTEL", [])

    out = []
    for i, ln in enumerate(lines):
        if i == first_fn:
            out.append(type_line)
        if ln in rewrite:
            if rewrite[ln] is not None:
                out.append(rewrite[ln])
        else:
            out.append(ln.text)
        out.extend(add_after.get(i, []))
    return "\n".join(out)


def generate(cl, out_path, rel_cl, rel_script, defines=(), rel_out=None):
    with tempfile.TemporaryDirectory(prefix="make_tasks.") as tmp:
        dis = compile_cl(cl, tmp, defines)
    try:
        body = convert(dis, os.path.basename(cl))
    except ConvError as e:
        # Keep the disassembly the message's line numbers refer to.
        fd, kept = tempfile.mkstemp(prefix=os.path.splitext(os.path.basename(cl))[0] + ".", suffix=".dis.spvasm")
        with os.fdopen(fd, "w") as f:
            f.write(dis)
        raise ConvError(f"{e}\n(the disassembly is kept in {kept})")
    opts = "".join(f" -D {shlex.quote(d)}" for d in defines)
    if opts:
        opts += f" -o {shlex.quote(rel_out)}"
    header = (
        f"; Generated by {SCRIPT} from {os.path.basename(cl)}: do not edit, edit the .cl and regenerate:\n"
        f";   python3 {rel_script} {rel_cl}{opts}\n"
        f"; (clang-15 -O2 + llvm-spirv-15 + spirv-dis, then marker calls rewritten into SPV_INTEL_task_sequence\n"
        f"; instructions; see the top of {SCRIPT} for the convention.)\n")
    with open(out_path, "w") as f:
        f.write(header + body.rstrip("\n") + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="See the top of this script for the marker convention.")
    ap.add_argument("inputs", nargs="+", metavar="X.cl")
    ap.add_argument("-o", "--output", help="output file (one input only; default: X.spvasm next to X.cl)")
    ap.add_argument("-D", "--define", action="append", default=[], metavar="NAME[=VALUE]",
                    help="preprocessor definition passed to clang as -DNAME[=VALUE] (repeatable)")
    a = ap.parse_args()
    if a.output and len(a.inputs) != 1:
        ap.error("-o takes one input")
    # Paths in the header are relative to the repository root when the files are inside it.
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))

    def rel(p):
        p = os.path.abspath(p)
        return os.path.relpath(p, root) if p.startswith(root + os.sep) else p

    status = 0
    for cl in a.inputs:
        out = a.output or os.path.splitext(cl)[0] + ".spvasm"
        try:
            generate(cl, out, rel(cl), rel(os.path.abspath(__file__)), a.define, rel(out))
            print(f"{SCRIPT}: {cl} -> {out}")
        except ConvError as e:
            print(f"{SCRIPT}: error: {cl}: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
