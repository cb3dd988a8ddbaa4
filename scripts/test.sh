#!/usr/bin/env bash
# The test suite (fast by default; `bash scripts/test.sh -m slow` for the slow set).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PYTHONHASHSEED=0
python3 -m pytest "$@"
