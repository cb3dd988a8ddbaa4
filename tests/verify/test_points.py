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
