#!/usr/bin/env bash
# The main job: install, then audit every claim and write reports/ (LaTeX, PDF, audit.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PYTHONHASHSEED=0
extra=()
command -v latexmk >/dev/null 2>&1 || extra+=(--no-pdf)
exec cbdp-sym audit --strict --out reports "${extra[@]}" "$@"
