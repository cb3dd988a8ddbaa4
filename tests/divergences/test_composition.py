"""Tests of :mod:`cbdp_sym.divergences.composition`."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences.composition import Composition, ContourProfile, compose
from cbdp_sym.divergences.conversions import compose_atoms, delta_atoms, loss_atoms
from cbdp_sym.divergences.mechanisms import randomized_response
from cbdp_sym.divergences.profiles import profile_mp
from cbdp_sym.divergences.subsampling import poisson_subsample
from cbdp_sym.laws.discrete import DiscreteGaussian
from cbdp_sym.laws.distributions import Laplace, Mixture, Normal

R = sp.Rational


def test_renyi_kl_and_max_add():
    C = compose((Normal(0, 2), Normal(1, 2), 10), (Laplace(0, 1), Laplace(1, 1), 3))
    with mp.workdps(40):
        lap3 = mp.log(mp.mpf(3) / 5 * mp.e**2 + mp.mpf(2) / 5 * mp.e**-3) / 2
        assert digits(C.renyi(3), 10 * mp.mpf(3) / 8 + 3 * lap3) >= 35
        assert C.max_divergence() == mp.inf
        assert digits(Composition([(Laplace(0, 1), Laplace(1, 1), 4)]).max_divergence(), mp.mpf(4)) >= 35
        S = mp.exp(mp.mpf(1) / 4)  # sum p^2 q^-1 of N(0, 2) vs N(1, 2): e^{(alpha - 1) D_2}, D_2 = 1/4
        assert digits(Composition([(Normal(0, 2), Normal(1, 2), 5)]).alpha_divergence(2), (S**5 - 1) / 2) >= 35


def test_the_renyi_sum_is_derived_with_a_symbolic_count():
    K = sp.Symbol("K", integer=True, positive=True)
    s = sp.Symbol("sigma", positive=True)
    a = sp.Symbol("alpha", integer=True, positive=True)
    assert Composition([(DiscreteGaussian(0, s), DiscreteGaussian(1, s), K)]).renyi_sym(a) == K * a / (2 * s**2)
    with pytest.raises(ParameterError, match="positive integer"):
        Composition([(Normal(0, 1), Normal(1, 1), 0)])


def test_gaussian_compositions_use_the_closed_form():
    C = Composition([(Normal(0, 3), Normal(1, 3), 9), (Normal(0, 1), Normal(2, 1), 1)])
    with mp.workdps(40):
        out = C.profile(1)
        mu = mp.sqrt(9 * mp.mpf(1) / 9 + 4)
        assert out["method"].startswith("closed form") and digits(out["delta"], profile_mp(Normal(0, 1), Normal(mu, 1), 1)) >= 35


def test_finite_compositions_use_exact_atoms():
    P, Q = randomized_response(R(3, 4))
    with mp.workdps(40):
        out = Composition([(P, Q, 5)]).profile(R(1, 2))
        assert out["method"].startswith("exact") and out["delta"] == delta_atoms(compose_atoms(loss_atoms(P, Q), 5), R(1, 2))


def test_the_mgf_inversion_reproduces_a_gaussian_composition():
    """A Gaussian pair dressed as a mixture (so that the closed form is not used): the contour integral against the
    exact profile of the composed pair."""
    W = Mixture([0, 1], [Normal(0, 5), Normal(1, 5)])
    C = Composition([(W, Normal(0, 5), 30)])
    assert C.method() == "contour"
    with mp.workdps(30):
        out = C.profile(1)
        exact = profile_mp(Normal(0, 1), Normal(mp.sqrt(30) / 5, 1), 1)
        assert digits(out["delta"], exact) >= 28 and out["error"] < mp.mpf(10) ** -28


def test_a_lattice_loss_is_refused_by_the_contour():
    C = Composition([(DiscreteGaussian(0, 1), DiscreteGaussian(1, 1), 50)])
    with mp.workdps(20), pytest.raises(ParameterError, match="lattice"):
        ContourProfile(C, 1)


@pytest.mark.slow
def test_the_composed_subsampled_gaussian_at_two_precisions():
    """eps(1e-5) after 1000 steps of the subsampled Gaussian (q = 0.01, sigma = 1), both relations: the value at 50
    digits agrees with the value at 70 digits to the digits the error estimate states."""
    M, Q = poisson_subsample(Normal(1, 1), Normal(0, 1), R(1, 100))
    vals = {}
    for dps in (50, 70):
        with mp.workdps(dps):
            vals[dps] = [Composition([(A, B, 1000)]).eps(R(1, 10**5)) for A, B in ((M, Q), (Q, M))]
    with mp.workdps(70):
        for lo, hi in zip(vals[50], vals[70]):
            assert lo["error"] < mp.mpf(10) ** -45
            assert digits(lo["eps"], hi["eps"]) >= 45
