"""Ball arithmetic (cbdp_sym.calculus.certify): the one SymPy -> Arb evaluator and the certificates built on it."""
import flint
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.calculus.certify import (NotCertifiable, arb_closed, arb_function, arb_value, certify_different, certify_less)

x, e = sp.Symbol("x", positive=True), sp.Symbol("epsilon", positive=True)


@pytest.mark.parametrize("expr,value", [  # values as functions: computed at the test's precision
    (sp.Rational(1, 3), lambda: mp.mpf(1) / 3), (sp.exp(1) - sp.pi, lambda: mp.e - mp.pi),
    (sp.erfc(10), lambda: mp.erfc(10)), (sp.gamma(sp.Rational(7, 2)), lambda: mp.gamma(mp.mpf(7) / 2)),
    (sp.Max(sp.log(2), sp.Rational(7, 10)), lambda: mp.mpf(7) / 10), (sp.sqrt(2) ** -1, lambda: 1 / mp.sqrt(2)),
])
def test_balls_contain_the_value(expr, value):
    with mp.workdps(40):
        value = value()
        ball = arb_closed(expr, bits=200)
        assert ball.rad() < 1e-40
        assert abs(mp.mpf(ball.str(45, radius=False)) - value) < mp.mpf(10) ** -35


def test_one_evaluator_with_a_bound_variable():
    f = arb_function(x ** sp.Rational(1, 2) * sp.exp(-x) + sp.Abs(x - 2), x)
    assert f(flint.arb(0)).contains(flint.arb(2))  # 0^(1/2) = 0: no log of 0
    assert f(flint.arb(4)).contains(2 * flint.arb(-4).exp() + 2)
    with pytest.raises(NotCertifiable):
        arb_function(x + e, x)
    with pytest.raises(NotCertifiable):
        arb_closed(sp.Function("g")(sp.Integer(1)))


def test_certificates_separate_only_what_differs():
    pt, syms = {"eps": sp.Integer(1)}, {"eps": e}
    assert certify_different(e - 1 + sp.exp(-e), e**2 / 4, pt, syms) is not None
    assert certify_different(sp.exp(-e), 1 / sp.exp(e), pt, syms) is None  # equal: never "certified different"
    assert certify_less(e**2 / 4, e - 1 + sp.exp(-e), pt, syms) is not None
    assert certify_less(e - 1 + sp.exp(-e), e**2 / 4, pt, syms) is None
    assert "free symbols" in pytest.raises(NotCertifiable, arb_value, e + x, pt, syms).value.args[0]


def test_arb_eval_binds_enclosures_and_exact_rationals():
    from fractions import Fraction

    import sympy as sp

    from cbdp_sym.certify import NotCertifiable, arb_closed, arb_eval

    u, r = sp.symbols("u r")
    enc = arb_closed(sp.Rational(9, 4))
    ball = arb_eval(8 * sp.sqrt(u) - r, {u: enc, r: Fraction(1, 3)})
    assert ball.contains(arb_closed(12 - sp.Rational(1, 3)))
    assert not ball.contains(arb_closed(12 - sp.Rational(1, 3) + sp.Rational(1, 10**60)))  # tight at 400 bits
    with pytest.raises(NotCertifiable):
        arb_eval(u + r, {u: enc})  # r unbound
