#!/bin/sh
# Regenerates the frontend test fixtures with Debian's clang-15, llvm-spirv-15 and spirv-dis.
# loop_controls.ll is hand-edited clang-15 -O0 output (loop metadata added to the latch branch); the
# translator writes its loop controls into OpLoopMerge, which spirv-dis cannot print (grammar bug).
set -e
cd "$(dirname "$0")"
for k in vadd mixed; do
  clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0 -finclude-default-header -no-opaque-pointers \
           -O0 -ffp-contract=off -emit-llvm-bc $k.cl -o /tmp/$k.bc
  llvm-spirv-15 --spirv-ext=+all /tmp/$k.bc -o $k.spv
  spirv-val $k.spv
  spirv-dis --raw-id $k.spv -o $k.spvasm
done
spirv-dis vadd.spv -o vadd_named.spvasm
llvm-as-15 loop_controls.ll -o /tmp/loop_controls.bc
llvm-spirv-15 --spirv-ext=+all /tmp/loop_controls.bc -o loop_controls.spv
