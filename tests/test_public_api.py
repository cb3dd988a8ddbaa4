"""Paper modules reach the engine only through the public API: `from cbdp_sym import NAME`."""
import ast
import importlib
import inspect
from pathlib import Path

import warnings

import pytest

import cbdp_sym

from .conftest import ROOT
PAPER_MODULES = (sorted(ROOT.glob("derivations/*/*.py")) + sorted(ROOT.glob("tests/fixtures/*/*/*.py"))
                 + sorted(ROOT.glob("examples/*/*.py")))
# the role namespaces: `from cbdp_sym.certify import arb_closed`, or the module itself (`from cbdp_sym import peers`)
NAMESPACE_ALL = {f"cbdp_sym.{ns}": set(importlib.import_module(f"cbdp_sym.{ns}").__all__) for ns in cbdp_sym.NAMESPACES}
MODULE_VALUED = {(m, n) for m, names in NAMESPACE_ALL.items() for n in names
                 if inspect.ismodule(getattr(importlib.import_module(m), n))}  # calculus.optimize, families.finite_restricted
# what `from cbdp_sym import NAME` may name: the face's names and the namespaces, never an old (deprecated) name or a
# sub-package of the engine that is not a namespace (cbdp_sym.verify)
PUBLIC = set(cbdp_sym.API_NAMES) | set(cbdp_sym.NAMESPACES)


# user-folder fixtures that keep the deprecated path of helpers that moved into a built-in paper's folder (a user
# folder cannot import a built-in paper's _shared relatively): they show the old path works for one release, and
# test_a_user_folder_on_a_moved_helper_still_loads_with_the_warning checks its warning
DEPRECATED_PATHS_KEPT = {"tests/fixtures/zcdp/zmut/mutants.py": {"cbdp_sym.concentrated"},
                         "tests/fixtures/cbdp_renyi/mutren/mutants.py": {"cbdp_sym.divergences.power_sup"}}


def _import_violations(source: str, kept=frozenset()) -> list:
    """How a paper module reaches the engine other than through the face and the namespaces' ``__all__``."""
    out = []
    tree = ast.parse(source)
    module_aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "cbdp_sym":
            allowed = PUBLIC if node.module == "cbdp_sym" else NAMESPACE_ALL.get(node.module)
            if node.module in kept:
                continue
            if allowed is None:
                out.append(f"from {node.module} import ... (use `from cbdp_sym import` or a namespace)")
                continue
            for a in node.names:
                if f"{node.module}.{a.name}" in kept:
                    continue
                if a.name.startswith("_"):
                    out.append(f"private name {a.name}")
                elif a.name not in allowed:
                    out.append(f"{a.name} is not in {node.module}'s public API")
                if a.name in cbdp_sym.NAMESPACES or (node.module, a.name) in MODULE_VALUED:
                    module_aliases.add(a.asname or a.name)
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("cbdp_sym."):
                    out.append(f"import {a.name}")
    for node in ast.walk(tree):  # no private helper reached through a module (fr._mpf)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in module_aliases:
            if node.attr.startswith("_"):
                out.append(f"{node.value.id}.{node.attr}")
    return out


def test_import_check_sees_old_names_private_names_and_engine_modules():
    bad = ("from cbdp_sym import to_mpf\nfrom cbdp_sym.certify import _x\nfrom cbdp_sym.verify.claims import Claim\n"
           "from cbdp_sym.families import finite_restricted as fr\nfr._mpf\nimport cbdp_sym.laws\n"
           "from cbdp_sym.certify import to_mpf\n")
    assert len(_import_violations(bad)) == 6, _import_violations(bad)
    good = ("from cbdp_sym import Claim, peers\nfrom cbdp_sym.calculus import optimize, to_mpf\n"
            "from cbdp_sym.families import finite_restricted as fr\nfr.exact_mpf\npeers.compare\n")
    assert _import_violations(good) == []


