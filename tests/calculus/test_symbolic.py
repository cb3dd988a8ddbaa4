import pytest
import sympy as sp

from cbdp_sym import Laplace
from cbdp_sym.calculus.symbolic import decide_positive, find_kinks, integrate_split, order_points
from cbdp_sym.laws.distributions import X
from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.symbols import a, eps


def test_kinks_are_found_and_ordered():
    v = sp.Symbol("v", positive=True)
    expr = sp.exp(-sp.Abs(X)) * sp.Abs(X - v)
    assert order_points(find_kinks(expr, X)) == [0, v]
    with pytest.raises(DerivationError):
        order_points([0, sp.Symbol("w", real=True)])


def test_integrate_split_records_convergence_conditions():
    value, conds = integrate_split(sp.exp(a * X) * Laplace(1, 1 / eps).pdf(), X)
    assert sp.simplify(value - eps**2 * sp.exp(a) / (eps**2 - a**2)) == 0
    assert set(conds) == {sp.Lt(a - eps, 0), sp.Gt(a + eps, 0)}


def test_decide_positive_says_how():
    ok, how = decide_positive(sp.sqrt(1 + eps**2) + 1 - eps)
    assert ok is True and how
    ok, how = decide_positive(sp.Symbol("z", real=True) ** 3 + 2, samples=[{sp.Symbol("z", real=True): 1}])
    assert ok is True and "checked at 1" in how


def test_gaussian_half_line_pieces_are_integrated_term_by_term():
    """The total variation of two Gaussians: each half-line piece q (p/q - 1) expanded into its two error functions
    (the piece left as a product took SymPy's heuristic Risch search 10 s a piece and gave a longer form)."""
    from cbdp_sym.divergences.fdiv import f_divergence
    from cbdp_sym.divergences.generators import TV
    from cbdp_sym.laws.distributions import Normal

    value, conds = f_divergence(TV, Normal(0, 1), Normal(1, 1))
    assert conds == [] and value == sp.erf(sp.sqrt(2) / 4)  # 2 Phi(1/2) - 1, in the form a reader expects


def test_a_numeric_gaussian_over_the_line_goes_by_the_antiderivative():
    """KL of N(1, 1) against N(0, 1) over the whole line, no parameter left: the antiderivative's exact 1/2 (SymPy's
    Meijer-G route took 3 s and returned 3/4 - erf(sqrt(2)/2)/4 - erfc(sqrt(2)/2)/4, which simplify left so)."""
    from cbdp_sym.divergences.fdiv import f_divergence
    from cbdp_sym.divergences.generators import KL
    from cbdp_sym.laws.distributions import Normal

    assert f_divergence(KL, Normal(1, 1), Normal(0, 1)) == (sp.Rational(1, 2), [])
