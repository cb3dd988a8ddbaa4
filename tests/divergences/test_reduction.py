"""Tests of :mod:`cbdp_sym.divergences.reduction`: the shape of a derived conjugate and the variable it eliminates.

The expected constants are worked out by hand below from the generators' definitions, not read from the module.
"""
import pytest
import sympy as sp

from cbdp_sym.core.errors import DerivationError
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
