"""The double-precision warm start of the restricted (poly_k, alpha) solver (cbdp_sym.restricted.warmstart)."""

import mpmath as mp
import sympy as sp

import cbdp_sym.restricted.solver as S
from cbdp_sym.laws.distributions import Laplace, Normal, PointMass
from cbdp_sym.restricted.warmstart import power_start


def test_double_precision_start_is_the_working_precision_optimum():
    """The NumPy start lands on the minimiser the working-precision Newton steps certify (poly3, Laplace,
    alpha = 7/2: the Hessian's integrand is singular at the zeros of h), and a law without a NumPy density
    gets no start."""
    P, Q = Laplace(0, sp.Rational(3, 2)), Laplace(2, sp.Rational(3, 2))
    A = mp.mpf(7) / 5
    x0, w = Q.mp_loc(), Q.mp_width()
    with mp.workdps(20):
        m = S._moments(P, x0, w, 3)
        c = power_start(P, Q, 3, A, x0, w, m)
        run, _prob = S._ramp(lambda: S._Power(P, Q, 3, A, x0, w), lambda: [mp.mpf(0)] * 3, 20)
    assert run.converged
    assert max(abs(a - float(b)) for a, b in zip(c, run.theta)) < 1e-9
    assert power_start(P, PointMass(1), 1, A, x0, w, m[:1]) is None


def test_chi_square_linear_optimum_in_closed_form():
    """A = 2, P = N(0, 1), Q = N(1, 1), h = 1 + c x: E_Q h^2 = 1 + 2c + 2c^2 is least at c = -1/2."""
    c = power_start(Normal(0, 1), Normal(1, 1), 1, 2.0, 1.0, 1.0, [-1.0])
    assert abs(c[0] + 0.5) < 1e-12
