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


# -- issue 33: a cached tree is never compiled into code ---------------------------------------------------------
def test_conjugate_derivatives_are_lambdifys_values_without_exec():
    """conj_triple_mp evaluates the derived conjugate through core/safeeval (bit for bit what lambdify gave)."""
    import mpmath as mp

    from cbdp_sym.divergences.fdiv import conj_triple_mp
    from cbdp_sym.divergences.generators import ALPHA_DIV, S

    triple = conj_triple_mp(ALPHA_DIV)
    r = sp.Symbol("r", positive=True)
    c = ALPHA_DIV.conjugate()
    base = c.expr.subs(S, r)
    with mp.workdps(40):
        got = triple(mp.mpf("0.7"), mp.mpf(3))
        want = sp.lambdify((r,) + tuple(ALPHA_DIV.params),
                           [sp.diff(sp.powsimp(sp.simplify(base), force=True), r, k) for k in range(3)],
                           modules="mpmath")(mp.mpf("0.7"), mp.mpf(3))
    assert all(abs(g - w) <= mp.mpf(10) ** -35 * abs(w) for g, w in zip(got, want))


def test_a_conjugate_naming_code_is_never_run(tmp_path, monkeypatch):
    """Before: a forged cache entry's conjugate, compiled with lambdify, ran a shell command (``CBDP-T3``)."""
    from cbdp_sym.core.errors import DerivationError
    from cbdp_sym.divergences.fdiv import conj_triple_mp
    from cbdp_sym.divergences.generators import S, Conjugate, Generator

    marker = tmp_path / "PWNED"
    evil = sp.Symbol(f"__import__('os').system('touch {marker}')")
    gen = Generator("evil", "evil", T := sp.Symbol("t"))  # noqa: F841
    monkeypatch.setattr(gen, "conjugate", lambda: Conjugate(sp.exp(S) + evil, -sp.oo, sp.oo, ()))
    try:
        triple = conj_triple_mp(gen)
        if triple is not None:
            triple(sp.Float(1), )
    except (DerivationError, TypeError, NameError, SyntaxError):
        pass
    assert not marker.exists()
