"""Tests of :mod:`cbdp_sym.verify.engine`."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import Claim, Param, Reading, audit_claim
from cbdp_sym.core.numbers import Estimate, to_mpf
from cbdp_sym.verify.engine import point_simplicity


def _identity(numeric, claimed):
    eps = sp.Symbol("epsilon", positive=True)
    return Claim(id="T-ID", paper="t", label="t", kind="identity", statement="", params=[Param.positive("eps", eps)],
                 points=[{"eps": "1"}, {"eps": "3"}], claimed=lambda: claimed(eps), numeric=numeric)


def test_an_identity_needs_the_digits_it_claims():
    """A numeric side that established 25 digits cannot verify an identity at 45: inconclusive, not verified."""
    c = _identity(lambda v: Estimate(mp.exp(-to_mpf(v["eps"])), 25), lambda e: sp.exp(-e))
    r = audit_claim(c, dps=50)
    assert r.status == "inconclusive" and "established only 25 digits" in r.message
    assert r.checks[0].as_json()["established_digits"] == 25
    full = audit_claim(_identity(lambda v: mp.exp(-to_mpf(v["eps"])), lambda e: sp.exp(-e)), dps=50)
    assert full.status == "verified"


def test_readings_split_make_a_claim_ambiguous():
    eps = sp.Symbol("epsilon", positive=True)
    base = dict(id="T-RD", paper="t", label="t", kind="identity", statement="e^{-2 eps}",
                params=[Param.positive("eps", eps)], points=[{"eps": "1"}, {"eps": "2"}],
                derive=lambda: sp.exp(-eps), numeric=lambda v: mp.exp(-to_mpf(v["eps"])))
    literal_wrong = Claim(**base, claimed=lambda: sp.exp(-2 * eps),
                          readings=(Reading("superscript restored", lambda: sp.exp(-eps), "e^{-eps}", "seed 002"),))
    r = audit_claim(literal_wrong, dps=30)
    assert r.status == "ambiguous" and r.error_kind == "reading"
    assert [d["status"] for d in r.readings] == ["refuted", "verified"]
    all_wrong = Claim(**base, claimed=lambda: sp.exp(-2 * eps),
                      readings=(Reading("other", lambda: sp.exp(-3 * eps)),))
    r2 = audit_claim(all_wrong, dps=30)
    assert r2.status == "refuted" and r2.error_kind == "result"


def test_the_headline_counterexample_is_the_simplest_certified_point():
    eps = sp.Symbol("epsilon", positive=True)
    c = Claim(id="T-UB", paper="t", label="t", kind="upper", statement="", params=[Param.positive("eps", eps)],
              sweep=[{"eps": "1/1000"}, {"eps": "1"}, {"eps": "1000"}],
              claimed=lambda: eps / 2, derive=lambda: eps, numeric=lambda v: to_mpf(v["eps"]))
    r = audit_claim(c, dps=30)
    assert r.status == "refuted"
    assert r.counterexample["params"] == {"eps": "1"} and r.counterexample["certified"]
    assert r.counterexample["worst"]["params"]["eps"] in ("1/1000", "1000") or "worst" not in r.counterexample
    assert point_simplicity({"eps": "1"}) < point_simplicity({"eps": "1000"})


def test_a_claim_over_a_finite_family_checks_every_member():
    n = sp.Symbol("n", positive=True, integer=True)
    c = Claim(id="T-FIN", paper="t", label="t", kind="upper", statement="", params=[Param.integer_range("n", n, 1, 100)],
              claimed=lambda: 2 ** n, derive=lambda: n ** 2, numeric=lambda v: to_mpf(v["n"]) ** 2)
    assert [int(p["n"]) for p in c.sweep_points()] == list(range(1, 101))
    r = audit_claim(c, dps=20)  # n^2 <= 2^n fails only at n = 3: a sample of the range would miss it
    assert r.status == "refuted" and r.counterexample["params"] == {"n": "3"}
    sampled = Claim(id="T-FIN2", paper="t", label="t", kind="upper", statement="",
                    params=[Param.integer_range("n", n, 1, 100)], sweep=[{"n": "1"}, {"n": "50"}],
                    claimed=lambda: 2 ** n, derive=lambda: n ** 2)
    with pytest.raises(ValueError, match="checked at every member"):
        sampled.sweep_points()


def test_symbolic_comparison_is_asked_once_and_a_timeout_is_not_remembered(monkeypatch):
    """The comparison derived - claimed = 0 is SymPy's answer for the two trees: a claim audited again (another
    precision, a claim that uses it, another test) reads it from the cache of SymPy operations; a timeout is no answer
    and is asked again."""
    import cbdp_sym.verify.engine as engine
    from cbdp_sym.core.errors import DerivationTimeout

    x = sp.Symbol("x_symbolic_once", positive=True)  # a tree no other test compares
    calls = []

    def timing_out(d, c):
        calls.append("timeout")
        raise DerivationTimeout("symbolic comparison: time limit")

    monkeypatch.setattr(engine, "_simplifies_to_zero", timing_out)
    assert engine.symbolic_difference(sp.log(x**3), 3 * sp.log(x)) is None
    monkeypatch.undo()
    real = engine._simplifies_to_zero

    def counted(d, c):
        calls.append("asked")
        return real(d, c)

    monkeypatch.setattr(engine, "_simplifies_to_zero", counted)
    assert engine.symbolic_difference(sp.log(x**3), 3 * sp.log(x)) is True
    assert engine.symbolic_difference(sp.log(x**3), 3 * sp.log(x)) is True
    assert calls == ["timeout", "asked"], calls
