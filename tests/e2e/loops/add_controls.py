#!/usr/bin/env python3
"""Adds FPGA loop controls to the OpLoopMerge instructions of a clang-15 + llvm-spirv-15 module.

OpenCL C has no spelling for most SPV_INTEL_fpga_loop_controls (clang-15 accepts only #pragma unroll
and the II / max_concurrency attributes of Intel's compiler, not loop_coalesce and the others), so the
loop-control tests write them as a comment in the kernel's source:

    // controls: 0=LoopCoalesceINTEL 2, 1=MaxConcurrencyINTEL 1

where N= is the loop's OpLoopMerge in the order spirv-dis prints them (clang -O0 keeps source order).
llvm-spirv-15 writes an OpLoopMerge only for a loop with a pragma, so each loop that gets controls
carries `#pragma unroll 1` (PartialCount 1: not unrolled, which is also the default). Controls are
appended in the order given, which must be the order of their mask bits (the INTEL ones are above
every core one). This script disassembles the module, adds each control to its loop's OpLoopMerge (with the extension
and capability the module then needs) and writes the text form, which spvhls reads directly.
"""
import argparse
import re
import subprocess
import sys


# Loop-control mask bits (SPIR-V core and SPV_INTEL_fpga_loop_controls) and their literal counts.
MASKS = {
    "Unroll": (0x1, 0), "DontUnroll": (0x2, 0), "DependencyInfinite": (0x4, 0), "DependencyLength": (0x8, 1),
    "MinIterations": (0x10, 1), "MaxIterations": (0x20, 1), "IterationMultiple": (0x40, 1),
    "PeelCount": (0x80, 1), "PartialCount": (0x100, 1), "InitiationIntervalINTEL": (0x10000, 1),
    "MaxConcurrencyINTEL": (0x20000, 1), "DependencyArrayINTEL": (0x40000, None),
    "PipelineEnableINTEL": (0x80000, 1), "LoopCoalesceINTEL": (0x100000, 1),
    "MaxInterleavingINTEL": (0x200000, 1), "SpeculatedIterationsINTEL": (0x400000, 1),
    "NoFusionINTEL": (0x800000, 0), "LoopCountINTEL": (0x1000000, 3), "MaxReinvocationDelayINTEL": (0x2000000, 1),
}


def controls_of(cl_path):
    with open(cl_path) as f:
        for line in f:
            m = re.match(r"\s*//\s*controls:\s*(.*)$", line)
            if m:
                return parse_controls(m.group(1))
    return {}


def parse_controls(text):
    out = {}
    for part in re.split(r"[;,]", text):
        part = part.strip()
        if part:
            index, control = part.split("=", 1)
            out.setdefault(int(index), []).append(control.strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cl", required=True, help="the kernel's source, holding the // controls: line")
    ap.add_argument("--spv", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--controls", help="instead of the source's // controls: line, e.g. \"0=PeelCount 2\"")
    ap.add_argument("--spirv-dis", default="spirv-dis")
    a = ap.parse_args()
    wanted = parse_controls(a.controls) if a.controls is not None else controls_of(a.cl)
    text = subprocess.run([a.spirv_dis, "--raw-id", a.spv], check=True, capture_output=True, text=True).stdout
    lines = text.splitlines()
    index = 0
    for i, line in enumerate(lines):
        m = re.match(r"(\s*OpLoopMerge\s+\S+\s+\S+)\s+(.*)$", line)
        if not m:
            continue
        if index in wanted:
            words = m.group(2).split()
            masks = [] if words[0] == "None" else words[0].split("|")
            literals = words[1:]
            # Masks are |-joined, then each control's literals in the order of the mask bits.
            groups = {}
            for name in sorted(masks, key=lambda n: MASKS[n][0]):
                count = MASKS[name][1]
                if count is None:  # DependencyArrayINTEL: a count, then pairs
                    count = 1 + 2 * int(literals[0])
                groups[name], literals = literals[:count], literals[count:]
            for control in wanted[index]:
                name, *args = control.split()
                groups[name] = args
            names = sorted(groups, key=lambda n: MASKS[n][0])
            lits = [x for n in names for x in groups[n]]
            lines[i] = "{} {} {}".format(m.group(1), "|".join(names), " ".join(lits)).rstrip()
        index += 1
    missing = [i for i in wanted if i >= index]
    if missing:
        sys.exit("{}: the module has {} OpLoopMerge, no loop {}".format(a.spv, index, missing))
    out = "\n".join(lines) + "\n"
    # The capability and extension controls beyond the core ones need.
    out = out.replace("OpCapability Kernel\n", "OpCapability Kernel\nOpCapability FPGALoopControlsINTEL\n", 1)
    first_ext = re.search(r"^\s*OpExtension", out, re.M) or re.search(r"^\s*OpMemoryModel", out, re.M)
    out = out[: first_ext.start()] + 'OpExtension "SPV_INTEL_fpga_loop_controls"\n' + out[first_ext.start():]
    with open(a.out, "w") as f:
        f.write(out)


if __name__ == "__main__":
    main()
