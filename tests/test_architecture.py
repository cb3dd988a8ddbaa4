"""The engine's architecture: sub-packages in a strict downward stack, no import circles, imports at module top.

core -> laws -> calculus -> divergences -> restricted -> verify -> report -> app: a module may import modules of
its own sub-package or of the ones before it, never after; the graph of imports between engine modules
(counting imports inside functions too) has no circle; and engine modules import engine modules at their top,
where a reader sees them.
"""
import ast
from pathlib import Path

import pytest

from .conftest import ROOT

PKG = ROOT / "cbdp_sym"
LAYERS = ["core", "laws", "calculus", "divergences", "restricted", "verify", "report", "app"]


def _modules():
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(PKG).with_suffix("")
        if "derivations" in rel.parts or "__pycache__" in rel.parts:
            continue
        parts = [x for x in rel.parts if x != "__init__"]
        out[".".join(["cbdp_sym", *parts])] = p
    return out


def _imports(path, name):
    """``[(imported engine module, at module top?, line)]`` of one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(n) for n in tree.body}
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        for t in targets:
            if t.startswith("cbdp_sym"):
                found.append((t, id(node) in top, node.lineno))
    return found


MODULES = _modules()
# the package face's role namespaces (tables of names resolved on first use, outside the layers: issue 30)
NAMESPACES = tuple(f"cbdp_sym.{n}" for n in ("certify", "concentrated", "conversions", "families", "mechanisms",
                                             "peers", "symbols"))


def _resolve(target):
    while target and target not in MODULES:
        target = target.rpartition(".")[0]
    return target


def _layer(name):
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in LAYERS else None


def _graph():
    g = {}
    for name, path in MODULES.items():
        g[name] = set()
        for t, _top, _line in _imports(path, name):
            m = _resolve(t)
            if m and m != name and m != "cbdp_sym" and not name.endswith(("__init__",)):
                g[name].add(m)
    return g


def test_every_engine_module_is_in_a_layer():
    loose = [n for n in MODULES if _layer(n) is None
             and n not in ("cbdp_sym", "cbdp_sym.__main__", "cbdp_sym._api", "cbdp_sym._build_info", *NAMESPACES)
             and n.rsplit(".", 1)[-1] not in LAYERS]
    assert not loose, f"modules outside the layered sub-packages: {loose}"


def test_imports_go_down_the_stack():
    bad = []
    for name, path in MODULES.items():
        mine = _layer(name)
        if mine is None:
            continue
        for t, _top, line in _imports(path, name):
            theirs = _layer(_resolve(t) or "")
            if theirs is not None and LAYERS.index(theirs) > LAYERS.index(mine):
                bad.append(f"{name}:{line} imports {t} ({theirs} is above {mine})")
    assert not bad, "\n".join(bad)


def test_no_import_circles():
    g = _graph()
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    assert not sccs, f"import circles: {sccs}"


# the command line imports the engine inside its commands, so that `--version`, `--help` and `list` start without
# SymPy, SciPy or the solvers (issue 31; its top says so)
LAZY_IMPORTS = {"cbdp_sym.app.cli"}


def test_engine_imports_are_at_module_top():
    hidden = [f"{name}:{line} imports {t} inside a function"  # (_build_info: written into built packages only)
              for name, path in MODULES.items() if _layer(name) and name not in LAZY_IMPORTS
              for t, top, line in _imports(path, name) if not top and not t.startswith("cbdp_sym._build_info")]
    assert not hidden, "\n".join(hidden)


@pytest.mark.parametrize("layer", LAYERS)
def test_the_check_can_fail(layer, tmp_path):
    """The layer rule rejects an upward import (a test that cannot fail would be a defect)."""
    mod = tmp_path / "m.py"
    mod.write_text("from cbdp_sym.app.cli import main\n", encoding="utf-8")
    ups = [t for t, _top, _line in _imports(mod, f"cbdp_sym.{layer}.m")
           if LAYERS.index(_layer(_resolve(t)) or layer) > LAYERS.index(layer)]
    assert bool(ups) == (layer != "app")
