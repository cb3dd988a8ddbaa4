"""Tests of :mod:`cbdp_sym.restricted.linpower`."""

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym import Laplace
from cbdp_sym.restricted.linpower import abs_power_mean, orthant_power_mean, shift_laws
from cbdp_sym.core.numbers import digits
from cbdp_sym.restricted.linpower import exact_lin_renyi

d = sp.Symbol("d", integer=True, positive=True)
v = sp.IndexedBase("v", real=True)

# the tests moved from tests/papers/test_cbdp_renyi.py stay in its pytest-xdist worker (the derivations they share
# are cached in the process and done once there)
cbdp_renyi = pytest.mark.xdist_group("cbdp_renyi")


@cbdp_renyi
def test_objective_pieces_against_direct_quadrature():
    with mp.workdps(25):
        Q = Laplace(0, sp.Rational(1, 2))
        A = mp.mpf(3) / 2
        direct = mp.quad(lambda x: abs(2 * x - 1) ** A * Q.mp_pdf(x), [-mp.inf, 0, mp.mpf(1) / 2, mp.inf])
        assert digits(abs_power_mean(Q, [2], -1, A), direct) > 20
        half = mp.quad(lambda x: abs(2 * x + 1) ** A * Q.mp_pdf(x), [0, mp.inf])
        assert digits(orthant_power_mean(Q, [2], 1, A), half) > 20


@cbdp_renyi
@pytest.mark.slow
def test_laplace_sum_law_against_nested_quadrature():
    A = mp.mpf(3) / 2
    P2 = shift_laws("lap", 1, (0, 0))[0]
    with mp.workdps(10):
        q1, q2 = P2.components

        def inner(y):
            k = 2 * y - 1
            return mp.quad(lambda x: abs(x - k) ** A * q1.mp_pdf(x), sorted({-mp.inf, mp.mpf(0), k, mp.inf})) * q2.mp_pdf(y)

        nested = mp.quad(inner, [-mp.inf, 0, mp.mpf(1) / 2, mp.inf])
        assert digits(abs_power_mean(P2, [1, -2], 1, A), nested) > 7


@cbdp_renyi
def test_laplace_sum_laws_equal_and_distinct_scales_agree():
    # the law of a sum with equal |a_i| against distinct |a_i| at nearby slopes, and a mix of equal and distinct
    with mp.workdps(30):
        P3 = shift_laws("lap", 1, (0, 0, 0))[0]
        A = mp.mpf(5) / 2
        eq = abs_power_mean(P3, [1, 1, 1], mp.mpf(1) / 3, A)
        near = abs_power_mean(P3, [1, 1 + mp.mpf(10) ** -8, 1 - mp.mpf(10) ** -8], mp.mpf(1) / 3, A)
        # and the i.i.d. density integrates to 1 and has the right variance (3 coordinates, scale 1: 6)
        from cbdp_sym.restricted.products import SumLaw

        law = SumLaw.of_scales([1, 1, 1])
        pdf = lambda y: law.values(y)[0]  # noqa: E731
        mass = mp.quad(pdf, [-mp.inf, 0, mp.inf])
        var = mp.quad(lambda y: y**2 * pdf(y), [-mp.inf, 0, mp.inf])
        mixed = abs_power_mean(P3, [1, 1, 1 + mp.mpf(10) ** -8], mp.mpf(1) / 3, A)  # two equal, one not
    assert abs(eq - near) < mp.mpf(10) ** -6 * eq
    assert abs(eq - mixed) < mp.mpf(10) ** -6 * eq
    assert abs(mass - 1) < mp.mpf(10) ** -25 and abs(var - 6) < mp.mpf(10) ** -24


@cbdp_renyi
@pytest.mark.slow
def test_lin_laplace_solver_against_the_power_structure():
    """The solver's value and maximiser satisfy the exact structure D_R = A log E_P h - log E_Q|h|^A."""
    from cbdp_sym.restricted.linpower import lin_renyi

    with mp.workdps(30):
        P, Q = shift_laws("lap", 2, (1,))
        rec = lin_renyi(P, Q, sp.Rational(5, 2))
        al = mp.mpf(5) / 2
        A = al / (al - 1)
        h_val = A * mp.log(rec["a"][0] * 0 + rec["b"]) - mp.log(abs_power_mean(Q, rec["a"], rec["b"], A))
        assert digits(h_val, rec["value"]) > 20


def test_exact_value_cache_key_is_shared_and_rounded():
    with mp.workdps(60):
        a = exact_lin_renyi("gau", 3, (1,), 3)
        b = exact_lin_renyi("gau", sp.Integer(3), [sp.Integer(1)], "3")
    assert a == b
    assert len(mp.nstr(a, 50).rstrip("0")) <= 28


def test_renyi_of_a_product_is_the_cached_sum_over_coordinates(monkeypatch, tmp_path):
    """A product's Rényi divergence is the sum of its coordinates' values, each cached on its own: the same number,
    bit for bit, as renyi_mp on the product laws, and a repeated coordinate is integrated once."""
    import cbdp_sym.core.store as store
    import cbdp_sym.restricted.linpower as lp
    from cbdp_sym.divergences.numeric import renyi_mp

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    monkeypatch.setattr(store, "_ENABLED", [True])
    calls = []
    real = lp.renyi_mp
    monkeypatch.setattr(lp, "renyi_mp", lambda P, Q, al: calls.append(Q.mp_loc()) or real(P, Q, al))
    shift = (sp.Rational(3, 7), sp.Rational(3, 7), sp.Rational(-5, 7))
    with mp.workdps(30):
        got = lp.renyi_shift_mp("lap", sp.Rational(7, 5), shift, "13/4")
        P, Q = shift_laws("lap", sp.Rational(7, 5), shift)
        assert got == renyi_mp(P, Q, mp.mpf(13) / 4)
    assert len(calls) == 2  # 3/7 once, -5/7 once


@cbdp_renyi
@pytest.mark.parametrize("shift_by,what", [(mp.mpf(10) ** -13, "not its objective at its maximiser"),
                                            (1, "outside")])
def test_exact_value_checks_catch_a_wrong_solver_value(monkeypatch, tmp_path, shift_by, what):
    """The checks of a 30-digit solver value (run at fewer digits than the value, 23) resolve their tolerance
    10^-15: a value off by 10^-13 is not the objective at the maximiser; one off by 1 (the maximiser moved with it)
    leaves the bracket."""
    import cbdp_sym.restricted.linpower as lp

    monkeypatch.setenv("CBDP_SYM_CACHE", str(tmp_path))
    real = lp.lin_renyi

    def wrong(P, Q, alpha, features=None):
        rec = dict(real(P, Q, alpha, features))
        rec["value"] = rec["value"] + shift_by
        if shift_by == 1:
            rec["a"] = None  # no maximiser to recompute: only the bracket can tell
        return rec

    with mp.workdps(60):
        exact_lin_renyi("gau", 2, (1,), 2)  # the real value passes its checks
        monkeypatch.setattr(lp, "lin_renyi", wrong)
        with pytest.raises(lp.SolverFailure, match=what):
            exact_lin_renyi("gau", 3, (1,), 2)
