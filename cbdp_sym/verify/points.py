"""Claim sides at exact points: evaluation of a closed form at a point of the parameters (``evaluate``), the
signed relative slack of a bound, and the map between a parameter's domain and the unconstrained search
coordinate.  Used by :mod:`cbdp_sym.verify.engine` (the audit of a claim) and :mod:`cbdp_sym.verify.regions` (failure regions).
"""
from __future__ import annotations

import math

import mpmath as mp
import sympy as sp

from cbdp_sym.calculus.certify import NotCertifiable, substitute_point
from cbdp_sym.verify.claims import Claim
from cbdp_sym.laws.distributions import X
from cbdp_sym.divergences.fdiv import Expect
from cbdp_sym.core.errors import CbdpError
from cbdp_sym.core.numbers import PrecisionError, evalf_checked, mp_str, parse_number, to_mpf
from cbdp_sym.divergences.numeric import expect_mp
from cbdp_sym.core.verdict import relative_slack


def evaluate(expr, point: dict, claim: Claim):
    """Evaluate a closed form at an exact point, at the working precision (mpf)."""
    syms = claim.symbols()
    vectors = {n: v for n, v in point.items() if isinstance(v, sp.Tuple)}
    scalars = {syms[n]: v for n, v in point.items() if n not in vectors}
    e = sp.sympify(expr)
    if not e.has(Expect) and not vectors:
        # evalf with substitution: adaptive precision (cancellation-safe) without building exact huge powers
        if e.free_symbols - set(scalars):
            raise CbdpError(f"{claim.id}: free symbols {sorted(map(str, e.free_symbols - set(scalars)))} after substitution")
        try:
            val = evalf_checked(e, mp.mp.dps + 5, scalars)
        except PrecisionError:
            val = None  # (no digits that way: substitute exactly below, where to_mpf tries again or refuses)
        if val is not None and not val.free_symbols and val.is_number and (val.is_real or val.is_infinite):
            return to_mpf(val)
        # (a Piecewise or a special function evalf could not settle: substitute exactly below)
    try:
        e = substitute_point(e, point, syms)  # scalars, then sums over a vector's coordinates and v[k]
    except NotCertifiable as exc:
        raise CbdpError(f"{claim.id}: {exc}") from None
    if e.has(Expect):
        if claim.laws is None:
            raise CbdpError(f"{claim.id}: an expectation needs an instance of the laws")
        laws = claim.laws(point)
        reps = {}
        for atom in sorted(e.atoms(Expect), key=sp.default_sort_key):
            law = laws[str(atom.args[0])]
            body = sp.lambdify(X, atom.args[1], modules="mpmath")
            reps[atom] = sp.Float(mp_str(expect_mp(law, body), mp.mp.dps), mp.mp.dps)
        e = e.xreplace(reps)
    if e.free_symbols:
        raise CbdpError(f"{claim.id}: free symbols {sorted(map(str, e.free_symbols))} after substitution")
    return to_mpf(e)

class _Unevaluable(Exception):
    pass

def _slack(kind, cla, ref):
    """Signed relative slack of a bound: positive when it holds (:func:`cbdp_sym.core.verdict.relative_slack`)."""
    return relative_slack(kind, cla, ref)

def _to_search(param, x):
    """Map a parameter value to the unconstrained search coordinate (log for scales, logit for (0,1))."""
    x = float(x)
    if param.domain in ("gt1", "gt1-or-inf"):
        return math.log(x - 1)
    if param.domain in ("positive", "positive-int"):
        return math.log(x)
    if param.domain == "unit":
        return math.log(x / (1 - x))
    return x

def _from_search(param, y):
    if param.domain in ("gt1", "gt1-or-inf"):
        return 1 + math.exp(y)
    if param.domain in ("positive", "positive-int"):
        return math.exp(y)
    if param.domain == "unit":
        return 1 / (1 + math.exp(-y))
    return y

def parse_exact(text):
    return parse_number(str(text))
