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
  files below.
"""
from pathlib import Path

import pytest

from .conftest import ROOT, TESTS

TOP_LEVEL_TESTS = {"test_architecture.py", "test_public_api.py", "test_layout.py"}
TOP_LEVEL_MODULES = {"__init__.py": "test_public_api.py", "_api.py": "test_public_api.py", "__main__.py": "app/test_cli.py"}
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
