#!/usr/bin/env bash
# The test suite (fast by default; `bash scripts/test.sh -m slow` for the slow set), run from the project's
# virtual environment .venv made by scripts/setup.sh.  The tests run in parallel with pytest-xdist, one
# worker per core (CBDP_SYM_TEST_WORKERS=N sets the number; 0 runs them in this process, as `-n 0` does);
# tests sharing a module fixture or temporary files are kept in one worker (`xdist_group` marks).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
VENV=$(cd "${CBDP_SYM_VENV:-.venv}" && pwd)
export PYTHONHASHSEED=0 VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH"
exec "$VENV/bin/python" -m pytest -n "${CBDP_SYM_TEST_WORKERS:-auto}" --dist loadgroup "$@"
