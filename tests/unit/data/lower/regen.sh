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
