"""Tests of :mod:`cbdp_sym.restricted.lincert`."""
import sympy as sp

from cbdp_sym.calculus.certify import lin_renyi_lower
from cbdp_sym.laws.distributions import Laplace
from cbdp_sym.restricted.lincert import lin_renyi_certificate

x, e = sp.Symbol("x", positive=True), sp.Symbol("epsilon", positive=True)


def test_a_feasible_h_bounds_a_supremum_below():
    """lin_renyi_lower is a valid lower bound: below the solver's supremum, above a poor h's value."""
    P, Q = Laplace(0, 10), Laplace(1, 10)
    low = lin_renyi_lower(P, Q, 3, sp.Rational(1, 2), sp.Integer(1))
    assert low.upper() < 0.0074  # below the supremum (0.00739...), whatever h is
    hook = lin_renyi_certificate("lap", lambda pt: 1 / pt["eps"], lambda: e**3 / 10**6, {"eps": e, "alpha": x})
    assert hook({"eps": sp.Rational(1, 10), "alpha": sp.Integer(3)}).startswith("Arb:")
    assert hook({"eps": sp.Rational(1, 10), "alpha": sp.Integer(3), "v": sp.Tuple(1, 1)}) is None  # d > 1
