"""Conversions between user input, SymPy numbers and mpmath numbers."""
from __future__ import annotations

import re
from fractions import Fraction

import mpmath as mp
import sympy as sp

from cbdp_sym.core.errors import ParameterError


def parse_number(text: str, name: str = "value") -> sp.Expr:
    """Parse a decimal or rational string into an exact SymPy number.

    >>> parse_number("0.25")
    1/4
    >>> parse_number("7/2")
    7/2
    """
    s = str(text).strip()
    if s.lower() in ("inf", "+inf", "oo", "infinity"):
        return sp.oo
    bad = ParameterError(f"{name}={text!r} is not a number (use a decimal such as 0.5 or a ratio such as 7/2)")
    parts = s.split("/")
    # one number form per value: a decimal, or a ratio of two decimals (``2/3/4`` is refused)
    if len(parts) > 2 or not all(_DECIMAL.match(p.strip()) for p in parts):
        raise bad
    exponent = max((abs(int(m.group(1))) for p in parts for m in [_EXPONENT.search(p)] if m), default=0)
    if exponent > 10000:
        raise ParameterError(f"{name}={text!r}: the exponent is too large to handle (at most 10000)")
    try:
        if len(parts) == 2:
            value = Fraction(Fraction(parts[0].strip()), Fraction(parts[1].strip()))
        else:
            value = Fraction(s)
    except (ValueError, ZeroDivisionError):
        raise bad from None
    return sp.Rational(value.numerator, value.denominator)


_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\Z")
_EXPONENT = re.compile(r"[eE]([+-]?\d+)")

# the range of parameter magnitudes where the command line's numerics are trusted
MAGNITUDE = (sp.Rational(1, 10**12), sp.Integer(10) ** 12)


def check_magnitude(value, name: str) -> None:
    """Refuse a finite value outside ``1e-12 <= |x| <= 1e12`` (0 allowed) with a one-line reason.

    Beyond that range the quadratures and closed forms lose digits or overflow (``eps=1e400`` printed
    16 where the value is 1e400); such a value is refused rather than printed wrong.

    >>> check_magnitude(sp.Rational(1, 2), "eps")
    >>> check_magnitude(sp.Integer(10) ** 400, "eps")
    Traceback (most recent call last):
    ...
    cbdp_sym.core.errors.ParameterError: eps=1.000e+400 is outside the range of magnitudes handled here (1e-12 <= |x| <= 1e12)
    """
    if isinstance(value, (tuple, list, sp.Tuple)):
        for v in value:
            check_magnitude(v, name)
        return
    v = sp.sympify(value) if not isinstance(value, sp.Basic) else value
    if not v.is_number or v.is_infinite or v == 0:
        return
    a = abs(v)
    if a > MAGNITUDE[1] or a < MAGNITUDE[0]:
        raise ParameterError(f"{name}={_short(v)} is outside the range of magnitudes handled here "
                             "(1e-12 <= |x| <= 1e12)")


def _short(v) -> str:
    with mp.workdps(15):
        return mp.nstr(to_mpf(v), 4, min_fixed=-4, max_fixed=6, strip_zeros=False)


class PrecisionError(ParameterError):
    """A value could not be computed to the significant digits asked for."""


def to_mpf(value) -> mp.mpf:
    """Convert a SymPy expression, a Fraction, an int or an mpf to an mpf at the current precision."""
    if isinstance(value, mp.mpf):
        return value
    if isinstance(value, (int,)):
        return mp.mpf(value)
    if isinstance(value, Fraction):
        return mp.mpf(value.numerator) / value.denominator
    expr = sp.sympify(value)
    if expr.is_Rational:
        return mp.mpf(int(expr.p)) / int(expr.q)
    if expr is sp.oo:
        return mp.inf
    if expr is -sp.oo:
        return -mp.inf
    if expr.free_symbols:
        raise ParameterError(f"cannot evaluate {expr}: free symbols {sorted(map(str, expr.free_symbols))}")
    val = evalf_checked(expr, mp.mp.dps + 10)
    if not val.is_real:
        raise ParameterError(f"{expr} is not a real number")
    return mp.mpf(val._to_mpmath(mp.mp.prec + 40))


