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
for k in vadd dot fir histogram switch calls localarray math64 builtins vectors localmem errors globals specconst byval; do
  cl $k O0 $k
done
# Floating point: fp_common.h is shared with test_interp_float.cpp; no contraction of a * b + c.
cl fp O0 fp -ffp-contract=off
# ND-range and subgroups (cl_intel_subgroups -> SPV_INTEL_subgroups).
cl ndrange O0 ndrange -cl-ext=+cl_khr_subgroups
cl sgshuffle O0 sgshuffle -cl-ext=+cl_intel_subgroups
# Core group instructions from sub_group_* and work_group_* built-ins.
cl groups O0 groups -cl-ext=+cl_khr_subgroups,+cl_khr_subgroup_non_uniform_arithmetic,+cl_khr_subgroup_non_uniform_vote,+cl_khr_subgroup_ballot
for k in dot vadd; do
  cl $k O2 ${k}_O2
done
# Integer and control-flow differential tests: native_body.h is shared with test_interp_native.cpp.
cl native O0 native
# At -O2 clang-15 + llvm-spirv-15 need work-arounds on bigger kernels, so clang's -O2 pipeline runs
# in opt-15 (vectorisers off, as in clang -cc1 -O2: llvm-spirv-15 cannot translate llvm.vector.reduce):
# - the SPIR datalayout declares no native integer widths, so InstCombine narrows switch conditions to
#   i2..i4 and llvm-spirv-15 then fails an assertion (SPIRVSwitch::validate): n8:16:32:64 is added;
# - llvm-spirv-15 keeps LLVM's block order, which is not always dominance order: rpo_blocks.py sorts;
# - SPV_INTEL_memory_access_aliasing (noalias scopes after inlining) is emitted invalidly: disabled.
clO2() { # clO2 <name> <out>
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header -no-opaque-pointers \
    -O2 -disable-llvm-passes -disable-lifetime-markers -fno-builtin -emit-llvm "$1.cl" -o "$2.0.ll"
  sed 's/^target datalayout = "\(.*\)"$/target datalayout = "\1-n8:16:32:64"/' "$2.0.ll" > "$2.1.ll"
  opt-15 -passes='default<O2>,instnamer' -vectorize-loops=false -vectorize-slp=false -S "$2.1.ll" -o "$2.2.ll"
  python3 rpo_blocks.py < "$2.2.ll" > "$2.3.ll"
  llvm-as-15 "$2.3.ll" -o "$2.bc"
  llvm-spirv-15 --spirv-ext=+all,-SPV_INTEL_memory_access_aliasing --spirv-max-version=1.3 "$2.bc" -o "$2.spv"
  rm -f "$2.bc" "$2.0.ll" "$2.1.ll" "$2.2.ll" "$2.3.ll"
  spirv-val "$2.spv"
}
clO2 native native_O2
spirv-as --target-env spv1.4 handwritten.spvasm -o handwritten.spv
spirv-val handwritten.spv
spirv-as --target-env spv1.4 readonly.spvasm -o readonly.spv # invalid on purpose: not validated
spirv-as --target-env spv1.2 sgspec.spvasm -o sgspec.spv # the tests read the .spvasm; this validates it
spirv-val sgspec.spv
# Saturating conversions and rounding modes (test_interp_convert.cpp).
cl convert O0 convert -cl-ext=+cl_khr_fp16,+cl_khr_fp64
