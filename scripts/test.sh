#!/usr/bin/env bash
# The test suite (fast by default; `bash scripts/test.sh -m slow` for the slow set), run from the project's
# virtual environment .venv made by scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
VENV=$(cd "${CBDP_SYM_VENV:-.venv}" && pwd)
export PYTHONHASHSEED=0 VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH"
exec "$VENV/bin/python" -m pytest "$@"
