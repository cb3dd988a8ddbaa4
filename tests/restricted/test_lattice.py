"""Restricted divergences of laws on the integers (cbdp_sym/restricted/lattice.py, through restricted())."""
import mpmath as mp
import pytest

from cbdp_sym.laws.discrete import DiscreteGaussian, DiscreteLaplace
from cbdp_sym.restricted.lattice import window
from cbdp_sym.restricted.solver import restricted


def test_kl_over_lin_is_the_kl_when_the_log_ratio_is_linear():
    """The log-ratio of two discrete Gaussians of one width is affine in k: lin contains the optimal h, and the
    restricted KL is the KL, 1/(2 sigma^2)."""
    with mp.workdps(30):
        r = restricted("kl", "lin", DiscreteGaussian(0, 2), DiscreteGaussian(1, 2), second=False)
        assert abs(r.value - mp.mpf(1) / 8) < mp.mpf(10) ** -25
        assert "analytic bound" in r.notes[-1]


def test_restricted_values_stay_below_the_unrestricted_ones():
    from cbdp_sym.divergences.numeric import renyi_mp

    P, Q = DiscreteLaplace(0, 1), DiscreteLaplace(1, 1)
    with mp.workdps(25):
        r = restricted("renyi", "lin", P, Q, alpha=3, second=False)
        assert 0 < r.value <= renyi_mp(P, Q, 3)


def test_windows_hold_all_but_the_tolerance():
    with mp.workdps(30):
        L = DiscreteLaplace(0, 5)
        a, b = window(L, mp.mpf(10) ** -40)
        assert 1 - mp.fsum(L.mp_pmf_at(k) for k in range(a, b + 1)) < mp.mpf(10) ** -40


@pytest.mark.parametrize("cls", ["lin", "poly2"])
def test_discrete_laplace_kl_classes(cls):
    with mp.workdps(25):
        r = restricted("kl", cls, DiscreteLaplace(0, 1), DiscreteLaplace(1, 1), second=False)
        assert r.value > 0 and not r.infinite
