"""Build hook: record the source commit in ``cbdp_sym/_build_info.py`` inside every wheel and sdist.

An installed copy (not a git checkout) then still reports which commit it was built from (see
:func:`cbdp_sym.report.latex.provenance`).  Everything else is in ``pyproject.toml``.
"""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
INFO = os.path.join("cbdp_sym", "_build_info.py")


def _git(*args):
    try:
        out = subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _commit():
    """The checkout's commit (flagged when the tracked files differ from it), or None outside a checkout."""
    if _git("rev-parse", "--show-toplevel") is None:
        return None
    commit = _git("rev-parse", "HEAD")
    if commit and _git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!reports"):
        commit += " (with uncommitted changes)"
    return commit


def _write(base_dir):
    commit = _commit()
    target = os.path.join(base_dir, INFO)
    if commit is None and os.path.exists(target):
        return  # building from an sdist: keep the commit it recorded
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as fh:
        fh.write('"""Written by setup.py when the package was built (do not edit)."""\n')
        fh.write(f"COMMIT = {commit!r}\n")


class BuildPy(build_py):
    def run(self):
        super().run()
        if not self.dry_run:
            _write(self.build_lib)


class Sdist(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        _write(base_dir)


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
