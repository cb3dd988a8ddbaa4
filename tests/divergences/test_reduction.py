"""Tests of :mod:`cbdp_sym.divergences.reduction`: the shape of a derived conjugate and the variable it eliminates.

The expected constants are worked out by hand below from the generators' definitions, not read from the module.
"""
import dataclasses

import pytest
import sympy as sp

import cbdp_sym.divergences.reduction as red
from cbdp_sym.core.errors import DerivationError
from cbdp_sym.core.tape import recording
from cbdp_sym.divergences.generators import ALPHA_DIV, KL, TV
from cbdp_sym.divergences.reduction import M_, Z_, Structure, conjugate_structure, profile


def test_kl_is_exponential_and_the_best_constant_gives_minus_log_z():
    st = conjugate_structure(KL)
    assert st.kind == "exp" and sp.simplify(st.C - sp.exp(-1)) == 0  # f*(s) = e^(s - 1)
    pr = profile(st)
    # sup_b b - e^(b-1) Z: 1 = e^(b-1) Z, b* = 1 - log Z, value b* - 1 = -log Z
    assert sp.simplify(pr.value_of_z + sp.log(Z_)) == 0
    assert sp.simplify(pr.intercept_of_z - (1 - sp.log(Z_))) == 0


def test_alpha_divergence_of_order_three_is_a_power():
    st = conjugate_structure(ALPHA_DIV, {"alpha": 3})
    # f(t) = (|t|^3 - 1)/6: t* = sign(s) sqrt(2|s|), f*(s) = (2 sqrt 2 / 3) |s|^(3/2) + 1/6
    assert st.kind == "power" and st.A == sp.Rational(3, 2)
    assert sp.simplify(st.C - 2 * sp.sqrt(2) / 3) == 0 and st.K == sp.Rational(1, 6)
    pr = profile(st)
    # sup_lam lam - C lam^(3/2) M - 1/6: lam* = 1/(2 M^2), value (1 - M^2)/(6 M^2), Renyi -log M
    assert sp.simplify(pr.scale_of_m - 1 / (2 * M_**2)) == 0
    assert sp.simplify(pr.value_of_m - (1 - M_**2) / (6 * M_**2)) == 0
    assert sp.simplify(pr.renyi_of_m + sp.log(M_)) == 0


def test_tv_is_bounded_and_a_general_shape_has_no_profile():
    st = conjugate_structure(TV)
    assert st.kind == "bounded" and (st.lo, st.hi) == (-sp.Rational(1, 2), sp.Rational(1, 2))
    with pytest.raises(DerivationError, match="no profile for a conjugate of kind 'general'"):
        profile(Structure("general"))


# -- the profile at a numeric order: the symbolic-order profile specialised ----------------------------------------
# It must be the very tree the direct derivation at the number gives (and the same tape), and what the solver gets:
# no SymPy simplification per order.

# integer orders (a factored form) and rationals of 2-4 significant digits (an expanded form), as a figure's grid,
# a golden-section search and a failure region's trial points produce them
ORDERS = ["2", "3", "1000", "11/10", "5/4", "3/2", "7/2", "18", "123/10", "1001/1000", "432/125", "679/554",
          "1789/100", "3123/1000", "617/500", "311/20"]


def _steps(tape):
    return [(s.lhs, s.rhs, s.note, s.rel) for s in tape.steps]


@pytest.mark.parametrize("order", ORDERS)
def test_specialised_profile_is_the_direct_derivation(order):
    st = red.conjugate_structure(ALPHA_DIV, {"alpha": sp.Rational(order)})
    assert st.family is not None
    with recording() as fast_tape:
        fast = red.profile(st)
    with recording() as slow_tape:
        slow = red.profile(dataclasses.replace(st, family=None))  # no family: the direct derivation
    assert fast == slow
    assert _steps(fast_tape) == _steps(slow_tape)


def test_numeric_order_needs_no_simplification(monkeypatch):
    """Fails where the profile is simplified again at every order (0.05-0.5 s of SymPy each)."""
    red._symbolic_profile(ALPHA_DIV)  # (derived once per process: the parent of the workers does it)
    st = red.conjugate_structure(ALPHA_DIV, {"alpha": sp.Rational(2207, 1000)})
    calls = []
    monkeypatch.setattr(red, "simplify", lambda e, **k: calls.append(e) or sp.simplify(e, **k))
    pr = red.profile(st)
    assert calls == []
    a = sp.Rational(2207, 1000)
    # the definition: sup_lam lam - C lam^A M - K at alpha = 2207/1000, against the profile
    lam, M = sp.Rational(3, 7), sp.Rational(2, 3)
    C, A, K = st.C, st.A, st.K
    psi = lambda x: x - C * x**A * M - K  # noqa: E731
    best = psi(pr.scale_of_m.subs(red.M_, M))
    assert abs(sp.N(best - pr.value_of_m.subs(red.M_, M), 40)) < 1e-35
    assert sp.N(best - psi(lam), 30) >= 0  # the scale found is at least as good as another
    assert st.alpha == a


def test_the_fast_path_stays_off_where_it_does_not_apply():
    # the order left symbolic: no family, the direct derivation
    st = red.conjugate_structure(ALPHA_DIV)
    assert st.family is None and red._specialised(st) is None
    # a structure whose constants are not the family's at that order
    st = red.conjugate_structure(ALPHA_DIV, {"alpha": 3})
    wrong = dataclasses.replace(st, K=st.K + 1)
    assert red._specialised(wrong) is None
