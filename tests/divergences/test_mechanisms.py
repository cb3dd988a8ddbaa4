"""Tests of :mod:`cbdp_sym.divergences.mechanisms`."""

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.laws.distributions import Laplace, Normal
from cbdp_sym.divergences.mechanisms import gaussian_mechanism, laplace_mechanism, randomized_response, renyi_curve, renyi_numeric
from cbdp_sym.core.symbols import alpha, lam, sigma
from cbdp_sym.core.tape import recording


p = sp.Symbol("p", positive=True)
mu = sp.Symbol("mu", real=True)


@pytest.mark.parametrize("P,Q,al,args", [
    (lambda: laplace_mechanism(3, 2), None, sp.Rational(7, 2), "laplace"),
    (lambda: randomized_response(sp.Rational(3, 7)), None, sp.Rational(7, 2), "rr"),
    (lambda: gaussian_mechanism(3, 2), None, sp.Rational(7, 2), "gauss"),
])
def test_unprinted_instances(P, Q, al, args):
    """Shift 2, scale 3, alpha = 7/2 (no paper prints these): the derived curve against the definition."""
    w, s_ = sp.Symbol("w", positive=True), sp.Symbol("s", positive=True)
    with recording():
        if args == "laplace":
            curve = renyi_curve(*laplace_mechanism(lam, w)).subs({lam: 3, w: 2})
        elif args == "rr":
            curve = renyi_curve(*randomized_response(p)).subs(p, sp.Rational(3, 7))
        else:
            curve = renyi_curve(*gaussian_mechanism(sigma, mu)).subs({sigma: 3, mu: 2})
    with mp.workdps(45):
        want = renyi_numeric(*P(), mp.mpf(7) / 2)
        got = mp.mpf(sp.N(curve.subs(alpha, al), 45)._to_mpmath(150))
        assert abs(got - want) <= mp.mpf(10) ** -40 * abs(want)


def test_renyi_numeric_near_one_and_large_alpha():
    """The branches of renyi_numeric: alpha = 1 + 1e-12 keeps the working precision; alpha = 1e6 does not overflow."""
    with mp.workdps(50):
        a = 1 + mp.mpf(10) ** -12
        for b in (mp.mpf(1), mp.mpf(20)):
            ref = mp.log(a / (2 * a - 1) * mp.exp((a - 1) / b) + (a - 1) / (2 * a - 1) * mp.exp(-a / b))
            with mp.workdps(120):
                ref = mp.log(a / (2 * a - 1) * mp.exp((a - 1) / b) + (a - 1) / (2 * a - 1) * mp.exp(-a / b)) / (a - 1)
            got = renyi_numeric(Laplace(0, b), Laplace(1, b), a)
            assert abs(got - ref) <= mp.mpf(10) ** -45 * ref
        big = renyi_numeric(Normal(0, 10), Normal(1, 10), mp.mpf(10) ** 6)
        assert abs(big - mp.mpf(5000)) <= mp.mpf(10) ** -40 * 5000
