"""Conformance of cbdp_sym.calculus.optimize: every method by name on the same problems, the precision ramp, bad input,
and the definiteness edge cases."""
import math

import mpmath as mp
import sympy as sp
import pytest

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.calculus.certify import arb_precision
from cbdp_sym.calculus.optimize import (ARITHMETIC, METHODS, bfgs, bisection, bracket_max, definite, expand_until, golden_max,
                               golden_section,
                               line_search, ranked, maximize, minimize, newton, precision_ramp, ramp_stages, sup_positive)

MULTI = [m for m in METHODS if m != "golden"]


# -- problems: value, gradient, Hessian ------------------------------------------------------------------
def quad_f(x):  # convex quadratic, minimum 1 at (1, -2)
    return 1 + 2 * (x[0] - 1) ** 2 + (x[0] - 1) * (x[1] + 2) + 3 * (x[1] + 2) ** 2


def quad_g(x):
    return [4 * (x[0] - 1) + (x[1] + 2), (x[0] - 1) + 6 * (x[1] + 2)]


def quad_h(x):
    return [[mp.mpf(4), mp.mpf(1)], [mp.mpf(1), mp.mpf(6)]]


def rosen_f(x):  # Rosenbrock (a = 1, b = 10): minimum 0 at (1, 1)
    return (1 - x[0]) ** 2 + 10 * (x[1] - x[0] ** 2) ** 2


def rosen_g(x):
    return [-2 * (1 - x[0]) - 40 * x[0] * (x[1] - x[0] ** 2), 20 * (x[1] - x[0] ** 2)]


def rosen_h(x):
    return [[2 - 40 * (x[1] - x[0] ** 2) + 80 * x[0] ** 2, -40 * x[0]], [-40 * x[0], mp.mpf(20)]]


@pytest.mark.parametrize("method", MULTI)
def test_convex_quadratic(method):
    with mp.workdps(30):
        run = minimize(quad_f, [0, 0], method, grad=quad_g, hess=quad_h)
        assert run.converged
        assert abs(run.theta[0] - 1) < mp.mpf(10) ** -12 and abs(run.theta[1] + 2) < mp.mpf(10) ** -12
        assert abs(run.value - 1) < mp.mpf(10) ** -25


@pytest.mark.parametrize("method", MULTI)
def test_rosenbrock_like(method):
    with mp.workdps(30):
        run = minimize(rosen_f, [-1, 1], method, grad=rosen_g, hess=rosen_h, max_iter=400)
        assert run.converged
        assert abs(run.theta[0] - 1) < mp.mpf(10) ** -10 and abs(run.theta[1] - 1) < mp.mpf(10) ** -10
        assert run.value < mp.mpf(10) ** -20


def test_bfgs_forward_differences():
    with mp.workdps(30):
        run = minimize(quad_f, [0, 0], "bfgs")  # no gradient: forward differences
        assert run.converged and abs(run.value - 1) < mp.mpf(10) ** -20


@pytest.mark.parametrize("arithmetic", ARITHMETIC)
def test_golden_by_name_in_each_arithmetic(arithmetic):
    """The golden section by name, in mpmath and in binary64: the maximiser of x - e^(x-1) (at 1, value 0) to
    the arithmetic's precision, and binary64 stays in floats throughout."""
    f = lambda x: x - (mp.exp(x - 1) if arithmetic == "mp" else math.exp(x - 1))  # noqa: E731
    with mp.workdps(30):
        run = maximize(f, None, "golden", bracket=(0, 3), iters=200 if arithmetic == "binary64" else None,
                       reuse=arithmetic == "mp", arithmetic=arithmetic)
        small = mp.mpf(10) ** -12 if arithmetic == "mp" else 1e-7
        assert abs(run.theta[0] - 1) < small and abs(run.value) < small ** 2 * 10
        if arithmetic == "binary64":
            assert type(run.theta[0]) is float and type(run.value) is float
        else:
            assert isinstance(run.theta[0], mp.mpf) and abs(run.value) < mp.mpf(10) ** -25


