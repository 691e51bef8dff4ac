#!/usr/bin/env bash
# Installs what scripts/csmith_campaign.py needs on top of scripts/setup.sh: csmith (the generator) and
# libcsmith-dev (its runtime headers, /usr/include/csmith/safe_math.h). Idempotent.
set -euo pipefail
bash "$(dirname "$0")/setup.sh"
PKGS=(csmith libcsmith-dev gcc)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-campaign: all packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
