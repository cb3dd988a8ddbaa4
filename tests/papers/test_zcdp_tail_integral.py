"""Lemma B.2's Gaussian integral (derivations/zcdp/_concentrated.py, :func:`tail_integral`) derived through its
completed square: the substitution ``u = z - h`` leaves a centred Gaussian over a half-line (SymPy's erfc rule, a
fraction of a second; integrating the expanded exponent went to the Risch-Norman heuristic, 4 s)."""
import mpmath as mp
import sympy as sp

from cbdp_sym.app.registry import builtin_module
from cbdp_sym.calculus import digits
from cbdp_sym.core.tape import recording

_zc = builtin_module("zcdp", "_shared")


def test_tail_integral_goes_through_the_completed_square_and_matches_the_quadrature():
    xi, rho, e = sp.Symbol("xi", real=True), sp.Symbol("rho", positive=True), sp.Symbol("epsilon", positive=True)
    with recording() as tape:
        val = _zc.tail_integral(xi, rho, e)
    assert any("the completed square" in s.note for s in tape)
    assert val.has(sp.erfc) and not val.has(sp.erf)
    for x0, r, ev in ((sp.Rational(1, 3), sp.Integer(2), sp.Integer(5)), (sp.Integer(-1), sp.Rational(1, 10), sp.Integer(1))):
        with mp.workdps(30):
            f = lambda z: mp.exp((ev - z) - (z - mp.mpf(x0) - mp.mpf(r)) ** 2 / (4 * mp.mpf(r)))  # noqa: E731
            num = mp.quad(f, [mp.mpf(ev), mp.mpf(ev) + 20, mp.inf])
            assert digits(sp.N(val.subs({xi: x0, rho: r, e: ev}), 30), num) > 25
