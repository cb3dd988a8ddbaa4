"""The SPEC language that names laws on the command line (``cbdp-sym restricted``, ``profile`` and ``divergence``).

Laws with a density: ``laplace(loc, scale)``, ``normal(loc, std)`` (the **standard deviation**), ``point(loc)``,
``product(SPEC, ...)``.  Laws on the integers: ``dgauss(mu, sigma)`` (the discrete Gaussian ``N_Z(mu, sigma^2)``:
``P(k)`` proportional to ``exp(-(k - mu)^2 / (2 sigma^2))``; ``sigma`` is the kernel's scale, not the standard
deviation), ``dlaplace(mu, t)`` (``P(k)`` proportional to ``exp(-|k - mu| / t)``, ``t`` the scale),
``geometric(p)`` (failures before the first success, ``p (1 - p)^k``), ``binomial(n, p)``, ``poisson(lam)``.

>>> parse_law("laplace(0, 1/2)")
Laplace(loc=0, scale=1/2)
>>> parse_law("dgauss(0, 3)")
DiscreteGaussian(loc=0, sigma=3)
"""
from __future__ import annotations

import re

from cbdp_sym.laws.discrete import Binomial, DiscreteGaussian, DiscreteLaplace, Geometric, Poisson
from cbdp_sym.laws.distributions import Distribution, Laplace, Normal, PointMass, Product
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import parse_number


_LAW_RE = re.compile(r"^\s*(laplace|normal|point)\s*\((.*)\)\s*$", re.I)
_LATTICE_RE = re.compile(r"^\s*(dgauss|dlaplace|geometric|binomial|poisson)\s*\((.*)\)\s*$", re.I)
# name: (number of arguments, their names, the factory, which arguments must be positive / in (0, 1) / integers)
_LATTICE = {
    "dgauss": (("mu", "sigma"), DiscreteGaussian, {"sigma": "positive"}),
    "dlaplace": (("mu", "t"), DiscreteLaplace, {"t": "positive"}),
    "geometric": (("p",), Geometric, {"p": "unit"}),
    "binomial": (("n", "p"), Binomial, {"n": "count", "p": "unit"}),
    "poisson": (("lam",), Poisson, {"lam": "positive"}),
}


def _parse_lattice(spec, kind, args):
    names, factory, checks = _LATTICE[kind]
    if len(args) != len(names):
        raise ParameterError(f"law spec {spec!r}: {kind}() takes {len(names)} number(s) ({', '.join(names)}), "
                             f"got {len(args)}")
    vals = [parse_number(a, f"{kind} argument {n}") for a, n in zip(args, names)]
    for v, n in zip(vals, names):
        if v.is_infinite:
            raise ParameterError(f"law spec {spec!r}: {n} must be finite")
        rule = checks.get(n)
        if rule == "positive" and not v > 0:
            raise ParameterError(f"law spec {spec!r}: {n} must be positive, got {v}")
        if rule == "unit" and not 0 < v < 1:
            raise ParameterError(f"law spec {spec!r}: {n} must lie strictly between 0 and 1, got {v}")
        if rule == "count" and not (v.is_integer and v >= 1):
            raise ParameterError(f"law spec {spec!r}: {n} must be a positive integer, got {v}")
    return factory(*vals)


def split_args(text: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [o.strip() for o in out]


def parse_law(spec: str) -> Distribution:
    """A law from a CLI spec: ``laplace(loc,scale)``, ``normal(loc,std)``, ``point(loc)``, ``product(...)``, and the
    laws on the integers ``dgauss(mu,sigma)``, ``dlaplace(mu,t)``, ``geometric(p)``, ``binomial(n,p)``, ``poisson(lam)``.

    ``normal`` takes the **standard deviation** (not the variance); ``laplace`` takes the scale
    (CBDP's ``Lap(mu, 1/eps)`` is ``laplace(mu, 1/eps)``).

    >>> parse_law("laplace(0, 1/2)")
    Laplace(loc=0, scale=1/2)
    >>> parse_law("product(normal(0,1), normal(1,2))").dim
    2
    """
    s = str(spec).strip()
    m = re.match(r"^\s*product\s*\((.*)\)\s*$", s, re.I)
    if m:
        parts = split_args(m.group(1))
        if not parts:
            raise ParameterError(f"law spec {spec!r}: product() needs at least one law")
        return Product(*[parse_law(p) for p in parts])
    m = _LATTICE_RE.match(s)
    if m:
        return _parse_lattice(spec, m.group(1).lower(), split_args(m.group(2)))
    m = _LAW_RE.match(s)
    if not m:
        raise ParameterError(f"law spec {spec!r} not understood: use laplace(loc,scale), normal(loc,std), "
                             "point(loc), product(SPEC, ...), dgauss(mu,sigma), dlaplace(mu,t), geometric(p), "
                             "binomial(n,p) or poisson(lam)")
    kind, args = m.group(1).lower(), split_args(m.group(2))
    want = 1 if kind == "point" else 2
    if len(args) != want:
        raise ParameterError(f"law spec {spec!r}: {kind}() takes {want} number(s), got {len(args)}")
    vals = [parse_number(a, f"{kind} argument") for a in args]
    if kind == "point":
        return PointMass(vals[0])
    if not vals[1] > 0:
        raise ParameterError(f"law spec {spec!r}: the {'scale' if kind == 'laplace' else 'standard deviation'} "
                             f"must be positive, got {args[1]}")
    return Laplace(*vals) if kind == "laplace" else Normal(*vals)
