"""Tests of :mod:`cbdp_sym.divergences.kinked`."""

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import Generator, f_divergence
from cbdp_sym.conversions import hockey_stick_generator
from cbdp_sym.laws.distributions import Laplace
from cbdp_sym.divergences.generators import T
from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences.numeric import quad_split
from cbdp_sym.divergences.profiles import value_with_digits
from cbdp_sym.core.tape import recording

b, v, sg = sp.symbols("b v sigma", positive=True)


def _quad_definition(f_mp, P, Q, kinks_t):
    """E_Q[f(p/q)] by quadrature split at the densities' kinks and at the crossings p/q = t_k, found here by
    bisection on the log-ratio (independent of the derivation)."""
    L = lambda x: P.mp_log_pdf(x) - Q.mp_log_pdf(x)  # noqa: E731
    pts = sorted(set(list(P.mp_breaks()) + list(Q.mp_breaks()) + [mp.mpf(-60), mp.mpf(60)]))
    cuts = []
    for tk in kinks_t:
        lk = mp.log(tk)
        for a, c in zip(pts[:-1], pts[1:]):
            if (L(a) - lk) * (L(c) - lk) < 0:
                cuts.append(mp.findroot(lambda x: L(x) - lk, (a, c), solver="bisect"))
    return quad_split(lambda x: mp.exp(Q.mp_log_pdf(x)) * f_mp(mp.exp(L(x))), pts + cuts)


@pytest.mark.parametrize("f, kinks", [
    (sp.Max(T - sp.Rational(3, 2), 0), [mp.mpf(3) / 2]),                    # hockey-stick, gamma = 3/2
    (sp.Abs(T - sp.Rational(3, 2)) / 2, [mp.mpf(3) / 2]),                    # a kink away from t = 1
    (sp.Heaviside(T - sp.Rational(5, 4)) * (T - 1), [mp.mpf(5) / 4]),         # an indicator
    (sp.Piecewise((1 - T, T < 1), (3 * (T - 1), True)), [mp.mpf(1)]),        # two slopes
])
def test_kinked_generator_derived_and_checked_against_quadrature(f, kinks):
    P, Q = Laplace(0, 3), Laplace(2, 3)  # an instance no paper printed
    gen = Generator("k", "k", f)
    with recording() as tape:
        value, _ = f_divergence(gen, P, Q)
    assert len(tape) >= 4
    fn = sp.lambdify(T, f, modules="mpmath")
    with mp.workdps(40):
        want = _quad_definition(lambda t: fn(t), P, Q, kinks)
        got = value_with_digits(value, {}, 40)[0]
        assert digits(got, want) > 30


def test_hockey_stick_laplace_is_a_case_split_on_the_parameters():
    e = sp.Symbol("epsilon", nonnegative=True)
    with recording() as tape:
        value, _ = f_divergence(hockey_stick_generator(e), Laplace(0, b), Laplace(v, b))
    assert isinstance(value, sp.Piecewise)
    assert any("two cases" in st.note for st in tape)
    inside = value.subs({b: 3, v: 2, e: sp.Rational(1, 4)})
    assert sp.simplify(inside - (1 - sp.exp((sp.Rational(1, 4) - sp.Rational(2, 3)) / 2))) == 0
    assert value.subs({b: 3, v: 2, e: 1}) == 0  # eps >= v/b: the profile vanishes
