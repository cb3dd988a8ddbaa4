"""cbdp_sym.divergences.conversions: RDP -> (eps, delta), exact privacy profiles, composed finite mechanisms."""
import itertools

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.divergences.conversions import (best_over_alpha, compose_atoms, delta_from_curve, delta_improved, delta_mironov,
                                  delta_tv_bound, eps_from_curve, eps_from_profile, eps_improved, eps_mironov,
                                  hockey_stick, hockey_stick_sym, loss_atoms, np_max, prob_bound)
from cbdp_sym.laws.distributions import Finite
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.divergences.mechanisms import gaussian_mechanism, laplace_mechanism, randomized_response
from cbdp_sym.core.tape import recording


def test_single_order_formulas():
    with mp.workdps(40):
        r, a, d = mp.mpf("0.3"), mp.mpf("7") / 2, mp.mpf("1e-6")
        assert eps_mironov(r, a, d) == r + mp.log(1 / d) / (a - 1)
        assert abs(eps_improved(r, a, d) - (r + mp.log((a - 1) / a) - (mp.log(d) + mp.log(a)) / (a - 1))) < mp.mpf(10) ** -38
        e = eps_mironov(r, a, d)
        assert abs(delta_mironov(r, a, e) - d) < mp.mpf(10) ** -45
        e2 = eps_improved(r, a, d)
        assert abs(delta_improved(r, a, e2) - d) < mp.mpf(10) ** -45
        assert eps_mironov(r, mp.inf, d) == r and delta_tv_bound(0) == 0


@pytest.mark.parametrize("bad", [lambda: eps_mironov(1, 2, 0), lambda: eps_mironov(1, 1, mp.mpf("0.1")),
                                 lambda: eps_improved(1, mp.mpf("0.5"), mp.mpf("0.1")), lambda: prob_bound(lambda a: 1, 2)])
def test_bad_inputs_raise_parameter_errors(bad):
    with pytest.raises(ParameterError):
        bad()


def test_gaussian_prop3_optimum_matches_closed_form():
    """alpha* = 1 + sigma sqrt(2 log(1/delta)); at sigma = 3, delta = 1e-7 (unprinted)."""
    with mp.workdps(40):
        s, d = mp.mpf(3), mp.mpf("1e-7")
        val, a = eps_from_curve(lambda al: al / (2 * s**2) if al != mp.inf else mp.inf, d)
        want = 1 / (2 * s**2) + mp.sqrt(2 * mp.log(1 / d)) / s
        assert abs(val - want) < mp.mpf(10) ** -35
        assert abs(a - (1 + s * mp.sqrt(2 * mp.log(1 / d)))) < mp.mpf(10) ** -12
        dd, _a2 = delta_from_curve(lambda al: al / (2 * s**2) if al != mp.inf else mp.inf, val)
        assert abs(dd - d) < mp.mpf(10) ** -30 * d


def test_best_over_alpha_finite_orders_and_infinity():
    v, a = best_over_alpha(lambda al: 1 if al == mp.inf else 2 + 1 / al, orders=[2, 3, mp.inf])
    assert v == 1 and a == mp.inf
    v, a = prob_bound(lambda al: mp.mpf(1) / 20 if al == mp.inf else al / 800, mp.mpf("1e-3"))
    assert v < mp.mpf("1e-3") * mp.exp(mp.mpf(1) / 20)


def test_hockey_stick_gaussian_and_laplace_unprinted():
    with mp.workdps(40):
        s, v, e = mp.mpf(3), mp.mpf(2), mp.mpf(1) / 2
        got = hockey_stick(*gaussian_mechanism(s, v), e)
        want = mp.ncdf(v / (2 * s) - e * s / v) - mp.exp(e) * mp.ncdf(-v / (2 * s) - e * s / v)
        assert abs(got - want) < mp.mpf(10) ** -35 * want
        b = mp.mpf(3)
        got = hockey_stick(*laplace_mechanism(b, v), e)  # ratio e^{(|x-v| - |x|)/b}: delta = 1 - e^{(eps - v/b)/2}
        assert abs(got - (1 - mp.exp((e - v / b) / 2))) < mp.mpf(10) ** -35
        assert hockey_stick(*laplace_mechanism(b, v), v / b + 1) == 0


@pytest.mark.slow
def test_hockey_stick_sym_is_derived_and_agrees():
    sg, vv, ee = sp.symbols("sigma v epsilon", positive=True)
    with recording() as tape:
        expr, conds = hockey_stick_sym(*gaussian_mechanism(sg, vv), ee)
        assert conds == []
    assert tape.steps and expr.has(sp.erf)
    with mp.workdps(30):
        val = mp.mpf(sp.N(expr.subs({sg: 3, vv: 2, ee: sp.Rational(1, 2)}), 30)._to_mpmath(120))
        assert abs(val - hockey_stick(*gaussian_mechanism(mp.mpf(3), mp.mpf(2)), mp.mpf(1) / 2)) < mp.mpf(10) ** -25


def test_compose_atoms_matches_enumeration():
    P, Q = randomized_response(sp.Rational(2, 3))
    with mp.workdps(40):
        atoms = compose_atoms(loss_atoms(P, Q), 3)
        assert len(atoms) == 4
        p = [mp.mpf(1) / 3, mp.mpf(2) / 3]
        q = [mp.mpf(2) / 3, mp.mpf(1) / 3]
        brute = {}
        for xs in itertools.product((0, 1), repeat=3):
            k = sum(xs)
            a, b = brute.get(k, (0, 0))
            brute[k] = (a + mp.fprod(p[x] for x in xs), b + mp.fprod(q[x] for x in xs))
        for L, pm, qm in atoms:
            k = int(mp.nint((L / mp.log(2) + 3) / 2))
            assert abs(pm - brute[k][0]) < mp.mpf(10) ** -35 and abs(qm - brute[k][1]) < mp.mpf(10) ** -35


def test_np_max_against_all_events():
    P = Finite([0, 1, 2], [sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(1, 6)])
    Q = Finite([0, 1, 2], [sp.Rational(1, 6), sp.Rational(1, 3), sp.Rational(1, 2)])
    with mp.workdps(30):
        atoms = loss_atoms(P, Q)
        for S in ((0,), (0, 1), (0, 1, 2)):
            qS = sum(Q.probs[i] for i in S)
            assert abs(np_max(atoms, mp.mpf(qS.p) / qS.q) - sum(P.probs[i] for i in S)) < mp.mpf(10) ** -25


@pytest.mark.slow
def test_eps_from_profile_inverts_the_profile():
    with mp.workdps(30):
        P, Q = laplace_mechanism(mp.mpf(2), 1)
        e = eps_from_profile(lambda x: hockey_stick(P, Q, x), mp.mpf("0.05"))
        assert abs(hockey_stick(P, Q, e) - mp.mpf("0.05")) < mp.mpf(10) ** -25
