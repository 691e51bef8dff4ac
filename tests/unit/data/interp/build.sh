#!/bin/sh
# Regenerates the interpreter test fixtures (committed): OpenCL C kernels compiled with clang-15 +
# llvm-spirv-15 at -O0 (and a few at -O2, which gives OpPhi/OpLoopMerge), and hand-written .spvasm
# assembled with spirv-as. Every result is validated with spirv-val.
set -e
cd "$(dirname "$0")"
cl() { # cl <name> <opt> <out> [extra clang flags]
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header -no-opaque-pointers \
    -"$2" -disable-lifetime-markers -fno-builtin $4 -emit-llvm-bc "$1.cl" -o "$3.bc"
  llvm-spirv-15 --spirv-ext=+all --spirv-max-version=1.3 "$3.bc" -o "$3.spv"
  rm -f "$3.bc"
  spirv-val "$3.spv"
}
for k in vadd dot fir histogram switch calls localarray math64 builtins vectors localmem errors globals; do
  cl $k O0 $k
done
# Floating point: fp_common.h is shared with test_interp_float.cpp; no contraction of a * b + c.
cl fp O0 fp -ffp-contract=off
# ND-range and subgroups (cl_intel_subgroups -> SPV_INTEL_subgroups).
cl ndrange O0 ndrange -cl-ext=+cl_khr_subgroups
cl sgshuffle O0 sgshuffle -cl-ext=+cl_intel_subgroups
for k in dot vadd; do
  cl $k O2 ${k}_O2
done
spirv-as --target-env spv1.4 handwritten.spvasm -o handwritten.spv
spirv-val handwritten.spv
spirv-as --target-env spv1.4 readonly.spvasm -o readonly.spv # invalid on purpose: not validated
spirv-as --target-env spv1.2 sgspec.spvasm -o sgspec.spv # the tests read the .spvasm; this validates it
spirv-val sgspec.spv
