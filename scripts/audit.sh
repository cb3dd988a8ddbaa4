#!/usr/bin/env bash
# The main job: install, then audit every claim and write reports/ (LaTeX, PDF, audit.json), from the
# project's virtual environment .venv made by scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
VENV=$(cd "${CBDP_SYM_VENV:-.venv}" && pwd)
export PYTHONHASHSEED=0 VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH"
extra=()
command -v latexmk >/dev/null 2>&1 || extra+=(--no-pdf)
exec "$VENV/bin/cbdp-sym" audit --strict --out reports "${extra[@]}" "$@"
