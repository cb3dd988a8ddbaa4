"""Paper modules reach the engine only through the public API: `from cbdp_sym import NAME`."""
import ast
from pathlib import Path

import pytest

import cbdp_sym

ROOT = Path(__file__).resolve().parent.parent
PAPER_MODULES = sorted(ROOT.glob("derivations/*/*.py")) + sorted(ROOT.glob("tests/fixtures/*/*/*.py"))
SUBMODULES = {p.stem for p in (ROOT / "cbdp_sym").glob("*.py")}


@pytest.mark.parametrize("path", PAPER_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_paper_modules_import_only_public_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "cbdp_sym":
            assert node.module == "cbdp_sym", f"{path.name}: from {node.module} import ... (use `from cbdp_sym import`)"
            for a in node.names:
                assert not a.name.startswith("_"), f"{path.name}: private name {a.name}"
                assert a.name in SUBMODULES or hasattr(cbdp_sym, a.name), f"{path.name}: {a.name} is not exported"
                if a.name in SUBMODULES:
                    module_aliases.add(a.asname or a.name)
        if isinstance(node, ast.Import):
            for a in node.names:
                assert not a.name.startswith("cbdp_sym."), f"{path.name}: import {a.name}"
    for node in ast.walk(tree):  # no private helper reached through a module (fr._mpf)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in module_aliases:
            assert not node.attr.startswith("_"), f"{path.name}: {node.value.id}.{node.attr}"


def test_every_api_name_is_exported_and_documented():
    for name in cbdp_sym._API_NAMES:
        obj = getattr(cbdp_sym, name)
        assert obj is not None, name
