"""The SPEC language that names laws on the command line (``cbdp-sym restricted`` and ``cbdp-sym profile``).

>>> parse_law("laplace(0, 1/2)")
Laplace(loc=0, scale=1/2)
"""
from __future__ import annotations

import re

from cbdp_sym.laws.distributions import Distribution, Laplace, Normal, PointMass, Product
from cbdp_sym.core.errors import ParameterError
from cbdp_sym.core.numbers import parse_number


_LAW_RE = re.compile(r"^\s*(laplace|normal|point)\s*\((.*)\)\s*$", re.I)


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
    """A law from a CLI spec: ``laplace(loc,scale)``, ``normal(loc,std)``, ``point(loc)``, ``product(...)``.

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
    m = _LAW_RE.match(s)
    if not m:
        raise ParameterError(f"law spec {spec!r} not understood: use laplace(loc,scale), normal(loc,std), "
                             "point(loc) or product(SPEC, ...)")
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
