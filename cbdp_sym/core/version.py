"""The version of cbdp-sym (read by pyproject.toml and printed in every report's provenance)."""
__version__ = "0.2.0"


def _git(args, cwd):
    import subprocess

    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def source_commit() -> str:
    """The commit of the code that runs: from git when it runs from a checkout (the folder holding
    ``pyproject.toml``), else the one recorded when the package was built (``_build_info.py``, written by
    ``setup.py``), else plainly ``unknown``.  (The same as :func:`cbdp_sym.report.latex.source_commit`, here without
    the report's imports, for ``cbdp-sym --version``; a test keeps the two the same.)"""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file():
        commit = _git(["rev-parse", "HEAD"], root)
        if commit:
            dirty = _git(["status", "--porcelain", "--untracked-files=no", "--", ".", ":!reports"], root)
            return commit + (" (with uncommitted changes)" if dirty else "")
    try:
        from cbdp_sym._build_info import COMMIT  # written by setup.py into a built package only
    except ImportError:
        COMMIT = None
    if COMMIT:
        return f"{COMMIT} (recorded at build time)"
    return "unknown (not a git checkout, and no commit was recorded when this copy was built)"
