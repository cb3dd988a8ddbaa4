import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import KL, Laplace, Normal, f_divergence, fdiv_mp, lin_objective, maximize
from cbdp_sym.restricted.solver import restricted
from cbdp_sym.calculus.symbolic import decide_positive, find_kinks, integrate_split, order_points
from cbdp_sym.laws.distributions import X
from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.symbols import a, b, eps
from cbdp_sym.core.tape import recording
from cbdp_sym.divergences.variational import eliminate_intercept


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


@pytest.mark.slow
def test_unprinted_instance_shift_2_scale_3():
    """Laplace laws with shift 2 and scale 3 (no paper prints this): derived vs numeric."""
    P, Q = Laplace(0, 3), Laplace(2, 3)
    kl, _ = f_divergence(KL, P, Q)
    J, (lo, hi) = lin_objective(KL, P, Q)
    _b, Ja = eliminate_intercept(J, b)
    _a, lin = maximize(sp.simplify(sp.expand_log(Ja, force=True)), a, lo, hi)
    with mp.workdps(50):
        assert abs(fdiv_mp(KL, P, Q) - mp.mpf(str(sp.N(kl, 60)))) < mp.mpf(10) ** -45
        opt = restricted("kl", "lin", P, Q)
        assert abs(opt.value - mp.mpf(str(sp.N(lin, 60)))) < mp.mpf(10) ** -40
        assert opt.negative_definite and opt.gradient_norm < mp.mpf(10) ** -28 and opt.converged
        assert opt.second_method_digits > 15


def test_gaussian_linear_kl_solver_recovers_theorem10_to_30_digits():
    P, Q = Normal(sp.Rational(1, 2), 3), Normal(-2, sp.Rational(7, 2))
    with mp.workdps(40):
        v = restricted("kl", "lin", P, Q, second=False).value
        exact = (sp.Rational(1, 2) + 2) ** 2 / (2 * sp.Rational(7, 2) ** 2)
        assert abs(v - mp.mpf(exact.p) / exact.q) < mp.mpf(10) ** -30


def test_decide_positive_says_how():
    ok, how = decide_positive(sp.sqrt(1 + eps**2) + 1 - eps)
    assert ok is True and how
    ok, how = decide_positive(sp.Symbol("z", real=True) ** 3 + 2, samples=[{sp.Symbol("z", real=True): 1}])
    assert ok is True and "checked at 1" in how