def evalf_checked(expr, n: int, subs=None):
    """``expr.evalf(n, subs=subs)`` that never returns a number without its significant digits.

    SymPy's evalf returns, for instance, ``0.e-190`` (one bit of precision) for ``1 - erf(30)``: a
    cancellation it could not resolve.  Here evalf runs with ``strict=True``; when the precision is
    exhausted the expression is rewritten without the cancelling forms (``erf -> 1 - erfc``) and tried
    again, with a larger working budget; a value still without its digits raises :class:`PrecisionError`.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", positive=True)
    >>> str(evalf_checked(1 - sp.erf(x), 20, {x: 30}))[:12]
    '2.5646562037'
    """
    expr = sp.sympify(expr)
    kw = {"subs": subs} if subs else {}
    tries = (expr, expr.rewrite(sp.erfc) if expr.has(sp.erf) else None)
    for e in tries:
        if e is None:
            continue
        for maxn in (max(100, 2 * n), 20 * n + 2000):
            try:
                val = e.evalf(n, strict=True, maxn=maxn, **kw)
            except sp.core.evalf.PrecisionExhausted:
                continue
            except (ValueError, TypeError):
                break
            if val.is_Float and val != 0 and val._prec < 3.3 * n - 8:
                continue
            return val
    try:  # an exact zero that evalf cannot distinguish from zero (sin(pi), log(1) - 0, ...)
        if sp.simplify(expr.subs(subs) if subs else expr) == 0:
            return sp.Float(0)
    except (ValueError, TypeError):
        pass
    raise PrecisionError(f"cannot evaluate {sp.sstr(expr)[:120]} to {n} significant digits (cancellation)")


class Estimate(mp.mpf):
    """An mpf that knows how many significant digits were actually established (a solver's accuracy,
    the agreement of two methods, the precision a value was computed at).  Arithmetic gives plain mpfs;
    :func:`mp_str` never prints more digits than ``digits``.

    >>> import mpmath as mp
    >>> with mp.workdps(60):
    ...     v = Estimate(mp.pi, 25)
    ...     mp_str(v, 50)
    '3.141592653589793238462643'
    """

    def __new__(cls, value, digits):
        obj = mp.mpf.__new__(cls, value)
        obj.digits = int(digits)
        return obj

    def __reduce__(self):  # (pickled between a claim's worker and the audit process)
        return (_estimate, (self._mpf_, self.digits))


def _estimate(mpf_tuple, digits):
    return Estimate(mp.mpf(mpf_tuple), digits)


def established(x, default: int | None = None):
    """The significant digits established for ``x`` (an :class:`Estimate`), else ``default``."""
    return getattr(x, "digits", default)


def mp_str(x, digits: int | None = None) -> str:
    """A decimal string of an mpf (or "inf"/"-inf"/"nan"), at ``digits`` significant digits (never more
    than an :class:`Estimate` established)."""
    if x is None:
        return None
    if isinstance(x, Estimate):
        digits = min(digits or mp.mp.dps, x.digits)
    if not isinstance(x, mp.mpf):  # (an mpf is printed as it is: converting would round it to the context)
        x = mp.mpf(x)
    if mp.isinf(x):
        return "inf" if x > 0 else "-inf"
    if mp.isnan(x):
        return "nan"
    return mp.nstr(x, digits or mp.mp.dps, strip_zeros=False, min_fixed=-4, max_fixed=6)


def digits(x, y) -> mp.mpf:
    """Relative digits of agreement: ``-log10(|x - y| / max(|x|, |y|))`` (``+inf`` when equal).

    Where one side is exactly zero a relative error means nothing; the absolute digits
    ``-log10(|x - y|)`` are reported instead (stated in the reports).

    >>> from mpmath import mpf
    >>> round(float(digits(mpf(1), mpf('1.001'))), 3)
    3.0
    """
    x, y = mp.mpf(x), mp.mpf(y)
    if x == y:
        return mp.inf
    if x == 0 or y == 0:
        return -mp.log10(abs(x - y))
    scale = max(abs(x), abs(y))
    return -mp.log10(abs(x - y) / scale)
