"""The documentation site: it builds with warnings as errors, and the Python examples of its pages run."""
import re
import subprocess
import sys

import pytest

from ..conftest import ROOT

DOCS = ROOT / "docs"


@pytest.mark.slow
@pytest.mark.acceptance
def test_the_docs_build_with_warnings_as_errors(tmp_path):
    """The Sphinx build (4-5 CPU-s, most of it autodoc importing the engine): an acceptance test, run by CI's
    ``-m acceptance`` step; the fast set checks the toctree and the autodoc targets below."""
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(DOCS), str(tmp_path / "html")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    assert (tmp_path / "html" / "method.html").exists()


def test_every_page_is_in_the_toctree_and_every_autodoc_target_imports():
    """The fast part of the Sphinx build's checks: each page of docs/ is listed in index.md's toctree (Sphinx -W fails
    on a page outside every toctree, and on a toctree entry with no page), and each ``.. autoclass::`` /
    ``.. autofunction::`` / ``.. automodule::`` target imports (autodoc warns on a target it cannot import)."""
    import importlib

    index = (DOCS / "index.md").read_text(encoding="utf-8")
    tree = re.search(r"```\{toctree\}\n(.*?)```", index, re.S)
    assert tree, "index.md has a toctree"
    listed = [ln.strip() for ln in tree.group(1).splitlines() if ln.strip() and not ln.strip().startswith(":")]
    pages = sorted(p.stem for p in DOCS.glob("*.md") if p.stem != "index")
    assert sorted(listed) == pages, (listed, pages)
    targets = re.findall(r"^\.\. auto(class|function|module|data|attribute|method|exception):: *(\S+)",
                         "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")), re.M)
    assert targets
    bad = []
    for kind, target in targets:
        module, _, name = target.rpartition(".")
        try:
            importlib.import_module(target) if kind == "module" else getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            bad.append((target, repr(exc)))
    assert not bad, bad


def _pages():
    """``{page: [code, ...]}``: the Python blocks of each docs page marked to run (a fenced block ```python that
    follows a line ``<!-- run -->``), run in order in one namespace per page, as a reader would."""
    out = {}
    for page in sorted(DOCS.glob("*.md")):
        blocks = re.findall(r"<!-- run -->\s*\n```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        if blocks:
            out[page.name] = blocks
    return out


def test_some_docs_pages_have_runnable_examples():
    assert "tutorial.md" in _pages()


@pytest.mark.parametrize("page", sorted(_pages()))
def test_the_docs_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {"__name__": "__docs__"}
    for i, code in enumerate(_pages()[page]):
        exec(compile(code, f"docs/{page} (example {i + 1})", "exec"), env)


def test_the_readme_example_runs_and_prints_its_verdict(capsys):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "README.md", "exec"), {"__name__": "__readme__"})
    assert capsys.readouterr().out.strip() == "verified"


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
