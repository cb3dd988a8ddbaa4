"""Ball-arithmetic certificates (python-flint's Arb) for counterexamples.

A closed form evaluated at an exact rational point in interval arithmetic gives a ball that
certainly contains its value; two disjoint balls prove two values differ, and a ball entirely
below another proves a strict inequality, whatever floating point did elsewhere.

The SymPy-to-Arb translation is written by hand (a small recursive evaluator): SymPy's ``lambdify``
would turn rationals into floats, which a certificate must not do.
"""
from __future__ import annotations

import sympy as sp

try:  # python-flint is a declared dependency; degrade to "not certified" if it is missing
    import flint
except ImportError:  # pragma: no cover
    flint = None


class NotCertifiable(Exception):
    pass


def _arb(expr):
    A = flint.arb
    if expr.is_Integer:
        return A(int(expr))
    if expr.is_Rational:
        return A(int(expr.p)) / int(expr.q)
    if expr is sp.pi:
        return A.pi()
    if expr is sp.E:
        return A(1).exp()
    if expr.is_Add:
        out = A(0)
        for a in expr.args:
            out += _arb(a)
        return out
    if expr.is_Mul:
        out = A(1)
        for a in expr.args:
            out *= _arb(a)
        return out
    if expr.is_Pow:
        base, ex = expr.args
        if ex.is_Integer:
            return _arb(base) ** int(ex)
        if ex == sp.Rational(1, 2):
            return _arb(base).sqrt()
        b = _arb(base)
        return (_arb(ex) * b.log()).exp()
    if isinstance(expr, sp.exp):
        return _arb(expr.args[0]).exp()
    if isinstance(expr, sp.log):
        return _arb(expr.args[0]).log()
    if isinstance(expr, sp.Abs):
        return abs(_arb(expr.args[0]))
    raise NotCertifiable(f"no ball arithmetic for {type(expr).__name__}")


def arb_value(expr, point: dict, symbols: dict, bits: int = 400):
    """The Arb ball of ``expr`` at ``point`` (name -> exact SymPy rational)."""
    if flint is None:
        raise NotCertifiable("python-flint is not installed")
    e = sp.sympify(expr).subs({symbols[n]: v for n, v in point.items()})
    if e.free_symbols:
        raise NotCertifiable(f"free symbols remain: {sorted(map(str, e.free_symbols))}")
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        return _arb(e)
    finally:
        flint.ctx.prec = old


def certify_different(a_expr, b_expr, point, symbols):
    """Return a sentence proving ``a != b`` at ``point`` with disjoint balls, or ``None``."""
    try:
        a, b = arb_value(a_expr, point, symbols), arb_value(b_expr, point, symbols)
    except (NotCertifiable, ValueError, ZeroDivisionError):
        return None
    if not a.overlaps(b):
        return f"Arb balls at 400 bits are disjoint: {a.str(12, radius=True)} vs {b.str(12, radius=True)}"
    return None


def certify_less(a_expr, b_expr, point, symbols):
    """Return a sentence proving ``a < b`` at ``point``, or ``None``."""
    try:
        a, b = arb_value(a_expr, point, symbols), arb_value(b_expr, point, symbols)
    except (NotCertifiable, ValueError, ZeroDivisionError):
        return None
    if bool(a < b):
        return f"Arb balls at 400 bits: {a.str(12, radius=True)} < {b.str(12, radius=True)}"
    return None
