"""The order of a conversion located in double precision and polished at the working precision
(:func:`best_over_alpha`'s ``locate``; :func:`conversions._newton_min`)."""
import math

import mpmath as mp

from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences import conversions as C


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
