"""Tests of :mod:`cbdp_sym.divergences.shifted`."""

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import ALPHA_DIV, Laplace, Normal, alpha_generator
from cbdp_sym.divergences.generators import T
from cbdp_sym.restricted.linpower import abs_moment_mp, alpha_div_mp, shift_laws
from cbdp_sym.core.numbers import digits, to_mpf
from cbdp_sym.divergences.numeric import fdiv_mp
from cbdp_sym.divergences.shifted import (I_, abs_moment, alpha_div_shift_product, conjugate_constants, orthant_chain_bound,
                              power_sup, renyi_shift_sum)
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


def test_lemma5_derived_value_and_argmax():
    X = sp.Symbol("X", positive=True)
    arg, val = power_sup(X, alpha)
    assert sp.simplify(val - (alpha - 1) ** (alpha - 1) / (alpha**alpha * X ** (alpha - 1))) == 0
    assert sp.simplify(arg - (alpha - 1) ** (alpha - 1) / (alpha ** (alpha - 1) * X ** (alpha - 1))) == 0
    with mp.workdps(30):
        al, Xv = mp.mpf(7) / 2, mp.mpf(3)
        A = al / (al - 1)
        t = to_mpf(arg.subs({X: 3, alpha: sp.Rational(7, 2)}))
        f = lambda u: u - Xv * u**A  # noqa: E731
        assert abs(mp.diff(f, t)) < mp.mpf(10) ** -25
        assert f(t) > f(t * (1 + mp.mpf(10) ** -5)) and f(t) > f(t * (1 - mp.mpf(10) ** -5))


def test_conjugate_constants_read_from_the_derived_conjugate():
    A, C, K = conjugate_constants(alpha)
    assert sp.simplify(A - alpha / (alpha - 1)) == 0
    assert sp.simplify(K - 1 / (alpha**2 - alpha)) == 0
    with mp.workdps(30):
        s0 = mp.mpf("0.7")
        num = alpha_generator(sp.Rational(7, 2)).conjugate_sup_mp(s0)
        val = to_mpf(C.subs(alpha, sp.Rational(7, 2))) * s0 ** to_mpf(A.subs(alpha, sp.Rational(7, 2))) \
            + to_mpf(K.subs(alpha, sp.Rational(7, 2)))
    assert digits(num, val) > 25


def test_theorem13_chain_regenerates_printed_result_and_corrected_one():
    K = sp.Symbol("K", positive=True)
    norm = sp.Sum(sp.Abs(v[I_]) ** alpha, (I_, 1, d))
    tot, ren = orthant_chain_bound(alpha, K, d, v)
    printed = 2 ** (d * (alpha - 1)) * norm / ((alpha**2 - alpha) * K ** (alpha - 1))
    N = sp.Symbol("N", positive=True)
    assert sp.simplify((tot - printed).subs(norm, N)) == 0
    tot2, ren2 = orthant_chain_bound(alpha, K, d, v, b_weight=sp.Rational(1, 2) ** d)
    fixed = (2 ** (d * (alpha - 1)) * (norm / K ** (alpha - 1) + 1) - 1) / (alpha**2 - alpha)
    assert sp.simplify((tot2 - fixed).subs(norm, N)) == 0
