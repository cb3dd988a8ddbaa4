"""Double-precision log-densities (cbdp_sym.laws.floats): the laws' mpmath ones, the same bits on floats and arrays."""
import math
import random

import mpmath as mp
import numpy as np
import sympy as sp

from cbdp_sym.laws.distributions import Finite, Laplace, Mixture, Normal, PointMass
from cbdp_sym.laws.floats import np_log_pdf


def test_numpy_log_densities_match_mpmath():
    """The NumPy log densities (Laplace, Normal, a mixture) agree with the laws' mpmath ones."""
    laws = [Laplace(1, sp.Rational(1, 3)), Normal(-2, 3),
            Mixture([sp.Rational(1, 4), sp.Rational(3, 4)], [Laplace(0, 1), Normal(2, sp.Rational(1, 2))])]
    xs = np.array([-7.5, -1.0, 0.0, 0.3, 2.0, 11.0])
    for L in laws:
        got = np_log_pdf(L)(xs)
        for x, g in zip(xs, got):
            want = float(L.mp_log_pdf(mp.mpf(float(x))))
            assert math.isclose(g, want, rel_tol=1e-12, abs_tol=1e-12), (L, x, g, want)
    assert np_log_pdf(PointMass(0)) is None
    assert np_log_pdf(Finite([0, 1], [sp.Rational(1, 2), sp.Rational(1, 2)])) is None
    assert np_log_pdf(Mixture([sp.Rational(1, 2), sp.Rational(1, 2)], [Laplace(0, 1), Laplace(1, 1)])) is not None


def test_a_float_gets_a_float_with_the_bits_of_the_textbook_formula():
    # the profile locator computes in Python floats: a value must be a float (not an np.float64) and be what
    # -|x - m|/b - log(2 b) and -(x - m)^2/(2 s s) - log(s sqrt(2 pi)) give in IEEE doubles; an array gets the
    # same values elementwise
    rng = random.Random(3)
    laws = [(Laplace(sp.Rational(1, 3), sp.Rational(7, 3)), "lap"), (Laplace(-2, sp.Float("0.1", 30)), "lap"),
            (Normal(sp.Rational(-5, 7), sp.sqrt(2)), "gau"), (Normal(1, sp.Rational(1, 9)), "gau")]
    xs = [0.0, 1e-300, -1e150] + [rng.uniform(-30, 30) for _ in range(200)] + [rng.gauss(0, 1) * 10.0 ** rng.randint(-12, 12)
                                                                              for _ in range(200)]
    for dps in (15, 50):
        with mp.workdps(dps):
            for L, kind in laws:
                f = np_log_pdf(L)
                m, w = float(L.mp_loc()), float(L.mp_width())
                arr = f(np.array(xs))
                for x, a in zip(xs, arr):
                    if kind == "lap":
                        want = -abs(x - m) / w - math.log(2 * w)
                    else:
                        want = -((x - m) ** 2) / (2 * w * w) - math.log(w * math.sqrt(2 * math.pi))
                    got = f(x)
                    assert type(got) is float and got == want, (L, x, got, want)
                    # an array's square is x * x, a float's x ** 2 is libm's pow: they may differ in the last bit
                    assert math.isclose(a, want, rel_tol=1e-15, abs_tol=1e-300), (L, x, a, want)
