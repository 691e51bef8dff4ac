#!/usr/bin/env python3
"""A kernel decorated StallEnableINTEL / StallFreeINTEL (SPV_INTEL_fpga_cluster_attributes) gets that
cluster kind under --cluster auto, the report says why, and --cluster on the command line overrides
it. The input is vadd (auto builds it stall-free) disassembled, with the decoration added."""
import argparse, json, os, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--spvhls", required=True)
ap.add_argument("--input", required=True)
ap.add_argument("--out", required=True)
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)

text = subprocess.run([args.spvhls, "dis", args.input], text=True, capture_output=True, check=True).stdout
entry = re.search(r"OpEntryPoint Kernel (%\S+)", text).group(1)
text = text.replace("OpCapability Kernel\n",
                    "OpCapability Kernel\n               OpCapability FPGAClusterAttributesINTEL\n", 1)
first_ext = text.index("OpExtension")
text = text[:first_ext] + 'OpExtension "SPV_INTEL_fpga_cluster_attributes"\n               ' + text[first_ext:]

failures = []


def compile_kind(attribute, cluster):
    src = os.path.join(args.out, f"{attribute}.spvasm")
    decorated = re.sub(r"(\n\s*OpDecorate )", rf"\1{entry} {attribute}\n               OpDecorate ", text, count=1)
    open(src, "w").write(decorated)
    out = os.path.join(args.out, f"{attribute}.{cluster}")
    r = subprocess.run([args.spvhls, "compile", src, "--cluster", cluster, "-o", out], text=True, capture_output=True)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        failures.append(f"{attribute} --cluster {cluster}: exit {r.returncode}")
        return None, ""
    loop = json.load(open(os.path.join(out, "report.json")))["loops"][0]
    return loop["cluster_kind"], loop["cluster_reason"]


for attribute, want in (("StallEnableINTEL", "stall-enable"), ("StallFreeINTEL", "stall-free")):
    kind, reason = compile_kind(attribute, "auto")
    if kind != want:
        failures.append(f"{attribute}: cluster kind {kind}, expected {want}")
    if f"{attribute} on the kernel" not in reason:
        failures.append(f"{attribute}: the reason does not name the attribute: {reason!r}")
kind, reason = compile_kind("StallEnableINTEL", "stall-free")
if kind != "stall-free" or "--cluster" not in reason:
    failures.append(f"--cluster stall-free did not override StallEnableINTEL: {kind}, {reason!r}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
