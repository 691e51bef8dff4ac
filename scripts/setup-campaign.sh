#!/usr/bin/env bash
# Installs what scripts/csmith_campaign.py needs on top of scripts/setup.sh: csmith (the generator),
# libcsmith-dev (its runtime headers, /usr/include/csmith/safe_math.h) and gcc (the native reference).
# Idempotent.
set -euo pipefail
bash "$(dirname "$0")/setup.sh" csmith libcsmith-dev gcc
