import mpmath as mp
import pytest

import cbdp_sym.core.store as store
from cbdp_sym.restricted.linpower import SolverFailure, exact_lin_renyi
from cbdp_sym.core.memo import memo_numeric


def _counted():
    calls = []

    def fn(x):
        calls.append(x)
        if x == "bad":
            raise SolverFailure("cannot certify bad")
        return {"v": [mp.mpf(x)]}

    return fn, calls


def test_memo_computes_once_and_returns_copies(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    fn, calls = _counted()
    g = memo_numeric(fn)
    first = g("1")
    first["v"].append(mp.mpf(9))  # a caller's edit must not reach the next caller
    assert g("1") == {"v": [mp.mpf(1)]}
    assert calls == ["1"]
    with mp.workdps(40):  # the precision is part of the key
        g("1")
    assert calls == ["1", "1"]


def test_memo_is_bypassed_without_cache_and_keyed_by_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "a"))
    fn, calls = _counted()
    g = memo_numeric(fn)
    g("2")
    store.set_enabled(False)
    try:
        g("2")
    finally:
        store.set_enabled(True)
    assert calls == ["2", "2"]
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "b"))
    g("2")
    assert calls == ["2", "2", "2"]


def test_memo_remembers_declared_failures_only(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    fn, calls = _counted()
    g = memo_numeric(fn, failures=(SolverFailure,))
    for _ in range(2):
        with pytest.raises(SolverFailure, match="cannot certify bad"):
            g("bad")
    assert calls == ["bad"]
    h = memo_numeric(fn)  # failures not declared: recomputed every time
    for _ in range(2):
        with pytest.raises(SolverFailure):
            h("bad")
    assert calls == ["bad", "bad", "bad"]


def test_memo_key_option_tells_apart_what_the_text_merges(tmp_path, monkeypatch):
    # a Float's text drops its precision: the default key takes two laws for one, an exact key does not
    import sympy as sp

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    a, b = sp.Float(1 / 3, 15), sp.Float("0.333333333333333", 15)
    assert str(a) == str(b) and a != b and mp.mpf(a) != mp.mpf(b)
    calls = []

    def fn(x):
        calls.append(x)
        return mp.mpf(x)

    by_text = memo_numeric(fn)
    assert by_text(a) == mp.mpf(a) and by_text(b) == mp.mpf(a)  # the second answer is the first's
    assert calls == [a]
    exact = memo_numeric(fn, key=lambda x: (x._mpf_, x._prec) if isinstance(x, sp.Float) else None)
    assert exact(a) == mp.mpf(a) and exact(b) == mp.mpf(b) and exact(a) == mp.mpf(a)
    assert calls == [a, a, b]
    exact("0.5")  # no key: computed every time
    exact("0.5")
    assert calls == [a, a, b, "0.5", "0.5"]
    with mp.workdps(40):  # the precision and the cache folder stay in the key
        exact(a)
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path / "other"))
    exact(a)
    assert calls == [a, a, b, "0.5", "0.5", a, a]


def test_memo_size_bound_and_values_without_copies(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    calls = []

    def fn(x):
        calls.append(x)
        return [x]

    g = memo_numeric(fn, max_size=2, deepcopy=False)
    assert g(1) is g(1)  # the remembered object itself
    g(2)
    assert calls == [1, 2]
    g(3)  # full: emptied, then 3 kept
    g(3)
    g(1)
    assert calls == [1, 2, 3, 1]
    h = memo_numeric(fn)
    assert h(5) is not h(5) and calls == [1, 2, 3, 1, 5]


def test_exact_value_is_shared_in_process(tmp_path, monkeypatch):
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    with mp.workdps(20):
        a = exact_lin_renyi("gau", 2, (1,), 2)  # alpha = 2: a quadratic, one Newton step
        files = sorted(tmp_path.rglob("*.json"))
        for f in files:  # the second request must not read the disk
            f.unlink()
        b = exact_lin_renyi("gau", 2, (1,), "2")
    assert files and a == b and not any(tmp_path.rglob("*.json"))


def test_exact_value_is_shared_by_callers_at_different_precisions(tmp_path, monkeypatch):
    # Theorem 13 asks at 60 digits and its proof chain at 40: both get the solver's 30-digit value (rounded to 25
    # digits) from one entry, each read at the caller's own precision
    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    with mp.workdps(60):
        a = exact_lin_renyi("gau", 2, (1,), 2)
    files = sorted(tmp_path.rglob("*.json"))
    for f in files:  # the second request must not compute (nor read the disk)
        f.unlink()
    with mp.workdps(40):
        b = exact_lin_renyi("gau", 2, (1,), 2)
        assert b == mp.mpf(mp.nstr(a, 25))
    assert files and not any(tmp_path.rglob("*.json"))
    with mp.workdps(60):
        assert exact_lin_renyi("gau", 2, (1,), 2) == a and a == mp.mpf(mp.nstr(a, 25))
