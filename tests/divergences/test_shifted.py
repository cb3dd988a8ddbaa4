"""Tests of :mod:`cbdp_sym.divergences.shifted`."""

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import ALPHA_DIV, Laplace, Normal, alpha_generator
from cbdp_sym.divergences.generators import T
from cbdp_sym.restricted.linpower import abs_moment_mp, alpha_div_mp, shift_laws
from cbdp_sym.core.numbers import digits, to_mpf
from cbdp_sym.divergences.numeric import fdiv_mp
from cbdp_sym.divergences.shifted import I_, abs_moment, alpha_div_shift_product, renyi_shift_sum
from cbdp_sym.core.symbols import alpha, eps, sigma

d = sp.Symbol("d", integer=True, positive=True)
v = sp.IndexedBase("v", real=True)

# in the pytest-xdist worker of tests/papers/test_cbdp_renyi.py (moved from there): the derivations they share
# (cached in the process) are done once
pytestmark = pytest.mark.xdist_group("cbdp_renyi")


def _at(expr, dval, vals, sub):
    e = expr.subs(sub).subs(d, dval).doit()
    e = e.subs({v[k + 1]: x for k, x in enumerate(vals)})
    return to_mpf(e)


def test_gaussian_renyi_sum_is_alpha_norm2_over_2sigma2():
    g = renyi_shift_sum(lambda w: (Normal(0, sigma), Normal(w, sigma)), v, d, alpha)
    assert sp.simplify(g.function - alpha * v[I_] ** 2 / (2 * sigma**2)) == 0


@pytest.mark.slow
def test_alpha_divergence_product_matches_fubini_quadrature():
    expr = alpha_div_shift_product(lambda w: (Laplace(0, 1 / eps), Laplace(w, 1 / eps)), v, d, alpha, ALPHA_DIV.f, T)
    vals = (sp.Rational(3, 2), -1)
    with mp.workdps(40):
        derived = _at(expr, 2, vals, {eps: sp.Rational(1, 2), alpha: sp.Rational(5, 2)})
        P, Q = shift_laws("lap", 2, vals)
        num = alpha_div_mp(P, Q, sp.Rational(5, 2))
        # one coordinate: the engine's f-divergence quadrature of the printed generator itself
        one = _at(expr, 1, (vals[0],), {eps: sp.Rational(1, 2), alpha: sp.Rational(5, 2)})
        ref = fdiv_mp(alpha_generator(sp.Rational(5, 2)), Laplace(0, 2), Laplace(sp.Rational(3, 2), 2))
    assert digits(derived, num) > 30
    assert digits(one, ref) > 30


def test_absolute_moments_are_gamma_functions():
    g = sp.Rational(3, 2)
    with mp.workdps(30):
        lap = to_mpf(abs_moment(Laplace(0, sp.Rational(1, 3)), g))
        gau = to_mpf(abs_moment(Normal(0, 2), g))
        assert digits(lap, abs_moment_mp(Laplace(0, sp.Rational(1, 3)), g)) > 25
        assert digits(gau, abs_moment_mp(Normal(0, 2), g)) > 25
    assert sp.simplify(abs_moment(Laplace(0, 1 / eps), alpha / (alpha - 1)) - sp.gamma(alpha / (alpha - 1) + 1)
                       / eps ** (alpha / (alpha - 1))) == 0
