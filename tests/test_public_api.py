"""Paper modules reach the engine only through the public API: `from cbdp_sym import NAME`."""
import ast
import inspect
from pathlib import Path

import pytest

import cbdp_sym

from .conftest import ROOT
PAPER_MODULES = (sorted(ROOT.glob("derivations/*/*.py")) + sorted(ROOT.glob("tests/fixtures/*/*/*.py"))
                 + sorted(ROOT.glob("examples/*/*.py")))
NAMESPACES = {n for n in cbdp_sym._API_NAMES if inspect.ismodule(getattr(cbdp_sym, n))}  # finite_restricted, peers
# what `from cbdp_sym import NAME` may name: the names the package exports, never a sub-package or module of the
# engine (cbdp_sym.restricted is the sub-package; the function is restricted_divergence) unless _api exports it
PUBLIC = {n for n in dir(cbdp_sym) if not n.startswith("_")
          and (not inspect.ismodule(getattr(cbdp_sym, n)) or n in cbdp_sym._API_NAMES)}


@pytest.mark.parametrize("path", PAPER_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_paper_modules_import_only_public_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "cbdp_sym":
            assert node.module == "cbdp_sym", f"{path.name}: from {node.module} import ... (use `from cbdp_sym import`)"
            for a in node.names:
                assert not a.name.startswith("_"), f"{path.name}: private name {a.name}"
                assert a.name in PUBLIC, f"{path.name}: {a.name} is not in the public API"
                if a.name in NAMESPACES:
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


# Paper folders whose check functions return CheckResult (never a hand-built {"status": ...} dict) and whose
# certificates go through cbdp_sym's ball arithmetic (never `import flint`).  Add a folder once it is converted.
TYPED_PAPER_FOLDERS = ["cbdp", "rdp", "zcdp"]
TYPED_PAPER_MODULES = [p for folder in TYPED_PAPER_FOLDERS
                       for p in sorted((ROOT / "derivations" / folder).rglob("*.py"))]


def _typed_layer_violations(source: str) -> list:
    """Where a module builds a verdict dict by hand or reaches python-flint: ``["line N: ...", ...]``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "status" for k in node.keys):
            out.append(f"line {node.lineno}: a dict literal with a \"status\" key (return a CheckResult)")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"
                and any(kw.arg == "status" for kw in node.keywords)):
            out.append(f"line {node.lineno}: dict(status=...) (return a CheckResult)")
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "flint" for a in node.names):
            out.append(f"line {node.lineno}: import flint (use arb_closed / arb_eval / arb_precision)")
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "flint":
            out.append(f"line {node.lineno}: from flint import ... (use arb_closed / arb_eval / arb_precision)")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "flint"):
            out.append(f"line {node.lineno}: __import__('flint')")
    return sorted(out, key=lambda t: int(t.split(":")[0].split()[1]))


def test_typed_layer_check_sees_dicts_and_flint():
    bad = ('import flint\nfrom flint import arb\n'
           'def check(dps):\n    return {"status": "holds", "message": "m"}\n'
           'def other(dps):\n    return dict(status="refuted", message="m")\n')
    found = _typed_layer_violations(bad)
    assert [f.split(":")[0] for f in found] == ["line 1", "line 2", "line 4", "line 6"], found
    good = ('from cbdp_sym import CheckResult\n'
            'def check(dps):\n    return CheckResult("holds", "m", tables=[{"title": "t", "rows": []}])\n')
    assert _typed_layer_violations(good) == []


@pytest.mark.parametrize("path", TYPED_PAPER_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_paper_modules_return_check_results_and_never_import_flint(path):
    found = _typed_layer_violations(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: " + "; ".join(found)


# -- no hand-rolled optimisers in paper modules (cbdp_sym.calculus.optimize holds them, chosen by name) -----------
def _hand_rolled_searches(source: str) -> list:
    """Where a module carries its own one-variable search: a golden-ratio literal (a golden section), a bracket
    halved in a loop (a bisection), a bracket grown in a while loop; ``["line N: ...", ...]``.  A ratio passed
    to the engine (``ratio=0.618``) is not a search."""
    out = []
    tree = ast.parse(source)
    passed = {id(k.value) for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords if k.arg == "ratio"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float) and id(node) not in passed and (
                abs(node.value - 0.618) < 1e-3 or abs(node.value - 1.618) < 1e-3 or abs(node.value - 0.382) < 1e-3):
            out.append(f"line {node.lineno}: the golden ratio {node.value!r} (a golden section: use optimize.minimize(..., 'golden'))")
        if isinstance(node, (ast.For, ast.While)):
            assigned = {t.id for sub in ast.walk(node) if isinstance(sub, (ast.Assign, ast.AugAssign))
                        for tgt in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])
                        for t in ast.walk(tgt) if isinstance(t, ast.Name)}
            for sub in ast.walk(node):
                mid = sub.value if isinstance(sub, ast.Assign) else None
                if (isinstance(mid, ast.BinOp) and isinstance(mid.op, ast.Div) and isinstance(mid.left, ast.BinOp)
                        and isinstance(mid.left.op, ast.Add) and isinstance(mid.right, ast.Constant) and mid.right.value == 2
                        and all(isinstance(o, ast.Name) and o.id in assigned for o in (mid.left.left, mid.left.right))):
                    out.append(f"line {sub.lineno}: a bracket halved in a loop (a bisection: use optimize.bisection)")
                if (isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name)
                        and isinstance(sub.value, ast.BinOp) and isinstance(sub.value.op, ast.Mult)
                        and any(isinstance(o, ast.Name) and o.id == sub.targets[0].id for o in (sub.value.left, sub.value.right))
                        and isinstance(node, ast.While)):
                    out.append(f"line {sub.lineno}: a bracket grown in a while loop (use optimize.expand_until)")
    return sorted(set(out), key=lambda t: int(t.split(":")[0].split()[1]))


def test_hand_rolled_search_check_sees_golden_sections_and_bisections():
    bad = ("def gold(f, a, b):\n    for _ in range(80):\n        c, d = b - (b - a) * 0.618, a + (b - a) * 0.618\n"
           "        if f(c) <= f(d):\n            b = d\n        else:\n            a = c\n\n"
           "def bis(f, lo, hi):\n    while hi - lo > 1e-9:\n        m = (lo + hi) / 2\n"
           "        lo, hi = (m, hi) if f(m) < 0 else (lo, m)\n\n"
           "def grow(g, hi):\n    while g(hi) > 0:\n        hi = 2 * hi\n    return hi\n")
    found = _hand_rolled_searches(bad)
    assert [f.split(":")[0] for f in found] == ["line 3", "line 11", "line 16"], found
    good = ("from cbdp_sym import optimize\n"
            "def f(g, a, b):\n    s = 0\n    for x in (a, b):\n        s += (x + b) / 2\n"
            "    return optimize.minimize(g, None, 'golden', bracket=(a, b), iters=80, reuse=False, ratio=0.618)\n")
    assert _hand_rolled_searches(good) == []


@pytest.mark.parametrize("path", TYPED_PAPER_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_paper_modules_hand_roll_no_optimiser(path):
    found = _hand_rolled_searches(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: " + "; ".join(found)


def test_names_are_resolved_on_first_use_and_are_the_modules_objects():
    """The package face resolves its names lazily (PEP 562): `import cbdp_sym` imports no engine module, SymPy or
    SciPy, and each name is the very object of the module it comes from (as when the face imported them all)."""
    import importlib
    import subprocess
    import sys

    code = ("import sys\nimport cbdp_sym, cbdp_sym._api\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'scipy', 'mpmath', 'numpy')"
            " or m.startswith(('cbdp_sym.laws', 'cbdp_sym.calculus', 'cbdp_sym.divergences', 'cbdp_sym.verify'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    for face in (cbdp_sym, cbdp_sym._api):
        table = face._LAZY if face is cbdp_sym else face.LAZY
        for name, (module, attr) in table.items():
            mod = importlib.import_module(module)
            assert getattr(face, name) is (mod if attr is None else getattr(mod, attr)), name
    assert set(cbdp_sym._API_NAMES) <= set(dir(cbdp_sym)) and set(cbdp_sym._API_NAMES) == set(cbdp_sym._api.LAZY)
    assert cbdp_sym.restricted_divergence is importlib.import_module("cbdp_sym.restricted.solver").restricted
    assert cbdp_sym.KAPPA is importlib.import_module("cbdp_sym.divergences.generators")._KAPPA
    assert cbdp_sym.core is importlib.import_module("cbdp_sym.core")  # the sub-packages, as attributes
    with pytest.raises(AttributeError):
        cbdp_sym.no_such_name  # noqa: B018
