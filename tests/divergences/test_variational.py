"""Tests of :mod:`cbdp_sym.divergences.variational`."""
import sympy as sp

from cbdp_sym import KL, Laplace
from cbdp_sym.calculus import maximize
from cbdp_sym.divergences import lin_objective
from cbdp_sym.core.symbols import a, b, eps
from cbdp_sym.core.tape import recording
from cbdp_sym.divergences.variational import eliminate_intercept


def test_theorem9_stationarity_equation_is_produced():
    P, Q = Laplace(0, 1 / eps), Laplace(1, 1 / eps)
    samples = [{eps: sp.Rational(k)} for k in ("1/10", "1", "10")]
    with recording() as tape:
        J, (lo, hi) = lin_objective(KL, P, Q)
        _b, Ja = eliminate_intercept(J, b, samples)
        Ja = sp.simplify(sp.expand_log(Ja, force=True))
        astar, value = maximize(Ja, a, lo, hi, samples=samples)
    assert (lo, hi) == (-eps, eps)
    assert sp.simplify(Ja - (sp.log(1 - a**2 / eps**2) - a)) == 0
    equations = [st.lhs for st in tape if st.rel == "=" and st.rhs == 0]
    assert any(sp.expand(e - (a**2 - 2 * a - eps**2)) == 0 for e in equations)
    assert sp.simplify(astar - (1 - sp.sqrt(1 + eps**2))) == 0
    rejected = [st.rhs for st in tape if st.rel == r"\ne"]
    assert any(sp.simplify(r - (1 + sp.sqrt(1 + eps**2))) == 0 for r in rejected)
