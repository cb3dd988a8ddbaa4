"""Corollary 2's proof takes inf over gamma in [1, 2] of E|Y|^gamma (derivations/cbdp/linrenyi.py ``_inf_moment``): the
derivative's sign at the end points (log E|Y|^gamma is convex in gamma), or its root inside."""
import sys

import mpmath as mp
import sympy as sp

from cbdp_sym import Laplace, Normal


def _module(registry):
    registry.get("CBDP-C2-CHAIN")
    lin = [m for m in list(sys.modules.values()) if getattr(m, "_inf_moment", None)]
    assert lin, "derivations/cbdp/linrenyi.py is loaded by the registry"
    return lin[0]


def test_an_interior_infimum_is_the_root_of_the_derivative(registry):
    """Lap(0, 1/2): E|Y|^gamma = 2^-gamma Gamma(gamma + 1), least where digamma(gamma + 1) = log 2 (gamma = 1.4797...):
    an end-point answer (the sign test alone) would be wrong here."""
    lin = _module(registry)
    with mp.workdps(40):
        g, val, how = lin._inf_moment(Laplace(0, sp.Rational(1, 2)), how=True)
        root = mp.findroot(lambda t: mp.digamma(t + 1) - mp.log(2), mp.mpf("1.5"))
        assert abs(g - root) < mp.mpf(10) ** -30
        assert abs(val - 2 ** -root * mp.gamma(root + 1)) < mp.mpf(10) ** -35
        assert "root of the derivative" in how


def test_end_point_infima_are_decided_by_the_derivative_sign(registry):
    """N(0, 1) at gamma = 1 (sqrt(2/pi)); Lap(0, 1/10): 10^-gamma Gamma(gamma + 1) decreases on [1, 2], so gamma = 2."""
    lin = _module(registry)
    with mp.workdps(30):
        g, val, how = lin._inf_moment(Normal(0, 1), how=True)
        assert g == 1 and abs(val - mp.sqrt(2 / mp.pi)) < mp.mpf(10) ** -25 and "not negative" in how
        g, val, how = lin._inf_moment(Laplace(0, sp.Rational(1, 10)), how=True)
        assert g == 2 and abs(val - 2 * mp.mpf(10) ** -2) < mp.mpf(10) ** -25 and "not positive" in how
