"""Conversions between user input, SymPy numbers and mpmath numbers."""
from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import sympy as sp

from .errors import ParameterError


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
    try:
        if "/" in s:
            num, den = s.split("/", 1)
            value = Fraction(Fraction(num.strip()), Fraction(den.strip()))
        else:
            value = Fraction(s)
    except (ValueError, ZeroDivisionError):
        raise ParameterError(f"{name}={text!r} is not a number (use a decimal such as 0.5 or a ratio such as 7/2)") from None
    return sp.Rational(value.numerator, value.denominator)


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
    val = expr.evalf(mp.mp.dps + 10)
    if not val.is_real:
        raise ParameterError(f"{expr} is not a real number")
    return mp.mpf(val._to_mpmath(mp.mp.prec + 40))


def mp_str(x, digits: int | None = None) -> str:
    """A decimal string of an mpf (or "inf"/"-inf"/"nan"), at ``digits`` significant digits."""
    if x is None:
        return None
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