def _reference_section(f, a, b, ratio, steps):
    """The textbook minimising section loop (both points recomputed a step) that paper modules used to carry."""
    for _ in range(steps):
        c, d = b - (b - a) * ratio, a + (b - a) * ratio
        if f(c) <= f(d):
            b = d
        else:
            a = c
    return f((a + b) / 2)


@pytest.mark.parametrize("arithmetic,ratio", [("binary64", None), ("mp", 0.618), ("mp", None)])
def test_golden_reproduces_the_textbook_iteration_exactly(arithmetic, ratio):
    """minimize(..., "golden", reuse=False) visits the same points as the textbook loop, so the value is the same
    number bit for bit (binary64 at the float golden ratio; mpmath at the ratio .618 or the golden one)."""
    with mp.workdps(20):
        if arithmetic == "binary64":
            f, a, b, r = (lambda t: math.log1p(t * t) - math.sin(t)), -1.0, 2.5, (math.sqrt(5) - 1) / 2
        else:
            f, a, b = (lambda t: mp.log1p(t * t) - mp.sin(t)), mp.mpf(-1), mp.mpf("2.5")
            r = ratio if ratio is not None else (mp.sqrt(5) - 1) / 2
        want = _reference_section(f, a, b, r, 30)
        run = minimize(f, None, "golden", bracket=(a, b), iters=30, reuse=False, ratio=ratio, arithmetic=arithmetic)
        assert run.value == want and run.iterations == 30
        other = minimize(f, None, "golden", bracket=(a, b), iters=29, reuse=False, ratio=ratio, arithmetic=arithmetic)
        assert other.value != want  # one step fewer is a different number: the comparison above can fail


def test_golden_options_are_checked():
    with pytest.raises(ParameterError, match="reuse=False"):
        golden_section(lambda t: -t * t, 0, 1, iters=5, ratio=0.618)
    with pytest.raises(ParameterError, match="ratio must lie"):
        golden_section(lambda t: -t * t, 0, 1, iters=5, ratio=0.4, reuse=False)
    with pytest.raises(ParameterError, match="unknown arithmetic 'float32'"):
        maximize(lambda t: -t * t, None, "golden", bracket=(0, 1), arithmetic="float32")
    with pytest.raises(ParameterError, match="options of the golden section"):
        minimize(quad_f, [0, 0], "bfgs", arithmetic="binary64")
    with pytest.raises(ParameterError, match="golden: the bracket must be numbers"):
        maximize(lambda t: -t * t, None, "golden", bracket=(0, "abc"), arithmetic="binary64")


@pytest.mark.parametrize("arithmetic", ARITHMETIC)
def test_bisection_finds_the_boundary_from_either_side(arithmetic):
    with mp.workdps(40):
        exact = mp.sqrt(2)
        tol = mp.mpf(10) ** -38 if arithmetic == "mp" else 1e-15
        g, b = bisection(lambda x: x * x <= 2, 1, 2, arithmetic=arithmetic)  # good below the boundary
        assert g <= exact <= b and b - g < tol
        g, b = bisection(lambda x: x * x >= 2, 2, 1, arithmetic=arithmetic)  # good above it
        assert b <= exact <= g and g - b < tol
        assert type(g) is (float if arithmetic == "binary64" else mp.mpf)
        g, b = bisection(lambda x: x * x <= 2, 1, 2, iters=10, arithmetic=arithmetic)
        assert abs(b - g) == mp.mpf(2) ** -10  # ten halvings of [1, 2]


def test_bisection_ends_and_bad_input():
    with mp.workdps(30):
        g, b = bisection(lambda x: True, 0, 1, iters=30)  # true everywhere: closes in on the bad end
        assert 1 - g < mp.mpf(10) ** -8
        third = mp.mpf(1) / 3
        with mp.workdps(60):
            third60 = mp.mpf(1) / 3
        g, _b = bisection(lambda x: False, third60, 1, iters=3)  # an mpf end keeps its precision
        assert g == third60 and g != third
    with pytest.raises(ParameterError, match="bisection: the ends must be finite"):
        bisection(lambda x: True, 0, mp.inf)
    with pytest.raises(ParameterError, match="bisection: the ends must be numbers"):
        bisection(lambda x: True, "abc", 1)
    with pytest.raises(ParameterError, match="must be callable"):
        bisection(None, 0, 1)


