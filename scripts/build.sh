#!/usr/bin/env bash
# Installs the Debian packages (scripts/setup.sh) and builds spvhls and the examples into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j 2
