"""The tests mirror the engine: one test module per engine module.

The rule (checked by :func:`layout_problems`):

* every engine module ``cbdp_sym/<subpackage>/<module>.py`` (``__init__.py`` aside) has its tests in
  ``tests/<subpackage>/test_<module>.py``;
* every ``tests/<subpackage>/`` of an engine sub-package holds only such mirrors (a test file there that names no
  engine module is reported) and an ``__init__.py`` (so that two ``test_<module>.py`` of different
  sub-packages do not collide);
* the package's top-level modules are tested by the cross-cutting files: ``_api.py`` (the public names) by
  ``tests/test_public_api.py``, ``__main__.py`` (``python -m cbdp_sym``) by ``tests/app/test_cli.py``,
  ``__init__.py`` by both;
* tests about a paper's claims live in ``tests/papers/``, end-to-end runs (full audit, install, notebook,
  reproducibility, command-line safety) in ``tests/integration/``; at the top of ``tests/`` only the cross-cutting
  files below;
* no test depends on where it or the checkout sits: paths come from ``tests/conftest.py`` (``ROOT``, ``TESTS``,
  ``FIXTURES``, ``LATEX``), never from a test file's ``__file__`` (which breaks when the file moves) or a folder
  of one machine (:func:`path_problems`).
"""
import re
from pathlib import Path

import pytest

from .conftest import ROOT, TESTS

TOP_LEVEL_TESTS = {"test_architecture.py", "test_public_api.py", "test_layout.py"}
TOP_LEVEL_MODULES = {"__init__.py": "test_public_api.py", "_api.py": "test_public_api.py", "__main__.py": "app/test_cli.py",
                     # the role namespaces of the public API (issue 30)
                     **{f"{ns}.py": "test_public_api.py" for ns in ("certify", "concentrated", "conversions", "families",
                                                                   "mechanisms", "peers", "symbols")}}
FREE_FOLDERS = {"papers", "integration"}


def layout_problems(pkg: Path, tests: Path) -> list[str]:
    """What breaks the mirror between the engine ``pkg`` and the test folder ``tests`` (empty when none)."""
    problems = []
    subpackages = sorted(p.parent.name for p in pkg.glob("*/__init__.py") if p.parent.name != "derivations")
    for sub in subpackages:
        for mod in sorted((pkg / sub).glob("*.py")):
            if mod.name != "__init__.py" and not (tests / sub / f"test_{mod.name}").is_file():
                problems.append(f"{sub}/{mod.name} has no tests/{sub}/test_{mod.name}")
        if (tests / sub).is_dir():
            if not (tests / sub / "__init__.py").is_file():
                problems.append(f"tests/{sub}/ has no __init__.py")
            for test in sorted((tests / sub).glob("test_*.py")):
                if not (pkg / sub / test.name[len("test_"):]).is_file():
                    problems.append(f"tests/{sub}/{test.name} mirrors no module of {pkg.name}/{sub}/")
    for mod in sorted(pkg.glob("*.py")):
        if mod.name not in TOP_LEVEL_MODULES:
            problems.append(f"{mod.name}: a top-level module with no rule for its tests")
        elif not (tests / TOP_LEVEL_MODULES[mod.name]).is_file():
            problems.append(f"{mod.name} has no tests/{TOP_LEVEL_MODULES[mod.name]}")
    for test in sorted(tests.glob("test_*.py")):
        if test.name not in TOP_LEVEL_TESTS:
            problems.append(f"tests/{test.name}: put it beside the module it tests (tests/<subpackage>/), "
                            "or in tests/papers/ or tests/integration/")
    known = set(subpackages) | FREE_FOLDERS
    for folder in sorted(p for p in tests.iterdir() if p.is_dir() and any(p.glob("test_*.py"))):
        if folder.name not in known:
            problems.append(f"tests/{folder.name}/ is neither an engine sub-package nor papers/ or integration/")
    return problems


MACHINE_FOLDER = re.compile(r"""["'](/work|/home|/Users|/root|/mnt|/srv)/""")


def path_problems(tests: Path) -> list[str]:
    """Test files (``conftest.py`` aside) that take a path from their own ``__file__`` or name a machine's folder."""
    problems = []
    for path in sorted(tests.rglob("*.py")):
        rel = path.relative_to(tests)
        if rel.parts[0] == "fixtures" or path.name == "conftest.py" or rel == Path("test_layout.py"):  # (its examples)
            continue
        text = path.read_text(encoding="utf-8")
        if "__file__" in text:
            problems.append(f"tests/{rel.as_posix()}: a path from __file__ (use ROOT, FIXTURES or LATEX of conftest)")
        m = MACHINE_FOLDER.search(text)
        if m:
            problems.append(f"tests/{rel.as_posix()}: names the machine folder {m.group(1)!r}")
    return problems


def test_every_engine_module_has_its_test_module():
    assert layout_problems(ROOT / "cbdp_sym", TESTS) == []


def _tree(root: Path, files):
    for f in files:
        (root / f).parent.mkdir(parents=True, exist_ok=True)
        (root / f).write_text("")
    return root / "cbdp_sym", root / "tests"


GOOD = ["cbdp_sym/__init__.py", "cbdp_sym/_api.py", "cbdp_sym/core/__init__.py", "cbdp_sym/core/store.py",
        "tests/test_public_api.py", "tests/core/__init__.py", "tests/core/test_store.py", "tests/papers/test_rdp.py"]


@pytest.mark.parametrize("change,problem", [
    (None, None),
    ({"drop": "tests/core/test_store.py"}, "core/store.py has no tests/core/test_store.py"),
    ({"add": "cbdp_sym/core/newmod.py"}, "core/newmod.py has no tests/core/test_newmod.py"),
    ({"add": "tests/core/test_stroe.py"}, "tests/core/test_stroe.py mirrors no module of cbdp_sym/core/"),
    ({"drop": "tests/core/__init__.py"}, "tests/core/ has no __init__.py"),
    ({"add": "tests/test_store.py"}, "tests/test_store.py: put it beside the module it tests"),
    ({"add": "tests/misc/test_x.py"}, "tests/misc/ is neither an engine sub-package"),
    ({"add": "cbdp_sym/extra.py"}, "extra.py: a top-level module with no rule for its tests"),
])
def test_the_rule_catches_a_missing_or_stray_test_module(tmp_path, change, problem):
    files = list(GOOD)
    if change and "drop" in change:
        files.remove(change["drop"])
    if change and "add" in change:
        files.append(change["add"])
    found = layout_problems(*_tree(tmp_path, files))
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(problem), found


def test_no_test_depends_on_where_it_sits():
    assert path_problems(TESTS) == []


@pytest.mark.parametrize("text,problem", [
    ('X = 1\n', None),
    ('ROOT = Path(__file__).parent.parent\n', "a path from __file__"),
    ('CAT = Path("/work/shared/claims")\n', "names the machine folder '/work'"),
    ("HOME = '/home/me/cbdp'\n", "names the machine folder '/home'"),
])
def test_the_path_rule_can_fail(tmp_path, text, problem):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "test_x.py").write_text(text)
    (tmp_path / "conftest.py").write_text("ROOT = Path(__file__).parent\n")  # conftest is where paths are made
    found = path_problems(tmp_path)
    if problem is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(f"tests/core/test_x.py: {problem}"), found
