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
    if vectors and not e.has(Expect):
        # exact substitution builds exact huge powers where a scale meets a large conjugate exponent (CBDP-T13 at
        # alpha = 1001/1000: eps^1001 and Gamma(1002) under a power 1 - alpha took about a minute per point):
        # evaluate the vector-substituted form in mpmath instead, checked at two precisions
        val = _fast_vector_value(e, point, syms, vectors)
        if val is not None:
            return val
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

# -- points with vectors: the closed form with its vectors substituted, compiled once for mpmath -------------
_NOT_COMPILED = (sp.Piecewise, sp.Integral, sp.Sum, sp.Product, sp.Limit, sp.Derivative, sp.Indexed, sp.Subs)
_FAST_FORMS: dict = {}
_FAST_EXTRA = (20, 40)  # the two extra precisions (digits) whose results must round alike


def _fast_form(e, point, syms, vectors):
    """``(function, scalar names)``: ``e`` with the vectors and the integer scalars of ``point`` substituted (sums
    over coordinates expanded), compiled for mpmath in the remaining scalars; ``None`` where that form keeps
    anything but elementary and special functions (a Piecewise, an unevaluated sum or integral)."""
    ints = {n: v for n, v in point.items() if n not in vectors and getattr(syms.get(n), "is_integer", False)}
    rest = tuple(sorted(n for n in point if n not in vectors and n not in ints))
    key = (e, tuple((n, syms[n]) for n in sorted(point)), tuple(sorted((n, str(v)) for n, v in {**ints, **vectors}.items())))
    if key not in _FAST_FORMS:
        try:
            form = substitute_point(e, {**ints, **vectors}, syms)
            ok = (not form.has(*_NOT_COMPILED) and form.free_symbols <= {syms[n] for n in rest})
            fn = sp.lambdify([syms[n] for n in rest], form, modules=[{"Log1p": mp.log1p}, "mpmath"]) if ok else None
        except Exception:  # noqa: BLE001 - no compiled form: the exact substitution decides
            fn = None
        _FAST_FORMS[key] = (fn, rest)
    return _FAST_FORMS[key]


def _fast_vector_value(e, point, syms, vectors):
    """``e`` at ``point`` (with vectors) rounded to the working precision, from its compiled form evaluated at
    20 and at 40 extra digits (exact rational inputs rounded there); ``None`` unless both are finite non-zero reals
    that round to the same number.  A cancellation that costs more than 20 digits makes the two differ; one that
    leaves 0 at both (every digit cancelled) is not trusted either: the exact substitution, whose evalf adapts its
    precision, decides those.  The value is then the correctly rounded one (the exact path's evalf agrees with it
    to the working precision, and can differ in the last bit where it evaluates a Log1p)."""
    fn, rest = _fast_form(e, point, syms, vectors)
    if fn is None:
        return None
    vals = []
    try:
        for extra in _FAST_EXTRA:
            with mp.workdps(mp.mp.dps + extra):
                args = [_mp_exact(point[n]) for n in rest]
                v = fn(*args)
            if not isinstance(v, mp.mpf) or not mp.isfinite(v):
                return None
            vals.append(+v)  # rounded to the working precision
    except Exception:  # noqa: BLE001 - a domain error, a complex value: the exact substitution decides
        return None
    return vals[0] if vals[0] == vals[1] and vals[0] != 0 else None


def _mp_exact(x):
    """An exact SymPy number as an mpf at the current precision."""
    x = sp.sympify(x)
    if x.is_Integer:
        return mp.mpf(int(x))
    if x.is_Rational:
        return mp.mpf(int(x.p)) / int(x.q)
    return to_mpf(x)


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


def _value_size(v) -> float:
    """How hard a parameter value is to read and re-run: its digits, plus its distance from 1 in decades."""
    text = str(v)
    n = sum(ch.isdigit() for ch in text)
    try:
        x = abs(float(sp.Rational(text))) if "," not in text and "(" not in text else 1.0
    except (TypeError, ValueError, ZeroDivisionError):
        x = 1.0
    return n + (abs(math.log10(x)) if x > 0 and math.isfinite(x) else 0.0)


def point_simplicity(params: dict) -> float:
    """Sort key of a parameter point: smaller is simpler (few digits, magnitudes near 1).

    >>> point_simplicity({"eps": "1", "alpha": "3"}) < point_simplicity({"eps": "1/1000", "alpha": "1000"})
    True
    """
    return sum(_value_size(v) for v in params.values())