def test_expand_until_then_bisection_finds_a_root_beyond_the_first_bracket():
    with mp.workdps(30):
        g = lambda t: 1000 - t  # noqa: E731  (decreasing, root at 1000)
        hi = expand_until(lambda t: not g(t) > 0, mp.mpf(3))
        assert hi == 3 * 2**9  # 3, 6, ..., 1536: the first doubling with g <= 0
        good, bad = bisection(lambda t: not g(t) > 0, hi, mp.mpf(3))
        assert abs(good - 1000) < mp.mpf(10) ** -25 and good >= 1000 > bad
        assert expand_until(lambda t: t > 10, 1, factor=10) == 100
    with pytest.raises(ParameterError, match="still false after 50 steps"):
        expand_until(lambda t: t > 1, mp.mpf(0), max_steps=50)
    with pytest.raises(ParameterError, match="must be callable"):
        expand_until(3, 1)


@pytest.mark.parametrize("method", METHODS)
def test_one_dimensional_unimodal(method):
    f = lambda x: (x[0] if isinstance(x, list) else x) - mp.exp((x[0] if isinstance(x, list) else x) - 1)  # noqa: E731
    with mp.workdps(30):
        run = maximize(f, [mp.mpf("0.2")], method, grad=lambda x: [1 - mp.exp(x[0] - 1)],
                       hess=lambda x: [[-mp.exp(x[0] - 1)]], bracket=(0, 3))
        assert abs(run.theta[0] - 1) < mp.mpf(10) ** -12  # max of x - e^{x-1} at x = 1, value 0
        assert abs(run.value) < mp.mpf(10) ** -25


