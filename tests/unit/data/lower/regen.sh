#!/bin/sh
# Regenerates the .spv fixtures from the .cl sources (clang-15 -O0 + llvm-spirv-15, as in
# /work/shared/notes/producing-spirv.md). The .spvasm fixtures are hand-written.
set -e
cd "$(dirname "$0")"
for cl in *.cl; do
  base=${cl%.cl}
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header \
    -no-opaque-pointers -O0 -emit-llvm-bc "$cl" -o "/tmp/$base.bc"
  llvm-spirv-15 --spirv-ext=+all "/tmp/$base.bc" -o "$base.spv"
  spirv-val "$base.spv"
done
# fusion.cl at -O2 as well: rotated loops, each behind a guard (test_loop_transforms.cpp). spirv-val
# rejects llvm-spirv-15's block order there ("appears in the binary before its dominator"); spvhls
# accepts it.
clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header \
  -no-opaque-pointers -O2 -emit-llvm-bc fusion.cl -o /tmp/fusion_o2.bc
llvm-spirv-15 --spirv-ext=+all /tmp/fusion_o2.bc -o fusion_o2.spv
