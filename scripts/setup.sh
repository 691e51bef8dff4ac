#!/usr/bin/env bash
# Installs every Debian package spvhls needs to build, test and simulate, plus any packages named on
# the command line (scripts/setup-campaign.sh adds csmith's).
# Idempotent: skips apt entirely when everything is already present.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config python3
      verilator libsystemc-dev libboost-graph-dev libfmt-dev doctest-dev
      nlohmann-json3-dev spirv-headers spirv-tools clang-15 llvm-15 llvm-spirv-15 yosys
      time ccache chromium zlib1g-dev coinor-libcbc-dev "$@") # time: GNU time, the compile benchmark's peak memory; ccache: the simulators' builds;
      # chromium: report.html rendered headless in the tests; zlib1g-dev: Verilator's FST waveforms;
      # coinor-libcbc-dev: the exact modulo scheduler's ILP solver (CBC)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
