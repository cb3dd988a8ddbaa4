"""Random finite laws with exact rational probabilities, for instance families (:mod:`cbdp_sym.verify.instances`):
drawn from a seeded generator (Python's ``random.Random(seed)``: the same seed gives the same laws on every
platform), pushed through kernels, built from logits; and their short descriptions.

>>> import random
>>> P = random_finite(random.Random(1), 3)
>>> P.points, sum(P.probs)
((0, 1, 2), 1)
"""
from __future__ import annotations

import random
import zlib
from fractions import Fraction

import mpmath as mp
import sympy as sp

from cbdp_sym.laws.distributions import Finite
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import to_mpf


def seed_for(name: str) -> int:
    """A reproducible search seed from a name (CRC-32, independent of ``PYTHONHASHSEED``)."""
    return zlib.crc32(name.encode())


def order_mp(x):
    """An order alpha as an mpf: ``"inf"`` -> ``mp.inf``, a rational string (``"3/2"``, ``"1.01"``) exactly
    rounded, an mpf unchanged."""
    if isinstance(x, mp.mpf):
        return x
    return mp.inf if x == "inf" else to_mpf(sp.Rational(x))


def random_pmf(rng: random.Random, k: int, scale: int = 1000, zeros: bool = False) -> list:
    """``k`` exact rational probabilities (SymPy ``Rational``), positive unless ``zeros``; numerators
    drawn uniformly from ``1..scale`` (``0..scale`` with ``zeros``), normalised.  Every few draws one
    entry is made much smaller, so that likelihood ratios span several orders of magnitude."""
    if k < 1:
        raise ParameterError("a law needs at least one point")
    w = [rng.randint(0 if zeros else 1, scale) for _ in range(k)]
    if k > 1 and rng.random() < 0.3:
        w[rng.randrange(k)] = rng.randint(1, 10)
    if sum(w) == 0:
        w[0] = 1
    tot = sum(w)
    return [sp.Rational(x, tot) for x in w]


def random_finite(rng: random.Random, k: int, **kw) -> Finite:
    """A random law on the points ``0, ..., k - 1`` (see :func:`random_pmf`)."""
    return Finite(list(range(k)), random_pmf(rng, k, **kw))


def random_kernel(rng: random.Random, k: int, m: int) -> list:
    """A random Markov kernel from ``k`` to ``m`` points: ``k`` rows, each a pmf on ``m`` points."""
    return [random_pmf(rng, m, zeros=True) for _ in range(k)]


def rational_pmf(values, den: int = 10**6) -> list:
    """Round positive numbers to a pmf of rationals with denominator ``den`` (positive, summing to 1):
    a counterexample found in floating point becomes one anyone can re-run exactly."""
    fr = [max(Fraction(str(mp.nstr(v, 20))).limit_denominator(den), Fraction(1, den)) for v in values]
    tot = sum(fr)
    return [sp.Rational(f.numerator, f.denominator) / sp.Rational(tot.numerator, tot.denominator) for f in fr]


def push_forward(P: Finite, K: list) -> Finite:
    """The law of ``g(X)``, ``X ~ P``, for a Markov kernel ``K`` (rows indexed by P's points in order)."""
    m = len(K[0])
    out = [sum((p * row[j] for p, row in zip(P.probs, K)), sp.Integer(0) if not isinstance(P.probs[0], mp.mpf) else mp.mpf(0))
           for j in range(m)]
    return Finite(list(range(m)), out)


def joint_adaptive(PX: Finite, conds: list) -> Finite:
    """The joint law of ``(X, Y)`` with ``X ~ PX`` and ``Y | X = x_i ~ conds[i]`` (a finite law on
    ``0..m-1``), as a finite law on the points ``i*m + j``."""
    m = max(len(c.probs) for c in conds)
    pts, probs = [], []
    for i, (px, c) in enumerate(zip(PX.probs, conds)):
        for j, pj in enumerate(c.probs):
            pts.append(i * m + j)
            probs.append(px * pj)
    return Finite(pts, probs)


def events(k: int):
    """All non-empty events of a ``k``-point space as tuples of indices (``2^k - 1`` of them)."""
    for mask in range(1, 2**k):
        yield tuple(i for i in range(k) if mask >> i & 1)


def mass(P: Finite, S) -> mp.mpf:
    """``P(S)`` for an event given by point indices (mpf at the working precision)."""
    return mp.fsum(to_mpf(P.probs[i]) for i in S)


def finite_from_logits(y, points=None) -> Finite:
    """A finite law on ``0..len(y)`` (or ``points``) from unconstrained logits (see :func:`softmax`),
    at the working precision: the search coordinates of a law."""
    probs = softmax(y)
    return Finite(list(points) if points is not None else list(range(len(probs))), probs)


def describe(P: Finite, digits: int = 4) -> str:
    """A short label of a finite law: its probabilities rounded for display."""
    return "(" + ", ".join(mp.nstr(mp.mpf(q) if isinstance(q, mp.mpf) else mp.mpf(sp.Rational(q).p) / sp.Rational(q).q,
                                   digits) for q in P.probs) + ")"


def softmax(y) -> list:
    """Probabilities from unconstrained logits (the last logit is 0): the search coordinates of a pmf."""
    z = [mp.mpf(v) for v in y] + [mp.mpf(0)]
    top = max(z)
    e = [mp.exp(v - top) for v in z]
    s = mp.fsum(e)
    return [v / s for v in e]


# -- adversarial search ----------------------------------------------------------------------------
