#!/usr/bin/env bash
# Install what cbdp-sym needs on a fresh Debian/Ubuntu machine with Python 3.10+:
# TeX (for the PDF appendix) through apt-get when run as root, and the package with its test extra.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v latexmk >/dev/null 2>&1 || ! command -v pdflatex >/dev/null 2>&1 \
   || ! kpsewhich pgfplots.sty >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      texlive-latex-base texlive-latex-recommended texlive-pictures latexmk poppler-utils
  else
    echo "setup: latexmk/pdflatex/pgfplots not found and not root: install texlive-latex-base," \
         "texlive-latex-recommended, texlive-pictures and latexmk to get the PDF (reports still get .tex and JSON)" >&2
  fi
fi
python3 -m pip install --quiet ".[test,oracles]"
