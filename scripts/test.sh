#!/usr/bin/env bash
# The whole test suite: unit tests (doctest) and end-to-end tests (every example in both cluster
# kinds against the interpreter, lint, synthesis, malformed inputs), through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build && ctest --output-on-failure -j 2 "$@"
