"""Tests of :mod:`cbdp_sym.verify.points`: a claim's sides evaluated at exact points, and the search coordinates."""
import math

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.errors import CbdpError
from cbdp_sym.divergences.fdiv import Expect
from cbdp_sym.laws.distributions import X, Normal
from cbdp_sym.verify.claims import Claim, Param
from cbdp_sym.verify.points import _from_search, _to_search, evaluate, parse_exact

eps = sp.Symbol("epsilon", positive=True)
p = sp.Symbol("p", positive=True)
HALF = sp.Rational(1, 2)


def _claim(laws=None):
    return Claim(id="T-PTS", paper="t", label="t", kind="identity", statement="", laws=laws,
                 params=[Param.positive("eps", eps), Param.unit("p", p)], points=[{"eps": "1", "p": "1/2"}],
                 derive=lambda: eps, claimed=lambda: eps, numeric=lambda v: mp.mpf(1))


def test_a_closed_form_at_an_exact_point_to_the_working_precision():
    with mp.workdps(40):
        v = evaluate(sp.exp(-eps) + sp.log(1 - p), {"eps": sp.Integer(2), "p": sp.Rational(1, 3)}, _claim())
        want = mp.exp(-2) + mp.log(mp.mpf(2) / 3)
        assert abs(v - want) < mp.mpf(10) ** -38 * abs(want)
        # cancellation: 1 - cos(eps) at eps = 10^-20 needs more digits than the working precision to get 40
        tiny = evaluate(1 - sp.cos(eps), {"eps": sp.Rational(1, 10**20), "p": HALF}, _claim())
        assert abs(tiny - mp.mpf(10) ** -40 / 2) < mp.mpf(10) ** -75


def test_expectations_need_the_claims_laws():
    body = Expect(sp.Symbol("P"), X**2)
    with pytest.raises(CbdpError, match="T-PTS: an expectation needs an instance of the laws"):
        evaluate(body, {"eps": sp.Integer(1), "p": HALF}, _claim())
    claim = _claim(laws=lambda pt: {"P": Normal(0, pt["eps"])})
    with mp.workdps(30):
        assert abs(evaluate(body, {"eps": sp.Integer(3), "p": HALF}, claim) - 9) < mp.mpf(10) ** -25


def test_free_symbols_left_after_substitution_are_an_error():
    with pytest.raises(CbdpError, match=r"T-PTS: free symbols \['sigma'\]"):
        evaluate(eps + sp.Symbol("sigma"), {"eps": sp.Integer(1), "p": HALF}, _claim())


@pytest.mark.parametrize("make,x,y", [(Param.positive, "4", math.log(4)), (Param.unit, "0.75", math.log(3)),
                                      (Param.greater_than_one, "3", math.log(2)), (Param.real, "-2.5", -2.5)])
def test_search_coordinates_are_unconstrained_and_invertible(make, x, y):
    par = make("q", sp.Symbol("q", real=True))
    assert _to_search(par, x) == pytest.approx(y)
    assert _from_search(par, _to_search(par, x)) == pytest.approx(float(x))


def test_parse_exact():
    assert parse_exact("7/2") == sp.Rational(7, 2) and parse_exact("0.25") == sp.Rational(1, 4)


# -- points with vectors: the compiled form, checked at two precisions, or the exact substitution ---------------
_d = sp.Symbol("d", integer=True, positive=True)
_v = sp.IndexedBase("v", real=True)
_i = sp.Symbol("i", integer=True, positive=True)
_al = sp.Symbol("alpha", positive=True)


def _vclaim():
    return Claim(id="T-VEC", paper="t", label="t", kind="upper", statement="",
                 params=[Param.positive_int("d", _d), Param.vector("v", _v, ("1",), length_of="d"),
                         Param.positive("eps", eps), Param.greater_than_one("alpha", _al, ("2",))],
                 claimed=lambda: eps, numeric=lambda v: mp.mpf(1))


def _vpt(eps_, al_, vec=(1,)):
    return {"d": sp.Integer(len(vec)), "v": sp.Tuple(*vec), "eps": sp.Rational(eps_), "alpha": sp.Rational(al_)}


def test_a_vector_point_is_the_correctly_rounded_value():
    # Theorem 13's printed shape at alpha = 1001/1000, eps = 1/1000: exact substitution builds eps^1001 and Gamma(1002)
    # under a rational power (about a minute); the compiled form takes milliseconds
    from cbdp_sym.divergences.shifted import Log1p
    from cbdp_sym.verify.points import _fast_vector_value

    A = _al / (_al - 1)
    expr = Log1p(sp.Sum(sp.Abs(_v[_i]) ** _al, (_i, 1, _d))
                 / (sp.Rational(1, 2) ** _d * sp.gamma(A + 1) / eps**A) ** (_al - 1)) / (_al - 1)
    c = _vclaim()
    for pt in (_vpt("1/1000", "1001/1000"), _vpt("1/10", "30"), _vpt("1/2", "7/2", (1, -2, sp.Rational(1, 3)))):
        with mp.workdps(160):  # the reference: the formula in mpmath with 100 more digits
            e_, a_ = mp.mpf(pt["eps"].p) / pt["eps"].q, mp.mpf(pt["alpha"].p) / pt["alpha"].q
            Am = a_ / (a_ - 1)
            norm = mp.fsum(abs(mp.mpf(x.p) / x.q) ** a_ for x in pt["v"])
            ref = mp.log1p(norm / (mp.mpf(2) ** -len(pt["v"]) * mp.gamma(Am + 1) / e_**Am) ** (a_ - 1)) / (a_ - 1)
        with mp.workdps(60):
            got = evaluate(expr, pt, c)
            assert _fast_vector_value(expr, pt, c.symbols(), {"v": pt["v"]}) == got  # the compiled form gave it
            assert got == +ref  # correctly rounded


def test_a_vector_point_the_compiled_form_cannot_resolve_is_substituted_exactly():
    # 1 - cos(eps) at eps = 10^-40 cancels all of 20 extra digits: the two precisions disagree, and the exact path
    # (evalf with adaptive precision) gives the value
    expr = (1 - sp.cos(eps)) * sp.Sum(_v[_i], (_i, 1, _d))
    pt = _vpt("1/10000000000000000000000000000000000000000", "2", (1, 1))
    from cbdp_sym.verify.points import _fast_vector_value

    with mp.workdps(50):
        assert _fast_vector_value(expr, pt, _vclaim().symbols(), {"v": pt["v"]}) is None
        got = evaluate(expr, pt, _vclaim())
        assert abs(got - mp.mpf(10) ** -80) < mp.mpf(10) ** -125
        # every digit cancelled at both precisions (0 twice): not trusted either
        tiny = _vpt("1/" + "1" + "0" * 70, "2", (1, 1))
        assert _fast_vector_value(expr, tiny, _vclaim().symbols(), {"v": tiny["v"]}) is None
        assert abs(evaluate(expr, tiny, _vclaim()) - mp.mpf(10) ** -140) < mp.mpf(10) ** -185


def test_a_piecewise_at_a_vector_point_is_substituted_exactly():
    expr = sp.Piecewise((eps, eps < 1), (2 * eps, True)) * sp.Sum(_v[_i] ** 2, (_i, 1, _d))
    with mp.workdps(30):
        assert evaluate(expr, _vpt("3", "2", (1, 2)), _vclaim()) == 30
        assert evaluate(expr, _vpt("1/2", "2", (1, 2)), _vclaim()) == mp.mpf(5) / 2
