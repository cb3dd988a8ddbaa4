"""The raw-value integrands of the profile and Rényi quadratures, and the located eps(delta) root finder: the
same values bit for bit as the generic code (issue 18: faster without moving a printed digit)."""
import random

import mpmath as mp
import pytest
import sympy as sp

import cbdp_sym.divergences.numeric as numeric
import cbdp_sym.divergences.profiles as profiles
from cbdp_sym.laws.distributions import Laplace, Normal

PAIRS = [(Normal(0, 1), Normal(1, 1)), (Normal(0, 4), Normal(1, 4)), (Laplace(0, 1), Laplace(1, 1)),
         (Laplace(0, 8), Laplace(1, 8)), (Normal(0, sp.Rational(1, 3)), Normal(sp.Rational(1, 2), 2)),
         (Laplace(sp.Rational(1, 2), 3), Normal(0, 1))]


def _points(rng):
    half = mp.mpf(1) / 2
    return [mp.mpf(rng.uniform(-40, 40)), half + mp.mpf(rng.gauss(0, 1e-9)), half - mp.mpf(10) ** -rng.randint(1, 80),
            half - mp.mpf(2) ** -rng.randint(100, 300), mp.mpf(rng.uniform(-1, 2))]


@pytest.mark.parametrize("dps", [15, 25, 60])
def test_profile_integrand_is_the_generic_one_bit_for_bit(dps):
    rng = random.Random(dps)
    for P, Q in PAIRS:
        with mp.workdps(dps):
            for _ in range(40):
                e = mp.mpf(rng.choice([0, 0, rng.uniform(0, 3), 1, "0.125"]))
                M = P.mp_log_pdf(mp.mpf(rng.uniform(-3, 3)))
                fast = profiles._fast_integrand(P, Q, e, M)
                if type(P) is not type(Q) and fast is None:
                    continue

                def g(x):
                    lp, lq = P.mp_log_pdf(x), Q.mp_log_pdf(x)
                    if not lp - lq > e:
                        return mp.mpf(0)
                    return mp.exp(lp - M) * (-mp.expm1(e + lq - lp))

                for x in _points(rng):
                    with mp.extraprec(20):  # (mp.quad calls the integrand 20 bits above the working precision)
                        assert fast(x)._mpf_ == g(x)._mpf_, (P, Q, e, x)


def test_expm1_raw_is_mpmath_expm1():
    rng = random.Random(1)
    for dps in (15, 30, 60):
        with mp.workdps(dps):
            prec, rnd = mp.mp._prec_rounding
            ys = [mp.mpf(0), mp.mpf(-1), mp.mpf(-40), mp.mpf(10) ** -(dps + 30), -mp.mpf(2) ** -(prec + 11)]
            ys += [-mp.mpf(10) ** -rng.randint(1, 3 * dps) for _ in range(50)]
            ys += [mp.mpf(rng.uniform(-30, 3)) for _ in range(50)]
            for y in ys:
                assert profiles._expm1_raw(y._mpf_, prec, rnd) == mp.expm1(y)._mpf_, y


@pytest.mark.parametrize("dps", [20, 60])
def test_renyi_integrand_is_the_generic_one_bit_for_bit(dps):
    rng = random.Random(dps + 7)
    for P, Q in PAIRS:
        with mp.workdps(dps):
            for _ in range(30):
                al, top = mp.mpf(rng.choice([2, 1.5, 13, 1 + 1e-6, rng.uniform(1, 40)])), mp.mpf(rng.uniform(-5, 5))
                f = numeric._renyi_integrand_raw(P, Q, al, top)
                for x in _points(rng):
                    want = mp.exp(al * P.mp_log_pdf(x) + (1 - al) * Q.mp_log_pdf(x) - top)
                    assert f(x)._mpf_ == want._mpf_


def test_laws_without_a_raw_density_use_the_generic_integrand():
    from cbdp_sym.laws.distributions import Finite
    assert numeric.raw_log_pdf(Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)])) is None


def test_locator_estimates_the_profile_and_knows_its_laws():
    for P, Q in PAIRS[:4]:
        est = profiles.profile_locator(P, Q)
        with mp.workdps(20):
            for e in ("0", "0.9", "2"):
                exact = profiles.profile_mp(P, Q, mp.mpf(e))
                approx = est(e)
                if exact > mp.mpf(10) ** -200:
                    assert approx is not None and abs(approx / float(exact) - 1) < 1e-6, (P, Q, e)
    assert profiles.profile_locator(Normal(0, 1), Laplace(1, 1)) is None
    assert profiles.profile_locator(Normal(0, 1), Normal(1, 2)) is None


@pytest.mark.parametrize("P, Q, delta", [
    (Laplace(0, 8), Laplace(1, 8), "1/100"),
    pytest.param(Normal(0, 1), Normal(1, 1), "1/1000", marks=pytest.mark.slow),
    pytest.param(Laplace(0, 1), Laplace(1, 1), "1/100000", marks=pytest.mark.slow)])
def test_located_root_is_the_unlocated_root_bit_for_bit_with_fewer_evaluations(P, Q, delta):
    def counted(log):
        def prof(e):
            log.append(mp.mp.prec)
            return profiles.profile_mp(P, Q, e)
        return prof

    with mp.workdps(22):  # (above the rough stage's 20 digits: its evaluations and the final ones are told apart)
        d = mp.mpf(sp.Rational(delta))
        plain, located = [], []
        a = profiles.eps_for_delta(counted(plain), d)
        b = profiles.eps_for_delta(counted(located), d, locate=profiles.profile_locator(P, Q))
    assert a._mpf_ == b._mpf_
    assert len(located) < len(plain)
    assert located.count(max(located)) == plain.count(max(plain))  # the working-precision steps are the same


def test_a_wrong_locator_cannot_change_the_root_unless_it_claims_a_wide_margin():
    """The locator is trusted only where it puts the profile 0.1 % above delta: an estimate that is merely close
    (here: delta itself) skips nothing."""
    P, Q = Laplace(0, 1), Laplace(1, 1)
    with mp.workdps(15):
        d = mp.mpf("1e-1")
        a = profiles.eps_for_delta(lambda e: profiles.profile_mp(P, Q, e), d)
        b = profiles.eps_for_delta(lambda e: profiles.profile_mp(P, Q, e), d, locate=lambda e: float(d))
    assert a._mpf_ == b._mpf_
