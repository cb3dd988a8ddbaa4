"""Tests of :mod:`cbdp_sym.divergences.fdiv`: f-divergences and Rényi divergences derived from their definitions."""
import pytest
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.tape import recording
from cbdp_sym.divergences.fdiv import AbstractLaw, Expect, expect, f_divergence, renyi_divergence
from cbdp_sym.divergences.generators import KL, TV
from cbdp_sym.laws.distributions import X, Finite, Laplace, Normal

half, quarter = sp.Rational(1, 2), sp.Rational(1, 4)
P2 = Finite([0, 1], [half, half])
Q2 = Finite([0, 1], [quarter, 3 * quarter])


def test_kl_between_gaussians_at_an_unprinted_instance():
    with recording() as tape:
        value, _ = f_divergence(KL, Normal(0, 3), Normal(2, 3))
    assert sp.simplify(value - sp.Rational(2, 9)) == 0  # (mu1 - mu2)^2 / (2 sigma^2) = 4/18
    assert any("definition of the f-divergence" in s.note for s in tape)


def test_finite_laws_are_sums_over_the_supports():
    value, conds = f_divergence(KL, P2, Q2)
    want = half * sp.log(half / quarter) + half * sp.log(half / (3 * quarter))  # sum p log(p/q)
    assert conds == [] and sp.simplify(value - want) == 0
    # mass of P where Q has none: +oo for KL; f(t)/t -> 1/2 for TV, so TV of disjoint laws is 1
    assert f_divergence(KL, Finite([0, 1], [1, 0]), Finite([0, 1], [0, 1]))[0] == sp.oo
    assert f_divergence(TV, Finite([0, 1], [1, 0]), Finite([0, 1], [0, 1]))[0] == 1
    # a point where p = 0 < q contributes q f(0) = 0 for KL (0 log 0 = 0; before: NaN from 0 * zoo)
    assert sp.simplify(f_divergence(KL, Finite([0, 1], [1, 0]), P2)[0] - sp.log(2)) == 0


def test_renyi_divergence_of_finite_laws_and_products():
    value, _ = renyi_divergence(P2, Q2, 2)
    assert sp.simplify(value - sp.log(sp.Rational(4, 3))) == 0  # log sum p^2/q = log(1 + 1/3)
    b = sp.Symbol("b", positive=True)
    lap, _ = renyi_divergence(Laplace(0, b), Laplace(0, b), 3)
    assert sp.simplify(lap) == 0


@pytest.mark.parametrize("call,msg", [
    (lambda: renyi_divergence(P2, Q2, 1), "alpha > 1"),
    (lambda: renyi_divergence(P2, Normal(0, 1), 2), "same kind"),
    (lambda: renyi_divergence(Finite([0, 1], [half, half]), Finite([0, 1], [1, 0]), 2), "outside the support"),
])
def test_bad_input_is_a_parameter_error(call, msg):
    with pytest.raises(ParameterError, match=msg):
        call()


def test_expectations_symbolic_and_abstract():
    mu = sp.Symbol("mu", real=True)
    value, _ = expect(Normal(mu, 2), X**2)
    assert sp.simplify(value - (mu**2 + 4)) == 0  # E[X^2] = mean^2 + variance
    assert expect(P2, X)[0] == half
    a, b = sp.symbols("a b", real=True)
    lin, _ = AbstractLaw("P").expect(a * X + b)
    assert lin == a * Expect(sp.Symbol("P"), X) + b
    with pytest.raises(ParameterError, match="not a law"):
        expect("P", X)
