"""Tests of :mod:`cbdp_sym.calculus.implicit`."""

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus import Implicit
from cbdp_sym.conversions import profile_mp, profile_sym
from cbdp_sym.laws.distributions import Normal
from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences.profiles import EPS, eps_for_delta

b, v, sg = sp.symbols("b v sigma", positive=True)


def test_implicit_root_evaluates_at_a_point():
    d = sp.Symbol("delta", positive=True)
    r = Implicit.root(sp.log(profile_sym(Normal(0, sg), Normal(1, sg))[0]) - sp.log(d), EPS, (0, 100))
    with mp.workdps(40):
        val = mp.mpf(r.subs({sg: 2, d: sp.Rational(1, 1000)}).evalf(40)._to_mpmath(mp.mp.prec))
        want = eps_for_delta(lambda e: profile_mp(Normal(0, 2), Normal(1, 2), e), mp.mpf(1) / 1000)
        assert digits(val, want) > 30
    assert r"\operatorname{root}" in sp.latex(r)


def test_root_bracketed_skips_the_midpoints_like_lo_vouches_for_and_finds_the_same_bits():
    import mpmath as mp

    from cbdp_sym.calculus.implicit import root_bracketed

    calls = []

    def fn(x):  # decreasing through 0.47, -inf from 0.48 on (as the log of a profile that vanishes)
        calls.append(x)
        return mp.log(mp.mpf("0.47")) - mp.log(x) if x < mp.mpf("0.48") else -mp.inf

    with mp.workdps(40):
        plain = root_bracketed(fn, 0, 1)
        n_plain, calls[:] = len(calls), []
        helped = root_bracketed(fn, 0, 1, like_lo=lambda x: x < mp.mpf("0.46"))  # fn(x) > 0, finite there
        assert helped._mpf_ == plain._mpf_ and len(calls) == n_plain - 3  # 0.25, 0.375, 0.4375 not computed
        assert abs(plain - mp.mpf("0.47")) < mp.mpf(10) ** -38
