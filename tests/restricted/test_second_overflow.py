"""The KL-type second method's line search can try a point where E_Q[e^(h-1)] exceeds any number mpmath represents
(far-apart laws): that point is worth -inf (the search backs off), never an OverflowError that sinks the command."""
import mpmath as mp
import sympy as sp

from cbdp_sym import Normal
from cbdp_sym.restricted.solver import restricted


def test_far_apart_gaussians_give_the_value_not_an_overflow():
    """N(0, 1/10) against N(-100, 1), 100 standard deviations of Q apart: Theorem 10's value (mu1 - mu2)^2 / (2 sigma2^2)
    = 5000.  Before: `OverflowError: int too big to convert` from the second method's line search."""
    with mp.workdps(30):
        r = restricted("kl", "lin", Normal(0, sp.Rational(1, 10)), Normal(-100, 1))
        assert abs(r.value - 5000) < mp.mpf(10) ** -20