@pytest.mark.parametrize("method", MULTI)
def test_precision_ramp_reaches_target(method):
    """15 digits, then the target (60): the answer is good to the target, not to the first stage."""
    target = 60
    c = mp.mpf(1) / 3

    def stage(x, sd, last):
        f = lambda z: -(mp.exp(z[0]) - 3 * z[0])  # noqa: E731  (max at log 3)
        run = maximize(f, x, method, grad=lambda z: [3 - mp.exp(z[0])], hess=lambda z: [[-mp.exp(z[0])]])
        return run.theta, run

    stages = ramp_stages(target, 15)
    assert stages == [15, 32, 60]
    runs = precision_ramp(stage, [c], stages)
    with mp.workdps(target):
        assert len(runs) == 3
        assert abs(runs[0].theta[0] - mp.log(3)) > mp.mpf(10) ** -40  # the first stage alone is not enough
        assert abs(runs[-1].theta[0] - mp.log(3)) < mp.mpf(10) ** -(target // 2)
        assert abs(runs[-1].value - (3 * mp.log(3) - 3)) < mp.mpf(10) ** -(target - 3)


def test_precision_ramp_stops_early_and_needs_stages():
    seen = []

    def stage(x, sd, last):
        seen.append(sd)
        return None, sd

    assert precision_ramp(stage, 0, [10, 20, 30]) == [10]
    assert seen == [10]
    with pytest.raises(ParameterError):
        precision_ramp(stage, 0, [])


@pytest.mark.parametrize("method", METHODS)
def test_bad_input_is_a_clear_error(method):
    with pytest.raises(ParameterError, match=method):
        maximize(lambda x: -x[0] ** 2, ["abc"], method, grad=lambda x: [-2 * x[0]], hess=lambda x: [[-2]],
                 bracket=(0, "abc") if method == "golden" else None)
    with pytest.raises(ParameterError):
        maximize(lambda x: -x[0] ** 2, [mp.inf], method, grad=lambda x: [-2 * x[0]], hess=lambda x: [[-2]],
                 bracket=(1, 0) if method == "golden" else None)


def test_unknown_method_and_missing_derivatives():
    with pytest.raises(ParameterError, match="unknown optimisation method 'simplex'"):
        minimize(quad_f, [0, 0], "simplex")
    with pytest.raises(ParameterError, match="grad and hess"):
        minimize(quad_f, [0, 0], "newton")
    with pytest.raises(ParameterError, match="bracket"):
        maximize(lambda x: -x ** 2, None, "golden")
    with pytest.raises(ParameterError, match="not finite .or not real. at the start"):
        maximize(lambda x: mp.log(x[0]), [-1], "bfgs")
    with pytest.raises(ParameterError):
        newton(lambda x, o: (mp.mpf(0), [0], [[0]]), [0], 1, solve="cholesky")
    with pytest.raises(ParameterError):
        bfgs(lambda x: -x[0] ** 2, [1])  # forward differences need a step


# -- definiteness ---------------------------------------------------------------------------------------
def test_definite_empty_matrix_is_definite():
    """The empty matrix is both negative and positive definite (vacuously), in both tests."""
    assert definite([]) is True
    assert definite([], 1) is True
    assert definite([], -1, rtol=mp.mpf(10) ** -10) is True


@pytest.mark.parametrize("rtol", [None, mp.mpf(10) ** -20])
def test_definite_cases(rtol):
    with mp.workdps(40):
        assert definite([[-2, 1], [1, -3]], -1, rtol) and not definite([[-2, 1], [1, -3]], 1, rtol)
        assert definite([[2, 1], [1, 3]], 1, rtol) and not definite([[2, 1], [1, 3]], -1, rtol)
        assert not definite([[1, 0], [0, -1]], -1, rtol) and not definite([[1, 0], [0, -1]], 1, rtol)
        assert not definite([[0, 0], [0, 0]], -1, rtol)  # semi-definite is not definite
        assert not definite([[-1, 0], [0, 0]], -1, rtol)


def test_definite_tolerance_separates_rounding():
    with mp.workdps(40):
        tiny = [[mp.mpf(-1), 0], [0, -mp.mpf(10) ** -30]]
        assert definite(tiny, -1)  # the exact test: every eigenvalue strictly negative
        assert not definite(tiny, -1, rtol=mp.mpf(10) ** -20)  # beyond rounding: not


def test_definite_bad_input():
    with pytest.raises(ParameterError):
        definite([[1, 2]], -1)
    with pytest.raises(ParameterError):
        definite([[1]], 0)


# -- the pieces ---------------------------------------------------------------------------------------
def test_line_search_armijo_and_feasibility():
    with mp.workdps(30):
        f = lambda z: (-(z[0] - 1) ** 2,)  # noqa: E731
        t, cand, out = line_search(lambda c, t: f(c), [mp.mpf(0)], [mp.mpf(4)], f([0])[0], mp.mpf(8))
        assert t == mp.mpf(1) / 4 and cand == [1]  # 1 and 1/2 overshoot (no sufficient increase)
        t, cand, out = line_search(lambda c, t: f(c), [mp.mpf(0)], [mp.mpf(4)], f([0])[0], mp.mpf(8),
                                   feasible=lambda c: c[0] < mp.mpf("0.6"))
        assert t == mp.mpf(1) / 8
        assert line_search(lambda c, t: (mp.mpf(-10),), [mp.mpf(0)], [mp.mpf(1)], mp.mpf(0), mp.mpf(1),
                           halvings=5) is None


def test_golden_section_and_sup_positive():
    with mp.workdps(30):
        a, b, best = golden_section(lambda t: -(t - mp.mpf(1) / 3) ** 2 + 2, 0, 1, tol=mp.mpf(10) ** -25)
        assert abs((a + b) / 2 - mp.mpf(1) / 3) < mp.mpf(10) ** -12
        x, v = golden_max(lambda t: -(t - 2) ** 2, 0, 5)
        assert abs(x - 2) < mp.mpf(10) ** -12 and abs(v) < mp.mpf(10) ** -24
        t, v = sup_positive(lambda t: t - t**2)  # max 1/4 at 1/2
        assert abs(t - mp.mpf(1) / 2) < mp.mpf(10) ** -12 and abs(v - mp.mpf(1) / 4) < mp.mpf(10) ** -25
    with pytest.raises(ValueError):
        golden_section(lambda t: t, 0, 1)


@pytest.mark.parametrize("reuse", [True, False])
def test_golden_variants_and_stopping_rules(reuse):
    with mp.workdps(30):
        f = lambda t: -(t - 2) ** 2  # noqa: E731
        a, b, _ = golden_section(f, 0, 5, iters=200, reuse=reuse, atol=mp.mpf(10) ** -6)
        assert b - a < mp.mpf(10) ** -6 and b - a > mp.mpf(10) ** -8 and a < 2 < b  # stopped by atol
        a, b, _ = golden_section(f, 0, 5, iters=10, reuse=reuse)
        assert b - a > mp.mpf(10) ** -3  # stopped by the step count
        x, v = golden_max(f, 0, 5, reuse=reuse)
        assert abs(x - 2) < mp.mpf(10) ** -12


def test_bracket_max_brackets_the_maximum_on_either_side():
    with mp.workdps(30):
        for peak in (mp.mpf(-37), mp.mpf("0.3"), mp.mpf(1000)):
            lo, hi = bracket_max(lambda x: -(x - peak) ** 2, mp.mpf(0), mp.mpf(1), mp.mpf("1e-3"))
            assert lo < peak < hi


def _ball_of(f, bits=128):
    """A correct arb ball of ``f`` at ``x``: ``f`` in mpmath at 2 bits more than Arb's precision, widened by ulps."""
    import flint

    def ball(x):
        with mp.workprec(bits + 2):
            v = f(x)
        with arb_precision(bits):
            return flint.arb(mp.nstr(v, bits // 3 + 2)) + flint.arb(0, flint.arb(2) ** (-bits + 4) * (1 + abs(float(v))))
    return ball


@pytest.mark.parametrize("center", ["1/3", "0.5", "0.6180339887498948", "1e-40"])
def test_golden_section_ranked_by_balls_takes_the_same_steps(center):
    """With ``enclose`` the bracket and the value are those without it, bit for bit, with fewer calls of ``f``
    (the balls decide the first steps); a ball that lies decides a step wrongly and moves the bracket."""
    with mp.workdps(50):
        c0 = mp.mpf(sp.Rational(center)) if "/" in center else mp.mpf(center)
        f = lambda t: -(t - c0) ** 2 + mp.sin(t) / 1000  # noqa: E731
        calls = []

        def counted(t):
            calls.append(t)
            return f(t)

        kw = dict(iters=int(mp.mp.prec * 1.45) + 10, atol=mp.mpf(2) ** (-mp.mp.prec // 2 - 4))
        plain = golden_section(counted, 0, 1, **kw)
        n_plain = len(calls)
        calls.clear()
        fast = golden_section(counted, 0, 1, enclose=_ball_of(f), **kw)
        assert fast == plain  # same bracket and value, bit for bit
        assert len(calls) < n_plain - 20
        wrong = _ball_of(lambda t: -(t - c0 - mp.mpf("0.01")) ** 2)  # a ball of another function
        assert golden_section(f, 0, 1, enclose=wrong, **kw)[:2] != plain[:2]


def test_ranked_needs_room_beyond_the_working_precision():
    import flint

    with mp.workdps(50), arb_precision(300):  # working precision 169 bits: room 2^-84 (1 + |x| + |y|)
        one = flint.arb(1)
        assert ranked(one + flint.arb(2) ** -80, one) is True and ranked(one, one + flint.arb(2) ** -80) is False
        assert ranked(one + flint.arb(2) ** -200, one) is None  # within the rounding of the working precision
        assert ranked(flint.arb(0, 1), one) is None and ranked(None, one) is None
        with pytest.raises(ParameterError, match="enclose needs reuse=True"):
            golden_section(lambda t: -t * t, 0, 1, iters=5, reuse=False, enclose=lambda t: None)
