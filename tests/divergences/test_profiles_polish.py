"""The working-precision polish of a root located in double precision (:func:`profiles._secant_polish`)."""
import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.numbers import digits
from cbdp_sym.divergences import profiles
from cbdp_sym.divergences.profiles import eps_for_delta, float_root, mechanism_pair, profile_float, profile_mp


def _counted(P, Q):
    calls = []

    def f(e):
        calls.append(e)
        return profile_mp(P, Q, e)

    return f, calls


@pytest.mark.parametrize("mech, value, delta", [("gaussian", 1, "1e-5"), ("laplace", 1, "1e-10")])
def test_polish_from_the_double_precision_root_takes_four_profiles_and_finds_the_bracketed_root(mech, value, delta):
    """Four working-precision profiles from the double-precision root (the bracketed Illinois polish took 6 for the
    Gaussian, 12 for the Laplace pair near its largest log-ratio), and the root of the 20-digit bracket search."""
    _l, P, Q = mechanism_pair(mech, sp.Integer(value))
    d = mp.mpf(delta)
    start = float_root(profile_float(P, Q), float(d))
    with mp.workdps(40):
        f, calls = _counted(P, Q)
        fast = eps_for_delta(f, d, start=start)
        slow = eps_for_delta(lambda e: profile_mp(P, Q, e), d)
        assert len(calls) <= 4
        assert digits(fast, slow) >= 38
        assert abs(start / fast - 1) < 1e-13  # the double-precision locator was within its bracket of the root


def test_polish_declines_where_the_secant_cannot_go_and_the_bracket_search_answers():
    """A start whose secant step leaves ``[0, oo)`` (a flat profile there): no decision, the bracketed path answers."""
    calls = []

    def prof(e):
        calls.append(e)
        return mp.mpf("0.5")  # flat: the secant is undefined

    with mp.workdps(30):
        assert profiles._secant_polish(prof, mp.mpf("0.1"), mp.mpf(2)) is None
    assert len(calls) == 2


def test_polish_stops_on_the_predicted_error_not_on_a_repeated_evaluation():
    """A smooth exact profile ``e^-eps``: the root ``log(1/d)`` to the working precision."""
    with mp.workdps(50):
        d = mp.mpf("1e-7")
        seen = []
        r = profiles._secant_polish(lambda e: seen.append(e) or mp.exp(-e), d, mp.mpf(float(-mp.log(d))))
        assert digits(r, -mp.log(d)) >= 49 and len(seen) <= 5
