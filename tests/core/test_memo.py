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
