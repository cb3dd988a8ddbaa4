import json

import sympy as sp

import cbdp_sym.core.store as store
import cbdp_sym.core.symcache as symcache
from cbdp_sym.core.serial import same_tree


def _counting(fn):
    calls = []

    def op(*args, **kwargs):
        calls.append(args)
        return fn(*args, **kwargs)

    return op, calls


def _fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    monkeypatch.setattr(symcache, "MIN_SECONDS", 0.0)
    symcache.cache_clear()


def test_second_call_comes_from_memo_then_from_disk_in_a_new_process(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    x = sp.Symbol("x", real=True)
    op, calls = _counting(sp.integrate)
    expr = sp.exp(-sp.Abs(x)) * x**2
    first = symcache.cached_op("integrate", op, expr, (x, -sp.oo, sp.oo))
    assert first == 4
    assert symcache.cached_op("integrate", op, expr, (x, -sp.oo, sp.oo)) == 4
    assert len(calls) == 1
    symcache.cache_clear()  # as a new worker would start: only the disk entry is left
    again = symcache.cached_op("integrate", op, expr, (x, -sp.oo, sp.oo))
    assert len(calls) == 1 and same_tree(again, first)
    assert list((tmp_path / "sympy").rglob("*.json"))


def test_key_holds_assumptions_float_precision_and_keywords(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    xp, xr = sp.Symbol("x", positive=True), sp.Symbol("x", real=True)
    assert symcache.simplify(sp.sqrt(xp**2)) == xp
    assert symcache.simplify(sp.sqrt(xr**2)) == sp.Abs(xr)  # same text, other assumptions: another entry
    a = symcache.simplify(sp.Float("0.1", 15) * xp)
    b = symcache.simplify(sp.Float("0.1", 40) * xp)
    assert a.args[0]._prec != b.args[0]._prec
    y = sp.Symbol("y")
    op, calls = _counting(sp.solve)
    symcache.cached_op("solve", op, y**2 - 4, y)
    symcache.cached_op("solve", op, y**2 - 4, y, dict=True)
    assert len(calls) == 2


def test_returned_lists_are_copies(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    y = sp.Symbol("y")
    roots = symcache.solve(y**2 - 4, y)
    roots.append(99)
    assert symcache.solve(y**2 - 4, y) == [-2, 2]


def test_dummies_are_not_cached_and_no_cache_computes(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    d = sp.Dummy("d")
    op, calls = _counting(sp.simplify)
    symcache.cached_op("simplify", op, sp.sin(d) ** 2 + sp.cos(d) ** 2)
    symcache.cached_op("simplify", op, sp.sin(d) ** 2 + sp.cos(d) ** 2)
    assert len(calls) == 2
    x = sp.Symbol("x")
    store.set_enabled(False)
    try:
        symcache.cached_op("simplify", op, sp.sin(x) ** 2 + sp.cos(x) ** 2)
        symcache.cached_op("simplify", op, sp.sin(x) ** 2 + sp.cos(x) ** 2)
    finally:
        store.set_enabled(True)
    assert len(calls) == 4
    assert not (tmp_path / "sympy").exists()


def test_fast_results_are_not_written(tmp_path, monkeypatch):
    _fresh(tmp_path, monkeypatch)
    monkeypatch.setattr(symcache, "MIN_SECONDS", 3600.0)
    x = sp.Symbol("x")
    symcache.simplify(sp.sin(x) ** 2 + sp.cos(x) ** 2)
    assert not (tmp_path / "sympy").exists()


def test_damaged_entry_is_reported_and_recomputed(tmp_path, monkeypatch, capsys):
    _fresh(tmp_path, monkeypatch)
    x = sp.Symbol("x", positive=True)
    symcache.simplify(sp.log(x**2) - 2 * sp.log(x))
    (path,) = (tmp_path / "sympy").rglob("*.json")
    doc = json.loads(path.read_text())
    doc["value"] = {"sympy": {"sym": "z", "assumptions": {}}}  # an edited value: the checksum no longer matches
    path.write_text(json.dumps(doc))
    symcache.cache_clear()
    op, calls = _counting(sp.simplify)
    assert symcache.cached_op("simplify", op, sp.log(x**2) - 2 * sp.log(x)) == 0
    assert len(calls) == 1
    assert "discarded cache entry" in capsys.readouterr().err
