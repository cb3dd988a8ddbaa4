"""Tests of :mod:`cbdp_sym.laws.finite_laws`: seeded random finite laws with exact probabilities, kernels, events."""
import random

import mpmath as mp
import pytest
import sympy as sp

from cbdp_sym.core.errors import ParameterError
from cbdp_sym.laws.distributions import Finite
from cbdp_sym.laws.finite_laws import (describe, events, finite_from_logits, joint_adaptive, mass, order_mp, push_forward,
                                       random_finite, random_kernel, random_pmf, rational_pmf, seed_for, softmax)


def test_seed_is_the_crc32_of_the_name():
    assert seed_for("abc") == 0x352441C2  # the CRC-32 check value of "abc", whatever PYTHONHASHSEED is


def test_orders():
    assert order_mp("inf") == mp.inf
    assert order_mp("3/2") == mp.mpf(3) / 2
    x = mp.mpf("1.25")
    assert order_mp(x) is x


def test_random_laws_are_exact_reproducible_and_positive():
    a = random_pmf(random.Random(7), 5)
    b = random_pmf(random.Random(7), 5)
    assert a == b and sum(a) == 1 and all(isinstance(p, sp.Rational) and p > 0 for p in a)
    P = random_finite(random.Random(3), 4)
    assert P.points == (0, 1, 2, 3) and sum(P.probs) == 1
    K = random_kernel(random.Random(1), 3, 2)
    assert len(K) == 3 and all(len(row) == 2 and sum(row) == 1 for row in K)
    with pytest.raises(ParameterError, match="at least one point"):
        random_pmf(random.Random(0), 0)


def test_push_forward_and_joint_law():
    half, quarter = sp.Rational(1, 2), sp.Rational(1, 4)
    P = Finite([0, 1, 2], [half, quarter, quarter])
    merge = [[1, 0], [0, 1], [0, 1]]  # g(0) = 0, g(1) = g(2) = 1
    assert push_forward(P, merge).probs == (half, half)
    J = joint_adaptive(Finite([0, 1], [half, half]), [Finite([0, 1], [1, 0]), Finite([0, 1], [quarter, 3 * quarter])])
    assert dict(zip(J.points, J.probs)) == {0: half, 1: 0, 2: sp.Rational(1, 8), 3: sp.Rational(3, 8)}


def test_events_and_their_mass():
    ev = list(events(3))
    assert len(ev) == 7 and ev[0] == (0,) and ev[-1] == (0, 1, 2) and len(set(ev)) == 7
    P = Finite([0, 1, 2], [sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(1, 6)])
    with mp.workdps(30):
        assert mass(P, (1, 2)) == mp.mpf(1) / 2


def test_softmax_logits_and_rounding_to_rationals():
    with mp.workdps(30):
        assert softmax([0]) == [mp.mpf(1) / 2, mp.mpf(1) / 2]
        p = softmax([mp.log(3)])  # the last logit is 0: weights 3 and 1
        assert abs(p[0] - mp.mpf(3) / 4) < mp.mpf(10) ** -28
        assert finite_from_logits([mp.log(3)]).points == (0, 1)
    r = rational_pmf([mp.mpf("0.2"), mp.mpf("0.3"), mp.mpf("0.5")])
    assert r == [sp.Rational(1, 5), sp.Rational(3, 10), sp.Rational(1, 2)]
    assert rational_pmf([0, 1])[0] > 0 and sum(rational_pmf([0, 1])) == 1  # positive even where the float was 0
    assert describe(Finite([0, 1], [sp.Rational(1, 3), sp.Rational(2, 3)]), 3) == "(0.333, 0.667)"
