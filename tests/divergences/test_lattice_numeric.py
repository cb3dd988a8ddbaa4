"""Tests of :mod:`cbdp_sym.divergences.lattice_numeric`: laws on the integers through the public numeric functions
(``fdiv_mp``, ``renyi_mp``, ``renyi_numeric``, ``profile_mp``, ``privacy_profile``), against closed forms and against an
independent path (the same pmf as a finite law)."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import to_mpf
from cbdp_sym.core.tape import recording
from cbdp_sym.divergences.fdiv import expect, f_divergence, renyi_divergence
from cbdp_sym.divergences.generators import KL, TV, alpha_generator
from cbdp_sym.divergences.lattice_symbolic import close_sum, poisson_dual, poisson_summation
from cbdp_sym.divergences.mechanisms import max_divergence, renyi_numeric
from cbdp_sym.divergences.numeric import fdiv_mp, renyi_mp
from cbdp_sym.divergences.profiles import privacy_profile, profile_mp, profile_sym
from cbdp_sym.laws.discrete import J, K, Binomial, DiscreteGaussian, DiscreteLaplace, Geometric, LatticeSum, Poisson
from cbdp_sym.laws.distributions import Finite, Normal, X

R = sp.Rational
s = sp.Symbol("sigma", positive=True)
t = sp.Symbol("t", positive=True)
TOL = mp.mpf(10) ** -45


def close(a, b):
    return abs(a - b) <= TOL * max(abs(a), abs(b), mp.mpf(10) ** -300)


# -- numeric, through the public functions ----------------------------------------------------------------------------
def test_renyi_of_discrete_gaussians_at_integer_and_fractional_orders():
    with mp.workdps(60):
        P, Q = DiscreteGaussian(0, R(3, 2)), DiscreteGaussian(2, R(3, 2))
        assert close(renyi_mp(P, Q, 3), mp.mpf(3) * 4 / (2 * mp.mpf(9) / 4))  # alpha (mu - nu)^2 / (2 sigma^2)
        # alpha = 7/2: the centre 2 - 7 is an integer again; alpha = 9/4: alpha/(2 s^2) * 4 + log(Z(c)/Z(0))/(alpha - 1)
        a, sg = mp.mpf(9) / 4, mp.mpf(3) / 2
        c = 2 - 2 * a
        th = lambda z: mp.jtheta(3, mp.pi * z, mp.exp(-2 * mp.pi**2 * sg**2))  # noqa: E731  (Poisson dual of Z(z))
        exact = a * 4 / (2 * sg**2) + mp.log(th(c) / th(0)) / (a - 1)
        assert close(renyi_numeric(P, Q, R(9, 4)), exact)


def test_discrete_laplace_against_geometric_series():
    with mp.workdps(60):
        tt = mp.mpf(3)
        P, Q = DiscreteLaplace(0, 3), DiscreteLaplace(1, 3)
        r = mp.exp(-1 / tt)
        a = mp.mpf(5) / 2
        assert close(renyi_mp(P, Q, R(5, 2)), mp.log((r ** (1 - a) + r**a) / (1 + r)) / (a - 1))
        assert close(renyi_mp(P, Q, mp.inf), 1 / tt)
        assert close(fdiv_mp(TV, P, Q), (1 - r) / (1 + r))
        assert close(fdiv_mp(KL, P, Q), (1 - r) / (1 + r) / tt)


def test_poisson_and_binomial_against_closed_forms_and_finite_laws():
    with mp.workdps(60):
        l1, l2, a = mp.mpf(2), mp.mpf(7) / 2, mp.mpf(3)
        exact = (l1**a * l2 ** (1 - a) - a * l1 - (1 - a) * l2) / (a - 1)
        assert close(renyi_mp(Poisson(2), Poisson(R(7, 2)), 3), exact)
        # a binomial pair against the same pmfs as finite laws (the engine's finite-law sums: another path)
        B1, B2 = Binomial(12, R(1, 3)), Binomial(12, R(2, 5))
        F1, F2 = (Finite(list(range(13)), [B.pmf(k) for k in range(13)]) for B in (B1, B2))
        for al in (2, R(7, 2)):
            assert close(renyi_mp(B1, B2, al), renyi_mp(F1, F2, al))
        assert close(fdiv_mp(KL, B1, B2), fdiv_mp(KL, F1, F2))


def test_a_lattice_law_against_a_finite_law():
    with mp.workdps(40):
        F = Finite([0, 1], [R(1, 2), R(1, 2)])
        G = DiscreteGaussian(0, 1)
        assert renyi_mp(G, F, 2) == mp.inf  # G has mass where F has none
        v = renyi_mp(F, G, 2)
        assert mp.isfinite(v) and v > 0


def test_the_privacy_profile_of_discrete_laws():
    with mp.workdps(60):
        r = mp.exp(-mp.mpf(1) / 2)
        e = mp.mpf(1) / 4
        assert close(profile_mp(DiscreteLaplace(0, 2), DiscreteLaplace(1, 2), e), (1 - mp.exp(e - mp.mpf(1) / 2)) / (1 + r))
        Y = DiscreteGaussian(0, 2)
        cks = Y.mp_sf(e * 4 - mp.mpf(1) / 2) - mp.exp(e) * Y.mp_sf(e * 4 + mp.mpf(1) / 2)
        assert close(profile_mp(DiscreteGaussian(0, 2), DiscreteGaussian(1, 2), e), cks)
    out = privacy_profile(DiscreteLaplace(0, 2), DiscreteLaplace(1, 2), delta="1e-5", dps=30)
    assert out["certificate"].startswith("Arb") and out["digits"] == "30.00"


def test_a_slowly_converging_generator_is_refused_in_one_line():
    from cbdp_sym.divergences.generators import Generator, T

    chi2 = Generator("chi2", r"\chi^2", (T - 1) ** 2)
    with pytest.raises(ParameterError, match="no bounded-tail sum"):
        fdiv_mp(chi2, DiscreteGaussian(0, 1), DiscreteGaussian(1, 1))



def test_continuous_laws_are_unaffected():
    with mp.workdps(30):
        assert abs(renyi_mp(Normal(0, 1), Normal(1, 1), 2) - 1) < mp.mpf(10) ** -25
