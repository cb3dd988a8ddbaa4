"""The documentation site: it builds with warnings as errors, and the Python examples of its pages run."""
import re
import subprocess
import sys

import pytest

from ..conftest import ROOT

DOCS = ROOT / "docs"


def test_the_docs_build_with_warnings_as_errors(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(DOCS), str(tmp_path / "html")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    assert (tmp_path / "html" / "method.html").exists()


def _examples():
    """``(page, code)`` of every Python block of the docs marked to run (a fenced block ```python that follows
    a line ``<!-- run -->``)."""
    out = []
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"<!-- run -->\s*\n```python\n(.*?)```", text, re.S):
            out.append((page.name, m.group(1)))
    return out


@pytest.mark.parametrize("page, code", _examples() or [("none", "")], ids=lambda x: str(x)[:30])
def test_the_docs_examples_run(page, code, tmp_path, monkeypatch):
    if page == "none":
        pytest.skip("no runnable example yet")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"docs/{page}", "exec"), {"__name__": "__docs__"})


def test_the_readme_example_runs_and_prints_its_verdict(capsys):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "README.md", "exec"), {"__name__": "__readme__"})
    assert capsys.readouterr().out.strip() == "verified"


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
