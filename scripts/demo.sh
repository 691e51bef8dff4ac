#!/usr/bin/env bash
# The main job on a bundled example: OpenCL C vector add -> SPIR-V (clang-15 + llvm-spirv-15) ->
# modulo-scheduled Verilog -> Verilator simulation against the golden interpreter -> report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/spvhls sim build/examples/vadd.spv --run examples/vadd.run.json -o out/vadd \
  --seeds 1,2,3 --latency 1:12 --ready-prob 0.6 --check-cycles
echo "Verilog and report: out/vadd/"