@pytest.mark.parametrize("path", PAPER_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_paper_modules_import_only_public_names(path):
    rel = path.relative_to(ROOT).as_posix()
    found = _import_violations(path.read_text(encoding="utf-8"), DEPRECATED_PATHS_KEPT.get(rel, frozenset()))
    assert not found, f"{rel}: " + "; ".join(found)


def test_a_user_folder_on_a_moved_helper_still_loads_with_the_warning():
    """The zCDP mutation fixture (a user folder) imports ZPair and chernoff_exponent from cbdp_sym.concentrated, their
    path before 0.3: it loads, its claims use the zCDP paper's objects, and the warning names the new home."""
    import subprocess
    import sys

    code = ("import warnings\n"
            "from cbdp_sym.app.registry import Registry\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            f"    r = Registry(extra_roots=[{str(ROOT / 'tests' / 'fixtures' / 'zcdp')!r}])\n"
            "mod = [m for n, m in sys.modules.items() if n.endswith('zmut.mutants')][0]\n"
            "shared = [m for n, m in sys.modules.items() if n.endswith('.zcdp._shared')][0]\n"
            "print(sorted(r.broken), mod.ZPair is shared.ZPair, mod.chernoff_exponent is shared.chernoff_exponent)\n"
            "print(sorted({str(x.message)[:120] for x in w if x.category is DeprecationWarning}))\n")
    out = subprocess.run([sys.executable, "-c", "import sys\n" + code], capture_output=True, text=True, timeout=600,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    first, second = out.stdout.strip().splitlines()
    assert first == "[] True True", out.stdout
    assert "cbdp_sym.concentrated.ZPair is deprecated: it moved into the zcdp paper's folder, derivations/zcdp/_shared.py" in second


def test_every_api_name_is_exported_and_documented():
    for name in cbdp_sym.API_NAMES:
        obj = getattr(cbdp_sym, name)
        assert obj is not None and (inspect.getdoc(obj) or not callable(obj)), name
    assert 40 <= len(cbdp_sym.API_NAMES) <= 56, len(cbdp_sym.API_NAMES)
    for ns in cbdp_sym.NAMESPACES:
        mod = importlib.import_module(f"cbdp_sym.{ns}")
        assert mod.__doc__ and "====" in mod.__doc__, f"{ns}: no grouped docstring table"
        missing = [n for n in mod.__all__ if f"{n}`" not in mod.__doc__ and f"``{n}``" not in mod.__doc__]
        assert not missing, f"cbdp_sym.{ns}'s table misses {missing}"
        assert all(getattr(mod, n) is not None for n in mod.__all__)


def test_registry_is_the_class():
    from cbdp_sym.app.registry import Registry

    assert cbdp_sym.Registry is Registry and isinstance(cbdp_sym.Registry, type)


def test_old_names_resolve_to_the_same_object_and_warn():
    """Every name the face exported before the curated API still imports (one release), as the very same object,
    with a DeprecationWarning naming where it lives now."""
    from cbdp_sym import _api

    old = sorted(set(_api.OLD) - set(cbdp_sym.API_NAMES) - set(cbdp_sym.NAMESPACES))
    assert len(old) > 150, len(old)
    for name in old:
        if _api.OLD[name] in _api.MOVED_NAMES:  # moved into a paper's folder (tests/divergences/test_concentrated.py)
            with pytest.warns(DeprecationWarning, match=rf"`from cbdp_sym import {name}` is deprecated: it moved into"):
                obj = getattr(cbdp_sym, name)
            assert obj is _api.moved_object(_api.MOVED_NAMES[_api.OLD[name]], name), name
            continue
        with pytest.warns(DeprecationWarning, match=rf"`from cbdp_sym import {name}` is deprecated: use cbdp_sym\."):
            obj = getattr(cbdp_sym, name)
        assert obj is _api.resolve(_api.OLD[name]), name
        path = _api.new_path(name)
        module, _, attr = path.rpartition(".")
        assert getattr(importlib.import_module(module), attr) is obj, (name, path)
    # `peers` was the engine's module: the namespace holds every name of it
    old_peers = _api.resolve(_api.OLD["peers"])
    assert all(getattr(cbdp_sym.peers, n) is getattr(old_peers, n) for n in old_peers.__all__)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in cbdp_sym.API_NAMES:  # the face's own names never warn
            getattr(cbdp_sym, name)


def test_no_deprecated_import_while_importing_every_paper_module(tmp_path):
    """The paper modules (built-in, fixtures, examples) use the new paths: importing each of them with the face's
    DeprecationWarning as an error audits nothing and breaks none."""
    import subprocess
    import sys

    folders = sorted({p.parent for p in PAPER_MODULES})
    code = ("import sys, warnings\n"
            "warnings.filterwarnings('error', message='`from cbdp_sym import', category=DeprecationWarning)\n"
            "from cbdp_sym.app.registry import Registry\n"
            f"roots = {sorted({str(f.parent) for f in folders if 'derivations' not in f.parts})!r}\n"
            "r = Registry()\n"
            "papers, bad = len(r.papers), dict(r.broken)\n"
            "for root in roots:\n"
            "    r = Registry(extra_roots=[root], builtin=False)\n"
            "    papers += len(r.papers)\n"
            "    bad.update(r.broken)\n"
            "print(papers, sorted(bad.items()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().endswith("[]"), out.stdout


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

    code = ("import sys\nimport cbdp_sym, cbdp_sym._api, " + ", ".join(f"cbdp_sym.{n}" for n in cbdp_sym.NAMESPACES) + "\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'scipy', 'mpmath', 'numpy')"
            " or m.startswith(('cbdp_sym.laws', 'cbdp_sym.calculus.', 'cbdp_sym.divergences.', 'cbdp_sym.restricted.',"
            " 'cbdp_sym.verify'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    for name, (module, attr) in cbdp_sym._LAZY.items():
        mod = importlib.import_module(module)
        assert getattr(cbdp_sym, name) is (mod if attr is None else getattr(mod, attr)), name
    for ns in cbdp_sym.NAMESPACES:
        mod = importlib.import_module(f"cbdp_sym.{ns}")
        for name, (module, attr) in cbdp_sym._api.table(mod._EXPORTS, getattr(mod, "_NAMESPACES", None)).items():
            target = importlib.import_module(module)
            assert getattr(mod, name) is (target if attr is None else getattr(target, attr)), (ns, name)
    assert set(cbdp_sym.API_NAMES) <= set(dir(cbdp_sym))
    assert cbdp_sym.restricted_divergence is importlib.import_module("cbdp_sym.restricted.solver").restricted
    assert cbdp_sym.symbols.KAPPA is importlib.import_module("cbdp_sym.divergences.generators").KAPPA
    assert cbdp_sym.core is importlib.import_module("cbdp_sym.core")  # the sub-packages, as attributes
    with pytest.raises(AttributeError):
        cbdp_sym.no_such_name  # noqa: B018


def test_the_api_reference_covers_the_face_and_every_namespace():
    """docs/api.md (generated from the tables) names every face name and every namespace's names."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    missing = [n for n in cbdp_sym.API_NAMES if f"cbdp_sym.{n}\n" not in text and f"`{n}`" not in text]
    for ns in cbdp_sym.NAMESPACES:
        mod = importlib.import_module(f"cbdp_sym.{ns}")
        missing += [f"{ns}.{n}" for n in mod.__all__ if f"cbdp_sym.{ns}.{n}\n" not in text and f"`{n}`" not in text]
    assert not missing, f"docs/api.md misses {missing}"


def test_derived_divergences_return_value_and_conditions():
    """Every derivation of a divergence returns the same kind of pair, ``(value, conditions)`` (issue 30, item 3):
    the face's three and the namespaces' hockey-stick, profile and subsampled Rényi derivations."""
    import sympy as sp

    from cbdp_sym import KL, Normal, f_divergence, max_divergence, renyi_divergence
    from cbdp_sym.conversions import hockey_stick_sym, profile_sym
    from cbdp_sym.mechanisms import subsampled_renyi_sym

    P, Q, half = Normal(1, 1), Normal(0, 1), sp.Rational(1, 2)
    for out in (f_divergence(KL, P, Q), renyi_divergence(P, Q, 2), max_divergence(P, Q),
                hockey_stick_sym(P, Q, half), profile_sym(P, Q, half), subsampled_renyi_sym(P, Q, half, 2)):
        assert isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], list), out
        assert isinstance(out[0], sp.Basic), out
