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


# -- the order located in double precision and polished (best_over_alpha's locate; conversions._newton_min) --------
import math  # noqa: E402

import cbdp_sym.divergences.conversions as C  # noqa: E402
from cbdp_sym.core.numbers import digits  # noqa: E402


def _gauss(r_per_order, d):
    return lambda a: C.eps_improved(r_per_order * a, a, d)


def test_located_order_takes_few_working_precision_values_and_gives_the_golden_sections_minimum():
    with mp.workdps(50):
        r, d = mp.mpf("0.3"), mp.mpf("1e-6")
        seen = []
        obj = _gauss(r, d)

        def counted(a):
            seen.append(a)
            return obj(a)

        floc = lambda a: 0.3 * a + math.log1p(-1 / a) - (math.log(1e-6) + math.log(a)) / (a - 1)  # noqa: E731
        v, a = C.best_over_alpha(counted, include_inf=False, locate=floc)
        # the same minimum from the working-precision scan and golden section (no locator, no polish)
        ref = C.best_over_alpha(obj, include_inf=False, enclose=lambda al: None)[0]
        assert digits(v, ref) >= 49
        assert len(seen) <= 20  # the working-precision scan alone takes 201
        # the order: the root of the derivative in closed form is not used; the value is flat there, so the order
        # agrees to about half the working precision, what the golden section establishes
        assert abs(a - C.best_over_alpha(obj, include_inf=False, enclose=lambda al: None)[1]) < mp.mpf(10) ** -20


def test_the_locator_of_prob_bound_gives_the_working_precision_bound():
    with mp.workdps(30):
        curve = lambda a: mp.mpf(a) / 8  # noqa: E731  (a Gaussian's curve, sigma = 2)
        v1, a1 = C.prob_bound(curve, mp.mpf("1e-3"))
        v2, a2 = C.prob_bound(curve, mp.mpf("1e-3"), locate=lambda a: a / 8)
        assert digits(v1, v2) >= 29 and abs(a1 / a2 - 1) < 1e-10


def test_newton_polish_declines_a_kink_and_the_golden_section_answers():
    """``|t - 1/3|`` has no second derivative at its minimum: the polish declines, the scan and golden section at the
    working precision answer as before."""
    with mp.workdps(30):
        assert C._newton_min(lambda t: abs(t - mp.mpf(1) / 3), mp.mpf("0.3333"), mp.mpf(0), mp.mpf(1),
                             atol=mp.mpf(10) ** -14) is None
        kinked = lambda a: abs(mp.log(a - 1) - mp.mpf(1) / 3) + 1  # noqa: E731
        v, a = C.best_over_alpha(kinked, include_inf=False, locate=lambda a: abs(math.log(a - 1) - 1 / 3) + 1)
        assert abs(v - 1) < mp.mpf(10) ** -14 and abs(mp.log(a - 1) - mp.mpf(1) / 3) < mp.mpf(10) ** -13


def test_a_locator_that_overflows_before_the_optimum_is_not_trusted():
    """The binary64 curve of a Laplace pair overflows at large orders, where the improved conversion is least: the
    locator's least finite value sits at the edge of where it is finite, a lower neighbour at the working precision
    refutes it, and the scan runs at the working precision (the minimum is not the edge cell's)."""
    with mp.workdps(30):
        t_star = mp.mpf(10)  # the optimum at t = 10 (alpha = 1 + e^10)
        obj = lambda a: (mp.log(a - 1) - t_star) ** 2 + 1  # noqa: E731

        def loc(a):
            t = math.log(a - 1)
            if t > 8:
                raise OverflowError("math range error")
            return (t - 10) ** 2 + 1

        v, a = C.best_over_alpha(obj, include_inf=False, locate=loc)
        assert abs(v - 1) < mp.mpf(10) ** -25 and abs(mp.log(a - 1) - t_star) < mp.mpf(10) ** -12


def test_a_minimum_at_the_end_of_the_grid_is_the_end_value_without_a_golden_section():
    """An objective rising in the order: the least value over ``t in [-25, 25]`` is at ``t = -25``; the golden section
    at the working precision closed in on that end and returned its grid value, which is now returned at once."""
    with mp.workdps(50):
        seen = []

        def obj(a):
            seen.append(mp.mp.prec)
            return a + 1 / (a + 1)

        v, a = C.best_over_alpha(obj, include_inf=False)
        end = 1 + mp.exp(-25)
        assert v == end + 1 / (end + 1) and a == end
        assert sum(p > 53 for p in seen) <= 10  # the golden section at 50 digits took some 90 values
