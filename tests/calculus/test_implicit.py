"""Tests of :mod:`cbdp_sym.calculus.implicit`."""

import mpmath as mp
import sympy as sp

from cbdp_sym import Implicit, profile_mp, profile_sym
from cbdp_sym.laws.distributions import Normal
from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences.profiles import EPS, eps_for_delta

b, v, sg = sp.symbols("b v sigma", positive=True)


def test_implicit_root_evaluates_at_a_point():
    d = sp.Symbol("delta", positive=True)
    r = Implicit.root(sp.log(profile_sym(Normal(0, sg), Normal(1, sg))) - sp.log(d), EPS, (0, 100))
    with mp.workdps(40):
        val = mp.mpf(r.subs({sg: 2, d: sp.Rational(1, 1000)}).evalf(40)._to_mpmath(mp.mp.prec))
        want = eps_for_delta(lambda e: profile_mp(Normal(0, 2), Normal(1, 2), e), mp.mpf(1) / 1000)
        assert digits(val, want) > 30
    assert r"\operatorname{root}" in sp.latex(r)
