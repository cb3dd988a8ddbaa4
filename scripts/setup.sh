#!/usr/bin/env bash
# Install what cbdp-sym needs on a fresh Debian/Ubuntu machine with Python 3.10+, as root or not:
# * TeX (for the PDF appendix) through apt-get when it is missing and we are root;
# * a project virtual environment .venv made by the `python3` first on PATH (Debian 12 and Ubuntu 24.04
#   refuse `pip install` into the system Python, PEP 668), installing python3-venv with apt-get when
#   the venv module is missing and we are root;
# * the package with its [test,oracles] extras into .venv (pip reads the same configuration files and
#   PIP_* variables as the system's pip, so it uses the same package index), skipped when the environment holds an
#   install of these very sources already (a stamp in .venv; CBDP_SYM_REINSTALL=1 installs anyway).
# scripts/audit.sh and scripts/test.sh run from .venv.  CBDP_SYM_VENV=DIR puts the environment elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${CBDP_SYM_VENV:-.venv}

can_apt() { [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; }
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then apt-get update; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

if ! command -v latexmk >/dev/null 2>&1 || ! command -v pdflatex >/dev/null 2>&1 \
   || ! kpsewhich pgfplots.sty >/dev/null 2>&1; then
  if can_apt; then
    apt_install texlive-latex-base texlive-latex-recommended texlive-pictures latexmk poppler-utils \
      texlive-fonts-recommended texlive-publishers texlive-latex-extra
  else
    echo "setup: latexmk/pdflatex/pgfplots not found and not root: install texlive-latex-base," \
         "texlive-latex-recommended, texlive-pictures and latexmk to get the PDF (reports still get .tex and JSON)" >&2
  fi
fi

if ! command -v python3 >/dev/null 2>&1; then
  if can_apt; then apt_install python3; else echo "setup: python3 not found: install Python 3.10 or newer" >&2; exit 1; fi
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "setup: $(command -v python3) is Python $(python3 -c 'import platform; print(platform.python_version())');" \
       "cbdp-sym needs 3.10 or newer first on PATH" >&2
  exit 1
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  if can_apt; then
    apt_install python3-venv
  else
    echo "setup: $(command -v python3) has no venv/ensurepip module: install python3-venv" \
         "(sudo apt-get install python3-venv) and run this again" >&2
    exit 1
  fi
fi

# one environment per interpreter: rebuild it when python3 on PATH is not the one that made it
want=$(python3 -c 'import sys; print(sys.base_prefix, *sys.version_info[:3])')
have=$("$VENV/bin/python" -c 'import sys; print(sys.base_prefix, *sys.version_info[:3])' 2>/dev/null || true)
if [ "$have" != "$want" ]; then
  if [ -n "$have" ]; then echo "setup: $VENV was made by another Python ($have); making it again with $want" >&2; fi
  rm -rf "$VENV"
  python3 -m venv "$VENV"
fi
# the package: installed again only when what it is built from changed since the last install into this environment
# (a stamp in the environment: the interpreter, the extras, the commit and its uncommitted changes, and the bytes of
# every file the package is built from); CBDP_SYM_REINSTALL=1 installs it again anyway
EXTRAS="test,oracles"
stamp_file="$VENV/.cbdp-sym-installed"
source_stamp() {
  {
    echo "$want [$EXTRAS]"
    git rev-parse HEAD 2>/dev/null || true
    git status --porcelain --untracked-files=no -- . ':!reports' 2>/dev/null || true
    find pyproject.toml setup.py README.md cbdp_sym derivations -type f ! -path '*/__pycache__/*' \
         ! -name '*.pyc' ! -name '_build_info.py' -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}
stamp=$(source_stamp)
if [ "${CBDP_SYM_REINSTALL:-}" != "1" ] && [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] \
   && [ -x "$VENV/bin/cbdp-sym" ] && "$VENV/bin/python" -c 'import importlib.metadata as m; m.version("cbdp-sym")' 2>/dev/null; then
  exit 0  # installed from these very sources: nothing to do
fi
rm -f "$stamp_file"
"$VENV/bin/python" -m pip install --quiet ".[$EXTRAS]"
echo "$stamp" > "$stamp_file"
